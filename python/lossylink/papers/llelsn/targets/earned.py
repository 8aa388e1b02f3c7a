"""What the LL-ELSN study's known deviations must show to be "explained" (the reproduction's
rule, :func:`lossylink.reproduce.evaluate`; docs/reproduction.md#earned): the band each
mechanism predicts for our value, computed from the same runs' own measurements, and a
counterfactual run the reproduction makes with the mechanism switched off
(:data:`lossylink.papers.llelsn.runs.COUNTERFACTUALS`, ids ``<experiment>~<key>``), which must
bring the target into its accepted range. A failure without both stays "fail".

- ``ersn-reading`` (T004-16.ii): the spec's reading of ERSN (§4.2 (c): an ERSN for any
  outstanding segment restarts the retransmission timer), with the unbounded window: the
  access point's queue drops leave holes only the timer repairs, and ERSNs for the other
  outstanding segments keep restarting it, so LL-ELSN stalls at the higher FERs of Fig. 17
  (docs/llelsn.md). The band: LL-ELSN (R = 2) beats Reno at most at the FER points the
  reading does not hurt, a point being hurt when LL-ELSN keeps less than 90 % of the goodput it
  gets with the other reading at the same point (measured, both runs); so the share of
  points it wins is at most 1 - (share of hurt points). Counterfactual: ERSN restarts only
  the timer of the segment it guards (``tcp.ersn_restart = "oldest"``); LL-ELSN must then beat
  Reno at every point.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from lossylink.papers._base import Counterfactual, Measured, Swapped, Target
from lossylink.papers.llelsn import runs as r
from lossylink.papers.llelsn.targets.measures import g, point_id

STALLED = 0.9
"""A point is hurt by the reading when LL-ELSN keeps less than this share of its goodput under
the other ERSN reading (10 %: the noise allowance of T004-11.sack)."""

DEVIATIONS: dict[str, str] = {
    "ersn-reading": "the spec's ERSN reading (an ERSN for any outstanding segment restarts the "
    "timer) with the unbounded window: access-point queue drops leave holes only the timer "
    "repairs, and ERSNs for other segments keep restarting it, so LL-ELSN stalls at the higher "
    "FERs of Fig. 17 and loses to Reno there; with ERSN restarting only the guarded segment's "
    "timer (the counterfactual) it beats Reno at every FER",
}


def _elsn_r2(p: float) -> str:
    return point_id("retry", f"{p:g}-r2", "ll-elsn")


def _stalled_band(m: Measured) -> tuple[float, float]:
    stalled = [
        g(m, _elsn_r2(p)) < STALLED * g(m, f"{_elsn_r2(p)}~ersn-oldest") for p in r.RETRY_FER_PCT
    ]
    return (0.0, 1.0 - sum(stalled) / len(stalled))


def _counterfactual(t: Target, key: str, needs: tuple[str, ...]) -> Counterfactual:
    return Counterfactual(
        r.COUNTERFACTUALS[key], lambda m: t.value(Swapped(m, key, r.BY_ID)), needs, t.accept
    )


def earn(targets: Sequence[Target]) -> tuple[Target, ...]:
    """The targets with the predicted band and counterfactual of their deviation attached."""
    out = []
    for t in targets:
        if t.id == "T004-16.ii":
            needs = tuple(f"{_elsn_r2(p)}~ersn-oldest" for p in r.RETRY_FER_PCT)
            t = dataclasses.replace(
                t,
                deviation="ersn-reading",
                predicted=_stalled_band,
                counterfactual=_counterfactual(t, "ersn-oldest", needs),
            )
        out.append(t)
    return tuple(out)


__all__ = ["DEVIATIONS", "STALLED", "earn"]
