"""`lossylink reproduce ludwig2000 --only s12`, the packet-level runs (spec §6 S12, §8 RT14):
the runs are those of crates/lossylink/tests/it/spurious_cost_s12.rs, the event times the
baselines' traces give, the numbers those of the Rust test, and the targets can fail."""

from __future__ import annotations

import dataclasses
import re

import pytest

from lossylink.papers import ludwig2000 as l2k
from lossylink.papers._base import Unavailable
from lossylink.papers._trace import SenderTrace
from lossylink.papers.ludwig2000.spurious_cost import runs as sp
from lossylink.papers.ludwig2000.spurious_cost import targets as s12_targets
from lossylink.papers.ludwig2000.spurious_cost.targets import DEVIATION, TABLE
from lossylink.reproduce import Reproduction, TracedOutcome, evaluate, reproduce
from support import L2K_DOC, RUST_TESTS

RUST_TEST = RUST_TESTS / "spurious_cost_s12.rs"
DOC = L2K_DOC
TARGETS = [t for t in s12_targets.TARGETS if t.table == TABLE]
"""The packet-level targets (the squares model's are tested beside S13's)."""


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> Reproduction:
    return reproduce("ludwig2000", groups=["s12"], out=tmp_path_factory.mktemp("l2k-s12"))


def _ours(rep: Reproduction) -> dict[str, float | None]:
    return {v.target.id: v.ours for v in rep.verdicts if v.target.table == TABLE}


def _swap(rep: Reproduction, into: str, source: str) -> list[TracedOutcome]:
    """The traced runs of ``rep`` with ``source``'s trace standing in for ``into``'s."""
    by_id = {t.run.id: t for t in rep.traced}
    return [
        dataclasses.replace(t, result=by_id[source].result) if t.run.id == into else t
        for t in rep.traced
    ]


# -- the catalogue is the Rust test ---------------------------------------------------------------


def test_runs_are_those_of_spurious_cost_s12_rs() -> None:
    rust = RUST_TEST.read_text()
    assert f'const PIPE_HALF_W: &str = "{sp.QUEUES["half"]}";' in rust
    assert f'const PIPE_W: &str = "{sp.QUEUES["full"]}";' in rust
    assert f"const NTH_FR: usize = {sp.NTH_FR};" in rust
    assert f"const HOLD_MS: i64 = {sp.HOLD_MS};" in rust
    assert f"const MSS: i64 = {sp.MSS};" in rust
    assert f'kind = "reorder", at = "{{at_ms}}ms", length = {sp.REORDER_LENGTH} ' in rust
    assert f'o.push(("{sp.HOP}", &hiccup));' in rust
    assert "(exit.t * 1000.0).ceil() as i64 + 1" in rust
    assert "r.t > fr && r.cwnd <= r.ssthresh + MSS" in rust
    assert '("tcp.eifel_burst_pacer", "srtt")' in rust
    rust_overrides = dict(re.findall(r'\("([\w.]+)", "([^"]+)"\),', rust.split("fn wan")[1]))
    base = dict(l2k.BY_ID["s12-full-pacer"].overrides)
    assert {k: base[k] for k in rust_overrides} == rust_overrides
    assert base["hops.0.forward.queue"] == "3"
    assert (base["scheme"], base["tcp.eifel_burst_pacer"]) == ("e2e+eifel", "srtt")
    assert dict(l2k.BY_ID["s12-half-e2e-to"].overrides)[sp.HOP] == (
        '[{ kind = "hold", at = "39927ms", duration = "3000ms" }]'
    )
    runs = [e for e in l2k.EXPERIMENTS if e.id.startswith("s12-")]
    # 18 as the Rust test, and Reno's event in the neighbouring cycles (the sensitivity).
    assert len(runs) == 18 + 2 * len(sp.ALT_CYCLES)
    assert all(e.group == "s12" and e.traced and e.preset == "wan" for e in runs)


def test_event_time_is_computed_as_the_rust_test_does() -> None:
    """A synthetic trace: the sixth fast retransmit at 10 s, the recovery's window rows, then
    cwnd ≤ ssthresh + MSS at 10.2504 s → 10251 ms + 1."""
    fr = [1.0, 2.0, 3.0, 4.0, 5.0, 10.0, 12.0]
    win = [
        (9.9, 20 * sp.MSS, 10 * sp.MSS, 1000),
        (10.1, 14 * sp.MSS, 10 * sp.MSS, 2000),
        (10.2504, 10 * sp.MSS + 10, 10 * sp.MSS, 5000),
        (11.0, 11 * sp.MSS, 10 * sp.MSS, 9000),
    ]
    trace = {
        "sender": {"time_s": [w[0] for w in win], "cwnd": [w[1] for w in win],
                   "ssthresh": [w[2] for w in win], "snd_una": [w[3] for w in win],
                   "snd_nxt": [w[3] for w in win]},
        "events": {"time_s": fr, "kind": ["fast-retransmit"] * len(fr), "seq": [0] * len(fr)},
    }  # fmt: skip
    tr = SenderTrace("synthetic", trace)
    assert sp.event_ms(tr) == 10252
    assert sp.load_before_fr(tr) == 20
    assert sp.una_at(tr, 10.2504) == 5000
    assert sp.una_at(tr, 10.25) == 2000
    five = {k: v[:5] for k, v in trace["events"].items()}
    short = SenderTrace("short", {**trace, "events": five})
    with pytest.raises(Unavailable):
        sp.event_ms(short)


# -- one reproduction -----------------------------------------------------------------------------


def test_every_packet_level_target_passes_but_the_explained_one(rep: Reproduction) -> None:
    ours = [v for v in rep.verdicts if v.target.table == TABLE]
    assert [v.target.id for v in ours] == [t.id for t in TARGETS]
    assert len(ours) == 37
    for v in ours:
        want = "explained" if v.target.id == "s12.pkt.fr.full.eifel" else "pass"
        assert v.verdict == want, (v.target.id, v.ours, v.reason)
    (dev,) = [t for t in TARGETS if t.deviation is not None]
    assert dev.deviation == DEVIATION
    assert DEVIATION in l2k.DEVIATIONS
    assert f'<a id="{DEVIATION}"></a>' in DOC.read_text()


def test_numbers_are_those_of_the_rust_test(rep: Reproduction) -> None:
    """docs/ludwig2000.md (S12): Reno 3.3 / 14.9 / 12.7 / 221 %, Eifel's share back 86 / – /
    98 / 100 %, with the pacer 86 / 89 / 97 / 100 %."""
    o = _ours(rep)
    expect = {
        "s12.pkt.fr.half.reno": 3.3, "s12.pkt.fr.full.reno": 14.9,
        "s12.pkt.to.half.reno": 12.7, "s12.pkt.to.full.reno": 220.7,
        "s12.pkt.fr.half.eifel": 86.5, "s12.pkt.fr.half.pacer": 86.5,
        "s12.pkt.fr.full.pacer": 89.5, "s12.pkt.to.half.eifel": 98.1,
        "s12.pkt.to.half.pacer": 97.4, "s12.pkt.to.full.eifel": 99.8,
        "s12.pkt.to.full.pacer": 99.8,
    }  # fmt: skip
    for tid, pct in expect.items():
        assert o[tid] == pytest.approx(pct, abs=0.05), tid
    worse = o["s12.pkt.fr.full.eifel"]
    assert worse is not None
    assert worse < 0  # Eifel loses more than Reno: 86 % against 14.9 %
    assert (o["s12.pkt.half.w"], o["s12.pkt.full.w"]) == (35, 20)


def test_the_figure_and_the_runs_are_written(rep: Reproduction) -> None:
    assert rep.out is not None
    for fmt in ("png", "svg"):
        assert (rep.out / "figures" / f"s12-loss.{fmt}").stat().st_size > 1000
    svg = (rep.out / "figures" / "s12-loss.svg").read_text()
    assert "squares model" in svg
    assert (rep.out / "runs" / "s12-half-e2e" / "metrics.json").exists()


# -- the targets can fail ---------------------------------------------------------------------


def test_a_stale_event_time_fails(rep: Reproduction) -> None:
    """The half pipe's baseline in place of the full pipe's: its cycle starts elsewhere."""
    traced = _swap(rep, "s12-full-e2e", "s12-half-e2e")
    ids = ("s12.pkt.full.e2e.at", "s12.pkt.full.w", "s12.pkt.same_until_event")
    verdicts = evaluate([t for t in TARGETS if t.id in ids], rep.outcomes, traced)
    assert [(v.target.id, v.verdict) for v in verdicts] == [
        ("s12.pkt.full.w", "fail"),
        ("s12.pkt.full.e2e.at", "fail"),
        ("s12.pkt.same_until_event", "fail"),
    ]
    assert verdicts[1].ours == 39927


def test_reno_in_place_of_eifel_fails_rt14(rep: Reproduction) -> None:
    """Reno's spurious-timeout run standing in for Eifel's (pipe ≈ W, where the baselines agree
    up to the event): nothing is recovered and no undo is seen."""
    traced = _swap(rep, "s12-full-eifel-to", "s12-full-e2e-to")
    ids = ("s12.pkt.to.full.eifel", "s12.pkt.to.full.undo", "s12.pkt.to.full.pacer")
    verdicts = evaluate([t for t in TARGETS if t.id in ids], rep.outcomes, traced)
    got = {v.target.id: (v.verdict, v.ours) for v in verdicts}
    assert got["s12.pkt.to.full.eifel"][0] == "fail"
    assert got["s12.pkt.to.full.eifel"][1] == pytest.approx(0.0, abs=5.0)
    assert got["s12.pkt.to.full.undo"] == ("fail", 1.0)
    assert got["s12.pkt.to.full.pacer"][0] == "pass"


def test_a_missing_run_is_not_available(rep: Reproduction) -> None:
    traced = [t for t in rep.traced if t.run.id != "s12-half-pacer-fr"]
    (v,) = evaluate([t for t in TARGETS if t.id == "s12.pkt.fr.half.pacer"], rep.outcomes, traced)
    assert v.verdict == "not available"
