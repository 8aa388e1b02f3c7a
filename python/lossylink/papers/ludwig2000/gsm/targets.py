"""The targets of TCP over GSM-CSD with RLP in Ludwig (2000) (dissertation §4.2; spec §6 S1-S5,
§8 RT15-RT21; runs in :mod:`lossylink.papers.ludwig2000.gsm.runs`), every one also checked by
``crates/lossylink/tests/it/gsm.rs`` and ``gsm_s5.rs``; what the S2, S3 and Fig 4-9 targets
read from the traces is in :mod:`lossylink.papers.ludwig2000.gsm.traces`."""

from __future__ import annotations

import numpy as np

from lossylink.papers._base import (
    INF,
    Counterfactual,
    Measured,
    Sensitivity,
    Target,
    Unavailable,
    mean,
)
from lossylink.papers._trace import SenderTrace
from lossylink.papers.ludwig2000.checks import Value, target
from lossylink.papers.ludwig2000.gsm.runs import (
    CAMPAIGN,
    FIG46_ALT,
    FIG46_QUEUE,
    MSS,
    NEWRENO,
    NEWRENO_NOVJ,
    NOFADES,
    NOVJ,
    PERDIR,
    POOR,
    RATE,
    RESETS_PER_POOR_HOUR,
    S2_RESET_S,
    S2_RTT_ALT,
    S5_SECOND_AT,
    SEGMENT_BYTES,
)
from lossylink.papers.ludwig2000.gsm.traces import (
    FIG49,
    fig49_backoff,
    fig49_covered,
    fig49_idle,
    fig49_inflation,
    gap_over_rto,
    idle,
    interval_drop,
    trend,
)

TABLE = "S1-S5 (GSM-CSD, RLP)"
TARGET_TABLES = (TABLE,)
TABLE_GROUP = {TABLE: "gsm"}
SRC = "spec §6 S1-S5, §8; tests/gsm.rs"
SRC5 = "spec §6 S5, §8 RT21; tests/gsm_s5.rs"


def _campaign(m: Measured) -> list[float]:
    return [u for r in CAMPAIGN for u in m.values(r, "utilization_pct")]


def _util(m: Measured, run: str) -> float:
    return mean(m, run, "utilization_pct")


def _low(limit: float, runs: tuple[str, ...] = CAMPAIGN) -> Value:
    """Runs at or below ``limit`` % utilization (§3.2.2: the dissertation singled out the runs
    at 95 % or less)."""
    return lambda m: float(sum(_util(m, r) <= limit for r in runs))


def _low_counting_discards(limit: float) -> Value:
    """Runs at or below ``limit`` % if the link time of the packets the VJ decompressor
    discarded counted as useful (the metric before it took them off; §3.1.2 says they are not)."""
    return lambda m: float(
        sum(_util(m, r) + mean(m, r, "vj_discard_pct") <= limit for r in CAMPAIGN)
    )


def _min_per_direction(m: Measured) -> float:
    """The lowest utilization of the campaign with each direction resetting alone (the poor
    runs' counterfactual; the good runs have no reset)."""
    return min(_util(m, PERDIR.get(r, r)) for r in CAMPAIGN)


def _low_without_reset(m: Measured) -> float:
    """Runs at ≤ 95 % with no RLP reset (T4: every such run had a reset with VJ)."""
    return float(sum(_util(m, r) <= 95.0 and mean(m, r, "rlp_resets") == 0 for r in CAMPAIGN))


def _reset_runs(m: Measured) -> list[str]:
    runs = [r for r in CAMPAIGN if mean(m, r, "rlp_resets") > 0]
    if not runs:
        raise Unavailable("no campaign run had an RLP reset")
    return runs


def _vj_cost(m: Measured) -> float:
    """Over the runs with a reset: mean utilization without VJ minus with VJ, points (§4.2.1:
    the reset costs utilization through VJ; positive if VJ makes it costlier)."""
    runs = _reset_runs(m)
    return float(np.mean([_util(m, NOVJ[r]) - _util(m, r) for r in runs]))


def _vj_cost_newreno(m: Measured) -> float:
    """The same over the same runs with NewReno (the counterfactual of Reno's one fast
    retransmit a window: both packets a reset flushes are repaired from partial ACKs)."""
    runs = _reset_runs(m)
    return float(np.mean([
        _util(m, NEWRENO_NOVJ.get(r, NOVJ[r])) - _util(m, NEWRENO.get(r, r)) for r in runs
    ]))  # fmt: skip


NOVJ_NEWRENO_RUNS = tuple(NEWRENO_NOVJ.get(r, NOVJ[r]) for r in CAMPAIGN)
"""The campaign without VJ with NewReno in the poor runs (the good runs lose nothing: the same
with either)."""
NEWRENO_RUNS = (*NEWRENO.values(), *NEWRENO_NOVJ.values())


RESET_BAND = 2.0 * 14**0.5 / 2.0
"""Two standard deviations of the published rate: a Poisson count of 14 in 2 h."""
RESET_EPISODE_S = 5.0
"""Resets of the two directions less than this apart are one link reset (both directions of a
hop fade together; RLP's reset is the link's, and rlpdump logged it once)."""


def _reset_episodes(m: Measured, run: str) -> int:
    rl = m.trace(run)["rlp"]
    t = np.sort(np.asarray(rl["time_s"], dtype=float)[np.asarray(rl["kind"]) == "reset"])
    return int(np.sum(np.diff(t, prepend=-np.inf) > RESET_EPISODE_S))


def _resets_per_hour(runs: tuple[str, ...]) -> Value:
    """Link resets (episodes, :data:`RESET_EPISODE_S`) per hour of transfer."""

    def f(m: Measured) -> float:
        n = sum(_reset_episodes(m, r) for r in runs)
        return n / (sum(mean(m, r, "completion_s") for r in runs) / 3600.0)

    return f


def _slowest_full(m: Measured, runs: tuple[str, ...] = CAMPAIGN) -> str:
    """The campaign run at ≥ 98 % utilization (Fig 4-5's 99 and 100 % bins) with the lowest
    throughput."""
    full = [r for r in runs if _util(m, r) >= 98.0]
    if not full:
        raise Unavailable("no campaign run at ≥ 98 % utilization")
    return min(full, key=lambda r: mean(m, r, "throughput_mbps"))


def _rlp_share(m: Measured, run: str) -> float:
    return mean(m, run, "rlp_retransmissions") / max(1.0, mean(m, run, "rlp_frames"))


def _t6_rlp(m: Measured) -> float:
    """That run's share of RLP retransmissions ÷ the campaign's mean share."""
    avg = float(np.mean([_rlp_share(m, r) for r in CAMPAIGN]))
    if avg <= 0:
        raise Unavailable("no RLP retransmission in the campaign")
    return _rlp_share(m, _slowest_full(m)) / avg


def _t6(runs: tuple[str, ...]) -> Value:
    return lambda m: 1000.0 * mean(m, _slowest_full(m, runs), "throughput_mbps")


NOFADES_RUNS = tuple(NOFADES.get(r, r) for r in CAMPAIGN)
"""The campaign with the poor runs' deep fades taken out (the good runs have none)."""


def _fig46_burst(run: str) -> Value:
    """Segments sent at the instant the first fast retransmission is acknowledged (Fig 4-6:
    the window grew on the DUPACKs while the receiver's window was full)."""

    def f(m: Measured) -> float:
        tr = SenderTrace(run, m.trace(run))
        fr = tr.first("fast-retransmit")
        ack = next((e for e in tr.events("ack") if e.t > fr.t and e.seq > fr.seq), None)
        if ack is None:
            raise Unavailable(f"{run}: the fast retransmission is never acknowledged")
        return float(sum(e.kind == "send" and e.t == ack.t for e in tr.ev))

    return f


def _fig46_run(q: int) -> str:
    return "gsm-fig46" if q == FIG46_QUEUE else f"gsm-fig46-q{q}"


def _share_at_least(limit: float) -> Value:
    def f(m: Measured) -> float:
        u = _campaign(m)
        return sum(x >= limit for x in u) / len(u)

    return f


RESET_RELATED_S = 64.0
"""A segment received twice within this of an RLP reset belongs to the reset (TCP-Lite's
largest RTO, 64 s: the reset's timeout and its go-back-N come inside it); §4.2.4: "All other
timeouts we found were related to RLP link resets"."""


def _duplicate_times(m: Measured, run: str) -> list[float]:
    """When the receiver got a segment it already had."""
    rx = m.trace(run)["receiver"]
    data = np.asarray(rx["kind"]) == "data"
    seen: set[int] = set()
    out = []
    for t, q in zip(np.asarray(rx["time_s"], dtype=float)[data],
                    np.asarray(rx["seq"])[data], strict=True):  # fmt: skip
        if int(q) in seen:
            out.append(float(t))
        seen.add(int(q))
    return out


def _spurious_duplicates(m: Measured, run: str, after: float = 0.0) -> int:
    """Segments received twice after ``after`` s and not within :data:`RESET_RELATED_S` after
    an RLP reset: the go-back-N of spurious timeouts. A run without resets is read from its
    counter; one with resets from its traces."""
    if mean(m, run, "rlp_resets") == 0 and after == 0.0:
        return int(mean(m, run, "receiver_duplicate_segments"))
    rl = m.trace(run)["rlp"]
    resets = np.asarray(rl["time_s"], dtype=float)[np.asarray(rl["kind"]) == "reset"]
    return sum(
        t > after and not np.any((resets <= t) & (t - resets < RESET_RELATED_S))
        for t in _duplicate_times(m, run)
    )


def _duplicates_per_hour(runs: tuple[str, ...], *, related: bool = False) -> Value:
    """Segments the receiver got twice per hour of transfer: every spurious timeout of a sender
    without a detector shows here (its retransmission, and the go-back-N behind it), where
    ``sender_spurious_timeouts`` counts only those a detector (Eifel) saw. Without ``related``
    those after an RLP reset are left out (the dissertation counts them as reset-related)."""

    def f(m: Measured) -> float:
        if related:
            n = sum(sum(m.values(r, "receiver_duplicate_segments")) for r in runs)
        else:
            n = sum(_spurious_duplicates(m, r) for r in runs)
        hours = sum(sum(m.values(r, "completion_s")) for r in runs) / 3600.0
        return n / hours

    return f


def _steady_duplicates(m: Measured) -> float:
    """Campaign segments received twice after the first 10 s, not related to a reset (read
    from the traces of the runs that have any; the poor-signal runs are traced)."""
    return float(
        sum(
            _spurious_duplicates(m, r, 10.0)
            for r in CAMPAIGN
            if mean(m, r, "receiver_duplicate_segments") > 0
        )
    )


def _flight_segments(run: str, t: float) -> Value:
    def f(m: Measured) -> float:
        tr = SenderTrace(run, m.trace(run))
        w = tr.at(t)
        return (tr.snd_max_before(w.t + 1e-9, MSS) - w.una) / MSS

    return f


def _rest_of_flight(m: Measured) -> float:
    """Segments in flight at the reset that RLP had not yet taken (VJ discards them)."""
    tr = SenderTrace("gsm-s2", m.trace("gsm-s2"))
    w = tr.before(S2_RESET_S)
    flight = (tr.snd_max_before(S2_RESET_S, MSS) - w.una) / MSS
    return flight - mean(m, "gsm-s2", "rlp_flushed_packets")


def _discards_minus_rest(m: Measured) -> float:
    return mean(m, "gsm-s2", "vj_discards") - _rest_of_flight(m)


def second_events(m: Measured, run: str) -> list[tuple[float, str]]:
    """(time, kind) of the second connection's sender events in an S5 run."""
    ev = m.trace(run)["events"]
    return [
        (float(t), str(k))
        for t, k, f in zip(ev["time_s"], ev["kind"], ev["flow"], strict=True)
        if f == "second"
    ]


def _syn_timeouts(run: str) -> Value:
    return lambda m: float(sum(k == "syn-timeout" for _, k in second_events(m, run)))


def _connect(run: str) -> Value:
    def f(m: Measured) -> float:
        opened = [t for t, k in second_events(m, run) if k == "established"]
        return opened[0] - S5_SECOND_AT if opened else float("inf")

    return f


def _metric(run: str, metric: str, scale: float = 1.0) -> Value:
    return lambda m: scale * mean(m, run, metric)


def _s2_rtt(metric: str) -> Sensitivity:
    """S2's ``metric`` over the RLP round trip (N2 scaled to reset after the same 2.4 s): into
    a total fade RLP sends one round trip of new data before its retransmissions fill every
    block, and a reset flushes the packets with bytes in it (docs: rt20-split)."""
    return Sensitivity("the new data RLP sends into a fade: its round trip (docs: rt20-split)", (
        ("400 ms, N2 = 6 (ours)", _metric("gsm-s2", metric)),
        *((f"{rtt} ms, N2 = {n2}", _metric(f"gsm-s2-rtt{rtt}", metric))
          for rtt, n2 in S2_RTT_ALT)),
        tuple(f"gsm-s2-rtt{rtt}" for rtt, _ in S2_RTT_ALT))  # fmt: skip


_BPS = 1e6 / 8.0
TARGETS: tuple[Target, ...] = (
    # RT15 as the dissertation measured it: the trendline of the receiver's data (Fig 3-6),
    # which holds only if TCP keeps L2R's bursts and 950-1300 ms gaps filled; the average
    # throughput over the whole run would return the configured 960 B/s times 460/519.
    target("gsm.rt15.throughput", TABLE, "S1: trendline of the TCP receiver's data (steady state), "
           "L2R at 960 B/s, no compression", 848.0, (831.0, 865.0), trend("gsm-s1"), ("gsm-s1",),
           SRC, unit="B/s", tolerance="848 ± 2 %",
           expected="848 B/s, the TcpRcv_Data trendline of Fig 3-6"),
    target("gsm.rt15.utilization", TABLE, "S1: utilization of the RLP link (§3.2.2)", 100.0,
           (98.0, 100.0), _metric("gsm-s1", "utilization_pct"), ("gsm-s1",), SRC, unit="%",
           expected="≈ 100 %"),
    target("gsm.rt19.timeouts", TABLE, "S4: timeouts across L2R's 950-1300 ms gaps", 0.0,
           (0.0, 0.0), _metric("gsm-s1", "sender_timeouts"), ("gsm-s1",), SRC, expected="none"),
    target("gsm.rt19.gaps", TABLE, "S4: L2R XOFF gaps in the transfer", None, (1.0, INF),
           _metric("gsm-s1", "l2r_gaps"), ("gsm-s1",), SRC, expected="periodic gaps"),
    target("gsm.rt16.share98", TABLE, "S1 campaign: share of runs with utilization ≥ 98 %", 0.85,
           (0.75, 1.0), _share_at_least(98.0), CAMPAIGN, SRC,
           expected="≈ 85 % of runs (Fig 4-5)"),
    target("gsm.rt16.min", TABLE, "S1 campaign: lowest utilization of a run", 91.0, (88.0, 100.0),
           lambda m: min(_campaign(m)), CAMPAIGN, SRC, unit="%",
           expected="91 % (§4.2.1)",
           sensitivity=Sensitivity("whose buffers a reset flushes (docs: link-reset)", (
               ("the link's, GSM 04.22 (ours)", lambda m: min(_campaign(m))),
               ("each direction's alone", _min_per_direction)),
               tuple(PERDIR.values()))),
    target("gsm.rt16.low", TABLE, "S1 campaign: runs at ≤ 95 % utilization", None, (1.0, INF),
           _low(95.0), CAMPAIGN, SRC, tolerance="≥ 1 (a link without resets has none)",
           expected="some: the runs the dissertation singled out, down to 91 % (§4.2.1)",
           sensitivity=Sensitivity("the link time of packets VJ discarded (docs: rt16-vj)", (
               ("sent in vain, §3.1.2 (ours)", _low(95.0)),
               ("counted as useful (before)", _low_counting_discards(95.0))))),
    target("gsm.rt16.cause", TABLE, "S1 campaign: runs at ≤ 95 % without an RLP reset", 0.0,
           (0.0, 0.0), _low_without_reset, CAMPAIGN, SRC,
           expected="none: all suffered from RLP resets with VJ compression (§4.2.1)"),
    target("gsm.rt16.vj", TABLE, "S1 campaign, runs with a reset: utilization without VJ minus "
           "with VJ (the same runs, VJ off)", None, (0.0, INF), _vj_cost,
           (*CAMPAIGN, *NOVJ.values()), SRC, unit="points",
           tolerance="> 0 (VJ makes a reset cost utilization)",
           expected="the low runs are due to resets *with* VJ compression (§4.2.1, §4.2.3)",
           # TCP-Lite's Reno repairs one loss a window by fast retransmit; a reset flushes two
           # packets (S2: 2). Without VJ the second waits for the timer after the flight has
           # drained (S2: 15.8 s idle, 94.3 %); with VJ the rest of the flight is discarded and
           # one timeout's go-back-N repairs all (96.3 %): VJ off costs more, value ≤ 0.
           deviation="rt16-vj", predicted=(-INF, 0.0),
           counterfactual=Counterfactual(
               "scheme = e2e-newreno in both arms of the poor runs (partial ACKs repair the "
               "second flushed packet)", _vj_cost_newreno, NEWRENO_RUNS, (1e-9, INF))),
    target("gsm.rt16.novj_low", TABLE, "S1 campaign without VJ (counterfactual): runs at ≤ 95 %",
           0.0, (0.0, 0.0), _low(95.0, tuple(NOVJ.values())), tuple(NOVJ.values()), SRC,
           expected="none: without VJ a reset loses only what RLP's buffers held (§4.2.3)",
           # The same mechanism: runs with resets lose a timeout's idle link per reset without
           # VJ, so some fall to ≤ 95 % under Reno; with NewReno none.
           deviation="rt16-vj", predicted=(1.0, INF),
           counterfactual=Counterfactual(
               "scheme = e2e-newreno in the poor runs without VJ", _low(95.0, NOVJ_NEWRENO_RUNS),
               tuple(NEWRENO_NOVJ.values()), (0.0, 0.0))),
    target("gsm.t6.throughput", TABLE, "S1 campaign: lowest throughput of a run at ≥ 98 % "
           "utilization (Fig 4-5's 99 and 100 % bins), VJ on", 7.0, (0.0, 7.0),
           _t6(CAMPAIGN), CAMPAIGN, SRC,
           unit="kbit/s", tolerance="≤ 7.0 (T6)",
           expected="7.0 kbit/s at 99 %: a poor radio connection, not a bad interaction "
           "(§4.2.1)",
           sensitivity=Sensitivity("the poor runs' deep fades (the reset calibration; docs: "
                                   "gsm-item6)", (
               ("with them (ours)", _t6(CAMPAIGN)),
               ("without them (radio alone)", _t6(NOFADES_RUNS))),
               tuple(NOFADES.values()))),
    target("gsm.t6.rlp", TABLE, "S1 campaign: that run's share of RLP retransmissions ÷ the "
           "campaign's mean share", None, (1.0 + 1e-9, INF), _t6_rlp, CAMPAIGN, SRC,
           tolerance="> 1", expected="the RLP sender must have retransmitted more frames "
           "(§4.2.1)"),
    target("gsm.resets.rate", TABLE, "S1 campaign: RLP link resets per hour of poor-signal "
           "transfer (calibration; the two directions' resets within 5 s are one)",
           RESETS_PER_POOR_HOUR, (RESETS_PER_POOR_HOUR - RESET_BAND,
           RESETS_PER_POOR_HOUR + RESET_BAND), _resets_per_hour(POOR), POOR, SRC,
           unit="per hour", tolerance="7 ± 2 sd of a count of 14 (3.3-10.7)",
           expected="14 resets in the 2 h of poor signal (§4.2.3, §3.2.3)"),
    target("gsm.resets.good", TABLE, "S1 campaign: RLP resets in the good-signal runs", 0.0,
           (0.0, 0.0), lambda m: sum(mean(m, r, "rlp_resets") for r in CAMPAIGN
                                     if r not in POOR), CAMPAIGN, SRC,
           expected="none: all 14 at extremely low signal (§4.2.3)"),
    target("gsm.rt17.spurious", TABLE, "S1 campaign: segments the receiver got twice, per hour "
           "of transfer, outside the 64 s after a reset (each spurious timeout's go-back-N)",
           None, (0.0, 1.0), _duplicates_per_hour(CAMPAIGN), CAMPAIGN, SRC,
           expected="2 spurious timeouts in 6 h, at connection start only"),
    target("gsm.rt17.steady", TABLE, "S1 campaign: the same after the first 10 s (steady state)",
           0.0, (0.0, 0.0), _steady_duplicates, CAMPAIGN, SRC,
           expected="none in steady state (RT17)"),
    target("gsm.rt17.reset_related", TABLE, "S1 campaign: all segments the receiver got twice, "
           "per hour, the reset-related included (observation)", None, (0.0, INF),
           _duplicates_per_hour(CAMPAIGN, related=True), CAMPAIGN, SRC,
           tolerance="any (shown beside RT17)",
           expected="'All other timeouts we found were related to RLP link resets' (§4.2.4)"),
    target("gsm.rt17.krlka97", TABLE, "[KRLKA97] contrast: the same per hour with an aggressive "
           "timer (10 ms clock, 200 ms minimum RTO) over poor run 1's channel", None, (1.0, INF),
           _duplicates_per_hour(("gsm-s1-krlka",)), ("gsm-s1-krlka",), SRC,
           tolerance="≥ 1 (the limit RT17 holds TCP-Lite to, crossed)",
           expected="spurious timeouts over RLP's delays, which TCP-Lite's timer avoids"),
    target("gsm.fig46.burst", TABLE, "Fig 4-6: segments sent at once when the fast "
           "retransmission after a local drop is acknowledged", 8.0, (7.0, 9.0),
           _fig46_burst("gsm-fig46"), ("gsm-fig46",), SRC, unit="segments",
           tolerance="8 ± 1 segment", expected="a burst of 8 segments (§4.2.2)",
           sensitivity=Sensitivity("the interface queue (< 8 KB, not given)", tuple(
               (f"{q} packets" + (" (ours)" if q == FIG46_QUEUE else ""),
                _fig46_burst(_fig46_run(q)))
               for q in sorted((FIG46_QUEUE, *FIG46_ALT))),
               tuple(_fig46_run(q) for q in FIG46_ALT))),
    target("gsm.rt18.timeouts", TABLE, "S3: timeouts after a 1.3 s burst of RLP retransmissions",
           0.0, (0.0, 0.0), _metric("gsm-s3", "sender_timeouts"), ("gsm-s3",), SRC,
           expected="none (TCP-Lite tolerates > 1.2 s)"),
    target("gsm.rt18.idle", TABLE, "S3: longest time without data at the TCP receiver around the "
           "1.3 s burst", 2.26, (1.96, 2.56), idle("gsm-s3", 55.0, 75.0), ("gsm-s3",), SRC,
           unit="s", tolerance="2260 ms ± 300 ms (RT18)",
           expected="idle 2260 ms for a 1325 ms delay: a segment's end hit needs an RLP round "
           "trip"),
    target("gsm.rt20.reset", TABLE, "S2: RLP resets", 1.0, (1.0, 1.0),
           _metric("gsm-s2", "rlp_resets"), ("gsm-s2",), SRC, expected="a reset"),
    target("gsm.rt20.discards", TABLE, "S2: VJ discards minus the rest of the flight", 0.0,
           (-2.0, 2.0), _discards_minus_rest, ("gsm-s2",), SRC, unit="segments",
           expected="off by 5: 13 discarded, the rest of the flight"),
    target("gsm.rt20.discards_source", TABLE, "S2: compressed segments the receiver's VJ discards",
           13.0, (11.0, 15.0), _metric("gsm-s2", "vj_discards"), ("gsm-s2",), SRC,
           unit="segments", tolerance="13 ± 2 (RT20)", expected="13 discarded (Fig 4-7)",
           sensitivity=_s2_rtt("vj_discards")),
    target("gsm.rt20.lost", TABLE, "S2: packets lost in the reset (the decompressor's offset)",
           5.0, (4.0, 6.0), _metric("gsm-s2", "rlp_flushed_packets"), ("gsm-s2",), SRC,
           unit="packets", tolerance="5 ± 1", expected="off by 5 (Fig 4-8)",
           sensitivity=_s2_rtt("rlp_flushed_packets")),
    target("gsm.rt20.affected", TABLE, "S2: segments lost in the reset plus those VJ discards",
           18.0, (16.0, 20.0), lambda m: mean(m, "gsm-s2", "rlp_flushed_packets")
           + mean(m, "gsm-s2", "vj_discards"), ("gsm-s2",), SRC, unit="segments",
           tolerance="18 ± 2", expected="5 lost + 13 discarded: the flight at the reset"),
    target("gsm.rt20.gap", TABLE, "S2: the receiver's longest gap after the reset minus the "
           "sender's RTO at the reset", None, (0.0, INF), gap_over_rto, ("gsm-s2",), SRC,
           unit="s", tolerance="≥ 0 (RT20: the gap is dominated by the RTO)",
           expected="gaps of 11-18 s"),
    target("gsm.rt20.drop", TABLE, "S2: throughput lost over the 30 s from the burst against the "
           "30 s before it", 0.25, (0.20, 1.0), interval_drop, ("gsm-s2",), SRC,
           tolerance="≥ 20 % (RT20)", expected="more than 25 % throughput loss"),
    target("gsm.fig49.covered", TABLE, "Fig 4-9: receiver ACKs after the timeout's "
           "retransmission, sent in the first 1.6 s of the ACK-direction burst (the set-up)",
           None, (1.0, INF), fig49_covered, (FIG49,), SRC,
           tolerance="≥ 1 (else the burst no longer meets the ACK: move it)",
           expected="the ACK for the first retransmission is lost"),
    target("gsm.fig49.resets", TABLE, "Fig 4-9: RLP resets (data and ACK direction)", 2.0,
           (2.0, 2.0), _metric(FIG49, "rlp_resets"), (FIG49,), SRC,
           expected="ACKs lost 'again due to a RLP link reset'"),
    target("gsm.fig49.backoff", TABLE, "Fig 4-9: second timeout after the first ÷ the RTO at the "
           "first", 2.0, (1.9, 2.1), fig49_backoff, (FIG49,), SRC,
           tolerance="2 (exponential backoff, §2.2.2) ± 5 %",
           expected="exponential backoff of the retransmission timer"),
    target("gsm.fig49.idle", TABLE, "Fig 4-9: longest time without data at the receiver ÷ the "
           "RTO at the reset", None, (1.5, INF), fig49_idle, (FIG49,), SRC,
           tolerance="≥ 1.5 (S2, no ACK lost: ≈ 1)",
           expected="a particularly long idle phase"),
    target("gsm.fig49.inflated", TABLE, "Fig 4-9: RTO at the reset ÷ the smallest RTT sample",
           None, (3.0, INF), fig49_inflation, (FIG49,), SRC, tolerance="≥ 3",
           expected="the RTO significantly inflated by the excessive queueing (§4.2.2)"),
    target("gsm.rt20.plain", TABLE, "S2 without VJ: discards", 0.0, (0.0, 0.0),
           _metric("gsm-s2-plain", "vj_discards"), ("gsm-s2-plain",), SRC, expected="none"),
    target("gsm.rt20.timeout", TABLE, "S2: the sender recovers by timeout", None, (1.0, INF),
           _metric("gsm-s2", "sender_timeouts"), ("gsm-s2",), SRC,
           expected="the retransmission's full header resynchronizes"),
    target("gsm.rt21.load", TABLE, "S5: segments in flight at 100 s (load against a 2-segment "
           "pipe)", 16.0, (15.0, 17.0), _flight_segments("gsm-s1", 100.0), ("gsm-s1",), SRC,
           unit="segments", tolerance="the source's 16 ± 1 (RT21: rwnd/MSS ± 1)",
           expected="the advertised window (8 KB, 16 segments)",
           # Net/3's tcp_mss rounds the 8 KB socket buffer up to whole segments of 472 bytes
           # (MSS 460 + the 12-byte timestamp option): 8496 = 18 x 472, so the load is 18.
           deviation="rt21-rwnd", predicted=(18.0, 18.0),
           counterfactual=Counterfactual(
               "tcp.buffer_rounding = none (rwnd 8192 B)",
               _flight_segments("gsm-s1-norounding", 100.0), ("gsm-s1-norounding",),
               (15.0, 17.0))),
    target("gsm.rt21.drain", TABLE, "S5: time to drain that load at 960 B/s", 7.5, (6.0, INF),
           lambda m: _flight_segments("gsm-s1", 100.0)(m) * SEGMENT_BYTES / RATE, ("gsm-s1",),
           SRC, unit="s", expected="> 6 s, a new connection's initial RTO: its SYN times out"),
    target("gsm.rt21.syn", TABLE, "S5: the second connection's SYN timeouts (IFQ 50)", None,
           (1.0, INF), _syn_timeouts("gsm-s5"), ("gsm-s5",), SRC5,
           expected="its SYN times out at the 6 s initial RTO"),
    target("gsm.rt21.connect", TABLE, "S5: from the SYN to the SYN-ACK (IFQ 50)", 7.5, (6.0, INF),
           _connect("gsm-s5"), ("gsm-s5",), SRC5, unit="s",
           expected="queue / rate: up to 7 KB at 960 B/s, ≈ 7.5 s, above the 6 s RTO"),
    target("gsm.rt21.q4_syn", TABLE, "S5 with IFQ 4: the second connection's SYN timeouts", None,
           (0.0, 0.0), _syn_timeouts("gsm-s5-q4"), ("gsm-s5-q4",), SRC5,
           expected="none: 3-4 packets per line drain within the RTO"),
    target("gsm.rt21.q4_connect", TABLE, "S5 with IFQ 4: from the SYN to the SYN-ACK", None,
           (0.0, 6.0), _connect("gsm-s5-q4"), ("gsm-s5-q4",), SRC5, unit="s",
           expected="below the 6 s initial RTO"),
)  # fmt: skip
