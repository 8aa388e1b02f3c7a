"""TCP over GSM circuit-switched data with RLP (dissertation §4.2; spec §6 S1-S5, §8 RT15-RT21):
the runs on the ``gsm`` preset (their targets in :mod:`lossylink.papers.ludwig2000.gsm.targets`,
every one also checked by ``crates/lossylink/tests/it/gsm.rs``).

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
AGGRESSIVE = (("tcp.slow_tick", "10ms"), ("tcp.min_rto", "200ms"))
"""The [KRLKA97] contrast of RT17: a fine clock and a 200 ms minimum RTO instead of TCP-Lite's
500 ms ticks and 1 s minimum."""


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
    _exp("gsm-s1-krlka", "S1 contrast", "[KRLKA97]",
         "contrast: poor channel 1 with an aggressive timer (10 ms clock, 200 ms minimum RTO)",
         _profile("poor-b", 1), ("hops.0.gsm", VJ), *AGGRESSIVE),
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
CAMPAIGN = tuple(f"gsm-s1-{sig}-{k}" for sig, _, _ in CHANNELS for k in range(1, CAMPAIGN_RUNS + 1))
"""The runs of the S1 campaign."""

FIGURES: tuple[Figure, ...] = (
    Figure("gsm-multilayer", "Multi-layer time-sequence plots (MultiTracer, Figs 3-6, 4-10, "
           "4-7): TCP sender, receiver (+10,000 B) and RLP sender (+20,000 B)", "multilayer",
           ("gsm-s1", "gsm-s3", "gsm-s2")),
    Figure("gsm-utilization", "Fig 4-5 (S1 campaign): utilization of each run", "utilization",
           note="1 % bins rounded up; each bin with the throughput range of its runs"),
)  # fmt: skip
FIGURE_GROUP = {"gsm-utilization": "gsm"}
"""The group of a figure without traced runs."""
