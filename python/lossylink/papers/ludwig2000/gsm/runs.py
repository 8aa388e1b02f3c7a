"""TCP over GSM circuit-switched data with RLP (dissertation §4.2; spec §6 S1-S5, §8 RT15-RT21):
the runs on the ``gsm`` preset (their targets in :mod:`lossylink.papers.ludwig2000.gsm.targets`,
every one also checked by ``crates/lossylink/tests/it/gsm.rs``).

- S1/S4 (RT15, RT19): a clean channel with L2R's 960 B/s throttle: 848 B/s of TCP payload, a
  fully used link, and no timeout across the XOFF gaps.
- S1 campaign (RT16, RT17; Fig 4-5): 20 good-signal (trace_A-like) and 10 poor-signal
  (trace_B-like, with deep fades at §4.2.3's 14 resets in 2 h) runs of 230 KB to 1.5 MB, VJ on,
  each run its own channel and L2R gaps; utilization per run (§3.2.2), link resets and spurious
  timeouts; the same 30 runs without VJ (the counterfactual of the low runs' cause).
- Fig 4-6: the clean run with an interface queue below 8 KB (15 packets; 12 and 14 beside it):
  a local drop, its fast retransmit, and the burst its ACK releases.
- S3 (RT18): a 1.3 s burst of erased blocks (``s3_burst.trace``): RLP resends until the frames
  get through; TCP-Lite's timer does not fire.
- S2 (RT20): a 4 s burst (``s2_reset.trace``) exceeds N2 = 6 and resets the link with VJ on:
  the decompressor is out of step and the rest of the flight is discarded at the receiver.
  Fig 4-9: the same, and a burst of the ACK direction (``s2_ack.trace``) that loses the ACK of
  the timeout's retransmission: the timer backs off on an RTO the queue inflated.
- Counterfactuals of the failing GSM targets (docs/ludwig2000.md#gsm-open): the poor campaign
  runs with NewReno, VJ on and off (``-newreno``, ``-novj-newreno``: TCP-Lite's Reno repairs one
  loss a window by fast retransmit, and a reset flushes two), without their deep fades
  (``-nofades``: T6's slowest run at full utilization without the resets), S2 with a longer RLP
  round trip (``gsm-s2-rtt800``, ``-rtt1200``: how much new data RLP sends into a fade sets
  RT20's lost/discarded split), and S1 without Net/3's socket-buffer rounding
  (``gsm-s1-norounding``: RT21's load).
- S5 (RT21): the load climbs to the advertised window (18 segments) against a pipe of about 2;
  draining that queue takes longer than a new connection's 6 s initial RTO: a second connection
  from the mobile opens at 100 s with a SYN (``tcp.syn``, ``s5_second.toml``, as
  ``crates/lossylink/tests/it/gsm_s5.rs``), which times out behind the queue; with an interface
  queue of 4 packets (the ISPs' 3-4 per line) it does not.
"""

from __future__ import annotations

from pathlib import Path

from lossylink.papers._base import Figure
from lossylink.papers.ludwig2000.experiment import DATA, Experiment

GROUPS = ("gsm",)
GROUP_TITLES = {"gsm": "S1-S5: TCP over GSM-CSD with RLP (dissertation §4.2)"}

S3_TRACE = DATA / "s3_burst.trace"
"""65 erased blocks (1.3 s) from 60 s on."""
S2_TRACE = DATA / "s2_reset.trace"
"""200 erased blocks (4 s) from 60 s on: more than N2 = 6 retransmissions 400 ms apart."""
ACK_TRACE = DATA / "s2_ack.trace"
"""200 erased blocks (4 s) from 72.0 s on, for the ACK direction of Fig 4-9: S2's timeout fires
at 71.79 s and its retransmission's ACK leaves the receiver inside the burst."""
ACK_BURST = (72.0, 76.0)
"""The ACK-direction burst of ``s2_ack.trace``, s."""
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
CAMPAIGN_GOOD = 20
CAMPAIGN_POOR = 10
"""Runs per signal class in the S1 campaign: two good-signal runs to one poor, as the
dissertation's six hours (§3.2.3: four hours good (D), two hours poor (E); §4.2.1: "one third
of all measurements were taken in an environment with poor receiver signal strength")."""
SIZE_MIN_KB, SIZE_MAX_KB = 230, 1500
"""§3.2.2: "a series of large bulk data transfers ranging in size from 230 KBytes to 1.5
MBytes"."""
RESETS_PER_POOR_HOUR = 7.0
"""The reset rate the poor-signal runs' deep fades are drawn at: §4.2.3 "We have captured 14
resets, all of which occurred when the receiver signal strength was extremely low", in the two
hours of poor-signal transfers (§3.2.3): 14 / 2 h. Not fitted to Fig 4-5."""
FADE = "4s"
"""The length of a deep fade: longer than N2 = 6 retransmissions 400 ms apart (2.4 s, §2.4.3)
plus L2R's longest XOFF gap (1.3 s, §3.2.5), so that a fade resets a link that is sending; the
dissertation gives no length (S2's burst, ``s2_reset.trace``, is the same 4 s)."""


def campaign_size_kb(k: int, n: int) -> int:
    """The transfer of run ``k`` (1-based) of ``n`` in a class: sizes spaced evenly in log from
    230 KB to 1.5 MB (§3.2.2), the k-th at the middle of its share."""
    return round(SIZE_MIN_KB * (SIZE_MAX_KB / SIZE_MIN_KB) ** ((k - 0.5) / n))


CHANNELS = (
    ("good", "good", "good (trace_A-like)", CAMPAIGN_GOOD, 0),
    ("poor", "poor-b", "poor (trace_B-like, deep fades)", CAMPAIGN_POOR, 100),
)
"""(signal, erasure profile, label, runs, first draw): every run its own realization of the
channel and of L2R's gaps (draw = first + k), the poor ones with deep fades."""
VJ = "{ n2 = 6, vj = true, l2r = { rate = 960 } }"


def campaign_gsm(draw: int, *, vj: bool = True, per_direction: bool = False) -> str:
    """A campaign run's RLP link: N2 = 6, VJ on (off for the counterfactual), L2R at 960 B/s
    with the run's own gaps; a reset is the link's (``per_direction``: each direction's alone,
    the counterfactual of GSM's one reset procedure)."""
    hc = "vj = true, " if vj else ""
    reset = 'reset = "direction", ' if per_direction else ""
    return f"{{ n2 = 6, {hc}{reset}l2r = {{ rate = 960, draw = {draw} }} }}"


def campaign_blocks(profile: str, draw: int, *, fades: bool = True) -> str:
    """A campaign run's channel: its own draw of the profile (60 minutes, longer than the 1.5 MB
    transfer), the poor ones with deep fades at the published reset rate (``fades=False``: the
    counterfactual without them)."""
    fades_text = (
        f", fades = {{ per_hour = {RESETS_PER_POOR_HOUR}, length = \"{FADE}\" }}"
        if profile != "good" and fades else ""
    )  # fmt: skip
    return f'{{ profile = "{profile}", minutes = 60, draw = {draw}{fades_text} }}'


FIG46_QUEUE = 15
"""Fig 4-6's interface queue, packets: the dissertation's kernel had one "smaller than the socket
buffer size of 8 KBytes" (§4.2.2), no size given; 15 is the most 519-byte packets below 8 KB.
The burst target reports 12 and 14 beside it."""
FIG46_ALT = (12, 14)
S2_RTT_ALT = ((800, 3), (1200, 2))
"""S2's counterfactual RLP round trips (ms) with the N2 that keeps the reset 2.4 s into the
burst (ours: 400 ms, N2 = 6)."""
AGGRESSIVE = (("tcp.slow_tick", "10ms"), ("tcp.min_rto", "200ms"))
"""The [KRLKA97] contrast of RT17: a fine clock and a 200 ms minimum RTO instead of TCP-Lite's
500 ms ticks and 1 s minimum."""


def _blocks(path: Path) -> tuple[str, str]:
    return ("hops.0.forward.blocks", f'{{ file = "{path.as_posix()}" }}')


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
        _exp(f"gsm-s1-{sig}-{k}{arm}", "S1", "Fig 4-5" if not arm else "Fig 4-5, without VJ",
             f"campaign: {label} signal, run {k}: {campaign_size_kb(k, n)} KB, "
             + ("VJ on" if not arm else "the same without VJ (the counterfactual of §4.2.1)"),
             ("transfer", f"{campaign_size_kb(k, n)}KB"),
             ("hops.0.blocks", campaign_blocks(profile, first + k)),
             ("hops.0.gsm", campaign_gsm(first + k, vj=not arm)),
             traced=sig == "poor" and not arm)
        for arm in ("", "-novj")
        for sig, profile, label, n, first in CHANNELS
        for k in range(1, n + 1)
    ),
    *(
        _exp(f"gsm-s1-poor-{k}-perdir", "S1", "Fig 4-5, resets per direction",
             f"campaign: poor signal, run {k}: {campaign_size_kb(k, CAMPAIGN_POOR)} KB, VJ on, "
             "each direction resetting alone (the counterfactual of RLP's link-wide reset)",
             ("transfer", f"{campaign_size_kb(k, CAMPAIGN_POOR)}KB"),
             ("hops.0.blocks", campaign_blocks("poor-b", 100 + k)),
             ("hops.0.gsm", campaign_gsm(100 + k, per_direction=True)))
        for k in range(1, CAMPAIGN_POOR + 1)
    ),
    *(
        _exp(f"gsm-s1-poor-{k}{arm}-newreno", "S1", "Fig 4-5, NewReno (counterfactual)",
             f"campaign: poor signal, run {k}: {campaign_size_kb(k, CAMPAIGN_POOR)} KB, "
             + ("VJ on" if not arm else "without VJ")
             + ", NewReno: both packets a reset flushes repaired without a timeout",
             ("transfer", f"{campaign_size_kb(k, CAMPAIGN_POOR)}KB"),
             ("hops.0.blocks", campaign_blocks("poor-b", 100 + k)),
             ("hops.0.gsm", campaign_gsm(100 + k, vj=not arm)), ("scheme", "e2e-newreno"))
        for arm in ("", "-novj")
        for k in range(1, CAMPAIGN_POOR + 1)
    ),
    *(
        _exp(f"gsm-s1-poor-{k}-nofades", "S1", "Fig 4-5, without deep fades (counterfactual)",
             f"campaign: poor signal, run {k}: {campaign_size_kb(k, CAMPAIGN_POOR)} KB, VJ on, "
             "the same channel without its deep fades (the reset calibration)",
             ("transfer", f"{campaign_size_kb(k, CAMPAIGN_POOR)}KB"),
             ("hops.0.blocks", campaign_blocks("poor-b", 100 + k, fades=False)),
             ("hops.0.gsm", campaign_gsm(100 + k)))
        for k in range(1, CAMPAIGN_POOR + 1)
    ),
    _exp("gsm-s1-krlka", "S1 contrast", "[KRLKA97]",
         "contrast: poor run 1's channel and transfer with an aggressive timer (10 ms clock, "
         "200 ms minimum RTO)",
         ("transfer", f"{campaign_size_kb(1, CAMPAIGN_POOR)}KB"),
         ("hops.0.blocks", campaign_blocks("poor-b", 101)),
         ("hops.0.gsm", campaign_gsm(101)), *AGGRESSIVE, traced=True),
    *(
        _exp(f"gsm-fig46{'' if q == FIG46_QUEUE else f'-q{q}'}", "S1", "Fig 4-6",
             f"a local drop: the clean S1 run with an interface queue of {q} packets (< 8 KB)",
             ("hops.0.queue", str(q)), traced=True)
        for q in (FIG46_QUEUE, *FIG46_ALT)
    ),
    _exp("gsm-s3", "S3", "Fig 4-10", "a 1.3 s burst of erased blocks at 60 s",
         _blocks(S3_TRACE), traced=True),
    _exp("gsm-s2", "S2", "Figs 4-7, 4-8", "a 4 s burst at 60 s resets RLP; VJ on",
         _blocks(S2_TRACE), ("hops.0.gsm", VJ), traced=True),
    _exp("gsm-s2-backoff", "S2", "Fig 4-9",
         "S2's reset, and a 4 s burst on the ACK direction from 72 s that loses the ACK of the "
         "timeout's retransmission; VJ on", _blocks(S2_TRACE),
         ("hops.0.reverse.blocks", f'{{ file = "{ACK_TRACE.as_posix()}" }}'), ("hops.0.gsm", VJ),
         traced=True),
    _exp("gsm-s2-plain", "S2", "Figs 4-7, 4-8", "the same reset without VJ",
         _blocks(S2_TRACE)),
    *(
        _exp(f"gsm-s2-rtt{rtt}", "S2", "Figs 4-7, 4-8",
             f"S2 with an RLP round trip of {rtt} ms and N2 = {n2} (the reset after the same "
             "2.4 s): RLP sends more new data into the fade before its retransmissions fill "
             "every block", _blocks(S2_TRACE),
             ("hops.0.gsm",
              f'{{ n2 = {n2}, vj = true, rlp_rtt = "{rtt}ms", l2r = {{ rate = 960 }} }}'))
        for rtt, n2 in S2_RTT_ALT
    ),
    _exp("gsm-s1-norounding", "S1/S4", "§4.2.2",
         "the clean S1 run without Net/3's rounding of the socket buffer to whole segments "
         "(rwnd 8192 instead of 8496 bytes)", ("tcp.buffer_rounding", "none"), traced=True),
    Experiment("gsm-s5", "gsm", "S5", "§4.2.2", S5_FILE, (),
               "a second connection opens with a SYN at 100 s behind the bulk flow's queue "
               "(IFQ 50)", traced=True, max_seeds=1),
    Experiment("gsm-s5-q4", "gsm", "S5", "§4.2.2", S5_FILE, (("links.0.queue", "4"),),
               "the same with an interface queue of 4 packets", traced=True, max_seeds=1),
)  # fmt: skip
CAMPAIGN = tuple(f"gsm-s1-{sig}-{k}" for sig, _, _, n, _ in CHANNELS for k in range(1, n + 1))
"""The runs of the S1 campaign."""
POOR = tuple(r for r in CAMPAIGN if "-poor-" in r)
"""Its poor-signal runs (the only ones with deep fades)."""
NOVJ = {r: f"{r}-novj" for r in CAMPAIGN}
"""Each campaign run's counterfactual: the same channel, gaps and transfer without VJ."""
PERDIR = {r: f"{r}-perdir" for r in POOR}
"""Each poor campaign run's counterfactual: the same with each direction resetting alone."""
NEWRENO = {r: f"{r}-newreno" for r in POOR}
NEWRENO_NOVJ = {r: f"{r}-novj-newreno" for r in POOR}
"""Each poor campaign run with NewReno, VJ on and off (the good runs have no reset and lose
nothing: Reno and NewReno send the same)."""
NOFADES = {r: f"{r}-nofades" for r in POOR}
"""Each poor campaign run without its deep fades."""

FIGURES: tuple[Figure, ...] = (
    Figure("gsm-multilayer", "Multi-layer time-sequence plots (MultiTracer, Figs 3-6, 4-10, "
           "4-7, 4-9): TCP sender, receiver (+10,000 B) and RLP sender (+20,000 B)",
           "multilayer", ("gsm-s1", "gsm-s3", "gsm-s2", "gsm-s2-backoff")),
    Figure("gsm-utilization", "Fig 4-5 (S1 campaign): utilization of each run", "utilization",
           note="1 % bins rounded up; each bin with the throughput range of its runs; grey: the "
           "same runs without VJ"),
)  # fmt: skip
FIGURE_GROUP = {"gsm-utilization": "gsm"}
"""The group of a figure without traced runs."""
