"""What every experiment family of the Ludwig (2000) catalogue is made of: the run
configuration (:class:`Experiment`), the hiccup its figures shade (:class:`Shade`), and where
the catalogue's data files (scenario files, erasure traces) lie."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent
"""The catalogue's scenario files and erasure traces (``s5_second.toml``, ``s3_burst.trace``,
...); a scenario file's ``preset`` is its path relative to the papers package."""


@dataclass(frozen=True)
class Shade:
    """The hiccup of a run, as the figures mark it: an interval, or an instant (``start ==
    end``, a reordering)."""

    start: float
    end: float
    label: str


@dataclass(frozen=True)
class Experiment:
    """One run configuration of the dissertation's experiments."""

    id: str
    group: str
    """``s8`` (testbed, S8a-S8e), ``s8f``, ``s11``, ``lan``."""
    scenario: str
    """The dissertation's scenario name (``S8a``, ...)."""
    figure: str
    """The dissertation's figure(s) the run stands for."""
    preset: str
    overrides: tuple[tuple[str, str], ...]
    description: str
    shade: Shade | None = None
    traced: bool = True
    """Traced on the first seed (figures and trace-based targets)."""
    params: tuple[tuple[str, str | int], ...] = ()
    max_seeds: int | None = None

    def columns(self) -> dict[str, Any]:
        """The ``results.csv`` columns naming the dissertation's experiment."""
        return {"scenario_id": self.scenario, "figure": self.figure}
