"""What makes the six ReTracer predictions that stay "fail" (docs/ludwig2000.md#six-fails): the
counterfactuals the reproduction runs beside them, each with the band its mechanism predicts.

Every value is computed on the traces the RT22-RT27 targets use (``targets._text``: 120 minutes,
seeds 1-3) by ReTracer (``mechanisms``); none is a dissertation number, so ``paper`` is None and
``expected`` names the mechanism and the dissertation's value it bears on. Each can fail: a
ReTracer whose arms broke the ceiling, an optimum that was a peak and not a plateau, a trace
property that did not move the value as measured.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lossylink.papers._base import INF, Measured, Target
from lossylink.papers.ludwig2000.checks import target
from lossylink.papers.ludwig2000.retrace import mechanisms as mech
from lossylink.papers.ludwig2000.retrace import targets as rt

TABLE = "S6-S7: what makes the six failures (§4.3)"
TARGET_TABLES = (TABLE,)
TABLE_GROUP = {TABLE: "retrace"}
SRC = "docs/ludwig2000.md#six-fails; retrace/mechanisms.py"

CF = "poor-b@500ms:dense", "poor-c@500ms:dense"
"""The counterfactual reading of the band (``targets.CLUSTER_CF``), trace_B- and trace_C-like."""
C_READINGS = (
    "poor-c",
    *(f"poor-c@{tc}" for tc in rt.CLUSTER_BAND),
    "poor-c@720ms:dense",
    "poor-c@1s:dense",
)
"""Every trace_C-like reading run: the chain, the band, and dense fades of 0.72 and 1 s (which
trace_C's statistics allow, [`why.c1s.*`], and trace_B's do not)."""
C1S = "poor-c@1s:dense"


Value = Callable[[Measured], float]


def _each(
    readings: tuple[str, ...],
    f: Callable[[str, int], float],
    pick: Callable[[Iterable[float]], float],
) -> Value:
    """``pick`` (max, min) of ``f`` over every trace of ``readings``."""
    return lambda m: float(pick(f(r, s) for r in readings for s in rt.SEEDS))


def _mean(f: Callable[[int], float]) -> Value:
    return lambda m: sum(f(s) for s in rt.SEEDS) / len(rt.SEEDS)


def _row(key: str, reading: str, change: str = "") -> Value:
    return _mean(lambda s: mech.row(reading, s, change)[key])


def _gap(
    mtu: int, col: str = "throughput_bps", over: str = "rlp_bps"
) -> Callable[[str, int], float]:
    """``col`` over ``over`` at ``mtu``, %, on one trace."""

    def f(reading: str, seed: int) -> float:
        row = rt._retrace(reading, seed).e2e_row(mtu)
        return 100 * (row[col] / row[over] - 1)

    return f


def _c1s_statistics() -> list[Target]:
    """RT28's checks on trace_C-like dense fades of 1 s: the reading that gives Tab 4-14's
    orderings meets every statistic trace_C publishes (trace_B's maximum refutes its own 1 s
    reading: 22 retransmissions on seed 2, ``gsm_clustered.rs``)."""
    out = []
    for t in rt._rt28(rt._clustered("1s:dense")):
        if not t.id.startswith("rt28.poor-c."):
            continue
        out.append(
            target(
                t.id.replace("rt28.poor-c.", "why.c1s."),
                TABLE,
                t.description.replace("C-like", "C-like, dense 1 s"),
                t.paper,
                t.accept,
                t.value,
                (),
                t.source,
                tolerance=t.tolerance,
                unit=t.unit,
                expected=t.expected,
            )
        )
    return out


TARGETS: tuple[Target, ...] = (
    target(
        "why.rt22.poor-b.plateau",
        TABLE,
        "B-like, 500 ms dense: RLP throughput at 210 B below the best frame's (310 B)",
        None,
        (0.0, 1.0),
        _row("at210", CF[0]),
        (),
        SRC,
        unit="%",
        tolerance="≤ 1 % (on the optimum's plateau)",
        expected="the dissertation's 210 B on our optimum's plateau (rt22.poor-b.best: 310 B)",
    ),
    target(
        "why.rt22.poor-b.nstar",
        TABLE,
        "B-like, 500 ms dense: the best frame the clusters' rate predicts, 30·√(0.2 (1 - q) / s) "
        "B (s: the slope of the erased-frame share per block), ÷ ReTracer's best frame",
        None,
        (0.85, 1.15),
        _mean(lambda s: mech.row(CF[0], s)["n_star"] / mech.row(CF[0], s)["best"]),
        (),
        SRC,
        tolerance="1 ± 0.15",
        expected="1: the clusters' rate sets the optimum (Fig 4-13's own slope gives 200 B; 210)",
    ),
    target(
        "why.rt22.poor-b.respace",
        TABLE,
        "B-like, 500 ms dense: best frame with each minute's clusters dealt afresh (the fades' "
        "spacing only) - best frame",
        None,
        (-30.0, 30.0),
        _mean(lambda s: mech.row(CF[0], s, "respace")["best"] - mech.row(CF[0], s)["best"]),
        (),
        SRC,
        unit="B",
        tolerance="within one 30-byte step",
        expected="0: where the fades sit does not matter, how many there are does",
    ),
    target(
        "why.rt23.plateau",
        TABLE,
        "C-like, 500 ms dense: pure end-to-end throughput at MTU 690 below the best MTU's (910)",
        None,
        (0.0, 1.0),
        _mean(lambda s: mech.mtu_curve(CF[1], s)["at690"]),
        (),
        SRC,
        unit="%",
        tolerance="≤ 1 % (on the optimum's plateau)",
        expected="the dissertation's 690 B on our optimum's plateau (rt23.best_mtu: 910 B)",
    ),
    target(
        "rt24.ceiling.296",
        TABLE,
        "C-like, MTU 296: pure end-to-end over RLP's best frame, the most on any trace (the "
        "chain, the band, dense 0.72 s and 1 s)",
        None,
        (-INF, mech.ceiling_pure_over_rlp(296)),
        _each(C_READINGS, _gap(296), max),
        (),
        SRC,
        unit="%",
        tolerance=f"≤ {mech.ceiling_pure_over_rlp(296):.2f} % = 1/(1 - 6/300) - 1",
        expected="a 303-byte packet covers a 300-byte frame: Tab 4-14's 5.2 % is beyond it",
    ),
    target(
        "rt24.ceiling.576",
        TABLE,
        "C-like, MTU 576: pure end-to-end over RLP's best frame, the most on any trace",
        None,
        (-INF, mech.ceiling_pure_over_rlp(576)),
        _each(C_READINGS, _gap(576), max),
        (),
        SRC,
        unit="%",
        tolerance=f"≤ {mech.ceiling_pure_over_rlp(576):.2f} % = 1/(1 - 6/570) - 1",
        expected="a 583-byte packet covers a 570-byte frame: the ordering at 576 needs ≤ 1.06 %",
    ),
    target(
        "rt24.ceiling.hc296",
        TABLE,
        "C-like, MTU 296: RLP+HC over pure end-to-end, the least on any trace",
        None,
        (mech.floor_rlp_hc_over_pure(296), INF),
        _each(C_READINGS, _gap(296, "rlp_vj_bps", "throughput_bps"), min),
        (),
        SRC,
        unit="%",
        tolerance=f"≥ {mech.floor_rlp_hc_over_pure(296):.2f} % = (1 - 6/300)·303/269 - 1",
        expected="the ceiling as a floor: Tab 4-14's 7.6 ± 3 % ends at 10.6",
    ),
    target(
        "rt24.order.c1s",
        TABLE,
        "C-like, dense 1 s: Tab 4-14's orderings hold on every trace",
        1.0,
        (1.0, 1.0),
        lambda m: rt._ordering_on(C1S),
        (),
        SRC,
        unit="yes = 1",
        tolerance="all hold",
        expected="pure > RLP at 296 and 576 (within the 1.06 % edge), RLP > pure at 1500, HC best",
    ),
    *_c1s_statistics(),
    target(
        "why.rt26.multi.296.shorten",
        TABLE,
        "C-like, 500 ms dense, MTU 296: loss runs ≥ 2 with every burst cut to its first block "
        "(burst lengths only) - unchanged (89 %)",
        None,
        (-INF, 0.0),
        _mean(
            lambda s: 100 * (mech.row(CF[1], s)["runs1"] - mech.row(CF[1], s, "shorten")["runs1"])
        ),
        (),
        SRC,
        unit="points",
        tolerance="< 0",
        expected="the clusters' length against a packet makes the runs (Fig 4-15: 66 %)",
    ),
)
