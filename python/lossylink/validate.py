"""``lossylink validate linux``: today's simulated senders beside the real Linux kernel's, on a
grid of paths (docs/validation.md).

Each point of the grid is one path: a host, a router and a host, the router's link to the
receiver the bottleneck (rate, one-way delay half the round trip, a drop-tail queue of a
multiple of the bandwidth-delay product, and random loss on its forward direction when the point
has some). For each kernel congestion control the same scenario runs twice with the same seed:
emulated, with the kernel's TCP through the links in real time (``lossylink emulate``), and
simulated, with the sender profile that claims to match it. Because the links, queues and error
models are the same code on both sides, a difference isolates the sender model.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lossylink.emulation import timing_warning
from lossylink.errors import InvalidValueError, PrivilegeError
from lossylink.runner import run
from lossylink.scenario import Scenario

#: The kernel congestion controls and the simulated sender each is compared with. The `linux`
#: profile's controller is CUBIC, and it has no Reno, so the kernel's Reno is set beside the
#: RFC 6675 SACK sender with Reno on the `modern` profile (SACK, limited transmit, RFC 6298
#: timer), as crates/emu/tests/lossy.rs does.
SIMULATED = {
    "reno": "e2e-linux+reno",
    "cubic": "e2e-linux",
    "bbr": "e2e-linux+bbr",
}

#: The default grid: 3 rates x 2 round trips x 2 queue sizes x 2 loss rates = 24 points.
DEFAULT_GRID: dict[str, list[float]] = {
    "rate_mbps": [2.0, 10.0, 50.0],
    "rtt_ms": [20.0, 100.0],
    "queue_bdp": [0.5, 2.0],
    "loss": [0.0, 0.01],
}

#: What each axis may hold (inclusive), for a one-line error on anything else.
AXIS_RANGES = {
    "rate_mbps": (0.1, 1000.0),
    "rtt_ms": (4.0, 2000.0),
    "queue_bdp": (0.05, 64.0),
    "loss": (0.0, 0.5),
}

#: Seconds of transfer at the bottleneck rate a point sends (at least MIN_TRANSFER bytes).
TRANSFER_SECONDS = 8.0
MIN_TRANSFER = 1 << 20
#: The fixed socket buffers of a simulated sender and receiver on the modern profile (the
#: ``reno`` scheme); the linux-profile schemes autotune as the kernel does, between Linux's
#: defaults (tcp.autotune = "linux": tcp_rmem 128 KiB to 32 MiB, tcp_wmem[2] 4 MiB;
#: docs/modern.md), and do not use it.
SIM_BUFFER = "6MiB"
#: The segment the kernel sends on the emulator's 1500-byte TUN links: 1500 - 20 (IP) - 20
#: (TCP) - 12 (timestamps).
MSS = 1448
#: Metrics compared, with the simulator's names (the emulator reports the kernel's under them).
METRICS = (
    "throughput_mbps",
    "queue_drops",
    "sender_retransmitted_segments",
    "sender_timeouts",
    "sender_fast_retransmits",
)


@dataclass(frozen=True)
class Point:
    """One path of the grid, and how long its transfer lasts at the bottleneck rate."""

    rate_mbps: float
    rtt_ms: float
    queue_bdp: float
    loss: float
    seconds: float = TRANSFER_SECONDS

    @property
    def queue_packets(self) -> int:
        """The bottleneck queue: ``queue_bdp`` times the bandwidth-delay product in 1500-byte
        packets, at least 2."""
        bdp = self.rate_mbps * 1e6 / 8 * self.rtt_ms / 1e3
        return max(2, round(self.queue_bdp * bdp / 1500))

    @property
    def expected_mbps(self) -> float:
        """The rate a loss-based sender may expect: the bottleneck, or with random loss p the
        Mathis et al. (CCR 1997) bound MSS/RTT · sqrt(3/2)/sqrt(p) if lower."""
        if self.loss <= 0:
            return self.rate_mbps
        mathis = MSS * 8 / (self.rtt_ms / 1e3) * math.sqrt(1.5 / self.loss) / 1e6
        return min(self.rate_mbps, mathis)

    @property
    def transfer_bytes(self) -> int:
        """What the point sends: ``seconds`` at :attr:`expected_mbps`, at least 1 MiB (a
        transfer sized by the bottleneck alone would take minutes behind 1 % loss)."""
        return max(MIN_TRANSFER, int(self.expected_mbps * 1e6 / 8 * self.seconds))

    @property
    def label(self) -> str:
        loss = f"{self.loss * 100:g}%"
        return f"{self.rate_mbps:g} Mb/s, {self.rtt_ms:g} ms, {self.queue_bdp:g} BDP, loss {loss}"

    def toml(self, scheme: str) -> str:
        """The scenario of the point, simulated with ``scheme``."""
        one_way_us = round(self.rtt_ms * 1000 / 2)
        access_us = min(500, one_way_us // 4)
        bottleneck_us = one_way_us - access_us
        access_rate = max(100.0, 10 * self.rate_mbps)
        # Random loss on the data direction only (ACKs are not lost): the forward direction.
        bernoulli = f'{{ model = "bernoulli", p = {self.loss} }}'
        error = (
            f'\nrole = "wireless"\nforward = {{ error = {bernoulli} }}'
            if self.loss > 0
            else '\nrole = "wired"'
        )
        return f"""name = "validate"
scheme = "{scheme}"
[tcp]
window_scaling = true
buffer = "{SIM_BUFFER}"
mss = {MSS}
[[nodes]]
name = "client"
kind = "host"
[[nodes]]
name = "router"
kind = "router"
[[nodes]]
name = "server"
kind = "host"
[[links]]
name = "access"
between = ["client", "router"]
role = "wired"
rate = "{access_rate:g}Mbps"
delay = "{access_us}us"
queue = 1000
[[links]]
name = "bottleneck"
between = ["router", "server"]{error}
rate = "{self.rate_mbps:g}Mbps"
delay = "{bottleneck_us}us"
queue = {self.queue_packets}
[[flows]]
name = "transfer"
from = "client"
to = "server"
bytes = {self.transfer_bytes}
"""


def grid_points(
    grid: Mapping[str, Sequence[Any]] | None = None, seconds: float = TRANSFER_SECONDS
) -> list[Point]:
    """The points of ``grid`` (axes as DEFAULT_GRID's; a missing axis takes its default), each
    sending ``seconds`` at its bottleneck rate."""
    if not (math.isfinite(seconds) and 0.1 <= seconds <= 600):
        raise InvalidValueError(f"seconds: {seconds!r} is outside 0.1..=600")
    axes = dict(DEFAULT_GRID)
    for key, values in (grid or {}).items():
        if key not in DEFAULT_GRID:
            allowed = ", ".join(DEFAULT_GRID)
            raise InvalidValueError(f"grid: unknown axis {key!r} (allowed: {allowed})")
        lo, hi = AXIS_RANGES[key]
        parsed = []
        for v in values:
            try:
                x = float(v)
            except (TypeError, ValueError):
                raise InvalidValueError(f"grid: {key}: {v!r} is not a number") from None
            if not (math.isfinite(x) and lo <= x <= hi):
                raise InvalidValueError(f"grid: {key}: {v!r} is outside {lo:g}..={hi:g}")
            parsed.append(x)
        if not parsed:
            raise InvalidValueError(f"grid: {key} has no value")
        axes[key] = parsed
    return [Point(*combo, seconds=seconds) for combo in itertools.product(*axes.values())]


def has_privileges() -> bool:
    """Whether this process has CAP_NET_ADMIN (12) and CAP_SYS_ADMIN (21), which the emulated
    half needs (capabilities(7); the effective set in /proc/self/status)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            line = next(x for x in f if x.startswith("CapEff:"))
    except (OSError, StopIteration):
        return False
    caps = int(line.split()[1], 16)
    return bool(caps >> 12 & 1) and bool(caps >> 21 & 1)


def require_privileges() -> None:
    """One-line error unless the emulated half can run."""
    if not has_privileges():
        raise PrivilegeError(
            "validate linux: missing privilege CAP_NET_ADMIN or CAP_SYS_ADMIN (run as root): "
            "the real kernel's TCP runs in network namespaces"
        )


def estimate_seconds(points: Sequence[Point], ccs: Sequence[str], seeds: int) -> float:
    """Real time the emulated half takes, roughly: each run's transfer at the bottleneck rate
    plus two round trips of slow start per doubling to the window, plus a second of set-up."""
    total = 0.0
    for p in points:
        bdp_segments = max(1.0, p.rate_mbps * 1e6 / 8 * p.rtt_ms / 1e3 / MSS)
        slow_start = math.log2(bdp_segments) * p.rtt_ms / 1e3
        total += p.transfer_bytes * 8 / (p.expected_mbps * 1e6) + slow_start + 1.0
    return total * len(ccs) * seeds


@dataclass
class Row:
    """One point x congestion control x seed: both halves' metrics and cwnd series."""

    point: Point
    cc: str
    seed: int
    scheme: str
    emulated: dict[str, Any]
    simulated: dict[str, Any]
    emulated_cwnd: list[tuple[float, float]] = field(default_factory=list)
    simulated_cwnd: list[tuple[float, float]] = field(default_factory=list)
    late_warning: str | None = None


def run_point(point: Point, cc: str, seed: int, emulate: Callable[..., dict[str, Any]]) -> Row:
    """Emulate, then simulate, one point with one seed (the same scenario, bytes and seed)."""
    scheme = SIMULATED[cc]
    scenario = Scenario.from_toml(point.toml(scheme))
    result = emulate(scenario.core, seed=seed, cc=cc)
    samples = result.pop("cwnd_samples", [])
    sim = run(scenario, seed=seed, trace=True)
    trace = sim.trace["sender"]
    simulated_cwnd = list(zip(trace["time_s"], trace["cwnd"], strict=True))
    return Row(
        point=point,
        cc=cc,
        seed=seed,
        scheme=scheme,
        emulated=result,
        simulated=sim.to_dict(),
        emulated_cwnd=[(t, c) for t, c, *_ in samples],
        simulated_cwnd=simulated_cwnd,
        late_warning=timing_warning(result),
    )


def _ratio(sim: float, emu: float) -> float:
    """sim / emu, 1 when both are 0, inf when only the kernel's is 0."""
    if emu == 0:
        return 1.0 if sim == 0 else math.inf
    return sim / emu


def summarise(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """One record per point x congestion control: each metric's mean over the seeds on both
    sides, the ratio simulated / emulated, and the kernel's own noise (the spread of its
    goodput over the seeds, relative to the mean), worst goodput agreement first."""
    groups: dict[tuple[Point, str], list[Row]] = {}
    for r in rows:
        groups.setdefault((r.point, r.cc), []).append(r)
    out = []
    for (point, cc), rs in groups.items():
        rec: dict[str, Any] = {
            "rate_mbps": point.rate_mbps,
            "rtt_ms": point.rtt_ms,
            "queue_bdp": point.queue_bdp,
            "queue_packets": point.queue_packets,
            "loss": point.loss,
            "cc": cc,
            "scheme": rs[0].scheme,
            "seeds": len(rs),
            "late": sum(r.late_warning is not None for r in rs),
        }
        for m in METRICS:
            emu = statistics.fmean(float(r.emulated.get(m) or 0) for r in rs)
            sim = statistics.fmean(float(r.simulated.get(m) or 0) for r in rs)
            rec[f"{m}_emulated"] = emu
            rec[f"{m}_simulated"] = sim
            rec[f"{m}_ratio"] = _ratio(sim, emu)
        goodputs = [float(r.emulated.get("throughput_mbps") or 0) for r in rs]
        mean = statistics.fmean(goodputs)
        rec["kernel_noise"] = (max(goodputs) - min(goodputs)) / mean if mean > 0 else 0.0
        off = abs(rec["throughput_mbps_ratio"] - 1)
        rec["goodput_off"] = off
        rec["beyond_noise"] = off > max(rec["kernel_noise"], 0.05)
        out.append(rec)
    out.sort(key=lambda r: -r["goodput_off"])
    return out


def verdict(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Per congestion control: the median |goodput ratio - 1|, the median |ratio - 1| of the
    queue drops and retransmissions (where the kernel had some), the worst point's, and how
    many points are beyond 15 % (the bars of docs/validation.md: 5 %, 15 %, 20 %)."""
    out: dict[str, dict[str, float]] = {}
    for cc in dict.fromkeys(r["cc"] for r in records):
        rs = [r for r in records if r["cc"] == cc]

        def med(metric: str, rs: list[Mapping[str, Any]] = rs) -> float:
            offs = [
                abs(r[f"{metric}_ratio"] - 1)
                for r in rs
                if r[f"{metric}_emulated"] > 0 and math.isfinite(r[f"{metric}_ratio"])
            ]
            return statistics.median(offs) if offs else 0.0

        out[cc] = {
            "points": len(rs),
            "goodput_median_off": med("throughput_mbps"),
            "goodput_worst_off": max(r["goodput_off"] for r in rs),
            "beyond_15pct": sum(r["goodput_off"] > 0.15 for r in rs),
            "drops_median_off": med("queue_drops"),
            "retransmissions_median_off": med("sender_retransmitted_segments"),
        }
    return out
