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

The experiments come in families, one sub-package each, each with its ``runs`` (experiments,
groups, figures), ``targets`` and, where it draws figures of its own, ``report``:

- ``hiccup``: S8a-S8f, S11 and the LAN delay spike (the hiccup testbed);
- ``eifel``: the Eifel refinements (late third DUPACK, burst pacer, RTO_AGG);
- ``spurious_cost``: S12, the cost of a spurious retransmission (``model``: the squares model
  of Fig 5-7; the runs at the packet level);
- ``intermittent``: S13, intermittent connectivity;
- ``gsm``: S1-S5, TCP over GSM-CSD with RLP; ``gsm_ext``: the flow-adaptive link, RFC 2507
  and handovers on the GSM link;
- ``retrace``: S6, S7, ReTracer on the erasure traces (targets only: they compute, no runs);
- ``timers``: S9, S10, the timers.

:mod:`lossylink.papers.ludwig2000.experiment` holds the experiment type and the data files'
place, :mod:`lossylink.papers.ludwig2000.checks` the helpers the targets are written with, and
:mod:`lossylink.papers.ludwig2000.report` the report, which calls each family's figures.
"""

from __future__ import annotations

from lossylink.papers._base import Figure, Selection, Target
from lossylink.papers.ludwig2000.eifel import runs as eifel_runs
from lossylink.papers.ludwig2000.eifel import targets as eifel_targets
from lossylink.papers.ludwig2000.experiment import Experiment, Shade
from lossylink.papers.ludwig2000.gsm import runs as gsm_runs
from lossylink.papers.ludwig2000.gsm import targets as gsm_targets
from lossylink.papers.ludwig2000.gsm_ext import runs as gsm_ext_runs
from lossylink.papers.ludwig2000.gsm_ext import targets as gsm_ext_targets
from lossylink.papers.ludwig2000.hiccup import runs as hiccup_runs
from lossylink.papers.ludwig2000.hiccup import targets as hiccup_targets
from lossylink.papers.ludwig2000.hiccup.runs import MSS, RWND
from lossylink.papers.ludwig2000.intermittent import runs as s13_runs
from lossylink.papers.ludwig2000.intermittent import targets as s13_targets
from lossylink.papers.ludwig2000.retrace import targets as retrace_targets
from lossylink.papers.ludwig2000.retrace import why as retrace_why
from lossylink.papers.ludwig2000.spurious_cost import runs as s12_runs
from lossylink.papers.ludwig2000.spurious_cost import targets as s12_targets
from lossylink.papers.ludwig2000.timers import runs as timer_runs
from lossylink.papers.ludwig2000.timers import targets as timer_targets

# The order of each list is the report's (and the run order of results.csv).
EXPERIMENTS: tuple[Experiment, ...] = (
    *hiccup_runs.EXPERIMENTS,
    *eifel_runs.EXPERIMENTS,
    *s13_runs.EXPERIMENTS,
    *s12_runs.EXPERIMENTS,
    *gsm_runs.EXPERIMENTS,
    *gsm_ext_runs.EXPERIMENTS,
    *timer_runs.EXPERIMENTS,
)
GROUPS = (
    *hiccup_runs.GROUPS,
    *eifel_runs.GROUPS,
    *s12_runs.GROUPS,
    *s13_runs.GROUPS,
    *gsm_runs.GROUPS,
    *gsm_ext_runs.GROUPS,
    *timer_runs.GROUPS,
    *retrace_targets.GROUPS,
)
GROUP_TITLES = {
    **hiccup_runs.GROUP_TITLES,
    **eifel_runs.GROUP_TITLES,
    **s12_runs.GROUP_TITLES,
    **s13_runs.GROUP_TITLES,
    **gsm_runs.GROUP_TITLES,
    **gsm_ext_runs.GROUP_TITLES,
    **timer_runs.GROUP_TITLES,
    **retrace_targets.GROUP_TITLES,
}
BY_ID = {e.id: e for e in EXPERIMENTS}
TRACED_RUNS: dict[str, Experiment] = {e.id: e for e in EXPERIMENTS if e.traced}
"""Every experiment with a figure or a trace-based target is also traced on the first seed."""
FIGURES: tuple[Figure, ...] = (
    *hiccup_runs.FIGURES,
    *eifel_runs.FIGURES,
    *s12_runs.FIGURES,
    *s13_runs.FIGURES,
    *gsm_runs.FIGURES,
    *timer_runs.FIGURES,
)
FIGURE_GROUP = {
    **hiccup_runs.FIGURE_GROUP,
    **eifel_runs.FIGURE_GROUP,
    **s12_runs.FIGURE_GROUP,
    **s13_runs.FIGURE_GROUP,
    **gsm_runs.FIGURE_GROUP,
    **timer_runs.FIGURE_GROUP,
}
"""The group of a figure without traced runs, or whose runs span groups."""
TARGETS: tuple[Target, ...] = (
    *hiccup_targets.TARGETS,
    *eifel_targets.TARGETS,
    *s12_targets.TARGETS,
    *s13_targets.TARGETS,
    *gsm_targets.TARGETS,
    *retrace_targets.TARGETS,
    *retrace_why.TARGETS,
    *gsm_ext_targets.TARGETS,
    *timer_targets.TARGETS,
)
TARGET_TABLES = (
    *hiccup_targets.TARGET_TABLES,
    *eifel_targets.TARGET_TABLES,
    *s12_targets.TARGET_TABLES,
    *s13_targets.TARGET_TABLES,
    *gsm_targets.TARGET_TABLES,
    *retrace_targets.TARGET_TABLES,
    *retrace_why.TARGET_TABLES,
    *gsm_ext_targets.TARGET_TABLES,
    *timer_targets.TARGET_TABLES,
)
TABLE_GROUP = {
    **hiccup_targets.TABLE_GROUP,
    **eifel_targets.TABLE_GROUP,
    **s12_targets.TABLE_GROUP,
    **s13_targets.TABLE_GROUP,
    **gsm_targets.TABLE_GROUP,
    **retrace_targets.TABLE_GROUP,
    **retrace_why.TABLE_GROUP,
    **gsm_ext_targets.TABLE_GROUP,
    **timer_targets.TABLE_GROUP,
}
"""The experiment group whose runs a target table needs."""
DEVIATIONS: dict[str, str] = {
    # anchor in docs/ludwig2000.md -> the mechanism, in one line.
    "s11-gain": (
        "the gain of the precise timer is the time it saves on each timeout-repaired drop over "
        "the length of a drop cycle: 0.53 s on cycles of about 4 s (36 drops in 146 s) gives "
        "+15 %; with the Eifel estimator in both arms (our ablation) it gives +32 %"
    ),
    "s12-restore-burst": (
        "after a spurious fast retransmit with pipe ≈ W, Eifel's restore sends the returned "
        "window at once into the 3-packet bottleneck queue, which drops a segment for real: a "
        "fast retransmit and a timeout follow; the burst pacer avoids it (RT14 holds with it)"
    ),
    "rt16-vj": (
        "TCP-Lite's Reno repairs one loss a window by fast retransmit and a reset flushes two "
        "packets: without VJ the second waits for the timer after the flight has drained, with "
        "VJ one timeout's go-back-N repairs the discarded rest of the flight; with NewReno VJ "
        "off is better in every run with a reset"
    ),
    "sub-minute-clustering": (
        "the chain's traces spread a minute's erasures as independent bursts over the whole "
        "minute; the dissertation's were clustered below the minute (a scale it does not "
        "publish): with fades as clustered as the published statistics allow (0.5 s, dense) "
        "fewer of the larger frames and packets are hit"
    ),
    "rt21-rwnd": (
        "Net/3 rounds the 8 KB socket buffer up to whole segments of 472 bytes: 8496 = 18 x 472, "
        "a load of 18; without the rounding 17"
    ),
}
"""The known deviations: anchor in ``docs/ludwig2000.md`` -> the mechanism, in one line."""

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
