"""lossylink: a deterministic packet-level simulator of TCP over lossy (wireless) links.

The simulation runs in Rust (the ``lossylink._core`` extension); this package is the Python
front: scenarios, runs, results, and the ``lossylink`` command line.

>>> import lossylink as ll
>>> r = ll.run("lan", seed=1, error_every="64KiB", buffer="32KiB")     # doctest: +SKIP
>>> rs = ll.run_seeds(ll.Scenario.preset("wan"), seeds=10)             # doctest: +SKIP
>>> ll.results_frame(rs)[["seed", "throughput_mbps"]]                  # doctest: +SKIP
"""

from lossylink import errors
from lossylink._core import __version__
from lossylink.result import RunResult, results_frame
from lossylink.runner import run, run_seeds, schemes
from lossylink.scenario import Scenario
from lossylink.sweeps import SweepResult, sweep

__all__ = [
    "RunResult",
    "Scenario",
    "SweepResult",
    "__version__",
    "errors",
    "results_frame",
    "run",
    "run_seeds",
    "schemes",
    "sweep",
]
