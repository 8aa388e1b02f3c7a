"""Fig 5-18 of Ludwig (2000), measured: the RTO of the Eifel timer (RTO_E) and of RTO_AGG on
the hiccup testbed over a 400 KB transfer, with the round-trip times the connection saw.

The dissertation's Fig 5-18 is a model (MAXCWND 26, 1 ms clock, k = 0.05): RTO_AGG decays
towards the RTT and jumps back halfway on each spurious timeout. Ours plots the ``rto_s``
column of each run's sender table. The trace has no RTT samples of the sender's own, so the
round-trip times are derived from it: for each new ACK, the time since the segment ending at
the acknowledged byte was sent (Karn: segments sent more than once are skipped). With delayed
ACKs that is the RTT of the segment that triggered the ACK; its delay is not included."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from lossylink.papers import ludwig2000 as l2k
from lossylink.report import placeholder

if TYPE_CHECKING:
    from lossylink.outcomes import Reproduction
    from lossylink.papers._base import Figure

COLOURS = ("#1f4e9c", "#c0392b", "#e67e22", "#27ae60")


def rtt_samples(trace: Mapping[str, Mapping[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """(time of the ACK, round-trip time) for every new ACK whose last acknowledged segment
    was sent once (see the module docstring)."""
    ev = trace.get("events")
    if ev is None or "len" not in ev:
        return np.empty(0), np.empty(0)
    sent: dict[int, list[float]] = {}
    t_out, rtt = [], []
    for t, kind, seq, length in zip(
        np.asarray(ev["time_s"], dtype=float),
        ev["kind"],
        np.asarray(ev["seq"]),
        np.asarray(ev["len"]),
        strict=True,
    ):
        if kind in ("send", "retransmit"):
            sent.setdefault(int(seq) + int(length), []).append(float(t))
        elif kind == "ack":
            times = sent.get(int(seq), [])
            if len(times) == 1:
                t_out.append(float(t))
                rtt.append(float(t) - times[0])
    return np.asarray(t_out), np.asarray(rtt)


def _label(run_id: str) -> str:
    params = dict(l2k.BY_ID[run_id].params)
    if params.get("rto") == "eifel":
        return "RTO_E (the Eifel timer)"
    return f"RTO_AGG, k = {params.get('k', '0.1')}"


def rto_figure(rep: Reproduction, fig: Figure) -> Any:
    """One panel: the RTO of each run of ``fig`` against time, its timeouts marked, and the
    round-trip times derived from the first run's trace."""
    from lossylink.plots import subplots

    traces = []
    for run_id in fig.runs:
        t = next((t for t in rep.traced if t.run.id == run_id), None)
        if t is not None and t.result is not None and t.result.trace is not None:
            traces.append((run_id, t.result.trace))
    if not traces:
        return placeholder(fig, rep)
    f, ax = subplots(figsize=(7.5, 4.2))
    t_rtt, rtt = rtt_samples(traces[0][1])
    if len(rtt):
        ax.plot(t_rtt, rtt, ".", ms=2, color="#7f8c8d", label="RTT (derived from the trace)")
    for i, (run_id, trace) in enumerate(traces):
        w, colour = trace["sender"], COLOURS[i % len(COLOURS)]
        t, rto = np.asarray(w["time_s"], dtype=float), np.asarray(w["rto_s"], dtype=float)
        ax.step(t, rto, where="post", lw=1.0, color=colour, label=_label(run_id))
        ev = trace["events"]
        kind = np.asarray(ev["kind"], dtype=object)
        times = np.asarray(ev["time_s"], dtype=float)[kind == "timeout"]
        if len(times):
            at = rto[np.clip(np.searchsorted(t, times, side="right") - 1, 0, len(rto) - 1)]
            label = f"{_label(run_id)}: timeouts ({len(times)})"
            ax.plot(times, at, "x", ms=6, mew=1.2, color=colour, label=label)
    ax.set_xlabel("Time (sec)")
    ax.set_ylabel("Seconds")
    ax.set_ylim(bottom=0)
    ax.set_title(
        "Hiccup testbed, 400 KB with Eifel, 50-packet interface queue, no hiccup", fontsize=9
    )
    ax.legend(fontsize=7, loc="upper right")
    ax.text(
        0.99, 0.5,
        "BSD restarts the timer on every ACK (one every 0.4-0.9 s here):\n"
        "an RTO below the RTT fires only when the ACKs pause",
        transform=ax.transAxes, ha="right", fontsize=7, color="#555555",
    )  # fmt: skip
    f.suptitle(fig.title, fontsize=10)
    f.tight_layout()
    return f
