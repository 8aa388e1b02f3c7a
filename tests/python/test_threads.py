"""The extension releases the GIL while simulating: threads run in parallel and agree."""

from __future__ import annotations

import threading
import time
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


def _batch_lasting(scenario: Scenario, seconds: float) -> list[int]:
    """Seeds for a `run_seeds` call that takes at least `seconds` on this machine."""
    n = 1
    while True:
        start = time.perf_counter()
        ll.run_seeds(scenario, seeds=n)
        if time.perf_counter() - start >= seconds or n >= 4096:
            return list(range(1, n + 1))
        n *= 2


def test_python_runs_while_a_simulation_runs(small: Scenario) -> None:
    """With the GIL held for the whole call, the main thread could not tick meanwhile."""
    seeds = _batch_lasting(small, 0.3)
    window: dict[str, float] = {}

    def work() -> None:
        window["start"] = time.perf_counter()
        ll.run_seeds(small, seeds=seeds)
        window["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks: list[float] = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    inside = [t for t in ticks if window["start"] + 0.05 < t < window["end"] - 0.05]
    # The simulation lasts >= 0.3 s: with the GIL released the loop ticks about once per ms.
    assert len(inside) >= 20, (len(inside), window["end"] - window["start"])


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
