"""The LL-ELSN study ("Cross-layer explicit link status notification to improve TCP
performance in wireless networks", EURASIP JWCN 2009): the catalogue of ``lossylink reproduce
llelsn`` (eln-llelsn spec §4.1-4.14, §5.4, §6.2, §7.2).

- :data:`EXPERIMENTS` (:mod:`lossylink.papers.llelsn.runs`): every experiment of §5.4.2 on the
  ``llelsn`` network (an 802.11b DCF cell behind two 10 Mb/s wired hops), Figs 6-18, plus the
  collision ablation of T004-3; schemes not registered yet are reported as not available;
- :data:`TARGETS` (:mod:`lossylink.papers.llelsn.targets`): T004-1..17;
- :data:`FIGURES`: one per experiment group in the paper's form; report sections in
  :mod:`lossylink.papers.llelsn.report`.
"""

from __future__ import annotations

import dataclasses

from lossylink.papers._base import Figure, Selection, Target
from lossylink.papers.llelsn import runs as _runs
from lossylink.papers.llelsn import targets as _targets
from lossylink.papers.llelsn.runs import GROUP_TITLES, GROUPS, Experiment

TRACED_RUNS: dict[str, Experiment] = {}
FIGURES: tuple[Figure, ...] = tuple(
    Figure(f"fig-{g}", GROUP_TITLES[g], "curve", table=g) for g in GROUPS if g != "ablation"
)
TARGETS: tuple[Target, ...] = _targets.TARGETS
TARGET_TABLES = _targets.TARGET_TABLES
DEVIATIONS = _targets.DEVIATIONS

PAPER = (
    "Cross-layer explicit link status notification to improve TCP performance in wireless "
    "networks (LL-ELSN), EURASIP J. Wireless Communications and Networking, 2009"
)
NAME = "llelsn"
DOC = "docs/llelsn.md"
PAPER_LABEL = "paper"
TRANSFER = "long-lived"
DEFAULT_SEEDS = 50
"""50 runs per point with link-layer ARQ, 20 without (each experiment caps its own, §5.4.1)."""
QUICK_P1_SEEDS = 10
"""``--quick`` runs the points a P1 target reads with this many seeds (one for the others), so
that one seed's fluke does not decide a P1 verdict (with one seed, six verdicts differed from
the full run's; with five, under ns-2's tick, two: LL-ELSN's FER-9 % runs stall in the timer's
backoff on 4 of 20 seeds but on 2 of seeds 1-5, a mean of 1.205 Mb/s against 1.554 at full
seeds and 1.565 over seeds 1-10; docs/llelsn.md#the-full-rerun-with-the-tick)."""
QUICK_SEEDS = QUICK_P1_SEEDS
"""The seeds ``--quick`` offers; each experiment takes its own ``quick_seeds`` of them."""

_P1_NEEDS = {n for t in TARGETS if "(P1" in t.tolerance for n in t.all_needs()}
_MORE_SEEDS_NEEDS = {
    n
    for t in TARGETS
    if t.id in (*_targets.PAIRED, *_targets.ONE_SEED_FLIPS)
    for n in t.all_needs()
}
"""The points of the targets that count paired ties (``targets.PAIRED``): one seed cannot tell
a tie (T004-10.best and T004-12.gain passed on one seed and failed at full seeds by less than
the seeds' noise); and of those one seed flipped (``targets.ONE_SEED_FLIPS``). ``--quick`` runs
them, and their counterfactual runs (``<id>~<key>``, so that a swapped point has its point's
seeds), on :data:`QUICK_P1_SEEDS` as the P1 points."""


def _quick_more(exp_id: str) -> bool:
    return exp_id in _P1_NEEDS or exp_id.split("~")[0] in _MORE_SEEDS_NEEDS


EXPERIMENTS: tuple[Experiment, ...] = tuple(
    dataclasses.replace(e, quick_seeds=QUICK_P1_SEEDS) if _quick_more(e.id) else e
    for e in _runs.EXPERIMENTS
)
BY_ID = {e.id: e for e in EXPERIMENTS}


def _group_of(exp_id: str) -> str:
    return BY_ID[exp_id].group


def select(groups: set[str], figures: bool = True) -> Selection:
    """The experiments of ``groups``, the targets that read any of them (with the runs of other
    groups they compare against), and the figures of the selected groups."""
    targets = tuple(
        t for t in TARGETS if any(n in BY_ID and _group_of(n) in groups for n in t.needs)
    )
    needed = {n for t in targets for n in t.all_needs()}
    figs = tuple(f for f in FIGURES if f.table in groups) if figures else ()
    experiments = tuple(e for e in EXPERIMENTS if e.group in groups or e.id in needed)
    return Selection(experiments, (), targets, figs)


__all__ = [
    "BY_ID",
    "DEVIATIONS",
    "EXPERIMENTS",
    "FIGURES",
    "GROUPS",
    "GROUP_TITLES",
    "TARGETS",
    "TARGET_TABLES",
    "TRACED_RUNS",
    "Experiment",
    "select",
]
