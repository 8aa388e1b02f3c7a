"""Balakrishnan, Padmanabhan, Seshan and Katz, "A Comparison of Mechanisms for Improving TCP
Performance over Wireless Links", IEEE/ACM ToN 5(6), 1997: the experiment catalogue.

Everything :func:`lossylink.reproduce.balakrishnan97` runs and checks is data in this module
(kept in :mod:`lossylink.papers.balakrishnan97.runs` and
:mod:`lossylink.papers.balakrishnan97.targets`):

- :data:`CONFIGS`: the three testbed columns of Tables 2-4 (LAN 8 KiB, LAN 32 KiB, WAN 32 KiB);
- :data:`TABLE_2`, :data:`TABLE_3`, :data:`TABLE_4`: the paper's cells;
- :data:`EXPERIMENTS`: every run configuration (tables, loss-free peaks, the burst experiment of
  §4.5, the error-rate sweep of §4.6);
- :data:`FIGURES`: the bar charts, sweep and burst plots drawn from the results, and the traced
  runs behind the time-sequence and cwnd figures;
- :data:`TARGETS`: every reproduction target of the spec (§7.1-§7.3 and §B.11 (a)) with the
  paper's value, the accepted range and, where we knowingly differ, the anchor of the section of
  ``docs/reproduction.md`` that names the mechanism.

An experiment whose scheme is not registered, or whose scenario keys the Rust side rejects, is
reported as "not available" (and every target that needs it too), so the catalogue already lists
the link-layer and split-connection schemes and fills in as they land.
"""

from __future__ import annotations

import dataclasses

from lossylink.papers._base import (
    INF,
    WIRELESS,
    Counterfactual,
    Figure,
    Measured,
    Selection,
    Target,
    Unavailable,
    mean,
)
from lossylink.papers.balakrishnan97 import earned as _earned
from lossylink.papers.balakrishnan97.runs import (
    BURST_CONFIG,
    BURST_SCHEMES,
    BURST_SIZES,
    BURST_SPACINGS,
    CONFIGS,
    DEFAULT_SEEDS,
    DOC,
    ERROR_EVERY,
    EXPERIMENTS,
    FIGURES,
    GROUP_TITLES,
    GROUPS,
    NAME,
    PAPER,
    PAPER_LABEL,
    PEAK_SEEDS,
    PEAKS,
    QUICK_SEEDS,
    SWEEP_CONFIG,
    SWEEP_EVERY_KIB,
    SWEEP_SCHEMES,
    TABLE_2,
    TABLE_3,
    TABLE_4,
    TABLES,
    TRACED_RUNS,
    TRANSFER,
    WAN_BDP_BYTES,
    Cell,
    Config,
    Experiment,
    Table,
    TracedRun,
    burst_error,
    cell_id,
)
from lossylink.papers.balakrishnan97.targets import (
    ORDERING_DEVIATIONS,
    ORDERING_MIN_FRACTION,
    ORDERING_MIN_GAP,
    TABLE3_KNOWN_DEVIATIONS,
    TABLE3_TOL,
    _calibration_targets,
    _ordering_targets,
    _table3_targets,
    pct_of_max,
    peak,
)
from lossylink.papers.balakrishnan97.targets_bs import (
    TABLE2_KNOWN_DEVIATIONS,
    TABLE4_KNOWN_DEVIATIONS,
    _table2_targets,
    _table4_targets,
)

__all__ = [
    "BURST_CONFIG",
    "BURST_SCHEMES",
    "BURST_SIZES",
    "BURST_SPACINGS",
    "CONFIGS",
    "DEFAULT_SEEDS",
    "DEVIATIONS",
    "DOC",
    "ERROR_EVERY",
    "EXPERIMENTS",
    "FIGURES",
    "GROUPS",
    "GROUP_TITLES",
    "INF",
    "NAME",
    "ORDERING_DEVIATIONS",
    "ORDERING_MIN_FRACTION",
    "ORDERING_MIN_GAP",
    "PAPER",
    "PAPER_LABEL",
    "PEAKS",
    "PEAK_SEEDS",
    "QUICK_SEEDS",
    "SWEEP_CONFIG",
    "SWEEP_EVERY_KIB",
    "SWEEP_SCHEMES",
    "TABLE2_KNOWN_DEVIATIONS",
    "TABLE3_KNOWN_DEVIATIONS",
    "TABLE3_TOL",
    "TABLE4_KNOWN_DEVIATIONS",
    "TABLES",
    "TABLE_2",
    "TABLE_3",
    "TABLE_4",
    "TARGETS",
    "TARGET_TABLES",
    "TRACED_RUNS",
    "TRANSFER",
    "WAN_BDP_BYTES",
    "WIRELESS",
    "Cell",
    "Config",
    "Counterfactual",
    "Experiment",
    "Figure",
    "Measured",
    "Table",
    "Target",
    "TracedRun",
    "Unavailable",
    "burst_error",
    "cell_id",
    "mean",
    "pct_of_max",
    "peak",
    "select",
]

# -- targets, assembled ----------------------------------------------------------------


def _with_deviations(targets: list[Target], known: dict[str, str]) -> list[Target]:
    return [dataclasses.replace(t, deviation=known[t.id]) if t.id in known else t for t in targets]


TARGETS: tuple[Target, ...] = tuple(
    _earned.earn(
        (
            *_calibration_targets(),
            *_with_deviations(_table2_targets(), TABLE2_KNOWN_DEVIATIONS),
            *_table3_targets(),
            *_with_deviations(_table4_targets(), TABLE4_KNOWN_DEVIATIONS),
            *_ordering_targets(),
        )
    )
)
EXPERIMENTS = (*EXPERIMENTS, *_earned.EXPERIMENTS)
"""Every run configuration, with the counterfactual runs of the deviations (``earned``)."""
TARGET_TABLES = ("Calibration", "Table 2", "Table 3", "Table 4", "Orderings")

DEVIATIONS: dict[str, str] = {
    # anchor in docs/reproduction.md -> the mechanism, in one line.
    "ll-fast-repair": (
        "our local repair is near-ideal: the base station resends at the head of its queue on "
        "the 2nd dupack, about two frame times after the loss, while its queue keeps the LAN "
        "link busy, so the sender's redundant fast retransmit and halving cost only ~2% of "
        "airtime; the paper's ~20% LAN loss for LL is more than these mechanisms produce here"
    ),
    "ll-wan-empty-queue": (
        "in our WAN the 1.43 Mb/s wired path is slower than the WaveLAN, so the base-station "
        "queue is nearly empty: only about two dupacks precede the local retransmission and "
        "the sender reaches three on ~16% of losses, where the paper's 98.4% wired goodput "
        "implies ~70%"
    ),
    "ll-optimum": (
        "TCP-aware local recovery reaches (1 - PER) of the loss-free peak (about 1.47 Mb/s in "
        "the LAN); the paper's cells are 7-12% below that optimum, about 25 ms of idle link per "
        "loss that our model has no mechanism for"
    ),
    "ll-wan-spare": (
        "in the WAN the bottleneck is the wired path; local retransmissions use spare WaveLAN "
        "capacity, so TCP-aware schemes stay at the loss-free peak (1.35 Mb/s)"
    ),
    "wan-ceiling": (
        "a sender that halves cwnd on every wireless loss stays near the square-root bound of "
        "one halving per 2.2% loss with delayed ACKs (about 8 segments, ~0.48 Mb/s at 135 ms); "
        "the paper's NewReno (0.64) and IETF SACK (0.80) WAN values lie above that bound"
    ),
    "smart-lan": (
        "our SMART resends every hole on the first ACK that shows it and a lost retransmission "
        "again once a slow-timer tick has passed (BSD/OS's only clock), so it almost never "
        "times out (0.6 timeouts per run at LAN 8 KB, 0.4 on a fine clock); the paper's SMART "
        "stalled more often"
    ),
    "net3-reno": (
        "Net/3's own rules make our BSD Reno recover more often without a timeout: socket "
        "buffers rounded to whole segments (8 KB = 6 segments, a sixth duplicate ACK) and cwnd "
        "kept at ssthresh + 3 segments after a recovery of three duplicates; E2E LAN 8 KB takes "
        "24.8 timeouts per run with both, 41.7 without (0.82 against 0.64 Mb/s), so the paper's "
        "stack lost more to timeouts than these rules allow"
    ),
    "split-reno-leg": (
        "the wireless leg of SPLIT is our BSD Reno over a 10 ms path, so SPLIT runs like our "
        "E2E Reno in the LAN (about 22 wireless-leg timeouts per run at 32 KB with Net/3's "
        "recovery exit, Fig. 10 shows about 40); the paper's SPLIT is 14% below its own E2E, a "
        "per-packet cost at the base station that our proxy does not model"
    ),
    "split-wan": (
        "the wireless leg does not see the WAN round trip, so our SPLIT runs at least at its LAN "
        "speed in the WAN (1.04 Mb/s, 0.84 before Net/3's buffer and recovery-exit rules), with "
        "the LAN deviation above; the ratios to E2E and SPLIT-SMART in the WAN follow"
    ),
    "reno-inflation": (
        "the trace's largest wireless-leg cwnd is Reno's fast-recovery inflation (ssthresh plus "
        "one segment per dupack, about 34 KiB); outside recovery the cwnd peaks at about 22 KiB, "
        "as in Fig. 11"
    ),
    "ietf-sack-small-windows": (
        "the Fall-Floyd IETF SACK sender waits for three duplicate ACKs and cannot detect lost "
        "retransmissions, so about 20 coarse timeouts per run remain at LAN 32 KB"
    ),
    "eln-lan": (
        "ELN never cuts the window and, with a 10 ms LAN round trip, repairs a marked loss one "
        "RTT later; ELN-RXMT is left with about 4 coarse timeouts per run, several times fewer "
        "than the paper's numbers imply"
    ),
    "eln-rxmt-near-smart": (
        "ELN-RXMT resends on the first duplicate ACK and so repairs almost every loss within a "
        "round trip at both buffer sizes (about 3.4 coarse timeouts per run at 8 and 32 KB): "
        "its LAN cells sit near SMART's, which leaves SMART a smaller lead than the paper's and "
        "ELN-RXMT about the same gain over ELN at both sizes (paper_table3.rs checks the bands)"
    ),
    "newreno-lan8": (
        "at an 8 KB window most Reno timeouts come from too few duplicate ACKs (a delayed ACK "
        "turns the first duplicate into a new ACK), which NewReno does not fix"
    ),
}


# -- selection (``--only``) -----------------------------------------------------------------

_TABLE_GROUP = {
    "Table 2": "table2",
    "Table 3": "table3",
    "Table 4": "table4",
    "Calibration": "peaks",
    "Orderings": "table3",
}
"""The experiment group whose runs a target table needs."""


def _figure_wanted(fig: Figure, groups: set[str]) -> bool:
    if fig.kind == "bars":
        return fig.table in groups
    if fig.kind in ("sweep", "burst"):
        return fig.kind in groups
    # Trace figures belong with the table of their schemes.
    schemes_ = {TRACED_RUNS[r].scheme for r in fig.runs}
    table_of = {s: t.key for t in TABLES for s in t.cells}
    return any(table_of.get(s) in groups for s in schemes_)


def select(groups: set[str], figures: bool = True) -> Selection:
    """The experiments, traced runs, targets and figures of ``groups``."""
    figs = tuple(f for f in FIGURES if _figure_wanted(f, groups)) if figures else ()
    targets = tuple(t for t in TARGETS if _TABLE_GROUP[t.table] in groups)
    run_ids = {r for f in figs for r in f.runs} | {
        n for t in targets for n in t.all_needs() if n in TRACED_RUNS
    }
    return Selection(
        experiments=tuple(e for e in EXPERIMENTS if e.group in groups),
        traced_runs=tuple(TRACED_RUNS[r] for r in TRACED_RUNS if r in run_ids),
        targets=targets,
        figures=figs,
    )
