"""Congestion-window figures: cwnd (and ssthresh) against time, one panel per sender, with an
optional reference line (Balakrishnan et al. 1997, Figures 4, 8, 11; P2)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from lossylink.plots.figure import Trace, subplots
from lossylink.plots.traces import Flow, flows


def cwnd_figure(
    panels: Sequence[tuple[str, Trace]], title: str = "", reference_bytes: int | None = None
) -> Figure:
    """One panel per sender: cwnd (and ssthresh) against time, y axis 0-64 KiB in 8 KiB steps."""
    items = [(label, f, tr) for label, tr in panels for f in flows(tr)] or [
        ("no trace", Flow("", None, None), {})
    ]
    fig, axes = subplots(len(items), 1, figsize=(7.5, 3.0 * len(items)), squeeze=False)
    for ax, (label, flow, tr) in zip(axes[:, 0], items, strict=True):
        name = label if len(flows(tr)) <= 1 else f"{label}: {flow.label}"
        if flow.sender is not None and len(flow.sender.get("time_s", ())):
            t = np.asarray(flow.sender["time_s"], dtype=float)
            cwnd = np.asarray(flow.sender["cwnd"], dtype=float)
            ax.step(t, cwnd, where="post", lw=0.7, color="#1f4e9c", label="cwnd")
            if "ssthresh" in flow.sender:
                ss = np.minimum(np.asarray(flow.sender["ssthresh"], dtype=float), 65536)
                ax.step(t, ss, where="post", lw=0.5, color="#e67e22", alpha=0.7, label="ssthresh")
            ymax = max(65536.0, float(np.max(cwnd)) if len(cwnd) else 0.0)
        else:
            ymax = 65536.0
        if reference_bytes is not None:
            ax.axhline(
                reference_bytes, ls="--", lw=0.8, color="black", label=f"{reference_bytes} B"
            )
        ax.set_ylim(0, ymax * 1.02)
        ax.set_yticks(np.arange(0, ymax + 1, 8192))
        ax.set_xlabel("Time (sec)")
        ax.set_ylabel("Congestion Window (bytes)")
        ax.set_title(name, fontsize=9)
        ax.legend(fontsize=6.5, loc="upper right")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
