"""`lossylink reproduce ludwig2000 --only late --only pacer --only agg`: the Eifel refinements
(the late third duplicate ACK, the burst pacer, RTO_AGG) as runs, targets and figures."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from lossylink.papers import ludwig2000 as l2k
from lossylink.papers._base import Unavailable
from lossylink.papers._trace import SenderTrace
from lossylink.papers.ludwig2000.eifel.report import rtt_samples
from lossylink.papers.ludwig2000.eifel.runs import LATE_FWD, LATE_REV
from lossylink.papers.ludwig2000.eifel.targets import TARGET_TABLES, TARGETS
from lossylink.papers.ludwig2000.hiccup.runs import REORDER_S8E
from lossylink.reproduce import Outcome, Reproduction, TracedOutcome, evaluate, reproduce
from lossylink.result import RunResult
from support import RUST_TESTS, l2k_target, rust_const

NEW_GROUPS = ("late", "pacer", "agg")
NEW_FIGURES = ("late-dupack", "s8e-pacer", "fig5-18")


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> Reproduction:
    return reproduce("ludwig2000", groups=NEW_GROUPS, out=tmp_path_factory.mktemp("l2k-eifel"))


_target = l2k_target


def _traced(rep: Reproduction, run: str, as_run: str | None = None) -> TracedOutcome:
    """The traced outcome of ``run`` from ``rep``, relabelled as ``as_run``."""
    (t,) = [t for t in rep.traced if t.run.id == run]
    return TracedOutcome(l2k.BY_ID[as_run or run], True, result=t.result)


# -- the catalogue mirrors the Rust tests ---------------------------------------------------------


def _rust_const(path: Path, name: str) -> str:
    return re.sub(r"\s", "", rust_const(path, name))


def test_late_dupack_hiccups_are_those_of_late_dupack_rs() -> None:
    rs = RUST_TESTS / "late_dupack.rs"
    assert re.sub(r"\s", "", LATE_FWD) == _rust_const(rs, "LATE_DUPACK_FWD")
    assert re.sub(r"\s", "", LATE_REV) == _rust_const(rs, "LATE_DUPACK_REV")
    for arm, policy in (("late-off", "off"), ("late-halve", "halve"), ("late-restore", "restore")):
        assert ("tcp.eifel_late_dupack", policy) in l2k.BY_ID[arm].overrides
        assert f'Some("{policy}")' in rs.read_text()


def test_pacer_and_rto_agg_overrides_are_those_of_the_rust_tests() -> None:
    pacer = l2k.BY_ID["s8e-pacer"].overrides
    assert ("hops.0.forward.hiccups", REORDER_S8E) in pacer
    assert ("tcp.eifel_burst_pacer", "srtt") in pacer
    assert 's.set("tcp.eifel_burst_pacer", "srtt")' in (RUST_TESTS / "hiccup_eifel.rs").read_text()
    agg = (RUST_TESTS / "rto_agg.rs").read_text()
    assert '("scheme", "e2e+eifel")' in agg
    assert '("transfer", "400KB")' in agg
    assert 'transfer("eifel-agg")' in agg
    assert ("tcp.rto", "eifel-agg") in l2k.BY_ID["agg-k0.1"].overrides
    assert ("tcp.rto", "eifel") in l2k.BY_ID["agg-eifel"].overrides


def _run_of(seq: list[str], part: list[str]) -> bool:
    """``part`` appears in ``seq`` as one contiguous run."""
    return any(seq[i : i + len(part)] == part for i in range(len(seq) - len(part) + 1))


def test_the_new_groups_tables_and_figures_are_in_the_catalogue() -> None:
    # Right after the hiccup groups (S12 and S13 follow them).
    assert l2k.GROUPS[4:7] == NEW_GROUPS
    assert _run_of(list(l2k.TARGET_TABLES), list(TARGET_TABLES))
    assert _run_of([t.id for t in l2k.TARGETS], [t.id for t in TARGETS])
    assert _run_of([f.key for f in l2k.FIGURES], list(NEW_FIGURES))
    for t in TARGETS:
        assert t.paper is None, t.id  # the dissertation gives no number ...
        assert t.expected, t.id  # ... so its expectation is in words


def test_selection_pulls_in_the_runs_a_group_compares_against() -> None:
    sel = l2k.select({"pacer"})
    assert [e.id for e in sel.experiments] == ["s8e", "s8e-pacer"]
    assert [f.key for f in sel.figures] == ["s8e-pacer"]
    s8 = l2k.select({"s8"})
    assert "s8e-pacer" not in {f.key for f in s8.figures}
    assert not {t.table for t in s8.targets} & set(TARGET_TABLES)
    assert {e.group for e in s8.experiments} == {"s8"}


# -- one reproduction -----------------------------------------------------------------------------


def test_every_new_target_has_a_verdict_and_passes(rep: Reproduction) -> None:
    assert [v.target.id for v in rep.verdicts] == [t.id for t in TARGETS]
    assert len(rep.verdicts) == 39
    for v in rep.verdicts:
        assert v.ours is not None, (v.target.id, v.reason)
        assert v.verdict == "pass", (v.target.id, v.ours, v.reason)


def test_measured_values_are_those_of_the_rust_tests(rep: Reproduction) -> None:
    ours = {v.target.id: v.ours for v in rep.verdicts}
    assert ours["late.e2e.retransmitted"] == 20
    assert ours["late-halve.retransmitted"] == ours["late-restore.retransmitted"] == 1
    assert ours["late.e2e.cwnd"] == 5
    assert ours["pacer.at_once"] == 1
    assert ours["pacer.most_at_once"] <= 2
    assert -2 <= ours["pacer.progress"] <= 0
    assert ours["agg.ratio"] < 0.5
    assert ours["agg.q12.spurious"] >= 100


def test_new_figures_are_written(rep: Reproduction) -> None:
    assert rep.out is not None
    for key in NEW_FIGURES:
        for fmt in ("png", "svg"):
            assert (rep.out / "figures" / f"{key}.{fmt}").stat().st_size > 1000, key
    assert "s8e" in {o.experiment.id for o in rep.outcomes}


def test_rtt_samples_follow_the_queue_of_the_testbed(rep: Reproduction) -> None:
    (t,) = [t for t in rep.traced if t.run.id == "agg-eifel"]
    assert t.result is not None
    assert t.result.trace is not None
    times, rtt = rtt_samples(t.result.trace)
    assert len(rtt) > 500
    assert np.all(np.diff(times) >= 0)
    # The 50-packet queue holds the whole window: about 18 segments of 432.5 ms.
    assert 7.0 < float(np.median(rtt)) < 8.5


def test_rtt_samples_skip_retransmitted_segments() -> None:
    trace = {
        "events": {
            "time_s": np.array([0.0, 0.5, 1.0, 2.0, 3.0]),
            "kind": ["send", "send", "ack", "retransmit", "ack"],
            "seq": np.array([0, 100, 100, 100, 200]),
            "len": np.array([100, 100, 0, 100, 0]),
        }
    }
    times, rtt = rtt_samples(trace)
    assert times.tolist() == [1.0]
    assert rtt.tolist() == [1.0]
    assert [len(a) for a in rtt_samples({})] == [0, 0]


def test_sender_trace_reads_the_rto_and_does_without_it() -> None:
    sender = {
        "time_s": np.array([1.0]),
        "cwnd": np.array([460]),
        "ssthresh": np.array([920]),
        "snd_una": np.array([0]),
        "snd_nxt": np.array([460]),
    }
    events = {"time_s": np.array([]), "kind": [], "seq": np.array([])}
    assert SenderTrace("x", {"sender": sender, "events": events}).win[0].rto == 0.0
    sender["rto_s"] = np.array([1.5])
    assert SenderTrace("x", {"sender": sender, "events": events}).win[0].rto == 1.5
    with pytest.raises(Unavailable, match="x: no sender trace"):
        SenderTrace("x", {"sender": sender})


# -- the targets can fail ---------------------------------------------------------------------


def test_a_go_back_n_after_the_late_dupack_fails_eifel_targets() -> None:
    t = _target("late-halve.retransmitted")
    outcome = Outcome(l2k.BY_ID["late-halve"], True)
    outcome.results = [RunResult({"sender_retransmitted_segments": 20})]
    (v,) = evaluate([t], [outcome], [])
    assert (v.verdict, v.ours) == ("fail", 20.0)


def test_bsd_in_place_of_eifel_fails_the_suppression(rep: Reproduction) -> None:
    targets = [_target("late-halve.suppressed"), _target("late-halve.resume")]
    (v, resume) = evaluate(targets, [], [_traced(rep, "late-e2e", "late-halve")])
    assert (v.verdict, v.ours) == ("fail", 0.0)
    assert resume.verdict == "fail"
    assert resume.ours is not None
    assert resume.ours < 0  # snd_nxt went back N


def test_an_unpaced_burst_fails_the_pacer(rep: Reproduction) -> None:
    targets = [_target("pacer.at_once"), _target("pacer.most_at_once")]
    traced = [_traced(rep, "s8e"), _traced(rep, "s8e", "s8e-pacer")]
    verdicts = {v.target.id: v for v in evaluate(targets, [], traced)}
    assert (verdicts["pacer.at_once"].verdict, verdicts["pacer.at_once"].ours) == ("fail", 7.0)
    assert (verdicts["pacer.most_at_once"].verdict, verdicts["pacer.most_at_once"].ours) == (
        "fail",
        7.0,
    )


def test_rto_agg_targets_fail_on_wrong_values(rep: Reproduction) -> None:
    # The Eifel timer's trace in place of RTO_AGG's: no training.
    traced = [_traced(rep, "agg-eifel"), _traced(rep, "agg-eifel", "agg-k0.1")]
    (v,) = evaluate([_target("agg.ratio")], [], traced)
    assert (v.verdict, v.ours) == ("fail", 1.0)
    # An undetected timeout, a go-back-N, no runaway.
    agg = Outcome(l2k.BY_ID["agg-k0.1"], True)
    metrics = {"sender_timeouts": 3, "sender_spurious_timeouts": 2}
    agg.results = [RunResult({**metrics, "sender_retransmitted_segments": 9})]
    q12 = Outcome(l2k.BY_ID["agg-q12-k0.5"], True)
    q12.results = [RunResult({"sender_spurious_timeouts": 10})]
    ids = ("agg.all_spurious", "agg.one_each", "agg.q12.spurious")
    verdicts = evaluate([_target(i) for i in ids], [agg, q12], [])
    assert [(v.verdict, v.ours) for v in verdicts] == [("fail", 1.0), ("fail", 6.0), ("fail", 10.0)]
