"""S12 at the packet level (Ludwig 2000 §5.2.3, Fig 5-7; experiment S12, target RT14): what
one spurious fast retransmit or spurious timeout at the start of a congestion-avoidance cycle
costs a network-limited flow, with the pipe = W/2 and ≈ W, Reno against Eifel with and without
the burst pacer. The runs and the measurement of ``crates/lossylink/tests/it/spurious_cost_s12.rs``
(targets in :mod:`lossylink.papers.ludwig2000.spurious_cost.targets`):

- the ``wan`` preset without errors, 64 KiB windows, ``tcp.quench = false``, 16 MiB, timestamps
  on a 1 ms clock in every arm; the bottleneck queue ``hops.0.forward.queue`` sets W: 18 packets
  give W = 35 (pipe ≈ W/2), 3 packets W = 20 (pipe ≈ 0.8 W);
- per arm (Reno, Eifel, Eifel + pacer) and pipe a traced baseline; 1 ms after the recovery of
  the baseline's sixth fast retransmit ends (cwnd = ssthresh = W/2), the perturbed runs get, on
  the wireless hop's data direction, a link-stage reorder of length 4 (spurious fast
  retransmit) or a 3 s link-stage hold (spurious timeout);
- loss = (without - with) / with, bytes acknowledged from the event until Reno's load is back
  at W (its next fast retransmit), the perturbed run measured from the end of the hold.

The catalogue runs every experiment in one parallel pass from static overrides, so a run cannot
take its overrides from another run's trace. The event times are therefore constants here
(:data:`EVENT_MS`), computed from the baselines as the Rust test computes them
(:func:`event_ms`), and a target per arm recomputes them from the baseline's trace and fails if
they no longer match (a change in the simulator that moves the cycle).
"""

from __future__ import annotations

import math

from lossylink.papers._base import Figure, Measured, Unavailable
from lossylink.papers._trace import SenderTrace
from lossylink.papers.ludwig2000.experiment import Experiment, Shade

MSS = 1400
"""The wan preset's MSS (spurious_cost_s12.rs)."""
QUEUES = {"half": "18", "full": "3"}
"""Bottleneck queue (packets) per pipe: pipe ≈ W/2 and pipe ≈ W."""
PIPE_LABEL = {"half": "W/2", "full": "≈ W"}
W_EXPECTED = {"half": 35, "full": 20}
"""Reno's load before the sixth fast retransmit, segments (W = pipe + queue + ~1)."""
ARMS = {"e2e": ("e2e", ()), "eifel": ("e2e+eifel", ()),
        "pacer": ("e2e+eifel", (("tcp.eifel_burst_pacer", "srtt"),))}  # fmt: skip
ARM_LABEL = {"e2e": "Reno", "eifel": "Eifel", "pacer": "Eifel + pacer"}
EVENTS = {"fr": "fast-retransmit", "to": "timeout"}
"""Short names of the spurious events (the squares model's names as values)."""
NTH_FR = 5
"""Which baseline fast retransmit starts the perturbed cycle (0-based; after the startup)."""
HOLD_MS = 3000
REORDER_LENGTH = 4
HOP = "hops.2.forward.hiccups"
"""The wan preset's wireless hop, data direction."""
EVENT_MS: dict[tuple[str, str], int] = {
    ("half", "e2e"): 39927, ("half", "eifel"): 38243, ("half", "pacer"): 38243,
    ("full", "e2e"): 17621, ("full", "eifel"): 17621, ("full", "pacer"): 17621,
}  # fmt: skip
"""When the perturbed runs' event starts, ms: 1 ms after the baseline's sixth fast retransmit's
recovery ends (rounded up to the ms), per (pipe, arm); checked by the ``.at`` targets."""
ALT_CYCLES: dict[tuple[str, int], int] = {
    ("half", 4): 32042, ("half", 6): 47812, ("full", 4): 14537, ("full", 6): 20665,
}  # fmt: skip
"""Reno's event time with the event at the start of the cycle after the fifth (NTH_FR 4) or
the seventh (6) fast retransmit, ms, computed as :data:`EVENT_MS` from Reno's baseline: which
cycle the event hits is our choice (the dissertation's model has no start-up); the Reno-loss
targets report the loss over the three cycles (docs/ludwig2000.md#s12-packet-level)."""


def alt_id(pipe: str, event: str, nth: int) -> str:
    """``s12-half-e2e-fr-c5``: Reno's perturbed run with the event in another cycle."""
    return f"{run_id(pipe, 'e2e', event)}-c{nth + 1}"


def _common(pipe: str, arm: str) -> list[tuple[str, str]]:
    scheme, extra = ARMS[arm]
    return [
        ("error_every", "0"), ("buffer", "65535"), ("tcp.quench", "false"),
        ("tcp.timestamps", "true"), ("tcp.ts_granularity", "1ms"), ("transfer", "16MiB"),
        ("hops.0.forward.queue", QUEUES[pipe]), ("scheme", scheme), *extra,
    ]  # fmt: skip


def hiccup(event: str, at_ms: int) -> str:
    """The hiccup list of a perturbed run (``event``: ``fr`` or ``to``)."""
    if event == "fr":
        return f'[{{ kind = "reorder", at = "{at_ms}ms", length = {REORDER_LENGTH} }}]'
    return f'[{{ kind = "hold", at = "{at_ms}ms", duration = "{HOLD_MS}ms" }}]'


def run_id(pipe: str, arm: str, event: str | None = None) -> str:
    """``s12-half-e2e`` (baseline), ``s12-half-e2e-fr``, ``s12-full-pacer-to`` ..."""
    return f"s12-{pipe}-{arm}" + ("" if event is None else f"-{event}")


def _experiments() -> tuple[Experiment, ...]:
    out = []
    for pipe in QUEUES:
        for arm in ARMS:
            q, who = QUEUES[pipe], ARM_LABEL[arm]
            setup = f"wan, no errors, 64 KiB windows, 16 MiB, ts 1 ms, queue {q}, {who}"
            out.append(Experiment(
                run_id(pipe, arm), "s12", "S12 (packet level)", "Fig 5-7", "wan",
                tuple(_common(pipe, arm)), f"{setup}: baseline",
                params=(("pipe", PIPE_LABEL[pipe]), ("arm", arm), ("event", "none")),
            ))  # fmt: skip
            at = EVENT_MS[(pipe, arm)]
            for event, what in (("fr", f"reorder of {REORDER_LENGTH}"),
                                ("to", f"{HOLD_MS / 1000:g} s hold")):  # fmt: skip
                end = at + (HOLD_MS if event == "to" else 0)
                out.append(Experiment(
                    run_id(pipe, arm, event), "s12", "S12 (packet level)", "Fig 5-7", "wan",
                    (*_common(pipe, arm), (HOP, hiccup(event, at))),
                    f"{setup}: link-stage {what} at {at} ms on the wireless hop",
                    Shade(at / 1000, end / 1000, what),
                    params=(("pipe", PIPE_LABEL[pipe]), ("arm", arm), ("event", event)),
                ))  # fmt: skip
    return tuple(out)


def _alt_experiments() -> tuple[Experiment, ...]:
    out = []
    for (pipe, nth), at in ALT_CYCLES.items():
        for event in EVENTS:
            out.append(Experiment(
                alt_id(pipe, event, nth), "s12", "S12 (packet level) sensitivity", "-", "wan",
                (*_common(pipe, "e2e"), (HOP, hiccup(event, at))),
                f"Reno, queue {QUEUES[pipe]}: the {event} at the start of the cycle after fast "
                f"retransmit {nth + 1} ({at} ms)",
                params=(("pipe", PIPE_LABEL[pipe]), ("arm", "e2e"), ("event", event)),
            ))  # fmt: skip
    return tuple(out)


EXPERIMENTS: tuple[Experiment, ...] = _experiments() + _alt_experiments()
GROUPS = ("s12",)
GROUP_TITLES = {
    "s12": "S12: the cost of a spurious retransmission, the squares of Fig 5-7 (analytical) "
    "and at the packet level",
}
FIGURES: tuple[Figure, ...] = (
    Figure("fig5-7", "Fig 5-7 (S12, analytical model): load against time, the pipe shaded; "
           "the squares lost to a spurious retransmission", "squares",
           note="a model computation, not a simulation"),
    Figure("s12-loss", "S12 at the packet level (RT14): throughput lost to one spurious "
           "retransmission at a cycle start, Reno, Eifel and Eifel + burst pacer",
           "s12-bars", note="the squares model's 9 / 13 / 33 / 50 % marked"),
)  # fmt: skip
FIGURE_GROUP = {"fig5-7": "s12", "s12-loss": "s12"}
"""The group of a figure without traced runs."""


# -- measuring, as spurious_cost_s12.rs does ------------------------------------------------------


_PARSED: dict[int, tuple[object, SenderTrace]] = {}
"""Parsed traces by the identity of the raw trace (kept alive with it): every target of a case
reads the same six runs."""


def trace(m: Measured, run: str) -> SenderTrace:
    """The sender trace of ``run``, parsed once per raw trace."""
    raw = m.trace(run)
    hit = _PARSED.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    if len(_PARSED) >= 64:
        _PARSED.clear()
    tr = SenderTrace(run, raw)
    _PARSED[id(raw)] = (raw, tr)
    return tr


def event_ms(base: SenderTrace) -> int:
    """1 ms after the recovery of the baseline's sixth fast retransmit ends (the first window
    row after it with cwnd ≤ ssthresh + MSS), in ms rounded up."""
    frs = base.events("fast-retransmit")
    if len(frs) <= NTH_FR:
        raise Unavailable(f"{base.run}: fewer than {NTH_FR + 1} fast retransmits")
    fr = frs[NTH_FR].t
    for w in base.win:
        if w.t > fr and w.cwnd <= w.ssthresh + MSS:
            return math.ceil(w.t * 1000.0) + 1
    raise Unavailable(f"{base.run}: no recovery end after {fr:g} s")


def load_before_fr(base: SenderTrace) -> int:
    """The baseline's load (cwnd) before its sixth fast retransmit, segments: W."""
    frs = base.events("fast-retransmit")
    if len(frs) <= NTH_FR:
        raise Unavailable(f"{base.run}: fewer than {NTH_FR + 1} fast retransmits")
    return base.before(frs[NTH_FR].t).cwnd // MSS


def una_at(tr: SenderTrace, t: float) -> int:
    """snd_una of the last window row at or before ``t``."""
    rows = [w for w in tr.win if w.t <= t]
    if not rows:
        raise Unavailable(f"{tr.run}: no window row at or before {t:g} s")
    return rows[-1].una


class Arm:
    """One arm of one case: the baseline, the perturbed run, the event and where the perturbed
    run's interval starts (the event, or the end of the hold)."""

    def __init__(
        self, m: Measured, pipe: str, arm: str, event: str, nth: int | None = None
    ) -> None:
        self.base = trace(m, run_id(pipe, arm))
        if nth is None:
            self.pert = trace(m, run_id(pipe, arm, event))
            self.at = EVENT_MS[(pipe, arm)] / 1000.0
        else:
            self.pert = trace(m, alt_id(pipe, event, nth))
            self.at = ALT_CYCLES[(pipe, nth)] / 1000.0
        self.start = self.at + (HOLD_MS / 1000.0 if event == "to" else 0.0)

    def acked(self, length: float) -> tuple[int, int]:
        """Bytes acknowledged over ``length`` s after the event: (baseline, perturbed)."""
        b = una_at(self.base, self.at + length) - una_at(self.base, self.at)
        p = una_at(self.pert, self.start + length) - una_at(self.pert, self.start)
        return b, p

    def loss_pct(self, length: float) -> float:
        """The squares model's loss, %: (without - with) / with."""
        b, p = self.acked(length)
        return 100.0 * (b - p) / p

    def count(self, kind: str, length: float) -> int:
        """Perturbed-run events of ``kind`` in [event, interval start + ``length``)."""
        return sum(1 for e in self.pert.events(kind) if self.at <= e.t < self.start + length)


class Case:
    """Reno, Eifel and Eifel + pacer at one pipe for one event, over Reno's interval."""

    def __init__(self, m: Measured, pipe: str, event: str) -> None:
        self.arms = {arm: Arm(m, pipe, arm, event) for arm in ARMS}
        reno = self.arms["e2e"]
        nxt = [e.t for e in reno.pert.events("fast-retransmit") if e.t > reno.start + 0.5]
        if not nxt:
            raise Unavailable(f"{reno.pert.run}: no fast retransmit after the event")
        self.length = nxt[0] - reno.start
        """From the event until Reno's load is back at W (its next fast retransmit), s."""

    def loss(self, arm: str) -> float:
        return self.arms[arm].loss_pct(self.length)

    def recovered_pct(self, arm: str) -> float:
        """The share of Reno's lost bytes that ``arm`` gets back, %."""
        b, p = self.arms["e2e"].acked(self.length)
        be, pe = self.arms[arm].acked(self.length)
        return 100.0 * (1.0 - (be - pe) / (b - p))

    def count(self, arm: str, kind: str, length: float | None = None) -> int:
        return self.arms[arm].count(kind, self.length if length is None else length)


def reno_loss(m: Measured, pipe: str, event: str, nth: int | None = None) -> float:
    """Reno's loss, %, with the event in the cycle of :data:`NTH_FR` (``nth`` None) or of
    ``nth``, over the interval from the event to Reno's next fast retransmit."""
    reno = Arm(m, pipe, "e2e", event, nth)
    nxt = [e.t for e in reno.pert.events("fast-retransmit") if e.t > reno.start + 0.5]
    if not nxt:
        raise Unavailable(f"{reno.pert.run}: no fast retransmit after the event")
    return reno.loss_pct(nxt[0] - reno.start)


def needs(pipe: str, event: str) -> tuple[str, ...]:
    """The runs a case reads."""
    return tuple(r for arm in ARMS for r in (run_id(pipe, arm), run_id(pipe, arm, event)))
