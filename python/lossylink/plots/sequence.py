"""Time-sequence figures: sequence number against time, with rows of markers for fast
retransmissions, coarse timeouts and local (base-station) retransmissions (Balakrishnan et al.
1997, Figures 5, 7, 10; P3); with ``detail``, a zoom and a shaded hiccup, in the style of
Ludwig (2000)'s Figures 4-3 to 5-6 (every segment and ACK, local drops and Eifel's undos
marked)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure

from lossylink.plots.figure import Trace, subplots
from lossylink.plots.traces import (
    LOCAL_DROP,
    Flow,
    acks_received,
    flows,
    kind_times,
    local_retransmission_times,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@dataclass(frozen=True)
class Span:
    """A marked stretch of a time axis (a hiccup); ``start == end`` marks an instant."""

    start: float
    end: float
    label: str


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
    t_send, s_send = kind_times(flow.events, "send")
    t_rx, s_rx = kind_times(flow.events, "retransmit")
    t_ack, s_ack = acks_received(flow) if detail else kind_times(flow.events, "ack")
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
        ("fast retransmissions", kind_times(flow.events, "fast-retransmit")[0], 1.10),
        ("coarse timeouts", kind_times(flow.events, "timeout")[0], 1.05),
    ]
    if len(local):
        rows.insert(0, ("local (wireless) retransmissions", local, 1.15))
    for label, kind, level in (
        ("local drops (ENOBUFS)", LOCAL_DROP, 1.15),
        ("spurious retransmission undone (Eifel)", "spurious-undo", 1.15),
        ("late fast retransmit suppressed (Eifel)", "suppressed-fast-retransmit", 1.10),
    ):
        times = kind_times(flow.events, kind)[0]
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
