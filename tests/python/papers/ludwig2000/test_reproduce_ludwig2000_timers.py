"""`lossylink reproduce ludwig2000 --only s9 --only s10`: the timer testbed and the
spreadsheet model (spec §6 S9, S10; §8 RT1-RT6). The runs are those of
crates/lossylink/tests/it/timer_s9.rs, the model is the Rust core's, every target passes, and a
target computed from the wrong run fails."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from lossylink._core import timer_model
from lossylink.errors import InvalidValueError
from lossylink.papers import ludwig2000 as l2k
from lossylink.papers.ludwig2000.timers import runs as tm
from lossylink.papers.ludwig2000.timers.targets import S9_TABLE, S10_TABLE
from lossylink.reproduce import Reproduction, evaluate, reproduce
from support import L2K_DOC, RUST_TESTS


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> Reproduction:
    return reproduce("ludwig2000", groups=["s9", "s10"], out=tmp_path_factory.mktemp("l2k-tm"))


def test_runs_are_those_of_timer_s9_rs() -> None:
    rust = (RUST_TESTS / "timer_s9.rs").read_text()
    for key, value in tm.TESTBED:
        assert f'("{key}", "{value}"),' in rust, key
    assert set(l2k.GROUPS) >= {"s9", "s10"}
    assert {e.id for e in l2k.EXPERIMENTS if e.group == "s9"} == {a[0] for a in tm.ARMS}


def test_every_timer_target_passes(rep: Reproduction) -> None:
    mine = [v for v in rep.verdicts if v.target.table in (S9_TABLE, S10_TABLE)]
    assert len(mine) == 27
    assert all(v.verdict == "pass" for v in mine), [
        (v.target.id, v.ours) for v in mine if v.verdict != "pass"
    ]
    ours = {v.target.id: v.ours for v in mine}
    assert 237.5 <= ours["s9.rt3.rtt_max"] <= 262.5
    assert ours["s10.rt2.under"] == 95
    # Fig 5-18 in the model: a spurious timeout every fourth cycle, AGG -5.2 % a cycle.
    assert ours["s10.agg.spurious"] == 9
    assert 5.1 < ours["s10.agg.decay"] < 5.3


def test_a_target_on_the_wrong_run_fails(rep: Reproduction) -> None:
    # RTO_E's trace in place of RTO_L's: no collapse, so RT3 fails.
    by_id = {t.run.id: t for t in rep.traced}
    swapped = [
        dataclasses.replace(t, result=by_id["s9-eifel-ts"].result)
        if t.run.id == "s9-lite-ts"
        else t
        for t in rep.traced
    ]
    target = next(t for t in l2k.TARGETS if t.id == "s9.rt3.under")
    v = evaluate((target,), rep.outcomes, swapped)[0]
    assert v.verdict == "fail"
    assert v.ours == 0


def test_the_model_is_the_rust_one_and_names_bad_input() -> None:
    rows = timer_model(10, "6250ms", "1ms", 2, "lite", "every-ack")
    assert len(rows["time_s"]) == 90
    assert np.isclose(rows["rtt_s"][0], 31.25)
    with pytest.raises(InvalidValueError, match=r"^timer: must be lite, eifel or agg"):
        timer_model(10, "6250ms", "1ms", 2, "bsd", "every-ack")
    with pytest.raises(InvalidValueError, match=r"^k: "):
        timer_model(26, "6250ms", "1ms", 2, "agg", "every-ack")
    with pytest.raises(InvalidValueError, match=r"^timeouts: "):
        timer_model(26, "6250ms", "1ms", 2, "lite", "every-ack", None, "eifel")


def test_fig_5_18_needs_the_timeouts_acted_on() -> None:
    # The model acting on its timeouts (Eifel detects each spurious) against the model before:
    # without the spurious timeouts AGG never goes back up.
    acted = timer_model(26, "6250ms", "1ms", 12, "agg", "every-ack", 0.05, "eifel")
    shown = timer_model(26, "6250ms", "1ms", 12, "agg", "every-ack", 0.05)
    steady = np.asarray(acted["cycle"]) >= 1
    hits = np.asarray(acted["timeouts"])[steady]
    assert (hits > 0).sum() >= 2
    assert hits.max() == 1
    assert np.all(np.diff(shown["agg"]) < 0)
    assert np.any(np.diff(acted["agg"]) > 0)
    assert not np.asarray(shown["timeouts"]).any()


def test_docs_name_the_groups() -> None:
    doc = L2K_DOC.read_text()
    assert "--only s9" in doc
    assert "--only s10" in doc
