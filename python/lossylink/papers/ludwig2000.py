"""Ludwig, "Eliminating Inefficient Cross-Layer Interactions in Wireless Networking", PhD
dissertation, RWTH Aachen, 2000: the catalogue of the hiccup experiments of Chapters 4 and 5
(spec ``shared/specs/ludwig2000.md`` §6 S8a-S8f and S11, §8 RT8-RT12 and RT30), run by
``lossylink reproduce ludwig2000``.

- :data:`EXPERIMENTS`: the runs (the ``hiccup`` preset, and the ``lan`` preset for the LAN
  delay-spike check), with the overrides of the Rust tests ``hiccup_eifel.rs``,
  ``outage_s8f.rs`` and ``precise_rexmt.rs``;
- :data:`FIGURES`: time-sequence plots in the dissertation's style and the S11 comparison;
- :data:`TARGETS`: every check of those tests, with the dissertation's expected outcome, the
  accepted range (spec §8) and, where we knowingly differ, the anchor of the section of
  ``docs/ludwig2000.md`` that names the mechanism.

The parts live in :mod:`lossylink.papers._ludwig2000_runs` and
:mod:`lossylink.papers._ludwig2000_targets`.
"""

from __future__ import annotations

from lossylink.papers._base import Selection
from lossylink.papers._ludwig2000_runs import (
    BY_ID,
    EXPERIMENTS,
    FIGURE_GROUP,
    FIGURES,
    GROUP_TITLES,
    GROUPS,
    MSS,
    RWND,
    TRACED_RUNS,
    Experiment,
    Shade,
)
from lossylink.papers._ludwig2000_targets import DEVIATIONS, TABLE_GROUP, TARGET_TABLES, TARGETS

PAPER = (
    "R. Ludwig: Eliminating Inefficient Cross-Layer Interactions in Wireless Networking. "
    "Dissertation, RWTH Aachen, 2000 (Chapters 4 and 5: the hiccup experiments)"
)
NAME = "ludwig2000"
DOC = "docs/ludwig2000.md"
"""The page whose anchors explain the known deviations."""
PAPER_LABEL = "dissertation"
"""The column header of the dissertation's values in the target tables."""
TRANSFER = "100KB"
"""The hiccup preset's transfer (S8f: 40 KB; the LAN check: the lan preset's 8 MiB)."""
DEFAULT_SEEDS = 1
QUICK_SEEDS = 1
"""The hiccup runs have no random losses: every seed gives the same run."""

__all__ = [
    "DEVIATIONS",
    "EXPERIMENTS",
    "FIGURES",
    "GROUPS",
    "GROUP_TITLES",
    "MSS",
    "RWND",
    "TARGETS",
    "TARGET_TABLES",
    "TRACED_RUNS",
    "Experiment",
    "Shade",
    "select",
]


def select(groups: set[str], figures: bool = True) -> Selection:
    """The experiments, traced runs, targets and figures of ``groups``."""
    experiments = tuple(e for e in EXPERIMENTS if e.group in groups)
    figs = (
        tuple(
            f
            for f in FIGURES
            if FIGURE_GROUP.get(f.key) in groups or any(BY_ID[r].group in groups for r in f.runs)
        )
        if figures
        else ()
    )
    targets = tuple(t for t in TARGETS if TABLE_GROUP[t.table] in groups)
    traced = tuple(e for e in experiments if e.traced)
    return Selection(experiments, traced, targets, figs)
