"""The LL-ELSN targets of link retransmissions (table ``arq``, Figs 13, 16-18; T004-12, 15-17):
ERSN, the disconnection, the retry limit and bursty (Markov) channels."""

from __future__ import annotations

import numpy as np

from lossylink.papers._base import INF, Measured, Target, Unavailable
from lossylink.papers.llelsn import runs as r
from lossylink.papers.llelsn.targets.measures import (
    G,
    g,
    paired,
    point_id,
    point_ids,
    spearman,
    target,
)


def _ersn(m: Measured, p: float, on: bool, metric: str = G) -> float:
    return g(m, f"ersn-{p:g}-{'on' if on else 'off'}", metric)


def _t12a(m: Measured) -> float:
    xs = list(r.ERSN_FER_PCT)
    return spearman(xs, [_ersn(m, p, False, "sender_timeouts") for p in xs])


def _t12b(m: Measured) -> float:
    """Fraction of FER points where LL-ELSN's goodput with ERSN is at least its goodput
    without, seed by seed (:func:`paired`): a tie within the paired 95 % interval is "≥" (the
    spec's T004-12: "G(LL-ELSN+ERSN) ≥ G(LL-ELSN) at every FER"). At full seeds ERSN changes
    49 of 50 runs at FER 3 % not at all, and the smallest ratio of the means (0.9997) is one
    run's timeout (docs/llelsn.md, "T004-10.best and T004-12.gain at full seeds")."""
    ok = [paired(m, f"ersn-{p:g}-on", f"ersn-{p:g}-off") >= 0 for p in r.ERSN_FER_PCT]
    return float(np.mean(ok))


def _t12c(m: Measured) -> float:
    """corr(goodput gain of ERSN, timeouts it prevented) over FER."""
    gain = [_ersn(m, p, True) / _ersn(m, p, False) - 1 for p in r.ERSN_FER_PCT]
    saved = [
        _ersn(m, p, False, "sender_timeouts") - _ersn(m, p, True, "sender_timeouts")
        for p in r.ERSN_FER_PCT
    ]
    if np.std(gain) == 0 or np.std(saved) == 0:
        raise Unavailable("constant series")
    return float(np.corrcoef(gain, saved)[0, 1])


def _t15(m: Measured) -> float:
    """Segments ESACK sent after the disconnection over those of the unfiltered variant."""
    base = g(m, "disconnect-base", "sender_segments")
    filt = g(m, "disconnect-3", "sender_segments") - base
    raw = g(m, "disconnect-0", "sender_segments") - base
    if raw <= 0:
        raise Unavailable("the unfiltered variant sent nothing after the disconnection")
    return filt / raw


def _retry(m: Measured, s: str, p: float, rl: int) -> float:
    return g(m, point_id("retry", f"{p:g}-r{rl}", s))


LOW_FER = tuple(p for p in r.RETRY_FER_PCT if p < 3)


def _t16i(m: Measured) -> float:
    """Fraction of FER < 3 % points where Reno (R = 2) beats Snoop with R = 1 and with R = 2."""
    ok = [
        _retry(m, "e2e", p, 2)
        > max(_retry(m, "snoop-newreno", p, 1), _retry(m, "snoop-newreno", p, 2))
        for p in LOW_FER
    ]
    return float(np.mean(ok))


def _t16ii(m: Measured) -> float:
    return float(
        np.mean([_retry(m, "ll-elsn", p, 2) > _retry(m, "e2e", p, 2) for p in r.RETRY_FER_PCT])
    )


def _t16iii(m: Measured) -> float:
    return _retry(m, "e2e", 9, 2) / _retry(m, "e2e", 9, 1)


def _markov(m: Measured, s: str, pbb: float, rl: int) -> float:
    return g(m, point_id("markov", f"{pbb:g}-r{rl}", s))


def _t17a(m: Measured) -> float:
    """Spearman(P_bb, goodput) at R = 7, the most negative over the three schemes... the
    largest, so all must fall."""
    xs = list(r.P_BB)
    return max(spearman(xs, [_markov(m, s, p, 7) for p in xs]) for _, s in r.ARQ_SCHEMES)


GOOD = tuple(f"sta{i}" for i in range(1, 10))
"""The nine stations beside the powered-off sta10 (Fig. 18's power-off runs)."""


def _poweroff_id(q: str, off: bool, rl: int) -> str:
    return point_id("poweroff", f"{q}-{'off' if off else 'on'}-r{rl}", "e2e")


def _good_goodput(m: Measured, q: str, off: bool, rl: int) -> float:
    """The nine good stations' goodput together (Mb/s, from the power-off at 10 s on)."""
    return sum(g(m, _poweroff_id(q, off, rl), f"flow.{s}.goodput_mbps") for s in GOOD)


def _good_wait(m: Measured, q: str, off: bool, rl: int) -> float:
    """The mean wait of the good stations' packets in the access point's queue in the window
    (ms; a station with no packet there, a flow waiting out its timer, is left out)."""
    waits = [g(m, _poweroff_id(q, off, rl), f"member.{s}.ap_queue_wait_mean_ms") for s in GOOD]
    if all(np.isnan(waits)):
        raise Unavailable("no good station's packet waited in the window")
    return float(np.nanmean(waits))


def hol_wait(m: Measured, q: str, rl: int) -> float:
    """What a powered-off sta10 adds to the good stations' wait in the access point's queue:
    their mean wait beside it minus beside a live sta10 (ms)."""
    return _good_wait(m, q, True, rl) - _good_wait(m, q, False, rl)


def hol_loss(m: Measured, q: str, rl: int) -> float:
    """What a powered-off sta10 costs the nine good stations: 1 - their goodput beside it over
    their goodput beside a live sta10 (same retry limit and queue)."""
    return 1.0 - _good_goodput(m, q, True, rl) / _good_goodput(m, q, False, rl)


def _t17b(m: Measured) -> float:
    """Spearman(retry limit, the good stations' loss beside a powered-off station), shared
    FIFO: "The harmful effect of HOL gets larger as the retry limit increases"."""
    xs = list(r.POWEROFF_LIMITS)
    return spearman(xs, [hol_loss(m, "shared", rl) for rl in xs])


def _t17c(m: Measured) -> float:
    """Spearman(retry limit, what a powered-off station adds to the good stations' wait in the
    access point's FIFO): head-of-line blocking measured where it happens."""
    xs = list(r.POWEROFF_LIMITS)
    return spearman(xs, [hol_wait(m, "shared", rl) for rl in xs])


POWEROFF_NEEDS = tuple(
    _poweroff_id("shared", off, rl) for off in (True, False) for rl in r.POWEROFF_LIMITS
)


TARGETS: tuple[Target, ...] = (
    target(
        "T004-12.spurious",
        "arq",
        "Fig. 13: timeouts without ERSN rise with FER (Spearman)",
        (0.8, 1.0),
        "rho ≥ 0.8 (P2)",
        _t12a,
        tuple(f"ersn-{p:g}-off" for p in r.ERSN_FER_PCT),
    ),
    target(
        "T004-12.gain",
        "arq",
        "Fig. 13: G(ERSN) ≥ G(no ERSN): share of FER points, seed by seed",
        (1.0, 1.0),
        "every FER, a tie within the paired 95 % interval included (P2)",
        _t12b,
        tuple(f"ersn-{p:g}-{s}" for p in r.ERSN_FER_PCT for s in ("on", "off")),
    ),
    target(
        "T004-12.corr",
        "arq",
        "Fig. 13: ERSN's gain follows the timeouts it prevents",
        (0.9, 1.0),
        "corr ≥ 0.9 (P2)",
        _t12c,
        tuple(f"ersn-{p:g}-{s}" for p in r.ERSN_FER_PCT for s in ("on", "off")),
    ),
    target(
        "T004-15",
        "arq",
        "Fig. 16: segments sent after the disconnection, ESACK / no filter",
        (0.0, 0.2),
        "≤ 0.2 (P2)",
        _t15,
        ("disconnect-base", "disconnect-3", "disconnect-0"),
        expected="RTO probes only",
    ),
    target(
        "T004-16.i",
        "arq",
        "Fig. 17: FER < 3 %: Reno (R = 2) beats Snoop (R = 1, 2)",
        (1.0, 1.0),
        "every FER < 3 % point (P1)",
        _t16i,
        point_ids(
            "retry", [f"{p:g}-r{rl}" for p in LOW_FER for rl in (1, 2)], ["e2e", "snoop-newreno"]
        ),
    ),
    target(
        "T004-16.ii",
        "arq",
        "Fig. 17: LL-ELSN (R = 2) beats Reno (R = 2)",
        (1.0, 1.0),
        "every FER point (P1)",
        _t16ii,
        point_ids("retry", [f"{p:g}-r2" for p in r.RETRY_FER_PCT], ["e2e", "ll-elsn"]),
    ),
    target(
        "T004-16.iii",
        "arq",
        "Fig. 17: FER 9 %: Reno R = 2 over R = 1",
        (1.0, INF),
        "> 1 (P2)",
        _t16iii,
        point_ids("retry", ["9-r1", "9-r2"], ["e2e"]),
    ),
    target(
        "T004-17.falls",
        "arq",
        "Fig. 18: R = 7: goodput falls with P_bb (largest Spearman)",
        (-1.0, -0.8),
        "rho ≤ -0.8 for every scheme (P2)",
        _t17a,
        point_ids("markov", [f"{p:g}-r7" for p in r.P_BB], [s for _, s in r.ARQ_SCHEMES]),
    ),
    target(
        "T004-17.hol",
        "arq",
        "Fig. 18: a powered-off station costs the nine good ones more goodput the larger the "
        "retry limit (shared FIFO, Spearman over R = 1, 2, 4, 7)",
        (0.8, 1.0),
        "rho ≥ 0.8 (P2)",
        _t17b,
        POWEROFF_NEEDS,
    ),
    target(
        "T004-17.wait",
        "arq",
        "Fig. 18: what a powered-off station adds to the good stations' wait in the access "
        "point's FIFO grows with the retry limit (Spearman over R = 1, 2, 4, 7)",
        (0.8, 1.0),
        "rho ≥ 0.8 (P2)",
        _t17c,
        POWEROFF_NEEDS,
    ),
)
