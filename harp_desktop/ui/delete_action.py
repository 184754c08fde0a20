"""Recording ▸ Delete from library, and the same in the library list's context menu.

After a confirmation that says what goes and what stays, the headless API removes the
recording's rows, answers, questions, annotations, export records, vectors, decoded audio
and waveform caches (store/delete.py, the same as `harp delete`), in a worker thread: it
waits for another program that is indexing the same recording. The recording file itself
is never touched.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox

from harp_desktop.api import Library
from harp_desktop.ui import recording_data as rd
from harp_desktop.ui.workers import CallTask

WHAT_GOES = ("Its transcript, speakers, sound events, emotions, answers, questions and annotations, the "
             "records of its exports, its vectors and its decoded-audio and waveform caches are removed "
             "for good. The recording file itself stays where it is, and files you exported stay too.")


def delete_in_worker(folder: Path, sha256: str) -> str:
    """Worker-thread body: its own Library (SQLite connection), closed afterwards."""
    lib = Library(folder)
    try:
        gone = lib.delete_recording(sha256)
        return f"Deleted {gone.name} from the library ({gone.rows} rows, {len(gone.files)} files or folders)"
    finally:
        lib.close()


class DeleteAction(QObject):
    finished = Signal(str)  # what was deleted, in a sentence
    failed = Signal(str)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window
        self.task: CallTask | None = None
        menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Recording")
        menu.addSeparator()
        self.act = window._action(menu, "&Delete from library\u2026", self.delete_current, "Shift+Del",
                                  "Remove the open recording's index, answers and caches (not the recording file)")
        window.library.deleteRequested.connect(self.request)
        window.recordingShown.connect(lambda *_: self.act.setEnabled(self.task is None))
        self.act.setEnabled(False)

    def delete_current(self) -> None:
        if self.w.data is not None:
            self.request(self.w.data.path)

    def request(self, path: str, confirm: bool = True) -> None:
        w = self.w
        if self.task is not None:
            w.statusBar().showMessage("A deletion is already running", 8000)
            return
        rec = rd.find(w.lib, path)
        if rec is None:
            w.statusBar().showMessage(f"{Path(path).name} is not in the library", 8000)
            return
        if rec["path"] == w.queue.current or rec["path"] in w.queue.pending:
            w.statusBar().showMessage(f"{rec['name']} is being indexed: cancel indexing (Esc) before deleting it",
                                      10000)
            return
        if confirm and QMessageBox.question(
                w, "Delete recording", f"Delete \u201c{rec['name']}\u201d from the library?\n\n{WHAT_GOES}",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No) != QMessageBox.StandardButton.Yes:
            return
        if w.data is not None and w.data.sha256 == rec["sha256"]:
            w.clear_recording()  # stop playback and let go of its audio before the caches go
        self.act.setEnabled(False)
        self.task = CallTask(delete_in_worker, w.lib.folder, rec["sha256"], label="Deleting")
        self.task.signals.finished.connect(self._done)
        self.task.signals.failed.connect(self._failed)
        w.statusBar().showMessage(f"Deleting {rec['name']}\u2026")
        w.runner.start(self.task)

    def _done(self, message: str) -> None:
        self.task = None
        self.w.refresh_library()
        self.w.statusBar().showMessage(message, 10000)
        self.act.setEnabled(self.w.data is not None)
        self.finished.emit(message)

    def _failed(self, message: str) -> None:
        self.task = None
        self.w.statusBar().showMessage(f"Delete failed: {message}", 15000)
        self.act.setEnabled(self.w.data is not None)
        self.failed.emit(message)
