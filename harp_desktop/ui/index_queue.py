"""One recording indexed at a time, the rest queued; Cancel stops the current one and
clears the queue. Relays each run's progress and outcome as signals carrying the path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from harp_desktop.api import IndexOptions, IndexResult, Progress
from harp_desktop.ui.workers import IndexTask, TaskRunner


class IndexQueue(QObject):
    started = Signal(str)  # path
    progress = Signal(str, object)  # path, Progress
    finished = Signal(str, object)  # path, IndexResult
    failed = Signal(str, str)  # path, message
    cancelled = Signal(str)  # path
    changed = Signal()  # the queue or a status changed: refresh the library list

    def __init__(self, runner: TaskRunner, folder: Callable[[], Path], options: Callable[[], IndexOptions],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner, self._folder, self._options = runner, folder, options
        self.pending: list[str] = []
        self.current: str | None = None
        self._task: IndexTask | None = None
        self.status: dict[str, str] = {}  # path -> "queued", "42%", "failed" (not yet in the library)

    def busy(self) -> bool:
        return self._task is not None or bool(self.pending)

    def enqueue(self, path: str) -> None:
        path = str(Path(path).expanduser().resolve())
        if path == self.current or path in self.pending:
            return
        self.pending.append(path)
        self.status[path] = "queued"
        self.changed.emit()
        self._next()

    def cancel(self) -> None:
        """Stop the current run at its next checkpoint (finished stages are kept) and drop the queue."""
        for p in self.pending:
            self.status.pop(p, None)
        self.pending.clear()
        if self._task is not None:
            self._task.cancel()
        self.changed.emit()

    def forget(self) -> None:
        """A new library: nothing queued, nothing remembered."""
        self.cancel()
        self.status.clear()

    def _next(self) -> None:
        if self._task is not None or not self.pending:
            return
        path = self.pending.pop(0)
        task = IndexTask(self._folder(), path, self._options())
        task.signals.progress.connect(self._on_progress)
        task.signals.finished.connect(self._on_finished)
        task.signals.failed.connect(self._on_failed)
        task.signals.cancelled.connect(self._on_cancelled)
        self._task, self.current = task, path
        self.status[path] = "indexing"
        self.started.emit(path)
        self.changed.emit()
        self.runner.start(task)

    def _mine(self) -> bool:
        return self._task is not None and self.sender() is self._task.signals

    def _on_progress(self, p: Progress) -> None:
        if self._mine() and self.current:
            self.status[self.current] = f"{p.fraction * 100:.0f}%"
            self.progress.emit(self.current, p)

    def _finish(self) -> str:
        path = self.current or ""
        self._task, self.current = None, None
        self.status.pop(path, None)
        return path

    def _on_finished(self, result: IndexResult) -> None:
        if self._mine():
            path = self._finish()
            self.finished.emit(path, result)
            self.changed.emit()
            self._next()

    def _on_failed(self, message: str) -> None:
        if self._mine():
            path = self._finish()
            self.status[path] = "failed"
            self.failed.emit(path, message)
            self.changed.emit()
            self._next()

    def _on_cancelled(self) -> None:
        if self._mine():
            path = self._finish()
            self.cancelled.emit(path)
            self.changed.emit()
            self._next()
