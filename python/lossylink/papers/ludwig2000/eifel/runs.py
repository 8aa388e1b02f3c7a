"""Experiments and figures of three refinements of Ludwig (2000) that build on the Eifel
algorithm, on the same hiccup testbed (Ludwig 2000 §5.2.2 and §5.4.6):

- the late third duplicate ACK after a timeout (group ``late``, ``tcp.eifel_late_dupack``):
  a segment reordered past the retransmission timeout while the ACK direction holds its
  duplicates, so that the third duplicate arrives after the timer has resent it
  (``crates/lossylink/tests/it/hiccup_eifel.rs``
  ``late_third_dupack_after_a_timeout_is_suppressed_by_eifel``);
- the burst pacer (group ``pacer``, ``tcp.eifel_burst_pacer = "srtt"``): S8e, whose restore
  sends a burst, with the restored window spread over one smoothed RTT (``hiccup_eifel.rs``
  ``s8e_with_the_burst_pacer_spreads_the_restored_window_over_one_srtt``);
- RTO_AGG (group ``agg``, ``tcp.rto = "eifel-agg"``, ``tcp.rto_agg_k``): the self-training
  timer against the Eifel timer on a 400 KB transfer (``crates/lossylink/tests/it/rto_agg.rs``),
  and, as an observation the dissertation does not make, a set-up where the rule runs away.

The dissertation gives no numbers for any of them: the targets
(:mod:`lossylink.papers.ludwig2000.eifel.targets`) state its expectation in words and check
the mechanism as the Rust tests do.
"""

from __future__ import annotations

from lossylink.papers._base import Figure
from lossylink.papers.ludwig2000.experiment import Experiment, Shade
from lossylink.papers.ludwig2000.hiccup.runs import REORDER_S8E

LATE_FWD = '[{ kind = "reorder", at = "40.5s", length = 40 }]'
"""Segment 94 is held until 40 more data packets have passed: for the sender it is lost."""
LATE_REV = '[{ kind = "hold", at = "41.1s", duration = "12s" }]'
"""The ACK direction holds the duplicates (and every other ACK) from 41.1 s to 53.1 s."""
LATE_HOLD = (41.1, 53.1)
LATE_SEGMENT = 94
"""The reordered segment (0-based, in MSS), resent by the timer."""
AGG_TRANSFER = "400KB"
AGG_AT_S = 300.0
"""Where the trained RTO is read (rto_agg.rs)."""


def _late(scheme: str, policy: str | None) -> tuple[tuple[str, str], ...]:
    out = (
        ("scheme", scheme),
        ("hops.0.forward.hiccups", LATE_FWD),
        ("hops.0.reverse.hiccups", LATE_REV),
    )
    return out if policy is None else (*out, ("tcp.eifel_late_dupack", policy))


def _agg(rto: str, k: str | None = None, queue: str | None = None) -> tuple[tuple[str, str], ...]:
    out: tuple[tuple[str, str], ...] = (
        ("scheme", "e2e+eifel"),
        ("transfer", AGG_TRANSFER),
        ("tcp.rto", rto),
    )
    if queue is not None:
        out = (*out, ("hops.0.forward.queue", queue))
    return out if k is None else (*out, ("tcp.rto_agg_k", k))


LATE_SHADE = Shade(*LATE_HOLD, "ACK-path hold, 12 s")
EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "late-e2e", "late", "§3.1.2 late DUPACK", "-", "hiccup", _late("e2e", None),
        "segment 94 reordered past the RTO, ACK path held 41.1-53.1 s; BSD Reno", LATE_SHADE,
        params=(("late_dupack", "-"),),
    ),
    Experiment(
        "late-off", "late", "§3.1.2 late DUPACK", "-", "hiccup", _late("e2e+eifel", "off"),
        "the same with Eifel, eifel_late_dupack = off", LATE_SHADE,
        params=(("late_dupack", "off"),),
    ),
    Experiment(
        "late-halve", "late", "§3.1.2 late DUPACK", "-", "hiccup", _late("e2e+eifel", "halve"),
        "the same with Eifel, eifel_late_dupack = halve (Q3 (a))", LATE_SHADE,
        params=(("late_dupack", "halve"),),
    ),
    Experiment(
        "late-restore", "late", "§3.1.2 late DUPACK", "-", "hiccup",
        _late("e2e+eifel", "restore"),
        "the same with Eifel, eifel_late_dupack = restore (Q3 (b))", LATE_SHADE,
        params=(("late_dupack", "restore"),),
    ),
    Experiment(
        "s8e-pacer", "pacer", "S8e + burst pacer", "Fig 5-6", "hiccup",
        (("scheme", "e2e+eifel"), ("hops.0.forward.hiccups", REORDER_S8E),
         ("tcp.eifel_burst_pacer", "srtt")),
        "S8e with the burst pacer: the restored window leaves over one smoothed RTT",
        Shade(40.5, 40.5, "reorder, length 6"), params=(("burst_pacer", "srtt"),),
    ),
    Experiment(
        "agg-eifel", "agg", "§3.4 RTO_AGG", "Fig 5-18", "hiccup", _agg("eifel"),
        "400 KB with Eifel, no hiccup, the Eifel timer RTO_E", params=(("rto", "eifel"),),
    ),
    Experiment(
        "agg-k0.1", "agg", "§3.4 RTO_AGG", "Fig 5-18", "hiccup", _agg("eifel-agg", "0.1"),
        "the same with RTO_AGG, k = 0.1", params=(("rto", "eifel-agg"), ("k", "0.1")),
    ),
    Experiment(
        "agg-k0.05", "agg", "§3.4 RTO_AGG", "Fig 5-18", "hiccup", _agg("eifel-agg", "0.05"),
        "the same with RTO_AGG, k = 0.05 (Fig 5-18's k)",
        params=(("rto", "eifel-agg"), ("k", "0.05")),
    ),
    Experiment(
        "agg-q12-eifel", "agg", "§3.4 RTO_AGG (observation)", "-", "hiccup",
        _agg("eifel", queue="12"), "400 KB with Eifel, 12-packet interface queue, RTO_E",
        traced=False, params=(("rto", "eifel"), ("queue", 12)),
    ),
    Experiment(
        "agg-q12-k0.5", "agg", "§3.4 RTO_AGG (observation)", "-", "hiccup",
        _agg("eifel-agg", "0.5", "12"),
        "the same with RTO_AGG, k = 0.5: the rule runs away", traced=False,
        params=(("rto", "eifel-agg"), ("k", "0.5"), ("queue", 12)),
    ),
)  # fmt: skip
GROUPS = ("late", "pacer", "agg")
GROUP_TITLES = {
    "late": "Eifel: the late third duplicate ACK after a timeout (§3.1.2, §9 Q3)",
    "pacer": "Eifel: the burst pacer on S8e (§3.1.2)",
    "agg": "RTO_AGG, the self-training timer (§3.4, Fig 5-18)",
}
FIGURES: tuple[Figure, ...] = (
    Figure("late-dupack", "The late 3rd DUPACK: BSD Reno goes back N (top), Eifel (halve) "
           "suppresses it (bottom)", "seq",
           ("late-e2e", "late-halve"), xlim=(38.0, 72.0)),
    Figure("s8e-pacer", "S8e: Eifel's restore as a burst (top) and with the burst pacer "
           "(bottom)", "pacer", ("s8e", "s8e-pacer"), xlim=(47.0, 62.0)),
    Figure("fig5-18", "Fig 5-18 (measured): RTO_AGG trains the RTO below the Eifel timer's",
           "rto", ("agg-eifel", "agg-k0.1", "agg-k0.05")),
)  # fmt: skip
FIGURE_GROUP = {"s8e-pacer": "pacer"}
"""Figures whose runs span groups belong to one."""
