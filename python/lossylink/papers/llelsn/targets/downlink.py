"""The LL-ELSN targets of one download (table ``downlink``, Figs 6-8; T004-1..7): the schemes'
order over the frame error rate, the round-trip time and the uplink."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from lossylink.papers._base import INF, Measured, Target
from lossylink.papers.llelsn import runs as r
from lossylink.papers.llelsn.targets.measures import (
    ALL,
    ci,
    g,
    has,
    kendall,
    others,
    paired,
    point_id,
    point_ids,
    spearman,
    target,
)


def _fer_key(p: float) -> str:
    return f"{p:g}"


def _t1a(m: Measured) -> float:
    """Fraction of FER points where LL-ELSN's 95 % interval lies above every other scheme's."""
    ok = 0
    for p in r.FER_PCT:
        k = _fer_key(p)
        e, eh = ci(m, point_id("fer", k, "ll-elsn"))
        best = max(
            (
                ci(m, point_id("fer", k, s))
                for lab, s in r.SCHEMES
                if s != "ll-elsn" and has(m, "fer", k, s)
            ),
            key=lambda t: t[0] + t[1],
        )
        ok += int(e - eh > best[0] + best[1])
    return ok / len(r.FER_PCT)


def _t1b(m: Measured) -> float:
    """Fraction of FER points where Snoop is second."""
    ok = 0
    for p in r.FER_PCT:
        o = others(m, "fer", _fer_key(p))
        ok += int(max(o, key=lambda k: o[k]) == "Snoop")
    return ok / len(r.FER_PCT)


def _t1c(m: Measured) -> float:
    """Fraction of (scheme, FER) points where a scheme other than LL-ELSN is at least Reno's
    goodput (5 % slack at FER ≤ 0.01 %), seed by seed (:func:`paired`): a tie within the
    paired 95 % interval is "≥", as the spec's T004-1 writes it ("every other scheme ≥ Reno";
    docs/llelsn.md, "T004-1.reno at full seeds")."""
    ok = n = 0
    for p in r.FER_PCT:
        k = _fer_key(p)
        o = others(m, "fer", k)
        slack = 0.95 if p <= 0.01 else 1.0
        reno = point_id("fer", k, "e2e")
        for lab in o:
            if lab != "Reno":
                n += 1
                ok += int(paired(m, point_id("fer", k, r.LABEL[lab]), reno, scale=slack) >= 0)
    return ok / n


def _ratio(key: str, other: str, group: str = "fer") -> Callable[[Measured], float]:
    return lambda m: g(m, point_id(group, key, "ll-elsn")) / g(m, point_id(group, key, other))


def _t2(m: Measured) -> float:
    xs = list(r.FER_PCT)
    return spearman(xs, [_ratio(_fer_key(p), "snoop-newreno")(m) for p in xs])


def _advantage(group: str) -> Callable[[Measured], float]:
    def f(m: Measured) -> float:
        o = others(m, group, "0.01")
        return g(m, point_id(group, "0.01", "ll-elsn")) / max(o.values()) - 1.0

    return f


def _t6a(m: Measured) -> float:
    """Fraction of schemes whose goodput does not rise with d (5 % noise allowed per step)."""
    ok = n = 0
    for _, s in r.SCHEMES:
        if not has(m, "rtt", "1", s):
            continue
        v = [g(m, point_id("rtt", str(d), s)) for d in r.RTT_D_MS]
        n += 1
        ok += int(all(b <= 1.05 * a for a, b in itertools.pairwise(v)))
    return ok / n


def _drop(m: Measured, s: str) -> float:
    return g(m, point_id("rtt", str(r.RTT_D_MS[-1]), s)) / g(
        m, point_id("rtt", str(r.RTT_D_MS[0]), s)
    )


def _t6b(m: Measured) -> float:
    """1 if LL-ELSN keeps the largest share of its goodput from the smallest to the largest d."""
    drops = {s: _drop(m, s) for _, s in r.SCHEMES if has(m, "rtt", "1", s)}
    return 1.0 if max(drops, key=lambda s: drops[s]) == "ll-elsn" else 0.0


def _t6c(m: Measured) -> float:
    """1 if Westwood+ and TIBET are below Reno at the smallest d."""
    reno = g(m, point_id("rtt", "1", "e2e"))
    return float(
        g(m, point_id("rtt", "1", "e2e-westwood")) < reno
        and g(m, point_id("rtt", "1", "e2e-tibet")) < reno
    )


def _t7a(m: Measured) -> float:
    """Fraction of uplink FER points where LL-ELSN is best."""
    ok = 0
    for p in r.UPLINK_FER_PCT:
        o = others(m, "uplink", _fer_key(p))
        ok += int(g(m, point_id("uplink", _fer_key(p), "ll-elsn")) > max(o.values()))
    return ok / len(r.UPLINK_FER_PCT)


def _t7c(m: Measured) -> float:
    """Kendall's tau between the uplink and downlink rankings of the others, mean over FER."""
    taus = []
    for p in r.UPLINK_FER_PCT:
        up = others(m, "uplink", _fer_key(p))
        down = others(m, "fer", _fer_key(p))
        labs = [k for k in up if k in down and k != "Snoop"]
        taus.append(kendall([up[k] for k in labs], [down[k] for k in labs]))
    return float(np.mean(taus))


def _snoop_uplink(m: Measured) -> float:
    """Fraction of uplink FER points where Snoop's gain over Reno is smaller than downlink's."""
    ok = 0
    for p in r.UPLINK_FER_PCT:
        k = _fer_key(p)
        up = g(m, point_id("uplink", k, "snoop-newreno")) / g(m, point_id("uplink", k, "e2e"))
        down = g(m, point_id("fer", k, "snoop-newreno")) / g(m, point_id("fer", k, "e2e"))
        ok += int(up < down)
    return ok / len(r.UPLINK_FER_PCT)


FER_KEYS = [_fer_key(p) for p in r.FER_PCT]


TARGETS: tuple[Target, ...] = (
    target(
        "T004-1.first",
        "downlink",
        "Fig. 6: LL-ELSN first at every FER (95 % intervals apart)",
        (1.0, 1.0),
        "share of FER points = 1 (P1)",
        _t1a,
        point_ids("fer", FER_KEYS, ALL),
        expected="LL-ELSN > Snoop > the rest",
    ),
    target(
        "T004-1.snoop",
        "downlink",
        "Fig. 6: Snoop second",
        (0.8, 1.0),
        "at ≥ 80 % of FER points (P1)",
        _t1b,
        point_ids("fer", FER_KEYS, ALL),
        expected="Snoop second",
    ),
    target(
        "T004-1.reno",
        "downlink",
        "Fig. 6: every other scheme ≥ Reno",
        (1.0, 1.0),
        "share of (scheme, FER) points = 1, a tie within the paired 95 % interval counted as ≥, "
        "5 % slack at FER ≤ 0.01 % (P1)",
        _t1c,
        point_ids("fer", FER_KEYS, ALL),
        expected="all better than Reno",
    ),
    target(
        "T004-2",
        "downlink",
        "Fig. 6: LL-ELSN/Snoop rises with FER (Spearman)",
        (0.8, 1.0),
        "rho ≥ 0.8 (P1)",
        _t2,
        point_ids("fer", FER_KEYS, ["ll-elsn", "snoop-newreno"]),
    ),
    target(
        "T004-3",
        "downlink",
        "FER 0.01 %: LL-ELSN's advantage over the best other",
        (0.05, INF),
        "≥ 5 % (P1)",
        _advantage("fer"),
        point_ids("fer", ["0.01"], ALL),
        unit="ratio - 1",
        expected="collisions between data and TCP ACK frames",
    ),
    target(
        "T004-3.ablation",
        "downlink",
        "FER 0.01 %, collisions off: the advantage vanishes",
        (-INF, 0.05),
        "< 5 % (P1 ablation)",
        _advantage("ablation"),
        point_ids("ablation", ["0.01"], ALL),
        unit="ratio - 1",
    ),
    target(
        "T004-4.reno",
        "downlink",
        "FER 9 %: LL-ELSN / Reno",
        (3.0, INF),
        "≥ 3.0 (paper > 4, P2)",
        _ratio("9", "e2e"),
        point_ids("fer", ["9"], ["ll-elsn", "e2e"]),
    ),
    target(
        "T004-4.snoop",
        "downlink",
        "FER 9 %: LL-ELSN / Snoop",
        (1.3, INF),
        "≥ 1.3 (paper > 1.5, P2)",
        _ratio("9", "snoop-newreno"),
        point_ids("fer", ["9"], ["ll-elsn", "snoop-newreno"]),
    ),
    target(
        "T004-5",
        "downlink",
        "FER 0.001 %: LL-ELSN near the 802.11b TCP ceiling",
        (2.6, 3.8),
        "2.6-3.8 Mb/s (P2)",
        lambda m: g(m, point_id("fer", "0.001", "ll-elsn")),
        point_ids("fer", ["0.001"], ["ll-elsn"]),
        unit="Mb/s",
    ),
    target(
        "T004-6.monotone",
        "downlink",
        "Fig. 7: goodput non-increasing in d",
        (1.0, 1.0),
        "every scheme (5 % noise per step, P2)",
        _t6a,
        point_ids("rtt", [str(d) for d in r.RTT_D_MS], ALL),
    ),
    target(
        "T004-6.elsn",
        "downlink",
        "Fig. 7: LL-ELSN loses least from d = 1 to 200 ms",
        (1.0, 1.0),
        "1 = holds (P2)",
        _t6b,
        point_ids("rtt", [str(d) for d in r.RTT_D_MS], ALL),
    ),
    target(
        "T004-6.small-rtt",
        "downlink",
        "Fig. 7: Westwood+ and TIBET below Reno at the smallest d",
        (1.0, 1.0),
        "1 = holds (P2)",
        _t6c,
        point_ids("rtt", ["1"], ["e2e", "e2e-westwood", "e2e-tibet"]),
    ),
    target(
        "T004-7.best",
        "downlink",
        "Fig. 8: LL-ELSN best uplink",
        (1.0, 1.0),
        "every FER point (P2)",
        _t7a,
        point_ids("uplink", [_fer_key(p) for p in r.UPLINK_FER_PCT], ALL),
    ),
    target(
        "T004-7.snoop",
        "downlink",
        "Fig. 8: Snoop/Reno lower uplink than downlink",
        (1.0, 1.0),
        "1 = holds (P2)",
        _snoop_uplink,
        point_ids("uplink", [_fer_key(p) for p in r.UPLINK_FER_PCT], ["snoop-newreno", "e2e"])
        + point_ids("fer", [_fer_key(p) for p in r.UPLINK_FER_PCT], ["snoop-newreno", "e2e"]),
    ),
    target(
        "T004-7.tau",
        "downlink",
        "Fig. 8: the others rank alike up and down (Kendall tau)",
        (0.6, 1.0),
        "tau ≥ 0.6 (P2)",
        _t7c,
        point_ids("uplink", [_fer_key(p) for p in r.UPLINK_FER_PCT], ALL)
        + point_ids("fer", [_fer_key(p) for p in r.UPLINK_FER_PCT], ALL),
    ),
)
