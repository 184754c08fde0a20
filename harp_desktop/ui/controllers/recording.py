"""Recording in the window: File > New recording, the record control, the transcript growing
while it records, Stop -> the normal indexing queue, and recordings a crash interrupted.

The microphone, the writer and live transcription run on their own threads (harp_desktop.record);
this controller only polls the level 10 times a second and receives the live words through a
queued signal, so the GUI thread never waits on the audio.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMessageBox

from harp_desktop.errors import user_message
from harp_desktop.ui.controllers.host import WindowHost
from harp_desktop.ui.record_panel import RecordPanel
from harp_desktop.ui.recording_data import Line, RecordingData
from harp_desktop.ui.workers import SHARED_MODELS, CallTask

if TYPE_CHECKING:
    from harp_desktop.record.session import RecordingSession


class _Words(QObject):
    """Carries live words from the transcription thread to the GUI thread (a queued signal)."""

    arrived = Signal(object)


class RecordingController(QObject):
    stopped = Signal(str)  # the saved file, once it is queued for indexing

    def __init__(self, window: WindowHost, panel: RecordPanel) -> None:
        super().__init__(window)
        self.w, self.panel = window, panel
        self.session: RecordingSession | None = None
        self.lines: list[Line] = []
        self.consented = False  # the consent reminder is shown before the first recording of a session
        self.recovery_box: QMessageBox | None = None
        self._words = _Words(self)
        self._words.arrived.connect(self._on_words)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._tick)
        panel.recordRequested.connect(self.start)
        panel.pauseToggled.connect(self.set_paused)
        panel.stopRequested.connect(self.stop)
        panel.hide()

    @property
    def recording(self) -> bool:
        return self.session is not None

    # -- File > New recording ----------------------------------------------------------------
    def new_recording(self) -> None:
        """Show the record control with the devices PortAudio offers; start at once on the default."""
        if self.recording:
            self.panel.show()
            return
        from harp_desktop.api import input_devices
        from harp_desktop.record.devices import DeviceError

        try:
            devices = input_devices()
        except DeviceError as exc:
            self.w.statusBar().showMessage(f"Cannot record: {exc}", 15000)
            return
        if not devices:
            self.w.statusBar().showMessage("Cannot record: no input device (connect a microphone)", 15000)
            return
        self.panel.set_devices(devices, self.panel.device.currentData())
        self.panel.set_state("idle")
        self.panel.show()
        self.start(self.panel.device.currentData())

    def confirm_consent(self) -> bool:
        """The reminder (Settings > Consent reminder) before the first recording; False: do not record."""
        if self.consented:
            return True
        box = QMessageBox(QMessageBox.Icon.Information, "Before you record", self.w.settings.consent_text,
                          QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel, self.w)
        box.button(QMessageBox.StandardButton.Ok).setText("Everyone agreed: record")
        self.consented = box.exec() == QMessageBox.StandardButton.Ok
        return self.consented

    def start(self, device: int | None = None) -> None:
        if self.recording or not self.confirm_consent():
            return
        w = self.w
        from harp_desktop.record.session import RecordingSession, default_target

        target = default_target(Path(w.settings.recordings_dir()))
        try:  # the indexing workers' models: whisper loads once for live and final transcription
            session = RecordingSession(w.lib, target, device, w.index_options(), live=True,
                                       on_words=self._words.arrived.emit, models=SHARED_MODELS)
            session.start()
        except (RuntimeError, ValueError, OSError) as exc:  # device busy or gone, disk: one line
            w.statusBar().showMessage(f"Cannot record: {user_message(exc)}", 15000)
            return
        self.session, self.lines = session, []
        w.clear_recording()
        w.setWindowTitle(f"Recording {target.name} \u2014 {w.windowTitle()}")
        w.transcript.set_recording(None, "recording\u2026 the transcript appears as you speak")
        w.ask_panel.set_ready(False, "Recording\u2026 you can ask once it is stopped and indexed")
        self.panel.set_state("recording")
        self.timer.start()
        w.statusBar().showMessage(f"Recording from {session.recorder.device.name} to {target}", 8000)

    def set_paused(self, on: bool) -> None:
        if self.session is None:
            return
        (self.session.pause if on else self.session.resume)()
        self.panel.set_state("paused" if on else "recording")

    def stop(self) -> None:
        """Stop; the file is finalised (and the last words transcribed) off the GUI thread, then indexed."""
        session = self.session
        if session is None or self.panel.state == "saving":
            return
        self.panel.set_state("saving")
        task = CallTask(session.stop, label="Saving the recording")
        task.signals.finished.connect(self._saved)
        task.signals.failed.connect(self._save_failed)
        self.w.runner.start(task)

    def _saved(self, path: Path | None) -> None:
        session, self.session = self.session, None
        self.timer.stop()
        self.panel.set_state("idle")
        if session is not None and session.recorder.overflows:
            self.w.statusBar().showMessage(f"{session.recorder.overflows} input overflow(s): the device dropped "
                                           "audio the computer did not read in time", 15000)
        if path is None:
            self.w.statusBar().showMessage("Nothing was recorded (the device delivered no samples)", 10000)
            return
        self.w.enqueue_index(str(path), show=True)  # indexed exactly like an opened file
        self.stopped.emit(str(path))

    def _save_failed(self, message: str) -> None:
        self.session = None
        self.timer.stop()
        self.panel.set_state("idle")
        self.w.statusBar().showMessage(f"Recording failed: {message}; what was written is kept and offered "
                                       "at the next start", 20000)

    # -- live view ---------------------------------------------------------------------------
    def _tick(self) -> None:
        if self.session is not None:
            r = self.session.recorder
            self.panel.show_meter(r.level_db, r.elapsed_s, r.overflows)

    def _on_words(self, words: list) -> None:
        if self.session is None or not words:
            return
        self.lines.append(Line(words[0].start_s, words[-1].end_s, None, "".join(x.text for x in words).strip()))
        r = self.session.recorder
        live = RecordingData(-1, "", str(self.session.target), self.session.target.name, r.elapsed_s, "",
                             Path(), [], list(self.lines), [], ["live"])
        self.w.transcript.set_recording(live, f"recording\u2026 {len(self.lines)} line(s) so far")
        self.w.transcript.view.scrollToBottom()

    # -- after a crash -----------------------------------------------------------------------
    def offer_recovered(self) -> list[str]:
        """Finalise recordings a crash interrupted (always kept) and offer to index them."""
        try:
            paths = [str(p) for p in self.w.lib.recover_recordings()]
        except OSError as exc:
            self.w.statusBar().showMessage(f"An interrupted recording could not be saved: {user_message(exc)}", 20000)
            return []
        if not paths:
            return []
        box = QMessageBox(QMessageBox.Icon.Question, "Interrupted recording",
                          f"{len(paths)} recording(s) were interrupted (the program stopped while recording) and "
                          "have been saved:\n\n" + "\n".join(paths) + "\n\nIndex them now?",
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.w)
        box.button(QMessageBox.StandardButton.Yes).clicked.connect(lambda: [self.w.enqueue_index(p) for p in paths])
        box.setModal(False)
        box.show()  # not exec(): the window starts normally behind it
        self.recovery_box = box
        self.w.refresh_library()
        return paths

    def shutdown(self) -> None:
        """Closing the window while recording: the audio so far stays as a partial recording,
        saved and offered for indexing at the next start (the same path as after a crash)."""
        if self.session is not None:
            self.timer.stop()
            self.session.abandon()
            self.session = None
