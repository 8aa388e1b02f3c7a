"""The targets of the Eifel refinements of Ludwig (2000) (runs in
:mod:`lossylink.papers.ludwig2000.eifel.runs`): the late third duplicate ACK after a timeout
(spec §3.1.2, §9 Q3), the burst pacer (§3.1.2) and RTO_AGG (§3.4, Fig 5-18).

The dissertation gives no number for any of them, so each target states its expectation in
words and checks what the Rust tests check (``hiccup_eifel.rs``
``late_third_dupack_after_a_timeout_is_suppressed_by_eifel`` and
``s8e_with_the_burst_pacer_spreads_the_restored_window_over_one_srtt``, ``rto_agg.rs``). Rows
marked "observation" record what our model does where the dissertation says nothing.
"""

from __future__ import annotations

from lossylink.papers._base import INF, Measured, Target, Unavailable, mean
from lossylink.papers._trace import Ev, SenderTrace, Win
from lossylink.papers.ludwig2000.checks import Value, mean_of, sender_trace, target
from lossylink.papers.ludwig2000.eifel.runs import (
    AGG_AT_S,
    LATE_HOLD,
    LATE_SEGMENT,
)
from lossylink.papers.ludwig2000.hiccup.runs import MSS

LATE_TABLE = "Late 3rd DUPACK (§3.1.2, Q3)"
PACER_TABLE = "S8e + burst pacer (§3.1.2)"
AGG_TABLE = "RTO_AGG (§3.4, Fig 5-18)"
TARGET_TABLES = (LATE_TABLE, PACER_TABLE, AGG_TABLE)
TABLE_GROUP = {LATE_TABLE: "late", PACER_TABLE: "pacer", AGG_TABLE: "agg"}

# -- the late third duplicate ACK ------------------------------------------------------------

LATE_ARMS = ("late-e2e", "late-off", "late-halve", "late-restore")


def late_episode(tr: SenderTrace) -> tuple[Ev, Win, Win, list[Win]]:
    """The timeout, the window before and right after it, and the duplicate ACKs that reach
    the sender after it (window rows between the timeout and the next new ACK that still
    acknowledge the timed-out segment)."""
    to = tr.first("timeout")
    new_ack = tr.first("ack", to.t)
    dups = [w for w in tr.rows_between(to.t, new_ack.t) if w.una == to.seq]
    return to, tr.before(to.t), tr.at(to.t), dups


def _third(tr: SenderTrace) -> Win:
    dups = late_episode(tr)[3]
    if len(dups) < 3:
        raise Unavailable(f"{tr.run}: fewer than 3 duplicate ACKs after the timeout")
    return dups[2]


def _arms_with(check: str) -> Value:
    """How many of the four arms show the common set-up: ``timeout`` (one timeout, of the
    reordered segment, during the ACK hold, not detected spurious) or ``dupacks`` (the third
    duplicate ACK after the timeout comes with the release of the hold)."""

    def f(m: Measured) -> float:
        n = 0
        for arm in LATE_ARMS:
            tr = sender_trace(m, arm)
            to, _, _, dups = late_episode(tr)
            if check == "timeout":
                n += (
                    mean(m, arm, "sender_timeouts") == 1
                    and mean(m, arm, "sender_spurious_timeouts") == 0
                    and to.seq == LATE_SEGMENT * MSS
                    and LATE_HOLD[0] < to.t < LATE_HOLD[1]
                )
            else:
                n += len(dups) >= 3 and dups[2].t > LATE_HOLD[1]
        return float(n)

    return f


def _window_after_third(run: str, what: str) -> Value:
    """cwnd or ssthresh (segments), or ``nxt``: snd_nxt - snd_max (bytes), right after the
    third late duplicate; ``halved`` / ``saved``: 1 if (cwnd, ssthresh) then equal the
    timeout's halved ssthresh twice / the saved pre-timeout values."""

    def f(m: Measured) -> float:
        tr = sender_trace(m, run)
        _, saved, after_to, _ = late_episode(tr)
        w = _third(tr)
        if what == "cwnd":
            return w.cwnd / MSS
        if what == "ssthresh":
            return w.ssthresh / MSS
        if what == "nxt":
            return float(w.nxt - tr.snd_max_before(w.t, MSS))
        want = (
            (after_to.ssthresh, after_to.ssthresh)
            if what == "halved"
            else (saved.cwnd, saved.ssthresh)
        )
        return float((w.cwnd, w.ssthresh) == want)

    return f


def _event_on_third(run: str, kind: str) -> Value:
    """Events of ``kind`` for the timed-out segment at the instant of the third late
    duplicate (1: the fast retransmit, or its suppression, comes with it)."""

    def f(m: Measured) -> float:
        tr = sender_trace(m, run)
        to, t3 = tr.first("timeout"), _third(tr).t
        return float(sum(1 for e in tr.events(kind) if e.t == t3 and e.seq == to.seq))

    return f


def _late() -> list[Target]:
    tb, bsd, off = LATE_TABLE, "late-e2e", "late-off"
    src = (
        "spec §3.1.2, §9 Q3; hiccup_eifel.rs "
        "late_third_dupack_after_a_timeout_is_suppressed_by_eifel"
    )
    arms = LATE_ARMS

    def same_as_bsd(m: Measured) -> float:
        return abs(
            mean(m, off, "sender_retransmitted_segments")
            - mean(m, bsd, "sender_retransmitted_segments")
        ) + abs(mean(m, off, "completion_s") - mean(m, bsd, "completion_s"))

    out = [
        target("late.timeout", tb, "arms with one genuine timeout of segment 94 during the ACK "
               "hold", None, (4, 4), _arms_with("timeout"), arms, src,
               expected="segment 94 is really missing: the timer resends it", tolerance="4 of 4"),
        target("late.dupacks", tb, "arms where the third duplicate ACK after the timeout comes "
               "with the release of the hold", None, (4, 4), _arms_with("dupacks"), arms, src,
               expected="the third DUPACK arrives after a timeout", tolerance="4 of 4"),
        target("late.e2e.dupacks", tb, "BSD: duplicate ACKs between the timeout and the next new "
               "ACK", None, (3, INF), lambda m: float(len(late_episode(sender_trace(m, bsd))[3])),
               (bsd,), src, expected="held, then released at once"),
        target("late.e2e.fr", tb, "BSD: fast retransmits of segment 94 on the 3rd late duplicate",
               None, (1, 1), _event_on_third(bsd, "fast-retransmit"), (bsd,), src,
               expected="competition of timeout- and DUPACK-based recovery"),
        target("late.e2e.cwnd", tb, "BSD: cwnd after the 3rd late duplicate", None, (5, 5),
               _window_after_third(bsd, "cwnd"), (bsd,), src, unit="segments",
               expected="halved again from the timeout's 1 MSS: ssthresh + 3"),
        target("late.e2e.ssthresh", tb, "BSD: ssthresh after the 3rd late duplicate", None, (2, 2),
               _window_after_third(bsd, "ssthresh"), (bsd,), src, unit="segments",
               expected="the 2-segment floor"),
        target("late.e2e.retransmitted", tb, "BSD: retransmitted segments", None, (20, 20),
               mean_of(bsd, "sender_retransmitted_segments"), (bsd,), src, unit="segments",
               expected="go-back-N of 95-111 after the late fast retransmit"),
        target("late.e2e.fast_retransmits", tb, "BSD: fast retransmits", None, (2, 2),
               mean_of(bsd, "sender_fast_retransmits"), (bsd,), src,
               expected="the late one, and one from the go-back-N duplicates"),
        target("late.off.same", tb, "Eifel with off: |Δ retransmissions| + |Δ transfer time| "
               "against BSD", None, (0, 0), same_as_bsd, (bsd, off), src,
               expected="the rule off: a BSD sender"),
    ]  # fmt: skip
    for arm, name, window, says in (
        ("late-halve", "halve", "halved", "Q3 (a): ssthresh halved, cwnd = ssthresh"),
        ("late-restore", "restore", "saved", "Q3 (b): the saved pre-timeout values"),
    ):
        n = (arm,)
        out += [
            target(f"{arm}.suppressed", tb, f"{name}: fast retransmits suppressed on the 3rd late "
                   "duplicate", None, (1, 1), _event_on_third(arm, "suppressed-fast-retransmit"),
                   n, src, expected="the fast retransmit is suppressed"),
            target(f"{arm}.fast_retransmits", tb, f"{name}: fast retransmits", None, (0, 0),
                   mean_of(arm, "sender_fast_retransmits"), n, src, expected="none"),
            target(f"{arm}.window", tb, f"{name}: cwnd and ssthresh after it as the reading says",
                   None, (1, 1), _window_after_third(arm, window), n, src, tolerance="exactly",
                   unit="yes = 1",
                   expected=f"restored 'as if the timeout had not occurred': {says}"),
            target(f"{arm}.resume", tb, f"{name}: snd_nxt after it - snd_max", None, (0, 0),
                   _window_after_third(arm, "nxt"), n, src, unit="bytes",
                   expected="no go-back-N: resume with the next unsent segment"),
            target(f"{arm}.retransmitted", tb, f"{name}: retransmitted segments", None, (1, 1),
                   mean_of(arm, "sender_retransmitted_segments"), n, src, unit="segments",
                   expected="only the timeout's"),
            target(f"{arm}.saving", tb, f"{name}: transfer time, BSD - {name}", None, (5.0, INF),
                   lambda m, a=arm: mean(m, bsd, "completion_s") - mean(m, a, "completion_s"),
                   (bsd, arm), src, unit="s", tolerance="> 5 s",
                   expected="no needless go-back-N: faster"),
        ]  # fmt: skip
    return out


# -- the burst pacer --------------------------------------------------------------------------


PACER_WINDOW_S = 10.0
"""How long after the undo the pacer targets look: more than one smoothed RTT (about 8.3 s)."""


def pacer_sends(m: Measured, run: str = "s8e-pacer") -> tuple[float, int, list[float]]:
    """(the undo time of ``run``, the unpaced burst: segments S8e sends at its undo, ``run``'s
    send times in the :data:`PACER_WINDOW_S` after its undo)."""
    plain, paced = sender_trace(m, "s8e"), sender_trace(m, run)
    undo = plain.first("spurious-undo").t
    burst = sum(1 for e in plain.ev if e.t == undo and e.kind == "send")
    p_undo = paced.first("spurious-undo").t
    sends = [e.t for e in paced.ev if p_undo <= e.t < p_undo + PACER_WINDOW_S and e.kind == "send"]
    if burst < 2 or not sends:
        raise Unavailable(f"{run}: no burst to pace")
    return p_undo, burst, sends


def _most_at_once(m: Measured) -> float:
    """The most segments sent at one instant in the window after the undo."""
    sends = pacer_sends(m)[2]
    return float(max(sum(1 for t in sends if t == u) for u in set(sends)))


def _progress(m: Measured) -> float:
    """Segments sent in the window after the undo, paced - unpaced."""
    plain = sender_trace(m, "s8e")
    undo = plain.first("spurious-undo").t
    unpaced = sum(1 for e in plain.ev if undo <= e.t < undo + PACER_WINDOW_S and e.kind == "send")
    return float(len(pacer_sends(m)[2]) - unpaced)


def _pacer() -> list[Target]:
    tb, run = PACER_TABLE, "s8e-pacer"
    src = (
        "spec §3.1.2 (burst pacer); hiccup_eifel.rs "
        "s8e_with_the_burst_pacer_releases_the_restored_window_over_one_srtt"
    )
    n = ("s8e", run)

    def same_undo(m: Measured) -> float:
        return pacer_sends(m)[0] - sender_trace(m, "s8e").first("spurious-undo").t

    def at_once(m: Measured) -> float:
        sends = pacer_sends(m)[2]
        return float(sum(1 for t in sends if t == sends[0]))

    return [
        target("pacer.spurious_fr", tb, "fast retransmits detected as spurious", None, (1, 1),
               mean_of(run, "sender_spurious_fast_retransmits"), (run,), src,
               expected="the same detection as S8e"),
        target("pacer.undo", tb, "undo time, paced - unpaced", None, (0, 0), same_undo, n, src,
               unit="s", expected="the same restore"),
        target("pacer.at_once", tb, "segments sent at the undo instant", None, (1, 1), at_once, n,
               src, unit="segments", expected="no burst (S8e: 7 at once)"),
        target("pacer.most_at_once", tb, "most segments sent at one instant in the 10 s after "
               "the undo", None, (1, 2), _most_at_once, n, src, unit="segments",
               expected="no burst later either: the ACK clock's one or two"),
        target("pacer.progress", tb, "segments sent in the 10 s after the undo, paced - unpaced",
               None, (-2, 0), _progress, n, src, unit="segments",
               expected="the window released within a smoothed RTT (about 8.3 s), not lost"),
        target("pacer.retransmissions", tb, "retransmissions", None, (1, 1),
               mean_of(run, "sender_retransmitted_segments"), (run,), src,
               expected="one, as in S8e"),
        target("pacer.completion", tb, "transfer time, paced - unpaced", None, (-0.45, 0.45),
               lambda m: mean(m, run, "completion_s") - mean(m, "s8e", "completion_s"), n, src,
               unit="s", tolerance="within a segment time (0.43 s)",
               expected="observation: the 9.6 kbit/s link stays busy"),
    ]  # fmt: skip


# -- RTO_AGG ------------------------------------------------------------------------------------


def rto_at(m: Measured, run: str, t: float = AGG_AT_S) -> float:
    """The RTO (seconds) of the first window row at or after ``t``."""
    return sender_trace(m, run).at(t).rto


def _jump(run: str) -> Value:
    """RTO right after the first spurious-timeout undo ÷ RTO right before that timeout."""

    def f(m: Measured) -> float:
        tr = sender_trace(m, run)
        to = tr.first("timeout")
        undo = tr.first("spurious-undo", to.t - 1e-9)
        return tr.at(undo.t).rto / tr.before(to.t).rto

    return f


def _agg() -> list[Target]:
    tb, e, a = AGG_TABLE, "agg-eifel", "agg-k0.1"
    src = "spec §3.4, §5.6 R10; rto_agg.rs"
    n = (e, a)
    obs = "observation: not stated in the dissertation, which leaves k open"
    q12, q12e = "agg-q12-k0.5", "agg-q12-eifel"
    return [
        target("agg.eifel.rto", tb, "RTO_E at 300 s", None, (8.0, INF),
               lambda m: rto_at(m, e), (e,), src, unit="s", tolerance="> 8 s",
               expected="the Eifel timer stays above the RTT (about 7.8 s)"),
        target("agg.eifel.timeouts", tb, "RTO_E: timeouts", None, (0, 0),
               mean_of(e, "sender_timeouts"), (e,), src, expected="none: nothing is lost"),
        target("agg.ratio", tb, "RTO_AGG ÷ RTO_E at 300 s (k = 0.1)", None, (0.0, 0.5),
               lambda m: rto_at(m, a) / rto_at(m, e), n, src, tolerance="< ½",
               expected="AGG < 1 trains the RTO towards the RTT (Fig 5-18)"),
        target("agg.timeouts", tb, "RTO_AGG: timeouts", None, (1, INF),
               mean_of(a, "sender_timeouts"), (a,), src,
               expected="a spurious timeout where it undershoots"),
        target("agg.all_spurious", tb, "RTO_AGG: timeouts - timeouts detected spurious", None,
               (0, 0), lambda m: mean(m, a, "sender_timeouts")
               - mean(m, a, "sender_spurious_timeouts"), (a,), src,
               expected="every one detected by Eifel"),
        target("agg.one_each", tb, "RTO_AGG: retransmitted segments - timeouts", None, (0, 0),
               lambda m: mean(m, a, "sender_retransmitted_segments")
               - mean(m, a, "sender_timeouts"), (a,), src,
               expected="'a single spurious retransmission' each"),
        target("agg.jump", tb, "RTO_AGG: RTO after the undo ÷ RTO before the timeout", None,
               (1.0 + 1e-9, INF), _jump(a), (a,), src, tolerance="> 1",
               expected="AGG backs off halfway to 1 on a spurious timeout"),
        target("agg.completion", tb, "transfer time, RTO_AGG ÷ RTO_E", None, (0.0, 1.01),
               lambda m: mean(m, a, "completion_s") / mean(m, e, "completion_s"), n, src,
               tolerance="≤ 1.01", expected="Eifel makes the undershoot cheap"),
        target("agg.k", tb, "RTO at 300 s, k = 0.05 ÷ k = 0.1", None, (1.0 + 1e-9, INF),
               lambda m: rto_at(m, "agg-k0.05") / rto_at(m, a), (a, "agg-k0.05"), src,
               tolerance="> 1", expected="a smaller k trains more slowly (k/CYCLE per sample)"),
        target("agg.q12.spurious", tb, "12-packet queue, k = 0.5: spurious timeouts", None,
               (100, INF), mean_of(q12, "sender_spurious_timeouts"), (q12,), src,
               tolerance="runaway (≥ 100)", expected=obs),
        target("agg.q12.slowdown", tb, "12-packet queue, k = 0.5: transfer time ÷ RTO_E's", None,
               (1.5, INF), lambda m: mean(m, q12, "completion_s") / mean(m, q12e, "completion_s"),
               (q12, q12e), src, tolerance="≥ 1.5", expected=obs),
    ]  # fmt: skip


TARGETS: tuple[Target, ...] = (*_late(), *_pacer(), *_agg())
