"""What the LL-ELSN targets are computed with: the mean goodput of an experiment over its seeds,
its 95 % interval, rank correlations, the experiment ids of a figure's points, and the builder
of a target row (every target is ordinal or relative, eln-llelsn spec §7.2)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from lossylink.papers._base import Measured, Sensitivity, Target, Unavailable
from lossylink.papers.llelsn import runs as r

G = "agg.aggregate_goodput_mbps"
Z95 = 1.96
"""The normal quantile of a two-sided 95 % interval (spec §7: "95% CIs reported")."""


def g(m: Measured, exp: str, metric: str = G) -> float:
    return float(np.mean(m.values(exp, metric)))


def ci(m: Measured, exp: str) -> tuple[float, float]:
    """Mean and 95 % half-width (normal approximation) of the aggregate goodput."""
    v = np.asarray(m.values(exp, G), dtype=float)
    half = Z95 * v.std(ddof=1) / np.sqrt(len(v)) if len(v) > 1 else 0.0
    return float(v.mean()), float(half)


def paired(m: Measured, a: str, b: str, metric: str = G, scale: float = 1.0) -> int:
    """Whether ``a`` is above ``scale`` times ``b`` beyond the seeds' noise: +1 above, -1
    below, 0 a tie. The runs are paired (the same seed gives both experiments the same random
    streams wherever they share a component), so the test is on the per-seed differences
    a_s - scale * b_s over the seeds both ran: a tie when their 95 % interval (normal
    approximation) contains zero. With one seed the interval has no width: the sign of the one
    difference (0 when equal)."""
    va = np.asarray(m.values(a, metric), dtype=float)
    vb = np.asarray(m.values(b, metric), dtype=float)
    n = min(len(va), len(vb))
    d = va[:n] - scale * vb[:n]
    mean = float(d.mean())
    half = Z95 * float(d.std(ddof=1)) / np.sqrt(n) if n > 1 else 0.0
    if mean - half > 0:
        return 1
    if mean + half < 0:
        return -1
    return 0


def rank(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=float)
    order = a.argsort(kind="stable")
    out = np.empty(len(a))
    out[order] = np.arange(len(a), dtype=float)
    for value in np.unique(a):
        same = a == value
        out[same] = out[same].mean()
    return out


def spearman(x: list[float], y: list[float]) -> float:
    rx, ry = rank(x), rank(y)
    if rx.std() == 0 or ry.std() == 0:
        raise Unavailable("a constant series has no rank correlation")
    # Rounded so that a correlation of exactly 0.8 (e.g. four points with one swap) is not
    # 0.7999999999999999 and fails a "rho >= 0.8" target.
    return round(float(np.corrcoef(rx, ry)[0, 1]), 12)


def kendall(x: list[float], y: list[float]) -> float:
    n, s = len(x), 0
    for i in range(n):
        for j in range(i + 1, n):
            s += int(np.sign(x[i] - x[j]) * np.sign(y[i] - y[j]))
    return 2.0 * s / (n * (n - 1))


def point_id(group: str, key: str, scheme: str) -> str:
    return f"{group}-{key}-{scheme}"


def others(m: Measured, group: str, key: str) -> dict[str, float]:
    """Mean goodput of every scheme of Fig. 6 but LL-ELSN that ran at this point."""
    out = {}
    for label, scheme in r.SCHEMES:
        if scheme == "ll-elsn":
            continue
        try:
            out[label] = g(m, point_id(group, key, scheme))
        except Unavailable:
            continue
    if not out:
        raise Unavailable(f"no scheme ran at {group} {key}")
    return out


def has(m: Measured, group: str, key: str, scheme: str) -> bool:
    try:
        m.values(point_id(group, key, scheme), G)
        return True
    except Unavailable:
        return False


def point_ids(group: str, keys: list[str], schemes: list[str]) -> tuple[str, ...]:
    return tuple(point_id(group, k, s) for k in keys for s in schemes)


ALL = [s for _, s in r.SCHEMES]


def target(
    tid: str,
    table: str,
    description: str,
    accept: tuple[float, float],
    tolerance: str,
    value: Callable[[Measured], float],
    needs: tuple[str, ...],
    *,
    expected: str = "",
    deviation: str | None = None,
    unit: str = "",
    sensitivity: Sensitivity | None = None,
) -> Target:
    return Target(
        tid,
        table,
        description,
        None,
        accept,
        tolerance,
        value,
        needs,
        source=f"eln-llelsn spec §7.2 {tid.split('.')[0]}",
        unit=unit,
        expected=expected,
        deviation=deviation,
        sensitivity=sensitivity,
    )
