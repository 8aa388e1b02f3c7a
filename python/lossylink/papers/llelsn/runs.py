"""The experiments of the LL-ELSN study (eln-llelsn spec §5.4, Figs 6-18): the ``llelsn``
network (a server, two 10 Mb/s wired hops, an 802.11b cell with N stations, 50-packet queues,
1000-byte segments, long-lived downloads of 200 s), the twelve schemes of Fig. 6 where they are
registered, uniform FER (derived from a full data frame, scaled by length, both directions) and
per-station two-state Markov channels."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lossylink.papers.llelsn import counterfactuals

SCHEMES: tuple[tuple[str, str], ...] = (
    ("Reno", "e2e"),
    ("NewReno", "e2e-newreno"),
    ("SACK", "e2e-ietf-sack"),
    ("Snoop", "snoop-newreno"),
    ("Westwood+", "e2e-westwood"),
    ("DCR", "e2e-dcr-sack"),
    ("Veno", "e2e-veno"),
    ("Jersey", "e2e-jersey"),
    ("JTCP", "e2e-jtcp"),
    ("TIBET", "e2e-tibet"),
    ("LHP", "e2e-lhp"),
    ("LL-ELSN", "ll-elsn"),
)
"""(label, scheme) of Fig. 6's legend; the study ran Snoop with NewReno senders (§4)."""
LABEL = dict(SCHEMES)
SENDERS = (
    ("ESACK", "ll-elsn"),
    ("HACK", "ll-elsn-hack"),
    ("HACK-fixed", "ll-elsn-hack-fixed"),
    ("LHP", "ll-elsn-lhp"),
    ("Reno", "e2e"),
)
ARQ_SCHEMES = (("Reno", "e2e"), ("Snoop", "snoop-newreno"), ("LL-ELSN", "ll-elsn"))
"""The schemes of Figs 17 and 18 (§5.4.2)."""

FER_PCT = (0.001, 0.01, 0.1, 0.5, 1, 2, 3, 5, 7, 9)
"""T004-1's grid, percent."""
RTT_D_MS = (1, 10, 20, 50, 100, 200)
"""Fig. 7: the one-way delay of each wired link (the seed: "adjusting the delay offset d of each
link buffer"; its values are a [GAP])."""
UPLINK_FER_PCT = (0.1, 1, 3, 9)
N_FLOWS = (1, 2, 5, 10, 15, 20)
REPLACED = (0, 2, 4, 6, 8)
"""Fig. 12: Reno connections of ten replaced by the variant."""
FRIENDLY = (
    ("SACK", "e2e-ietf-sack"),
    ("Westwood+", "e2e-westwood"),
    ("Veno", "e2e-veno"),
    ("TIBET", "e2e-tibet"),
    ("ideal BWE", "e2e-ideal-bwe"),
    ("DCR", "e2e-dcr-sack"),
    ("HACK", "e2e-hack"),
    ("LL-ELSN", "ll-elsn"),
)
FRIENDLY_RETRY_LIMIT = 7
"""Fig. 12 runs "without wireless losses": no bit errors, and ns-2's `ShortRetryLimit_ 7`
(tcl/lib/ns-default.tcl:707) so that a collision is retried, not lost (with the study's retry
limit of one every collided frame is a wireless loss)."""
IDEAL_BWE_CELL = "3710kbps"
"""The cell's capacity in Fig. 12's setting (retry limit 7, no bit errors): the data rate ten
Reno flows get from it together, 10 x 0.371 Mb/s of goodput (``reproduce llelsn --quick``,
friendly k = 0, seed 1). Ideal BWE's "exact available bandwidth" (the seed: "the ideal BWE
scheme which knows the exact available bandwidth and RTT") is measured by the network on every
ACK (``tcp.ideal_bwe_available = "live"``, net's ``network/oracle.rs``): this capacity less the
other nine flows' data arriving at their receivers over the last propagation round trip (the
spec's [PROPOSAL], §4.13 (c))."""
IDEAL_BWE_SHARE = "371kbps"
"""A flow's measured share of the cell, a tenth of :data:`IDEAL_BWE_CELL`: the oracle's fixed
rate before the live reading, kept as a counterfactual."""
ERSN_FER_PCT = (1, 3, 5, 7, 9)
RETRY_FER_PCT = (0.5, 1, 2, 3, 5, 7, 9)
RETRY_LIMITS = (1, 2, 4)
P_BB = (0.1, 0.2, 0.3, 0.4, 0.5)
MARKOV_LIMITS = (1, 2, 4, 7)
COUNTERFACTUALS = counterfactuals.WHAT
"""Counterfactual runs (``<experiment>~<key>``, :mod:`lossylink.papers.llelsn.counterfactuals`):
the mechanism of a deviation switched off."""
POWEROFF_LIMITS = (1, 2, 4, 7)
POWEROFF_AT_S = 10
"""Fig. 18's powered-off station ("The HOL blocking also happens when a wireless station is
suddenly powered-off during its communication with remote TCP senders"; when, and for how
long the run goes on, are a [GAP]): sta10 of ten Reno downloads stops answering at 10 s (every
frame for it is lost from then on: the Fig. 16 trace), the other nine stay in the good state
(no bit errors: collisions only, Fig. 18's good state), measured from 10 s to 60 s, per retry
limit, with the shared FIFO (ns-2's) and with per-station queues, and without the power-off."""
POWEROFF_QUEUES = (("shared", "shared FIFO"), ("per-station", "per-station queues"))
POWEROFF_END = "15s"
DEFAULT_FER_PCT = 1.0
"""The FER of the figures whose FER the excerpt leaves out (Figs 7, 9-11, 14: [GAP]); Fig. 12's
is a gap too, and it runs without bit errors (docs/llelsn.md, The reproduction)."""
DURATION = "200s"
REFERENCE = "1076B"
"""Exposed bytes of a full data frame: 1000 payload + 40 TCP/IP + 36 MAC framing (§5.4.3)."""
DISCONNECT_TRACE = Path(__file__).with_name("disconnect.trace")
"""Fig. 16: the station's channel loses every frame from t = 10 s (1 s slots)."""
PARETO = (
    '{ model = "pareto", rate = "10Mbps", on = "400ms", off = "100ms", shape = 2.0, '
    'size = "1000B" }'
)
"""Fig. 11: the spec's [PROPOSAL] for the 8 Mb/s, shape 2 background (ON 10 Mb/s, ON 80 %)."""
BG_MEAN_MBPS = (2, 4, 6, 8)
"""Fig. 15's congestion levels ([GAP]: "congestion level varied"): the Fig. 11 source with its ON
rate scaled so that its mean is 2-8 Mb/s of the wired hops' 10."""


def pareto_source(mean_mbps: float) -> str:
    """The Fig. 11 source (ON 80 % of the time) with mean rate `mean_mbps`."""
    return (
        f'{{ model = "pareto", rate = "{mean_mbps / 0.8:g}Mbps", on = "400ms", off = "100ms", '
        'shape = 2.0, size = "1000B" }'
    )


@dataclass(frozen=True)
class Experiment:
    """One run configuration of the study."""

    id: str
    group: str
    label: str
    """The scheme's label in the paper's legends."""
    x: float
    overrides: tuple[tuple[str, str], ...]
    description: str
    params: tuple[tuple[str, str | int], ...] = ()
    max_seeds: int | None = 20
    """20 runs per point, 50 with link-layer ARQ (§5.4.1)."""
    quick_seeds: int = 1
    """Runs per point with ``--quick`` (more for the points a P1 target reads: the catalogue
    sets them, ``lossylink.papers.llelsn.QUICK_P1_SEEDS``)."""
    traced: bool = False

    @property
    def preset(self) -> str:
        return "llelsn"

    def columns(self) -> dict[str, Any]:
        return {"scheme_label": self.label, "x": self.x}


def fer(pct: float) -> str:
    if pct == 0:
        return '{ model = "none" }'
    return f'{{ model = "fer", fer = {pct / 100:g}, reference = "{REFERENCE}" }}'


def stations(n: int) -> tuple[tuple[str, str], ...]:
    """N stations in the cell, one download each (nodes first, so every step validates)."""
    nodes = [
        '{ name = "server", kind = "host" }',
        '{ name = "router", kind = "router" }',
        '{ name = "ap", kind = "base-station" }',
        *(f'{{ name = "sta{i}", kind = "host" }}' for i in range(1, n + 1)),
    ]
    names = ", ".join(f'"sta{i}"' for i in range(1, n + 1))
    return (
        ("nodes", "[" + ", ".join(nodes) + "]"),
        ("cells.0.stations", f"[{names}]"),
        ("flows", flows(n)),
    )


def background(pareto: str = "") -> tuple[tuple[str, str], ...]:
    """Fig. 11: a Pareto source at the server whose sink hangs off the access point on a fast
    wire, so that it crosses both 10 Mb/s hops the download crosses ("along the path of a TCP
    connection"; the spec's [PROPOSAL]: wired links only). `pareto`: another source (Fig. 15)."""
    nodes = (
        '[{ name = "server", kind = "host" }, { name = "router", kind = "router" }, '
        '{ name = "ap", kind = "base-station" }, { name = "sta1", kind = "host" }, '
        '{ name = "bgsink", kind = "host" }]'
    )
    links = (
        '[{ name = "internet", between = ["server", "router"], role = "wired", '
        'rate = "10Mbps", delay = "20ms", queue = 50 }, { name = "lan", between = '
        '["router", "ap"], role = "wired", rate = "10Mbps", delay = "1ms", queue = 50 }, '
        '{ name = "sink", between = ["ap", "bgsink"], role = "wired", rate = "100Mbps", '
        'delay = "1us", queue = 50 }]'
    )
    bg = f'{{ name = "bg", from = "server", to = "bgsink", udp = {pareto or PARETO} }}'
    return (("nodes", nodes), ("links", links), ("flows", flows(1, extra=bg)))


def flows(n: int, schemes: list[str] | None = None, extra: str = "") -> str:
    out = []
    for i in range(1, n + 1):
        scheme = f', scheme = "{schemes[i - 1]}"' if schemes else ""
        if schemes and schemes[i - 1] == "e2e-ideal-bwe":
            # The oracle knows the flow's available bandwidth: the cell's capacity less the
            # others' rate, measured by the network (not the wired link's 10 Mb/s); a per-flow
            # `tcp` override.
            scheme += (
                f', tcp = {{ ideal_bwe_available = "live", ideal_bwe_rate = "{IDEAL_BWE_CELL}" }}'
            )
        out.append(f'{{ name = "sta{i}", from = "server", to = "sta{i}"{scheme} }}')
    if extra:
        out.append(extra)
    return "[" + ", ".join(out) + "]"


def dcf(
    limit: int,
    delay: str | None = None,
    collisions: bool = True,
    blocks: bool = True,
    ap_queue: str = "shared",
) -> str:
    """The cell's `dcf` table (it replaces the preset's whole table): ns-2's one shared interface
    queue at the access point unless `ap_queue` says "per-station" (tcl/lib/ns-mobilenode.tcl:
    366-376, 440, 453-454 in ns-2.35; docs/llelsn.md, settings)."""
    parts = [f"retry_limit = {limit}", 'basic_rate = "11Mbps"', f'ap_queue = "{ap_queue}"']
    if delay:
        parts.append(f'retry_delay = "{delay}"')
    if delay and not blocks:
        parts.append("retry_delay_blocks = false")
    if not collisions:
        parts.append("collisions = false")
    return "{ " + ", ".join(parts) + " }"


def _cut() -> str:
    path = DISCONNECT_TRACE.as_posix()
    return f'{{ model = "trace", file = "{path}", slot = "1s", repeat = false }}'


HEADER_PROTECTED = frozenset({"e2e-lhp", "e2e-hack", "e2e-hack-fixed"})


def _exp(
    group: str,
    key: str,
    label: str,
    scheme: str,
    x: float,
    ov: list[tuple[str, str]],
    desc: str,
    **kw: Any,
) -> Experiment:
    if scheme in HEADER_PROTECTED:
        # LHP and HACK need the link to hand up the header of a corrupted frame (spec §4.11,
        # §4.12): the cell protects headers for them. Last, after any `cells.0.dcf` above.
        ov = [*ov, ("cells.0.dcf.header_protection", "true")]
    return Experiment(
        id=f"{group}-{key}-{scheme}",
        group=group,
        label=label,
        x=x,
        overrides=(("scheme", scheme), ("run.duration", DURATION), *ov),
        description=desc,
        **kw,
    )


def _experiments() -> list[Experiment]:
    out: list[Experiment] = []
    for label, scheme in SCHEMES:
        for p in FER_PCT:
            out.append(
                _exp(
                    "fer",
                    f"{p:g}",
                    label,
                    scheme,
                    p,
                    [("cells.0.error", fer(p))],
                    f"Fig. 6: downlink, N = 1, FER {p:g} %, {label}",
                )
            )
        out.append(
            _exp(
                "ablation",
                "0.01",
                label,
                scheme,
                0.01,
                [("cells.0.error", fer(0.01)), ("cells.0.dcf", dcf(1, collisions=False))],
                f"T004-3 ablation: FER 0.01 %, collisions off, {label}",
            )
        )
        for d in RTT_D_MS:
            out.append(
                _exp(
                    "rtt",
                    f"{d}",
                    label,
                    scheme,
                    d,
                    [
                        ("cells.0.error", fer(DEFAULT_FER_PCT)),
                        ("links.0.delay", f"{d}ms"),
                        ("links.1.delay", f"{d}ms"),
                    ],
                    f"Fig. 7: d = {d} ms on each wired link, FER 1 %, {label}",
                )
            )
        # Snoop runs at the station in the uplink, "by symmetric operation" (spec §4.4 (a)).
        for p in UPLINK_FER_PCT:
            out.append(
                _exp(
                    "uplink",
                    f"{p:g}",
                    label,
                    scheme,
                    p,
                    [
                        ("flows", '[{ name = "up", from = "sta1", to = "server" }]'),
                        ("cells.0.error", fer(p)),
                    ],
                    f"Fig. 8: uplink, FER {p:g} %, {label}",
                )
            )
        for n in N_FLOWS:
            out.append(
                _exp(
                    "nsweep",
                    f"{n}",
                    label,
                    scheme,
                    n,
                    [*stations(n), ("cells.0.error", fer(DEFAULT_FER_PCT))],
                    f"Figs 9-10: N = {n}, FER 1 %, {label}",
                )
            )
        out.append(
            _exp(
                "pareto",
                "8",
                label,
                scheme,
                8.0,
                [*background(), ("cells.0.error", fer(DEFAULT_FER_PCT))],
                f"Fig. 11: Pareto background 8 Mb/s mean, FER 1 %, {label}",
            )
        )
    for label, scheme in FRIENDLY:
        for k in REPLACED:
            mix = [scheme] * k + ["e2e"] * (10 - k)
            out.append(
                _exp(
                    "friendly",
                    f"{k}",
                    label,
                    scheme,
                    k,
                    [
                        *stations(10)[:2],
                        ("flows", flows(10, mix)),
                        ("cells.0.error", fer(0)),
                        ("cells.0.dcf", dcf(FRIENDLY_RETRY_LIMIT)),
                    ],
                    f"Fig. 12: {k} of 10 Reno flows replaced by {label}, no wireless losses",
                )
            )
    for ersn in (True, False):
        label = "LL-ELSN+ERSN" if ersn else "LL-ELSN"
        for p in ERSN_FER_PCT:
            out.append(
                Experiment(
                    id=f"ersn-{p:g}-{'on' if ersn else 'off'}",
                    group="ersn",
                    label=label,
                    x=p,
                    overrides=(
                        ("scheme", "ll-elsn"),
                        ("run.duration", DURATION),
                        # The retried frame waits aside while later frames go: link-layer
                        # delay and reordering, not a blocked queue.
                        ("cells.0.dcf", dcf(4, "100ms", blocks=False)),
                        ("cells.0.error", fer(p)),
                        ("ll.elsn.ersn", "true" if ersn else "false"),
                    ),
                    description=f"Fig. 13: 100 ms retry delay, 4 attempts, FER {p:g} %, {label}",
                    max_seeds=50,
                )
            )
    out.append(
        Experiment(
            id="disconnect-base",
            group="disconnect",
            label="ESACK",
            x=-1.0,
            overrides=(("scheme", "ll-elsn"), ("run.duration", "10s"), ("cells.0.error", _cut())),
            description="Fig. 16: the first 10 s alone (what every variant sent before the cut)",
            max_seeds=1,
        )
    )
    for filt, label in ((3, "ESACK"), (0, "ESACK without the ELN filter")):
        out.append(
            Experiment(
                id=f"disconnect-{filt}",
                group="disconnect",
                label=label,
                x=float(filt),
                overrides=(
                    ("scheme", "ll-elsn"),
                    ("run.duration", "30s"),
                    ("tcp.esack_filter", str(filt)),
                    ("cells.0.error", _cut()),
                ),
                description=f"Fig. 16: the receiver unreachable from 10 s, {label}",
                max_seeds=1,
            )
        )
    for label, scheme in ARQ_SCHEMES:
        for r in RETRY_LIMITS:
            for p in RETRY_FER_PCT:
                out.append(
                    _exp(
                        "retry",
                        f"{p:g}-r{r}",
                        label,
                        scheme,
                        p,
                        [("cells.0.dcf", dcf(r)), ("cells.0.error", fer(p))],
                        f"Fig. 17: FER {p:g} %, retry limit {r}, {label}",
                        params=(("retry_limit", r),),
                        max_seeds=50 if r > 1 else 20,
                    )
                )
        for r in MARKOV_LIMITS:
            for pbb in P_BB:
                chain = (
                    f'{{ model = "gilbert", p_gb = 0.01, p_bb = {pbb:g}, '
                    f"loss_good = 0.0, loss_bad = 1.0 }}"
                )
                per = "{ " + ", ".join(f"sta{i} = {chain}" for i in range(1, 11)) + " }"
                out.append(
                    _exp(
                        "markov",
                        f"{pbb:g}-r{r}",
                        label,
                        scheme,
                        pbb,
                        [*stations(10), ("cells.0.station_error", per), ("cells.0.dcf", dcf(r))],
                        f"Fig. 18: 10 flows, Markov P_bb = {pbb:g}, retry limit {r}, {label}",
                        params=(("retry_limit", r),),
                        max_seeds=50 if r > 1 else 20,
                    )
                )
    # Fig. 18's powered-off station: head-of-line blocking measured (the good stations'
    # goodput and their packets' wait in the access point's queue), per retry limit and queue.
    for q, qlabel in POWEROFF_QUEUES:
        for off in (True, False):
            for rl in POWEROFF_LIMITS:
                per = f"{{ sta10 = {_cut()} }}" if off else "{}"
                what = "sta10 off at 10 s" if off else "no power-off"
                out.append(
                    _exp(
                        "poweroff",
                        f"{q}-{'off' if off else 'on'}-r{rl}",
                        f"Reno, {qlabel}, {what}",
                        "e2e",
                        float(rl),
                        [
                            *stations(10),
                            ("run.duration", POWEROFF_END),
                            ("run.warmup", f"{POWEROFF_AT_S}s"),
                            ("cells.0.error", fer(0)),
                            ("cells.0.station_error", per),
                            ("cells.0.dcf", dcf(rl, ap_queue=q)),
                        ],
                        f"Fig. 18: 10 Reno downloads, {what}, retry limit {rl}, {qlabel}",
                        params=(("retry_limit", rl), ("ap_queue", q), ("powered_off", int(off))),
                        # The harm differs by a few % between retry limits: one seed's noise
                        # reorders them (quick, 1 seed: rho 0.4; 5 seeds: 1.0). 15 s runs.
                        quick_seeds=5,
                    )
                )
    # Fig. 15: ESACK against LHP's packet list (both with LL-ELSN) under growing background.
    for label, scheme in (("ESACK", "ll-elsn"), ("LHP", "ll-elsn-lhp")):
        for mean in BG_MEAN_MBPS:
            out.append(
                _exp(
                    "congestion",
                    f"{mean}",
                    label,
                    scheme,
                    float(mean),
                    [*background(pareto_source(mean)), ("cells.0.error", fer(DEFAULT_FER_PCT))],
                    f"Fig. 15: Pareto background {mean} Mb/s mean, FER 1 %, LL-ELSN with {label}",
                )
            )
    # Fig. 14: LL-ELSN as the detector for other senders (spec §5.4.2), against N.
    for label, scheme in SENDERS:
        for n in N_FLOWS:
            out.append(
                _exp(
                    "senders",
                    f"{n}",
                    label,
                    scheme,
                    n,
                    [*stations(n), ("cells.0.error", fer(DEFAULT_FER_PCT))],
                    f"Fig. 14: N = {n}, FER 1 %, LL-ELSN with {label}",
                )
            )
    return out


_BASE = _experiments()
EXPERIMENTS: tuple[Experiment, ...] = (*_BASE, *counterfactuals.experiments(_BASE))
BY_ID = {e.id: e for e in EXPERIMENTS}
GROUPS = (
    "fer",
    "ablation",
    "rtt",
    "uplink",
    "nsweep",
    "pareto",
    "friendly",
    "ersn",
    "senders",
    "congestion",
    "disconnect",
    "retry",
    "markov",
    "poweroff",
)
GROUP_TITLES = {
    "fer": "Fig. 6: downlink goodput against FER (N = 1, retry limit 1)",
    "ablation": "T004-3 ablation: FER 0.01 % with collisions switched off",
    "rtt": "Fig. 7: goodput against the wired delay d (FER 1 %)",
    "uplink": "Fig. 8: uplink goodput against FER",
    "nsweep": "Figs 9-10: aggregate goodput and Jain's index against N (FER 1 %)",
    "pareto": "Fig. 11: Pareto background traffic (8 Mb/s mean, FER 1 %)",
    "friendly": "Fig. 12: friendliness, Reno flows replaced one by one (10 flows)",
    "ersn": "Fig. 13: ERSN with a 100 ms link retry delay",
    "senders": "Fig. 14: senders with LL-ELSN as the detector, against N (FER 1 %)",
    "congestion": "Fig. 15: ESACK against LHP's packet list under Pareto background (FER 1 %)",
    "disconnect": "Fig. 16: receiver disconnected at 10 s",
    "retry": "Fig. 17: link-layer ARQ, goodput against FER per retry limit",
    "markov": "Fig. 18: Markov channels, 10 flows, per retry limit",
    "poweroff": "Fig. 18: a station powered off at 10 s beside nine good ones, per retry limit",
}
