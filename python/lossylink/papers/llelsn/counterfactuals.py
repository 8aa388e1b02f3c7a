"""The counterfactual runs of the LL-ELSN study (docs/llelsn.md, "Deviations a measured
mechanism explains"): for each known deviation, the experiments it reads run again with the
mechanism switched off (or ns-2's own setting switched on), ids ``<experiment>~<key>``. What
each must show, and the band its mechanism predicts, are in
:mod:`lossylink.papers.llelsn.targets.earned`. None of these settings is the study's: they test
a mechanism and never fill a gap."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CounterfactualRuns:
    """One counterfactual: what changes, and for which experiments of the catalogue."""

    what: str
    overrides: tuple[tuple[str, str], ...]
    of: str
    """A regular expression over experiment ids: the experiments it runs again."""
    also: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    """More overrides for some of them: ``(pattern, overrides)``, applied after ``overrides``
    to the experiments whose id the pattern matches in full (a two-part counterfactual that
    changes the cell for every scheme and the senders of one)."""


IDEAL_BWE_CELL = "3710kbps"
"""The cell's capacity in Fig. 12's setting (:data:`lossylink.papers.llelsn.runs.IDEAL_BWE_CELL`,
repeated: ``runs`` imports this module). No momentary available rate of one flow exceeds it."""
IDEAL_BWE_SHARE = "371kbps"
"""A tenth of it: a flow's measured share (:data:`lossylink.papers.llelsn.runs.IDEAL_BWE_SHARE`)."""


def _ideal_bwe_flows(rate: str) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Fig. 12's ideal-BWE runs with their oracles given the fixed ``rate`` (not measured):
    k = 0-10 replaced flows, the first k of each run (:func:`lossylink.papers.llelsn.runs.
    flows`), per flow, since the Reno flows beside them refuse the knobs."""
    return tuple(
        (
            rf"friendly-{k}-e2e-ideal-bwe",
            tuple(
                o
                for i in range(k)
                for o in (
                    (f"flows.{i}.tcp.ideal_bwe_available", "given"),
                    (f"flows.{i}.tcp.ideal_bwe_rate", rate),
                )
            ),
        )
        for k in range(11)
    )


RUNS: dict[str, CounterfactualRuns] = {
    "ersn-oldest": CounterfactualRuns(
        'ERSN restarts only the timer of the segment it guards (tcp.ersn_restart = "oldest")',
        (("tcp.ersn_restart", "oldest"),),
        r"retry-[0-9.]+-r2-ll-elsn",
    ),
    "snoop-b97": CounterfactualRuns(
        'Balakrishnan97\'s snoop (ll.snoop_style = "balakrishnan97": the local resend at the '
        "head of the queue, on the first duplicate) instead of ns-2's",
        (("ll.snoop_style", "balakrishnan97"),),
        r"fer-[0-9.]+-snoop-newreno",
    ),
    "no-collisions": CounterfactualRuns(
        "no collisions in the cell (cells.0.dcf.collisions = false), Westwood+ and TIBET",
        (("cells.0.dcf.collisions", "false"),),
        r"rtt-[0-9]+-(e2e-westwood|e2e-tibet)",
    ),
    "staggered-starts": CounterfactualRuns(
        "the twenty flows start 0.5 s apart (flows.i.start = i x 0.5 s) instead of together: "
        "a later flow measures its minimum RTT behind the others' standing queue",
        tuple((f"flows.{i}.start", f"{i * 0.5:g}s") for i in range(20)),
        r"nsweep-20-.*",
    ),
    "no-header": CounterfactualRuns(
        "LHP without the link's header protection (its base: Reno with a fast recovery per "
        "loss, which the preset's Reno under ns-2's bugFix_ is not; "
        "cells.0.dcf.header_protection = false)",
        (("cells.0.dcf.header_protection", "false"),),
        r"pareto-8-e2e-lhp",
    ),
    "short-ap-queue": CounterfactualRuns(
        "a 10-packet interface queue at the access point (cells.0.queue = 10) instead of 50: "
        "little standing queue, so the round trip is near RTT_min, k = 0 and 8",
        (("cells.0.queue", "10"),),
        r"friendly-(0|8)-(e2e-westwood|e2e-veno|e2e-tibet|e2e-ideal-bwe)",
    ),
    "bwe-share": CounterfactualRuns(
        "ideal BWE's oracle given a fixed rate, the flow's measured share of the cell "
        f'({IDEAL_BWE_SHARE}: flows.i.tcp.ideal_bwe_available = "given"), instead of the '
        "live available rate, k = 2-8",
        (),
        r"friendly-[2-8]-e2e-ideal-bwe",
        also=_ideal_bwe_flows(IDEAL_BWE_SHARE),
    ),
    "bwe-cell": CounterfactualRuns(
        "ideal BWE's oracle given a fixed rate, the whole cell "
        f'({IDEAL_BWE_CELL}: flows.i.tcp.ideal_bwe_available = "given"): the most any '
        "momentary reading of the available rate could give, k = 2-8",
        (),
        r"friendly-[2-8]-e2e-ideal-bwe",
        also=_ideal_bwe_flows(IDEAL_BWE_CELL),
    ),
    "per-station": CounterfactualRuns(
        'per-station queues at the access point (cells.0.dcf.ap_queue = "per-station") '
        "instead of ns-2's one shared FIFO",
        (("cells.0.dcf.ap_queue", "per-station"),),
        r"friendly-[0-9]+-(ll-elsn|e2e-hack|e2e-ietf-sack)",
    ),
    "window-field": CounterfactualRuns(
        'the 16-bit window (tcp.window = "field", 65 535 bytes) instead of the unbounded one',
        (("tcp.window", "field"),),
        r"disconnect-.*|congestion-[0-9]+-(ll-elsn|ll-elsn-lhp)",
    ),
    "no-server-drops": CounterfactualRuns(
        'no queue drops at the server: the 16-bit window (tcp.window = "field") and a '
        "100-packet server queue (links.0.queue = 100)",
        (("tcp.window", "field"), ("links.0.queue", "100")),
        r"congestion-2-(ll-elsn|ll-elsn-lhp)",
    ),
    "reno-senders-no-collisions": CounterfactualRuns(
        "no collisions in the cell (cells.0.dcf.collisions = false) for Reno and Snoop, and "
        "Snoop over Reno senders (scheme ll-tcp-aware: the same ns-2 snoop, the senders' "
        "recovery Reno instead of NewReno), R = 1 and 2, FER < 3 %",
        (("cells.0.dcf.collisions", "false"),),
        r"retry-(0.5|1|2)-r(1|2)-(e2e|snoop-newreno)",
        also=((r".*-snoop-newreno", (("scheme", "ll-tcp-aware"),)),),
    ),
    "lhp-clocking": CounterfactualRuns(
        "LHP's packet list with each duplicate at a notified hole clocking out one new segment "
        '(tcp.lhp_list_dupacks = "clocking", still kept out of the dupack count; RFC 3042 §2) '
        "instead of keeping the window until the resend is acknowledged: the other reading of "
        "the packet list (spec §4.11 (c) says only that listed segments are resent at once and "
        "excluded from the dupack count), Figs 11, 14 and 15",
        (("tcp.lhp_list_dupacks", "clocking"),),
        r"congestion-[0-9]+-ll-elsn-lhp|pareto-8-e2e-lhp|senders-[0-9]+-ll-elsn-lhp",
    ),
    "dcr-reno": CounterfactualRuns(
        "TCP-DCR over Reno (scheme e2e-dcr) instead of over SACK: the other reading of the "
        "recovery DCR delays (the seed names only 'the open sources [37]'), Fig. 11",
        (("scheme", "e2e-dcr"),),
        r"pareto-8-e2e-dcr-sack",
    ),
    "reno-window": CounterfactualRuns(
        "Reno halving its window, not its flight (tcp.loss_window = true: ns-2's slowdown halves "
        "min(cwnd_, wnd_), tcp/tcp.cc:1252-1290, so singledup_'s two segments beyond cwnd do not "
        "count), and TIBET's interval filter taking each ACK gap capped at 100 ms "
        "(tcp.tibet_max_gap = 100ms; not TIBET's filter)",
        (),
        r"fer-[0-9.]+-(e2e|e2e-tibet)",
        also=(
            (r"fer-[0-9.]+-e2e", (("tcp.loss_window", "true"),)),
            (r"fer-[0-9.]+-e2e-tibet", (("tcp.tibet_max_gap", "100ms"),)),
        ),
    ),
    "timestamps": CounterfactualRuns(
        "LL-ELSN's sender with RFC 7323 timestamps (tcp.timestamps = true; ns-2's default is "
        "timestamps_ false): every ACK times a segment, retransmissions included, so no "
        "timeout's backoff outlives the next ACK (Karn's rule leaves no sample after a "
        "timeout without them)",
        (("tcp.timestamps", "true"),),
        r"fer-[0-9.]+-ll-elsn",
    ),
    "tibet-gap": CounterfactualRuns(
        "TIBET's interval filter takes each ACK gap capped at 100 ms, about two RTT_min "
        "(tcp.tibet_max_gap = 100ms; not TIBET's filter): a timeout's idle wait no longer "
        "counts in full",
        (("tcp.tibet_max_gap", "100ms"),),
        r"fer-[0-9.]+-e2e-tibet",
    ),
    "bugfix-off": CounterfactualRuns(
        "Reno's recovery without ns-2's bugFix_ (tcp.reno_bugfix = false: a fast retransmit "
        "for each loss, not one per window; ns-default.tcl:954 sets it true), Fig. 7 at "
        "d = 1 ms",
        (("tcp.reno_bugfix", "false"),),
        r"rtt-1-(e2e|e2e-westwood|e2e-tibet)",
    ),
    "ns2-rules-off": CounterfactualRuns(
        "none of the three ns-2 rules the preset follows where the seed is silent "
        "(tcp.reno_bugfix, tcp.limited_transmit and tcp.loss_window false: one fast recovery "
        "per loss, no singledup_, the loss response halving the flight), Fig. 11 at 8 Mb/s",
        (
            ("tcp.reno_bugfix", "false"),
            ("tcp.limited_transmit", "false"),
            ("tcp.loss_window", "false"),
        ),
        r"pareto-8-[a-z0-9-]+",
    ),
}
"""The counterfactual runs by key (``<experiment>~<key>``)."""


def experiments(base: Sequence[Any]) -> list[Any]:
    """The counterfactual runs of ``base``'s experiments (each key's ``of`` pattern), with its
    overrides last so that they win over the experiment's own."""
    out = []
    for key, cf in RUNS.items():
        pattern = re.compile(cf.of)
        for e in base:
            if pattern.fullmatch(e.id):
                more = tuple(o for pat, ov in cf.also if re.fullmatch(pat, e.id) for o in ov)
                out.append(
                    dataclasses.replace(
                        e,
                        id=f"{e.id}~{key}",
                        overrides=(*e.overrides, *cf.overrides, *more),
                        description=f"{e.description}; counterfactual: {cf.what}",
                    )
                )
    return out


WHAT = {key: cf.what for key, cf in RUNS.items()}
"""Each counterfactual in words (the report's ``what``)."""
