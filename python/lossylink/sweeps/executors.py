"""Where the runs of a sweep execute: in-process, a local process pool, or a Dask cluster.

Work travels in batches of :data:`Task` s and comes back as :data:`Outcome` s; the function a
worker runs is :func:`run_batch`, a plain module-level function that needs only the installed
``lossylink`` package. Executors yield batches as they finish, in any order: the sweep puts
results back in run order, so the order in which an executor finishes cannot change the output.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

from lossylink._types import MetricValue
from lossylink.errors import InvalidValueError, LossylinkIOError

if TYPE_CHECKING:
    import multiprocessing.context
    from concurrent.futures import Future, ProcessPoolExecutor

Task: TypeAlias = tuple[int, str, int]
"""One run: ``(run index, scenario JSON, seed)``."""

Outcome: TypeAlias = tuple[int, "dict[str, MetricValue] | None", "str | None", str, float]
"""One finished run: ``(run index, metrics or None, error text or None, worker's version,
seconds the run took on its worker thread)``."""

T = TypeVar("T")
R = TypeVar("R")

EXECUTORS = ("seq", "pool", "dask")
"""The executor names of ``lossylink sweep --executor``."""

CONNECT_TIMEOUT_S = 20
"""How long the dask executor tries to reach a scheduler given by address."""

WORKER_RETRIES = 2
"""How many times a batch whose worker died (killed, out of memory) is run again on a fresh
worker before its runs are given up as lost."""

PROCESSES_PAY_OFF_S = 5.0
"""The pool runs a sweep on in-process threads (the simulation releases the GIL) unless, after
its first round of batches, the rest is estimated to take longer than this many seconds of
wall time: only then are worker processes started for the rest. Starting them costs about
0.15-0.3 s (a forkserver and its workers); what they buy is isolation (a run that crashes or
exhausts memory takes down a worker, not the sweep) and no contention for the GIL between the
parts of a run that are Python (metrics dicts), which grows with the number of cores. Set it
to 0 to always use processes after the first round, or ``math.inf`` for threads only."""

CALL_S = 0.05
"""The wall time of the runs the sequential executor hands the extension in one call
(:func:`run_grouped`)."""

POOL_CALL_S = 0.25
"""The wall time of the runs the pool on threads hands the extension in one call: each call
ends when its slowest thread does, and its results are converted while no run goes (together
about 3 ms a call), so a call is longer than the sequential executor's; an interrupt waits for
it at most."""

LOST = "lost: the worker running it died"
"""How the error of a run lost with its worker begins (the CLI sums these up in one line)."""


def lost_outcomes(batch: Sequence[Task], attempts: int) -> list[Outcome]:
    """Error outcomes for the runs of a batch whose worker died ``attempts`` times."""
    from lossylink import _core

    error = f"{LOST} {attempts} times (killed, or out of memory); rerunning the sweep runs it again"
    return [(index, None, error, _core.__version__, 0.0) for index, _, _ in batch]


# Per-flow columns of a [[flows]] scenario: these keys of each flow, as `flow.<name>.<key>`.
FLOW_COLUMNS = (
    "goodput_mbps",
    "delivered_bytes",
    "completion_s",
    "sender_timeouts",
    "sender_fast_retransmits",
    "sender_retransmitted_segments",
)


# And these of a web session's row (page response times).
WEB_COLUMNS = ("pages", "response_mean_s", "response_median_s", "response_p95_s")


def network_columns(raw: Any) -> dict[str, Any]:
    """The per-flow and aggregate results of a ``[[flows]]`` run as flat columns:
    ``agg.<key>`` for each aggregate, ``flow.<name>.<key>`` for :data:`FLOW_COLUMNS`."""
    out: dict[str, Any] = {f"agg.{k}": v for k, v in raw["aggregate"].items()}
    for f in raw["flows"]:
        for key in FLOW_COLUMNS:
            out[f"flow.{f['flow']}.{key}"] = f[key]
        for key in WEB_COLUMNS:
            if key in f:
                out[f"flow.{f['flow']}.{key}"] = f[key]
    return out


def run_batch(tasks: Sequence[Task], threads: int = 1) -> list[Outcome]:
    """Run a batch of tasks in this process; a failing run becomes an error outcome.

    The whole batch runs in the extension with the GIL released once (on ``threads`` threads,
    results in task order), so other Python threads, such as the one importing pyarrow, cost
    the runs nothing. Runs of one batch usually share a scenario, so each distinct JSON text is
    parsed once.
    """
    from lossylink import _core

    version = _core.__version__
    parsed: dict[str, Any] = {}
    for _, scenario_json, _ in tasks:
        if scenario_json not in parsed:
            try:
                parsed[scenario_json] = _core.Scenario.from_json(scenario_json)
            except Exception as exc:
                parsed[scenario_json] = f"{type(exc).__name__}: {exc}"
    runnable = [t for t in tasks if not isinstance(parsed[t[1]], str)]
    raws = iter(
        _core.run_batch(
            [parsed[t[1]] for t in runnable], [seed for _, _, seed in runnable], threads
        )
    )
    out: list[Outcome] = []
    for index, scenario_json, _ in tasks:
        scenario = parsed[scenario_json]
        if isinstance(scenario, str):
            out.append((index, None, scenario, version, 0.0))
            continue
        raw, error, seconds = next(raws)
        if raw is None:
            out.append((index, None, error, version, seconds))
            continue
        metrics = raw["metrics"]
        if "flows" in raw:
            metrics.update(network_columns(raw))
        out.append((index, metrics, None, version, seconds))
    return out


def run_grouped(
    batches: Sequence[Sequence[Task]],
    threads: int = 1,
    call_s: float | None = None,
    timed: tuple[int, float] = (0, 0.0),
) -> Iterator[list[Outcome]]:
    """Run the batches in order on ``threads`` threads of the extension, yielding each batch's
    outcomes. Consecutive batches go to the extension together, as many as take about
    ``call_s`` (default :data:`CALL_S`) of wall time by the runs timed so far (``timed``:
    runs and their seconds before this; one batch first if none): each call releases the GIL
    once, so a thread running Python beside the sweep (pyarrow's import) delays the runs once
    per call, not once per run, and an interrupt waits for ``call_s`` of runs at most (or one
    batch). On several threads each takes the call's next run when it finishes one."""
    call_s = CALL_S if call_s is None else call_s
    i, (runs, seconds) = 0, timed
    while i < len(batches):
        take, size = 1, len(batches[i])
        if runs and seconds > 0:
            room = call_s * threads * runs / seconds  # runs that take call_s
            while i + take < len(batches) and size + len(batches[i + take]) <= room:
                size += len(batches[i + take])
                take += 1
        group = batches[i : i + take]
        i += take
        outcomes = run_batch([t for b in group for t in b], threads)
        runs += len(outcomes)
        seconds += sum(o[4] for o in outcomes)
        yield from _per_batch(outcomes, group)


def _per_batch(
    outcomes: list[Outcome], batches: Sequence[Sequence[Task]]
) -> Iterator[list[Outcome]]:
    """The outcomes of one call, batch by batch."""
    at = 0
    for b in batches:
        yield outcomes[at : at + len(b)]
        at += len(b)


class Executor(Protocol):
    """Runs batches; yields each batch's outcomes as soon as it finishes."""

    name: str
    workers: int

    def run(self, batches: Sequence[Sequence[Task]]) -> Iterator[list[Outcome]]:
        """Execute ``batches``, yielding outcome lists in completion order."""
        ...

    def close(self) -> None:
        """Release processes or connections."""
        ...


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class SequentialExecutor:
    """Every batch in this process, one after the other."""

    name = "seq"
    workers = 1

    def run(self, batches: Sequence[Sequence[Task]]) -> Iterator[list[Outcome]]:
        """Run the batches in order, yielding each batch's outcomes (:func:`run_grouped`, on
        this thread)."""
        yield from run_grouped(batches)

    def close(self) -> None:
        """Nothing to release."""


class PoolExecutor:
    """A local pool: in-process threads first, worker processes (``forkserver`` on Linux,
    ``spawn`` elsewhere) for sweeps long enough to pay for them (:data:`PROCESSES_PAY_OFF_S`)."""

    name = "pool"

    batch_runner: Callable[[Sequence[Task]], list[Outcome]] = staticmethod(run_batch)
    """What a worker process runs a batch with (picklable: a module-level function or a
    ``functools.partial`` of one). Always :func:`run_batch`, but for the fault-injection tests,
    which wrap it so that a worker holds its batch until the test has killed another."""

    def __init__(
        self,
        workers: int | None = None,
        retries: int = WORKER_RETRIES,
        processes_pay_off_s: float | None = None,
    ) -> None:
        """Start nothing yet; ``workers`` defaults to the usable cores; a batch whose worker
        process dies is run again on a fresh pool up to ``retries`` times."""
        self.workers = workers or default_workers()
        self.retries = retries
        self.processes_pay_off_s = (
            PROCESSES_PAY_OFF_S if processes_pay_off_s is None else processes_pay_off_s
        )
        self._pool: ProcessPoolExecutor | None = None
        self.used_processes = False
        """Whether the last :meth:`run` started worker processes."""

    def run(self, batches: Sequence[Sequence[Task]]) -> Iterator[list[Outcome]]:
        """Yield each batch's outcomes as it completes. The first ``workers`` batches run on
        threads in this process and time the runs; the rest follow them on the threads when
        they are estimated to take at most :attr:`processes_pay_off_s`, on processes if not."""
        self.used_processes = False
        first, rest = list(batches[: self.workers]), list(batches[self.workers :])
        timed = run_batch([t for b in first for t in b], self.workers)
        runs, seconds = len(timed), sum(o[4] for o in timed)
        yield from _per_batch(timed, first)
        left = sum(len(b) for b in rest)
        estimate = left * (seconds / runs if runs else 0.0) / self.workers
        if rest and estimate <= self.processes_pay_off_s:
            yield from run_grouped(rest, self.workers, POOL_CALL_S, (runs, seconds))
        elif rest:
            self.used_processes = True
            yield from self._run_processes(rest)

    def _run_processes(self, batches: Sequence[Sequence[Task]]) -> Iterator[list[Outcome]]:
        """Submit every batch to worker processes. A dying worker breaks the whole pool: the
        batches it took down are run again on a fresh one (finished batches are kept), and a
        batch that keeps losing its worker comes back as lost runs."""
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
        from concurrent.futures.process import BrokenProcessPool

        todo = list(range(len(batches)))
        attempts = [0] * len(batches)
        while todo:
            self._pool = ProcessPoolExecutor(
                max_workers=min(self.workers, len(todo)), mp_context=_mp_context()
            )
            pending: dict[Future[list[Outcome]], int] = {
                self._pool.submit(self.batch_runner, batches[i]): i for i in todo
            }
            todo = []
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    i = pending.pop(future)
                    try:
                        outcomes = future.result()
                    except BrokenProcessPool:
                        attempts[i] += 1
                        if attempts[i] > self.retries:
                            yield lost_outcomes(batches[i], attempts[i])
                        else:
                            todo.append(i)
                        continue
                    yield outcomes
            self.close()
            todo.sort()

    def close(self) -> None:
        """Stop the worker processes (cancelling batches not started)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _mp_context() -> multiprocessing.context.BaseContext:
    """``forkserver`` on Linux, with this module (and so the extension) imported once in the
    server, so each worker starts as a cheap fork of it; ``spawn`` elsewhere. Plain ``fork``
    is avoided: the progress bar runs a thread, and forking a threaded process is unsafe."""
    import multiprocessing

    if not sys.platform.startswith("linux"):
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__])
    return ctx


class DaskExecutor:
    """Dask distributed: a running scheduler, or a ``LocalCluster`` when no address is given.

    Workers must have the same lossylink installed (checked on every outcome).
    """

    name = "dask"

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int | None = None,
        *,
        processes: bool = True,
    ) -> None:
        """Connect to ``scheduler``, or start a LocalCluster of ``workers`` 1-thread workers."""
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise InvalidValueError(
                "executor dask: the 'distributed' package is not installed "
                "(pip install 'lossylink[dask]')"
            ) from None
        self._stack = ExitStack()
        try:
            if scheduler:
                try:
                    client = Client(scheduler, timeout=CONNECT_TIMEOUT_S)
                except (OSError, TimeoutError, ValueError) as exc:
                    raise LossylinkIOError(
                        f"executor dask: cannot connect to the scheduler {scheduler}: {exc}"
                    ) from None
                self.client = self._stack.enter_context(client)
            else:
                cluster = self._stack.enter_context(
                    LocalCluster(
                        n_workers=workers or default_workers(),
                        threads_per_worker=1,
                        processes=processes,
                        dashboard_address=None,
                    )
                )
                self.client = self._stack.enter_context(Client(cluster))
        except BaseException:
            self._stack.close()
            raise
        threads = self.client.nthreads()
        self.workers = sum(threads.values()) or 1

    def run(self, batches: Sequence[Sequence[Task]]) -> Iterator[list[Outcome]]:
        """Submit every batch as one task, yield each as it completes."""
        for batch, outcomes in self.map_batches(run_batch, batches):
            yield lost_outcomes(batch, WORKER_RETRIES + 1) if outcomes is None else outcomes

    def map_batches(
        self, fn: Callable[[list[T]], R], batches: Sequence[Sequence[T]]
    ) -> Iterator[tuple[Sequence[T], R | None]]:
        """Run ``fn(batch)`` on the cluster for every batch; yield ``(batch, result)`` as each
        completes, the result ``None`` when the batch's worker died ``WORKER_RETRIES + 1``
        times (Dask's own retries run it again on a fresh worker)."""
        if not batches:
            return
        from distributed import KilledWorker, as_completed

        futures = {
            self.client.submit(fn, list(b), pure=False, retries=WORKER_RETRIES): b for b in batches
        }
        try:
            for future in as_completed(list(futures)):
                try:
                    result = future.result()
                except KilledWorker:
                    result = None
                yield futures[future], result
        finally:
            for future in futures:
                future.release()

    def close(self) -> None:
        """Disconnect, and stop the local cluster if we started one."""
        self._stack.close()


def make_executor(name: str, workers: int | None = None, scheduler: str | None = None) -> Executor:
    """The executor called ``name`` (one of :data:`EXECUTORS`)."""
    if workers is not None and workers < 1:
        raise InvalidValueError(f"workers: expected at least 1, got {workers}")
    if scheduler and name != "dask":
        raise InvalidValueError("scheduler: only the dask executor takes a scheduler address")
    if name == "seq":
        return SequentialExecutor()
    if name == "pool":
        return PoolExecutor(workers)
    if name == "dask":
        return DaskExecutor(scheduler, workers)
    raise InvalidValueError(f"executor: unknown {name!r} (choose from {', '.join(EXECUTORS)})")
