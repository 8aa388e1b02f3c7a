"""The sweep's progress bar (rich, on stderr): runs done, runs per second, time left."""

from __future__ import annotations

import sys
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

from lossylink.console import make_console


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


def _widgets_missing() -> bool:
    """Whether rich's live display would need ipywidgets here (Jupyter) and cannot have it."""
    if not make_console(stderr=True).is_jupyter:
        return False
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return True
    return False


class TextProgress:
    """Plain progress lines on stderr (``sweep: 12/40 runs``), about every tenth of the runs:
    the fallback in a notebook without ipywidgets, where rich's live bar cannot draw."""

    def __init__(self, total: int, done: int) -> None:
        """``total`` runs of which ``done`` are already finished."""
        self.total, self.done = total, done
        self._step = max(1, total // 10)
        self._next = done + self._step

    def start(self) -> None:
        """Print the first line."""
        self._line()

    def advance(self, runs: int) -> None:
        """Count ``runs`` more; print a line when a tenth more is done or all are."""
        self.done += runs
        if self.done >= self._next or self.done >= self.total:
            self._next = self.done + self._step
            self._line()

    def _line(self) -> None:
        print(f"sweep: {self.done}/{self.total} runs", file=sys.stderr, flush=True)


class SweepProgress:
    """A context manager around a rich progress bar; a no-op when disabled. In Jupyter
    without ipywidgets it prints plain lines instead (:class:`TextProgress`)."""

    def __init__(
        self,
        total: int,
        done: int,
        *,
        enabled: bool,
        completed: int | None = None,
        started: float | None = None,
    ) -> None:
        """``total`` runs of which ``done`` are already finished (taken from the cache);
        a bar made after the sweep started passes the runs ``completed`` so far and when it
        ``started`` (:func:`time.monotonic`, rich's clock), so the rate and elapsed time count
        from the start."""
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._text: TextProgress | None = None
        shown = done if completed is None else completed
        if enabled and _widgets_missing():
            self._text = TextProgress(total, shown)
        elif enabled:
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
            self._task = self._progress.add_task(
                "sweep",
                total=total,
                completed=shown,
                initial=done,
            )
            if started is not None:
                self._progress.tasks[0].start_time = started

    def __enter__(self) -> SweepProgress:
        if self._progress is not None:
            self._progress.start()
        if self._text is not None:
            self._text.start()
        return self

    def advance(self, runs: int) -> None:
        """Count ``runs`` more finished runs."""
        if self._text is not None:
            self._text.advance(runs)
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
