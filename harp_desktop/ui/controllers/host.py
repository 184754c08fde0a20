"""What the controllers read of the main window, as a Protocol: they take the window by this
type instead of importing ``MainWindow`` (which imports them), so ui/ has no import cycle
(tests/test_layout.py). The panels are typed loosely: each controller touches only a few of
their methods, and the panel classes are already checked where they are defined."""

from __future__ import annotations

from typing import Any, Protocol


class WindowHost(Protocol):
    lib: Any
    library: Any
    settings: Any
    queue: Any
    runner: Any
    progress: Any
    ask_panel: Any
    transcript: Any
    waveform: Any
    current_path: str | None

    def statusBar(self) -> Any: ...  # noqa: N802 - Qt's name

    def refresh_library(self) -> None: ...

    def open_path(self, path: str) -> None: ...

    def enqueue_index(self, path: str, show: bool = False) -> None: ...
