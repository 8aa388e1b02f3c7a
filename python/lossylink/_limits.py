"""Limits on what a command or call may ask for, shared by the CLI and the Python API (no
imports: the CLI reads them at start-up)."""

#: Seeds are 64-bit (the Rust core's master seed): the largest seed.
MAX_SEED = 2**64 - 1
#: Most seeds one call runs (a million runs of the reference scenario take hours).
MAX_SEEDS = 1_000_000
#: Most worker processes or threads one call starts.
MAX_WORKERS = 1024
#: Most runs (grid points x seeds) one sweep starts unless asked for more: a grid is checked
#: point by point before anything runs (about a millisecond a point), and 100 000 runs of a
#: paper's path take hours; ``max_runs=`` / ``--max-runs`` raise it.
MAX_SWEEP_RUNS = 100_000
