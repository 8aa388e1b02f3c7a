"""What the S2, S3 and Fig 4-9 targets read from the traced GSM runs (the receiver's data
arrivals, the sender's RTO and timeouts), for :mod:`lossylink.papers.ludwig2000.gsm.targets`."""

from __future__ import annotations

import numpy as np

from lossylink.papers._base import Measured, Unavailable
from lossylink.papers._trace import SenderTrace
from lossylink.papers.ludwig2000.checks import Value
from lossylink.papers.ludwig2000.gsm.runs import ACK_BURST, S2_RESET_S


def arrivals(m: Measured, run: str) -> tuple[np.ndarray, np.ndarray]:
    """Times and stream ends of the data segments the TCP receiver got."""
    rx = m.trace(run)["receiver"]
    data = np.asarray(rx["kind"]) == "data"
    t = np.asarray(rx["time_s"], dtype=float)[data]
    end = np.asarray(rx["seq"], dtype=float)[data] + np.asarray(rx["len"], dtype=float)[data]
    if t.size < 2:
        raise Unavailable(f"{run}: no data at the receiver")
    return t, end


def trend(run: str, skip_s: float = 10.0) -> Value:
    """The slope of the receiver's data over time (the dissertation's TcpRcv_Data trendline,
    §3.2.5), B/s, without the first and last ``skip_s`` seconds (slow start, the tail)."""

    def f(m: Measured) -> float:
        t, end = arrivals(m, run)
        keep = (t >= t[0] + skip_s) & (t <= t[-1] - skip_s)
        return float(np.polyfit(t[keep], end[keep], 1)[0])

    return f


def idle(run: str, start: float, stop: float) -> Value:
    """The longest time without data arriving at the receiver in [start, stop], s."""

    def f(m: Measured) -> float:
        t, _ = arrivals(m, run)
        w = t[(t >= start) & (t <= stop)]
        if w.size < 2:
            raise Unavailable(f"{run}: no data at the receiver in [{start}, {stop}] s")
        return float(np.max(np.diff(w)))

    return f


def rto_at(m: Measured, run: str, at: float) -> float:
    snd = m.trace(run)["sender"]
    t, rto = np.asarray(snd["time_s"], dtype=float), np.asarray(snd["rto_s"], dtype=float)
    before = np.nonzero(t <= at)[0]
    if before.size == 0:
        raise Unavailable(f"{run}: no RTO sample before {at} s")
    return float(rto[before[-1]])


def gap_over_rto(m: Measured) -> float:
    """The receiver's longest gap after the reset minus the sender's RTO at the reset, s."""
    return idle("gsm-s2", S2_RESET_S - 3.0, S2_RESET_S + 60.0)(m) - rto_at(m, "gsm-s2", S2_RESET_S)


def interval_drop(m: Measured) -> float:
    """1 - the receiver's rate over the 30 s from the burst's start ÷ its rate over the 30 s
    before it (the dissertation: more than 25 % lost)."""
    t, end = arrivals(m, "gsm-s2")
    start = S2_RESET_S - 2.42

    def delivered(a: float, b: float) -> float:
        inside = end[(t >= a) & (t < b)]
        before = end[t < a]
        return float(inside.max() - (before.max() if before.size else 0.0)) if inside.size else 0.0

    return 1.0 - delivered(start, start + 30.0) / delivered(start - 30.0, start)


FIG49 = "gsm-s2-backoff"


def timeouts_after(m: Measured, run: str, after: float) -> list[float]:
    tr = SenderTrace(run, m.trace(run))
    return [e.t for e in tr.events("timeout") if e.t > after]


def fig49_covered(m: Measured) -> float:
    """ACKs the receiver sent inside the ACK-direction burst after the first timeout's
    retransmission arrived (the set-up: the burst must meet that ACK)."""
    first = timeouts_after(m, FIG49, S2_RESET_S)
    if not first:
        raise Unavailable(f"{FIG49}: no timeout after the reset")
    rx = m.trace(FIG49)["receiver"]
    t = np.asarray(rx["time_s"], dtype=float)
    acks = t[(np.asarray(rx["kind"]) == "ack") & (t > first[0])]
    return float(np.sum((acks >= ACK_BURST[0]) & (acks < ACK_BURST[1] - 2.4)))


def fig49_backoff(m: Measured) -> float:
    """(second timeout - first) ÷ the RTO at the first: 2 with the exponential backoff."""
    tos = timeouts_after(m, FIG49, S2_RESET_S)
    if len(tos) < 2:
        raise Unavailable(f"{FIG49}: fewer than two timeouts after the reset")
    return (tos[1] - tos[0]) / rto_at(m, FIG49, tos[0] - 1e-6)


def fig49_idle(m: Measured) -> float:
    """The receiver's longest time without data after the reset ÷ the RTO at the reset."""
    return idle(FIG49, S2_RESET_S - 3.0, S2_RESET_S + 60.0)(m) / rto_at(m, FIG49, S2_RESET_S)


def fig49_inflation(m: Measured) -> float:
    """The RTO at the reset ÷ the run's smallest RTT sample (the pipe's round trip)."""
    rtt = np.asarray(m.trace(FIG49)["rtt"]["rtt_s"], dtype=float)
    if rtt.size == 0:
        raise Unavailable(f"{FIG49}: no RTT sample")
    return rto_at(m, FIG49, S2_RESET_S) / float(rtt.min())
