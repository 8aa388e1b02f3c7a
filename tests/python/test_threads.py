"""The extension releases the GIL while simulating: threads run in parallel and agree."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import lossylink as ll
from lossylink import Scenario
from support import without_wall


def test_concurrent_runs_equal_sequential_ones(small: Scenario) -> None:
    seeds = [1, 2, 3, 4]
    sequential = [without_wall(ll.run(small, seed=s).metrics) for s in seeds]
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(ll.run, small, seed=s) for s in seeds]
        concurrent = [without_wall(f.result(timeout=300).metrics) for f in futures]
    assert concurrent == sequential


def test_concurrent_batches_equal_sequential_ones(small: Scenario) -> None:
    sequential = [without_wall(r.metrics) for r in ll.run_seeds(small, seeds=4)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        a = pool.submit(ll.run_seeds, small, seeds=[1, 2])
        b = pool.submit(ll.run_seeds, small, seeds=[3, 4])
        results = a.result(timeout=300) + b.result(timeout=300)
    assert [without_wall(r.metrics) for r in results] == sequential


def test_python_runs_while_a_simulation_runs(small: Scenario) -> None:
    """The main thread counts while another thread runs simulations; a call during which the
    count moves by at least 3 shows the extension released the GIL. With the GIL held for the
    whole call the count could move at most once between reading it and entering the call, and
    not at all inside, however long the call. How long a call must be for the count to move
    depends on the machine, so the worker doubles the work of each call (2, 4, 8, ... runs)
    until one shows it: a fast machine simply gets there a few doublings later. Only a held GIL
    reaches the bound (2**14 runs in one call)."""
    ticks = [0]
    seen: list[tuple[int, int]] = []
    done = threading.Event()

    def work() -> None:
        try:
            for doubling in range(1, 15):
                runs = 2**doubling
                before = ticks[0]
                ll.run_seeds(small, seeds=runs, threads=1)
                seen.append((runs, ticks[0] - before))
                if seen[-1][1] >= 3:
                    return
        finally:
            done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks[0] += 1
        done.wait(0.0005)  # gives the GIL up, as any blocking call does
    worker.join()
    assert seen, "no call finished"
    assert seen[-1][1] >= 3, f"the count never moved inside a call (runs, moves): {seen}"


def test_run_seeds_on_threads_gives_the_sequential_results() -> None:
    import lossylink as ll

    s = ll.Scenario.preset("wan").set("transfer", "512KiB")
    one = ll.run_seeds(s, 6, threads=1)
    many = ll.run_seeds(s, 6, threads=3)
    auto = ll.run_seeds(s, 6)
    assert [r.metrics["seed"] for r in many] == [1, 2, 3, 4, 5, 6]
    for a, b, c in zip(one, many, auto, strict=True):
        a.metrics.pop("wall_s")
        b.metrics.pop("wall_s")
        c.metrics.pop("wall_s")
        assert a == b == c


def test_run_seeds_rejects_a_bad_thread_count() -> None:
    import pytest

    import lossylink as ll

    with pytest.raises(ll.errors.InvalidValueError, match="threads"):
        ll.run_seeds(ll.Scenario.preset("lan"), 2, threads=-1)
