"""The sweep's progress bar (rich, on stderr): runs done, runs per second, time left."""

from __future__ import annotations

from types import TracebackType

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from lossylink.render import make_console


def _rate(task: Task) -> float | None:
    """Runs finished by this sweep per second since it started (cached runs not counted)."""
    done = task.completed - task.fields.get("initial", 0)
    elapsed = task.elapsed
    if not elapsed or done <= 0:
        return None
    return float(done) / elapsed


class RateColumn(ProgressColumn):
    """Runs per second, including start-up (pool or cluster) and every batch so far."""

    def render(self, task: Task) -> Text:
        """``"12.3 runs/s"``, or ``"– runs/s"`` before the first batch finishes."""
        rate = _rate(task)
        return Text("– runs/s" if rate is None else f"{rate:.1f} runs/s")


class LeftColumn(ProgressColumn):
    """Time left at the rate so far."""

    def render(self, task: Task) -> Text:
        """``"left 0:01:23"``, or ``"left -:--:--"`` before there is a rate."""
        rate = _rate(task)
        if rate is None or task.total is None:
            return Text("left -:--:--")
        seconds = int(max(0.0, task.total - task.completed) / rate)
        return Text(f"left {seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}")


class SweepProgress:
    """A context manager around a rich progress bar; a no-op when disabled."""

    def __init__(self, total: int, done: int, *, enabled: bool) -> None:
        """``total`` runs of which ``done`` are already finished (taken from the cache)."""
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        if enabled:
            self._progress = Progress(
                TextColumn("sweep"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("runs"),
                RateColumn(),
                TimeElapsedColumn(),
                LeftColumn(),
                console=make_console(stderr=True),
            )
            self._task = self._progress.add_task("sweep", total=total, completed=done, initial=done)

    def __enter__(self) -> SweepProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def advance(self, runs: int) -> None:
        """Count ``runs`` more finished runs."""
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, runs)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
