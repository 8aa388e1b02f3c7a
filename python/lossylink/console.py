"""The rich console every command and the sweep's progress bar write to (a leaf module: rich
only, so the progress bar does not load the run table's module)."""

from __future__ import annotations

import os

from rich.console import Console


def make_console(*, stderr: bool = False) -> Console:
    """A console that does not wrap tables when writing to a pipe or file."""
    console = Console(highlight=False, stderr=stderr)
    if not console.is_terminal and not os.environ.get("COLUMNS", "").isdigit():
        # A pipe or file has no width: use 120 unless COLUMNS says otherwise.
        console.width = max(console.width, 120)
    return console
