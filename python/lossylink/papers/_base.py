"""The pieces every paper catalogue shares: targets and how they read measurements, figures, and
the interface :mod:`lossylink.reproduce` expects of a catalogue module.

A catalogue module (``lossylink.papers.<name>``) defines:

- ``NAME`` (as on the command line), ``PAPER`` (the citation), ``DOC`` (the page whose anchors
  explain known deviations), ``PAPER_LABEL`` (the header of the paper's column), ``TRANSFER``
  (the usual transfer, for targets.json), ``DEFAULT_SEEDS``, ``QUICK_SEEDS``;
- ``GROUPS`` and ``GROUP_TITLES``: experiment groups (``--only``);
- ``EXPERIMENTS``: objects with the fields of :class:`ExperimentLike`;
- ``TRACED_RUNS``: ``{id: run}``, runs with ``preset`` and ``overrides``, traced on the first
  seed;
- ``FIGURES`` (:class:`Figure`), ``TARGETS`` (:class:`Target`), ``TARGET_TABLES`` (the order of
  the target tables), ``DEVIATIONS`` (``{anchor: mechanism in one line}``);
- ``select(groups, figures) -> Selection``: what a run restricted to ``groups`` needs.

Its report sections live in ``lossylink.papers.<name>.report``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

INF = math.inf

WIRELESS = "{wireless}"
"""Placeholder in override keys: the index of the preset's wireless hop."""


class Unavailable(Exception):
    """A target cannot be computed (an experiment, metric or trace is missing)."""


class Measured(Protocol):
    """What target functions read: per-experiment seed values and traced runs."""

    def values(self, exp: str, metric: str) -> Sequence[float]:
        """The per-seed values of ``metric`` (raises :class:`Unavailable`)."""
        ...

    def trace(self, run: str) -> dict[str, dict[str, np.ndarray]]:
        """The trace tables of a traced run (raises :class:`Unavailable`)."""
        ...


class ExperimentLike(Protocol):
    """What the runner and the results frame read from an experiment."""

    id: str
    group: str
    overrides: tuple[tuple[str, str], ...]
    params: tuple[tuple[str, str | int], ...]
    max_seeds: int | None

    @property
    def preset(self) -> str: ...

    def columns(self) -> dict[str, Any]:
        """Extra ``results.csv`` columns (the paper's values of the experiment)."""
        ...


class TracedRunLike(Protocol):
    """A run traced on the first seed (figures and trace-based targets)."""

    id: str

    @property
    def preset(self) -> str: ...

    @property
    def overrides(self) -> tuple[tuple[str, str], ...]: ...


def mean(m: Measured, exp: str, metric: str = "throughput_mbps") -> float:
    """The mean over seeds of one metric of one experiment."""
    v = m.values(exp, metric)
    return float(np.mean(v))


class Swapped:
    """The measurements with some experiments replaced by their counterfactual runs: ``exp``
    reads ``exp~<key>`` where the catalogue (its experiment ids) has one, else ``exp`` itself."""

    def __init__(self, m: Measured, key: str, catalogue: Container[str]) -> None:
        self._m = m
        self._key = key
        self._catalogue = catalogue

    def _id(self, exp: str) -> str:
        alt = f"{exp}~{self._key}"
        return alt if alt in self._catalogue else exp

    def values(self, exp: str, metric: str) -> Sequence[float]:
        return self._m.values(self._id(exp), metric)

    def trace(self, run: str) -> dict[str, Any]:
        return self._m.trace(run)


@dataclass(frozen=True)
class Counterfactual:
    """A run the reproduction itself makes to test a deviation's mechanism: the mechanism
    switched off, or the source tool's setting switched on.

    ``value`` reads the target's quantity from the counterfactual runs (``needs``); the
    mechanism is the cause only if that value lands in ``moves_to`` (typically the paper's
    accepted range, or the side of our value the paper lies on). The report shows it beside our
    value.
    """

    what: str
    """The change in words (``tcp.quench = false``, ``buffer_rounding = none`` ...)."""
    value: Callable[[Measured], float] = field(repr=False, compare=False)
    needs: tuple[str, ...] = ()
    """Experiment (or traced-run) ids the counterfactual value is computed from."""
    moves_to: tuple[float, float] = (-INF, INF)
    """Inclusive range the counterfactual value must fall in, as the mechanism claims."""


@dataclass(frozen=True)
class Sensitivity:
    """A choice the source does not give, on which a target rests: the target's value under
    each reading, so that the report shows how much of a pass is the choice."""

    what: str
    """The choice in words (``outage start (not given)``)."""
    values: tuple[tuple[str, Callable[[Measured], float]], ...] = field(compare=False)
    """``(label, value)`` per reading; the value reads the runs of that reading."""
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    """A reproduction target: a value we compute, the paper's value, and the accepted range."""

    id: str
    table: str
    """The target table it is listed in (one of the catalogue's ``TARGET_TABLES``)."""
    description: str
    paper: float | None
    accept: tuple[float, float]
    """Inclusive range of our value that passes."""
    tolerance: str
    """The acceptance as the spec states it."""
    value: Callable[[Measured], float] = field(repr=False, compare=False)
    needs: tuple[str, ...] = ()
    """Experiment (or traced-run) ids the value is computed from."""
    source: str = ""
    """Where the target comes from (spec section, test)."""
    deviation: str | None = None
    """Anchor of the section of the catalogue's ``DOC`` that explains a known difference."""
    unit: str = ""
    expected: str = ""
    """The paper's expected outcome in words, where a number alone says too little."""
    predicted: tuple[float, float] | Callable[[Measured], tuple[float, float]] | None = None
    """With a ``deviation``: the inclusive band its mechanism predicts for our value (or a
    function of the measurements giving it, where the band follows from other measured
    quantities of the same runs, e.g. a bound set by the run's own loss-free peak). A value
    outside the accepted range is "explained" only inside this band *and* with a
    ``counterfactual`` that moves as claimed; otherwise it fails."""
    counterfactual: Counterfactual | None = None
    """With a ``deviation``: the run that tests its mechanism."""
    sensitivity: Sensitivity | None = None
    """The target's value over a choice the source does not give (reported, not judged)."""

    def all_needs(self) -> tuple[str, ...]:
        """The runs the target and its counterfactual read."""
        extra = self.counterfactual.needs if self.counterfactual is not None else ()
        extra += self.sensitivity.needs if self.sensitivity is not None else ()
        out = list(self.needs)
        for n in extra:
            if n not in out:
                out.append(n)
        return tuple(out)


@dataclass(frozen=True)
class Figure:
    """A figure of the report."""

    key: str
    title: str
    kind: str
    """Balakrishnan97: ``bars``, ``seq``, ``cwnd``, ``sweep``, ``burst``, ``timeline``;
    Ludwig2000: ``seq`` (time-sequence with the hiccup shaded) and ``bars``."""
    runs: tuple[str, ...] = ()
    """Traced-run ids (one panel each) for trace figures."""
    table: str | None = None
    """Table key for bar charts."""
    reference_bytes: int | None = None
    """A horizontal reference line (the WAN bandwidth-delay product in Figure 4)."""
    note: str = ""
    xlim: tuple[float, float] | None = None
    """The time window a trace figure shows (the whole run if ``None``)."""


@dataclass(frozen=True)
class Selection:
    """What a reproduction restricted to some groups runs and checks."""

    experiments: tuple[Any, ...]
    traced_runs: tuple[Any, ...]
    targets: tuple[Target, ...]
    figures: tuple[Figure, ...]


def range_text(accept: tuple[float, float]) -> str:
    """An accepted range as text: ``≥ 3``, ``≤ 1``, ``5`` or ``2-4``."""
    lo, hi = accept
    if hi == INF:
        return f"≥ {lo:g}"
    if lo == -INF:
        return f"≤ {hi:g}"
    if lo == hi:
        return f"{lo:g}"
    return f"{lo:g}-{hi:g}"
