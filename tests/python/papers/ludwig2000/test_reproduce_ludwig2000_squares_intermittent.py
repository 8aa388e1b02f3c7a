"""`lossylink reproduce ludwig2000 --only s12 --only s13`: the squares model of Fig 5-7 (an
analytical computation, no runs) and intermittent connectivity on the wan preset. S12's
packet-level runs (RT14) are tested in test_reproduce_ludwig2000_spurious_cost.py."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from lossylink.errors import InvalidValueError
from lossylink.papers import ludwig2000 as l2k
from lossylink.papers.ludwig2000.intermittent.runs import HOP, holds
from lossylink.papers.ludwig2000.intermittent.targets import S13_TABLE
from lossylink.papers.ludwig2000.spurious_cost import model as squares
from lossylink.papers.ludwig2000.spurious_cost.targets import DEVIATION
from lossylink.papers.ludwig2000.spurious_cost.targets import MODEL_TABLE as S12_TABLE
from lossylink.papers.ludwig2000.spurious_cost.targets import TABLE as PKT_TABLE
from lossylink.reproduce import Outcome, Reproduction, evaluate, reproduce
from lossylink.result import RunResult
from support import L2K_DOC, RUST_TESTS, l2k_target

RUST_TEST = RUST_TESTS / "intermittent_s13.rs"
DOC = L2K_DOC
WINDOWS = (2.0, 8.0, 18.0, 26.0, 64.0, 1000.0, 142.47)


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> Reproduction:
    return reproduce("ludwig2000", groups=["s12", "s13"], out=tmp_path_factory.mktemp("l2k-more"))


_target = l2k_target
TARGETS = [t for t in l2k.TARGETS if t.table in (S12_TABLE, S13_TABLE)]
"""The squares model's targets and S13's, in the catalogue's order."""


# -- the squares model ----------------------------------------------------------------------------


@pytest.mark.parametrize("w", WINDOWS)
def test_the_model_gives_the_dissertations_four_numbers_for_any_w(w: float) -> None:
    got = {(c.event, c.pipe): c.loss_pct for c in squares.cases(w)}
    assert got == pytest.approx(
        {
            ("fast-retransmit", 0.5): 100 / 11,
            ("fast-retransmit", 1.0): 40 / 3,
            ("timeout", 0.5): 100 / 3,
            ("timeout", 1.0): 50.0,
        }
    )
    for key, pct in squares.DISSERTATION_PCT.items():
        assert abs(got[key] - pct) <= 0.5, key  # RT13


def test_the_squares_are_those_of_the_spec() -> None:
    areas = [v for c in squares.cases(40.0) for v in (c.without, c.with_, c.interval)]
    assert areas == pytest.approx([6, 5.5, 1.5, 8.5, 7.5, 1.5, 8, 6, 2, 12, 8, 2])


@pytest.mark.parametrize("event", squares.EVENTS)
@pytest.mark.parametrize("pipe", squares.PIPES)
def test_exact_areas_match_a_numerical_integration_of_the_curves(event: str, pipe: float) -> None:
    """The closed form against the trapezoid rule on the figure's curves (units of W and
    cycles: a square is W/4 by half a cycle, 1/8)."""
    t, without, with_ = squares.load_curves(event, 64.0, points=200_001)
    after = t >= squares.CYCLES_BEFORE
    # The jump at the event is a vertical step; start where the load with the event is low.
    first = int(np.argmax(after & (with_ < 1.0)))
    ts = t[first:]
    area_without = np.trapezoid(np.minimum(without[first:], pipe), ts) / (1 / 8)
    area_with = np.trapezoid(np.minimum(with_[first:], pipe), ts) / (1 / 8)
    c = squares.case(event, pipe, 64.0)
    assert area_without == pytest.approx(c.without, abs=1e-3)
    assert area_with == pytest.approx(c.with_, abs=1e-3)


def test_ramp_area_below_across_and_above_the_pipe() -> None:
    assert squares.ramp_area(0.0, 2.0, 10.0) == 2.0  # under the pipe: a triangle
    assert squares.ramp_area(0.0, 4.0, 2.0) == 2.0 + 2.0 * 2.0  # crosses it at 2
    assert squares.ramp_area(5.0, 3.0, 2.0) == 6.0  # above it: the pipe
    assert squares.ramp_area(1.0, 0.0, 2.0) == 0.0


def test_the_model_rejects_bad_input() -> None:
    with pytest.raises(InvalidValueError, match=r"event: 'reorder' \(allowed: fast-retransmit"):
        squares.case("reorder", 0.5)
    with pytest.raises(InvalidValueError, match="pipe"):
        squares.case("timeout", 0.0)
    with pytest.raises(InvalidValueError, match="w"):
        squares.loss("timeout", 0.5, w=-1.0)


def test_load_curves_start_on_the_sawtooth_and_end_at_w() -> None:
    t, without, with_ = squares.load_curves("timeout", 64.0)
    assert t[0] == 0.0
    assert t[-1] == squares.CYCLES_BEFORE + 2.0
    assert (without[0], with_[0], with_[-1]) == (0.5, 0.5, 1.0)
    assert without.min() == 0.5
    assert without.max() == 1.0
    assert with_.min() == 0.0  # the timeout empties the load
    assert np.all(np.diff(t) >= 0)


# -- the catalogue --------------------------------------------------------------------------------


def test_s13_is_the_scenario_of_intermittent_s13_rs() -> None:
    rust = RUST_TEST.read_text()
    assert "let h = holds(12, 5, 10, 5);" in rust
    assert '"wan"' in rust
    assert '("error_every", "0")' in rust
    assert '("hops.2.forward.hiccups", h.as_str())' in rust
    for run, scheme in (("s13-e2e", "e2e"), ("s13-eifel", "e2e+eifel")):
        e = l2k.BY_ID[run]
        assert e.preset == "wan"
        assert dict(e.overrides) == {"scheme": scheme, "error_every": "0", HOP: holds(5.0)}
    items = re.findall(r'\{ kind = "hold", at = "(\d+)s", duration = "5s" \}', holds(5.0))
    assert [int(a) for a in items] == list(range(5, 125, 10))


def test_s12_model_reads_no_runs_and_its_targets_say_so() -> None:
    sel = l2k.select({"s12"})
    assert {e.preset for e in sel.experiments} == {"wan"}  # only the packet-level runs
    assert [f.key for f in sel.figures] == ["fig5-7", "s12-loss"]
    s12 = [t for t in TARGETS if t.table == S12_TABLE]
    assert len(s12) == 9  # RT13 (4), the worked example (3), W-independence, RT29
    for t in s12:
        assert t.needs == ()
        assert "analytical model" in t.expected or "analytical model" in t.description
    paper = {t.id: t.paper for t in s12 if t.id.count(".") == 2 and "example" not in t.id}
    assert paper == {"s12.fr.half": 9, "s12.fr.full": 13, "s12.rto.half": 33, "s12.rto.full": 50}


# -- one reproduction -----------------------------------------------------------------------------


def test_every_new_target_passes(rep: Reproduction) -> None:
    ours = [v for v in rep.verdicts if v.target.table != PKT_TABLE]
    assert [v.target.id for v in ours] == [t.id for t in TARGETS]
    assert len(ours) == 22  # with RT29
    for v in ours:
        assert v.verdict == "pass", (v.target.id, v.ours, v.reason)
    explained = [v.target.id for v in rep.verdicts if v.verdict != "pass"]
    assert explained == ["s12.pkt.fr.full.eifel"]


def test_s13_values_are_those_of_the_rust_test(rep: Reproduction) -> None:
    ours = {v.target.id: v.ours for v in rep.verdicts if v.target.table == S13_TABLE}
    assert ours["s13.e2e.timeouts"] == 12
    assert ours["s13.eifel.timeouts"] == 9  # it finishes before the tenth outage
    assert ours["s13.e2e.go_back_n"] is not None
    assert ours["s13.e2e.go_back_n"] > 20
    assert ours["s13.gain"] == pytest.approx(1.30, abs=0.02)  # docs/scenarios.md: +30 %
    assert ours["s13.3s.gain"] == pytest.approx(1.16, abs=0.02)  # +16 %


def test_outputs_label_s12_as_a_model(rep: Reproduction) -> None:
    assert rep.out is not None
    for key in ("fig5-7", "s12-loss", "s13", "s13-holds"):
        for fmt in ("png", "svg"):
            assert (rep.out / "figures" / f"{key}.{fmt}").stat().st_size > 1000, key
    text = (rep.out / "tables.md").read_text()
    assert "S12 is an analytical model (Fig 5-7), not a simulation." in text
    assert "## S12: the cost model of Fig 5-7 (analytical)" in text
    assert "| spurious timeout | W | W/2 → 0 | 2 | 12 | 8 | 50.0 | 50 |" in text
    assert "not a simulation" in (rep.out / "figures" / "fig5-7.svg").read_text()
    data = json.loads((rep.out / "targets.json").read_text())
    assert data["summary"][S12_TABLE]["pass"] == 9


def test_docs_have_the_section_and_the_rows() -> None:
    doc = DOC.read_text()
    assert '<a id="s12-s13"></a>' in doc
    for t in TARGETS:
        desc = t.description.replace("|", "\\|")
        assert f"| {t.table} | {desc} |" in doc, t.id


# -- the targets can fail ---------------------------------------------------------------------


def test_a_wrong_model_fails_rt13() -> None:
    """The timeout's loss in place of the fast retransmit's, and a model in which the fast
    retransmit hits at the top of the cycle (the load W → W/2: no loss at a W/2 pipe)."""
    t = _target("s12.fr.half")
    wrong = dataclasses.replace(t, value=lambda _m: squares.loss("timeout", 0.5))
    at_peak = dataclasses.replace(t, value=lambda _m: 0.0)
    verdicts = evaluate([t, wrong, at_peak], [], [])
    assert [v.verdict for v in verdicts] == ["pass", "fail", "fail"]


def test_rt29_the_equation_is_the_cycles_rate_and_a_wrong_cycle_fails() -> None:
    """RT29 (§2.3.3, Fig 2-6): the sawtooth's cycle sends (3/8)·W² segments in W/2 RTTs, and
    MSS/RTT · sqrt(3/(2p)) with p = 1/(3/8 · W²) is that rate exactly. A cycle that rose from
    W/4 (the load after a spurious fast retransmit) or a loss rate of one per W² segments is
    off the equation and fails."""
    assert squares.tcp_friendly_rate(460.0, 2.0, 1.0 / 96.0) == pytest.approx(460.0 / 2.0 * 12.0)
    rate, p = squares.cycle_rate(26.0)
    assert (rate, p) == (pytest.approx(19.5), pytest.approx(1.0 / 253.5))
    with pytest.raises(InvalidValueError, match="p 0"):
        squares.tcp_friendly_rate(1.0, 1.0, 0.0)
    t = _target("s12.rt29")
    w = 26.0
    slow = squares.ramp_area(w / 4.0, 3.0 * w / 4.0, w) / (3.0 * w / 4.0)
    sparse = squares.tcp_friendly_rate(1.0, 1.0, 1.0 / (w * w))
    wrong = [
        dataclasses.replace(
            t, value=lambda _m, r=r: abs(r / squares.tcp_friendly_rate(1, 1, p) - 1)
        )
        for r in (slow, sparse)
    ]
    assert [v.verdict for v in evaluate([t, *wrong], [], [])] == ["pass", "fail", "fail"]


def test_reno_in_place_of_eifel_fails_s13() -> None:
    reno = {"sender_timeouts": 12, "sender_spurious_timeouts": 0,
            "sender_retransmitted_segments": 265, "throughput_mbps": 0.55,
            "completion_s": 122.5}  # fmt: skip
    outcomes = []
    for run in ("s13-e2e", "s13-eifel"):
        o = Outcome(l2k.BY_ID[run], True)
        o.results = [RunResult(dict(reno))]
        outcomes.append(o)
    ids = ("s13.eifel.all_detected", "s13.eifel.one_each", "s13.gain", "s13.e2e.per_outage")
    verdicts = evaluate([_target(i) for i in ids], outcomes, [])
    assert [(v.verdict, v.ours) for v in verdicts] == [
        ("fail", 12.0),
        ("fail", 253.0),
        ("fail", 1.0),
        ("pass", 0.0),
    ]
    # An outage without a timeout fails "at least one per outage".
    outcomes[0].results = [RunResult({**reno, "sender_timeouts": 11})]
    (v,) = evaluate([_target("s13.e2e.per_outage")], outcomes, [])
    assert (v.verdict, v.ours) == ("fail", -1.0)


# -- CLI ---------------------------------------------------------------------------------------


def test_cli_only_s12_writes_the_model_and_the_packet_level_runs(
    cli_run: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    out = tmp_path / "s12"
    proc = cli_run("reproduce", "ludwig2000", "--only", "s12", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "ludwig2000: 26 result rows from 52 runs" in proc.stdout
    assert "fail" not in proc.stdout
    data = json.loads((out / "targets.json").read_text())
    assert {t["table"] for t in data["targets"]} == {S12_TABLE, PKT_TABLE}
    assert data["summary"][S12_TABLE]["pass"] == 9
    (dev,) = [t for t in data["targets"] if t["verdict"] == "explained"]
    assert dev["explanation"]["doc"] == f"docs/ludwig2000.md#{DEVIATION}"
    assert (out / "figures" / "fig5-7.svg").exists()
    assert (out / "figures" / "s12-loss.svg").exists()
    assert (out / "runs" / "s12-full-pacer-fr" / "metrics.json").exists()
    help_text = cli_run("reproduce", "--help").stdout
    assert "s12" in help_text
    assert "s13" in help_text


def test_cli_only_s13(
    cli_run: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    out = tmp_path / "s13"
    proc = cli_run("reproduce", "ludwig2000", "--only", "s13", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "ludwig2000: 6 result rows from 8 runs" in proc.stdout
    assert "fail" not in proc.stdout
    data = json.loads((out / "targets.json").read_text())
    assert {t["table"] for t in data["targets"]} == {S13_TABLE}
    assert (out / "runs" / "s13-eifel" / "metrics.json").exists()
