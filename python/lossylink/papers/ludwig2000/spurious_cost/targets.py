"""The targets of S12 of Ludwig (2000), the cost of a spurious retransmission (runs in
:mod:`lossylink.papers.ludwig2000.spurious_cost.runs`).

- The squares model (spec §3.13.3, §8 RT13): the four losses of Fig 5-7, 9 %, 13 %, 33 % and
  50 %, exact to ±0.5 points, and the dissertation's worked example ("6 squares" against
  "5.5 squares" in a cycle of length 1.5). They are computed by the analytical model of
  :mod:`lossylink.papers.ludwig2000.spurious_cost.model`, not measured: their values ignore the
  runs.
- At the packet level (spec §6 S12, §8 RT14): every check of
  ``crates/lossylink/tests/it/spurious_cost_s12.rs``. The testbed: W = 35 (pipe ≈ W/2) and W = 20
  (pipe ≈ W); the event times the perturbed runs use are those the baselines' traces give; each
  perturbed run is its baseline until the event. Each perturbed run shows the event it stands
  for (one spurious fast retransmit; one timeout during the hold; Eifel undoing it). RT14: the
  loss grows as the load-to-pipe ratio falls (and a timeout costs more than a fast
  retransmit); Eifel recovers ≥ 80 % of Reno's loss. Eifel without the pacer does not after a
  spurious fast retransmit with pipe ≈ W: its restore burst overflows the 3-packet queue (an
  explained deviation, ``docs/ludwig2000.md#s12-restore-burst``); the mechanism's rows check
  the real timeout it pays and that the pacer avoids it.

Reno's loss is listed beside the squares model's number; RT14 asks for the direction, not the
magnitude (docs/ludwig2000.md, S12, says why they differ).
"""

from __future__ import annotations

from collections.abc import Callable

from lossylink.papers._base import INF, Counterfactual, Measured, Sensitivity, Target
from lossylink.papers.ludwig2000.checks import Value, target
from lossylink.papers.ludwig2000.spurious_cost import model as squares
from lossylink.papers.ludwig2000.spurious_cost import runs as sp

MODEL_TABLE = "S12 (Fig 5-7, analytical)"
TABLE = "S12 (packet level, RT14)"
TARGET_TABLES = (MODEL_TABLE, TABLE)
TABLE_GROUP = {MODEL_TABLE: "s12", TABLE: "s12"}
SRC = "spec §6 S12, §8 RT14; spurious_cost_s12.rs"
DEVIATION = "s12-restore-burst"
EVENT_TEXT = {"fr": "spurious fast retransmit", "to": "spurious timeout"}
MODEL_PIPE = {"half": 0.5, "full": 1.0}


# -- the squares model (RT13) --------------------------------------------------------------------

MODEL = "analytical model (not a simulation)"
MODEL_W = 64.0
"""The W the targets are computed at; :data:`W_CHECKED` shows that any other gives the same."""
W_CHECKED = (4.0, 8.0, 18.0, 26.0, 64.0, 100.0, 1000.0, 65535.0 / 460.0)
"""Windows (segments) the W-independence target computes the model at: small, the hiccup
testbed's 18, Fig 5-18's MAXCWND 26, large, and a non-integer one (64 KiB of 460-byte
segments)."""
PIPE_NAME = {0.5: "W/2", 1.0: "W"}
EVENT_NAME = {"fast-retransmit": "spurious fast retransmit", "timeout": "spurious timeout"}


def _model(value: float) -> Value:
    """A target value from the model: it does not read the runs."""
    return lambda _m: value


def w_spread() -> float:
    """The largest difference, in percentage points, between the losses of one graph of
    Fig 5-7 computed at the windows of :data:`W_CHECKED`."""
    spread = 0.0
    for event in squares.EVENTS:
        for pipe in squares.PIPES:
            v = [squares.loss(event, pipe, w) for w in W_CHECKED]
            spread = max(spread, max(v) - min(v))
    return spread


def tcp_friendly_spread() -> float:
    """RT29: the largest |rate ÷ equation - 1| over :data:`W_CHECKED`, where rate is the
    model's normal cycle's send rate (segments per RTT, MSS = RTT = 1) and the equation the
    TCP-friendly rate at the cycle's probing loss rate."""
    worst = 0.0
    for w in W_CHECKED:
        rate, p = squares.cycle_rate(w)
        worst = max(worst, abs(rate / squares.tcp_friendly_rate(1.0, 1.0, p) - 1.0))
    return worst


def _model_targets() -> list[Target]:
    tb = MODEL_TABLE
    src = "spec §3.13.3, §6 S12, §8 RT13 (analytic); papers/ludwig2000/spurious_cost/model.py"
    out = []
    for c in squares.cases(MODEL_W):
        pct = squares.DISSERTATION_PCT[(c.event, c.pipe)]
        short = "fr" if c.event == "fast-retransmit" else "rto"
        half = "half" if c.pipe == 0.5 else "full"
        out.append(
            target(f"s12.{short}.{half}", tb, f"throughput lost to a {EVENT_NAME[c.event]}, "
                   f"pipe = {PIPE_NAME[c.pipe]}", pct,
                   (pct - 0.5, pct + 0.5), _model(c.loss_pct), (), src, expected=MODEL,
                   tolerance="± 0.5 points (RT13)", unit="%")
        )  # fmt: skip
    example = squares.case("fast-retransmit", 0.5, MODEL_W)
    out += [
        target("s12.example.without", tb, "worked example (FR, pipe W/2): squares the sender could "
               "have sent", 6, (6, 6), _model(example.without), (), src,
               expected=f"'6 squares'; {MODEL}", tolerance="exactly", unit="squares"),
        target("s12.example.with", tb, "worked example: squares it sent", 5.5, (5.5, 5.5),
               _model(example.with_), (), src, expected=f"'5.5 squares'; {MODEL}",
               tolerance="exactly", unit="squares"),
        target("s12.example.cycle", tb, "worked example: length of the cycle the FR creates, in "
               "normal cycles", 1.5, (1.5, 1.5), _model(example.interval), (), src,
               expected=f"from 2.0 to 3.5; {MODEL}", tolerance="exactly", unit="cycles"),
        target("s12.w_independent", tb, "largest spread of a loss over W = 4 … 1000 segments",
               None, (0.0, 1e-9), _model(w_spread()), (), src, tolerance="0",
               expected=f"the loss depends on the load-to-pipe ratio, not on W; {MODEL}",
               unit="points"),
        target("s12.rt29", tb, "RT29: the sawtooth cycle's send rate against the TCP-friendly "
               "equation MSS/RTT · sqrt(3/(2p)), largest relative difference over W = 4 … 1000",
               0.0, (0.0, 1e-9), _model(tcp_friendly_spread()), (), src, tolerance="0",
               expected="the equation is the cycle's rate, p = 1 / segments per cycle (§2.3.3, "
               f"Fig 2-6; RT29: numerically exact); {MODEL}"),
    ]  # fmt: skip
    return out


# -- at the packet level (RT14) -------------------------------------------------------------------


def model_pct(event: str, pipe: str) -> float:
    """The dissertation's number of Fig 5-7 for the case."""
    return squares.DISSERTATION_PCT[(sp.EVENTS[event], MODEL_PIPE[pipe])]


def _case(pipe: str, event: str, f: object) -> Value:
    def value(m: Measured) -> float:
        return float(f(sp.Case(m, pipe, event)))  # type: ignore[operator]

    return value


def _restore_band(pipe: str, event: str) -> Callable[[Measured], tuple[float, float]]:
    """The band the restore burst predicts for Eifel's share: it pays a real drop, a fast
    retransmit and a timeout on top of the spurious event, so it gets back less than nothing
    (< 0 %), and it cannot lose more than every byte Reno's baseline sends in the interval."""

    def band(m: Measured) -> tuple[float, float]:
        b, p = sp.Case(m, pipe, event).arms["e2e"].acked(sp.Case(m, pipe, event).length)
        return 100.0 * (1.0 - b / (b - p)), 0.0

    return band


def _pacer_cf(pipe: str, event: str) -> Counterfactual:
    """The mechanism switched off: the burst pacer spreads Eifel's restore."""
    return Counterfactual(
        "Eifel with the burst pacer (the restore spread over the round trip)",
        _case(pipe, event, lambda c: c.recovered_pct("pacer")),
        sp.needs(pipe, event),
        (80.0, INF),
    )


def _placement() -> list[Target]:
    out = []
    for pipe in sp.QUEUES:
        base = sp.run_id(pipe, "e2e")
        w = sp.W_EXPECTED[pipe]
        out.append(target(
            f"s12.pkt.{pipe}.w", TABLE, f"queue {sp.QUEUES[pipe]}: Reno's load before the "
            f"cycle-starting fast retransmit", None, (w, w),
            lambda m, b=base: sp.load_before_fr(sp.trace(m, b)), (base,), SRC, unit="segments",
            expected=f"W with a pipe of {sp.PIPE_LABEL[pipe]} (pipe ≈ 16.4 segments)",
        ))  # fmt: skip
        for arm in sp.ARMS:
            run, at = sp.run_id(pipe, arm), sp.EVENT_MS[(pipe, arm)]
            out.append(target(
                f"s12.pkt.{pipe}.{arm}.at", TABLE, f"queue {sp.QUEUES[pipe]}, "
                f"{sp.ARM_LABEL[arm]}: event time from the baseline's trace", None, (at, at),
                lambda m, r=run: sp.event_ms(sp.trace(m, r)), (run,), SRC, unit="ms",
                tolerance=f"= {at} (the perturbed runs')",
                expected="1 ms after the sixth fast retransmit's recovery (cwnd = W/2)",
            ))  # fmt: skip
    keys = [(p, a, e) for p in sp.QUEUES for a in sp.ARMS for e in sp.EVENTS]

    def differing(m: Measured) -> float:
        n = 0
        for pipe, arm, event in keys:
            at = sp.EVENT_MS[(pipe, arm)] / 1000.0
            b = sp.trace(m, sp.run_id(pipe, arm)).before(at)
            p = sp.trace(m, sp.run_id(pipe, arm, event)).before(at)
            n += (b.una, b.ssthresh) != (p.una, p.ssthresh)
        return n

    out.append(target(
        "s12.pkt.same_until_event", TABLE, "perturbed runs that differ from their baseline "
        "before the event (snd_una, ssthresh)", None, (0, 0), differing,
        tuple(e.id for e in sp.EXPERIMENTS), SRC,
        expected="none: the event hits the baseline's cycle start",
    ))  # fmt: skip
    return out


def _events() -> list[Target]:
    out = []
    for pipe in sp.QUEUES:
        q, nd = f"queue {sp.QUEUES[pipe]}", sp.needs(pipe, "fr")
        out += [
            target(f"s12.pkt.fr.{pipe}.reno_fr", TABLE, f"reorder, {q}: Reno's fast retransmits in "
                   "the first second", None, (1, 1),
                   _case(pipe, "fr", lambda c: c.count("e2e", "fast-retransmit", 1.0)), nd, SRC,
                   expected="exactly one, spurious"),
            target(f"s12.pkt.fr.{pipe}.reno_to", TABLE, f"reorder, {q}: Reno's timeouts over the "
                   "interval", None, (0, 0),
                   _case(pipe, "fr", lambda c: c.count("e2e", "timeout")), nd, SRC,
                   expected="none"),
            target(f"s12.pkt.fr.{pipe}.undo", TABLE, f"reorder, {q}: spurious-retransmission undos "
                   "in the first second, Eifel and Eifel + pacer", None, (2, 2),
                   _case(pipe, "fr", lambda c: c.count("eifel", "spurious-undo", 1.0)
                     + c.count("pacer", "spurious-undo", 1.0)), nd, SRC,
                   expected="one in each Eifel arm"),
        ]  # fmt: skip
        nd = sp.needs(pipe, "to")
        out += [
            target(f"s12.pkt.to.{pipe}.hold_to", TABLE, f"3 s hold, {q}: timeouts during the hold, "
                   "the three arms", None, (3, 3),
                   _case(pipe, "to", lambda c: sum(c.count(a, "timeout", 0.0) for a in sp.ARMS)),
                   nd, SRC, expected="one in each arm"),
            target(f"s12.pkt.to.{pipe}.undo", TABLE, f"3 s hold, {q}: spurious-timeout undos in "
                   "the first second, Eifel and Eifel + pacer", None, (2, 2),
                   _case(pipe, "to", lambda c: c.count("eifel", "spurious-undo", 1.0)
                     + c.count("pacer", "spurious-undo", 1.0)), nd, SRC,
                   expected="one in each Eifel arm"),
        ]  # fmt: skip
    return out


def _cycle(pipe: str, event: str) -> Sensitivity:
    """Reno's loss with the event in the cycle after the 5th, 6th (ours) and 7th fast
    retransmit: the floors of 3 and 8 % were set under the 6th's value."""

    def at(nth: int | None) -> Value:
        return lambda m: sp.reno_loss(m, pipe, event, nth)

    readings = [(f"cycle {n + 1}", at(n)) for n in (4, 6)]
    readings.insert(1, (f"cycle {sp.NTH_FR + 1} (ours)", at(None)))
    runs = tuple(sp.alt_id(pipe, event, n) for n in (4, 6))
    return Sensitivity("the cycle the event hits (not given)", tuple(readings), runs)


def _losses() -> list[Target]:
    out = []
    floor = {"fr": 3.0, "to": 8.0}
    for event in sp.EVENTS:
        for pipe in sp.QUEUES:
            nd, what = sp.needs(pipe, event), EVENT_TEXT[event]
            pct = model_pct(event, pipe)
            lo = floor[event] if pipe == "half" else 0.0
            out.append(target(
                f"s12.pkt.{event}.{pipe}.reno", TABLE, f"{what}, pipe {sp.PIPE_LABEL[pipe]}: "
                "Reno's loss", pct, (lo, INF), _case(pipe, event, lambda c: c.loss("e2e")), nd,
                SRC, unit="%", tolerance=f"≥ {lo:g} (RT14: the direction only)",
                expected="the squares model's number", sensitivity=_cycle(pipe, event),
            ))  # fmt: skip
            for arm in ("eifel", "pacer"):
                dev = DEVIATION if (event, pipe, arm) == ("fr", "full", "eifel") else None
                band, cf = (_restore_band(pipe, event), _pacer_cf(pipe, event)) if dev else (
                    None, None)  # fmt: skip
                out.append(target(
                    f"s12.pkt.{event}.{pipe}.{arm}", TABLE, f"{what}, pipe "
                    f"{sp.PIPE_LABEL[pipe]}: share of Reno's loss {sp.ARM_LABEL[arm]} gets "
                    "back", None, (80.0, INF),
                    _case(pipe, event, lambda c, a=arm: c.recovered_pct(a)), nd, SRC, unit="%",
                    tolerance="≥ 80 % (RT14)", deviation=dev, predicted=band,
                    counterfactual=cf,
                    expected="Eifel recovers ≥ 80 % of the loss",
                ))  # fmt: skip
    both = (*sp.needs("half", "fr"), *sp.needs("full", "fr"))
    both_to = (*sp.needs("half", "to"), *sp.needs("full", "to"))

    def reno(pipe: str, event: str) -> Value:
        return _case(pipe, event, lambda c: c.loss("e2e"))

    out += [
        target("s12.pkt.fr.direction", TABLE, "spurious fast retransmit: Reno's loss at pipe ≈ W - "
               "at W/2", 13.0 - 9.0, (3.0, INF), lambda m: reno("full", "fr")(m)
               - reno("half", "fr")(m), both, SRC, unit="points", tolerance="> 3 points",
               expected="the loss increases as the load/pipe ratio falls"),
        target("s12.pkt.to.direction", TABLE, "spurious timeout: Reno's loss at pipe ≈ W - at W/2",
               50.0 - 33.0, (1e-9, INF), lambda m: reno("full", "to")(m) - reno("half", "to")(m),
               both_to, SRC, unit="points", tolerance="> 0",
               expected="the loss increases as the load/pipe ratio falls"),
        target("s12.pkt.to_over_fr", TABLE, "pipe W/2: Reno's loss, spurious timeout - spurious "
               "fast retransmit", 33.0 - 9.0, (1e-9, INF), lambda m: reno("half", "to")(m)
               - reno("half", "fr")(m), (*sp.needs("half", "fr"), *sp.needs("half", "to")), SRC,
               unit="points", tolerance="> 0", expected="a timeout costs more"),
        target("s12.pkt.fr.full.eifel_to", TABLE, "spurious fast retransmit, pipe ≈ W: Eifel's "
               "timeouts over the interval (the restore burst's real loss)", None, (1, INF),
               _case("full", "fr", lambda c: c.count("eifel", "timeout")), sp.needs("full", "fr"),
               SRC, expected=f"mechanism of the deviation ({DEVIATION})"),
        target("s12.pkt.fr.full.pacer_to", TABLE, "spurious fast retransmit, pipe ≈ W: Eifel + "
               "pacer's timeouts over the interval", None, (0, 0),
               _case("full", "fr", lambda c: c.count("pacer", "timeout")), sp.needs("full", "fr"),
               SRC, expected="none: the pacer spreads the restore"),
        target("s12.pkt.to.full.reno_to", TABLE, "spurious timeout, pipe ≈ W: Reno's timeouts over "
               "the interval", None, (2, INF),
               _case("full", "to", lambda c: c.count("e2e", "timeout")), sp.needs("full", "to"),
               SRC, expected="go-back-N overflows the queue: real losses and a second timeout"),
    ]  # fmt: skip
    return out


TARGETS: tuple[Target, ...] = (*_model_targets(), *_placement(), *_events(), *_losses())
