"""Sweeps: grid expansion, byte-identical results across executors, resumption from the cache,
common random numbers between schemes, failing runs, and the `lossylink sweep` command."""

from __future__ import annotations

import hashlib
import json
import math
import os
import signal
import subprocess
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import lossylink as ll
from lossylink.errors import InvalidValueError
from lossylink.sweeps.cache import RunCache
from lossylink.sweeps.grid import Grid, load_grid_file, merge_axes, parse_axis
from support import CLI

# Small, lossy transfers: each run takes a few milliseconds.
BASE = {"transfer": "128KiB", "buffer": "32KiB"}
GRID = {"scheme": ["e2e", "e2e-newreno"], "error_every": ["16KiB", "64KiB"]}
SEEDS = 4


def _base() -> ll.Scenario:
    return ll.Scenario.preset("lan", **BASE)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- the grid ---------------------------------------------------------------------------------


def test_grid_expands_first_key_slowest() -> None:
    grid = Grid.from_spec({"scheme": ["a", "b"], "buffer": ["8KiB", 16384], "mss": 1400})
    points = list(grid)
    assert len(grid) == len(points) == 4
    assert [p.index for p in points] == [0, 1, 2, 3]
    assert [p.overrides() for p in points[:2]] == [
        {"scheme": "a", "buffer": "8KiB", "mss": "1400"},
        {"scheme": "a", "buffer": "16384", "mss": "1400"},
    ]
    assert points[3].label() == "scheme=b, buffer=16384, mss=1400"
    assert len(Grid.from_spec(None)) == 1


def test_grid_rejects_empty_and_repeated_values() -> None:
    with pytest.raises(InvalidValueError, match="no values"):
        Grid.from_spec({"scheme": []})
    with pytest.raises(InvalidValueError, match="twice"):
        Grid.from_spec({"scheme": ["e2e", "e2e"]})
    with pytest.raises(InvalidValueError, match="KEY=V1"):
        parse_axis("scheme")
    with pytest.raises(InvalidValueError, match="given twice"):
        merge_axes([("scheme", ["e2e"]), ("scheme", ["e2e-newreno"])])


def test_grid_file_nested_tables_are_dotted_keys(tmp_path: Path) -> None:
    path = tmp_path / "grid.toml"
    path.write_text('scheme = ["e2e", "e2e-newreno"]\nbuffer = "8KiB"\n[tcp]\nmin_rto = ["1s"]\n')
    assert load_grid_file(path) == {
        "scheme": ["e2e", "e2e-newreno"],
        "buffer": ["8KiB"],
        "tcp.min_rto": ["1s"],
    }
    path = tmp_path / "grid.json"
    path.write_text(json.dumps({"error_every": ["16KiB", "64KiB"]}))
    assert load_grid_file(path) == {"error_every": ["16KiB", "64KiB"]}


# -- results and determinism ------------------------------------------------------------------


def test_results_have_one_row_per_run_in_run_order(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    res = ll.sweep(_base(), GRID, seeds=SEEDS, out=out, executor="seq", cache=False)
    assert res.executed == 16
    assert res.cached == 0
    assert not res.failures
    table = pq.read_table(out)
    assert table.num_rows == 16
    assert table.column("run").to_pylist() == list(range(16))
    # Every grid point runs the same seeds: that is what makes the comparison paired.
    assert table.column("seed").to_pylist() == [1, 2, 3, 4] * 4
    assert table.column("grid.scheme").to_pylist()[::4] == ["e2e", "e2e", "e2e-newreno"] * 1 + [
        "e2e-newreno"
    ]
    assert table.column("scheme").to_pylist()[::4] == table.column("grid.scheme").to_pylist()[::4]
    names = table.schema.names
    assert "wall_s" not in names  # the one nondeterministic metric stays out
    for column in ("throughput_mbps", "scenario.tcp.buffer", "scenario", "lossylink_version"):
        assert column in names
    assert set(table.column("lossylink_version").to_pylist()) == {ll.__version__}
    assert table.schema.metadata[b"lossylink.version"] == ll.__version__.encode()
    # The stored scenario reproduces the run exactly.
    row = table.slice(5, 1).to_pylist()[0]
    again = ll.run(ll.Scenario.from_json(row["scenario"]), seed=row["seed"])
    assert again.throughput_mbps == row["throughput_mbps"]

    frame = res.frame()
    assert len(frame) == 16
    assert list(frame["grid.error_every"][:5]) == ["16KiB"] * 4 + ["64KiB"]

    summary = res.summary_frame()
    assert len(summary) == 4
    assert list(summary["runs"]) == [4, 4, 4, 4]
    first = table.slice(0, 4).column("throughput_mbps").to_pylist()
    assert summary["throughput_mbps_mean"][0] == pytest.approx(sum(first) / 4)
    assert summary["throughput_mbps_ci95"][0] > 0
    assert (tmp_path / "r.summary.csv").read_text().startswith("point,scheme,error_every,runs")


def test_pool_gives_byte_identical_parquet_to_sequential(tmp_path: Path) -> None:
    seq, pool, pool_b1 = tmp_path / "seq.parquet", tmp_path / "pool.parquet", tmp_path / "b.parquet"
    ll.sweep(_base(), GRID, seeds=SEEDS, out=seq, executor="seq", cache=False)
    res = ll.sweep(_base(), GRID, seeds=SEEDS, out=pool, executor="pool", workers=2, cache=False)
    assert res.executor == "pool"
    ll.sweep(_base(), GRID, seeds=SEEDS, out=pool_b1, executor="pool", batch=1, cache=False)
    assert _digest(seq) == _digest(pool) == _digest(pool_b1)


@pytest.mark.dask
def test_dask_local_cluster_gives_byte_identical_parquet_to_the_pool(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    pool, dask = tmp_path / "pool.parquet", tmp_path / "dask.parquet"
    ll.sweep(_base(), GRID, seeds=SEEDS, out=pool, executor="pool", workers=2, cache=False)
    res = ll.sweep(_base(), GRID, seeds=SEEDS, out=dask, executor="dask", workers=2, cache=False)
    assert res.executor == "dask"
    assert res.executed == 16
    assert _digest(pool) == _digest(dask)


@pytest.mark.dask
def test_dask_executor_connects_to_a_scheduler_address(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    seq, dask = tmp_path / "seq.parquet", tmp_path / "dask.parquet"
    ll.sweep(_base(), GRID, seeds=2, out=seq, executor="seq", cache=False)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        res = ll.sweep(
            _base(), GRID, seeds=2, out=dask, executor="dask", scheduler=cluster.scheduler_address
        )
    assert res.executed == 8
    assert _digest(seq) == _digest(dask)


def test_scheduler_address_needs_the_dask_executor() -> None:
    with pytest.raises(InvalidValueError, match="scheduler"):
        ll.sweep(_base(), GRID, seeds=1, executor="pool", scheduler="tcp://127.0.0.1:1")
    with pytest.raises(InvalidValueError, match="unknown 'threads'"):
        ll.sweep(_base(), GRID, seeds=1, executor="threads")


# -- cache and resumption ---------------------------------------------------------------------


def test_repeated_sweep_reuses_the_cache_and_grows_by_the_new_runs_only(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = ll.sweep(_base(), GRID, seeds=2, out=tmp_path / "a.parquet", cache=cache)
    assert (first.executed, first.cached) == (8, 0)
    assert len(RunCache(cache)) == 8
    again = ll.sweep(_base(), GRID, seeds=2, out=tmp_path / "b.parquet", cache=cache)
    assert (again.executed, again.cached) == (0, 8)
    assert _digest(tmp_path / "a.parquet") == _digest(tmp_path / "b.parquet")
    more = ll.sweep(_base(), GRID, seeds=SEEDS, out=tmp_path / "c.parquet", cache=cache)
    assert (more.executed, more.cached) == (8, 8)
    fresh = ll.sweep(_base(), GRID, seeds=SEEDS, out=tmp_path / "d.parquet", cache=False)
    assert _digest(tmp_path / "c.parquet") == _digest(tmp_path / "d.parquet")
    assert fresh.cache_dir is None


def test_default_cache_sits_next_to_the_output(tmp_path: Path) -> None:
    res = ll.sweep(_base(), {"scheme": "e2e"}, seeds=2, out=tmp_path / "r.parquet")
    assert res.cache_dir == tmp_path / ".lossylink-cache"
    assert len(RunCache(res.cache_dir)) == 2


def test_a_corrupt_cache_entry_is_run_again(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    res = ll.sweep(_base(), {"scheme": "e2e"}, seeds=2, executor="seq", cache=cache)
    store = RunCache(cache)
    key = res.rows[0].key
    assert key is not None
    store.path(key).write_text('{"format": 1, "key": "')  # a torn write, as if killed
    again = ll.sweep(_base(), {"scheme": "e2e"}, seeds=2, executor="seq", cache=cache)
    assert (again.executed, again.cached) == (1, 1)
    assert again.rows[0].metrics == res.rows[0].metrics


def test_killed_sweep_resumes_with_the_remaining_runs_only(tmp_path: Path) -> None:
    # Full 8 MiB transfers (a few ms each) so the kill lands while runs remain.
    cache, out = tmp_path / "cache", tmp_path / "r.parquet"
    seeds, grid = 60, {"scheme": ["e2e", "e2e-newreno"], "error_every": "32KiB"}
    total = seeds * 2
    args = ["sweep", "--grid=scheme=e2e,e2e-newreno", "--grid=error_every=32KiB"]
    args += [f"--seeds={seeds}", f"--out={out}", f"--cache={cache}", "--executor=seq"]
    proc = subprocess.Popen([*CLI, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    store = RunCache(cache)
    deadline = time.monotonic() + 120
    try:
        while len(store) < 10 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    done = len(store)
    assert 10 <= done < total, "the sweep was not killed halfway"
    assert not out.exists()

    res = ll.sweep("lan", grid, seeds=seeds, out=out, executor="seq", cache=cache)
    assert res.cached == done
    assert res.executed == total - done
    assert len(store) == total
    fresh = tmp_path / "fresh.parquet"
    ll.sweep("lan", grid, seeds=seeds, out=fresh, executor="pool", cache=False)
    assert _digest(out) == _digest(fresh)


# -- common random numbers --------------------------------------------------------------------

# Schemes that send the same frames until their first loss reaction (same segment sizes, no
# options on data): for them the first corrupted data frame must be the same segment.
SAME_FRAMES = ("e2e", "e2e-newreno", "e2e-eln", "e2e-eln-rxmt", "e2e-limited-transmit")


def _trace(scheme: str, seed: int) -> tuple[list[tuple[str, int, float]], int, float]:
    """The sender's events, the segment of its first retransmission (its first lost segment)
    and when that segment was first sent (in the frame the channel corrupted)."""
    r = ll.run("lan", seed=seed, trace=True, scheme=scheme, transfer="256KiB")
    assert r.trace is not None
    ev = r.trace["events"]
    rows = list(zip(ev["kind"], ev["seq"].tolist(), ev["time_s"].tolist(), strict=True))
    lost = next(seq for kind, seq, _ in rows if kind not in ("send", "ack"))
    sent = next(t for kind, seq, t in rows if kind == "send" and seq == lost)
    return rows, lost, sent


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_schemes_see_the_same_channel_for_the_same_seed(seed: int) -> None:
    runs = {scheme: _trace(scheme, seed) for scheme in SAME_FRAMES}
    # Every scheme loses the same segment first: the channel corrupts the same frame ...
    lost = {s: seq for s, (_, seq, _) in runs.items()}
    assert len(set(lost.values())) == 1, lost
    # ... because up to that frame every scheme sent the same segments at the same times.
    until = runs["e2e"][2]
    before = {s: [row for row in rows if row[2] <= until] for s, (rows, _, _) in runs.items()}
    assert len(before["e2e"]) > 10
    for scheme in SAME_FRAMES[1:]:
        assert before[scheme] == before["e2e"], scheme


def test_different_seeds_give_different_channels() -> None:
    # The control for the test above: the first lost segment is not the same for every seed.
    assert len({_trace("e2e", seed)[1] for seed in range(1, 6)}) > 1


# -- failures ---------------------------------------------------------------------------------


def test_failing_runs_are_reported_and_the_rest_kept(tmp_path: Path) -> None:
    grid = {"scheme": ["e2e", "e2e-newreno"], "time_limit": ["3600s", "2s"]}
    out = tmp_path / "r.parquet"
    base = ll.Scenario.preset("lan", transfer="128KiB", error_every="16KiB")
    with pytest.warns(ll.errors.RunsFailedWarning, match="6 of 12 runs failed"):
        res = ll.sweep(base, grid, seeds=3, out=out, executor="pool", workers=2)
    table = pq.read_table(out)
    assert table.num_rows == 12
    status = table.column("status").to_pylist()
    errors = table.column("error").to_pylist()
    # Points 0 and 2 are fine; points 1 and 3 hit a simulator error (time limit) on every seed.
    assert status == (["ok"] * 3 + ["error"] * 3) * 2
    assert all(e.startswith("SimulationError:") for e in errors[3:6] + errors[9:])
    assert table.column("throughput_mbps").to_pylist()[3:6] == [None] * 3
    assert [r.point for r in res.failures] == [1, 1, 1, 3, 3, 3]
    assert res.summary[0]["runs"] == 3
    assert res.summary[1]["failed"] == 3
    # Failures are not cached: they run again (and may have been fixed).
    assert len(RunCache(tmp_path / ".lossylink-cache")) == 6


# -- bad grid values: refused before anything runs -------------------------------------------


def test_a_bad_grid_value_is_refused_before_anything_runs(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    grid = {"scheme": ["e2e", "no-such-scheme"], "error_every": ["16KiB", "64KiB"]}
    with pytest.raises(ll.errors.UnknownSchemeError) as e:
        ll.sweep(_base(), grid, seeds=2, out=out, executor="seq")
    message = str(e.value)
    assert message.startswith("grid: scheme=no-such-scheme: scheme: unknown scheme"), message
    assert "\n" not in message, message
    assert len(message) < 300, message
    assert not out.exists()
    assert len(RunCache(tmp_path / ".lossylink-cache")) == 0
    with pytest.raises(InvalidValueError, match=r"^grid: buffer=-1: tcp\.buffer: "):
        ll.sweep(_base(), {"buffer": ["32KiB", "-1"]}, seeds=1, executor="seq")


def test_grid_values_that_need_each_other_run_and_a_refused_combination_names_its_point() -> None:
    # A 1 MiB buffer alone is refused (a 16-bit window field): beside window scaling it runs.
    base = ll.Scenario.preset("wan", transfer="64KiB")
    with pytest.raises(InvalidValueError):
        base.with_({"tcp.buffer": "1MiB"})
    grid = {"tcp.window_scaling": ["true"], "tcp.buffer": ["64KiB", "1MiB"]}
    res = ll.sweep(base, grid, seeds=1, executor="seq")
    assert res.executed == 2
    assert not res.failures
    # Beside window scaling off it is refused: the value is named, as refused alone.
    grid = {"tcp.window_scaling": ["true", "false"], "tcp.buffer": ["1MiB"]}
    with pytest.raises(InvalidValueError, match=r"^grid: tcp\.buffer=1MiB: tcp\.buffer: "):
        ll.sweep(base, grid, seeds=1, executor="seq")
    # Two values each fine alone, refused together: the point is named.
    wlan = ll.Scenario.preset("wlan")
    grid = {"run.warmup": ["0s", "8s"], "run.duration": ["30s", "6s"]}
    with pytest.raises(InvalidValueError) as e:
        ll.sweep(wlan, grid, seeds=1, executor="seq")
    assert str(e.value).startswith("grid: point 3 (run.warmup=8s, run.duration=6s): run."), e.value


def test_a_large_grid_is_checked_per_distinct_value_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # 100 x 100 points whose bad value comes last on the slowest axis: found by checking the
    # 200 distinct values (and the one point confirming it), not by building 9 900 points first.
    calls = 0
    with_ = ll.Scenario.with_

    def counting(self: ll.Scenario, *args: object, **kw: object) -> ll.Scenario:
        nonlocal calls
        calls += 1
        return with_(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ll.Scenario, "with_", counting)
    grid = {
        "tcp.mss": [*(str(500 + i) for i in range(99)), "0"],
        "run.time_limit": [f"{100 + i}s" for i in range(100)],
    }
    with pytest.raises(InvalidValueError, match=r"^grid: tcp\.mss=0: tcp\.mss: "):
        ll.sweep(_base(), grid, seeds=1, executor="seq")
    assert calls == 201


# -- the command line -------------------------------------------------------------------------


def test_cli_sweep_writes_results_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    args = [
        "sweep",
        "--set",
        "transfer=128KiB",
        "--grid",
        "scheme=e2e,e2e-newreno",
        "--seeds",
        "3",
        "--out",
        str(out),
        "--executor",
        "seq",
    ]
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "e2e-newreno" in proc.stdout
    assert "6 runs: 6 run now, 0 from the cache, 0 failed, in " in proc.stdout
    assert pq.read_table(out).num_rows == 6
    assert (tmp_path / "r.summary.csv").exists()
    again = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, check=False)
    assert "6 runs: 0 run now, 6 from the cache, 0 failed, in " in again.stdout


def test_cli_sweep_reports_failed_runs_with_status_1(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    args = ["sweep", "--set=transfer=128KiB", "--set=error_every=16KiB"]
    args += ["--grid=time_limit=3600s,2s", "--seeds=2"]
    proc = subprocess.run(
        [*CLI, *args, f"--out={out}", "--executor=seq", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 1
    # One line per failed run (each message names its seed).
    lines = proc.stderr.splitlines()
    assert len(lines) == 2, proc.stderr
    for seed, line in zip((1, 2), lines, strict=True):
        assert line.startswith(f"lossylink: run failed: point 1 (time_limit=2s), seed {seed}: ")
        assert "SimulationError" in line
    assert pq.read_table(out).num_rows == 4


def test_cli_sweep_bad_grid_value_is_status_2_before_any_run(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    for axis, says in [
        ("scheme=e2e,bogus", "lossylink: error: grid: scheme=bogus: scheme: unknown scheme"),
        ("buffer=32KiB,-1", "lossylink: error: grid: buffer=-1: tcp.buffer: -1 is negative"),
    ]:
        proc = subprocess.run(
            [
                *CLI,
                "sweep",
                "--set=transfer=128KiB",
                f"--grid={axis}",
                "--seeds=2",
                f"--out={out}",
                "--executor=seq",
                "--no-progress",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(says), proc.stderr
        assert len(proc.stderr.splitlines()) == 1, proc.stderr
        assert len(proc.stderr) < 300, proc.stderr
        assert proc.stdout == ""  # no summary: nothing ran
        assert not out.exists()


def test_cli_sweep_bad_grid_option_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [*CLI, "sweep", "--grid", "scheme", "--out", str(tmp_path / "r.parquet")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("lossylink: error: grid: expected KEY=V1,V2")


def test_an_outcome_from_another_lossylink_version_is_a_failed_run() -> None:
    from lossylink.sweeps.core import _finish
    from lossylink.sweeps.table import Row

    row = Row(0, 0, (), 1, "k", "{}", None, None)
    _finish(row, {"throughput_mbps": 1.0}, None, "0.0.0-other", ll.__version__, None)
    assert row.metrics is None
    assert row.error is not None
    assert "0.0.0-other" in row.error


def test_progress_bar_reports_runs_and_rate(capsys: pytest.CaptureFixture[str]) -> None:
    res = ll.sweep(_base(), {"scheme": "e2e"}, seeds=3, executor="seq", progress=True)
    assert res.executed == 3
    err = capsys.readouterr().err
    assert "3/3 runs" in err
    assert "runs/s" in err


def test_batches_shrink_towards_the_end_and_cover_every_run() -> None:
    from lossylink.sweeps.core import batch_sizes
    from lossylink.sweeps.executors import PoolExecutor, SequentialExecutor

    sizes = batch_sizes(600, PoolExecutor(2))
    assert sum(sizes) == 600
    # The pool's first round is one run per worker (it times them), then guided batches.
    assert sizes[:3] == [1, 1, 32]
    assert sizes[-4:] == [1, 1, 1, 1]
    assert sizes[2:] == sorted(sizes[2:], reverse=True)
    assert batch_sizes(5, SequentialExecutor()) == [1] * 5
    assert batch_sizes(7, PoolExecutor(2), batch=3) == [3, 3, 1]
    assert batch_sizes(0, PoolExecutor(2)) == []


def test_the_pool_runs_short_sweeps_on_threads_and_long_ones_on_processes(tmp_path: Path) -> None:
    """The pool times its first round; a rest within the pay-off time stays on threads, a
    longer one goes to worker processes; the results are the same either way."""
    from lossylink.sweeps import executors
    from lossylink.sweeps.table import NONDETERMINISTIC_METRICS

    grid = {"error_every": ["32KiB", "64KiB"]}
    outs = {}
    for label, pay_off in (("threads", math.inf), ("processes", 0.0)):
        pool = executors.PoolExecutor(2, processes_pay_off_s=pay_off)
        batches = [[(i, _base().to_json(), seed)] for i, seed in enumerate(range(1, 7))]
        outcomes = sorted(o for b in pool.run(batches) for o in b)
        pool.close()
        assert pool.used_processes == (label == "processes")
        outs[label] = [
            (o[0], {k: v for k, v in o[1].items() if k not in NONDETERMINISTIC_METRICS})
            for o in outcomes
        ]
        assert all(o[2] is None for o in outcomes)
    assert outs["threads"] == outs["processes"]
    # And through sweep(): the pool's single-run first round, then the rest.
    res = ll.sweep(_base(), grid, seeds=3, out=tmp_path / "r.parquet", executor="pool", cache=False)
    assert res.executed == 6
    assert not res.failures


def test_an_unwritable_out_is_an_error_before_any_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The results' directory is probed before the runs: a path under a regular file fails
    with one line naming it, and no executor is ever made."""
    import lossylink.sweeps.core as core
    from lossylink.errors import LossylinkIOError

    def no_runs(*args: object, **kwargs: object) -> None:
        raise AssertionError("an executor was made: the runs would have started")

    monkeypatch.setattr(core, "make_executor", no_runs)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(LossylinkIOError, match=r"^cannot write .*file: "):
        ll.sweep(ll.Scenario.preset("lan"), {"buffer": ["8KiB"]}, seeds=1,
                 out=blocker / "r.parquet")  # fmt: skip


# -- sweep size: refused before the grid is expanded -------------------------------------------


def test_a_sweep_over_max_runs_is_refused_before_any_point_is_built(monkeypatch) -> None:
    import lossylink.sweeps.core as core

    def never(*_args, **_kwargs):
        raise AssertionError("the grid was expanded")

    monkeypatch.setattr(core, "_plan", never)
    # 3000 x 3000 points: expanding them alone would take hours.
    grid = {
        "tcp.min_rto": [f"{i}ms" for i in range(1, 3001)],
        "buffer": [str(i) for i in range(3000)],
    }
    with pytest.raises(InvalidValueError) as e:
        ll.sweep(_base(), grid, seeds=1, executor="seq")
    assert str(e.value) == (
        "grid: 9000000 points x 1 seeds = 9000000 runs, more than max_runs 100000 "
        "(raise it with --max-runs N or max_runs=N)"
    )
    with pytest.raises(
        InvalidValueError, match=r"^grid: 3 points x 2 seeds = 6 runs, more than max_runs 5 "
    ):
        ll.sweep(_base(), {"buffer": ["8KiB", "16KiB", "32KiB"]}, seeds=2, max_runs=5)
    for bad in (0, -1, True, 2.5):
        with pytest.raises(InvalidValueError, match=r"^max_runs: expected a whole number"):
            ll.sweep(_base(), {"buffer": ["8KiB"]}, seeds=1, max_runs=bad)


def test_max_runs_raised_lets_the_sweep_run() -> None:
    res = ll.sweep(
        _base(), {"buffer": ["8KiB", "16KiB", "32KiB"]}, seeds=2, executor="seq", max_runs=6
    )
    assert res.executed == 6


def test_cli_sweep_over_max_runs_is_status_2_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    proc = subprocess.run(
        [
            *CLI,
            "sweep",
            "--grid=buffer=8KiB,16KiB,32KiB",
            "--seeds=4",
            "--max-runs=10",
            f"--out={out}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (
        "lossylink: error: grid: 3 points x 4 seeds = 12 runs, more than max_runs 10 "
        "(raise it with --max-runs N or max_runs=N)\n"
    )
    assert not out.exists()
