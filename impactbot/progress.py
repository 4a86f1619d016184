"""A progress bar for cold extraction, on stderr, only when it is a terminal."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn


class ExtractionProgress:
    """Callable as ``progress(done, total)``; shows a bar once there is real work."""

    MIN_FILES = 50  # below this the bar would only flicker

    def __init__(self) -> None:
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if total < self.MIN_FILES:
            return
        if self._bar is None:
            self._bar = Progress(
                TextColumn("parsing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                console=Console(stderr=True), transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task("parse", total=total)
        assert self._task is not None
        self._bar.update(self._task, completed=done, total=total)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
