"""Summary statistics for repeated runs: mean and a 95 % confidence interval (Student's t).

Kept dependency-free: the two-sided 95 % t quantiles for 1..30 degrees of freedom are
tabulated; beyond 30 the normal quantile 1.96 is used (the error is below 2 %).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# t_{0.975, df} for df = 1..30.
_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
_Z975 = 1.96


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (``df >= 1``)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    return _T975[df - 1] if df <= len(_T975) else _Z975


@dataclass(frozen=True)
class Summary:
    """Mean of ``n`` samples and the half-width of its 95 % confidence interval."""

    n: int
    mean: float
    stdev: float | None
    """Sample standard deviation; ``None`` for a single sample."""
    half_width: float | None
    """``t * stdev / sqrt(n)``; ``None`` for a single sample."""

    @property
    def interval(self) -> tuple[float, float] | None:
        """``(low, high)``, or ``None`` for a single sample."""
        if self.half_width is None:
            return None
        return (self.mean - self.half_width, self.mean + self.half_width)


def summarize(values: Sequence[float]) -> Summary:
    """Mean and 95 % confidence half-width of ``values`` (at least one value)."""
    n = len(values)
    if n == 0:
        raise ValueError("cannot summarize no values")
    mean = math.fsum(values) / n
    if n == 1:
        return Summary(n=1, mean=mean, stdev=None, half_width=None)
    # Two passes with exactly rounded sums (within an ulp or two of statistics.stdev, which
    # works in fractions and cost a sweep's summary a tenth of a second).
    stdev = math.sqrt(math.fsum([(v - mean) ** 2 for v in values]) / (n - 1))
    return Summary(
        n=n, mean=mean, stdev=stdev, half_width=t_quantile_975(n - 1) * stdev / math.sqrt(n)
    )
