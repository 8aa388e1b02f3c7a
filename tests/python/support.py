"""Helpers shared by the test modules (importable because pytest puts this folder on sys.path)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

# Small transfers keep each simulated run short; the numbers themselves are not under test here.
SMALL = {"transfer": "256KiB", "error_every": "64KiB", "buffer": "32KiB"}

# The CLI in a fresh interpreter (same as the `lossylink` console script).
CLI = [sys.executable, "-m", "lossylink"]


def without_wall(metrics: Mapping[str, Any]) -> dict[str, Any]:
    """Metrics minus the wall-clock time, the one value that may differ between equal runs."""
    return {k: v for k, v in metrics.items() if k != "wall_s"}
