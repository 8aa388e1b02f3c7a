"""Line figures of a reproduction's results: throughput against the error interval on a log
axis (Balakrishnan et al. 1997, Figure 12; P4) and against burst size (P4), and the figures
:func:`results_figure` draws from a ``results.csv``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from matplotlib.figure import Figure

from lossylink.plots.bars import Bar, bar_chart
from lossylink.plots.figure import subplots

if TYPE_CHECKING:
    import pandas as pd


def _line_figure(frame: pd.DataFrame, x: str, title: str, xlabel: str, log: bool) -> Figure:
    fig, ax = subplots(figsize=(6.5, 4.0))
    if len(frame):
        for i, (scheme, sub) in enumerate(frame.groupby("scheme", sort=False)):
            sub = sub.sort_values(x)
            ax.errorbar(
                sub[x], sub["mean"], yerr=sub["half_width"].fillna(0), marker="o", ms=4,
                capsize=3, label=str(scheme).upper(), color=f"C{i}",
            )  # fmt: skip
    if log:
        ax.set_xscale("log", base=2)
    xs = sorted(set(frame[x])) if len(frame) else []
    if xs:
        ax.set_xticks(xs)
        ax.set_xticklabels([f"{float(v):g}" for v in xs])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("Throughput (Mbps)")
    ax.set_ylim(bottom=0)
    ax.set_title(title, fontsize=10)
    if len(frame):
        ax.legend(fontsize=7)
    else:
        ax.text(0.5, 0.5, "not available", transform=ax.transAxes, ha="center", color="grey")
    fig.tight_layout()
    return fig


def sweep_figure(frame: pd.DataFrame, title: str = "") -> Figure:
    """``frame``: columns ``scheme``, ``error_every_kib``, ``mean``, ``half_width`` (Mb/s)."""
    return _line_figure(frame, "error_every_kib", title, "Error interval (KB between errors)", True)


def burst_figure(frame: pd.DataFrame, title: str = "") -> Figure:
    """``frame``: columns ``scheme``, ``burst_packets``, ``mean``, ``half_width`` (Mb/s)."""
    return _line_figure(frame, "burst_packets", title, "Packets lost per burst", False)


def burst_series(results: pd.DataFrame) -> pd.DataFrame:
    """Burst rows with the fixed-spacing runs as their own lines (``SCHEME, fixed spacing``)."""
    if "burst_spacing" not in results.columns or results.empty:
        return results
    fixed = results["burst_spacing"] == "fixed"
    scheme = results["scheme"].where(~fixed, results["scheme"] + ", fixed spacing")
    return results.assign(scheme=scheme)


def line_summary(results: pd.DataFrame, x: str) -> pd.DataFrame:
    """Mean throughput and 95 % half-width per (scheme, x) of a results frame."""
    import pandas as pd

    from lossylink.stats import summarize

    rows = []
    for (scheme, xv), sub in results.groupby(["scheme", x], sort=False):
        s = summarize(list(sub["throughput_mbps"].astype(float)))
        rows.append({"scheme": scheme, x: xv, "mean": s.mean, "half_width": s.half_width})
    return pd.DataFrame(rows, columns=["scheme", x, "mean", "half_width"])


def results_figure(path: str | os.PathLike[str], kind: str, table: str = "table3") -> Figure:
    """A bar chart (``kind="bars"``, the 32 KB rows of ``table``), the sweep or the burst plot,
    drawn from a reproduction's ``results.csv``."""
    import pandas as pd

    from lossylink.papers import balakrishnan97 as b97

    frame = pd.read_csv(path)
    if kind in ("sweep", "burst"):
        x = "error_every_kib" if kind == "sweep" else "burst_packets"
        sub = frame[frame["group"] == kind]
        title = b97.GROUP_TITLES[kind]
        if x not in sub.columns or sub.empty:
            summary = pd.DataFrame(columns=["scheme", x, "mean", "half_width"])
        else:
            summary = line_summary(burst_series(sub) if kind == "burst" else sub, x)
        return sweep_figure(summary, title) if kind == "sweep" else burst_figure(summary, title)
    if kind != "bars":
        raise ValueError(f"unknown results figure kind {kind!r}")
    spec = next(t for t in b97.TABLES if t.key == table)
    peaks = {}
    for preset in b97.PEAKS:
        rows = frame[frame["experiment"] == f"peak@{preset}"]
        peaks[preset] = float(rows["throughput_mbps"].mean()) if len(rows) else b97.PEAKS[preset]
    bars = {}
    for scheme in spec.cells:
        for config, bed in (("lan32", "LAN"), ("wan32", "WAN")):
            rows = frame[frame["experiment"] == b97.cell_id(scheme, config)]
            if rows.empty:
                continue
            mbps = float(rows["throughput_mbps"].mean())
            bars[(scheme, bed)] = Bar(
                mbps,
                100 * mbps / peaks[b97.CONFIGS[config].preset],
                float(rows["wireless_goodput_pct"].mean()),
                float(rows["wired_goodput_pct"].mean()),
            )
    fig_title = next((f.title for f in b97.FIGURES if f.table == table), spec.title)
    return bar_chart(fig_title, list(spec.cells), bars)
