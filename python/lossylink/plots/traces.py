"""What the trace figures read from a trace (``{table: {column: array}}``, as in
:attr:`lossylink.RunResult.trace`): its senders (one ``sender*``/``events*`` table pair each),
the times of an event kind, the ACKs a sender processed, the base station's local
retransmissions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from lossylink.plots.figure import Trace


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


def kind_times(events: Mapping[str, Any] | None, *kinds: str) -> tuple[np.ndarray, np.ndarray]:
    """Times and sequence numbers of the events of ``kinds`` (empty without an events table)."""
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


def acks_received(flow: Flow) -> tuple[np.ndarray, np.ndarray]:
    """Every ACK the sender processed, duplicates included, as (time, snd_una): the sender
    table's rows, less those written by a timeout (the dissertation's ``Snd_Ack``)."""
    if flow.sender is None or "snd_una" not in flow.sender:
        return np.empty(0), np.empty(0)
    t = np.asarray(flow.sender["time_s"], dtype=float)
    una = np.asarray(flow.sender["snd_una"])
    timeouts = kind_times(flow.events, "timeout")[0]
    keep = ~np.isin(t, timeouts)
    return t[keep], una[keep]
