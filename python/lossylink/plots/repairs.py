"""The repair timeline: which retransmissions repaired losses, and who sent them (the sender in
fast recovery, the sender after a timeout, the base station)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from lossylink.plots.figure import Trace, subplots
from lossylink.plots.traces import flows, local_retransmission_times

# Segments resent, by trigger: these count retransmitted segments, where the seq plot's "fast
# retransmissions" and "coarse timeouts" rows count the triggering events (one timeout may be
# followed by several go-back-N retransmissions), hence the different names.
REPAIR_ROWS = (
    "sender: segments resent in fast recovery",
    "sender: segments resent after a timeout",
    "base station: local retransmissions",
)


def repairs(trace: Trace) -> dict[str, np.ndarray]:
    """Retransmission times by who sent them and why (the rows of :func:`timeline_figure`).

    A sender retransmission is attributed to the last trigger before it: a fast retransmission
    (recovery, SACK repair) or a coarse timeout (go-back-N after it). Base-station
    retransmissions come from any trace table with ``local`` kinds.
    """
    fast, timeout = [], []
    for flow in flows(trace):
        if flow.events is None:
            continue
        kind = list(flow.events["kind"])
        times = np.asarray(flow.events["time_s"], dtype=float)
        last = "fast"
        for k, t in zip(kind, times, strict=True):
            if k == "fast-retransmit":
                last = "fast"
            elif k == "timeout":
                last = "timeout"
            elif k == "retransmit":
                (fast if last == "fast" else timeout).append(t)
    return {
        REPAIR_ROWS[0]: np.asarray(fast),
        REPAIR_ROWS[1]: np.asarray(timeout),
        REPAIR_ROWS[2]: local_retransmission_times(trace),
    }


def timeline_figure(panels: Sequence[tuple[str, Trace]], title: str = "") -> Figure:
    """Per run: one row of markers per repair kind (:data:`REPAIR_ROWS`) against time."""
    fig, axes = subplots(
        len(panels) or 1, 1, figsize=(7.5, 1.2 + 0.9 * max(1, len(panels))), squeeze=False
    )
    for ax, (label, tr) in zip(axes[:, 0], panels, strict=False):
        rows = repairs(tr)
        for y, times in enumerate(rows.values()):
            ax.plot(times, np.full(len(times), y), "|", ms=7, color=f"C{y}")
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([f"{r} ({len(v)})" for r, v in rows.items()], fontsize=6.5)
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_title(label, fontsize=8, loc="left")
        ax.tick_params(axis="x", labelsize=7)
    axes[-1, 0].set_xlabel("Time (sec)")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
