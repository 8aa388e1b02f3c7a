"""Parameter sweeps: a base scenario times a grid times seeds (see docs/sweeps.md).

- :mod:`~lossylink.sweeps.grid`: grid axes and their expansion into points;
- :mod:`~lossylink.sweeps.cache`: content-hashed run cache (resume and reuse);
- :mod:`~lossylink.sweeps.executors`: in-process, local process pool, Dask distributed;
- :mod:`~lossylink.sweeps.table`: the deterministic Parquet results file;
- :mod:`~lossylink.sweeps.summary`: mean, standard deviation and 95 % CI per grid point;
- :mod:`~lossylink.sweeps.core`: :func:`sweep` itself.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lossylink.sweeps.core import SweepResult, sweep
    from lossylink.sweeps.grid import Grid, GridPoint

__all__ = ["Grid", "GridPoint", "SweepResult", "sweep"]

# Imported on first use (PEP 562): a submodule such as `sweeps.executors` loads without pandas.
_LAZY = {
    "SweepResult": "lossylink.sweeps.core",
    "sweep": "lossylink.sweeps.core",
    "Grid": "lossylink.sweeps.grid",
    "GridPoint": "lossylink.sweeps.grid",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'lossylink.sweeps' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
