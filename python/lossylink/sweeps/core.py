"""``lossylink.sweep``: a base scenario times a grid times seeds, run, cached and tabulated.

The runs of a sweep are numbered point-major (grid point, then seed). Every grid point uses the
same seeds, which is what gives common random numbers: points that differ only in the scheme
see the same channel error process for a given seed (docs/sweeps.md explains how far that goes).
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lossylink import _core
from lossylink._limits import MAX_SWEEP_RUNS
from lossylink.errors import (
    InvalidValueError,
    LossylinkError,
    MainGuardWarning,
    RunsFailedWarning,
)
from lossylink.reprs import MAX_ROWS, clip, fit_html, html_table
from lossylink.scenario import Scenario, ScenarioLike
from lossylink.seeds import seed_range
from lossylink.sweeps.cache import RunCache, canonical_json, run_key
from lossylink.sweeps.executors import EXECUTORS, Executor, PoolExecutor, Task, make_executor
from lossylink.sweeps.grid import Grid, GridSpec
from lossylink.sweeps.summary import summary_rows, write_summary_csv
from lossylink.sweeps.table import (
    NONDETERMINISTIC_METRICS,
    Row,
    build_table,
    warm_table_writer,
    write_parquet,
)
from lossylink.writable import ensure_writable_dir

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

DEFAULT_CACHE_NAME = ".lossylink-cache"
"""The cache directory created next to the results file when no ``cache`` is given."""

_MAX_AUTO_BATCH = 32

# The summary columns of the HTML repr (mean ± CI).
_REPR_METRICS = ("throughput_mbps", "completion_s", "sender_timeouts")
# A sweep of a scenario with [[flows]]: the whole network's, not its first flow's.
_NETWORK_REPR_METRICS = ("agg.aggregate_goodput_mbps", "agg.jain_index")


@dataclass(repr=False)
class SweepResult:
    """What a sweep produced: the results table, its summary, and what ran or was reused."""

    table: pa.Table
    """One row per run, in run order (what the Parquet file holds)."""
    rows: list[Row]
    summary: list[dict[str, Any]]
    """One entry per grid point (what the summary CSV holds)."""
    grid: Grid
    seeds: list[int]
    executed: int
    """Runs simulated by this call."""
    cached: int
    """Runs taken from the cache."""
    cpu_s: float = 0.0
    """CPU seconds the executed runs took in their workers (not in the results file)."""
    out: Path | None = None
    summary_path: Path | None = None
    cache_dir: Path | None = None
    executor: str = "seq"
    timings: dict[str, float] = field(default_factory=dict)
    """Wall seconds to start the executor, run, stop it, and build and write the tables."""

    @property
    def failures(self) -> list[Row]:
        """The runs that failed (a simulator error, a lost worker), in run order."""
        return [r for r in self.rows if r.error is not None]

    def frame(self) -> pd.DataFrame:
        """The results as a :class:`pandas.DataFrame`."""
        frame: pd.DataFrame = self.table.to_pandas()
        return frame

    def summary_frame(self) -> pd.DataFrame:
        """The summary as a :class:`pandas.DataFrame`."""
        import pandas as pd

        return pd.DataFrame.from_records(self.summary)

    def __repr__(self) -> str:
        """``SweepResult(points=4, seeds=1..3, runs=12: 12 run, 0 cached, 0 failed, grid=...)``."""
        axes = " x ".join(f"{k}[{len(v)}]" for k, v in self.grid.axes) or "base"
        out = f", out={str(self.out)!r}" if self.out is not None else ""
        return clip(f"SweepResult({self._counts()}, grid={axes}{out})")

    def _repr_html_(self) -> str:
        """The counts and the first :data:`~lossylink.reprs.MAX_ROWS` grid points of the
        summary (mean ± CI)."""
        keys = list(self.grid.keys)
        network = any(e.get("agg.aggregate_goodput_mbps_mean") is not None for e in self.summary)
        wanted = _NETWORK_REPR_METRICS if network else _REPR_METRICS
        metrics = [m for m in wanted if any(f"{m}_mean" in e for e in self.summary)]
        rows = []
        for e in self.summary[:MAX_ROWS]:
            cells: list[Any] = [e.get(k, "") for k in keys]
            cells.append(e.get("runs", ""))
            for m in metrics:
                mean, ci = e.get(f"{m}_mean"), e.get(f"{m}_ci95")
                text = "–" if mean is None else f"{mean:.4g}"
                if ci is not None and mean is not None:
                    text += f" ±{ci:.2g}"
                cells.append(text)
            rows.append(cells)
        hidden = len(self.summary) - len(rows)
        parts = [html_table(rows, [*keys, "runs", *metrics], f"SweepResult: {self._counts()}")]
        if hidden > 0:
            parts.append(f"<p>… {hidden} more grid points (.summary_frame())</p>")
        return fit_html(parts, "<p>(.summary_frame() for the summary)</p>")

    def _counts(self) -> str:
        seeds = self.seeds
        span = (
            f"{seeds[0]}..{seeds[-1]}"
            if seeds and seeds == list(range(seeds[0], seeds[-1] + 1))
            else str(len(seeds))
        )
        return (
            f"points={len(self.summary)}, seeds={span}, runs={len(self.rows)}: "
            f"{self.executed} run, {self.cached} cached, {len(self.failures)} failed"
        )


def sweep(
    base: ScenarioLike = None,
    grid: GridSpec | Grid | None = None,
    seeds: int | Iterable[int] = 10,
    *,
    start: int = 1,
    out: str | os.PathLike[str] | None = None,
    executor: str = "pool",
    workers: int | None = None,
    scheduler: str | None = None,
    batch: int | None = None,
    cache: str | os.PathLike[str] | bool | None = None,
    progress: bool = False,
    max_runs: int = MAX_SWEEP_RUNS,
) -> SweepResult:
    """Run ``base`` at every point of ``grid`` for every seed; returns a :class:`SweepResult`.

    - ``base``: a :class:`Scenario`, preset name, ``.toml``/``.json`` path, or ``None`` (lan).
    - ``grid``: ``{key: [values]}``, keys as in :meth:`Scenario.set` (``scheme``,
      ``error_every``, ``tcp.min_rto``, ``hops.1.forward.queue``, ...); first key slowest.
    - ``seeds``: a count (``start .. start+seeds-1``) or a list; the same for every point.
    - ``out``: the Parquet file to write (and ``<stem>.summary.csv`` beside it).
    - ``executor``: ``"seq"`` (in-process), ``"pool"`` (default: threads, processes for long
      sweeps) or ``"dask"`` (``scheduler`` address, or a LocalCluster of ``workers``).
    - ``batch``: runs per task (default: shrinking tasks of at most 32 runs, see
      :func:`batch_sizes`).
    - ``cache``: a directory, ``True``/``None`` for ``.lossylink-cache`` next to ``out``
      (no cache when there is no ``out``), or ``False`` for none.
    - ``max_runs``: a sweep of more runs (points x seeds) is refused before anything is built
      or run (default 100 000); raise it for a bigger one.

    Every grid point is built before anything runs: a value the scenario refuses raises its
    error (an :class:`~lossylink.errors.InvalidValueError`, ``UnknownSchemeError``, ...) as
    ``grid: KEY=VALUE: ...`` and nothing runs. A run that fails in the simulator is recorded
    with its error (``status == "error"``) and does not stop the others. The results do not
    depend on the executor, the batch size or the cache.
    """
    if executor not in EXECUTORS:
        raise InvalidValueError(
            f"executor: unknown {executor!r} (choose from {', '.join(EXECUTORS)})"
        )
    base_sc = Scenario.resolve(base)
    the_grid = Grid.from_spec(grid)
    seed_list = seed_range(seeds, start)
    _check_size(len(the_grid), len(seed_list), max_runs)
    if batch is not None and batch < 1:
        raise InvalidValueError(f"batch: expected at least 1, got {batch}")
    out_path = Path(out) if out is not None else None
    if out_path is not None:
        ensure_writable_dir(out_path.parent)
    store = _cache(cache, out_path)
    version = _core.__version__

    rows = _plan(base_sc, the_grid, seed_list)
    cached = 0
    if store is not None:
        for r in rows:
            hit = store.get(r.key)
            if hit is not None:
                r.metrics = hit
                cached += 1
    pending = [r for r in rows if r.metrics is None]

    # pyarrow (and the pandas it pulls in) takes most of a second to import: do it while the
    # runs execute, so it costs no wall time (the simulation releases the GIL).
    warm = threading.Thread(target=warm_table_writer, name="lossylink-warm", daemon=True)
    warm.start()
    t_start = time.perf_counter()
    threads_only = _check_main_guard(executor if pending else "seq", scheduler)
    # Nothing to run (all cached): start no pool or cluster.
    ex = make_executor(executor if pending else "seq", workers, scheduler if pending else None)
    if threads_only and isinstance(ex, PoolExecutor):
        ex.processes_pay_off_s = math.inf
    cpu_s = 0.0
    t_run = time.perf_counter()
    try:
        batches, first = [], 0
        for size in batch_sizes(len(pending), ex, batch):
            batches.append(_tasks(pending[first : first + size]))
            first += size
        with _progress_bar(len(rows), cached, progress) as bar:
            for outcomes in ex.run(batches):
                for index, metrics, error, worker_version, cpu in outcomes:
                    _finish(rows[index], metrics, error, worker_version, version, store)
                    cpu_s += cpu
                bar.advance(len(outcomes))
    finally:
        t_ran = time.perf_counter()
        ex.close()
    warm.join()
    t_end_run = time.perf_counter()
    table = build_table(rows, the_grid.keys, _metadata(base_sc, the_grid, seed_list), version)
    summary = summary_rows(rows, the_grid.keys)
    result = SweepResult(
        table=table,
        rows=rows,
        summary=summary,
        grid=the_grid,
        seeds=seed_list,
        executed=len(pending),
        cached=cached,
        cpu_s=cpu_s,
        cache_dir=store.directory if store else None,
        executor=executor,
    )
    if out_path is not None:
        result.out = write_parquet(table, out_path)
        result.summary_path = write_summary_csv(summary, summary_path_for(out_path))
    result.timings = {
        "start_s": t_run - t_start,
        "run_s": t_ran - t_run,
        "stop_s": t_end_run - t_ran,
        "write_s": time.perf_counter() - t_end_run,
    }
    if result.failures:
        _warn_failures(result)
    return result


def _warn_failures(result: SweepResult) -> None:
    """A :class:`~lossylink.errors.RunsFailedWarning` naming how many runs failed and the
    first error, so that a script does not go on quietly with missing runs."""
    import warnings

    from lossylink.sweeps.summary import failure_lines

    failed = result.failures
    first = failure_lines(failed[:1])[0]
    warnings.warn(
        f"{len(failed)} of {len(result.rows)} runs failed (SweepResult.failures lists them); "
        f"first: {first}",
        RunsFailedWarning,
        stacklevel=3,
    )


def _check_main_guard(executor: str, scheduler: str | None) -> bool:
    """Whether the sweep must stay on threads because it was started from a script's top
    level outside ``if __name__ == "__main__":`` (worker processes would run the script, and
    so the sweep, again): a :class:`~lossylink.errors.MainGuardWarning` for the pool, which
    then runs on threads; an error for a Dask LocalCluster, whose workers are processes."""
    if executor == "seq" or (executor == "dask" and scheduler):
        return False
    from lossylink.sweeps.guard import GUARD, unguarded_call_site

    site = unguarded_call_site()
    if site is None:
        return False
    if executor == "dask":
        raise InvalidValueError(
            f"executor dask: the sweep is started at {site}, outside `{GUARD}`; the local "
            "cluster's worker processes would run the script again: put the sweep under it"
        )
    import warnings

    warnings.warn(
        f"the sweep runs on threads only: it is started at {site}, outside `{GUARD}`, and "
        "worker processes would run the script again; put the sweep under it",
        MainGuardWarning,
        stacklevel=3,
    )
    return True


class _NoProgress:
    """What :class:`~lossylink.sweeps.progress.SweepProgress` does when disabled, without
    importing rich (a sixth of a short sweep's start-up)."""

    def __enter__(self) -> _NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def advance(self, runs: int) -> None:
        """Nothing to count."""


class _LateProgress:
    """The progress bar, shown from the first batch that finishes after a thread has imported
    rich for it (or at the end): made before the runs, the bar would keep them waiting for that
    import (about 50 ms, a tenth of a short sweep on the pool). It counts from the sweep's start."""

    def __init__(self, total: int, done: int) -> None:
        self.total, self.done, self.completed = total, done, done
        self.started = time.monotonic()
        self._bar: Any = None
        self._ready = threading.Event()
        threading.Thread(target=self._load, name="lossylink-warm-progress", daemon=True).start()

    def _load(self) -> None:
        try:
            import lossylink.sweeps.progress  # noqa: F401
        finally:
            self._ready.set()

    def _show(self) -> None:
        from lossylink.sweeps.progress import SweepProgress

        self._bar = SweepProgress(
            self.total, self.done, enabled=True, completed=self.completed, started=self.started
        ).__enter__()

    def __enter__(self) -> _LateProgress:
        return self

    def advance(self, runs: int) -> None:
        """Count ``runs`` more; show the bar if rich is ready."""
        self.completed += runs
        if self._bar is not None:
            self._bar.advance(runs)
        elif self._ready.is_set():
            self._show()

    def __exit__(self, *exc: Any) -> None:
        if self._bar is None:
            self._ready.wait()
            self._show()
        self._bar.__exit__(*exc)


def _progress_bar(total: int, done: int, enabled: bool) -> Any:
    return _LateProgress(total, done) if enabled else _NoProgress()


def summary_path_for(out: Path) -> Path:
    """``results.parquet`` -> ``results.summary.csv``."""
    return out.with_name(f"{out.stem}.summary.csv")


def _cache(cache: str | os.PathLike[str] | bool | None, out: Path | None) -> RunCache | None:
    if cache is False:
        return None
    if cache is None or cache is True:
        return RunCache(out.parent / DEFAULT_CACHE_NAME) if out is not None else None
    return RunCache(cache)


def _check_size(points: int, seeds: int, max_runs: int) -> None:
    """Refuse a sweep of more than ``max_runs`` runs before its grid is expanded."""
    if isinstance(max_runs, bool) or not isinstance(max_runs, int) or max_runs < 1:
        raise InvalidValueError(
            f"max_runs: expected a whole number of at least 1, got {max_runs!r}"
        )
    if points * seeds > max_runs:
        raise InvalidValueError(
            f"grid: {points} points x {seeds} seeds = {points * seeds} runs, more than "
            f"max_runs {max_runs} (raise it with --max-runs N or max_runs=N)"
        )


def _grid_error(exc: LossylinkError, where: str) -> LossylinkError:
    """``exc`` (its class kept, so the command's exit status and the caller's ``except`` stay
    those of the scenario's error) with the grid value or point that caused it in front."""
    return type(exc)(f"grid: {where}: {exc}")


def _refused_alone(base: Scenario, grid: Grid) -> dict[tuple[str, str], LossylinkError]:
    """Each distinct grid value the base scenario refuses on its own, with its error: one
    validation per value (a grid of 100 x 100 values takes 200, not 10 000)."""
    refused = {}
    for key, values in grid.axes:
        for value in values:
            try:
                base.with_({key: value})
            except LossylinkError as exc:
                refused[(key, value)] = exc
    return refused


def _plan(base: Scenario, grid: Grid, seeds: Sequence[int]) -> list[Row]:
    """Every run, in run order. A grid point whose scenario cannot be built stops the sweep
    before anything runs, with the scenario's error naming the grid value it refuses (or the
    point, when only the combination is refused).

    Values are checked alone first (one validation per distinct value): a value refused alone
    and at the first point that has it (the other axes at their first values) is reported at
    once, whatever its position in the grid. Then every point is built, as its canonical JSON
    (the runs' cache keys and tasks) needs anyway: that validates the combinations, since an
    override may only make sense beside another (``run.warmup`` with ``run.duration``)."""
    alone = _refused_alone(base, grid)
    for (key, value), exc in alone.items():
        first = {k: (value if k == key else vs[0]) for k, vs in grid.axes}
        try:
            base.with_(first)
        except LossylinkError:
            raise _grid_error(exc, f"{key}={value}") from None
    version = _core.__version__
    rows: list[Row] = []
    for point in grid:
        try:
            canonical = canonical_json(base.with_(point.overrides()).to_json())
        except LossylinkError as exc:
            culprit = next((f"{k}={v}" for k, v in point.values if (k, v) in alone), None)
            where = culprit or f"point {point.index} ({point.label()})"
            raise _grid_error(exc, where) from None
        for seed in seeds:
            rows.append(
                Row(
                    run=len(rows),
                    point=point.index,
                    grid=point.values,
                    seed=seed,
                    key=run_key(canonical, seed, version),
                    scenario=canonical,
                    metrics=None,
                    error=None,
                )
            )
    return rows


def _tasks(rows: Sequence[Row]) -> list[Task]:
    return [(r.run, r.scenario, r.seed) for r in rows]


def batch_sizes(pending: int, ex: Executor, batch: int | None = None) -> list[int]:
    """How many runs go into each task, in submission order.

    A fixed ``batch``, if given. Otherwise one run per task in-process (fine-grained progress
    and caching), and for a pool or cluster guided self-scheduling: each task takes a share
    ``remaining / (2 * workers)`` of the runs left, at most 32, so the first tasks are big
    (little overhead per run) and the last ones small (workers finish together). The pool's
    first ``workers`` tasks are single runs: it times them to decide between threads and
    processes (:class:`~lossylink.sweeps.executors.PoolExecutor`), and an interrupt during
    them waits for one run only.
    """
    if batch is not None:
        return [min(batch, pending - i) for i in range(0, pending, batch)]
    if ex.name == "seq":
        return [1] * pending
    sizes = [1] * min(ex.workers, pending) if ex.name == "pool" else []
    remaining = pending - len(sizes)
    while remaining > 0:
        size = max(1, min(_MAX_AUTO_BATCH, math.ceil(remaining / (2 * ex.workers))))
        sizes.append(size)
        remaining -= size
    return sizes


def _finish(
    row: Row,
    metrics: dict[str, Any] | None,
    error: str | None,
    worker_version: str,
    version: str,
    store: RunCache | None,
) -> None:
    """Record one outcome on its row, and cache it if it succeeded."""
    if worker_version != version:
        row.error = f"worker runs lossylink {worker_version}, this sweep needs {version}"
        return
    if metrics is None:
        row.error = error or "unknown error"
        return
    kept = {k: v for k, v in metrics.items() if k not in NONDETERMINISTIC_METRICS}
    row.metrics = kept
    if store is not None:
        wall = {k: v for k, v in metrics.items() if k in NONDETERMINISTIC_METRICS}
        store.put(row.key, kept, seed=row.seed, version=version, scenario=row.scenario, **wall)


def _metadata(base: Scenario, grid: Grid, seeds: Sequence[int]) -> dict[str, str]:
    return {
        "lossylink.version": _core.__version__,
        "lossylink.grid": grid.to_json(),
        "lossylink.seeds": json.dumps(list(seeds), separators=(",", ":")),
        "lossylink.base": canonical_json(base.to_json()),
    }
