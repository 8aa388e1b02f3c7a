"""`lossylink reproduce ludwig2000`: the hiccup experiments of Ludwig's dissertation, the paper
registry, and the outputs."""

from __future__ import annotations

import base64
import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from lossylink.errors import InvalidValueError
from lossylink.papers import PAPERS, catalogue
from lossylink.papers import ludwig2000 as l2k
from lossylink.papers.ludwig2000.gsm import runs as gsm_runs
from lossylink.papers.ludwig2000.hiccup.runs import (
    HOLD_12S,
    HOLD_13S,
    HOLD_13S_IP,
    REORDER_S8C,
    REORDER_S8E,
)
from lossylink.papers.ludwig2000.report import docs_table
from lossylink.papers.ludwig2000.retrace import targets as retrace_targets
from lossylink.report import paper_report
from lossylink.reproduce import Outcome, Reproduction, evaluate, ludwig2000, reproduce
from lossylink.result import RunResult
from support import L2K_DOC, RUST_TESTS, rust_const

DOC = L2K_DOC


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> Reproduction:
    return reproduce("ludwig2000", out=tmp_path_factory.mktemp("l2k"))


# -- the registry -------------------------------------------------------------------------------


def test_registry_lists_the_papers_and_each_has_a_report_module() -> None:
    assert list(PAPERS) == ["balakrishnan97", "ludwig2000", "buchholcz", "llelsn"]
    for name, cat in PAPERS.items():
        assert name == cat.NAME
        report = paper_report(name)
        for hook in ("describe", "sections", "draw"):
            assert callable(getattr(report, hook)), (name, hook)
        assert set(cat.TARGET_TABLES) >= {t.table for t in cat.TARGETS}
        assert len({t.id for t in cat.TARGETS}) == len(cat.TARGETS)
        assert len({e.id for e in cat.EXPERIMENTS}) == len(cat.EXPERIMENTS)


def test_unknown_paper_names_the_known_ones() -> None:
    with pytest.raises(
        InvalidValueError, match=r"paper: .*known: balakrishnan97, ludwig2000, buchholcz"
    ):
        reproduce("nosuchpaper")
    with pytest.raises(InvalidValueError, match="paper"):
        catalogue("ludwig1999")


def test_a_group_of_the_other_paper_is_rejected() -> None:
    with pytest.raises(InvalidValueError, match=r"groups: unknown table3 for ludwig2000"):
        reproduce("ludwig2000", groups=["table3"])


# -- the catalogue mirrors the Rust tests ---------------------------------------------------------


@pytest.mark.parametrize(
    ("ours", "name"),
    [
        (HOLD_13S, "HOLD_13S"),
        (HOLD_12S, "HOLD_12S"),
        (HOLD_13S_IP, "HOLD_13S_IP"),
        (REORDER_S8C, "REORDER_6"),
        (REORDER_S8E, "REORDER_6_EIFEL"),
    ],
)
def test_hiccups_are_those_of_hiccup_eifel_rs(ours: str, name: str) -> None:
    rust = rust_const(RUST_TESTS / "hiccup_eifel.rs", name)
    assert re.sub(r"\s", "", ours) == re.sub(r"\s", "", rust)


def test_s8f_and_s11_overrides_are_those_of_the_rust_tests() -> None:
    s8f = (RUST_TESTS / "outage_s8f.rs").read_text()
    assert 'kind = "hold", at = "5s", duration = "23s", stage = "ip"' in s8f
    assert 'expire = "500ms"' in s8f
    for exp in ("s8f-persistent", "s8f-expire"):
        assert ("transfer", "40KB") in l2k.BY_ID[exp].overrides
    s11 = (RUST_TESTS / "precise_rexmt.rs").read_text()
    assert '("hops.0.forward.queue", "1"), ("tcp.rexmt", rexmt)' in s11
    for arm in ("restart", "precise"):
        assert ("tcp.rexmt", arm) in l2k.BY_ID[f"s11-{arm}"].overrides


# -- one reproduction -----------------------------------------------------------------------------


MEASURED_FAILURES = {
    # target id -> what docs/ludwig2000.md measured as the cause.
    "s11.gain": "s11-gain",
    "gsm.rt16.vj": "rt16-vj",
    "gsm.rt16.novj_low": "rt16-vj",
    "gsm.rt17.spurious": "rt17-start",
    "gsm.t6.throughput": "gsm-item6",
    "gsm.rt20.discards_source": "rt20-split",
    "gsm.rt20.lost": "rt20-split",
    "gsm.rt21.load": "rt21-rwnd",
}
"""The targets that fail, each with its mechanism measured in the docs (a failure with its
mechanism measured is a result; a loosened tolerance is not)."""

EXPLAINED = {
    # target id -> the deviation whose band and counterfactual earn "explained".
    "s12.pkt.fr.full.eifel": "s12-restore-burst",
    "gsm.rt16.vj": "rt16-vj",
    "gsm.rt16.novj_low": "rt16-vj",
    "gsm.rt21.load": "rt21-rwnd",
    # RT22-RT27 on the chain that the most clustered reading the published statistics allow
    # (poor-x@500ms:dense, run by the reproduction) brings into the spec's tolerance
    # (docs/ludwig2000.md#sub-minute-clustering).
    **dict.fromkeys(
        (
            "rt22.poor-c.best",
            "rt22.poor-c.factor",
            "rt22.poor-c.gain",
            "rt24.gap.pure-rlp.576",
            "rt24.gap.rlp-pure.1500",
            "rt24.gap.rlp_vj-pure.576",
            "rt24.gap.rlp_vj-pure.1500",
            "rt26.decreasing",
            "rt27.retransmitted.576",
            "rt27.retransmitted.1500",
        ),
        "sub-minute-clustering",
    ),
}


def test_every_target_has_a_verdict_and_only_the_measured_failures_fail(
    rep: Reproduction,
) -> None:
    assert [v.target.id for v in rep.verdicts] == [t.id for t in l2k.TARGETS]
    bad = [(v.target.id, v.verdict, v.ours, v.reason) for v in rep.verdicts]
    # RT22-RT28 are predictions on synthetic traces (docs/ludwig2000.md#retracer-targets): they
    # may fail, each with its value measured.
    predictions = set(retrace_targets.TARGET_TABLES)
    bad = [
        b
        for b, v in zip(bad, rep.verdicts, strict=True)
        if b[1] not in ("pass", "explained")
        and b[0] not in MEASURED_FAILURES
        and v.target.table not in predictions
    ]
    assert not bad
    doc = DOC.read_text()
    for v in rep.verdicts:
        assert v.ours is not None, v.target.id
        if v.verdict == "explained":
            assert v.target.deviation in l2k.DEVIATIONS
            assert v.counterfactual is not None, v.target.id
        if v.target.id in MEASURED_FAILURES:
            assert f'<a id="{MEASURED_FAILURES[v.target.id]}"></a>' in doc


def test_s8d_eifel_passes_every_check(rep: Reproduction) -> None:
    s8d = [v for v in rep.verdicts if v.target.table == "S8d (Fig 5-5)"]
    assert len(s8d) == 8
    assert {v.verdict for v in s8d} == {"pass"}
    by_id = {v.target.id: v.ours for v in s8d}
    assert by_id["s8d.retransmissions"] == 1
    assert by_id["s8d.detection"] == 0


def test_s11_gain_fails_with_its_counterfactual_shown(rep: Reproduction) -> None:
    """+15 % against RT7's +20-40 %: inside the band of the timer's saving, but switching the
    suspect (tcp_quench) off overshoots to +86 %, so the deviation is not explained."""
    (v,) = [v for v in rep.verdicts if v.target.id == "s11.gain"]
    assert v.target.paper == pytest.approx(1.30)
    assert v.ours is not None
    assert 1.10 < v.ours < 1.20
    assert v.verdict == "fail"
    assert v.counterfactual is not None
    assert 1.6 < v.counterfactual < 2.1
    assert "tcp.quench = false" in v.reason
    assert f'<a id="{v.target.deviation}"></a>' in DOC.read_text()


def test_the_campaign_runs_differ_and_resets_come_at_the_published_rate(
    rep: Reproduction,
) -> None:
    """Every campaign run has its own channel, L2R gaps and transfer (230 KB-1.5 MB): no two
    good-signal runs are the same run; the poor runs' link resets come at §4.2.3's 14 in 2 h
    within its Poisson band, none at good signal; the VJ counterfactual ran and is shown."""
    by_id = {o.experiment.id: o for o in rep.outcomes}
    good = [r for r in gsm_runs.CAMPAIGN if "-good-" in r]
    times = {by_id[r].results[0].metrics["completion_s"] for r in good}
    assert len(times) == len(good)
    v = {x.target.id: x for x in rep.verdicts}
    assert v["gsm.resets.rate"].verdict == "pass"
    assert v["gsm.resets.good"].ours == 0
    # The low tail is the link time of the packets VJ discarded after a reset
    # (docs/ludwig2000.md#rt16-vj): a run at ≤ 95 %, none if that time counted as useful.
    assert v["gsm.rt16.low"].verdict == "pass"
    assert v["gsm.rt16.low"].sensitivity == {
        "sent in vain, §3.1.2 (ours)": v["gsm.rt16.low"].ours,
        "counted as useful (before)": 0.0,
    }
    # A link-wide reset (docs/ludwig2000.md#link-reset) changes no campaign run with VJ: the
    # deep fades erase both directions, and the ACK direction resets within the same fade.
    assert v["gsm.rt16.min"].sensitivity == {
        "the link's, GSM 04.22 (ours)": v["gsm.rt16.min"].ours,
        "each direction's alone": v["gsm.rt16.min"].ours,
    }
    # The counterfactual stays inverted: without VJ the reset runs lose more. The mechanism is
    # Reno's one fast retransmit a window against the two packets a reset flushes
    # (docs/ludwig2000.md#gsm-open): with NewReno VJ off is better and no run falls to 95 %.
    for tid in ("gsm.rt16.vj", "gsm.rt16.novj_low"):
        assert v[tid].verdict == "explained", (tid, v[tid].reason)
    assert v["gsm.rt16.vj"].ours is not None
    assert v["gsm.rt16.vj"].ours < 0
    assert v["gsm.rt16.vj"].counterfactual is not None
    assert v["gsm.rt16.vj"].counterfactual > 1.0
    assert v["gsm.rt16.novj_low"].ours >= 1
    assert v["gsm.rt16.novj_low"].counterfactual == 0


def test_the_failing_gsm_targets_show_what_makes_their_value(rep: Reproduction) -> None:
    """T6 without the deep fades, RT20's split over the RLP round trip, RT21 without Net/3's
    buffer rounding (docs/ludwig2000.md#gsm-open): each counterfactual ran and moves the value
    as the docs say."""
    v = {x.target.id: x for x in rep.verdicts}
    t6 = v["gsm.t6.throughput"]
    assert t6.verdict == "fail"
    assert t6.sensitivity is not None
    alone = t6.sensitivity["without them (radio alone)"]
    assert alone is not None
    assert t6.ours is not None
    assert alone > t6.ours > 7.0
    lost = v["gsm.rt20.lost"].sensitivity
    assert lost is not None
    assert list(lost.values()) == [2.0, 3.0, 4.0]
    discards = v["gsm.rt20.discards_source"].sensitivity
    assert discards is not None
    assert [a + b for a, b in zip(lost.values(), discards.values(), strict=True)] == [18.0] * 3
    load = v["gsm.rt21.load"]
    assert (load.ours, load.verdict, load.counterfactual) == (18.0, "explained", 17.0)


def test_fig_4_9_backs_off_on_the_inflated_rto(rep: Reproduction) -> None:
    """The ACK of the timeout's retransmission is lost in a reset of the ACK direction: the
    next timeout comes after twice the RTO (12 s, inflated by the queue), 24 s without data."""
    v = {x.target.id: x for x in rep.verdicts if x.target.id.startswith("gsm.fig49.")}
    assert {x.verdict for x in v.values()} == {"pass"}
    assert v["gsm.fig49.backoff"].ours == pytest.approx(2.0, abs=0.05)
    assert v["gsm.fig49.idle"].ours is not None
    assert v["gsm.fig49.idle"].ours > 1.8


def test_choices_the_dissertation_does_not_give_are_reported_with_their_band(
    rep: Reproduction,
) -> None:
    """S8f's outage start, S13's hold length, S8a/S8d's hold stage and the cycle S12's event
    hits: each target that rests on one carries its value under every reading (the runs of
    the alternatives are in the reproduction), in the verdict and targets.json."""
    v = {x.target.id: x for x in rep.verdicts}
    expect = {
        "s8f.expire.idle": 3, "s13.gain": 3, "s8a.timeouts": 2, "s8a.go_back_n": 2,
        "s8d.timeouts": 2, "s8d.spurious": 2, "gsm.fig46.burst": 3, **{
            f"s12.pkt.{e}.{p}.reno": 3 for e in ("fr", "to") for p in ("half", "full")
        },
    }  # fmt: skip
    for tid, n in expect.items():
        sens = v[tid].sensitivity
        assert sens is not None, tid
        assert len(sens) == n, tid
        assert all(x is not None for x in sens.values()), (tid, sens)
    # An IP-stage hold keeps the 50-packet queue draining: no timeout, no go-back-N.
    assert v["s8a.timeouts"].sensitivity == {"link (ours)": 1.0, "ip": 0.0}
    assert v["s8d.spurious"].sensitivity == {"link (ours)": 1.0, "ip": 0.0}
    # S12's Reno-loss floors (3 % and 8 % at W/2) hold in the neighbouring cycles too.
    assert min(v["s12.pkt.fr.half.reno"].sensitivity.values()) >= 3.0
    assert min(v["s12.pkt.to.half.reno"].sensitivity.values()) >= 8.0
    assert rep.out is not None
    data = json.loads((rep.out / "targets.json").read_text())
    listed = {t["id"] for t in data["targets"] if "sensitivity" in t}
    assert set(expect) <= listed


def test_outputs_are_written(rep: Reproduction) -> None:
    out = rep.out
    assert out is not None
    for name in ("results.csv", "tables.md", "targets.json", "report.html"):
        assert (out / name).stat().st_size > 0, name
    for fig in l2k.FIGURES:
        for fmt in ("png", "svg"):
            assert (out / "figures" / f"{fig.key}.{fmt}").stat().st_size > 1000, fig.key
    for run in l2k.TRACED_RUNS:
        assert (out / "runs" / run / "metrics.json").exists(), run
    frame = pd.read_csv(out / "results.csv")
    assert list(frame["experiment"]) == [e.id for e in l2k.EXPERIMENTS]
    assert {"scenario_id", "figure", "sender_timeouts", "scenario.tcp.mss"} <= set(frame.columns)


def test_targets_json_has_the_dissertation_beside_ours(rep: Reproduction) -> None:
    assert rep.out is not None
    data = json.loads((rep.out / "targets.json").read_text())
    assert data["name"] == "ludwig2000"
    assert data["summary"]["S8d (Fig 5-5)"]["pass"] == 8
    for t in data["targets"]:
        assert (
            t["verdict"] in ("pass", "explained")
            or t["id"] in MEASURED_FAILURES
            or t["table"] in retrace_targets.TARGET_TABLES
        )
        assert t["paper"] is not None or t["expected"], t["id"]
        if t["verdict"] == "explained":
            anchor = EXPLAINED[t["id"]]
            assert t["explanation"]["doc"] == f"docs/ludwig2000.md#{anchor}"
            cf = t["explanation"]["counterfactual"]
            # An open end is written as null (JSON has no infinity).
            lo, hi = cf["moves_to"]
            assert lo is None or lo <= cf["value"]
            assert hi is None or cf["value"] <= hi
            lo, hi = t["explanation"]["predicted"]
            assert lo is None or lo <= t["ours"], t["id"]
            assert hi is None or t["ours"] <= hi, t["id"]
    assert {t["id"] for t in data["targets"] if t["verdict"] == "explained"} == set(EXPLAINED)


def test_tables_md_and_report_html(rep: Reproduction) -> None:
    assert rep.out is not None
    text = (rep.out / "tables.md").read_text()
    assert "# Reproduction of ludwig2000" in text
    assert "| target | dissertation | ours | accept | verdict | note |" in text
    assert "| s8d | S8d | Fig 5-5 |" in text
    page = (rep.out / "report.html").read_text()
    figures = re.findall(r"data-figure='([^']+)'", page)
    assert figures == [f.key for f in l2k.FIGURES]
    for src in re.findall(r"src='data:image/png;base64,([^']+)'", page):
        assert base64.b64decode(src)[:4] == b"\x89PNG"


def test_docs_table_is_current(rep: Reproduction) -> None:
    doc = DOC.read_text()
    m = re.search(r"<!-- BEGIN generated[^>]*-->\n(.*?)<!-- END generated -->", doc, re.S)
    assert m, "docs/ludwig2000.md has no generated table"
    assert m.group(1) == docs_table(rep)


# -- the targets can fail ---------------------------------------------------------------------


def test_a_go_back_n_in_s8d_fails_its_target() -> None:
    (t,) = [t for t in l2k.TARGETS if t.id == "s8d.retransmissions"]
    outcome = Outcome(l2k.BY_ID["s8d"], True)
    outcome.results = [RunResult({"sender_retransmitted_segments": 18})]
    (v,) = evaluate([t], [outcome], [])
    assert (v.verdict, v.ours) == ("fail", 18.0)


def test_gsm_targets_that_returned_their_inputs_can_fail() -> None:
    """A perfect link (every campaign run at 100 %, no reset) fails RT16's low-tail check; the
    source's own 5 lost / 13 discarded pass RT20 and ours (2 / 16) fail it."""
    ids = ("gsm.rt16.low", "gsm.rt16.share98", "gsm.rt20.lost", "gsm.rt20.discards_source")
    targets = [t for t in l2k.TARGETS if t.id in ids]

    def run(exp: str, **metrics: float) -> Outcome:
        o = Outcome(l2k.BY_ID[exp], True)
        o.results = [RunResult(metrics)]
        return o

    perfect = [
        run(r, utilization_pct=100.0, vj_discard_pct=0.0, rlp_resets=0) for r in gsm_runs.CAMPAIGN
    ]
    source = run("gsm-s2", rlp_flushed_packets=5, vj_discards=13)
    v = {x.target.id: x.verdict for x in evaluate(targets, [*perfect, source], [])}
    assert v == {
        "gsm.rt16.low": "fail",
        "gsm.rt16.share98": "pass",
        "gsm.rt20.lost": "pass",
        "gsm.rt20.discards_source": "pass",
    }
    ours = run("gsm-s2", rlp_flushed_packets=2, vj_discards=16)
    v = {x.target.id: x.verdict for x in evaluate(targets, [*perfect, ours], [])}
    assert (v["gsm.rt20.lost"], v["gsm.rt20.discards_source"]) == ("fail", "fail")


def test_trace_targets_need_the_trace() -> None:
    targets = [t for t in l2k.TARGETS if t.id in ("s8c.dupacks", "s8a.timeouts")]
    outcome = Outcome(l2k.BY_ID["s8a"], True)
    outcome.results = [RunResult({"sender_timeouts": 1})]
    verdicts = {v.target.id: v for v in evaluate(targets, [outcome], [])}
    assert verdicts["s8a.timeouts"].verdict == "pass"
    assert verdicts["s8c.dupacks"].verdict == "not available"
    assert "s8c" in verdicts["s8c.dupacks"].reason


# -- API and CLI -----------------------------------------------------------------------------------


def test_python_api_restricted_to_a_group() -> None:
    frame = ludwig2000(groups=["s11"])
    assert list(frame["experiment"]) == [
        "s11-restart",
        "s11-precise",
        "s11-eifel-restart",
        "s11-eifel-precise",
        "s11-restart-noquench",
        "s11-precise-noquench",
    ]
    rep = reproduce("ludwig2000", groups=["s8f"], figures=False)
    assert {v.target.table for v in rep.verdicts} == {"S8f (Figs 4-3, 4-4)"}


def test_cli_help_lists_both_papers(
    cli_run: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    proc = cli_run("reproduce", "--help")
    assert proc.returncode == 0
    assert "balakrishnan97" in proc.stdout
    assert "ludwig2000" in proc.stdout


def test_cli_unknown_paper_lists_the_known_ones(
    cli_run: Callable[..., subprocess.CompletedProcess[str]],
) -> None:
    proc = cli_run("reproduce", "ludwig1999")
    assert proc.returncode == 2
    assert proc.stderr.startswith("lossylink: error:")
    assert "balakrishnan97" in proc.stderr
    assert "ludwig2000" in proc.stderr


def test_cli_reproduce_ludwig2000(
    cli_run: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    out = tmp_path / "l2k"
    proc = cli_run("reproduce", "ludwig2000", "--only", "s8", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "ludwig2000:" in proc.stdout
    assert "fail" not in proc.stdout
    data = json.loads((out / "targets.json").read_text())
    assert {t["table"] for t in data["targets"]} == {
        "Testbed",
        "S8a (Fig 5-2)",
        "S8b (Fig 5-3)",
        "S8c (Fig 5-4)",
        "S8d (Fig 5-5)",
        "S8e (Fig 5-6)",
    }
    assert (out / "figures" / "fig5-5.svg").exists()
    assert not (out / "figures" / "fig5-16.svg").exists()
    proc = cli_run("reproduce", "ludwig2000", "--only", "table3", "--out", str(out))
    assert proc.returncode == 2
    assert "s8, s8f, s11, lan" in proc.stderr
