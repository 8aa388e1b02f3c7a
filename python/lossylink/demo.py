"""The demo: our numbers beside Balakrishnan et al. 1997 (IEEE/ACM ToN), Table 3.

Every end-to-end scheme of Table 3 over the LAN and WAN testbeds with one wireless bit error
per 64 KiB on average, and the loss-free peaks quoted in the paper's §4.1. Run it with
``make demo``, ``lossylink demo`` or ``python -m lossylink.demo``.

The rows run in parallel threads: the simulation releases the GIL.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from lossylink.console import make_console
from lossylink.result import RunResult
from lossylink.runner import run_seeds
from lossylink.scenario import Scenario
from lossylink.stats import Summary, summarize

PAPER = "Balakrishnan et al., IEEE/ACM ToN 1997: Table 3 and §4.1 peaks"


@dataclass(frozen=True)
class Experiment:
    """One row of the comparison: a preset with overrides, and the paper's numbers."""

    label: str
    preset: str
    overrides: dict[str, str]
    paper_mbps: float
    paper_goodput: tuple[float, float] | None = None
    """(wireless, wired) goodput in percent, as printed in the paper's cell."""
    lossy: bool = True
    """Lossy rows use the requested seed count; loss-free peaks need few seeds."""


def _cell(scheme: str, error_every: str, buffer: str) -> dict[str, str]:
    return {"scheme": scheme, "error_every": error_every, "buffer": buffer}


CONFIGS = (
    ("LAN 8 KiB", "lan", "8KiB"),
    ("LAN 32 KiB", "lan", "32KiB"),
    ("WAN 32 KiB", "wan", "32KiB"),
)

TABLE_3: dict[str, tuple[tuple[float, float, float] | None, ...]] = {
    # scheme: the paper's (Mb/s, wireless goodput %, wired goodput %) for LAN 8 KiB, LAN 32 KiB
    # and WAN 32 KiB; None where the paper has no cell ("N.A.").
    "e2e": ((0.55, 97.0, 96.0), (0.70, 97.5, 97.5), (0.31, 97.3, 97.3)),
    "e2e-newreno": ((0.66, 97.3, 97.3), (0.89, 97.7, 97.3), (0.64, 97.5, 97.5)),
    "e2e-smart": ((1.12, 97.6, 97.6), (1.25, 97.2, 97.2), None),
    "e2e-ietf-sack": ((0.68, 97.3, 97.3), (1.12, 97.5, 97.5), (0.80, 97.5, 97.5)),
    "e2e-eln": ((0.69, 97.3, 97.2), (0.93, 97.5, 97.5), (0.64, 97.6, 97.6)),
    "e2e-eln-rxmt": ((0.86, 97.4, 97.3), (0.95, 97.5, 97.5), (0.72, 97.4, 97.4)),
}


def _table_3() -> tuple[Experiment, ...]:
    rows = []
    for scheme, cells in TABLE_3.items():
        for (label, preset, buffer), cell in zip(CONFIGS, cells, strict=True):
            if cell is not None:
                mbps, wireless, wired = cell
                rows.append(
                    Experiment(
                        f"{scheme}, {label}",
                        preset,
                        _cell(scheme, "64KiB", buffer),
                        mbps,
                        (wireless, wired),
                    )
                )
    return tuple(rows)


EXPERIMENTS = (
    *_table_3(),
    Experiment("LAN peak, no errors", "lan", _cell("e2e", "0", "32KiB"), 1.5, lossy=False),
    Experiment("WAN peak, no errors", "wan", _cell("e2e", "0", "32KiB"), 1.35, lossy=False),
)
PEAK_SEEDS = 3


@dataclass(frozen=True)
class Row:
    """An experiment and what we measured for it."""

    experiment: Experiment
    throughput: Summary
    wireless_goodput: Summary
    wired_goodput: Summary


def measure(exp: Experiment, seeds: int) -> Row:
    """Run one experiment over ``seeds`` seeds (fewer for loss-free rows)."""
    n = seeds if exp.lossy else min(seeds, PEAK_SEEDS)
    results = run_seeds(Scenario.preset(exp.preset, **exp.overrides), seeds=n)
    return Row(
        experiment=exp,
        throughput=_summary(results, "throughput_mbps"),
        wireless_goodput=_summary(results, "wireless_goodput_pct"),
        wired_goodput=_summary(results, "wired_goodput_pct"),
    )


def _summary(results: list[RunResult], key: str) -> Summary:
    return summarize([float(r.metrics[key]) for r in results])


def comparison_table(rows: list[Row], width: int = 120) -> Table:
    """The paper's numbers beside ours (mean ± 95 % CI over seeds), fitted to ``width``
    columns: on a narrow terminal the seed count and then the paper's goodputs go first."""
    from lossylink.tables import TableColumn, fit_table

    cols = [
        TableColumn("experiment", [], 100, justify="left"),
        TableColumn("paper\nMb/s", [], 80),
        TableColumn("lossylink Mb/s\n(± 95% CI)", [], 90),
        TableColumn("ours /\npaper", [], 70),
        TableColumn("paper\ngoodput %", [], 40),
        TableColumn("lossylink\ngoodput %", [], 50),
        TableColumn("seeds", [], 30),
    ]
    for row in rows:
        exp = row.experiment
        paper_gp = "–" if exp.paper_goodput is None else "{:.1f}, {:.1f}".format(*exp.paper_goodput)
        cells = (
            exp.label,
            f"{exp.paper_mbps:.2f}",
            _mean_ci(row.throughput, ".3f"),
            f"{row.throughput.mean / exp.paper_mbps:.2f}",
            paper_gp,
            f"{row.wireless_goodput.mean:.1f}, {row.wired_goodput.mean:.1f}",
            str(row.throughput.n),
        )
        for col, cell in zip(cols, cells, strict=True):
            col.cells.append(cell)
    return fit_table(cols, width=width, title=PAPER)


def _mean_ci(s: Summary, fmt: str) -> str:
    if s.half_width is None:
        return format(s.mean, fmt)
    return f"{format(s.mean, fmt)} ± {format(s.half_width, fmt)}"


def run_demo(seeds: int = 10, console: Console | None = None) -> list[Row]:
    """Run every experiment, print the comparison, and return the rows."""
    console = console or make_console()
    start = time.perf_counter()
    workers = min(len(EXPERIMENTS), os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        rows = list(pool.map(lambda exp: measure(exp, seeds), EXPERIMENTS))
    console.print(comparison_table(rows, width=console.width))
    console.print(
        "Lossy rows: one wireless bit error per 64 KiB on average. Goodput: wireless, wired. "
        f"Mean ± 95% CI (Student t) over seeds 1..{seeds}; "
        f"{time.perf_counter() - start:.1f} s wall on {workers} threads."
    )
    return rows


def main() -> None:
    """``python -m lossylink.demo``."""
    run_demo()


if __name__ == "__main__":
    main()
