"""The targets of S12 at the packet level (spec §6 S12, §8 RT14; runs in
:mod:`lossylink.papers.ludwig2000.spurious`): every check of
``crates/lossylink/tests/spurious_cost_s12.rs``.

- The testbed: W = 35 (pipe ≈ W/2) and W = 20 (pipe ≈ W); the event times the perturbed runs
  use are those the baselines' traces give; each perturbed run is its baseline until the event.
- Each perturbed run shows the event it stands for (one spurious fast retransmit; one timeout
  during the hold; Eifel undoing it).
- RT14: the loss grows as the load-to-pipe ratio falls (and a timeout costs more than a fast
  retransmit); Eifel recovers ≥ 80 % of Reno's loss. Eifel without the pacer does not after a
  spurious fast retransmit with pipe ≈ W: its restore burst overflows the 3-packet queue (an
  explained deviation, ``docs/ludwig2000.md#s12-restore-burst``); the mechanism's rows check the
  real timeout it pays and that the pacer avoids it.

Reno's loss is listed beside the squares model's number; RT14 asks for the direction, not the
magnitude (docs/ludwig2000.md, S12, says why they differ).
"""

from __future__ import annotations

from collections.abc import Callable

from lossylink.papers._base import INF, Counterfactual, Measured, Target
from lossylink.papers.ludwig2000 import spurious as sp
from lossylink.papers.ludwig2000 import squares as squares
from lossylink.papers.ludwig2000.targets import Value, _t

TABLE = "S12 (packet level, RT14)"
TARGET_TABLES = (TABLE,)
TABLE_GROUP = {TABLE: "s12"}
SRC = "spec §6 S12, §8 RT14; spurious_cost_s12.rs"
DEVIATION = "s12-restore-burst"
EVENT_TEXT = {"fr": "spurious fast retransmit", "to": "spurious timeout"}
MODEL_PIPE = {"half": 0.5, "full": 1.0}


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
        out.append(_t(
            f"s12.pkt.{pipe}.w", TABLE, f"queue {sp.QUEUES[pipe]}: Reno's load before the "
            f"cycle-starting fast retransmit", None, (w, w),
            lambda m, b=base: sp.load_before_fr(sp.trace(m, b)), (base,), SRC, unit="segments",
            expected=f"W with a pipe of {sp.PIPE_LABEL[pipe]} (pipe ≈ 16.4 segments)",
        ))  # fmt: skip
        for arm in sp.ARMS:
            run, at = sp.run_id(pipe, arm), sp.EVENT_MS[(pipe, arm)]
            out.append(_t(
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

    out.append(_t(
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
            _t(f"s12.pkt.fr.{pipe}.reno_fr", TABLE, f"reorder, {q}: Reno's fast retransmits in "
               "the first second", None, (1, 1),
               _case(pipe, "fr", lambda c: c.count("e2e", "fast-retransmit", 1.0)), nd, SRC,
               expected="exactly one, spurious"),
            _t(f"s12.pkt.fr.{pipe}.reno_to", TABLE, f"reorder, {q}: Reno's timeouts over the "
               "interval", None, (0, 0),
               _case(pipe, "fr", lambda c: c.count("e2e", "timeout")), nd, SRC,
               expected="none"),
            _t(f"s12.pkt.fr.{pipe}.undo", TABLE, f"reorder, {q}: spurious-retransmission undos "
               "in the first second, Eifel and Eifel + pacer", None, (2, 2),
               _case(pipe, "fr", lambda c: c.count("eifel", "spurious-undo", 1.0)
                     + c.count("pacer", "spurious-undo", 1.0)), nd, SRC,
               expected="one in each Eifel arm"),
        ]  # fmt: skip
        nd = sp.needs(pipe, "to")
        out += [
            _t(f"s12.pkt.to.{pipe}.hold_to", TABLE, f"3 s hold, {q}: timeouts during the hold, "
               "the three arms", None, (3, 3),
               _case(pipe, "to", lambda c: sum(c.count(a, "timeout", 0.0) for a in sp.ARMS)),
               nd, SRC, expected="one in each arm"),
            _t(f"s12.pkt.to.{pipe}.undo", TABLE, f"3 s hold, {q}: spurious-timeout undos in the "
               "first second, Eifel and Eifel + pacer", None, (2, 2),
               _case(pipe, "to", lambda c: c.count("eifel", "spurious-undo", 1.0)
                     + c.count("pacer", "spurious-undo", 1.0)), nd, SRC,
               expected="one in each Eifel arm"),
        ]  # fmt: skip
    return out


def _losses() -> list[Target]:
    out = []
    floor = {"fr": 3.0, "to": 8.0}
    for event in sp.EVENTS:
        for pipe in sp.QUEUES:
            nd, what = sp.needs(pipe, event), EVENT_TEXT[event]
            pct = model_pct(event, pipe)
            lo = floor[event] if pipe == "half" else 0.0
            out.append(_t(
                f"s12.pkt.{event}.{pipe}.reno", TABLE, f"{what}, pipe {sp.PIPE_LABEL[pipe]}: "
                "Reno's loss", pct, (lo, INF), _case(pipe, event, lambda c: c.loss("e2e")), nd,
                SRC, unit="%", tolerance=f"≥ {lo:g} (RT14: the direction only)",
                expected="the squares model's number",
            ))  # fmt: skip
            for arm in ("eifel", "pacer"):
                dev = DEVIATION if (event, pipe, arm) == ("fr", "full", "eifel") else None
                band, cf = (_restore_band(pipe, event), _pacer_cf(pipe, event)) if dev else (
                    None, None)  # fmt: skip
                out.append(_t(
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
        _t("s12.pkt.fr.direction", TABLE, "spurious fast retransmit: Reno's loss at pipe ≈ W - "
           "at W/2", 13.0 - 9.0, (3.0, INF), lambda m: reno("full", "fr")(m)
           - reno("half", "fr")(m), both, SRC, unit="points", tolerance="> 3 points",
           expected="the loss increases as the load/pipe ratio falls"),
        _t("s12.pkt.to.direction", TABLE, "spurious timeout: Reno's loss at pipe ≈ W - at W/2",
           50.0 - 33.0, (1e-9, INF), lambda m: reno("full", "to")(m) - reno("half", "to")(m),
           both_to, SRC, unit="points", tolerance="> 0",
           expected="the loss increases as the load/pipe ratio falls"),
        _t("s12.pkt.to_over_fr", TABLE, "pipe W/2: Reno's loss, spurious timeout - spurious fast "
           "retransmit", 33.0 - 9.0, (1e-9, INF), lambda m: reno("half", "to")(m)
           - reno("half", "fr")(m), (*sp.needs("half", "fr"), *sp.needs("half", "to")), SRC,
           unit="points", tolerance="> 0", expected="a timeout costs more"),
        _t("s12.pkt.fr.full.eifel_to", TABLE, "spurious fast retransmit, pipe ≈ W: Eifel's "
           "timeouts over the interval (the restore burst's real loss)", None, (1, INF),
           _case("full", "fr", lambda c: c.count("eifel", "timeout")), sp.needs("full", "fr"),
           SRC, expected=f"mechanism of the deviation ({DEVIATION})"),
        _t("s12.pkt.fr.full.pacer_to", TABLE, "spurious fast retransmit, pipe ≈ W: Eifel + "
           "pacer's timeouts over the interval", None, (0, 0),
           _case("full", "fr", lambda c: c.count("pacer", "timeout")), sp.needs("full", "fr"),
           SRC, expected="none: the pacer spreads the restore"),
        _t("s12.pkt.to.full.reno_to", TABLE, "spurious timeout, pipe ≈ W: Reno's timeouts over "
           "the interval", None, (2, INF),
           _case("full", "to", lambda c: c.count("e2e", "timeout")), sp.needs("full", "to"),
           SRC, expected="go-back-N overflows the queue: real losses and a second timeout"),
    ]  # fmt: skip
    return out


TARGETS: tuple[Target, ...] = (*_placement(), *_events(), *_losses())
