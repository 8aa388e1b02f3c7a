"""The LL-ELSN targets of many flows (table ``network``, Figs 9-12, 14-15; T004-8..11, 13, 14):
the number of flows, fairness, Pareto background, friendliness to Reno, and the senders under
LL-ELSN."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from lossylink.papers._base import INF, Measured, Sensitivity, Swapped, Target, Unavailable
from lossylink.papers.llelsn import runs as r
from lossylink.papers.llelsn.targets.measures import (
    ALL,
    g,
    has,
    others,
    paired,
    point_id,
    point_ids,
    spearman,
    target,
)


def _t8a(m: Measured) -> float:
    v = [g(m, point_id("nsweep", str(n), "ll-elsn")) for n in r.N_FLOWS]
    return max(v) / min(v)


def _t8b(m: Measured) -> float:
    """Fraction of the other schemes whose aggregate goodput at the largest N exceeds N = 1's."""
    ok = n = 0
    for _, s in r.SCHEMES:
        if s == "ll-elsn" or not has(m, "nsweep", "1", s):
            continue
        n += 1
        ok += int(
            g(m, point_id("nsweep", str(r.N_FLOWS[-1]), s)) > g(m, point_id("nsweep", "1", s))
        )
    return ok / n


def _jain(m: Measured, s: str) -> float:
    return g(m, point_id("nsweep", str(r.N_FLOWS[-1]), s), "agg.jain_index")


def _t9a(m: Measured) -> float:
    """Schemes with Jain's index ≥ 0.98 at the largest N."""
    return float(sum(_jain(m, s) >= 0.98 for _, s in r.SCHEMES if has(m, "nsweep", "1", s)))


def _t9b(m: Measured) -> float:
    """Jersey and JTCP both less fair at the largest N than at N = 2 (C004-8)."""
    worse = [
        g(m, point_id("nsweep", str(r.N_FLOWS[-1]), s), "agg.jain_index")
        < g(m, point_id("nsweep", "2", s), "agg.jain_index")
        for s in ("e2e-jersey", "e2e-jtcp")
    ]
    return float(all(worse))


def _t9c(m: Measured) -> float:
    js = {s: _jain(m, s) for _, s in r.SCHEMES if has(m, "nsweep", "1", s)}
    lowest = sorted(js, key=lambda s: js[s])[:3]
    for s in ("e2e-westwood", "e2e-tibet"):
        if s not in js:
            raise Unavailable(f"{s} is not registered")
    return float("e2e-westwood" in lowest and "e2e-tibet" in lowest)


def _t10a(m: Measured) -> float:
    """LL-ELSN against every other scheme of Fig. 11, seed by seed (:func:`paired`): 1 when it
    is above each beyond the seeds' noise, 0.5 when it is below none but tied with one at least
    (tied for best), 0 when one is above it. The seed: "LL-ELSN still shows the best
    performance among the testing schemes, which means that it successfully handles congestion
    losses as well as wireless losses"; the spec's pass rule is "ordinal" (T004-10), where
    T004-1 asks Fig. 6's LL-ELSN for non-overlapping intervals: here a tie for best holds."""
    elsn = point_id("pareto", "8", "ll-elsn")
    signs = [
        paired(m, elsn, point_id("pareto", "8", r.LABEL[lab])) for lab in others(m, "pareto", "8")
    ]
    if min(signs) < 0:
        return 0.0
    return 1.0 if min(signs) > 0 else 0.5


def _t10a_dcr_reno(m: Measured) -> float:
    return _t10a(Swapped(m, "dcr-reno", r.BY_ID))


DCR_READINGS = Sensitivity(
    'TCP-DCR\'s base (the seed: "the open sources [37] for ... TCP-DCR"; which recovery it '
    "delays is not given)",
    (
        ("over SACK (Sack1; the DCR paper's and RFC 4653's base, the reproduction's)", _t10a),
        ("over Reno (e2e-dcr)", _t10a_dcr_reno),
    ),
    tuple(e.id for e in r.EXPERIMENTS if e.id.endswith("~dcr-reno")),
)
"""T004-10.best under both readings of DCR's base: the one scheme LL-ELSN ties with in Fig. 11
is DCR over Sack1 (docs/llelsn.md, "T004-10.best and T004-12.gain at full seeds")."""


def _t10b(m: Measured) -> float:
    o = others(m, "pareto", "8")
    if "LHP" not in o:
        raise Unavailable("e2e-lhp is not registered")
    return 1.0 if "LHP" in sorted(o, key=lambda k: o[k])[:2] else 0.0


def _reno_left(m: Measured, s: str, k: int) -> float:
    return g(m, point_id("friendly", str(k), s), "flow.sta10.goodput_mbps")


def _t11a(m: Measured) -> float:
    """Fraction of Westwood+, Veno, TIBET and ideal BWE whose remaining Reno flow's goodput
    falls from k = 0 to k = 8 (by more than 10 %)."""
    xs = ["e2e-westwood", "e2e-veno", "e2e-tibet", "e2e-ideal-bwe"]
    for s in xs:
        if not has(m, "friendly", "0", s):
            raise Unavailable(f"{s} is not registered")
    return float(np.mean([_reno_left(m, s, 8) < 0.9 * _reno_left(m, s, 0) for s in xs]))


def _ideal_fixed(key: str) -> Callable[[Measured], float]:
    return lambda m: _t11a(Swapped(m, key, r.BY_ID))


IDEAL_BWE_READINGS = Sensitivity(
    "ideal BWE's 'exact available bandwidth' (the seed: 'the ideal BWE scheme which knows "
    "the exact available bandwidth and RTT'; how it is known is not given)",
    (
        (f"live: the cell ({r.IDEAL_BWE_CELL}) less the others' rate over the last RTT", _t11a),
        (f"fixed: its measured share, {r.IDEAL_BWE_SHARE}", _ideal_fixed("bwe-share")),
        (f"fixed: the whole cell, {r.IDEAL_BWE_CELL}", _ideal_fixed("bwe-cell")),
    ),
    tuple(e.id for e in r.EXPERIMENTS if e.id.endswith(("~bwe-share", "~bwe-cell"))),
)
"""T004-11.aggressive under three readings of ideal BWE's available rate: the live ground truth
the reproduction runs, and two fixed rates that bound a flow's long-run share and any momentary
value (docs/llelsn.md, bwe-gentle)."""


def _t11b(m: Measured) -> float:
    """The largest deviation of LL-ELSN's (and HACK's) curve from SACK's."""
    worst = 0.0
    for s in ("ll-elsn", "e2e-hack"):
        for k in r.REPLACED:
            sack = _reno_left(m, "e2e-ietf-sack", k)
            worst = max(worst, abs(_reno_left(m, s, k) / sack - 1.0))
    return worst


TIE = 0.01
"""Goodputs within 1 % count as a tie in T004-13: once every sender saturates the cell (N >= 5)
the senders differ by less than the seeds' noise (0.2-0.4 % in the full run when first measured),
and "ESACK best" cannot be told from "level"."""


def _t13(m: Measured) -> float:
    """Fraction of (N, sender) points where ESACK's goodput is at least HACK's, HACK-fixed's and
    LHP's under LL-ELSN, a tie within :data:`TIE` included (C004-12: "ESACK best for every
    N")."""
    ok = n = 0
    for k in r.N_FLOWS:
        esack = g(m, point_id("senders", str(k), "ll-elsn"))
        for s in ("ll-elsn-hack", "ll-elsn-hack-fixed", "ll-elsn-lhp"):
            n += 1
            ok += int(esack >= (1 - TIE) * g(m, point_id("senders", str(k), s)))
    return ok / n


def _lhp_readings(value: Callable[[Measured], float], figs: str) -> Sensitivity:
    """``value`` under both readings of what LHP's packet list does with the duplicates it
    keeps out of the count (``tcp.lhp_list_dupacks``; docs/llelsn.md, "LHP's packet list under
    a second reading (ninth session)")."""
    return Sensitivity(
        "what a duplicate at a hole on LHP's packet list does (spec §4.11 (c) [PROPOSAL]: "
        "listed segments are resent at once and excluded from the dupack count; whether their "
        "duplicates still clock out new data is not given)",
        (
            ("frozen: it keeps the window until the resend is acknowledged (the preset)", value),
            (
                "clocking: it lets one new segment out (RFC 3042 §2)",
                lambda m: value(Swapped(m, "lhp-clocking", r.BY_ID)),
            ),
        ),
        tuple(e.id for e in r.EXPERIMENTS if e.id.endswith("~lhp-clocking") and figs in e.id),
    )


def _ratio14(m: Measured, b: int) -> float:
    return g(m, point_id("congestion", str(b), "ll-elsn")) / g(
        m, point_id("congestion", str(b), "ll-elsn-lhp")
    )


def _t14a(m: Measured) -> float:
    """|ESACK/LHP - 1| at the lightest background (C004-13: "no difference at low congestion")."""
    return abs(_ratio14(m, r.BG_MEAN_MBPS[0]) - 1.0)


def _t14b(m: Measured) -> float:
    """Spearman's rho of ESACK/LHP against the background's mean ("increasingly better")."""
    xs = [float(b) for b in r.BG_MEAN_MBPS]
    return spearman(xs, [_ratio14(m, b) for b in r.BG_MEAN_MBPS])


LHP_FIG11_READINGS = _lhp_readings(_t10b, "pareto-")
"""T004-10.lhp under both readings of LHP's packet list (Fig. 11's LHP is e2e-lhp, whose list
its NACKs fill)."""
LHP_SENDERS_READINGS = _lhp_readings(_t13, "senders-")
"""T004-13 under both readings of LHP's packet list (Fig. 14's LHP is ll-elsn-lhp)."""
LHP_LOW_READINGS = _lhp_readings(_t14a, "congestion-")
"""T004-14.low under both readings of LHP's packet list."""
LHP_RISE_READINGS = _lhp_readings(_t14b, "congestion-")
"""T004-14.rise under both readings of LHP's packet list."""


FRIENDLY_IDS = point_ids("friendly", [str(k) for k in r.REPLACED], [s for _, s in r.FRIENDLY])


TARGETS: tuple[Target, ...] = (
    target(
        "T004-8.flat",
        "network",
        "Fig. 9: LL-ELSN's aggregate goodput flat in N",
        (1.0, 1.10),
        "max/min ≤ 1.10 (P1)",
        _t8a,
        point_ids("nsweep", [str(n) for n in r.N_FLOWS], ["ll-elsn"]),
    ),
    target(
        "T004-8.others",
        "network",
        "Fig. 9: the others gain with N",
        (1.0, 1.0),
        "every other scheme (P1)",
        _t8b,
        point_ids("nsweep", [str(n) for n in r.N_FLOWS], ALL),
    ),
    target(
        "T004-9.fair",
        "network",
        "Fig. 10: schemes with Jain's index ≥ 0.98 at N = 20",
        (8.0, INF),
        "≥ 8 of 12 (P3)",
        _t9a,
        point_ids("nsweep", ["20"], ALL),
        unit="schemes",
    ),
    target(
        "T004-9.jersey",
        "network",
        "Fig. 10: Jersey and JTCP less fair as N grows",
        (1.0, 1.0),
        "1 = holds (P3)",
        _t9b,
        point_ids("nsweep", [str(n) for n in r.N_FLOWS], ["e2e-jersey", "e2e-jtcp"]),
    ),
    target(
        "T004-9.lowest",
        "network",
        "Fig. 10: Westwood+ and TIBET among the three least fair",
        (1.0, 1.0),
        "1 = holds (P3)",
        _t9c,
        point_ids("nsweep", ["20"], ALL),
    ),
    target(
        "T004-10.best",
        "network",
        "Fig. 11: LL-ELSN best with Pareto background (seed by seed against each other scheme)",
        (0.5, 1.0),
        "1 = best, 0.5 = tied for best within the paired 95 % interval, 0 = below one (P2)",
        _t10a,
        point_ids("pareto", ["8"], ALL),
        sensitivity=DCR_READINGS,
    ),
    target(
        "T004-10.lhp",
        "network",
        "Fig. 11: LHP among the worst two",
        (1.0, 1.0),
        "1 = holds (P2)",
        _t10b,
        point_ids("pareto", ["8"], ALL),
        sensitivity=LHP_FIG11_READINGS,
    ),
    target(
        "T004-11.aggressive",
        "network",
        "Fig. 12: the remaining Reno flow loses to Westwood+, Veno, TIBET, ideal BWE",
        (1.0, 1.0),
        "all four (P2)",
        _t11a,
        FRIENDLY_IDS,
        sensitivity=IDEAL_BWE_READINGS,
    ),
    target(
        "T004-11.sack",
        "network",
        "Fig. 12: LL-ELSN and HACK within 10 % of SACK",
        (0.0, 0.10),
        "largest deviation ≤ 10 % (P2)",
        _t11b,
        FRIENDLY_IDS,
    ),
    target(
        "T004-13",
        "network",
        "Fig. 14: ESACK ≥ HACK, HACK-fixed, LHP under LL-ELSN",
        (1.0, 1.0),
        "1 = holds (P3)",
        _t13,
        point_ids("senders", [str(n) for n in r.N_FLOWS], [s for _, s in r.SENDERS]),
        sensitivity=LHP_SENDERS_READINGS,
    ),
    target(
        "T004-14.low",
        "network",
        "Fig. 15: ESACK and LHP alike at the lightest background",
        (0.0, 0.05),
        "|ESACK/LHP - 1| < 5 % at 2 Mb/s (P2)",
        _t14a,
        point_ids("congestion", [str(b) for b in r.BG_MEAN_MBPS], ["ll-elsn", "ll-elsn-lhp"]),
        sensitivity=LHP_LOW_READINGS,
    ),
    target(
        "T004-14.rise",
        "network",
        "Fig. 15: ESACK over LHP grows with the background",
        (0.8, 1.0),
        "rho ≥ 0.8 (P2)",
        _t14b,
        point_ids("congestion", [str(b) for b in r.BG_MEAN_MBPS], ["ll-elsn", "ll-elsn-lhp"]),
        sensitivity=LHP_RISE_READINGS,
    ),
)
