"""The targets of S13 of Ludwig (2000) (spec §6 S13; runs in
:mod:`lossylink.papers.ludwig2000.intermittent.runs`): the checks of
``crates/lossylink/tests/it/intermittent_s13.rs`` (Reno's timeouts undetected and going back N;
Eifel detecting each and resending one segment for it; Eifel's gain), and, as observations,
what shorter holds do (docs/scenarios.md, S13).
"""

from __future__ import annotations

from lossylink.papers._base import INF, Measured, Sensitivity, Target, mean
from lossylink.papers.ludwig2000.checks import Value, mean_of, target
from lossylink.papers.ludwig2000.intermittent.runs import HOLD_S, SWEEP_HOLDS_S, hold_starts, run_id

S13_TABLE = "S13 (intermittent connectivity)"
TARGET_TABLES = (S13_TABLE,)
TABLE_GROUP = {S13_TABLE: "s13"}


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
        target("s13.e2e.timeouts", tb, "Reno: timeouts", None, (8, INF),
               mean_of(reno, "sender_timeouts"), (reno,), src,
               expected="every outage ends in a spurious timeout"),
        target("s13.e2e.per_outage", tb, "Reno: timeouts - outages during the transfer", None,
               (0, INF), _per_outage(reno), (reno,), src,
               expected="at least one per outage (seed 1: one each; with some seeds a second, "
               "backed-off one in some outages)"),
        target("s13.e2e.undetected", tb, "Reno: timeouts detected spurious", None, (0, 0),
               mean_of(reno, "sender_spurious_timeouts"), (reno,), src,
               expected="none: Reno cannot tell"),
        target("s13.e2e.go_back_n", tb, "Reno: retransmitted segments per timeout", None,
               (10, INF), lambda m: mean(m, reno, "sender_retransmitted_segments")
               / mean(m, reno, "sender_timeouts"), (reno,), src, unit="segments",
               expected="go-back-N after each"),
        target("s13.eifel.timeouts", tb, "Eifel: timeouts", None, (8, INF),
               mean_of(eifel, "sender_timeouts"), (eifel,), src,
               expected="the outages fire the timer as with Reno"),
        target("s13.eifel.per_outage", tb, "Eifel: timeouts - outages during the transfer", None,
               (0, 0), _per_outage(eifel), (eifel,), src,
               expected="one timeout per outage (fewer outages: it finishes sooner)"),
        target("s13.eifel.all_detected", tb, "Eifel: timeouts - timeouts detected spurious", None,
               (0, 0), lambda m: mean(m, eifel, "sender_timeouts")
               - mean(m, eifel, "sender_spurious_timeouts"), (eifel,), src,
               expected="every timeout detected as spurious"),
        target("s13.eifel.one_each", tb, "Eifel: retransmitted segments - timeouts", None, (0, 0),
               lambda m: mean(m, eifel, "sender_retransmitted_segments")
               - mean(m, eifel, "sender_timeouts"), (eifel,), src,
               expected="one retransmission each, no go-back-N"),
        target("s13.gain", tb, "throughput Eifel ÷ Reno", None, (1.2, INF), gain(HOLD_S),
               (reno, eifel), src, expected="several tens of percent", tolerance="≥ +20 %",
               sensitivity=Sensitivity("the hold length (not given)", tuple(
               (f"{d:g} s" + (" (ours)" if d == HOLD_S else ""), gain(d))
               for d in sorted(SWEEP_HOLDS_S)), tuple(r for p in short.values() for r in p))),
        target("s13.3s.gain", tb, "3 s holds: throughput Eifel ÷ Reno", None, (1.0 + 1e-9, INF),
               gain(3.0), h3, src, tolerance="> 1", expected=f"{obs}; shorter outages gain less"),
        target("s13.3s.less", tb, "gain with 5 s holds - gain with 3 s holds", None,
               (1e-9, INF), lambda m: gain(HOLD_S)(m) - gain(3.0)(m), (reno, eifel, *h3), src,
               tolerance="> 0", expected=f"{obs}; the longer the outage, the larger the gain"),
        target("s13.1.5s.timeouts", tb, "1.5 s holds: Reno timeouts per outage during the "
               "transfer", None, (0, 0.5), lambda m: mean(m, h15[0], "sender_timeouts")
               / outages_during(m, h15[0]), (h15[0],), src, tolerance="≤ ½",
               expected=f"{obs}; most outages end before the RTO fires (seed 1: none fires)"),
        target("s13.1.5s.gain", tb, "1.5 s holds: throughput Eifel ÷ Reno", None, (0.95, 1.1),
               gain(1.5), h15, src, tolerance="0.95-1.1",
               expected=f"{obs}; little or nothing to undo, little or no gain"),
    ]  # fmt: skip


TARGETS: tuple[Target, ...] = tuple(_s13())
