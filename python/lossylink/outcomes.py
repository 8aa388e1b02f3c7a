"""What a reproduction produced: each experiment's outcome and runs, the traced runs, the verdict
on every target, and the whole :class:`Reproduction`. Data only: :mod:`lossylink.reproduce` makes
them, :mod:`lossylink.report` and each paper's ``report`` module read them, and neither imports
the other for them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lossylink.papers import _base as base
from lossylink.papers import balakrishnan97 as b97
from lossylink.result import RunResult
from lossylink.scenario import Scenario
from lossylink.stats import Summary, summarize

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Outcome:
    """One experiment of the catalogue and what became of it."""

    experiment: base.ExperimentLike
    available: bool
    reason: str = ""
    """Why the experiment is not available (unregistered scheme, rejected scenario key)."""
    scenario: Scenario | None = None
    results: list[RunResult] = field(default_factory=list)

    def values(self, metric: str) -> list[float]:
        """The per-seed values of a flat metric, or of an aggregate of a ``[[flows]]`` run
        (``agg.<key>``: aggregate goodput, Jain's index, page response times, ...), or of one
        flow of it (``flow.<name>.<key>``), or of one 802.11 member of it by its node
        (``member.<node>.<key>``: access delays, the access point's queue wait towards it)."""
        if metric.startswith("member."):
            node, _, key = metric[7:].rpartition(".")
            return [
                float(m[key])
                for r in self.results
                for m in (r.members or [])
                if m.get("node") == node and key in m
            ]
        if metric.startswith("flow."):
            name, _, key = metric[5:].rpartition(".")
            return [
                float(f[key])
                for r in self.results
                for f in (r.flows or [])
                if f.get("flow") == name and key in f
            ]
        if metric.startswith("agg."):
            key = metric[4:]
            return [
                float(r.aggregate[key])
                for r in self.results
                if r.aggregate is not None and key in r.aggregate
            ]
        return [float(r.metrics[metric]) for r in self.results if metric in r.metrics]

    def summary(self, metric: str = "throughput_mbps") -> Summary | None:
        v = self.values(metric)
        return summarize(v) if v else None


@dataclass
class TracedOutcome:
    """A traced run behind the time-sequence and cwnd figures."""

    run: base.TracedRunLike
    available: bool
    reason: str = ""
    result: RunResult | None = None
    path: Path | None = None


@dataclass
class Verdict:
    """A target and how we fare against it."""

    target: base.Target
    ours: float | None
    verdict: str
    """``pass``, ``fail``, ``explained`` (outside the accepted range, inside the band a named
    mechanism predicts, with a counterfactual run that moves as the mechanism claims), ``not
    available``."""
    reason: str = ""
    counterfactual: float | None = None
    """The target's value in the deviation's counterfactual run, where one was run."""
    band: tuple[float, float] | None = None
    """The band the deviation's mechanism predicts for our value, where it was judged."""
    sensitivity: dict[str, float | None] | None = None
    """The target's value under each reading of a choice the source does not give."""

    def to_dict(
        self, doc: str = b97.DOC, deviations: dict[str, str] | None = None
    ) -> dict[str, Any]:
        """The ``targets.json`` entry; ``doc`` and ``deviations`` are the catalogue's."""
        t = self.target
        deviations = b97.DEVIATIONS if deviations is None else deviations
        lo, hi = t.accept
        out: dict[str, Any] = {
            "id": t.id,
            "table": t.table,
            "description": t.description,
            "paper": t.paper,
            "expected": t.expected,
            "ours": _finite(self.ours),
            "unit": t.unit,
            "tolerance": t.tolerance,
            "accept": [_finite(lo), _finite(hi)],
            "verdict": self.verdict,
            "source": t.source,
            "needs": list(t.all_needs()),
        }
        if t.deviation is not None:
            out["explanation"] = {
                "doc": f"{doc}#{t.deviation}",
                "mechanism": deviations[t.deviation],
                "predicted": None
                if self.band is None
                else [_finite(self.band[0]), _finite(self.band[1])],
            }
            cf = t.counterfactual
            if cf is not None:
                out["explanation"]["counterfactual"] = {
                    "what": cf.what,
                    "needs": list(cf.needs),
                    "moves_to": [_finite(cf.moves_to[0]), _finite(cf.moves_to[1])],
                    "value": _finite(self.counterfactual),
                }
        if self.sensitivity is not None and t.sensitivity is not None:
            out["sensitivity"] = {
                "choice": t.sensitivity.what,
                "values": {k: _finite(v) for k, v in self.sensitivity.items()},
            }
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class Reproduction:
    """Everything a reproduction produced."""

    paper: str
    seeds: list[int]
    transfer: str | None
    quick: bool
    outcomes: list[Outcome]
    traced: list[TracedOutcome]
    verdicts: list[Verdict]
    frame: pd.DataFrame
    wall_s: float
    """Seconds running the simulations (what report.html and the console both print)."""
    workers: int
    out: Path | None = None
    runs: int = 0
    """Simulations run: identical scenarios run once and fill several rows of ``frame``."""
    write_s: float = 0.0
    """Seconds writing the files (figures, report) after the runs."""
    files: list[Path] = field(default_factory=list)

    def outcome(self, exp_id: str) -> Outcome:
        for o in self.outcomes:
            if o.experiment.id == exp_id:
                return o
        raise KeyError(exp_id)


class Measurements:
    """The :class:`~lossylink.papers._base.Measured` view of a reproduction."""

    def __init__(self, outcomes: Sequence[Outcome], traced: Sequence[TracedOutcome]) -> None:
        self._outcomes = {o.experiment.id: o for o in outcomes}
        self._traced = {t.run.id: t for t in traced}

    def values(self, exp: str, metric: str) -> Sequence[float]:
        o = self._outcomes.get(exp)
        if o is None:
            raise base.Unavailable(f"{exp}: not in this reproduction")
        if not o.available:
            raise base.Unavailable(f"{exp}: {o.reason}")
        v = o.values(metric)
        if not v:
            raise base.Unavailable(f"{exp}: metric {metric} not reported")
        return v

    def trace(self, run_id: str) -> dict[str, Any]:
        t = self._traced.get(run_id)
        if t is None or t.result is None or t.result.trace is None:
            reason = t.reason if t is not None and t.reason else "not traced"
            raise base.Unavailable(f"{run_id}: {reason}")
        return t.result.trace


def _finite(v: float | None) -> float | None:
    if v is None or not math.isfinite(v):
        return None
    return v
