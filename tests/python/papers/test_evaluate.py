"""The verdict of a value against its accepted range (``lossylink.reproduce.evaluate``): a range's
ends are inclusive up to floating-point rounding, and no further."""

from __future__ import annotations

import math

from lossylink.papers import _base as base
from lossylink.reproduce import evaluate


def _verdict(value: float, accept: tuple[float, float]) -> str:
    t = base.Target("x", "t", "a value", None, accept, "-", lambda _m: value)
    return evaluate([t], [], [])[0].verdict


def test_a_range_end_computed_in_floating_point_is_on_the_end() -> None:
    rho = sum([0.1] * 8)  # 0.7999999999999999, as a Spearman rho of 0.8 comes out
    assert rho < 0.8
    assert _verdict(rho, (0.8, 1.0)) == "pass"
    assert _verdict(1.0 + 1e-12, (0.8, 1.0)) == "pass"
    assert _verdict(1e9 * (1 + 1e-12), (0.0, 1e9)) == "pass"


def test_a_value_beside_the_range_still_fails() -> None:
    assert _verdict(0.7999, (0.8, 1.0)) == "fail"
    assert _verdict(1.000001, (0.8, 1.0)) == "fail"
    assert _verdict(-1e-6, (0.0, math.inf)) == "fail"
    assert _verdict(math.nan, (0.0, math.inf)) == "fail"
    assert _verdict(math.inf, (0.0, math.inf)) == "fail"
