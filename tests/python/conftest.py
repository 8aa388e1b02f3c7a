"""Shared fixtures for the Python tests (they need the compiled extension: `make test`)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from lossylink import Scenario
from support import CLI, SMALL


@pytest.fixture
def small() -> Scenario:
    """The LAN preset with a short lossy transfer."""
    return Scenario.preset("lan", **SMALL)


@pytest.fixture
def cli_run() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the CLI in a fresh Python process; returns the completed process."""

    def _run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*CLI, *args], capture_output=True, text=True, timeout=300, check=False
        )

    return _run
