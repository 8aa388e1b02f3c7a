"""The helpers every target module of the Ludwig (2000) catalogue is written with: a value is a
function of the measurements; :func:`target` builds a row of a target table."""

from __future__ import annotations

from collections.abc import Callable

from lossylink.papers._base import (
    Counterfactual,
    Measured,
    Sensitivity,
    Target,
    mean,
    range_text,
)
from lossylink.papers._trace import SenderTrace

Value = Callable[[Measured], float]
"""A target's value, computed from the measurements of the runs it needs."""


def sender_trace(m: Measured, run: str) -> SenderTrace:
    """The sender trace of ``run`` (its first seed)."""
    return SenderTrace(run, m.trace(run))


def mean_of(run: str, metric: str) -> Value:
    """The mean of ``metric`` over the seeds of ``run``."""
    return lambda m: mean(m, run, metric)


def target(
    tid: str, table: str, desc: str, paper: float | None, accept: tuple[float, float],
    value: Value, needs: tuple[str, ...], source: str, *, expected: str = "",
    tolerance: str | None = None, unit: str = "", deviation: str | None = None,
    predicted: tuple[float, float] | None = None, counterfactual: Counterfactual | None = None,
    sensitivity: Sensitivity | None = None,
) -> Target:  # fmt: skip
    """A target, its tolerance text from ``accept`` unless given."""
    return Target(
        tid, table, desc, paper, accept, tolerance or range_text(accept), value, needs,
        source, deviation, unit, expected, predicted, counterfactual, sensitivity,
    )  # fmt: skip
