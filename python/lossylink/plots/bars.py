"""Bar charts: absolute throughput and % of the maximum on twin axes, goodputs annotated
(Balakrishnan et al. 1997, Figures 3, 6, 9; requirement P1), and one bar per arm with a
reference value (Ludwig (2000) Fig 5-16)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from lossylink.plots.figure import COLORS, subplots


@dataclass(frozen=True)
class Bar:
    """One bar group entry: a scheme in one testbed."""

    mbps: float
    pct_of_max: float
    wireless: float
    wired: float


def bar_chart(
    title: str,
    schemes: Sequence[str],
    bars: Mapping[tuple[str, str], Bar],
    testbeds: Sequence[str] = ("LAN", "WAN"),
) -> Figure:
    """Grouped bars: per scheme, per testbed, a thick absolute bar (left axis, Mb/s) and a thin
    %-of-maximum bar (right axis); goodputs annotated above the absolute bars.

    ``bars`` maps ``(scheme, testbed)`` to a :class:`Bar`; missing entries show "n/a".
    """
    fig, ax = subplots(figsize=(max(6.0, 1.6 * len(schemes) + 2), 4.4))
    ax2 = ax.twinx()
    n = len(testbeds)
    group = 1.0
    thick, thin = 0.26, 0.09
    top = max([b.mbps for b in bars.values()] + [1.5])
    for i, scheme in enumerate(schemes):
        for j, bed in enumerate(testbeds):
            x = i * group + (j - (n - 1) / 2) * (thick + thin + 0.04)
            color = COLORS.get(bed.lower(), f"C{j}")
            bar = bars.get((scheme, bed))
            if bar is None:
                ax.text(x, 0.02, "n/a", ha="center", va="bottom", fontsize=7, color="grey")
                continue
            ax.bar(x - thin / 2, bar.mbps, thick, color=color, label=f"{bed}: absolute")
            ax2.bar(
                x + thick / 2 + 0.01,
                bar.pct_of_max,
                thin,
                color=color,
                alpha=0.45,
                hatch="//",
                label=f"{bed}: % of max.",
            )
            ax.annotate(
                f"{bar.wireless:.1f}/{bar.wired:.1f}\n{bar.mbps:.2f}",
                (x - thin / 2, bar.mbps),
                xytext=(0, 2),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=6.5,
            )
    ax.set_xticks([i * group for i in range(len(schemes))])
    ax.set_xticklabels([s.upper() for s in schemes], fontsize=8)
    ax.set_ylim(0, max(2.0, top * 1.25))
    ax2.set_ylim(0, 100 * max(2.0, top * 1.25) / 1.5)
    ax.set_ylabel("Throughput (Mbps)")
    ax2.set_ylabel("Throughput (% of maximum)")
    ax.set_title(title, fontsize=10)
    handles: dict[str, Any] = {}
    for a in (ax, ax2):
        h, lab = a.get_legend_handles_labels()
        handles.update(zip(lab, h, strict=True))
    if handles:
        ax.legend(handles.values(), handles.keys(), fontsize=7, loc="upper left", ncol=2)
    ax.text(
        0.99,
        0.98,
        "annotations: wireless/wired goodput %, Mb/s",
        transform=ax.transAxes,
        ha="right",
        va="top",
        fontsize=6.5,
        color="grey",
    )
    fig.tight_layout()
    return fig


def comparison_bars(
    title: str,
    bars: Sequence[tuple[str, float, str]],
    ylabel: str,
    notes: Sequence[str] = (),
) -> Figure:
    """One bar per ``(label, value, annotation)``, the annotation printed above it; ``notes``
    go under the axis (the paper's value, what the bars are)."""
    fig, ax = subplots(figsize=(max(5.0, 1.3 * len(bars) + 2), 3.8))
    xs = np.arange(len(bars))
    values = [v for _, v, _ in bars]
    ax.bar(xs, values, 0.6, color=[f"C{i // 2}" for i in range(len(bars))])
    for x, (_, v, text) in zip(xs, bars, strict=True):
        ax.annotate(text, (x, v), xytext=(0, 2), textcoords="offset points", ha="center",
                    va="bottom", fontsize=7.5)  # fmt: skip
    ax.set_xticks(xs)
    ax.set_xticklabels([label for label, _, _ in bars], fontsize=7.5)
    ax.set_ylim(0, max([1e-9, *values]) * 1.25)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    for i, note in enumerate(notes):
        ax.text(0.0, -0.27 - 0.07 * i, note, transform=ax.transAxes, fontsize=7, color="#444")
    fig.tight_layout()
    return fig
