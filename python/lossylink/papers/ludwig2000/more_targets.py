"""The targets of S12 and S13 of Ludwig (2000) (runs in :mod:`lossylink.papers.ludwig2000.more`).

- S12 (spec §3.13.3, §8 RT13): the four losses of Fig 5-7, 9 %, 13 %, 33 % and 50 %, exact to
  ±0.5 points, and the dissertation's worked example ("6 squares" against "5.5 squares" in a
  cycle of length 1.5). They are computed by the analytical model of
  :mod:`lossylink.papers.ludwig2000.squares`, not measured: their values ignore the runs.
- S13 (spec §6 S13): the checks of ``crates/lossylink/tests/intermittent_s13.rs`` (Reno's
  timeouts undetected and going back N; Eifel detecting each and resending one segment for it;
  Eifel's gain), and, as observations, what shorter holds do (docs/scenarios.md, S13).
"""

from __future__ import annotations

from lossylink.papers._base import INF, Measured, Sensitivity, Target, mean
from lossylink.papers.ludwig2000 import squares as squares
from lossylink.papers.ludwig2000.more import HOLD_S, SWEEP_HOLDS_S, hold_starts, run_id
from lossylink.papers.ludwig2000.targets import Value, _metric, _t

S12_TABLE = "S12 (Fig 5-7, analytical)"
S13_TABLE = "S13 (intermittent connectivity)"
TARGET_TABLES = (S12_TABLE, S13_TABLE)
TABLE_GROUP = {S12_TABLE: "s12", S13_TABLE: "s13"}

# -- S12: the squares model ---------------------------------------------------------------------

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


def _s12() -> list[Target]:
    tb = S12_TABLE
    src = "spec §3.13.3, §6 S12, §8 RT13 (analytic); papers/ludwig2000/squares.py"
    out = []
    for c in squares.cases(MODEL_W):
        pct = squares.DISSERTATION_PCT[(c.event, c.pipe)]
        short = "fr" if c.event == "fast-retransmit" else "rto"
        half = "half" if c.pipe == 0.5 else "full"
        out.append(
            _t(f"s12.{short}.{half}", tb, f"throughput lost to a {EVENT_NAME[c.event]}, "
               f"pipe = {PIPE_NAME[c.pipe]}", pct,
               (pct - 0.5, pct + 0.5), _model(c.loss_pct), (), src, expected=MODEL,
               tolerance="± 0.5 points (RT13)", unit="%")
        )  # fmt: skip
    example = squares.case("fast-retransmit", 0.5, MODEL_W)
    out += [
        _t("s12.example.without", tb, "worked example (FR, pipe W/2): squares the sender could "
           "have sent", 6, (6, 6), _model(example.without), (), src,
           expected=f"'6 squares'; {MODEL}", tolerance="exactly", unit="squares"),
        _t("s12.example.with", tb, "worked example: squares it sent", 5.5, (5.5, 5.5),
           _model(example.with_), (), src, expected=f"'5.5 squares'; {MODEL}",
           tolerance="exactly", unit="squares"),
        _t("s12.example.cycle", tb, "worked example: length of the cycle the FR creates, in "
           "normal cycles", 1.5, (1.5, 1.5), _model(example.interval), (), src,
           expected=f"from 2.0 to 3.5; {MODEL}", tolerance="exactly", unit="cycles"),
        _t("s12.w_independent", tb, "largest spread of a loss over W = 4 … 1000 segments",
           None, (0.0, 1e-9), _model(w_spread()), (), src, tolerance="0",
           expected=f"the loss depends on the load-to-pipe ratio, not on W; {MODEL}",
           unit="points"),
    ]  # fmt: skip
    return out


# -- S13: intermittent connectivity ---------------------------------------------------------------


def gain(duration_s: float) -> Value:
    """Eifel's throughput ÷ Reno's with holds of ``duration_s``."""
    reno, eifel = run_id("e2e", duration_s), run_id("e2e+eifel", duration_s)
    return lambda m: mean(m, eifel) / mean(m, reno)


def outages_during(m: Measured, run: str) -> int:
    """The holds of ``run`` that begin before its transfer completes."""
    done = mean(m, run, "completion_s")
    return sum(1 for at in hold_starts() if at < done)


def _per_outage(run: str) -> Value:
    return lambda m: mean(m, run, "sender_timeouts") - outages_during(m, run)


def _s13() -> list[Target]:
    tb, reno, eifel = S13_TABLE, run_id("e2e", HOLD_S), run_id("e2e+eifel", HOLD_S)
    src = "spec §6 S13, §2.4.2; intermittent_s13.rs"
    obs = "observation: the dissertation gives no parameters"
    short = {d: (run_id("e2e", d), run_id("e2e+eifel", d)) for d in SWEEP_HOLDS_S if d != HOLD_S}
    h3, h15 = short[3.0], short[1.5]
    return [
        _t("s13.e2e.timeouts", tb, "Reno: timeouts", None, (8, INF),
           _metric(reno, "sender_timeouts"), (reno,), src,
           expected="every outage ends in a spurious timeout"),
        _t("s13.e2e.per_outage", tb, "Reno: timeouts - outages during the transfer", None,
           (0, INF), _per_outage(reno), (reno,), src,
           expected="at least one per outage (seed 1: one each; with some seeds a second, "
           "backed-off one in some outages)"),
        _t("s13.e2e.undetected", tb, "Reno: timeouts detected spurious", None, (0, 0),
           _metric(reno, "sender_spurious_timeouts"), (reno,), src,
           expected="none: Reno cannot tell"),
        _t("s13.e2e.go_back_n", tb, "Reno: retransmitted segments per timeout", None,
           (10, INF), lambda m: mean(m, reno, "sender_retransmitted_segments")
           / mean(m, reno, "sender_timeouts"), (reno,), src, unit="segments",
           expected="go-back-N after each"),
        _t("s13.eifel.timeouts", tb, "Eifel: timeouts", None, (8, INF),
           _metric(eifel, "sender_timeouts"), (eifel,), src,
           expected="the outages fire the timer as with Reno"),
        _t("s13.eifel.per_outage", tb, "Eifel: timeouts - outages during the transfer", None,
           (0, 0), _per_outage(eifel), (eifel,), src,
           expected="one timeout per outage (fewer outages: it finishes sooner)"),
        _t("s13.eifel.all_detected", tb, "Eifel: timeouts - timeouts detected spurious", None,
           (0, 0), lambda m: mean(m, eifel, "sender_timeouts")
           - mean(m, eifel, "sender_spurious_timeouts"), (eifel,), src,
           expected="every timeout detected as spurious"),
        _t("s13.eifel.one_each", tb, "Eifel: retransmitted segments - timeouts", None, (0, 0),
           lambda m: mean(m, eifel, "sender_retransmitted_segments")
           - mean(m, eifel, "sender_timeouts"), (eifel,), src,
           expected="one retransmission each, no go-back-N"),
        _t("s13.gain", tb, "throughput Eifel ÷ Reno", None, (1.2, INF), gain(HOLD_S),
           (reno, eifel), src, expected="several tens of percent", tolerance="≥ +20 %",
           sensitivity=Sensitivity("the hold length (not given)", tuple(
               (f"{d:g} s" + (" (ours)" if d == HOLD_S else ""), gain(d))
               for d in sorted(SWEEP_HOLDS_S)), tuple(r for p in short.values() for r in p))),
        _t("s13.3s.gain", tb, "3 s holds: throughput Eifel ÷ Reno", None, (1.0 + 1e-9, INF),
           gain(3.0), h3, src, tolerance="> 1", expected=f"{obs}; shorter outages gain less"),
        _t("s13.3s.less", tb, "gain with 5 s holds - gain with 3 s holds", None,
           (1e-9, INF), lambda m: gain(HOLD_S)(m) - gain(3.0)(m), (reno, eifel, *h3), src,
           tolerance="> 0", expected=f"{obs}; the longer the outage, the larger the gain"),
        _t("s13.1.5s.timeouts", tb, "1.5 s holds: Reno timeouts per outage during the "
           "transfer", None, (0, 0.5), lambda m: mean(m, h15[0], "sender_timeouts")
           / outages_during(m, h15[0]), (h15[0],), src, tolerance="≤ ½",
           expected=f"{obs}; most outages end before the RTO fires (seed 1: none fires)"),
        _t("s13.1.5s.gain", tb, "1.5 s holds: throughput Eifel ÷ Reno", None, (0.95, 1.1),
           gain(1.5), h15, src, tolerance="0.95-1.1",
           expected=f"{obs}; little or nothing to undo, little or no gain"),
    ]  # fmt: skip


TARGETS: tuple[Target, ...] = (*_s12(), *_s13())
S12_COUNT = len(_s12())
"""The S12 model's targets come first (the packet-level ones follow them in the catalogue)."""
