"""The live progress line of long single runs (`lossylink run` on a terminal)."""

from __future__ import annotations

import io
import re

import pytest

import lossylink as ll
from lossylink import _core, live
from support import CLI, without_wall


def test_the_line_says_how_far_how_fast_and_at_most_how_long() -> None:
    line = live.progress_line(12.5, 50.0, 3_100_000, 2.5)
    assert line == (
        "simulated 12.50 of 50.00 s (25 %), 3,100,000 events, 1.24 M events/s, at most 8 s left"
    )
    # Nothing reached yet: no estimate of the time left.
    assert live.progress_line(0.0, 50.0, 0, 1.0).endswith("0.00 M events/s")


def test_a_run_writes_its_progress_and_its_results_are_unchanged() -> None:
    s = ll.Scenario.preset("dumbbell").with_({"run.warmup": "1s", "run.duration": "3s"})
    p = _core.Progress()
    raw = _core.run(s.core, 3, False, None, p)
    assert p.limit_s == pytest.approx(3.0)
    assert 0 < p.sim_s <= 3.0
    assert 0 < p.events <= raw["metrics"]["events"]
    assert without_wall(raw["metrics"]) == without_wall(_core.run(s.core, 3)["metrics"])


def test_run_live_gives_the_run_and_erases_what_it_drew(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing from the first look on: whatever was drawn (the run may end before the first
    look on a fast machine) is progress lines, and the last thing written erases them."""
    monkeypatch.setattr(live, "SHOW_AFTER_S", 0.0)
    monkeypatch.setattr(live, "REDRAW_S", 0.001)
    s = ll.Scenario.preset("dumbbell").with_({"run.warmup": "1s", "run.duration": "20s"})
    out = io.StringIO()
    r = live.run_live(s, 5, stream=out)
    assert without_wall(r.metrics) == without_wall(ll.run(s, seed=5).metrics)
    text = out.getvalue()
    if text:
        parts = text.split("\r")[1:]
        assert all(re.match(r"simulated \d+\.\d\d of 20\.00 s", p) for p in parts[:-2])
        assert parts[-2].strip() == ""
        assert parts[-1] == ""


def test_run_live_raises_the_runs_error() -> None:
    s = ll.Scenario.preset("lan").with_({"run.time_limit": "1s", "transfer": "64MiB"})
    with pytest.raises(ll.errors.SimulationError, match=r"not complete within run\.time_limit"):
        live.run_live(s, 1, stream=io.StringIO())


def test_quiet_is_accepted_and_a_pipe_shows_no_line() -> None:
    import subprocess

    out = subprocess.run(
        [*CLI, "run", "--preset", "lan", "--transfer", "64KiB", "--quiet", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
