"""The targets of the timer experiments of Ludwig (2000) (spec §8 RT1-RT6): S10's model (the
checks of ``crates/tcp/src/rto/model_tests.rs``) and S9 at the packet level (the checks of
``crates/lossylink/tests/it/timer_s9.rs``). The model's values ignore the runs; S9's come from the
runs' ``rtt`` and ``events`` trace tables."""

from __future__ import annotations

import numpy as np

from lossylink.papers._base import INF, Measured, Target
from lossylink.papers.ludwig2000.checks import Value, target
from lossylink.papers.ludwig2000.timers import runs as tm

S10_TABLE = "S10 (timer model)"
S9_TABLE = "S9 (timer testbed)"
TARGET_TABLES = (S10_TABLE, S9_TABLE)
TABLE_GROUP = {S10_TABLE: "s10", S9_TABLE: "s9"}
MODEL = "model (computed, not a simulation)"
SRC10 = "spec §3.13.1, §6 S10, §8; tcp/src/rto/model_tests.rs"
SRC9 = "spec §3.4.3, §6 S9, §8; tests/timer_s9.rs"


def _model(f: Value) -> Value:
    """A model target: it does not read the runs."""
    return f


def _f(rows: dict[str, np.ndarray], key: str) -> np.ndarray:
    return np.asarray(rows[key], dtype=float)


def rt1_peak(_m: Measured) -> float:
    """Lowest, over cycles 1-5, of the RTO peak in the first flight after the RTT drop ÷ the
    previous cycle's highest RTO (W = 10, 1 ms, RTO_L)."""
    rows = tm.model(10, "1ms", "lite")
    cyc, load, rto = np.asarray(rows["cycle"]), np.asarray(rows["load"]), _f(rows, "rto_s")
    out = []
    for c in range(1, tm.CYCLES):
        spike = rto[(cyc == c) & (load == 5)].max()
        out.append(spike / rto[cyc == c - 1].max())
    return float(min(out))


def _near(rows: dict[str, np.ndarray]) -> float:
    s = tm.steady(rows)
    return float(np.mean(_f(rows, "rto_prev_s")[s] <= 1.1 * _f(rows, "rtt_s")[s]))


def _under(rows: dict[str, np.ndarray]) -> float:
    s = tm.steady(rows)
    return float(np.sum(_f(rows, "rto_prev_s")[s] < _f(rows, "rtt_s")[s]))


def rt5_offset(_m: Measured) -> float:
    """Mean (REXMT_L - RTO_L) ÷ mean RTT over every row but the last (W = 10, 1 ms)."""
    rows = tm.model(10, "1ms", "lite")
    off = (_f(rows, "rexmt_restart_s") - _f(rows, "rto_s"))[:-1]
    return float(off.mean() / _f(rows, "rtt_s")[:-1].mean())


def rt6_cv(_m: Measured) -> float:
    """Coefficient of variation, across W = 10, 20, 40 (1 ms), of the last cycle's mean
    RTO_E(i-1)/RTT(i)."""
    ratios = []
    for w in (10, 20, 40):
        rows = tm.model(w, "1ms", "eifel")
        last = np.asarray(rows["cycle"]) == tm.CYCLES - 1
        ratios.append(float(np.mean(_f(rows, "rto_prev_s")[last] / _f(rows, "rtt_s")[last])))
    return float(np.std(ratios) / np.mean(ratios))


def _agg_steady(rows: dict[str, np.ndarray]) -> np.ndarray:
    return tm.steady(rows)


def agg_decay(_m: Measured) -> float:
    """AGG's fall over cycle 1 of Fig 5-18's model (no spurious timeout in it), in %."""
    rows = tm.agg_model()
    c1 = np.asarray(rows["cycle"]) == 1
    agg, to = _f(rows, "agg")[c1], np.asarray(rows["timeouts"])[c1]
    if to.any():
        return float("nan")
    return float(100.0 * (1.0 - agg[-1] / agg[0]))


def agg_spurious(_m: Measured) -> float:
    """Spurious timeouts over cycles 1-39 of Fig 5-18's model (timeouts acted on)."""
    rows = tm.agg_model()
    return float(np.sum(np.asarray(rows["timeouts"])[_agg_steady(rows)] > 0))


def agg_multiple(_m: Measured) -> float:
    """Episodes in cycles 1-39 with more than one timeout for one segment (backed off)."""
    rows = tm.agg_model()
    return float(np.sum(np.asarray(rows["timeouts"])[_agg_steady(rows)] > 1))


def agg_backoff(_m: Measured) -> float:
    """Lowest, over the spurious timeouts of cycles 1-39, of the RTO after the detecting ACK ÷
    the RTO that fired (RTO(i) ÷ RTO(i-1) on the row)."""
    rows = tm.agg_model()
    hit = _agg_steady(rows) & (np.asarray(rows["timeouts"]) > 0)
    if not hit.any():
        return float("nan")
    return float(np.min(_f(rows, "rto_s")[hit] / _f(rows, "rto_prev_s")[hit]))


def _margin(rows: dict[str, np.ndarray]) -> float:
    s = _agg_steady(rows)
    return float(np.mean(_f(rows, "rto_prev_s")[s] / _f(rows, "rtt_s")[s]) - 1.0)


def agg_margin(_m: Measured) -> float:
    """The mean margin of the RTO over the RTT (mean RTO(i-1)/RTT(i) - 1, cycles 1-39), RTO_AGG
    ÷ RTO_E (both with their timeouts acted on)."""
    return _margin(tm.agg_model()) / _margin(tm.agg_model(timer="eifel"))


def agg_shown_under(_m: Measured) -> float:
    """The counterfactual (timeouts computed, never acted on, as the model was before): share
    of the last cycle's ACKs whose segment's timer had expired (RTO(i-1) < RTT(i))."""
    rows = tm.agg_model("shown")
    last = np.asarray(rows["cycle"]) == tm.AGG_CYCLES - 1
    return float(np.mean(_f(rows, "rto_prev_s")[last] < _f(rows, "rtt_s")[last]))


def _fig518() -> list[Target]:
    tb, src = S10_TABLE, SRC10 + ", model_tests.rs (fig_5_18)"
    what = f"RTO_AGG (MAXCWND {tm.AGG_W}, 1 ms, k = {tm.AGG_K})"
    return [
        target("s10.agg.decay", tb, f"{what}: AGG's fall over a congestion-avoidance cycle "
               "without a spurious timeout, %", 5.0, (4.0, 6.0), _model(agg_decay), (), src,
               tolerance="5 ± 1 points", unit="%",
               expected="k = 0.1 'reduces AGG by roughly 10 percent per congestion avoidance "
               f"cycle' (§5.4.6): k = 0.05 about 5 % (Fig 5-18); {MODEL}"),
        target("s10.agg.spurious", tb, f"{what}: spurious timeouts in cycles 1-39 (each "
               "detected by Eifel on the original's ACK)", None, (2.0, INF),
               _model(agg_spurious), (), src, tolerance="≥ 2 (more aggressive again after each)",
               expected="converges to RTT 'until a spurious timeout occurs, and then back it "
               f"off ... before it becomes more aggressive again' (Fig 5-18); {MODEL}"),
        target("s10.agg.single", tb, f"{what}: spurious timeouts that fired twice for one "
               "segment (backed off)", 0.0, (0.0, 0.0), _model(agg_multiple), (), src,
               expected=f"'the only penalty is a single spurious retransmission' (§5.4.6); "
               f"{MODEL}"),
        target("s10.agg.backoff", tb, f"{what}: RTO after the detection ÷ the RTO that fired "
               "(lowest over the spurious timeouts)", None, (1.0 + 1e-9, INF),
               _model(agg_backoff), (), src, tolerance="> 1",
               expected=f"AGG = MIN(AGG + ½(1 - AGG), 1) on each spurious timeout: a more "
               f"conservative RTO (Fig 5-18); {MODEL}"),
        target("s10.agg.margin", tb, f"{what}: the RTO's mean margin over the RTT ÷ RTO_E's "
               "(cycles 1-39)", None, (0.0, 1.0 - 1e-9), _model(agg_margin), (), src,
               tolerance="between 0 and 1 (nearer the RTT, never below it on average)",
               expected=f"RTO_AGG 'converge[s] to RTT' from RTO_E (§5.4.6); {MODEL}"),
        target("s10.agg.shown", tb, f"{what}, its timeouts never acted on (the model before; "
               "counterfactual): share of the last cycle's ACKs after their timer expired",
               None, (0.5, 1.0), _model(agg_shown_under), (), src,
               tolerance="most (AGG decays for ever without the spurious timeouts)",
               expected="observation: without the spurious timeouts AGG has nothing to learn "
               f"from, and the RTO falls through the RTT; {MODEL}"),
    ]  # fmt: skip


def _s10() -> list[Target]:
    tb, src = S10_TABLE, SRC10
    lite10 = lambda: tm.model(10, "1ms", "lite")  # noqa: E731
    lite40 = lambda: tm.model(40, "500ms", "lite")  # noqa: E731
    return [
        target("s10.rt1.spikes", tb, "RTO_L (W = 10, 1 ms): cycle starts where the RTO rises as "
               "the RTT falls", None, (tm.CYCLES - 1, tm.CYCLES - 1),
               _model(lambda m: tm.drop_spikes(lite10())), (), src,
               expected=f"at every cycle start (Fig 5-8); {MODEL}",
               tolerance=f"all {tm.CYCLES - 1} steady cycles"),
        target("s10.rt1.peak", tb, "RTO_L spike ÷ the previous cycle's highest RTO (lowest over "
               "the cycles)", None, (0.9999, INF), _model(rt1_peak), (), src,
               tolerance="≥ 1 (to one 1 ms tick)",
               expected=f"peak ≥ the previous maximum; {MODEL}"),
        target("s10.rt2.near", tb, "RTO_L (W = 40, 500 ms, every ACK timed): share of samples "
               "with RTO(i-1) ≤ 1.1 · RTT(i)", None, (0.5, 1.0),
               _model(lambda m: _near(lite40())), (), src, tolerance="most of each cycle",
               expected=f"RTO_L collapses into the RTT (Fig 5-9); {MODEL}"),
        target("s10.rt2.under", tb, "RTO_L (W = 40, 500 ms): samples with RTO(i-1) < RTT(i) in "
               "cycles 1-5", None, (1.0, INF), _model(lambda m: _under(lite40())), (), src,
               expected=f"some (spurious timeouts in theory); {MODEL}"),
        target("s10.rt4.once", tb, "RTO_L (W = 40, 500 ms, one sample per RTT): samples with "
               "RTO(i-1) < RTT(i)", None, (0.0, 0.0),
               _model(lambda m: _under(tm.model(40, "500ms", "lite", "once-per-rtt"))), (), src,
               expected=f"the gains work without timestamps (Fig 5-10); {MODEL}"),
        target("s10.rt5.offset", tb, "REXMT_L - RTO_L over the mean RTT (W = 10, 1 ms)", 1.0,
               (0.8, 1.2), _model(rt5_offset), (), src, tolerance="± 20 %",
               expected=f"about one RTT above the RTO (Fig 5-11); {MODEL}"),
        target("s10.rt5.precise", tb, "largest |REXMT_E - RTO_E| (W = 10, 1 ms), seconds", 0.0,
               (0.0, 0.0), _model(lambda m: float(np.abs(
               _f(r := tm.model(10, "1ms", "eifel"), "rexmt_precise_s")
               - _f(r, "rto_s"))[:-1].max())), (), src,
               expected=f"REXMT_E is identical to RTO_E (§5.4.5); {MODEL}", unit="s"),
        target("s10.rt6.spikes", tb, "RTO_E (W = 10, 20, 40, 1 ms): rises on a falling RTT",
               None, (0.0, 0.0), _model(lambda m: float(sum(
               tm.drop_spikes(tm.model(w, "1ms", "eifel")) for w in (10, 20, 40)))), (), src,
               expected=f"none (Fig 5-13); {MODEL}"),
        target("s10.rt6.cv", tb, "RTO_E/RTT across W = 10, 20, 40: coefficient of variation",
               None, (0.0, 0.15), _model(rt6_cv), (), src, tolerance="≤ 15 %",
               expected=f"the fraction RTO/RTT fairly constant across loads (Fig 5-14); {MODEL}"),
    ]  # fmt: skip


def _run(m: Measured, run: str) -> tm.S9Run:
    return tm.S9Run.of(m.trace(run))


def _s9_near(m: Measured) -> float:
    s = _run(m, "s9-lite-ts").samples()
    return float(np.mean([x.rto_prev <= 1.1 * x.rtt for x in s]))


def _below(run: str) -> Value:
    return lambda m: float(sum(x.rto_prev < x.rtt for x in _run(m, run).samples()))


def _late_timeouts(run: str) -> Value:
    def f(m: Measured) -> float:
        r = _run(m, run)
        return float(sum(t > r.first_fr for t in r.timeouts))

    return f


def _start_rises(run: str) -> Value:
    """Share of the steady cycles (from the second) whose first sample raises the RTO."""

    def f(m: Measured) -> float:
        cyc = _run(m, run).cycles[1:]
        return float(np.mean([c[0].rto > c[0].rto_prev for c in cyc])) if cyc else float("nan")

    return f


def _longest_gap(m: Measured) -> float:
    t = np.asarray(m.trace("s9-eifel-ts")["rtt"]["time_s"], dtype=float)
    r = _run(m, "s9-eifel-ts")
    t = t[t > r.first_fr - 1.0]
    return float(np.diff(t).max())


def _s9() -> list[Target]:
    tb, src = S9_TABLE, SRC9
    lts, lite, ets, eifel = (e.id for e in tm.EXPERIMENTS)
    return [
        target("s9.rt3.rtt_max", tb, "RTO_L, timestamps: highest RTT sample", 250.0,
               (237.5, 262.5), lambda m: max(x.rtt for x in _run(m, lts).samples()), (lts,), src,
               unit="s", tolerance="250 ± 5 %",
               expected="about 250 s (40 packets of 1500 bytes at 240 B/s)"),
        target("s9.rt3.near", tb, "RTO_L, timestamps: share of samples with RTO(i-1) ≤ 1.1 · "
               "RTT(i)", None, (0.5, 1.0), _s9_near, (lts,), src, tolerance="most of each cycle",
               expected="RTO_L collapses into the RTT (Fig 5-12, the trend of Fig 5-9)"),
        target("s9.rt3.under", tb, "RTO_L, timestamps: samples with RTO(i-1) < RTT(i)", None,
               (1.0, INF), _below(lts), (lts,), src, expected="some"),
        target("s9.rt3.timeouts", tb, "RTO_L, timestamps: timeouts after the start-up", 0.0,
               (0.0, 0.0), _late_timeouts(lts), (lts,), src,
               expected="none: the restarted REXMT hides the collapse (§5.3.3)"),
        target("s9.rt4.under", tb, "RTO_L, no timestamps: samples with RTO(i-1) < RTT(i)", 0.0,
               (0.0, 0.0), _below(lite), (lite,), src,
               expected="none: the gains work (Fig 5-10)"),
        target("s9.rt4.spikes", tb, "RTO_L, no timestamps: share of cycle starts where the RTO "
               "rises", 1.0, (1.0, 1.0), _start_rises(lite), (lite,), src,
               expected="spikes at the cycle ends (Fig 5-10)"),
        target("s9.rt5.offset", tb, "RTO_L, timestamps: REXMT_L - RTO_L over the mean RTT", 1.0,
               (0.8, 1.2), lambda m: _run(m, lts).restart_offset(), (lts,), src,
               tolerance="± 20 %", expected="about one RTT (Fig 5-11)"),
        target("s9.rt6.under", tb, "RTO_E, timestamps: samples with RTO(i-1) < RTT(i)", 0.0,
               (0.0, 0.0), _below(ets), (ets,), src,
               expected="none: RTO_E scales with the load (Fig 5-19)"),
        target("s9.rt6.rise", tb, "RTO_E, timestamps: largest relative RTO rise on a sample "
               "whose RTT fell by half", None, (-INF, 0.0),
               lambda m: _run(m, ets).rise_on_drop(), (ets,), src, tolerance="≤ 0",
               expected="no drop-spikes (RT6)"),
        target("s9.rt6.rise_lite", tb, "the same with RTO_L (for comparison)", None, (0.15, INF),
               lambda m: _run(m, lts).rise_on_drop(), (lts,), src,
               expected="the spike of Fig 5-8 at the packet level"),
        target("s9.rt6.gap", tb, "RTO_E, timestamps: longest time without a sample", None,
               (100.0, INF), _longest_gap, (ets,), src, unit="s",
               expected="gaps during fast recovery: duplicate ACKs give no sample (Fig 5-19)"),
        target("s9.rt6.nots", tb, "RTO_E, no timestamps: share of cycle starts where the RTO "
               "rises", 0.0, (0.0, 0.0), _start_rises(eifel), (eifel,), src,
               expected="no spikes (Fig 5-15)"),
    ]  # fmt: skip


TARGETS: tuple[Target, ...] = (*_s10(), *_fig518(), *_s9())
