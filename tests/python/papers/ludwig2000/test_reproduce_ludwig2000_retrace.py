"""RT22-RT28 over the band of the sub-minute time scale T_c (docs/ludwig2000.md
#sub-minute-clustering): every chain prediction shows its value at each reading of the band,
and is judged on the chain; "explained" needs the counterfactual reading to land in the spec's
tolerance, and a counterfactual outside it fails."""

from __future__ import annotations

import pytest

from lossylink.papers._base import Target
from lossylink.papers.ludwig2000.retrace import targets as rt
from lossylink.reproduce import evaluate

CHAIN_PREDICTIONS = [
    t
    for t in rt.TARGETS
    if t.table == rt.TABLE and t.id != "rt22.a.best" and not t.id.startswith("rt25.")
]


def test_every_chain_prediction_carries_the_band_and_the_counterfactual_reading() -> None:
    assert len(CHAIN_PREDICTIONS) == 23
    labels = ("chain", *(tc.replace(":dense", " dense") for tc in rt.CLUSTER_BAND))
    for t in CHAIN_PREDICTIONS:
        assert t.sensitivity is not None, t.id
        assert tuple(k for k, _ in t.sensitivity.values) == labels, t.id
        if t.id.endswith(".even"):
            continue
        assert t.deviation == rt.CLUSTER, t.id
        assert t.counterfactual is not None, t.id
        assert t.counterfactual.moves_to == t.accept, t.id
        assert "500ms dense" in t.counterfactual.what
    # The counterfactual reading is in the band the published statistics allow.
    assert rt.CLUSTER_CF in rt.CLUSTER_BAND
    # The fading channel's predictions and the calibration keep their own verdicts.
    assert all(t.deviation is None for t in rt.TARGETS if t.id.startswith(("fading.", "rt28.")))


def _verdict(t: Target, ours: float, cf: float) -> str:
    """The verdict of ``t`` when the chain gives ``ours`` and the counterfactual ``cf``."""
    from dataclasses import replace

    assert t.counterfactual is not None
    t2 = replace(
        t,
        value=lambda m: ours,
        counterfactual=replace(t.counterfactual, value=lambda m: cf),
        sensitivity=None,
    )
    return evaluate([t2], [], [])[0].verdict


@pytest.mark.parametrize(
    ("tid", "ours", "cf", "verdict"),
    [
        # Best frame: the chain below 150 B, clustering into [150, 300]: explained.
        ("rt22.poor-c.best", 110.0, 290.0, "explained"),
        # ... past 300 B (poor-b: 310): fail, the mechanism overshoots.
        ("rt22.poor-b.best", 140.0, 310.0, "fail"),
        # A value on the wrong side of the tolerance for the mechanism: fail.
        ("rt22.poor-c.best", 400.0, 290.0, "fail"),
        # Retransmissions: the chain above 16 %, clustering into [8, 16]: explained.
        ("rt27.retransmitted.576", 27.0, 10.2, "explained"),
        ("rt27.retransmitted.576", 27.0, 19.5, "fail"),
        # An ordering the counterfactual does not restore: fail.
        ("rt24.order", 0.0, 0.0, "fail"),
    ],
)
def test_explained_needs_the_side_and_the_counterfactual(
    tid: str, ours: float, cf: float, verdict: str
) -> None:
    t = next(x for x in rt.TARGETS if x.id == tid)
    assert _verdict(t, ours, cf) == verdict
