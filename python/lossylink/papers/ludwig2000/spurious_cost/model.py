"""The cost of a spurious retransmission in Ludwig (2000), §5.2.3, Fig 5-7: an analytical
model, not a simulation (Ludwig 2000 §5.2.3, Fig 5-7; experiment S12, target RT13).

The dissertation draws a TCP sender's load (the segments it has in flight) against time in
units of a congestion-avoidance cycle and counts "squares" to get the throughput a spurious
fast retransmit (9 % with a pipe of W/2, 13 % with a pipe of W) or a spurious timeout (33 %,
50 %) costs. It does not spell the construction out; the spec's reconstruction (§3.13.3 [D]),
which gives all four numbers, is what this module computes:

- W is the load at the end of a cycle; the load rises linearly at one segment per RTT (slow
  start, too, is taken as linear) and halves at W, so a cycle lasts W/2 RTTs. One time unit of
  the figure is a cycle, one square (W/4)·(W/4) segment·RTTs.
- The throughput per RTT is min(load, pipe), with the pipe W/2 or W.
- Worst case: the spurious retransmission hits at the start of a cycle, when the load has just
  been halved to W/2, and nothing else happens until the load is back at W. A spurious fast
  retransmit halves it once more (W/4), a spurious timeout takes it to 0.
- The loss is (area without - area with) / area with over the interval from the event until
  the load is back at W; without the event the sawtooth goes on (W/2 → W, halve, ...). The cost
  of the retransmissions themselves is ignored.

The load is piecewise linear and ``min(load, pipe)`` bends only where the load crosses the
pipe, so :func:`ramp_area` integrates each ramp exactly; nothing depends on W but the scale
(check :func:`loss` for several W). :func:`load_curves` gives the curves for the figure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lossylink.errors import InvalidValueError

EVENTS = ("fast-retransmit", "timeout")
"""The spurious retransmissions of Fig 5-7."""
PIPES = (0.5, 1.0)
"""The pipe capacity as a fraction of W: the upper (W/2) and the lower (W) graph."""
DISSERTATION_PCT = {
    ("fast-retransmit", 0.5): 9.0,
    ("fast-retransmit", 1.0): 13.0,
    ("timeout", 0.5): 33.0,
    ("timeout", 1.0): 50.0,
}
"""The losses the dissertation reads off Fig 5-7 (§5.2.3)."""
CYCLES_BEFORE = 2.0
"""Normal cycles the figure shows before the event (the dissertation's example starts at 2.0)."""


@dataclass(frozen=True)
class Case:
    """One graph of Fig 5-7: the areas (in squares) and the loss of one event at one pipe."""

    event: str
    pipe: float
    """Pipe capacity ÷ W."""
    w: float
    """The load at the end of a cycle, in segments."""
    interval: float
    """From the event until the load is back at W, in cycles (W/2 RTTs)."""
    without: float
    """Squares sent over the interval without the spurious retransmission."""
    with_: float
    """Squares sent over the interval with it."""

    @property
    def loss_pct(self) -> float:
        """(without - with) ÷ with, in percent."""
        return 100.0 * (self.without - self.with_) / self.with_


def _check(event: str, pipe: float, w: float) -> None:
    if event not in EVENTS:
        raise InvalidValueError(f"event: {event!r} (allowed: {', '.join(EVENTS)})")
    if pipe <= 0:
        raise InvalidValueError(f"pipe: {pipe} (a fraction of W above 0)")
    if w <= 0:
        raise InvalidValueError(f"w: {w} (segments, above 0)")


def ramp_area(start: float, duration: float, pipe: float) -> float:
    """The integral of min(start + s, pipe) over s in [0, duration]: the segments a load that
    rises from ``start`` at one segment per RTT moves through a pipe in ``duration`` RTTs."""
    below = min(max(pipe - start, 0.0), duration)  # time spent under the pipe
    return start * below + below * below / 2.0 + pipe * (duration - below)


def tcp_friendly_rate(mss: float, rtt: float, p: float) -> float:
    """The "TCP-friendly" packet send rate of §2.3.3 (the TCP throughput equation of
    [MSMO97], RT29): MSS / RTT · sqrt(3 / (2p)), with p the flow's probing loss rate."""
    if mss <= 0 or rtt <= 0 or not 0 < p <= 1:
        raise InvalidValueError(f"mss {mss}, rtt {rtt}, p {p} (positive; 0 < p <= 1)")
    return mss / rtt * math.sqrt(3.0 / (2.0 * p))


def cycle_rate(w: float) -> tuple[float, float]:
    """A normal cycle of the sawtooth (Fig 2-6, the same cycle as Fig 5-7's): the load rises
    from W/2 to W at one segment per RTT through a pipe of W and halves, one segment dropped.
    Returns (segments per RTT over the cycle, its probing loss rate p = 1 / segments sent in
    it, the dropped one included), both from :func:`ramp_area`, so that RT29 checks the
    model's own cycle against the equation."""
    _check("timeout", 1.0, w)
    sent = ramp_area(w / 2.0, w / 2.0, w)
    return sent / (w / 2.0), 1.0 / sent


def drop_to(event: str, w: float) -> float:
    """The load right after the event, from W/2 (a fast retransmit halves, a timeout empties)."""
    return w / 4.0 if event == "fast-retransmit" else 0.0


def case(event: str, pipe: float, w: float = 64.0) -> Case:
    """The areas and the loss of one spurious ``event`` with the pipe at ``pipe`` times W."""
    _check(event, pipe, w)
    cap, start = pipe * w, drop_to(event, w)
    span = w - start  # RTTs until the load is back at W
    with_ = ramp_area(start, span, cap)
    without, t = 0.0, 0.0
    while t < span:  # the sawtooth goes on: W/2 -> W in W/2 RTTs, halve, ...
        d = min(w / 2.0, span - t)
        without += ramp_area(w / 2.0, d, cap)
        t += d
    square = (w / 4.0) ** 2
    return Case(event, pipe, w, span / (w / 2.0), without / square, with_ / square)


def loss(event: str, pipe: float, w: float = 64.0) -> float:
    """The throughput a spurious ``event`` costs, in percent (independent of ``w``)."""
    return case(event, pipe, w).loss_pct


def cases(w: float = 64.0) -> list[Case]:
    """The four graphs of Fig 5-7, in the dissertation's order (FR at W/2, W; RTO at W/2, W)."""
    return [case(e, p, w) for e in EVENTS for p in PIPES]


def load_curves(
    event: str, w: float = 64.0, points: int = 2001
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(time in cycles, load without, load with), both in units of W, from
    :data:`CYCLES_BEFORE` cycles before the event to the end of its interval. Each jump
    appears twice (the limits from the left and the right) so that a line plot draws it."""
    _check(event, 1.0, w)
    end = CYCLES_BEFORE + case(event, 1.0, w).interval
    grid = np.linspace(0.0, end, points)
    jumps = np.arange(1.0, end - 1e-9)  # the sawtooth halves at the end of every cycle
    t = np.sort(np.concatenate([grid, jumps, jumps]))
    first = np.r_[True, np.diff(t) > 0]  # the first copy of a jump takes the left limit
    phase = np.mod(t, 1.0)
    phase = np.where(first & (phase == 0.0) & (t > 0.0), 1.0, phase)  # and the last point
    without = 0.5 + 0.5 * phase  # W/2 -> W over one cycle
    after = np.clip(t - CYCLES_BEFORE, 0.0, None)
    start = drop_to(event, w) / w
    rising = np.minimum(start + 0.5 * after, 1.0)  # one segment per RTT is W/2 per cycle
    with_ = np.where(t < CYCLES_BEFORE, without, rising)
    at_event = np.isin(t, [CYCLES_BEFORE]) & first  # before the event: the left limit
    with_ = np.where(at_event, 1.0, with_)
    return t, without, with_
