"""``lossylink sweep``: a grid of scenarios over seeds, results to Parquet (docs/sweeps.md)."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

import click

from lossylink._limits import MAX_SEEDS, MAX_SWEEP_RUNS, MAX_WORKERS
from lossylink.cli import (
    PROG,
    NonEmptyPath,
    config_option,
    preset_option,
    seed_option,
    seeds_option,
    set_option,
)

if TYPE_CHECKING:
    from pathlib import Path

# Checked against lossylink.sweeps.executors by the tests (importing it here would load the
# executors' dependencies for --help).
EXECUTORS = ("seq", "pool", "dask")
"""`lossylink.sweeps.executors.EXECUTORS`."""


@click.command("sweep", short_help="Run a grid of scenarios over seeds; results to Parquet.")
@preset_option("Base scenario preset [lan].")
@config_option("Base scenario file (.toml or .json) instead of a preset.")
@set_option("Set a field of the base scenario (repeatable).")
@click.option(
    "--grid",
    "axes",
    multiple=True,
    metavar="KEY=V1,V2,...",
    help="One grid axis (repeatable; the first varies slowest), e.g. scheme=e2e,e2e-newreno.",
)
@click.option(
    "--grid-file",
    type=NonEmptyPath(dir_okay=False),
    help="Grid axes from a TOML/JSON file: key = [values] (before the --grid axes).",
)
@seed_option("First seed.")
@seeds_option(10, "Seeds S .. S+N-1 at every grid point.")
@click.option(
    "--out",
    type=NonEmptyPath(dir_okay=False),
    required=True,
    help="Results file (Parquet); the summary goes to <stem>.summary.csv beside it.",
)
@click.option(
    "--executor",
    type=click.Choice(EXECUTORS),
    default="pool",
    show_default=True,
    help="seq: this process; pool: threads, processes for long sweeps; dask: a Dask cluster.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=MAX_WORKERS),
    metavar="N",
    help="Pool or LocalCluster size [usable cores].",
)
@click.option(
    "--scheduler", metavar="ADDR", help="Dask scheduler (tcp://HOST:PORT); none: LocalCluster."
)
@click.option(
    "--batch",
    type=click.IntRange(min=1, max=MAX_SEEDS),
    metavar="N",
    help="Runs per task [auto: shrinking batches of at most 32].",
)
@click.option(
    "--cache",
    type=NonEmptyPath(file_okay=False),
    metavar="DIR",
    help="Run cache directory [.lossylink-cache beside --out].",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the run cache.")
@click.option(
    "--max-runs",
    type=click.IntRange(min=1),
    default=MAX_SWEEP_RUNS,
    show_default=True,
    metavar="N",
    help="Refuse a sweep of more runs (grid points x seeds) before anything runs.",
)
@click.option(
    "--per-flow",
    is_flag=True,
    help="For a scenario with [[flows]]: each flow's goodput beside the aggregate.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show the progress bar on stderr [when stdout and stderr are both a terminal].",
)
def sweep_cmd(
    preset_name: str | None,
    config: Path | None,
    assignments: list[tuple[str, str]],
    axes: tuple[str, ...],
    grid_file: Path | None,
    seed: int,
    seeds: int,
    out: Path,
    executor: str,
    workers: int | None,
    scheduler: str | None,
    batch: int | None,
    cache: Path | None,
    no_cache: bool,
    max_runs: int,
    per_flow: bool,
    progress: bool | None,
) -> None:
    """Run the base scenario at every grid point for seeds S .. S+N-1.

    Writes one Parquet row per run and prints (and saves) mean, standard deviation and 95 %
    confidence interval per grid point. For a scenario with [[flows]] the table shows the whole
    network (flows, aggregate goodput, Jain's index; --per-flow adds each flow's goodput).
    Finished runs are cached: rerunning an interrupted or repeated sweep only runs what is
    missing. Every grid point is checked first: a grid value the scenario refuses is an error
    (status 2) before anything runs. Exits with status 1 if any run failed (the other results
    are still written).
    """
    import threading

    # rich, for the printed summary, takes about 50 ms to import: on a thread while the grid
    # is planned and the runs go (the simulation releases the GIL), as sweep() does pyarrow.
    threading.Thread(target=_import_printing, name="lossylink-warm-rich", daemon=True).start()
    from lossylink.scenario import Scenario
    from lossylink.seeds import seed_range
    from lossylink.sweeps.core import sweep
    from lossylink.sweeps.grid import load_grid_file, merge_axes, parse_axis
    from lossylink.sweeps.summary import failure_lines, summary_table

    if preset_name is not None and config is not None:
        raise click.UsageError("--preset and --config are mutually exclusive")
    if cache is not None and no_cache:
        raise click.UsageError("--cache and --no-cache are mutually exclusive")
    # One validation after the --set overrides: they may repair a --config file.
    base = (
        Scenario.load(config, assignments)
        if config is not None
        else Scenario.preset(preset_name or "lan").update(assignments)
    )
    file_axes = list(load_grid_file(grid_file).items()) if grid_file is not None else []
    grid = merge_axes([*file_axes, *(parse_axis(a) for a in axes)])

    if progress is None:
        progress = show_progress(sys.stdout, sys.stderr)
    started = time.perf_counter()
    import warnings

    from lossylink.errors import RunsFailedWarning

    with warnings.catch_warnings():
        # The failed runs are reported below, each in one line: not also as a Python warning.
        warnings.simplefilter("ignore", RunsFailedWarning)
        result = sweep(
            base,
            grid,
            seed_range(seeds, seed),
            out=out,
            executor=executor,
            workers=workers,
            scheduler=scheduler,
            batch=batch,
            cache=False if no_cache else cache,
            progress=progress,
            max_runs=max_runs,
        )
    from lossylink.console import make_console

    console = make_console()
    console.print(
        summary_table(result.summary, result.grid.keys, width=console.width, per_flow=per_flow)
    )
    wall = time.perf_counter() - started
    rate = f" ({result.executed / wall:.1f} runs/s)" if result.executed else ""
    console.print(
        f"{len(result.rows)} runs: {result.executed} run now, {result.cached} from the cache, "
        f"{len(result.failures)} failed, in {wall:.1f} s{rate}"
    )
    console.print(f"results {result.out} · summary {result.summary_path}")
    if result.failures:
        from lossylink.sweeps.executors import LOST

        lost = [r for r in result.failures if (r.error or "").startswith(LOST)]
        for line in failure_lines([r for r in result.failures if r not in lost]):
            click.echo(f"{PROG}: run failed: {line}", err=True)
        if lost:
            done = len(result.rows) - len(result.failures)
            where = f"; cached in {result.cache_dir}" if result.cache_dir else ""
            click.echo(
                f"{PROG}: {len(lost)} runs lost with dying workers; {done} finished, in "
                f"{result.out}{where}: rerun the same command to run only what is missing",
                err=True,
            )
        sys.exit(1)


def show_progress(stdout: Any, stderr: Any) -> bool:
    """Whether to draw the progress bar by default: only when both streams are a terminal. The
    bar redraws itself on stderr with control characters; with stdout piped (into a pager, a
    file, `tee`) it would be drawn over or into what the user reads, or leave its last frame in
    a log."""
    return all(callable(getattr(s, "isatty", None)) and s.isatty() for s in (stdout, stderr))


def _import_printing() -> None:
    """Import what prints a sweep's summary (rich), ahead of use."""
    import lossylink.render
    import lossylink.tables  # noqa: F401
