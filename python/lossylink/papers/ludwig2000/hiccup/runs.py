"""Experiments and figures of Ludwig, "Eliminating Inefficient Cross-Layer Interactions in
Wireless Networking", PhD dissertation, RWTH Aachen, 2000: the hiccup experiments of
Chapters 4 and 5 (Ludwig 2000 §3.3.3, §4.1.4, §5.1, §5.2 and §5.4.5; experiments S8a-S8f
and S11, targets RT8-RT12, RT30).

All runs use the ``hiccup`` preset (two BSD hosts on a 9.6 kbit/s PPP link, MSS 460 with
timestamps, an advertised window of 18 segments), except the LAN delay-spike check. The
scenario overrides and the checks mirror the Rust integration tests that already hold them:
``crates/lossylink/tests/it/hiccup_eifel.rs`` (S8a-S8e, the LAN spike), ``outage_s8f.rs`` (S8f) and
``precise_rexmt.rs`` (S11). The runs have no random losses: every seed gives the same hiccup
run, so one seed is the default.

This module holds the experiments and figures; the targets are in
:mod:`lossylink.papers.ludwig2000.hiccup.targets`, the figures in
:mod:`lossylink.papers.ludwig2000.hiccup.report`, and :mod:`lossylink.papers.ludwig2000` is the
catalogue that puts the families together.
"""

from __future__ import annotations

from lossylink.papers._base import Figure
from lossylink.papers.ludwig2000.experiment import Experiment, Shade

MSS = 460
"""Hiccup testbed: MTU 512 less 20 IP, 20 TCP and 12 timestamp bytes."""
RWND = 8496
"""The advertised window: 18 segments (§5.5 H1)."""
LAN_MSS = 1400
LAN_WINDOW = 32 * 1024

HOLD_13S = '[{ kind = "hold", at = "29.8s", duration = "13s" }]'
HOLD_13S_IP = '[{ kind = "hold", at = "29.8s", duration = "13s", stage = "ip" }]'
HOLD_12S = '[{ kind = "hold", at = "43.3s", duration = "12s" }]'
HOLD_12S_IP = '[{ kind = "hold", at = "43.3s", duration = "12s", stage = "ip" }]'
REORDER_S8C = '[{ kind = "reorder", at = "37.7s", length = 6, stage = "ip" }]'
REORDER_S8E = '[{ kind = "reorder", at = "40.5s", length = 6, stage = "ip" }]'
OUTAGE = '[{ kind = "hold", at = "5s", duration = "23s", stage = "ip" }]'
OUTAGE_EXPIRE = '[{ kind = "hold", at = "5s", duration = "23s", stage = "ip", expire = "500ms" }]'
LAN_HOLD = '[{ kind = "hold", at = "20s", duration = "4s" }]'

SENSITIVITY_STARTS_S = (4, 6)
"""Other outage starts S8f's expiry arm is run with: the dissertation does not give one."""
OUTAGE_START_S = 5.0
OUTAGE_END_S = 28.0
"""S8f: the dissertation does not say when the outage began; 5 s gives its two spurious
timeouts during the outage in both arms (outage_s8f.rs)."""


def _hiccup(*overrides: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    return (("scheme", "e2e"), *overrides)


def _eifel(*overrides: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    return (("scheme", "e2e+eifel"), *overrides)


def _lan(scheme: str, hold: bool) -> tuple[tuple[str, str], ...]:
    out = (("scheme", scheme), ("error_every", "0"))
    return (*out, ("hops.1.forward.hiccups", LAN_HOLD)) if hold else out


HOLD_LINK = Shade(29.8, 42.8, "link-stage hold, 13 s")
EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "baseline", "s8", "H1", "Fig 3-3", "hiccup", _hiccup(),
        "the testbed without a hiccup: 100 KB, 18-segment window",
    ),
    Experiment(
        "s8a", "s8", "S8a", "Fig 5-2", "hiccup",
        _hiccup(("hops.0.forward.hiccups", HOLD_13S)),
        "delay spike: link-stage hold from 29.8 s for 13 s",
        HOLD_LINK,
    ),
    Experiment(
        "s8b", "s8", "S8b", "Fig 5-3", "hiccup",
        _hiccup(("hops.0.forward.queue", "12"), ("hops.0.forward.hiccups", HOLD_13S_IP)),
        "S8a at the IP stage with a 12-packet interface queue",
        Shade(29.8, 42.8, "IP-stage hold, 13 s"),
    ),
    Experiment(
        "s8c", "s8", "S8c", "Fig 5-4", "hiccup",
        _hiccup(("hops.0.forward.hiccups", REORDER_S8C)),
        "reordering: the packet handed over at 37.7 s is held while 6 pass",
        Shade(37.7, 37.7, "reorder, length 6"),
    ),
    Experiment(
        "s8d", "s8", "S8d", "Fig 5-5", "hiccup",
        _eifel(("hops.0.forward.hiccups", HOLD_12S)),
        "delay spike with Eifel: link-stage hold from 43.3 s for 12 s",
        Shade(43.3, 55.3, "link-stage hold, 12 s"),
    ),
    Experiment(
        "s8e", "s8", "S8e", "Fig 5-6", "hiccup",
        _eifel(("hops.0.forward.hiccups", REORDER_S8E)),
        "reordering with Eifel: length 6 at 40.5 s",
        Shade(40.5, 40.5, "reorder, length 6"),
    ),
    Experiment(
        "s8f-persistent", "s8f", "S8f (i)", "Fig 4-3", "hiccup",
        _hiccup(("transfer", "40KB"), ("hops.0.reverse.hiccups", OUTAGE)),
        "23 s outage of the ACK path from 5 s, queued ACKs kept (high persistency)",
        Shade(OUTAGE_START_S, OUTAGE_END_S, "ACK-path outage, ACKs kept"),
    ),
    Experiment(
        "s8f-expire", "s8f", "S8f (ii)", "Fig 4-4", "hiccup",
        _hiccup(("transfer", "40KB"), ("hops.0.reverse.hiccups", OUTAGE_EXPIRE)),
        "the same outage, queued ACKs discarded after 500 ms (low persistency)",
        Shade(OUTAGE_START_S, OUTAGE_END_S, "ACK-path outage, ACKs expire"),
    ),
    *(
        Experiment(
            f"s8f-expire-at{at}s", "s8f", "S8f (ii) sensitivity", "-", "hiccup",
            _hiccup(("transfer", "40KB"), ("hops.0.reverse.hiccups", OUTAGE_EXPIRE.replace(
                'at = "5s"', f'at = "{at}s"'))),
            f"the expiry arm with the outage from {at} s (the dissertation gives no start)",
        )
        for at in SENSITIVITY_STARTS_S
    ),
    Experiment(
        "s8a-ip", "s8", "S8a sensitivity", "-", "hiccup",
        _hiccup(("hops.0.forward.hiccups", HOLD_13S_IP)),
        "S8a with the hold at the IP stage (the dissertation gives no stage)", traced=False,
    ),
    Experiment(
        "s8d-ip", "s8", "S8d sensitivity", "-", "hiccup",
        _eifel(("hops.0.forward.hiccups", HOLD_12S_IP)),
        "S8d with the hold at the IP stage (the dissertation gives no stage)", traced=False,
    ),
    Experiment(
        "s11-restart", "s11", "S11", "Fig 5-16", "hiccup",
        _hiccup(("hops.0.forward.queue", "1"), ("tcp.rexmt", "restart")),
        "1-packet interface queue, REXMT_L (restart on every ACK), RTO_L",
        params=(("rexmt", "restart"), ("rto", "bsd")),
    ),
    Experiment(
        "s11-precise", "s11", "S11", "Fig 5-16", "hiccup",
        _hiccup(("hops.0.forward.queue", "1"), ("tcp.rexmt", "precise")),
        "1-packet interface queue, REXMT_E (precise), RTO_L",
        params=(("rexmt", "precise"), ("rto", "bsd")),
    ),
    Experiment(
        "s11-eifel-restart", "s11", "S11 ablation", "-", "hiccup",
        _hiccup(("hops.0.forward.queue", "1"), ("tcp.rexmt", "restart"), ("tcp.rto", "eifel")),
        "ablation: REXMT_L on the Eifel estimator RTO_E",
        traced=False,
        params=(("rexmt", "restart"), ("rto", "eifel")),
    ),
    Experiment(
        "s11-eifel-precise", "s11", "S11 ablation", "-", "hiccup",
        _hiccup(("hops.0.forward.queue", "1"), ("tcp.rexmt", "precise"), ("tcp.rto", "eifel")),
        "ablation: REXMT_E on the Eifel estimator RTO_E",
        traced=False,
        params=(("rexmt", "precise"), ("rto", "eifel")),
    ),
    Experiment(
        "s11-restart-noquench", "s11", "S11 counterfactual", "-", "hiccup",
        _hiccup(("hops.0.forward.queue", "1"), ("tcp.rexmt", "restart"), ("tcp.quench", "false")),
        "counterfactual: REXMT_L, RTO_L without tcp_quench on local drops",
        traced=False,
        params=(("rexmt", "restart"), ("rto", "bsd"), ("quench", "false")),
    ),
    Experiment(
        "s11-precise-noquench", "s11", "S11 counterfactual", "-", "hiccup",
        _hiccup(("hops.0.forward.queue", "1"), ("tcp.rexmt", "precise"), ("tcp.quench", "false")),
        "counterfactual: REXMT_E, RTO_L without tcp_quench on local drops",
        traced=False,
        params=(("rexmt", "precise"), ("rto", "bsd"), ("quench", "false")),
    ),
    Experiment(
        "lan-spike-e2e", "lan", "LAN spike", "-", "lan", _lan("e2e", True),
        "lan preset, no errors, 4 s link-stage hold of the wireless hop at 20 s, Reno",
        Shade(20.0, 24.0, "link-stage hold, 4 s"),
    ),
    Experiment(
        "lan-spike-eifel", "lan", "LAN spike", "-", "lan", _lan("e2e+eifel", True),
        "the same with Eifel",
        Shade(20.0, 24.0, "link-stage hold, 4 s"),
    ),
    Experiment(
        "lan-base-e2e", "lan", "LAN spike", "-", "lan", _lan("e2e", False),
        "lan preset, no errors, no hold, Reno (the spike's cost is measured against it)",
        traced=False,
    ),
    Experiment(
        "lan-base-eifel", "lan", "LAN spike", "-", "lan", _lan("e2e+eifel", False),
        "the same with Eifel (timestamps make its segments 12 bytes longer)",
        traced=False,
    ),
)  # fmt: skip
GROUPS = ("s8", "s8f", "s11", "lan")
GROUP_TITLES = {
    "s8": "S8a-S8e: delay spikes and reordering on the hiccup testbed (Figs 5-2 to 5-6)",
    "s8f": "S8f: a 23 s outage of the ACK path, high against low persistency (Figs 4-3, 4-4)",
    "s11": "S11: the precise retransmission timer (Figs 5-16, 5-17)",
    "lan": "Eifel against a delay spike on the LAN preset's wireless hop",
}

FIGURES: tuple[Figure, ...] = (
    Figure("fig5-2", "Fig 5-2 (S8a): go-back-N after a spurious timeout", "seq", ("s8a",),
           xlim=(26.0, 60.0)),
    Figure("fig5-3", "Fig 5-3 (S8b): go-back-N overflows a 12-packet interface queue", "seq",
           ("s8b",), xlim=(26.0, 62.0)),
    Figure("fig5-4", "Fig 5-4 (S8c): reordering of length 6, a spurious fast retransmit", "seq",
           ("s8c",), xlim=(34.0, 54.0)),
    Figure("fig5-5", "Fig 5-5 (S8d): Eifel after a spurious timeout", "seq", ("s8d",),
           xlim=(39.0, 66.0)),
    Figure("fig5-6", "Fig 5-6 (S8e): Eifel after a spurious fast retransmit", "seq", ("s8e",),
           xlim=(36.0, 55.0)),
    Figure("fig4-3-4", "Figs 4-3/4-4 (S8f): ACK-path outage, ACKs kept (top) or expired "
           "after 500 ms (bottom)", "seq", ("s8f-persistent", "s8f-expire"), xlim=(0.0, 85.0)),
    Figure("fig5-16", "Fig 5-16 (S11): throughput with REXMT_L and REXMT_E, 1-packet "
           "interface queue", "bars", note="the dissertation: almost 30 % more with REXMT_E"),
    Figure("fig5-17", "Fig 5-17 (S11): zoom, REXMT_L (top) and REXMT_E (bottom)", "seq",
           ("s11-restart", "s11-precise"), xlim=(20.0, 45.0)),
    Figure("lan-spike", "LAN preset: a 4 s delay spike, Reno (top) and Eifel (bottom)", "seq",
           ("lan-spike-e2e", "lan-spike-eifel"), xlim=(19.5, 25.5)),
)  # fmt: skip
FIGURE_GROUP = {
    "fig5-16": "s11",
}
"""The group of a figure without traced runs."""
