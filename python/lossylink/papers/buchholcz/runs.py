"""The experiments of Buchholcz et al.'s TCP-ELN study (eln-llelsn spec §5.1-5.3, §6.1): the
``eln5`` network (a server, a base station, three mobiles; 1 Mb/s, 100 ms wired; 2 Mb/s radio
links), Reno (``e2e``) against ``tcp-eln``, FTP (one long-lived download per mobile) and web
traffic (SURGE sessions), over the uniform error model (per-packet loss p on the radio
downlinks) and the nine two-state Markov models of Table 1 (a Gilbert-Elliott chain per
downlink, stepped per 4.16 ms slot of channel time, idle slots included, matching the mean error
rate and mean burst length exactly), and the Fig. 4 micro-scenario (one corrupted frame).

Where the paper is ambiguous or silent, every reading runs (DESIGN.md rule 13), as *variants*
of the headline runs (:data:`VARIANTS`): the ELN knobs C2 and C6 the paper leaves open, the
other TCP baselines (ns-2's limited transmit and pre-2001 initial window of 1, and the
``modern`` profile, beside ns-2's 2003 defaults with RFC 2001's Reno), the other web load (5
sessions per mobile beside 5 in all) and TCP-ELN identifying corrupted frames by their header
(HACK) instead of by an oracle. A variant's experiment id is the headline's with
``~<variant>``; a variant that leaves Reno unchanged runs TCP-ELN only and is compared with the
headline Reno. The counterfactuals (:data:`COUNTERFACTUALS`, id ``~<key>``) are no readings: each
is a headline run with a deviation's mechanism removed (:mod:`.earned`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMES = (("reno", "e2e"), ("eln", "tcp-eln"))
"""(label, scheme): the paper's "original TCP" (Reno, §3.1 point 11) and TCP-ELN."""

UNIFORM_P = (0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2)
"""Spec T002-2's grid (the paper's plot points are not in its text)."""
WEB_UNIFORM_P = (0.0, 0.01, 0.05, 0.1, 0.2)

MARKOV = {
    1: ("pedestrian", 0.001, 1.4913),
    2: ("pedestrian", 0.01, 4.0701),
    3: ("pedestrian", 0.1, 13.6708),
    4: ("intermediate", 0.001, 1.0083),
    5: ("intermediate", 0.01, 1.0838),
    6: ("intermediate", 0.1, 1.8629),
    7: ("high", 0.001, 1.0024),
    8: ("high", 0.01, 1.012),
    9: ("high", 0.1, 1.1317),
}
"""Table 1: model -> (user speed, average error rate, average error burst length)."""

FTP_DURATION = "100s"
WEB_DURATION = "300s"
WARMUP = "10s"
RADIO = (1, 2, 3)
"""The radio links of the eln5 preset (links.1..3; their `forward` direction is the downlink)."""

FIG4_TRACE = Path(__file__).with_name("fig4.trace")
"""One corrupted frame: the 16th on the downlink to m1 (the paper's Fig. 4, packet 16)."""

NS2_2003 = (
    ("tcp.delayed_ack", "off"),
    ("tcp.initial_cwnd", "2"),
    ("tcp.buffer", "20000B"),
    ("tcp.min_rto", "1s"),
    ("tcp.initial_rto", "6s"),
    ("tcp.max_rto", "64s"),
    ("tcp.limited_transmit", "false"),
)
"""The headline TCP baseline: where the paper is silent, ns-2's defaults of 2003 (the paper's
year; the spec's reading of its unnamed simulator, §5.1), each cited in docs/buchholcz.md's
set-up table: TCPSink without delayed ACKs, windowInit_ 2, window_ 20 packets of packetSize_
1000, minrto_ 1 s (200 ms only from 2004-10-14), rtxcur_init_ 6 s, maxrto_ 64 s, on the eln5
preset's RFC 6298 timers and RFC 5681 Reno. Where it speaks, its words: the "original TCP" is
RFC 2001's Reno [2], without limited transmit (ns-2's singledup_ 1 runs as the variant ``lt``)."""

ELN_HEADLINE = '{ expected = "outstanding", inflate_trigger = true }'
"""The headline ELN knobs, the reading that follows the paper's words (docs/buchholcz.md,
"ELN knobs"): C2 = W ("as many duplicate acknowledgements ... as many packets it has already
sent but not yet acknowledged"), C6 on ("every time a duplicate acknowledgement arrives ... the
sender increases the window size by 1 segment", "keeping the amount of packets in the network
constant")."""

WEB_SESSIONS = {"total": (2, 2, 1), "per-mobile": (5, 5, 5)}
"""The two readings of the web load: "5 web sessions are started at the mobile nodes" (§5, in
all: 2, 2 and 1) and "5 sessions are used per mobile node" (the web paragraph: 15)."""
WEB_HEADLINE = "total"


@dataclass(frozen=True)
class Variant:
    """A reading of what the paper leaves open, run beside the headline."""

    key: str
    title: str
    traffic: tuple[str, ...]
    """``ftp``, ``web``: the traffic it applies to."""
    overrides: tuple[tuple[str, str], ...] = ()
    reno: bool = True
    """Whether Reno runs too (else the variant changes TCP-ELN only)."""
    tcp: tuple[tuple[str, str], ...] = ()
    """TCP settings of both schemes on top of the headline baseline."""
    web: str = WEB_HEADLINE
    group: str = ""


def _eln(expected: str, c6: bool) -> tuple[tuple[str, str], ...]:
    return (("tcp.eln", f'{{ expected = "{expected}", inflate_trigger = {str(c6).lower()} }}'),)


KNOBS = (
    ("c2w-c6off", "C2 = W, C6 off (the spec's defaults)", "outstanding", False),
    ("c2w1-c6on", "C2 = W - 1, C6 on", "outstanding-minus-one", True),
    ("c2w1-c6off", "C2 = W - 1, C6 off", "outstanding-minus-one", False),
    ("c2w2-c6on", "C2 = W - 2, C6 on", "outstanding-minus-two", True),
    ("c2w2-c6off", "C2 = W - 2, C6 off", "outstanding-minus-two", False),
)
VARIANTS: tuple[Variant, ...] = (
    *(
        Variant(key, title, ("ftp",), _eln(c2, c6), reno=False, group="ftp-knobs")
        for key, title, c2, c6 in KNOBS
    ),
    # The set-up the study first ran, kept as it was: the modern profile had a 200 ms minimum
    # RTO then (it has RFC 6298's 1 s now).
    Variant("modern", "modern profile baseline (200 ms delayed ACKs, IW 3, 60 KiB, 200 ms RTO)",
            ("ftp", "web"), (), tcp=(("tcp.min_rto", "200ms"),), group="baseline"),
    Variant("iw1", "ns-2 baseline with windowInit_ 1 (its default before 2001-05-26)",
            ("ftp", "web"), tcp=(("tcp.initial_cwnd", "1"),), group="baseline"),
    Variant("lt", "ns-2 baseline with limited transmit (singledup_ 1, its default from "
            "2001-11-28)", ("ftp", "web"), tcp=(("tcp.limited_transmit", "true"),),
            group="baseline"),
    Variant("per-mobile", "web: 5 sessions per mobile (15)", ("web",), web="per-mobile",
            group="web-load"),
    Variant("hack", "TCP-ELN identifies by the header (HACK)", ("web",),
            (("tcp.eln", '{ expected = "outstanding", inflate_trigger = true, '
                         'identify = "hack" }'),), reno=False, group="web-hack"),
)  # fmt: skip
BY_VARIANT = {v.key: v for v in VARIANTS}


@dataclass(frozen=True)
class Experiment:
    """One run configuration of the study."""

    id: str
    group: str
    """``ftp-uniform``, ``ftp-markov``, ``web-uniform``, ``web-markov``, ``fig4``, or a
    variant's group (``ftp-knobs``, ``baseline``, ``web-load``, ``web-hack``)."""
    label: str
    """``reno`` or ``eln``."""
    x: float
    """p (uniform), the model number (Markov), or 0."""
    overrides: tuple[tuple[str, str], ...]
    description: str
    params: tuple[tuple[str, str | int], ...] = ()
    max_seeds: int | None = None
    traced: bool = False
    variant: str = ""
    """The reading it runs ("" for the headline)."""
    counterfactual: str = ""
    """The deviation's mechanism it removes (:data:`COUNTERFACTUALS`; "" for a reading)."""

    @property
    def preset(self) -> str:
        return "eln5"

    def columns(self) -> dict[str, Any]:
        """The ``results.csv`` columns naming the paper's experiment."""
        variant = self.variant or (self.counterfactual and f"counterfactual {self.counterfactual}")
        return {"tcp": self.label, "x": self.x, "variant": variant or "headline"}


def _errors(error: str | None) -> tuple[tuple[str, str], ...]:
    if error is None:
        return ()
    return tuple((f"links.{i}.forward.error", error) for i in RADIO)


def _ftp() -> str:
    return (
        "["
        + ", ".join(f'{{ name = "ftp-m{m}", from = "server", to = "m{m}" }}' for m in (1, 2, 3))
        + "]"
    )


def web_flows(reading: str) -> str:
    """The SURGE sessions of a web-load reading (:data:`WEB_SESSIONS`), started 200 ms apart
    per mobile."""
    return (
        "["
        + ", ".join(
            f'{{ name = "web-m{m}-{{i}}", from = "server", to = "m{m}", copies = {n}, '
            f'stagger = "200ms", web = {{}} }}'
            for m, n in zip((1, 2, 3), WEB_SESSIONS[reading], strict=True)
        )
        + "]"
    )


def uniform(p: float) -> str | None:
    return None if p == 0 else f'{{ model = "bernoulli", p = {p} }}'


MARKOV_SLOT = "4160us"
"""The Markov chain's time step: one packet time T_p of the radio link, 1040 bytes (a 1000-byte
segment and 40 bytes of TCP/IP header, ns-2's packetSize_ and tcpip_base_hdr_size_) at 2 Mb/s.
Table 1 gives no slot: its burst lengths are in channel steps of an assumed packet time. The
chain stands for a Rayleigh-fading channel whose memory is set by the Doppler product f_d·T_p
(spec §5.2, origin of the model): the channel changes with time whether or not a packet is
sent, so the chain steps per slot of T_p, idle time included. Stepped per sent frame instead
(the spec's default for its [GAP]), a chain in its Bad state stays there through a timeout's
silence: see docs/buchholcz.md, "Why the Markov chain steps per 4.16 ms slot"."""


def markov(model: int) -> str:
    _, eps, burst = MARKOV[model]
    return (
        f'{{ model = "gilbert", mean_error_rate = {eps}, mean_burst = {burst}, '
        f'slot = "{MARKOV_SLOT}" }}'
    )


def _grid(
    traffic: str,
) -> list[tuple[str, str, float, str | None, tuple[tuple[str, str | int], ...]]]:
    """(kind, key, x, error model, params) of every error setting of ``traffic``."""
    out: list[tuple[str, str, float, str | None, tuple[tuple[str, str | int], ...]]] = []
    for p in UNIFORM_P if traffic == "ftp" else WEB_UNIFORM_P:
        out.append(("uniform", f"{p:g}", p, uniform(p), (("p", str(p)),)))
    for m in MARKOV:
        out.append(("markov", str(m), float(m), markov(m), (("model", m),)))
    return out


def exp_id(traffic: str, kind: str, key: str, label: str, variant: str = "") -> str:
    """The id of one run configuration (``~variant`` for a reading beside the headline)."""
    base = f"{traffic}-{kind}-{key}-{label}"
    return f"{base}~{variant}" if variant else base


def _base(
    traffic: str, web: str, baseline: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    flows = _ftp() if traffic == "ftp" else web_flows(web)
    duration = FTP_DURATION if traffic == "ftp" else WEB_DURATION
    return (("flows", flows), ("run.duration", duration), ("run.warmup", WARMUP), *baseline)


def _experiments() -> list[Experiment]:
    out = []
    for traffic in ("ftp", "web"):
        for kind, key, x, error, params in _grid(traffic):
            runs = [("", NS2_2003, WEB_HEADLINE, (("tcp.eln", ELN_HEADLINE),), True, "")]
            for v in VARIANTS:
                if traffic in v.traffic:
                    baseline = v.tcp if v.key == "modern" else (*NS2_2003, *v.tcp)
                    eln = v.overrides or (("tcp.eln", ELN_HEADLINE),)
                    runs.append((v.key, baseline, v.web, eln, v.reno, v.group))
            for variant, baseline, web, eln, with_reno, group in runs:
                for label, scheme in SCHEMES:
                    if label == "reno" and not with_reno:
                        continue
                    extra = eln if label == "eln" else ()
                    out.append(
                        Experiment(
                            id=exp_id(traffic, kind, key, label, variant),
                            group=group or f"{traffic}-{kind}",
                            label=label,
                            x=x,
                            overrides=(
                                *_base(traffic, web, baseline), ("scheme", scheme), *extra,
                                *_errors(error),
                            ),
                            description=(
                                f"{traffic.upper()}, {kind} {key}, {scheme}"
                                + (f" [{BY_VARIANT[variant].title}]" if variant else "")
                            ),
                            params=params,
                            variant=variant,
                        )
                    )  # fmt: skip
    trace = f'{{ model = "trace", file = "{FIG4_TRACE.as_posix()}", repeat = false }}'
    for label, scheme in SCHEMES:
        out.append(
            Experiment(
                id=f"fig4-{label}",
                group="fig4",
                label=label,
                x=0.0,
                overrides=(
                    ("flows", '[{ name = "ftp", from = "server", to = "m1" }]'),
                    ("run.duration", "30s"),
                    ("run.warmup", "0s"),
                    *NS2_2003,
                    ("scheme", scheme),
                    *((("tcp.eln", ELN_HEADLINE),) if label == "eln" else ()),
                    ("links.1.forward.error", trace),
                ),
                description=f"Fig. 4: the 16th downlink frame corrupted, {scheme}",
                max_seeds=1,
                traced=True,
            )
        )
    return out


WIRED_FAST = "10Mbps"
"""The counterfactual of the ``bottleneck-cap`` deviation: the wired link (links.0, the three
downloads' shared bottleneck) at 10 Mb/s instead of 1 Mb/s. The three radio links (2 Mb/s each)
and the 20-packet windows (about 0.77 Mb/s per flow over the 200 ms RTT) then limit the flows,
and no flow shares a queue with the others."""

SINGLE_LOSSES = 0.024
"""The counterfactual of the ``long-bursts`` deviation: Markov model 3's loss events, each one
frame long. Model 3 (ε = 0.1) loses a flow's frames in runs of about 4.2 frames (TCP-ELN, 20
seeds, docs/buchholcz.md "Loss runs the Markov channels realise"): ε / 4.2 = 0.024 loss events
per frame, here as independent single-frame losses (uniform p = 0.024)."""

COUNTERFACTUALS = {
    "wired-10m": (
        "the wired bottleneck at 10 Mb/s (links.0.rate)",
        (("links.0.rate", WIRED_FAST),),
        (("ftp", "uniform", "0", ("reno", "eln")), ("ftp", "uniform", "0.005", ("reno", "eln")),
         *(("ftp", "markov", str(k), ("reno", "eln")) for k in (1, 2, 4, 5, 7, 8))),
    ),
    "single-losses": (
        f"model 3's loss events as single-frame losses (uniform p = {SINGLE_LOSSES:g})",
        _errors(uniform(SINGLE_LOSSES)),
        (("ftp", "markov", "3", ("eln",)),),
    ),
    # TCP-ELN's corruption response over a recovery that repairs several holes of a window
    # (docs/buchholcz.md, "long-bursts"): model 3's frames kept, its multi-frame runs
    # recovered by NewReno's partial ACKs or the SACK scoreboard instead of Reno's timeout.
    **{
        f"eln-{base}": (
            f"TCP-ELN over {title} (scheme tcp-eln-{base})",
            (("scheme", f"tcp-eln-{base}"), knob),
            (*(("ftp", "markov", str(k), ("eln",)) for k in (3, 6, 9)),
             ("ftp", "uniform", "0.1", ("eln",))),
        )
        for base, title, knob in (
            ("newreno", "NewReno (RFC 6582)", ("tcp.newreno", "rfc6582")),
            ("sack", "SACK (RFC 6675)", ("tcp.sack_sender", "rfc6675")),
        )
    },
}  # fmt: skip
"""``{key: (what, overrides on top of the headline run, (traffic, kind, key, labels) of the
headline runs it changes)}``: runs that remove a deviation's mechanism (docs/buchholcz.md,
"Where our numbers differ"); their targets read them through ``Target.counterfactual``."""


def _counterfactuals(headline: dict[str, Experiment]) -> list[Experiment]:
    out = []
    for cf, (what, overrides, settings) in COUNTERFACTUALS.items():
        for traffic, kind, key, labels in settings:
            for label in labels:
                e = headline[exp_id(traffic, kind, key, label)]
                out.append(
                    Experiment(
                        id=f"{e.id}~{cf}",
                        group="counterfactual",
                        label=label,
                        x=e.x,
                        overrides=(*e.overrides, *overrides),
                        description=f"{e.description} [counterfactual: {what}]",
                        params=e.params,
                        max_seeds=1 if key == "0" else None,
                        counterfactual=cf,
                    )
                )
    return out


def _all() -> list[Experiment]:
    exps = _experiments()
    return exps + _counterfactuals({e.id: e for e in exps})


EXPERIMENTS: tuple[Experiment, ...] = tuple(_all())
BY_ID = {e.id: e for e in EXPERIMENTS}
GROUPS = (
    "ftp-uniform", "ftp-markov", "web-uniform", "web-markov", "fig4",
    "ftp-knobs", "baseline", "web-load", "web-hack", "counterfactual",
)  # fmt: skip
GROUP_TITLES = {
    "ftp-uniform": "FTP, uniform error (Fig. 6)",
    "ftp-markov": "FTP, Markov models 1-9 (Fig. 7)",
    "web-uniform": "Web, uniform error (Fig. 8)",
    "web-markov": "Web, Markov models 1-9 (Fig. 9)",
    "fig4": "Fig. 4: one corrupted packet",
    "ftp-knobs": "FTP: TCP-ELN under every reading of the knobs C2 and C6",
    "baseline": "FTP and web under the modern-profile baseline",
    "web-load": "Web: 5 sessions per mobile (the other reading of the load)",
    "web-hack": "Web: TCP-ELN identifying corrupted frames by their header (HACK)",
    "counterfactual": "FTP: the deviations' mechanisms removed (counterfactual runs)",
}
