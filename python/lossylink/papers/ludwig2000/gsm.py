"""TCP over GSM circuit-switched data with RLP (dissertation §4.2; spec §6 S1-S5, §8 RT15-RT21):
the runs on the ``gsm`` preset and their targets, every one also checked by
``crates/lossylink/tests/gsm.rs``.

- S1/S4 (RT15, RT19): a clean channel with L2R's 960 B/s throttle: 848 B/s of TCP payload, a
  fully used link, and no timeout across the XOFF gaps.
- S1 campaign (RT16, RT17): ten runs on each of the synthetic good (trace_A-like) and poor
  (trace_B-like) channels, VJ compression on; utilization per run (§3.2.2) and spurious
  timeouts.
- S3 (RT18): a 1.3 s burst of erased blocks (``s3_burst.trace``): RLP resends until the frames
  get through; TCP-Lite's timer does not fire.
- S2 (RT20): a 4 s burst (``s2_reset.trace``) exceeds N2 = 6 and resets the link with VJ on:
  the decompressor is out of step and the rest of the flight is discarded at the receiver.
- S5 (RT21): the load climbs to the advertised window (18 segments) against a pipe of about 2;
  draining that queue takes longer than a new connection's 6 s initial RTO: a second connection
  from the mobile opens at 100 s with a SYN (``tcp.syn``, ``s5_second.toml``, as
  ``crates/lossylink/tests/gsm_s5.rs``), which times out behind the queue; with an interface
  queue of 4 packets (the ISPs' 3-4 per line) it does not.
"""

from __future__ import annotations

from pathlib import Path

from lossylink.papers._base import INF, Figure, Measured, Target, mean
from lossylink.papers._trace import SenderTrace
from lossylink.papers.ludwig2000.runs import Experiment
from lossylink.papers.ludwig2000.targets import Value, _t

GROUPS = ("gsm",)
GROUP_TITLES = {"gsm": "S1-S5: TCP over GSM-CSD with RLP (dissertation §4.2)"}
TABLE = "S1-S5 (GSM-CSD, RLP)"
TARGET_TABLES = (TABLE,)
TABLE_GROUP = {TABLE: "gsm"}
SRC = "spec §6 S1-S5, §8; tests/gsm.rs"
SRC5 = "spec §6 S5, §8 RT21; tests/gsm_s5.rs"

HERE = Path(__file__).parent
S3_TRACE = HERE / "s3_burst.trace"
"""65 erased blocks (1.3 s) from 60 s on."""
S2_TRACE = HERE / "s2_reset.trace"
"""200 erased blocks (4 s) from 60 s on: more than N2 = 6 retransmissions 400 ms apart."""
S5_FILE = "ludwig2000/s5_second.toml"
"""The S5 scenario (a topology document), relative to the papers package."""
S5_SECOND_AT = 100.0
"""When the second connection sends its SYN."""
S2_RESET_S = 62.42
"""The reset: the first erased frame at 60.00 s, its sixth retransmission at 62.40 s erased too."""
MSS = 460
RATE = 960
"""L2R's user bytes per second (§3.2.5)."""
SEGMENT_BYTES = MSS + 40 + 12 + 7
"""A segment on the link: TCP/IP header, timestamp option and PPP framing (§4.2.1)."""
CAMPAIGN_RUNS = 10
"""Channel realizations per signal class in the S1 campaign (each its own synthetic trace)."""
CHANNELS = (("good", "good", "good (trace_A-like)"), ("poor", "poor-b", "poor (trace_B-like)"))
VJ = "{ n2 = 6, vj = true, l2r = { rate = 960 } }"


def _blocks(path: Path) -> tuple[str, str]:
    return ("hops.0.forward.blocks", f'{{ file = "{path.as_posix()}" }}')


def _profile(name: str, draw: int) -> tuple[str, str]:
    return ("hops.0.blocks", f'{{ profile = "{name}", minutes = 10, draw = {draw} }}')


def _exp(eid: str, scenario: str, fig: str, desc: str, *overrides: tuple[str, str],
         traced: bool = False, seeds: int | None = 1) -> Experiment:  # fmt: skip
    return Experiment(
        eid, "gsm", scenario, fig, "gsm", (("scheme", "e2e"), *overrides), desc,
        traced=traced, max_seeds=seeds,
    )  # fmt: skip


EXPERIMENTS: tuple[Experiment, ...] = (
    _exp("gsm-s1", "S1/S4", "Figs 3-6, 3-7", "230 KB over RLP at 960 B/s, clean channel",
         traced=True),
    *(
        _exp(f"gsm-s1-{sig}-{k}", "S1", "Fig 4-5",
             f"campaign: {label} signal, channel realization {k}, VJ on",
             _profile(profile, k), ("hops.0.gsm", VJ))
        for sig, profile, label in CHANNELS
        for k in range(1, CAMPAIGN_RUNS + 1)
    ),
    _exp("gsm-s3", "S3", "Fig 4-10", "a 1.3 s burst of erased blocks at 60 s",
         _blocks(S3_TRACE), traced=True),
    _exp("gsm-s2", "S2", "Figs 4-7, 4-8", "a 4 s burst at 60 s resets RLP; VJ on",
         _blocks(S2_TRACE), ("hops.0.gsm", VJ), traced=True),
    _exp("gsm-s2-plain", "S2", "Figs 4-7, 4-8", "the same reset without VJ",
         _blocks(S2_TRACE)),
    Experiment("gsm-s5", "gsm", "S5", "§4.2.2", S5_FILE, (),
               "a second connection opens with a SYN at 100 s behind the bulk flow's queue "
               "(IFQ 50)", traced=True, max_seeds=1),
    Experiment("gsm-s5-q4", "gsm", "S5", "§4.2.2", S5_FILE, (("links.0.queue", "4"),),
               "the same with an interface queue of 4 packets", traced=True, max_seeds=1),
)  # fmt: skip


FIGURES: tuple[Figure, ...] = (
    Figure("gsm-multilayer", "Multi-layer time-sequence plots (MultiTracer, Figs 3-6, 4-10, "
           "4-7): TCP sender, receiver (+10,000 B) and RLP sender (+20,000 B)", "multilayer",
           ("gsm-s1", "gsm-s3", "gsm-s2")),
    Figure("gsm-utilization", "Fig 4-5 (S1 campaign): utilization of each run", "utilization",
           note="1 % bins rounded up; each bin with the throughput range of its runs"),
)  # fmt: skip
FIGURE_GROUP = {"gsm-utilization": "gsm"}
"""The group of a figure without traced runs."""

CAMPAIGN = tuple(f"gsm-s1-{sig}-{k}" for sig, _, _ in CHANNELS for k in range(1, CAMPAIGN_RUNS + 1))


def _campaign(m: Measured) -> list[float]:
    return [u for r in CAMPAIGN for u in m.values(r, "utilization_pct")]


def _share_at_least(limit: float) -> Value:
    def f(m: Measured) -> float:
        u = _campaign(m)
        return sum(x >= limit for x in u) / len(u)

    return f


def _spurious_per_hour(m: Measured) -> float:
    n = sum(sum(m.values(r, "sender_spurious_timeouts")) for r in CAMPAIGN)
    hours = sum(sum(m.values(r, "completion_s")) for r in CAMPAIGN) / 3600.0
    return n / hours


def _flight_segments(run: str, t: float) -> Value:
    def f(m: Measured) -> float:
        tr = SenderTrace(run, m.trace(run))
        w = tr.at(t)
        return (tr.snd_max_before(w.t + 1e-9, MSS) - w.una) / MSS

    return f


def _rest_of_flight(m: Measured) -> float:
    """Segments in flight at the reset that RLP had not yet taken (VJ discards them)."""
    tr = SenderTrace("gsm-s2", m.trace("gsm-s2"))
    w = tr.before(S2_RESET_S)
    flight = (tr.snd_max_before(S2_RESET_S, MSS) - w.una) / MSS
    return flight - mean(m, "gsm-s2", "rlp_flushed_packets")


def _discards_minus_rest(m: Measured) -> float:
    return mean(m, "gsm-s2", "vj_discards") - _rest_of_flight(m)


def second_events(m: Measured, run: str) -> list[tuple[float, str]]:
    """(time, kind) of the second connection's sender events in an S5 run."""
    ev = m.trace(run)["events"]
    return [
        (float(t), str(k))
        for t, k, f in zip(ev["time_s"], ev["kind"], ev["flow"], strict=True)
        if f == "second"
    ]


def _syn_timeouts(run: str) -> Value:
    return lambda m: float(sum(k == "syn-timeout" for _, k in second_events(m, run)))


def _connect(run: str) -> Value:
    def f(m: Measured) -> float:
        opened = [t for t, k in second_events(m, run) if k == "established"]
        return opened[0] - S5_SECOND_AT if opened else float("inf")

    return f


def _late(m: Measured) -> float:
    return mean(m, "gsm-s3", "completion_s") - mean(m, "gsm-s1", "completion_s")


def _metric(run: str, metric: str, scale: float = 1.0) -> Value:
    return lambda m: scale * mean(m, run, metric)


_BPS = 1e6 / 8.0
TARGETS: tuple[Target, ...] = (
    _t("gsm.rt15.throughput", TABLE, "S1: TCP payload rate at L2R's 960 B/s, no compression",
       848.0, (831.0, 865.0), _metric("gsm-s1", "throughput_mbps", _BPS), ("gsm-s1",), SRC,
       unit="B/s", tolerance="848 ± 2 %",
       expected=f"960 · {MSS}/{SEGMENT_BYTES} = {RATE * MSS / SEGMENT_BYTES:.0f}"),
    _t("gsm.rt15.utilization", TABLE, "S1: utilization of the RLP link (§3.2.2)", 100.0,
       (98.0, 100.0), _metric("gsm-s1", "utilization_pct"), ("gsm-s1",), SRC, unit="%",
       expected="≈ 100 %"),
    _t("gsm.rt19.timeouts", TABLE, "S4: timeouts across L2R's 950-1300 ms gaps", 0.0,
       (0.0, 0.0), _metric("gsm-s1", "sender_timeouts"), ("gsm-s1",), SRC, expected="none"),
    _t("gsm.rt19.gaps", TABLE, "S4: L2R XOFF gaps in the transfer", None, (1.0, INF),
       _metric("gsm-s1", "l2r_gaps"), ("gsm-s1",), SRC, expected="periodic gaps"),
    _t("gsm.rt16.share98", TABLE, "S1 campaign: share of runs with utilization ≥ 98 %", 0.85,
       (0.75, 1.0), _share_at_least(98.0), CAMPAIGN, SRC,
       expected="≈ 85 % of runs (Fig 4-5)"),
    _t("gsm.rt16.min", TABLE, "S1 campaign: lowest utilization of a run", 91.0, (88.0, 100.0),
       lambda m: min(_campaign(m)), CAMPAIGN, SRC, unit="%",
       expected="91 % (§4.2.1)"),
    _t("gsm.rt17.spurious", TABLE, "S1 campaign: spurious timeouts per hour of transfer",
       None, (0.0, 1.0), _spurious_per_hour, CAMPAIGN, SRC,
       expected="2 in 6 h, at connection start only"),
    _t("gsm.rt18.timeouts", TABLE, "S3: timeouts after a 1.3 s burst of RLP retransmissions",
       0.0, (0.0, 0.0), _metric("gsm-s3", "sender_timeouts"), ("gsm-s3",), SRC,
       expected="none (TCP-Lite tolerates > 1.2 s)"),
    _t("gsm.rt18.late", TABLE, "S3: how much later the transfer ends than without the burst",
       1.325, (1.0, 1.8), _late, ("gsm-s3", "gsm-s1"), SRC, unit="s",
       expected="data late by 1325 ms, receiver idle 2260 ms"),
    _t("gsm.rt20.reset", TABLE, "S2: RLP resets", 1.0, (1.0, 1.0),
       _metric("gsm-s2", "rlp_resets"), ("gsm-s2",), SRC, expected="a reset"),
    _t("gsm.rt20.discards", TABLE, "S2: VJ discards minus the rest of the flight", 0.0,
       (-2.0, 2.0), _discards_minus_rest, ("gsm-s2",), SRC, unit="segments",
       expected="off by 5: 13 discarded, the rest of the flight"),
    _t("gsm.rt20.plain", TABLE, "S2 without VJ: discards", 0.0, (0.0, 0.0),
       _metric("gsm-s2-plain", "vj_discards"), ("gsm-s2-plain",), SRC, expected="none"),
    _t("gsm.rt20.timeout", TABLE, "S2: the sender recovers by timeout", None, (1.0, INF),
       _metric("gsm-s2", "sender_timeouts"), ("gsm-s2",), SRC,
       expected="the retransmission's full header resynchronizes"),
    _t("gsm.rt21.load", TABLE, "S5: segments in flight at 100 s (load against a 2-segment pipe)",
       16.0, (17.0, 19.0), _flight_segments("gsm-s1", 100.0), ("gsm-s1",), SRC,
       unit="segments", tolerance="rwnd/MSS ± 1 (rwnd 8496 = 18 · 472)",
       expected="the advertised window (8 KB, 16 segments)"),
    _t("gsm.rt21.drain", TABLE, "S5: time to drain that load at 960 B/s", 7.5, (6.0, INF),
       lambda m: _flight_segments("gsm-s1", 100.0)(m) * SEGMENT_BYTES / RATE, ("gsm-s1",),
       SRC, unit="s", expected="> 6 s, a new connection's initial RTO: its SYN times out"),
    _t("gsm.rt21.syn", TABLE, "S5: the second connection's SYN timeouts (IFQ 50)", None,
       (1.0, INF), _syn_timeouts("gsm-s5"), ("gsm-s5",), SRC5,
       expected="its SYN times out at the 6 s initial RTO"),
    _t("gsm.rt21.connect", TABLE, "S5: from the SYN to the SYN-ACK (IFQ 50)", 7.5, (6.0, INF),
       _connect("gsm-s5"), ("gsm-s5",), SRC5, unit="s",
       expected="queue / rate: up to 7 KB at 960 B/s, ≈ 7.5 s, above the 6 s RTO"),
    _t("gsm.rt21.q4_syn", TABLE, "S5 with IFQ 4: the second connection's SYN timeouts", None,
       (0.0, 0.0), _syn_timeouts("gsm-s5-q4"), ("gsm-s5-q4",), SRC5,
       expected="none: 3-4 packets per line drain within the RTO"),
    _t("gsm.rt21.q4_connect", TABLE, "S5 with IFQ 4: from the SYN to the SYN-ACK", None,
       (0.0, 6.0), _connect("gsm-s5-q4"), ("gsm-s5-q4",), SRC5, unit="s",
       expected="below the 6 s initial RTO"),
)  # fmt: skip
