"""Reading a traced run the way the hiccup tests of ``crates/lossylink/tests`` do: the sender's
window rows (one per input it processed) and its events (sends, retransmissions, new ACKs,
fast retransmits, timeouts, spurious-timeout undos, local drops)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from lossylink.papers._base import Unavailable


@dataclass(frozen=True)
class Win:
    """One row of the sender table: the window state after an input."""

    t: float
    cwnd: int
    ssthresh: int
    una: int
    nxt: int
    rto: float = 0.0
    """The retransmission timeout in seconds (0 when the trace has no ``rto_s``)."""


@dataclass(frozen=True)
class Ev:
    """One row of the events table."""

    t: float
    kind: str
    seq: int


class SenderTrace:
    """The sender and events tables of one traced run, with the queries the targets use."""

    def __init__(self, run: str, trace: Mapping[str, Mapping[str, Any]]) -> None:
        if "sender" not in trace or "events" not in trace:
            raise Unavailable(f"{run}: no sender trace")
        self.run = run
        w, e = trace["sender"], trace["events"]
        times = np.asarray(w["time_s"])
        rto = np.asarray(w["rto_s"]) if "rto_s" in w else np.zeros(len(times))
        self.win = [
            Win(float(t), int(c), int(s), int(u), int(n), float(r))
            for t, c, s, u, n, r in zip(
                times, np.asarray(w["cwnd"]), np.asarray(w["ssthresh"]),
                np.asarray(w["snd_una"]), np.asarray(w["snd_nxt"]), rto, strict=True,
            )
        ]  # fmt: skip
        self.ev = [
            Ev(float(t), str(k), int(q))
            for t, k, q in zip(
                np.asarray(e["time_s"]), e["kind"], np.asarray(e["seq"]), strict=True
            )
        ]

    def events(self, kind: str) -> list[Ev]:
        """Every event of ``kind``, in time order."""
        return [e for e in self.ev if e.kind == kind]

    def first(self, kind: str, after: float = -1.0) -> Ev:
        """The first event of ``kind`` after ``after``."""
        for e in self.ev:
            if e.kind == kind and e.t > after:
                return e
        raise Unavailable(f"{self.run}: no {kind} event after {after:g} s")

    def last(self, kind: str, before: float) -> Ev | None:
        """The last event of ``kind`` strictly before ``before``."""
        found = None
        for e in self.ev:
            if e.t >= before:
                break
            if e.kind == kind:
                found = e
        return found

    def before(self, t: float) -> Win:
        """The last window row strictly before ``t``."""
        rows = [w for w in self.win if w.t < t]
        if not rows:
            raise Unavailable(f"{self.run}: no window row before {t:g} s")
        return rows[-1]

    def at(self, t: float) -> Win:
        """The first window row at or after ``t``."""
        for w in self.win:
            if w.t >= t:
                return w
        raise Unavailable(f"{self.run}: no window row at or after {t:g} s")

    def snd_max_before(self, t: float, mss: int) -> int:
        """The highest stream offset sent (new or again) before ``t``."""
        sent = [e.seq + mss for e in self.ev if e.t < t and e.kind in ("send", "retransmit")]
        if not sent:
            raise Unavailable(f"{self.run}: nothing sent before {t:g} s")
        return max(sent)

    def rows_between(self, t0: float, t1: float) -> list[Win]:
        """Window rows strictly between ``t0`` and ``t1``."""
        return [w for w in self.win if t0 < w.t < t1]
