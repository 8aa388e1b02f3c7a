"""lossylink: a deterministic packet-level simulator of TCP over lossy (wireless) links.

The simulation runs in Rust (the ``lossylink._core`` extension); this package is the Python
front: scenarios, runs, results, and the ``lossylink`` command line.

>>> import lossylink as ll
>>> r = ll.run("lan", seed=1, error_every="64KiB", buffer="32KiB")     # doctest: +SKIP
>>> rs = ll.run_seeds(ll.Scenario.preset("wan"), seeds=10)             # doctest: +SKIP
>>> ll.results_frame(rs)[["seed", "throughput_mbps"]]                  # doctest: +SKIP
"""

from __future__ import annotations

import importlib

from lossylink import errors
from lossylink._core import __version__

# typing.TYPE_CHECKING without importing typing, which the console script's --version and
# schemes paths do not otherwise need (type checkers treat the name as typing's).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from lossylink.result import RunResult, results_frame
    from lossylink.retracer import erasure_stats, erasure_trace, retrace
    from lossylink.runner import run, run_seeds, scheme_aliases, schemes
    from lossylink.scenario import Scenario
    from lossylink.sweeps import SweepResult, sweep

# The public names and the module each lives in, imported on first use (PEP 562), so that
# `import lossylink` and the command line's --version, schemes and preset paths stay light
# (numpy, pandas and pyarrow load only when a result or a sweep needs them).
_LAZY = {
    "RunResult": "lossylink.result",
    "results_frame": "lossylink.result",
    "run": "lossylink.runner",
    "run_seeds": "lossylink.runner",
    "scheme_aliases": "lossylink.runner",
    "schemes": "lossylink.runner",
    "Scenario": "lossylink.scenario",
    "erasure_stats": "lossylink.retracer",
    "erasure_trace": "lossylink.retracer",
    "retrace": "lossylink.retracer",
    "SweepResult": "lossylink.sweeps",
    "sweep": "lossylink.sweeps",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'lossylink' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "RunResult",
    "Scenario",
    "SweepResult",
    "__version__",
    "erasure_stats",
    "erasure_trace",
    "errors",
    "results_frame",
    "retrace",
    "run",
    "run_seeds",
    "scheme_aliases",
    "schemes",
    "sweep",
]
