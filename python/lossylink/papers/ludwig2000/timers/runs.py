"""The retransmission timers of Ludwig (2000) §5.3-5.4 (spec §6 S9, S10; §8 RT1-RT6).

- S10 (group ``s10``): the steady-state "spreadsheet" model of §3.4.2 (spec §3.13.1), computed
  by the Rust core (``lossylink._core.timer_model``, crate ``tcp::rto::model``) with the
  simulator's own estimators RTO_L (TCP-Lite, Net/3) and RTO_E (the Eifel timer): a
  congestion-avoidance sawtooth from W/2 to W segments, every ACK a sample, one bottleneck
  service time apart (6.25 s, the timer testbed's 1500 bytes at 240 B/s). It has no runs.
- S9 (group ``s9``): the timer testbed of §3.4.3, the hiccup testbed without a hiccup at
  2.4 kbit/s asynchronous (240 B/s), MTU 1500 and an interface queue of 40 packets (the RTT
  runs from about 125 to 250 s over a cycle), RTO_L and RTO_E, timestamps on (every segment
  timed) and off (one per RTT), as ``crates/lossylink/tests/it/timer_s9.rs`` runs it.

The targets are in :mod:`lossylink.papers.ludwig2000.timers.targets`, the figures in
:mod:`lossylink.papers.ludwig2000.timers.report`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np

from lossylink.papers._base import Figure
from lossylink.papers.ludwig2000.experiment import Experiment

# -- S10: the model -------------------------------------------------------------------------------

SERVICE = "6250ms"
"""The bottleneck's service time of one segment: 1500 bytes at 240 B/s (§3.4.3)."""
CYCLES = 6
"""Cycles per model run; the first starts from the initial estimate, the rest are steady."""


@lru_cache(maxsize=32)
def model(w: int, tick: str, timer: str, sampling: str = "every-ack") -> dict[str, np.ndarray]:
    """One model run (``timer`` ``lite`` or ``eifel``; ``tick`` such as ``"1ms"``)."""
    from lossylink._core import timer_model

    return timer_model(w, SERVICE, tick, CYCLES, timer, sampling)


AGG_W = 26
"""Fig 5-18's model: "a maximum of 26 (= MAXCWND) for the flow's load, a timer granularity of
1 ms, and a factor k of 0.05" (§5.4.6)."""
AGG_K = 0.05
AGG_CYCLES = 40
"""Long enough for the sawtooth of AGG to repeat (a spurious timeout every few cycles)."""


@lru_cache(maxsize=4)
def agg_model(timeouts: str = "eifel", timer: str = "agg") -> dict[str, np.ndarray]:
    """Fig 5-18's model run: RTO_AGG (or RTO_E, ``timer="eifel"``) on the 1 ms clock with
    MAXCWND = 26, k = 0.05; ``timeouts="eifel"`` acts on the effective timeouts (the precise
    timer fires, Eifel detects it spurious and AGG moves halfway back to 1), ``"shown"`` only
    computes them (the counterfactual: AGG never learns)."""
    from lossylink._core import timer_model

    k = AGG_K if timer == "agg" else None
    return timer_model(AGG_W, SERVICE, "1ms", AGG_CYCLES, timer, "every-ack", k, timeouts)


def steady(rows: dict[str, np.ndarray]) -> np.ndarray:
    """The rows of cycles 1 and later (a mask)."""
    return np.asarray(rows["cycle"]) >= 1


def drop_spikes(rows: dict[str, np.ndarray]) -> int:
    """Rows where the RTT fell from the previous row's and the RTO rose (the cycle starts)."""
    rtt, prev, rto = (np.asarray(rows[k], dtype=float) for k in ("rtt_s", "rto_prev_s", "rto_s"))
    return int(np.sum((rtt[1:] < rtt[:-1]) & (rto[1:] > prev[1:])))


# -- S9: the timer testbed ------------------------------------------------------------------------

TESTBED = (
    ("transfer", "5MB"),
    ("run.time_limit", "8h"),
    ("hops.0.rate", "1920bps"),
    ("hops.0.forward.queue", "40"),
    ("buffer", "65535"),
    ("tcp.delayed_ack", "off"),
    ("tcp.quench", "false"),
    ("tcp.max_rto", "600s"),
)
"""2.4 kbit/s asynchronous (8 data bits in 10: 240 B/s), IFQ 40, a 64 KB window, no delayed
ACKs (a segment takes 6 s: "too high to trigger delayed ACKs"), the queue drop answered by the
duplicate ACKs (§3.4.3: no tcp_quench), and an RTO shown as computed (BSD clamps at 64 s)."""

ARMS = (
    ("s9-lite-ts", "profile", True, "Fig 5-12", "RTO_L, timestamps (every segment timed)"),
    ("s9-lite", "profile", False, "Fig 5-10", "RTO_L, no timestamps (one segment per RTT)"),
    ("s9-eifel-ts", "eifel", True, "Fig 5-19", "RTO_E, timestamps"),
    ("s9-eifel", "eifel", False, "Fig 5-15", "RTO_E, no timestamps"),
)


def _overrides(rto: str, ts: bool) -> tuple[tuple[str, str], ...]:
    # MTU 1500: 1448 bytes of data with the 12-byte timestamp option, 1460 without.
    mss = "1448" if ts else "1460"
    return (
        ("scheme", "e2e"), *TESTBED, ("tcp.mss", mss),
        ("tcp.timestamps", "true" if ts else "false"), ("tcp.rto", rto),
    )  # fmt: skip


EXPERIMENTS: tuple[Experiment, ...] = tuple(
    Experiment(
        eid,
        "s9",
        "S9",
        fig,
        "hiccup",
        _overrides(rto, ts),
        f"timer testbed (2.4 kbit/s async, MTU 1500, IFQ 40, 5 MB): {desc}",
        params=(("rto", "eifel" if rto == "eifel" else "bsd"), ("timestamps", str(ts).lower())),
        max_seeds=1,
    )
    for eid, rto, ts, fig, desc in ARMS
)
GROUPS = ("s9", "s10")
GROUP_TITLES = {
    "s9": "S9: the timer testbed, RTO_L and RTO_E with and without timestamps (Figs 5-10, "
    "5-12, 5-15, 5-19)",
    "s10": "S10: the spreadsheet model of the timers (Figs 5-8, 5-9, 5-11, 5-13, 5-14, 5-18; "
    "computed)",
}
FIGURES: tuple[Figure, ...] = (
    Figure("s10-model", "S10 (model): RTT(i), RTO(i-1) and REXMT of RTO_L (Figs 5-8, 5-9, "
           "5-11) and RTO_E (Figs 5-13, 5-14)", "timer-model",
           note="computed by the steady-state model (spec §3.13.1), not a simulation run"),
    Figure("fig5-18-model", "Fig 5-18 (model): RTO_AGG with MAXCWND 26, 1 ms, k = 0.05, its "
           "spurious timeouts acted on; RTO_E and the counterfactual beside it", "timer-agg",
           note="computed by the steady-state model (spec §3.13.1), not a simulation run"),
    Figure("s9-timers", "S9 (timer testbed): RTT(i) and RTO(i-1), RTO_L (Figs 5-12, 5-10) and "
           "RTO_E (Figs 5-19, 5-15), with and without timestamps", "timer-s9",
           tuple(e.id for e in EXPERIMENTS)),
)  # fmt: skip
FIGURE_GROUP = {"s10-model": "s10", "fig5-18-model": "s10"}


@dataclass(frozen=True)
class Sample:
    """One RTT sample of a traced run."""

    t: float
    rtt: float
    rto_prev: float
    rto: float
    rexmt_at: float


@dataclass(frozen=True)
class S9Run:
    """A traced S9 run cut into congestion-avoidance cycles: from each fast retransmit to the
    next (the first one ends the start-up)."""

    cycles: list[list[Sample]]
    timeouts: list[float]
    first_fr: float
    sends: tuple[np.ndarray, np.ndarray]
    acks: tuple[np.ndarray, np.ndarray]

    @classmethod
    def of(cls, trace: dict[str, dict[str, np.ndarray]]) -> S9Run:
        r = trace["rtt"]
        t, rtt, rto, at = (np.asarray(r[k], dtype=float)
                           for k in ("time_s", "rtt_s", "rto_s", "rexmt_at_s"))  # fmt: skip
        ev = trace["events"]
        et = np.asarray(ev["time_s"], dtype=float)
        kind = np.asarray(ev["kind"], dtype=object)
        seq = np.asarray(ev["seq"], dtype=float)
        fr = et[kind == "fast-retransmit"]
        cycles = []
        for a, b in pairwise(fr):
            idx = [i for i in range(1, len(t)) if a < t[i] < b]
            cycles.append([Sample(t[i], rtt[i], rto[i - 1], rto[i], at[i]) for i in idx])
        send = (kind == "send") | (kind == "retransmit")
        return cls(
            cycles, list(et[kind == "timeout"]), float(fr[0]) if len(fr) else float("inf"),
            (et[send], seq[send]), (et[kind == "ack"], seq[kind == "ack"]),
        )  # fmt: skip

    def samples(self) -> list[Sample]:
        return [s for c in self.cycles for s in c]

    def rise_on_drop(self) -> float:
        """The largest relative rise of the RTO on a sample whose RTT fell below half the
        previous sample's (the cycle starts)."""
        rises = [
            b.rto / b.rto_prev - 1.0
            for c in self.cycles
            for a, b in pairwise(c)
            if b.rtt < 0.5 * a.rtt
        ]
        return max(rises) if rises else float("nan")

    def restart_offset(self) -> float:
        """Mean (REXMT deadline - send time of the oldest outstanding segment - RTO) over mean
        RTT, over the samples with data outstanding (Fig 5-11)."""
        send_t, send_seq = self.sends
        ack_t, ack_seq = self.acks
        off, rtt = [], []
        for s in self.samples():
            if s.rexmt_at == 0.0:
                continue
            una = ack_seq[np.searchsorted(ack_t, s.t, side="right") - 1]
            mine = (send_seq == una) & (send_t <= s.t)
            sent = send_t[mine][-1]
            off.append(s.rexmt_at - sent - s.rto)
            rtt.append(s.rtt)
        return float(np.mean(off) / np.mean(rtt))
