"""Parameter sweeps: a base scenario times a grid times seeds (see docs/sweeps.md).

- :mod:`~lossylink.sweeps.grid`: grid axes and their expansion into points;
- :mod:`~lossylink.sweeps.cache`: content-hashed run cache (resume and reuse);
- :mod:`~lossylink.sweeps.executors`: in-process, local process pool, Dask distributed;
- :mod:`~lossylink.sweeps.table`: the deterministic Parquet results file;
- :mod:`~lossylink.sweeps.summary`: mean, standard deviation and 95 % CI per grid point;
- :mod:`~lossylink.sweeps.core`: :func:`sweep` itself.
"""

from lossylink.sweeps.core import SweepResult, sweep
from lossylink.sweeps.grid import Grid, GridPoint

__all__ = ["Grid", "GridPoint", "SweepResult", "sweep"]
