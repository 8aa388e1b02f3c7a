"""How a sweep's runs reach the extension: `_core.run_batch` runs a batch with the
GIL released once, on one or more threads, with the results of `_core.run` in task order; the
sequential executor groups batches by time; the results table is built from Arrow buffers
without importing pandas, equal to what `pa.array` builds."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

import lossylink as ll
from lossylink import _core
from lossylink.sweeps import executors
from lossylink.sweeps.table import _array

WALL = "wall_s"


def _metrics(raw: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in raw["metrics"].items() if k != WALL}


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_run_batch_is_run_in_task_order(threads: int) -> None:
    scenarios = [
        _core.Scenario.from_json(
            ll.Scenario.preset("lan", transfer="256KiB", error_every=e, scheme=s).to_json()
        )
        for s in ("e2e", "ll-tcp-aware")
        for e in ("16KiB", "64KiB")
    ]
    tasks = [(sc, seed) for sc in scenarios for seed in (3, 1, 2)]
    got = _core.run_batch([t[0] for t in tasks], [t[1] for t in tasks], threads)
    assert len(got) == len(tasks)
    for (sc, seed), (raw, error, seconds) in zip(tasks, got, strict=True):
        assert error is None
        assert seconds >= 0.0
        assert _metrics(raw) == _metrics(_core.run(sc, seed))


def test_run_batch_reports_a_failing_run_and_keeps_the_others() -> None:
    ok = _core.Scenario.from_json(ll.Scenario.preset("lan", transfer="128KiB").to_json())
    bad = _core.Scenario.from_json(
        ll.Scenario.preset("lan", transfer="128KiB", error_every="16KiB", time_limit="2s").to_json()
    )
    got = _core.run_batch([ok, bad, ok], [1, 1, 2], 2)
    assert [g[1] is None for g in got] == [True, False, True]
    with pytest.raises(ll.errors.SimulationError) as exc:
        _core.run(bad, 1)
    assert got[1][0] is None
    assert got[1][1] == f"SimulationError: {exc.value}"
    with pytest.raises(ValueError, match="differ in length"):
        _core.run_batch([ok], [1, 2])


def test_sequential_executor_groups_batches_and_yields_each_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = executors.run_batch

    def counting(tasks, threads=1):  # type: ignore[no-untyped-def]
        calls.append(len(tasks))
        return real(tasks, threads)

    monkeypatch.setattr(executors, "run_batch", counting)
    monkeypatch.setattr(executors, "CALL_S", 1e9)
    doc = ll.Scenario.preset("lan", transfer="64KiB").to_json()
    batches = [[(i, doc, i + 1)] for i in range(6)]
    out = list(executors.SequentialExecutor().run(batches))
    assert [[o[0] for o in b] for b in out] == [[i] for i in range(6)]
    assert calls == [1, 5]  # one timed batch, then the rest in one call


def _timed_calls(monkeypatch: pytest.MonkeyPatch, seconds: float) -> list[tuple[int, int]]:
    """Replace the extension call with one whose runs each take ``seconds``; record each
    call's (runs, threads)."""
    calls: list[tuple[int, int]] = []

    def fake(tasks, threads=1):  # type: ignore[no-untyped-def]
        calls.append((len(tasks), threads))
        return [(t[0], {"run": t[0]}, None, "v", seconds) for t in tasks]

    monkeypatch.setattr(executors, "run_batch", fake)
    return calls


@pytest.mark.parametrize(("threads", "expected"), [(1, [1, 3, 3, 3, 3, 4]), (2, [1, 9, 7])])
def test_run_grouped_fills_each_call_with_the_runs_of_call_s(
    monkeypatch: pytest.MonkeyPatch, threads: int, expected: list[int]
) -> None:
    """Runs of 10 ms and CALL_S = 50 ms: one call takes 5 runs per thread (whole batches, at
    least one), after a first call of one batch that times them."""
    calls = _timed_calls(monkeypatch, 0.01)
    monkeypatch.setattr(executors, "CALL_S", 0.05)
    sizes = [1, 3, 3, 3, 3, 3, 1]
    batches, first = [], 0
    for n in sizes:
        batches.append([(i, "{}", 1) for i in range(first, first + n)])
        first += n
    out = list(executors.run_grouped(batches, threads))
    assert [[o[0] for o in b] for b in out] == [[t[0] for t in b] for b in batches]
    assert calls == [(n, threads) for n in expected]


def test_the_pool_on_threads_times_one_call_then_groups_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pool's first round (one batch per worker) is one call on its threads; the rest
    follows in calls of POOL_CALL_S, on the same threads, batch by batch in order."""
    calls = _timed_calls(monkeypatch, 0.01)
    monkeypatch.setattr(executors, "POOL_CALL_S", 0.05)
    batches = [[(i, "{}", 1)] for i in range(2)] + [[(i, "{}", 1)] for i in range(2, 14)]
    pool = executors.PoolExecutor(2, processes_pay_off_s=math.inf)
    out = list(pool.run(batches))
    assert not pool.used_processes
    assert [b[0][0] for b in out] == list(range(14))
    assert calls == [(2, 2), (10, 2), (2, 2)]


@pytest.mark.parametrize(
    ("typ", "values"),
    [
        (pa.int64(), [1, None, -(2**63), 2**63 - 1, 0, None, 7, 8, 9]),
        (pa.uint64(), [2**64 - 1, None, 3]),
        (pa.float64(), [0.1, None, -2.5, float("inf")]),
        (pa.bool_(), [True, False, None, True, True, False, False, True, True, None]),
        (pa.string(), ["a", None, "", "ü€", "x" * 100]),
        (pa.string(), [None, None]),
        (pa.int64(), []),
    ],
)
def test_arrays_from_buffers_equal_pa_array(typ: pa.DataType, values: list[object]) -> None:
    built = _array(typ, values)
    built.validate(full=True)
    assert built.equals(pa.array(values, type=typ))
    assert built.null_count == sum(v is None for v in values)


def test_a_sweep_imports_no_pandas(tmp_path: Path) -> None:
    code = (
        "import sys, lossylink as ll\n"
        f"ll.sweep('lan', {{'error_every': ['64KiB']}}, 2, out={str(tmp_path)!r} + '/r.parquet',"
        " executor='seq', cache=False)\n"
        "assert 'pandas' not in sys.modules, 'pandas imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cli_sweep_writes_the_library_bytes_without_pandas(tmp_path: Path) -> None:
    """`lossylink sweep` writes the file the library writes, and never imports pandas."""
    grid = {"scheme": ["e2e", "ll-tcp-aware"], "error_every": ["16KiB", "64KiB"]}
    lib = tmp_path / "lib.parquet"
    ll.sweep(ll.Scenario.preset("lan", transfer="128KiB"), grid, 3, out=lib, cache=False)
    cli = tmp_path / "cli.parquet"
    args = [
        "sweep", "--preset", "lan", "--set", "transfer=128KiB", "--grid", "scheme=e2e,ll-tcp-aware",
        "--grid", "error_every=16KiB,64KiB", "--seeds", "3", "--no-cache", "--out", str(cli),
    ]  # fmt: skip
    code = (
        "import sys\nfrom lossylink.cli import cli\n"
        f"cli.main(args={args!r}, standalone_mode=False)\n"
        "print(sorted(m for m in ('pandas',) if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "[]"
    assert cli.read_bytes() == lib.read_bytes()


def test_importing_the_sweep_module_is_light() -> None:
    code = (
        "import sys\nimport lossylink.sweeps.core\n"
        "heavy = ('rich', 'numpy', 'pandas', 'pyarrow', 'multiprocessing')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith(heavy)}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert done.stdout.strip() == "[]"
