"""Buchholcz, Gricser, Ziegler and Van Do, "Explicit loss notification to improve TCP
performance over wireless networks" (TCP-ELN): the catalogue of ``lossylink reproduce
buchholcz`` (eln-llelsn spec §3, §5.1-5.3, §6.1, §7.1).

- :data:`EXPERIMENTS` (:mod:`lossylink.papers.buchholcz.runs`): Reno against TCP-ELN on the
  ``eln5`` network, FTP and web traffic, uniform and Markov (Table 1) errors on the radio
  downlinks, and the Fig. 4 packet; beside the headline runs, every reading the paper leaves
  open (ELN knobs, TCP baseline, web load, HACK identification) as variants, whose targets
  form the bands of :mod:`lossylink.papers.buchholcz.bands`;
- :data:`TARGETS` (:mod:`lossylink.papers.buchholcz.targets`): T002-1..12 as the spec states
  them (ratios only, §6.1.3);
- the counterfactual runs of the two deviations explained by a mechanism (group
  ``counterfactual``, :data:`runs.COUNTERFACTUALS`) and the bands those mechanisms predict
  (:mod:`lossylink.papers.buchholcz.earned`);
- :data:`FIGURES`: Figs 4 and 6-9 in the paper's form; the report sections are in
  :mod:`lossylink.papers.buchholcz.report`.
"""

from __future__ import annotations

from lossylink.papers._base import Figure, Selection, Target
from lossylink.papers.buchholcz import runs as _runs
from lossylink.papers.buchholcz import targets as _targets
from lossylink.papers.buchholcz.runs import BY_ID, EXPERIMENTS, GROUP_TITLES, GROUPS, Experiment

TRACED_RUNS: dict[str, Experiment] = {e.id: e for e in EXPERIMENTS if e.traced}
FIGURES: tuple[Figure, ...] = (
    Figure("fig4", "Fig. 4: cwnd when the 16th packet is corrupted, Reno and TCP-ELN", "cwnd",
           runs=("fig4-reno", "fig4-eln")),
    Figure("fig6", "Fig. 6: FTP, uniform error: throughput and relative improvement", "curve",
           table="ftp-uniform"),
    Figure("fig7", "Fig. 7: FTP, Markov models 1-9: throughput and relative improvement",
           "curve", table="ftp-markov"),
    Figure("fig8", "Fig. 8: web, uniform error: mean page response time and reduction",
           "curve", table="web-uniform"),
    Figure("fig9", "Fig. 9: web, Markov models 1-9: mean page response time and reduction",
           "curve", table="web-markov"),
)  # fmt: skip
TARGETS: tuple[Target, ...] = _targets.TARGETS
TARGET_TABLES = _targets.TARGET_TABLES
DEVIATIONS = _targets.DEVIATIONS

PAPER = (
    "P. Buchholcz, A. Gricser, T. Ziegler, T. Van Do: Explicit loss notification to improve "
    "TCP performance over wireless networks (TCP-ELN)"
)
NAME = "buchholcz"
DOC = "docs/buchholcz.md"
"""The page whose anchors explain the known deviations."""
PAPER_LABEL = "paper"
TRANSFER = "long-lived"
"""FTP downloads run for the whole run; web sessions draw their objects."""
DEFAULT_SEEDS = 20
"""The spec's "at least 20 seeds" (§6.1)."""
QUICK_SEEDS = 3


def _group_of(exp_id: str) -> str:
    return BY_ID[exp_id].group


def select(groups: set[str], figures: bool = True) -> Selection:
    """The experiments of ``groups``, the targets that read any of them (with the runs of other
    groups those compare against), and the figures of the selected groups."""
    targets = tuple(t for t in TARGETS if any(_group_of(n) in groups for n in t.needs))
    # With the runs their deviations' bands and counterfactuals read.
    needed = {n for t in targets for n in t.all_needs()}
    figs = (
        tuple(
            f for f in FIGURES
            if (f.table in groups) or any(_group_of(r) in groups for r in f.runs)
        )
        if figures
        else ()
    )  # fmt: skip
    needed |= {r for f in figs for r in f.runs}
    # A variant that changes TCP-ELN only is compared with the headline Reno of its setting.
    needed |= {
        e.id.split("~")[0].replace("-eln", "-reno")
        for e in EXPERIMENTS
        if e.group in groups
        and e.variant
        and e.label == "eln"
        and not _runs.BY_VARIANT[e.variant].reno
    }
    experiments = tuple(e for e in EXPERIMENTS if e.group in groups or e.id in needed)
    traced = tuple(e for e in experiments if e.traced)
    return Selection(experiments, traced, targets, figs)


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

_ = _runs
