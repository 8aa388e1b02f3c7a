"""lossylink.stats: mean and 95 % confidence intervals (pure Python)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lossylink.stats import summarize, t_quantile_975


def test_t_quantiles_known_values() -> None:
    assert t_quantile_975(1) == pytest.approx(12.706, abs=1e-3)
    assert t_quantile_975(9) == pytest.approx(2.262, abs=1e-3)
    assert t_quantile_975(30) == pytest.approx(2.042, abs=1e-3)
    assert t_quantile_975(31) == 1.96
    assert t_quantile_975(1000) == 1.96


def test_t_quantiles_decrease_towards_normal() -> None:
    values = [t_quantile_975(df) for df in range(1, 40)]
    assert all(a >= b for a, b in itertools.pairwise(values))
    assert values[-1] == 1.96


def test_t_quantile_rejects_zero_df() -> None:
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile_975(0)


def test_summarize_three_values() -> None:
    s = summarize([1.0, 2.0, 3.0])
    assert s.n == 3
    assert s.mean == 2.0
    assert s.stdev == pytest.approx(1.0)
    assert s.half_width == pytest.approx(4.3027 / math.sqrt(3))
    assert s.interval == pytest.approx((2.0 - s.half_width, 2.0 + s.half_width))


def test_summarize_single_value_has_no_interval() -> None:
    s = summarize([0.7])
    assert (s.n, s.mean, s.stdev, s.half_width, s.interval) == (1, 0.7, None, None, None)


def test_summarize_constant_values_zero_width() -> None:
    assert summarize([5.0] * 10).half_width == 0.0


def test_summarize_empty_raises() -> None:
    with pytest.raises(ValueError, match="no values"):
        summarize([])


@given(
    st.lists(
        st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False),
        min_size=2,
        max_size=60,
    )
)
def test_summarize_agrees_with_the_exact_statistics_module(values: list[float]) -> None:
    import statistics

    s = summarize(values)
    assert s.mean == pytest.approx(statistics.fmean(values), rel=1e-12, abs=1e-12)
    assert s.stdev == pytest.approx(statistics.stdev(values), rel=1e-9, abs=1e-6)
