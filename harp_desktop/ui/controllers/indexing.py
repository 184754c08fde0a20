"""Indexing in the window: the background queue's progress, results, failures, cancelling."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt

from harp_desktop.api import IndexOptions, IndexResult, Progress
from harp_desktop.ui import recording_data as rd
from harp_desktop.ui.controllers.host import WindowHost


class IndexingController(QObject):
    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.w = window
        self.shown_early = False  # the open recording was shown as soon as it decoded
        q = window.queue
        q.started.connect(self._started)
        q.progress.connect(self.on_progress)
        q.finished.connect(self._done)
        q.failed.connect(self.on_failed)
        q.cancelled.connect(self.on_cancelled)
        q.changed.connect(window.refresh_library)
        window.progress.cancelRequested.connect(self.cancel)

    def options(self) -> IndexOptions:
        return IndexOptions(asr_profile=self.w.settings.asr_profile, cpu_threads=self.w.settings.threads)

    def busy(self) -> bool:
        return self.w.queue.busy()

    def enqueue(self, path: str, show: bool = False) -> None:
        path = str(Path(path).expanduser().resolve())
        if show and path != self.w.current_path:
            self.w.open_path(path)
        self.w.queue.enqueue(path)

    def cancel(self) -> None:
        q = self.w.queue
        if q.busy():
            q.cancel()
            if q.current:
                self.w.progress.cancelling()

    def reindex_current(self) -> None:
        if self.w.current_path:
            self.enqueue(self.w.current_path)

    # -- the queue's signals ---------------------------------------------------------------
    def _started(self, path: str) -> None:
        w = self.w
        self.shown_early = path != w.current_path or w.data is not None
        w.progress.start(Path(path).name, len(w.queue.pending))

    def on_progress(self, path: str, p: Progress) -> None:
        w = self.w
        if w.closed:  # a queued signal from the indexer after close: the library is shut
            return
        w.progress.update_progress(Path(path).name, p, len(w.queue.pending))
        self._update_row_text(path)
        if not self.shown_early and p.stage != "decode" and path == w.current_path:
            self.shown_early = True  # decoded: the waveform can be shown while the rest runs
            rec = rd.find(w.lib, path)
            if rec is not None:
                w.show_recording(rec["sha256"])

    def _update_row_text(self, path: str) -> None:
        tree = self.w.library.tree
        for i in range(tree.topLevelItemCount()):
            item = tree.topLevelItem(i)
            if item.data(0, Qt.ItemDataRole.UserRole) == path:
                item.setText(2, self.w.queue.status.get(path, ""))
                return
        self.w.refresh_library()

    def _done(self, path: str, result: IndexResult) -> None:
        w = self.w
        if w.closed:
            return
        what = "already up to date" if not result.ran else f"indexed in {sum(result.seconds.values()):.1f} s"
        w.statusBar().showMessage(f"{Path(result.path).name}: {what}"
                                  + "".join(f"; note: {n}" for n in result.notes), 10000)
        if path == w.current_path or (w.data is not None and w.data.sha256 == result.sha256):
            w.show_recording(result.sha256, keep_view=w.data is not None and w.data.sha256 == result.sha256)
            if not w.waveform.has_waveform and w.data is not None:
                w.load_envelope(w.data)
        self._idle()
        w.indexFinished.emit(result.path)

    def on_failed(self, path: str, message: str) -> None:
        w = self.w
        if w.closed:
            return
        w.statusBar().showMessage(f"Indexing failed: {message}", 15000)
        if path == w.current_path and w.data is None:
            w.transcript.status.setText(f"indexing failed: {message}")
            w.ask_panel.set_ready(False, "Indexing failed")
        self._idle()
        w.indexStopped.emit(path, message)

    def on_cancelled(self, path: str) -> None:
        w = self.w
        if w.closed:
            return
        w.statusBar().showMessage("Indexing cancelled; finished stages are kept and opening the recording "
                                  "again resumes.", 10000)
        if path == w.current_path and w.data is None:
            w.transcript.status.setText("indexing cancelled; open it again to resume")
        self._idle()
        w.indexStopped.emit(path, "cancelled")

    def _idle(self) -> None:
        if not self.w.queue.busy():
            self.w.progress.hide()
