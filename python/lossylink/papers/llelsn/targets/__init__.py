"""The targets of the LL-ELSN study (eln-llelsn spec §7.2, T004-1..17), one module per target
table (:mod:`~lossylink.papers.llelsn.targets.downlink`,
:mod:`~lossylink.papers.llelsn.targets.network`, :mod:`~lossylink.papers.llelsn.targets.arq`),
computed with :mod:`~lossylink.papers.llelsn.targets.measures`. All are ordinal or relative
(the paper prints no goodput numbers, §6.2); each is computed from the means over seeds of the
aggregate goodput (``agg.aggregate_goodput_mbps``) unless it says otherwise."""

from __future__ import annotations

from lossylink.papers._base import Target
from lossylink.papers.llelsn.targets import arq, downlink, earned, network

TARGET_TABLES = ("downlink", "network", "arq")


TABLE_TITLES = {
    "downlink": "One download: FER, RTT, uplink (Figs 6-8)",
    "network": "Many flows: N, fairness, background, friendliness (Figs 9-12, 14-15)",
    "arq": "Link retransmissions: ERSN, disconnection, retry limit, burstiness (Figs 13, 16-18)",
}


DEVIATIONS: dict[str, str] = earned.DEVIATIONS
"""The deviations a measured mechanism explains (docs/llelsn.md anchors), with the band and the
counterfactual run each must show (:mod:`~lossylink.papers.llelsn.targets.earned`)."""


PAIRED = ("T004-1.reno", "T004-10.best", "T004-12.gain")
"""Targets whose verdict compares two experiments seed by seed and counts a tie within the
paired 95 % interval (:func:`~lossylink.papers.llelsn.targets.measures.paired`): one seed
cannot tell a tie, so ``--quick`` runs their points on as many seeds as a P1 target's."""

ONE_SEED_FLIPS = ("T004-11.sack",)
"""Targets whose verdict one seed flipped against the full run's: T004-11.sack (LL-ELSN and
HACK within 10 % of SACK beside the Reno flows) was "explained" on seed 1 (0.100, at the noise
allowance's edge) and "pass" at 20 seeds (0.038), in the eighth and tenth sessions' full reruns
(docs/llelsn.md); ``--quick`` runs their points on as many seeds as a P1 target's."""


TARGETS: tuple[Target, ...] = earned.earn((*downlink.TARGETS, *network.TARGETS, *arq.TARGETS))
