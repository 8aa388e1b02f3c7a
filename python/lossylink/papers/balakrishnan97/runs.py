"""The testbeds, published tables, experiments and figures of Balakrishnan et al. 1997 (the
data half of :mod:`lossylink.papers.balakrishnan97`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lossylink.papers._base import (
    WIRELESS,
    Figure,
)

PAPER = (
    "H. Balakrishnan, V. N. Padmanabhan, S. Seshan, R. H. Katz: A Comparison of Mechanisms for "
    "Improving TCP Performance over Wireless Links. IEEE/ACM Transactions on Networking 5(6), "
    "December 1997"
)
NAME = "balakrishnan97"
DOC = "docs/reproduction.md"
"""The page whose anchors explain the known deviations."""
PAPER_LABEL = "paper"
"""The column header of the paper's values in the target tables."""
TRANSFER = "8MiB"
"""The transfer of every run (§B.10)."""
DEFAULT_SEEDS = 10
QUICK_SEEDS = 3
"""``--quick``: seeds per experiment. Transfers stay 8 MiB: the runs take about a second, the
figures most of the time, and shorter transfers would change the numbers (slow start)."""

ERROR_EVERY = "64KiB"
"""The main error rate: one bit error per 64 KiB on average (BER 1.9e-6), both directions."""

# -- testbeds -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """A testbed column of Tables 2-4."""

    key: str
    label: str
    preset: str
    buffer: str
    paper_peak_mbps: float
    """The paper's loss-free peak of that testbed (§4.1): the base of "% of maximum"."""


CONFIGS: dict[str, Config] = {
    c.key: c
    for c in (
        Config("lan8", "LAN (8 KB)", "lan", "8KiB", 1.5),
        Config("lan32", "LAN (32 KB)", "lan", "32KiB", 1.5),
        Config("wan32", "WAN (32 KB)", "wan", "32KiB", 1.35),
    )
}
PEAKS = {"lan": 1.5, "wan": 1.35}
"""The paper's loss-free peaks (Mb/s), by preset."""


@dataclass(frozen=True)
class Cell:
    """A published table cell: throughput (wireless goodput, wired goodput)."""

    mbps: float
    wireless: float
    wired: float


def _cells(*cells: tuple[float, float, float] | None) -> tuple[Cell | None, ...]:
    return tuple(None if c is None else Cell(*c) for c in cells)


# scheme: the paper's cells for LAN 8 KB, LAN 32 KB, WAN 32 KB (None: "N.A." in the paper).
TABLE_2: dict[str, tuple[Cell | None, ...]] = {
    "ll": _cells((1.20, 95.6, 97.9), (1.20, 95.5, 97.9), (0.82, 95.5, 98.4)),
    "ll-tcp-aware": _cells((1.29, 97.6, 100.0), (1.36, 97.6, 100.0), (1.19, 97.6, 100.0)),
    "ll-smart": _cells((1.29, 96.1, 98.9), (1.29, 95.5, 98.3), (0.93, 95.3, 99.4)),
    "ll-smart-tcp-aware": _cells((1.37, 97.6, 100.0), (1.39, 97.7, 100.0), (1.22, 97.6, 100.0)),
}
TABLE_3: dict[str, tuple[Cell | None, ...]] = {
    "e2e": _cells((0.55, 97.0, 96.0), (0.70, 97.5, 97.5), (0.31, 97.3, 97.3)),
    "e2e-newreno": _cells((0.66, 97.3, 97.3), (0.89, 97.7, 97.3), (0.64, 97.5, 97.5)),
    "e2e-smart": _cells((1.12, 97.6, 97.6), (1.25, 97.2, 97.2), None),
    "e2e-ietf-sack": _cells((0.68, 97.3, 97.3), (1.12, 97.5, 97.5), (0.80, 97.5, 97.5)),
    "e2e-eln": _cells((0.69, 97.3, 97.2), (0.93, 97.5, 97.5), (0.64, 97.6, 97.6)),
    "e2e-eln-rxmt": _cells((0.86, 97.4, 97.3), (0.95, 97.5, 97.5), (0.72, 97.4, 97.4)),
}
TABLE_4: dict[str, tuple[Cell | None, ...]] = {
    # §B.2: Table 4 prints the WAN wired goodputs as 100 %; Figure 9 gives 99.9 and 99.8.
    "split": _cells((0.54, 97.4, 100.0), (0.60, 97.3, 100.0), (0.58, 97.2, 100.0)),
    "split-smart": _cells((1.30, 97.6, 100.0), (1.30, 97.2, 100.0), (1.10, 97.6, 100.0)),
}


@dataclass(frozen=True)
class Table:
    """A published table: its cells by scheme, and the figure that draws its 32 KB rows."""

    key: str
    title: str
    cells: dict[str, tuple[Cell | None, ...]]
    figure: str


TABLES = (
    Table("table2", "Table 2: link-layer schemes, 1 error / 64 KB", TABLE_2, "fig3"),
    Table("table3", "Table 3: end-to-end schemes, 1 error / 64 KB", TABLE_3, "fig6"),
    Table("table4", "Table 4: split-connection schemes, 1 error / 64 KB", TABLE_4, "fig9"),
)

# -- experiments ----------------------------------------------------------------------------

BURST_SIZES = (2, 4, 6)
BURST_SCHEMES = ("ll-tcp-aware", "ll-smart-tcp-aware")
BURST_CONFIG = "lan32"
BURST_SPACINGS = ("exponential", "fixed")
"""§B.3 leaves open whether bursts came at exponential gaps ("at an average rate of one every
64 KBytes") or exactly 64 KB apart ("generated once every 64 KBytes"): both are run."""
"""§B.3 leaves LAN/WAN and the buffer open; we use LAN 32 KB (the sweep's and Figure 3's)."""

SWEEP_EVERY_KIB = (16, 32, 64, 128, 256)
SWEEP_SCHEMES = (
    "e2e",
    "e2e-ietf-sack",
    "e2e-smart",
    "split-smart",
    "ll-tcp-aware",
    "ll-smart-tcp-aware",
)
SWEEP_CONFIG = "lan32"
"""§B.4: LAN; the buffer is not stated, 32 KB inferred (the 64 KB points match Tables 2-4)."""


@dataclass(frozen=True)
class Experiment:
    """One run configuration: a preset, overrides applied in order, and what the paper says."""

    id: str
    group: str
    """``table2`` ... ``table4``, ``peaks``, ``burst``, ``sweep``."""
    scheme: str
    config: str
    """Key of :data:`CONFIGS` (``lan8``, ...)."""
    overrides: tuple[tuple[str, str], ...]
    paper: Cell | None = None
    params: tuple[tuple[str, str | int], ...] = ()
    """Experiment parameters worth a results column (burst size, error interval)."""
    max_seeds: int | None = None
    """Loss-free runs need few seeds."""

    @property
    def preset(self) -> str:
        return CONFIGS[self.config].preset

    def columns(self) -> dict[str, Any]:
        """The ``results.csv`` columns of the testbed and the paper's cell."""
        return {
            "config": self.config,
            "paper_mbps": self.paper.mbps if self.paper else None,
            "paper_wireless_goodput_pct": self.paper.wireless if self.paper else None,
            "paper_wired_goodput_pct": self.paper.wired if self.paper else None,
        }


def _base(scheme: str, config: str, error_every: str = ERROR_EVERY) -> tuple[tuple[str, str], ...]:
    return (
        ("scheme", scheme),
        ("buffer", CONFIGS[config].buffer),
        ("error_every", error_every),
    )


def cell_id(scheme: str, config: str) -> str:
    """The id of a table cell's experiment, e.g. ``e2e@lan32``."""
    return f"{scheme}@{config}"


def _table_experiments() -> list[Experiment]:
    out = []
    for table in TABLES:
        for scheme, cells in table.cells.items():
            for config, cell in zip(CONFIGS, cells, strict=True):
                if cell is None:
                    continue
                out.append(
                    Experiment(
                        cell_id(scheme, config),
                        table.key,
                        scheme,
                        config,
                        _base(scheme, config),
                        cell,
                    )
                )
    return out


def burst_error(k: int, spacing: str = "exponential") -> str:
    """The wireless error model of the §4.5 experiment: bursts of ``k`` consecutive frames,
    at exponential gaps or exactly ``ERROR_EVERY`` apart."""
    return f'{{ model = "burst", every = "{ERROR_EVERY}", length = {k}, spacing = "{spacing}" }}'


def _burst_experiments() -> list[Experiment]:
    out = []
    for spacing in BURST_SPACINGS:
        for scheme in BURST_SCHEMES:
            for k in BURST_SIZES:
                overrides = (
                    ("scheme", scheme),
                    ("buffer", CONFIGS[BURST_CONFIG].buffer),
                    # Bursts hit the data direction (base station -> mobile); ACKs see no errors.
                    (f"hops.{WIRELESS}.forward.error", burst_error(k, spacing)),
                    (f"hops.{WIRELESS}.reverse.error", '{ model = "none" }'),
                )
                suffix = "" if spacing == "exponential" else f"-{spacing}"
                out.append(
                    Experiment(
                        f"{scheme}@burst{k}{suffix}",
                        "burst",
                        scheme,
                        BURST_CONFIG,
                        overrides,
                        params=(("burst_packets", k), ("burst_spacing", spacing)),
                    )
                )
    return out


def _sweep_experiments() -> list[Experiment]:
    out = []
    for scheme in SWEEP_SCHEMES:
        for kib in SWEEP_EVERY_KIB:
            out.append(
                Experiment(
                    f"{scheme}@{SWEEP_CONFIG}/{kib}KiB",
                    "sweep",
                    scheme,
                    SWEEP_CONFIG,
                    _base(scheme, SWEEP_CONFIG, f"{kib}KiB"),
                    params=(("error_every_kib", kib),),
                )
            )
    return out


PEAK_SEEDS = 3
EXPERIMENTS: tuple[Experiment, ...] = (
    *_table_experiments(),
    Experiment("peak@lan", "peaks", "e2e", "lan32", _base("e2e", "lan32", "0"), max_seeds=3),
    Experiment("peak@wan", "peaks", "e2e", "wan32", _base("e2e", "wan32", "0"), max_seeds=3),
    *_burst_experiments(),
    *_sweep_experiments(),
)
GROUPS = ("table2", "table3", "table4", "peaks", "burst", "sweep")
GROUP_TITLES = {
    "table2": "Table 2 / Figure 3: link-layer schemes",
    "table3": "Table 3 / Figure 6: end-to-end schemes",
    "table4": "Table 4 / Figure 9: split-connection schemes",
    "peaks": "Loss-free peaks (§4.1)",
    "burst": "Burst errors (§4.5): bursts of k packets, one burst per 64 KB on average, LAN 32 KB",
    "sweep": "Error-rate sweep (§4.6, Figure 12): LAN 32 KB",
}

# -- figures --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TracedRun:
    """A run traced for the time-sequence and cwnd figures (the first seed)."""

    id: str
    scheme: str
    config: str

    @property
    def overrides(self) -> tuple[tuple[str, str], ...]:
        return _base(self.scheme, self.config)

    @property
    def preset(self) -> str:
        return CONFIGS[self.config].preset


TRACED_RUNS: dict[str, TracedRun] = {
    r.id: r
    for r in (
        TracedRun("ll@wan32", "ll", "wan32"),
        TracedRun("ll-tcp-aware@wan32", "ll-tcp-aware", "wan32"),
        TracedRun("e2e@wan32", "e2e", "wan32"),
        TracedRun("e2e-eln@wan32", "e2e-eln", "wan32"),
        TracedRun("split@lan32", "split", "lan32"),
    )
}
WAN_BDP_BYTES = 23000

FIGURES: tuple[Figure, ...] = (
    Figure("fig3", "Figure 3: link-layer protocols (32 KB)", "bars", table="table2"),
    Figure(
        "fig4",
        "Figure 4: congestion window of LL and LL-TCP-AWARE, WAN",
        "cwnd",
        runs=("ll@wan32", "ll-tcp-aware@wan32"),
        reference_bytes=WAN_BDP_BYTES,
        note="dashed line: the 23000-byte WAN bandwidth-delay product",
    ),
    Figure(
        "fig5",
        "Figure 5: packet sequence traces of LL-TCP-AWARE and LL, WAN",
        "seq",
        runs=("ll-tcp-aware@wan32", "ll@wan32"),
    ),
    Figure("fig6", "Figure 6: end-to-end protocols (32 KB)", "bars", table="table3"),
    Figure(
        "fig7",
        "Figure 7: packet sequence traces of E2E (Reno) and E2E-ELN, WAN",
        "seq",
        runs=("e2e@wan32", "e2e-eln@wan32"),
    ),
    Figure(
        "fig8",
        "Figure 8: congestion window of E2E (Reno) and E2E-ELN, WAN",
        "cwnd",
        runs=("e2e@wan32", "e2e-eln@wan32"),
    ),
    Figure("fig9", "Figure 9: split-connection protocols (32 KB)", "bars", table="table4"),
    Figure(
        "fig10",
        "Figure 10: packet sequence traces of SPLIT (wired and wireless halves), LAN 32 KB",
        "seq",
        runs=("split@lan32",),
    ),
    Figure(
        "fig11",
        "Figure 11: congestion window of SPLIT (both halves), LAN 32 KB",
        "cwnd",
        runs=("split@lan32",),
    ),
    Figure("fig12", "Figure 12: throughput against error rate, LAN 32 KB", "sweep"),
    Figure("burst", "Burst errors (§4.5): throughput against burst size, LAN 32 KB", "burst"),
    Figure(
        "timeline",
        "Which losses were repaired by whom: one row per repair kind, per traced run",
        "timeline",
        runs=tuple(TRACED_RUNS),
    ),
)
