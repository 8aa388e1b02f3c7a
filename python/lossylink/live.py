"""A live progress line for a long single run on a terminal: the run goes on a thread (the
extension releases the GIL while it simulates) and writes how far it has come into a shared
:class:`lossylink._core.Progress`; this thread redraws one line on stderr from it. The line is a
view only: the run, its events and its results are the same with or without it."""

from __future__ import annotations

import os
import threading
import time
from typing import IO, Any

from lossylink import _core
from lossylink.result import RunResult
from lossylink.scenario import Scenario

#: Runs shorter than this (wall seconds) show nothing.
SHOW_AFTER_S = 2.0
#: How often the line is redrawn (wall seconds).
REDRAW_S = 0.25


def progress_line(sim_s: float, limit_s: float, events: int, elapsed_s: float) -> str:
    """``simulated 12.50 of 50.00 s (25 %), 3,100,000 events, 1.24 M events/s, at most 30 s
    left``: the time left is an upper bound, since flows that complete end the run before its
    limit."""
    rate = events / elapsed_s if elapsed_s > 0 else 0.0
    frac = min(1.0, sim_s / limit_s) if limit_s > 0 else 0.0
    left = f", at most {elapsed_s * (1 - frac) / frac:.0f} s left" if frac > 0 else ""
    return (
        f"simulated {sim_s:.2f} of {limit_s:.2f} s ({frac * 100:.0f} %), {events:,} events, "
        f"{rate / 1e6:.2f} M events/s{left}"
    )


def run_live(
    scenario: Scenario,
    seed: int,
    *,
    trace: bool = False,
    pcap: str | os.PathLike[str] | None = None,
    stream: IO[str],
) -> RunResult:
    """Run ``scenario`` once, drawing :func:`progress_line` on ``stream`` while it takes longer
    than :data:`SHOW_AFTER_S`; the line is erased at the end."""
    progress = _core.Progress()
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["raw"] = _core.run(scenario.core, seed, trace, pcap, progress)
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc

    worker = threading.Thread(target=work, name="lossylink-run", daemon=True)
    started = time.monotonic()
    worker.start()
    width = 0
    while True:
        worker.join(REDRAW_S)
        if not worker.is_alive():
            break
        elapsed = time.monotonic() - started
        if elapsed < SHOW_AFTER_S:
            continue
        line = progress_line(progress.sim_s, progress.limit_s, progress.events, elapsed)
        width = max(width, len(line))
        stream.write("\r" + line.ljust(width))
        stream.flush()
    if width:
        stream.write("\r" + " " * width + "\r")
        stream.flush()
    if "error" in box:
        raise box["error"]
    return RunResult.from_raw(box["raw"])
