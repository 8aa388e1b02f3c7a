"""Trace figures of a run with several flows (a scenario with ``[[flows]]``).

Such a run's trace tables (``sender``, ``events``, ``rtt``, ``receiver``) hold every flow's
rows, told apart by a leading ``flow`` column (docs/traces.md). :func:`trace_flows` splits them
into one trace per flow, which the single-flow figures of :mod:`lossylink.plots` draw one at a
time (``lossylink plot --flow NAME``); :func:`flows_cwnd_figure` and :func:`flows_seq_figure`
draw all flows on one panel, one coloured line or point series per flow, with a legend.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from lossylink.plots import Trace, subplots

FLOW_COLUMN = "flow"


def flow_names(trace: Trace) -> list[str]:
    """The flows of a multi-flow trace, in order of first appearance (``sender`` rows first);
    empty for a single-flow run's trace, whose tables have no ``flow`` column."""
    names: dict[str, None] = {}
    for table in ("sender", "events", *trace):
        cols = trace.get(table)
        if cols is not None and FLOW_COLUMN in cols:
            names.update(dict.fromkeys(str(v) for v in cols[FLOW_COLUMN]))
    return list(names)


def trace_flows(trace: Trace) -> list[tuple[str, dict[str, dict[str, Any]]]]:
    """``(name, trace)`` per flow: each table with a ``flow`` column cut to that flow's rows
    (without the column). Tables of the whole network (no ``flow`` column, e.g. the base
    station's) are left out: they would mark other flows' events as this one's."""
    out = []
    for name in flow_names(trace):
        sub: dict[str, dict[str, Any]] = {}
        for table, cols in trace.items():
            if FLOW_COLUMN not in cols:
                continue
            mask = np.asarray(cols[FLOW_COLUMN], dtype=object) == name
            sub[table] = {c: _take(v, mask) for c, v in cols.items() if c != FLOW_COLUMN}
        out.append((name, sub))
    return out


def _take(values: Any, mask: np.ndarray) -> Any:
    """The rows of one column where ``mask`` holds (a list of strings stays a list)."""
    if isinstance(values, list):
        return [v for v, keep in zip(values, mask, strict=True) if keep]
    return np.asarray(values)[mask]


def _series(table: Mapping[str, Any] | None, *columns: str) -> list[np.ndarray]:
    if table is None or any(c not in table for c in columns):
        return [np.empty(0) for _ in columns]
    return [np.asarray(table[c], dtype=float) for c in columns]


def _kind(events: Mapping[str, Any] | None, kind: str) -> tuple[np.ndarray, np.ndarray]:
    if events is None or "kind" not in events:
        return np.empty(0), np.empty(0)
    mask = np.asarray(events["kind"], dtype=object) == kind
    return (
        np.asarray(events["time_s"], dtype=float)[mask],
        np.asarray(events["seq"], dtype=float)[mask],
    )


def flows_cwnd_figure(
    title: str, flows: Sequence[tuple[str, Trace]], reference_bytes: int | None = None
) -> Figure:
    """cwnd against time, one coloured step line per flow, with a legend."""
    fig, ax = subplots(figsize=(7.5, 3.6))
    top = 65536.0
    for i, (name, tr) in enumerate(flows):
        t, cwnd = _series(tr.get("sender"), "time_s", "cwnd")
        if len(t):
            ax.step(t, cwnd, where="post", lw=0.7, color=f"C{i % 10}", label=f"flow {name}")
            top = max(top, float(np.max(cwnd)))
    if reference_bytes is not None:
        ax.axhline(reference_bytes, ls="--", lw=0.8, color="black", label=f"{reference_bytes} B")
    ax.set_ylim(0, top * 1.02)
    ax.set_xlabel("Time (sec)")
    ax.set_ylabel("Congestion Window (bytes)")
    ax.set_title(f"{title}: {len(flows)} flows", fontsize=9)
    ax.legend(fontsize=6.5, loc="upper right", ncol=2 if len(flows) > 5 else 1)
    fig.tight_layout()
    return fig


def flows_seq_figure(title: str, flows: Sequence[tuple[str, Trace]]) -> Figure:
    """Sequence numbers sent against time, one colour per flow (retransmissions as crosses of
    the flow's colour); each flow's legend entry counts its retransmissions and timeouts."""
    fig, ax = subplots(figsize=(7.5, 4.2))
    for i, (name, tr) in enumerate(flows):
        events = tr.get("events")
        color = f"C{i % 10}"
        t_send, s_send = _kind(events, "send")
        t_rx, s_rx = _kind(events, "retransmit")
        timeouts = len(_kind(events, "timeout")[0])
        label = f"flow {name} ({len(t_rx)} retransmitted, {timeouts} timeouts)"
        ax.plot(t_send, s_send, ".", ms=1.0, color=color, label=label)
        if len(t_rx):
            ax.plot(t_rx, s_rx, "x", ms=3, mew=0.7, color=color)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("Time (sec)")
    ax.set_ylabel("Sequence Number (bytes)")
    ax.set_title(f"{title}: {len(flows)} flows (x: retransmitted)", fontsize=9)
    ax.legend(fontsize=6.5, loc="upper left", markerscale=6)
    fig.tight_layout()
    return fig
