"""Ludwig, "Eliminating Inefficient Cross-Layer Interactions in Wireless Networking", PhD
dissertation, RWTH Aachen, 2000: the catalogue of the hiccup experiments of Chapters 4 and 5
(experiments S8a-S8f, S11, S13; targets RT8-RT12 and RT30), the
cost model of Fig 5-7 (S12, RT13: analytical) and its packet-level version (S12, RT14), run
by ``lossylink reproduce ludwig2000``.

- :data:`EXPERIMENTS`: the runs (the ``hiccup`` preset, and the ``lan`` preset for the LAN
  delay-spike check), with the overrides of the Rust tests ``hiccup_eifel.rs``,
  ``outage_s8f.rs``, ``precise_rexmt.rs`` and ``rto_agg.rs``, then the Eifel refinements
  (the late third DUPACK, the burst pacer, RTO_AGG: spec §3.1.2, §3.4, §9 Q3), and S13,
  intermittent connectivity on the ``wan`` preset (``intermittent_s13.rs``), and S12 at the
  packet level on the ``wan`` preset (``spurious_cost_s12.rs``; the model itself has no runs);
- :data:`FIGURES`: time-sequence plots in the dissertation's style and the S11 comparison;
- :data:`TARGETS`: every check of those tests, with the dissertation's expected outcome, the
  accepted range (spec §8) and, where we knowingly differ, the anchor of the section of
  ``docs/ludwig2000.md`` that names the mechanism.

The parts live in :mod:`lossylink.papers.ludwig2000.runs`,
:mod:`lossylink.papers.ludwig2000.targets`, :mod:`lossylink.papers.ludwig2000.eifel`,
:mod:`lossylink.papers.ludwig2000.eifel_targets`, :mod:`lossylink.papers.ludwig2000.more`,
:mod:`lossylink.papers.ludwig2000.more_targets`, (the S12 model)
:mod:`lossylink.papers.ludwig2000.squares` and (S12 at the packet level)
:mod:`lossylink.papers.ludwig2000.spurious` and
:mod:`lossylink.papers.ludwig2000.spurious_targets`, and (S1-S5, TCP over GSM-CSD with RLP)
:mod:`lossylink.papers.ludwig2000.gsm`, (S6, S7: ReTracer, RT22-RT28)
:mod:`lossylink.papers.ludwig2000.retrace_targets`, and (S9, S10: the timers)
:mod:`lossylink.papers.ludwig2000.timers` and :mod:`lossylink.papers.ludwig2000.timer_targets`.
"""

from __future__ import annotations

from lossylink.papers._base import Figure, Selection, Target
from lossylink.papers.ludwig2000 import eifel as _eifel
from lossylink.papers.ludwig2000 import eifel_targets as _eifel_targets
from lossylink.papers.ludwig2000 import gsm as _gsm
from lossylink.papers.ludwig2000 import gsm_more as _gsm_more
from lossylink.papers.ludwig2000 import more as _more
from lossylink.papers.ludwig2000 import more_targets as _more_targets
from lossylink.papers.ludwig2000 import retrace_targets as _retrace
from lossylink.papers.ludwig2000 import runs as _runs
from lossylink.papers.ludwig2000 import spurious as _spurious
from lossylink.papers.ludwig2000 import spurious_targets as _spurious_targets
from lossylink.papers.ludwig2000 import targets as _targets
from lossylink.papers.ludwig2000 import timer_targets as _timer_targets
from lossylink.papers.ludwig2000 import timers as _timers
from lossylink.papers.ludwig2000.runs import MSS, RWND, Experiment, Shade

EXPERIMENTS: tuple[Experiment, ...] = (
    *_runs.EXPERIMENTS,
    *_eifel.EXPERIMENTS,
    *_more.EXPERIMENTS,
    *_spurious.EXPERIMENTS,
    *_gsm.EXPERIMENTS,
    *_gsm_more.EXPERIMENTS,
    *_timers.EXPERIMENTS,
)
GROUPS = (
    *_runs.GROUPS,
    *_eifel.GROUPS,
    *_more.GROUPS,
    *_gsm.GROUPS,
    *_gsm_more.GROUPS,
    *_timers.GROUPS,
    *_retrace.GROUPS,
)
GROUP_TITLES = {
    **_runs.GROUP_TITLES,
    **_eifel.GROUP_TITLES,
    **_more.GROUP_TITLES,
    **_gsm.GROUP_TITLES,
    **_gsm_more.GROUP_TITLES,
    **_timers.GROUP_TITLES,
    **_retrace.GROUP_TITLES,
}
BY_ID = {e.id: e for e in EXPERIMENTS}
TRACED_RUNS: dict[str, Experiment] = {e.id: e for e in EXPERIMENTS if e.traced}
"""Every experiment with a figure or a trace-based target is also traced on the first seed."""
FIGURES: tuple[Figure, ...] = (
    *_runs.FIGURES,
    *_eifel.FIGURES,
    *_more.FIGURES[:1],
    *_spurious.FIGURES,
    *_more.FIGURES[1:],
    *_gsm.FIGURES,
    *_timers.FIGURES,
)
FIGURE_GROUP = {
    **_runs.FIGURE_GROUP,
    **_eifel.FIGURE_GROUP,
    **_more.FIGURE_GROUP,
    **_spurious.FIGURE_GROUP,
    **_gsm.FIGURE_GROUP,
    **_timers.FIGURE_GROUP,
}
"""The group of a figure without traced runs, or whose runs span groups."""
TARGETS: tuple[Target, ...] = (
    *_targets.TARGETS,
    *_eifel_targets.TARGETS,
    *_more_targets.TARGETS[: _more_targets.S12_COUNT],
    *_spurious_targets.TARGETS,
    *_more_targets.TARGETS[_more_targets.S12_COUNT :],
    *_gsm.TARGETS,
    *_retrace.TARGETS,
    *_gsm_more.TARGETS,
    *_timer_targets.TARGETS,
)
TARGET_TABLES = (
    *_targets.TARGET_TABLES,
    *_eifel_targets.TARGET_TABLES,
    *_more_targets.TARGET_TABLES[:1],
    *_spurious_targets.TARGET_TABLES,
    *_more_targets.TARGET_TABLES[1:],
    *_gsm.TARGET_TABLES,
    *_retrace.TARGET_TABLES,
    *_gsm_more.TARGET_TABLES,
    *_timer_targets.TARGET_TABLES,
)
TABLE_GROUP = {
    **_targets.TABLE_GROUP,
    **_eifel_targets.TABLE_GROUP,
    **_more_targets.TABLE_GROUP,
    **_spurious_targets.TABLE_GROUP,
    **_gsm.TABLE_GROUP,
    **_retrace.TABLE_GROUP,
    **_gsm_more.TABLE_GROUP,
    **_timer_targets.TABLE_GROUP,
}
DEVIATIONS = _targets.DEVIATIONS

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
"""The hiccup preset's transfer (S8f: 40 KB; RTO_AGG: 400 KB; the LAN check and S13: the lan and
wan presets' 8 MiB)."""
DEFAULT_SEEDS = 1
QUICK_SEEDS = 1
"""The hiccup runs have no random losses: every seed gives the same run."""

__all__ = [
    "BY_ID",
    "DEVIATIONS",
    "EXPERIMENTS",
    "FIGURES",
    "FIGURE_GROUP",
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


def _figure_in(fig: Figure, groups: set[str]) -> bool:
    if fig.key in FIGURE_GROUP:
        return FIGURE_GROUP[fig.key] in groups
    return any(BY_ID[r].group in groups for r in fig.runs)


def select(groups: set[str], figures: bool = True) -> Selection:
    """The experiments, traced runs, targets and figures of ``groups``, with the runs of other
    groups that those targets and figures compare against (the burst pacer's S8e)."""
    figs = tuple(f for f in FIGURES if _figure_in(f, groups)) if figures else ()
    targets = tuple(t for t in TARGETS if TABLE_GROUP[t.table] in groups)
    needed = {r for t in targets for r in t.all_needs()} | {r for f in figs for r in f.runs}
    experiments = tuple(e for e in EXPERIMENTS if e.group in groups or e.id in needed)
    traced = tuple(e for e in experiments if e.traced)
    return Selection(experiments, traced, targets, figs)
