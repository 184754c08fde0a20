"""Notice what other programs do to the open library.

A `harp index` or `harp delete` in a terminal, or a second window, changes the library
under this one. SQLite's ``PRAGMA data_version`` changes whenever another connection
commits, so polling it every two seconds costs one tiny query and needs no file watcher
(which would fire for every WAL write of our own indexing child).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from harp_desktop.store import dbapi

INTERVAL_MS = 2000


class LibraryWatch(QObject):
    changed = Signal()

    def __init__(self, version: Callable[[], int], parent: QObject | None = None,
                 interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._version = version
        self._last = self._read()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def _read(self) -> int | None:
        try:
            return self._version()
        except (OSError, *dbapi.Error):  # the library is being switched or closed: try at the next tick
            return None

    def check(self) -> None:
        now = self._read()
        if now is not None and now != self._last:
            self._last = now
            self.changed.emit()

    def reset(self) -> None:
        """A different library is open: its version is the new starting point."""
        self._last = self._read()
