"""Helpers shared by the test modules (importable because pytest puts this folder on sys.path)."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# Small transfers keep each simulated run short; the numbers themselves are not under test here.
SMALL = {"transfer": "256KiB", "error_every": "64KiB", "buffer": "32KiB"}

# The CLI in a fresh interpreter (same as the `lossylink` console script).
CLI = [sys.executable, "-m", "lossylink"]

ROOT = Path(__file__).resolve().parents[2]
"""The repository."""
RUST_TESTS = ROOT / "crates/lossylink/tests/it"
"""The Rust integration tests the paper catalogues mirror."""
L2K_DOC = ROOT / "docs/ludwig2000.md"


def rust_const(path: Path, name: str) -> str:
    """The raw string of `const NAME: &str = r#"..."#;` in a Rust source file."""
    m = re.search(rf'const {name}: &str = r#"(.*?)"#;', path.read_text())
    assert m, (path, name)
    return m.group(1)


def l2k_target(tid: str) -> Any:
    """The ludwig2000 catalogue's target with id ``tid``."""
    from lossylink.papers import ludwig2000 as l2k

    (t,) = [t for t in l2k.TARGETS if t.id == tid]
    return t


def without_wall(metrics: Mapping[str, Any]) -> dict[str, Any]:
    """Metrics minus the wall-clock time, the one value that may differ between equal runs."""
    return {k: v for k, v in metrics.items() if k != "wall_s"}


def held_run_batch(hold: str, tasks: Any) -> Any:
    """A pool worker's batch runner for the fault-injection tests (``PoolExecutor.batch_runner``
    as a ``functools.partial`` of this): it writes ``<hold>/<pid>.started`` and runs the batch
    only once ``<hold>/go`` exists, so a test can kill a worker that is certainly holding a
    batch, on an event and not after a guessed time."""
    import os
    import time

    from lossylink.sweeps.executors import run_batch

    folder = Path(hold)
    (folder / f"{os.getpid()}.started").touch()
    while not (folder / "go").exists():
        time.sleep(0.005)  # waiting for the test's event; no duration is assumed
    return run_batch(tasks)


class MeanMeasurements:
    """A paper catalogue's measurements with one value (the mean) per experiment, whatever the
    metric: for judging targets without running them. A missing experiment is unavailable; a
    trace is never asked for."""

    def __init__(self, means: Mapping[str, float]) -> None:
        self.means = dict(means)

    def values(self, exp: str, metric: str) -> list[float]:
        from lossylink.papers._base import Unavailable

        if exp not in self.means:
            raise Unavailable(exp)
        return [self.means[exp]]

    def trace(self, run: str) -> dict:
        raise AssertionError(run)
