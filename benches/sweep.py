"""Benchmark of the sweep executors: a 600-run sweep (6 schemes x 5 error rates x 20 seeds of
8 MiB transfers over the lan preset), sequential, local pool and Dask LocalCluster.

    .venv/bin/python benches/sweep.py [--seeds N] [--executors seq,pool,dask] [--workers N]
        [--schemes e2e,e2e-newreno,ll-tcp-aware]   # the 300-run sweep of issue 21

Prints wall time and runs per second per executor (cache off, so every run executes) and checks
that the Parquet files are byte-identical. Timings include starting the pool or cluster, not
importing pyarrow (a one-run warm-up sweep does that first, so the executor measured first
does not pay for it); the pool says whether it ran on threads or started processes.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
import time
from pathlib import Path

import lossylink as ll

ERROR_RATES = ["16KiB", "32KiB", "64KiB", "128KiB", "256KiB"]


def schemes(n: int = 6) -> list[str]:
    """The registered schemes, topped up with modifier variants to ``n``."""
    names = [s["name"] for s in ll.schemes()][:n]
    for extra in ("e2e-newreno+modern", "e2e+lt", "e2e+eifel"):
        if len(names) < n and extra not in names:
            names.append(extra)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--executors", default="seq,pool,dask")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--transfer", default="8MiB")
    parser.add_argument("--schemes", default=None, help="comma-separated [6 registered schemes]")
    args = parser.parse_args()

    names = args.schemes.split(",") if args.schemes else schemes()
    grid = {"scheme": names, "error_every": ERROR_RATES}
    base = ll.Scenario.preset("lan", transfer=args.transfer)
    runs = len(grid["scheme"]) * len(ERROR_RATES) * args.seeds
    print(
        f"{runs} runs: {', '.join(grid['scheme'])} x {', '.join(ERROR_RATES)} x {args.seeds} "
        f"seeds, {args.transfer}; {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    digests = {}
    ll.sweep(base, {"scheme": names[:1]}, 1, executor="seq", cache=False)  # imports pyarrow
    with tempfile.TemporaryDirectory() as tmp:
        for ex in args.executors.split(","):
            out = Path(tmp) / f"{ex}.parquet"
            t0 = time.perf_counter()
            res = ll.sweep(
                base, grid, args.seeds, out=out, executor=ex, workers=args.workers, cache=False
            )
            wall = time.perf_counter() - t0
            cpu, t = res.cpu_s, res.timings
            assert res.executed == runs
            assert not res.failures
            digests[ex] = hashlib.sha256(out.read_bytes()).hexdigest()
            sim = sum(r.metrics.get("events", 0) for r in res.rows if r.metrics)  # type: ignore[misc]
            run_s = t["run_s"]
            print(
                f"{ex:>5}: {wall:5.2f} s {runs / wall:6.1f} runs/s {sim / wall / 1e6:4.1f} M ev/s"
                f" | start {t['start_s']:4.2f} s, run {run_s:5.2f} s = {runs / run_s:6.1f} runs/s,"
                f" {cpu / run_s:.2f} cores busy | {digests[ex][:12]}"
            )
    same = len(set(digests.values())) == 1
    print("results byte-identical across executors" if same else f"DIFFERENT: {digests}")


if __name__ == "__main__":
    main()
