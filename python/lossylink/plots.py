"""Plots (matplotlib), in the style of the paper's figures.

The figures are :class:`matplotlib.figure.Figure` objects made without pyplot, so importing
this module never changes the matplotlib backend of the process (a notebook keeps its inline
backend) and no figure stays open in pyplot's registry. In Jupyter a figure shows itself inline
(:meth:`LossylinkFigure._repr_png_`); elsewhere write it with :func:`save_figure`.

- :func:`bar_chart`: absolute throughput and % of the maximum on twin axes, goodputs annotated
  (Figures 3, 6, 9; requirement P1).
- :func:`seq_figure`: sequence number against time, with rows of markers for fast
  retransmissions, coarse timeouts and local (base-station) retransmissions (Figures 5, 7, 10; P3);
  with ``detail``, a zoom and a shaded hiccup, in the style of Ludwig (2000)'s Figures 4-3 to
  5-6 (every segment and ACK, local drops and Eifel's undos marked).
- :func:`cwnd_figure`: cwnd (and ssthresh) against time, optional reference line (Figures 4, 8,
  11; P2).
- :func:`sweep_figure`: throughput against the error interval on a log axis (Figure 12; P4);
  :func:`burst_figure`: throughput against burst size (P4).
- :func:`timeline_figure`: which retransmissions repaired losses, and who sent them.
- :func:`comparison_bars`: one bar per arm with a reference value (Ludwig (2000) Fig 5-16).

Trace-based figures take a trace (``{table: {column: array}}``, as in
:attr:`lossylink.RunResult.trace`). A run with several senders (a split connection) has one
``sender*``/``events*`` table pair per sender and gets one panel each.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.figure import Figure

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

Trace = Mapping[str, Mapping[str, Any]]

FORMATS = ("png", "svg")
COLORS = {"lan": "#1f4e9c", "wan": "#c0392b"}
KINDS = ("seq", "cwnd", "timeline")
"""Figure kinds drawn from one saved (traced) run."""


class LossylinkFigure(Figure):
    """A matplotlib figure that Jupyter displays inline as PNG without pyplot."""

    def _repr_png_(self) -> bytes:
        import io

        buf = io.BytesIO()
        self.savefig(buf, format="png", dpi=90, bbox_inches="tight")
        return buf.getvalue()


def new_figure(figsize: tuple[float, float]) -> Figure:
    """An empty figure outside pyplot (no backend switch, nothing left open)."""
    return LossylinkFigure(figsize=figsize)


def subplots(
    nrows: int = 1, ncols: int = 1, *, figsize: tuple[float, float], **kwargs: Any
) -> tuple[Figure, Any]:
    """``pyplot.subplots`` without pyplot: a :func:`new_figure` and its axes."""
    fig = new_figure(figsize)
    return fig, fig.subplots(nrows, ncols, **kwargs)


def save_figure(
    fig: Figure, stem: str | os.PathLike[str], formats: Iterable[str] = FORMATS
) -> list[Path]:
    """Write ``fig`` as ``stem.png`` and ``stem.svg`` (or the given formats); returns the paths."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = stem.with_name(f"{stem.name}.{fmt}")
        fig.savefig(path, format=fmt, dpi=110, bbox_inches="tight", metadata=_metadata(fmt))
        paths.append(path)
    return paths


def _metadata(fmt: str) -> dict[str, Any]:
    # Reproducible files: no creation date in SVG/PNG metadata.
    if fmt == "svg":
        return {"Date": None}
    if fmt == "png":
        return {"Software": None}
    return {}


# -- bar charts (P1) ------------------------------------------------------------------------


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


# -- traces ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Flow:
    """One sender's tables in a trace."""

    label: str
    sender: Mapping[str, Any] | None
    events: Mapping[str, Any] | None


def flows(trace: Trace) -> list[Flow]:
    """The senders of a trace: ``sender``/``events``, and ``sender<x>``/``events<x>`` pairs."""
    suffixes = sorted(
        {
            name[len(prefix) :]
            for name in trace
            for prefix in ("sender", "events")
            if name.startswith(prefix)
        }
    )
    out = []
    for suffix in suffixes:
        label = suffix.strip("._-: ") or "source"
        out.append(Flow(label, trace.get(f"sender{suffix}"), trace.get(f"events{suffix}")))
    return out


def _kind_times(events: Mapping[str, Any] | None, *kinds: str) -> tuple[np.ndarray, np.ndarray]:
    if events is None or "kind" not in events:
        return np.empty(0), np.empty(0)
    kind = np.asarray(events["kind"], dtype=object)
    mask = np.isin(kind, list(kinds))
    return np.asarray(events["time_s"], dtype=float)[mask], np.asarray(events["seq"])[mask]


LOCAL_DROP = "local-drop"
"""The sender's own interface queue refused a segment (4.4BSD ENOBUFS, ``tcp_quench``)."""


def local_retransmission_times(trace: Trace) -> np.ndarray:
    """Times of base-station (link-layer) retransmissions: rows of any table with a ``kind``
    containing ``local`` (the Rust trace extensions add them; empty if there are none), except
    the sender's :data:`LOCAL_DROP` events, which are drops, not retransmissions."""
    times = []
    for table in trace.values():
        if "kind" in table and "time_s" in table:
            kind = np.asarray(table["kind"], dtype=object)
            mask = np.array(["local" in str(k) and k != LOCAL_DROP for k in kind], dtype=bool)
            times.append(np.asarray(table["time_s"], dtype=float)[mask])
    return np.sort(np.concatenate(times)) if times else np.empty(0)


@dataclass(frozen=True)
class Span:
    """A marked stretch of a time axis (a hiccup); ``start == end`` marks an instant."""

    start: float
    end: float
    label: str


def acks_received(flow: Flow) -> tuple[np.ndarray, np.ndarray]:
    """Every ACK the sender processed, duplicates included, as (time, snd_una): the sender
    table's rows, less those written by a timeout (the dissertation's ``Snd_Ack``)."""
    if flow.sender is None or "snd_una" not in flow.sender:
        return np.empty(0), np.empty(0)
    t = np.asarray(flow.sender["time_s"], dtype=float)
    una = np.asarray(flow.sender["snd_una"])
    timeouts = _kind_times(flow.events, "timeout")[0]
    keep = ~np.isin(t, timeouts)
    return t[keep], una[keep]


def _seq_range(
    series: Sequence[tuple[np.ndarray, np.ndarray]], xlim: tuple[float, float] | None
) -> tuple[float, float]:
    """The y range of the sequence series: from 0, or around what falls inside ``xlim``."""
    values = []
    for t, s in series:
        if xlim is not None:
            s = s[(t >= xlim[0]) & (t <= xlim[1])]
        if len(s):
            values.append((float(np.min(s)), float(np.max(s))))
    top = max([1.0, *(hi for _, hi in values)])
    if xlim is None or not values:
        return 0.0, top
    lo = min(lo for lo, _ in values)
    pad = 0.05 * max(top - lo, 1.0)
    return max(0.0, lo - pad), top


def _window(
    t: np.ndarray, s: np.ndarray, xlim: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray]:
    keep = (t >= xlim[0]) & (t <= xlim[1])
    return t[keep], s[keep]


def _shade(ax: Axes, span: Span) -> None:
    if span.end > span.start:
        ax.axvspan(span.start, span.end, color="#f5d76e", alpha=0.35, lw=0, label=span.label)
    else:
        ax.axvline(span.start, color="#d4ac0d", lw=1.2, ls="--", label=span.label)


def _seq_panel(
    ax: Axes,
    flow: Flow,
    local: np.ndarray,
    title: str,
    *,
    xlim: tuple[float, float] | None = None,
    span: Span | None = None,
    detail: bool = False,
) -> None:
    t_send, s_send = _kind_times(flow.events, "send")
    t_rx, s_rx = _kind_times(flow.events, "retransmit")
    t_ack, s_ack = acks_received(flow) if detail else _kind_times(flow.events, "ack")
    if xlim is not None:
        # Draw only what the window shows (small SVG files for long runs).
        (t_send, s_send), (t_rx, s_rx), (t_ack, s_ack) = (
            _window(t, s, xlim) for t, s in ((t_send, s_send), (t_rx, s_rx), (t_ack, s_ack))
        )
    lo, top = _seq_range([(t_send, s_send), (t_rx, s_rx), (t_ack, s_ack)], xlim)
    if span is not None:
        _shade(ax, span)
    if detail:
        ax.plot(t_send, s_send, ".", ms=3, color="#1f4e9c", label="segments sent")
        if len(t_ack):
            ax.plot(t_ack, s_ack, "_", ms=4, mew=0.8, color="#7f8c8d", label="ACKs received")
        if len(t_rx):
            ax.plot(t_rx, s_rx, "x", ms=4, mew=0.9, color="#c0392b", label="retransmitted")
    else:
        ax.plot(t_send, s_send, ",", color="#1f4e9c", label="sent")
        if len(t_ack):
            ax.plot(t_ack, s_ack, ",", color="#7f8c8d", label="acknowledged")
        if len(t_rx):
            ax.plot(t_rx, s_rx, ".", ms=2.5, color="#c0392b", label="retransmitted")
    rows = [
        ("fast retransmissions", _kind_times(flow.events, "fast-retransmit")[0], 1.10),
        ("coarse timeouts", _kind_times(flow.events, "timeout")[0], 1.05),
    ]
    if len(local):
        rows.insert(0, ("local (wireless) retransmissions", local, 1.15))
    for label, kind, level in (
        ("local drops (ENOBUFS)", LOCAL_DROP, 1.15),
        ("spurious retransmission undone (Eifel)", "spurious-undo", 1.15),
        ("late fast retransmit suppressed (Eifel)", "suppressed-fast-retransmit", 1.10),
    ):
        times = _kind_times(flow.events, kind)[0]
        if len(times):
            rows.append((label, times, level))
    span_y = top - lo
    for label, times, level in rows:
        ax.plot(
            times,
            np.full(len(times), lo + span_y * level),
            "|",
            ms=6,
            mew=0.8,
            label=f"{label} ({len(times)})",
        )
    ax.set_ylim(lo, lo + span_y * 1.2)
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_xlabel("Time (sec)")
    ax.set_ylabel("Sequence Number (bytes)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=6.5, loc="lower right", markerscale=1.5 if detail else 3)


def seq_figure(
    panels: Sequence[tuple[str, Trace]],
    title: str = "",
    *,
    xlim: tuple[float, float] | None = None,
    spans: Sequence[Span | None] | None = None,
    detail: bool = False,
) -> Figure:
    """One panel per sender of each ``(label, trace)``: sequence numbers sent, retransmitted
    and acknowledged against time, with marker rows for fast retransmissions, coarse timeouts,
    local retransmissions, and (when present) local drops and Eifel's undos.

    ``xlim`` zooms every panel into a time window (the y axis follows); ``spans`` (one per
    panel, or ``None``) shades a hiccup; ``detail`` draws every segment and every ACK the
    sender received, duplicates included, as in Ludwig (2000)'s time-sequence plots.
    """
    items = [
        (label, f, tr, spans[i] if spans is not None else None)
        for i, (label, tr) in enumerate(panels)
        for f in flows(tr)
    ] or [("no trace", Flow("", None, None), {}, None)]
    height = 3.4 if not detail else 3.8
    fig, axes = subplots(len(items), 1, figsize=(7.5, height * len(items)), squeeze=False)
    for ax, (label, flow, tr, span) in zip(axes[:, 0], items, strict=True):
        senders = flows(tr)
        name = label if len(senders) <= 1 else f"{label}: {flow.label}"
        # Local retransmissions go with the sender nearest the wireless hop (the last one).
        last = not senders or flow.label == senders[-1].label
        local = local_retransmission_times(tr) if last else np.empty(0)
        _seq_panel(ax, flow, local, name, xlim=xlim, span=span, detail=detail)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


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


# -- sweep and burst (P4) ---------------------------------------------------------------------


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
