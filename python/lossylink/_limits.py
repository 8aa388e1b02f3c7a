"""Limits on what a command or call may ask for, shared by the CLI and the Python API (no
imports: the CLI reads them at start-up)."""

#: Seeds are 64-bit (the Rust core's master seed): the largest seed.
MAX_SEED = 2**64 - 1
#: Most seeds one call runs (a million runs of the reference scenario take hours).
MAX_SEEDS = 1_000_000
#: Most worker processes or threads one call starts.
MAX_WORKERS = 1024
