"""The main window: builds the panels and menus, shows a recording, routes clicks (seek, play, rename).

It holds no indexing, answering or recording logic: the controllers in ``ui/controllers/``
do (indexing: the background queue; asking: questions and answers; recording: the
microphone and the live transcript), and it reads snapshots through ``recording_data``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.api import IndexOptions, Library, Progress
from harp_desktop.audio.decode import SUPPORTED, AudioError
from harp_desktop.errors import user_message
from harp_desktop.paths import REPO_ROOT
from harp_desktop.store import dbapi
from harp_desktop.store.crypto import PassphraseError
from harp_desktop.ui import annotate_menu, colors, envelope, findings_menu, passphrase, workbench
from harp_desktop.ui import recording_data as rd
from harp_desktop.ui.about_models import AboutModelsDialog
from harp_desktop.ui.ask_panel import AskPanel
from harp_desktop.ui.controllers.asking import MAX_CUE_S, AskingController
from harp_desktop.ui.controllers.indexing import IndexingController
from harp_desktop.ui.controllers.recording import RecordingController
from harp_desktop.ui.delete_action import DeleteAction
from harp_desktop.ui.export_actions import ExportActions
from harp_desktop.ui.help_dialog import ShortcutsDialog
from harp_desktop.ui.index_progress import IndexProgress
from harp_desktop.ui.index_queue import IndexQueue
from harp_desktop.ui.library_panel import LibraryPanel, LibraryRow
from harp_desktop.ui.library_watch import LibraryWatch
from harp_desktop.ui.player import Player
from harp_desktop.ui.record_panel import RecordPanel
from harp_desktop.ui.settings import Settings, default_store
from harp_desktop.ui.settings_dialog import SettingsDialog
from harp_desktop.ui.speakers_panel import SpeakersPanel
from harp_desktop.ui.timefmt import clock, span_text
from harp_desktop.ui.transcript_view import TranscriptView
from harp_desktop.ui.transport import TransportBar
from harp_desktop.ui.waveform import LaneSpan, WaveformView
from harp_desktop.ui.workers import AskTask, CallTask, EnvelopeTask, TaskRunner, preload

APP_TITLE = "HARP Desktop"
AUDIO_SUFFIXES = {".wav", ".flac", ".ogg", ".oga", ".mp3"}
AUDIO_FILTER = "Recordings (*.wav *.flac *.ogg *.mp3);;All files (*)"
ICON = REPO_ROOT / "resources" / "icons" / "harp-desktop.svg"
__all__ = ["MainWindow", "MAX_CUE_S", "expand_paths"]


def expand_paths(paths: list[str]) -> list[str]:
    """Files as given; folders replaced by the audio files inside them (recursively, sorted)."""
    out: list[str] = []
    for p in map(Path, paths):
        if os.path.isdir(p):  # unlike Path.is_dir (3.11), False for a name too long instead of raising
            out += [str(f) for f in sorted(p.rglob("*")) if f.is_file() and f.suffix.lower() in AUDIO_SUFFIXES]
        else:
            out.append(str(p))
    return list(dict.fromkeys(map(_resolved, out)))


def _resolved(path: str) -> str:
    try:
        return str(Path(path).expanduser().resolve())
    except (OSError, RuntimeError):  # a symlink loop or a name too long: open_path says what is wrong
        return str(path)


class MainWindow(QMainWindow):
    recordingShown = Signal(str)  # the recording's path
    indexFinished = Signal(str)  # path
    indexStopped = Signal(str, str)  # path, "cancelled" or the error
    answerReady = Signal(dict)

    def __init__(self, library_dir: str | None = None, store: QSettings | None = None,
                 asr_profile: str | None = None) -> None:
        super().__init__()
        # A worker running Python code keeps the GIL for up to the switch interval each
        # time the GUI thread wants it back (5 ms by default, many times per repaint).
        sys.setswitchinterval(0.001)
        preload()
        self.store = store or default_store()
        self.settings = Settings.load(self.store)
        if asr_profile:
            self.settings.asr_profile = asr_profile
        folder = library_dir or self.settings.library_dir()
        if not passphrase.unlock_with_dialog(folder):  # an encrypted library: asked before anything opens
            raise PassphraseError(f"the encrypted library {folder} was not unlocked")
        self.lib = Library(folder)
        self.runner = TaskRunner(self)
        self.player = Player(self)
        self.data: rd.RecordingData | None = None
        self.current_path: str | None = None
        self.queue = IndexQueue(self.runner, lambda: self.lib.folder, self.index_options, self)
        self._env_task: EnvelopeTask | None = None
        self._dialogs: list[QWidget] = []
        self._closed = False

        self.setWindowTitle(APP_TITLE)
        if ICON.exists():
            self.setWindowIcon(QIcon(str(ICON)))
        self.setAcceptDrops(True)
        self._build()
        self.indexer = IndexingController(self)
        self.asking = AskingController(self)
        self.recording = RecordingController(self, self.record_panel)
        self._build_actions()
        self._wire()
        self.annotation = annotate_menu.install(self)  # Annotate menu, dock, Evaluate view
        self.exporting = ExportActions(self)  # Export menu + buttons, export history
        self.deleting = DeleteAction(self)  # Recording > Delete from library, and the library list's menu
        passphrase.install(self)  # File > New encrypted library...
        self._restore_layout()
        self._apply_audio_state()
        self.refresh_library()
        self.watch = LibraryWatch(lambda: self.lib.db.data_version(), self)
        self.watch.changed.connect(self._changed_elsewhere)
        self.workbench = workbench.install(self)  # issue 19: spectrogram, tiers, keyboard marking, span import
        self.findings = findings_menu.install(self)  # issue 17: the Findings dock, View > Findings, speaker roles
        QTimer.singleShot(0, self.recording.offer_recovered)  # issue 20: recordings a crash interrupted

    # -- construction ---------------------------------------------------------------------
    def _build(self) -> None:
        self.library = LibraryPanel(self)
        self.speakers = SpeakersPanel(self)
        self.waveform = WaveformView(self)
        self.transport = TransportBar(self)
        self.transcript = TranscriptView(self)
        self.ask_panel = AskPanel(self)
        self.progress = IndexProgress(self)
        self.record_panel = RecordPanel(self)
        self.audio_status = QLabel("", self)
        self.audio_status.setStyleSheet("color: #b71c1c")

        left = QSplitter(Qt.Orientation.Vertical, self)
        left.addWidget(self.library)
        left.addWidget(self.speakers)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 1)
        wave = QWidget(self)
        wl = QVBoxLayout(wave)
        wl.setContentsMargins(0, 0, 6, 0)
        wl.setSpacing(2)
        wl.addWidget(self.record_panel)
        wl.addWidget(self.waveform, 1)
        wl.addWidget(self.transport)
        bottom = QSplitter(Qt.Orientation.Horizontal, self)
        bottom.addWidget(self.transcript)
        bottom.addWidget(self.ask_panel)
        bottom.setStretchFactor(0, 1)
        bottom.setStretchFactor(1, 1)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(wave)
        right.addWidget(bottom)
        right.setStretchFactor(0, 2)
        right.setStretchFactor(1, 3)
        main = QSplitter(Qt.Orientation.Horizontal, self)
        main.addWidget(left)
        main.addWidget(right)
        main.setStretchFactor(0, 0)
        main.setStretchFactor(1, 1)
        main.setSizes([300, 1100])
        right.setSizes([260, 500])
        self.splitters = {"main": main, "left": left, "right": right, "bottom": bottom}
        self.setCentralWidget(main)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.audio_status)
        self.resize(1440, 900)

        self.ask_panel.set_options(self.settings.retrieval, self.settings.evidence, self.settings.fusion,
                                   self.settings.no_llm)
        self.ask_panel.set_ready(False)
        self.transcript.follow.setChecked(self.settings.follow)
        # Tab order: library -> speakers -> transport -> transcript -> ask panel.
        chain = [self.library.tree, self.library.add, self.library.add_folder, self.speakers.list,
                 self.transport.back, self.transport.play, self.transport.forward, self.transport.play_sel,
                 self.transport.speed, self.transcript.view, self.transcript.follow, self.ask_panel.question]
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)

    def _action(self, menu, text: str, slot, keys: str | list[str] | QKeySequence.StandardKey | None = None,
                tip: str = "", checkable: bool = False) -> QAction:
        act = QAction(text, self)
        if isinstance(keys, list):
            act.setShortcuts([QKeySequence(k) for k in keys])
        elif keys is not None:
            act.setShortcut(QKeySequence(keys))
        act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if tip:
            act.setToolTip(tip)
            act.setStatusTip(tip)
        act.setCheckable(checkable)
        act.triggered.connect(slot)
        menu.addAction(act)
        self.all_actions.append(act)
        return act

    def _build_actions(self) -> None:
        self.all_actions: list[QAction] = []
        bar = self.menuBar()
        m = bar.addMenu("&File")
        self.act_record = self._action(m, "&New recording\u2026", self.new_recording, "Ctrl+R",
                                       "Record from a microphone; the transcript grows while you speak")
        self._action(m, "&Add recordings\u2026", self.choose_files, "Ctrl+O", "Add audio files to the library")
        self._action(m, "Add &folder\u2026", self.choose_folder, "Ctrl+Shift+O", "Add every recording in a folder")
        m.addSeparator()
        self._action(m, "&Settings\u2026", self.open_settings, "Ctrl+,", "ASR profile, language model, library")
        m.addSeparator()
        self._action(m, "&Quit", self.close, "Ctrl+Q")
        m = bar.addMenu("&Playback")
        self.act_play = self._action(m, "&Play / pause", self.toggle_play, "Space")
        self.act_back = self._action(m, "&Back 5 s", lambda: self.player.skip(-5.0), "Left")
        self.act_fwd = self._action(m, "&Forward 5 s", lambda: self.player.skip(5.0), "Right")
        self.act_sel = self._action(m, "Play &selection", self.play_selection, "Shift+Space")
        # < and > (not [ and ]: those mark a span's start and end, as in Audacity; ui/span_keys.py)
        self.act_slower = self._action(m, "Slo&wer", lambda: self.transport.step_speed(-1), "<")
        self.act_faster = self._action(m, "Fas&ter", lambda: self.transport.step_speed(1), ">")
        self.playback_actions = [self.act_play, self.act_back, self.act_fwd, self.act_sel, self.act_slower,
                                 self.act_faster]
        m = bar.addMenu("&View")
        self._action(m, "Zoom &in", lambda: self.waveform.zoom(0.5), ["Ctrl++", "Ctrl+="])
        self._action(m, "Zoom &out", lambda: self.waveform.zoom(2.0), "Ctrl+-")
        self._action(m, "&Whole recording", self.waveform.fit, "Ctrl+0")
        self.act_follow = self._action(m, "&Follow playback", lambda on: self.transcript.follow.setChecked(on), "F",
                                       checkable=True)
        self.act_follow.setChecked(self.transcript.follow.isChecked())
        self._action(m, "&Ask a question", self.focus_question, "Ctrl+L")
        m = bar.addMenu("&Recording")
        self._action(m, "&Index again with the current settings", self.reindex_current, None,
                     "Re-run the stages whose models or settings changed")
        self.act_cancel = self._action(m, "&Cancel indexing or asking", self.cancel_work, "Esc")
        m = bar.addMenu("&Help")
        self._action(m, "&Keyboard shortcuts", self.show_shortcuts, "F1")
        self._action(m, "About &models\u2026", self.show_models)
        self._action(m, "&About HARP Desktop", self.show_about)

    def _wire(self) -> None:
        lib, tr, wf, ask = self.library, self.transport, self.waveform, self.ask_panel
        lib.openRequested.connect(self.open_path)
        lib.addFilesRequested.connect(self.choose_files)
        lib.addFolderRequested.connect(self.choose_folder)
        lib.reindexRequested.connect(lambda p: self.enqueue_index(p, show=True))
        self.speakers.renameRequested.connect(self.rename_speaker)
        self.player.positionChanged.connect(self._on_position)
        self.player.playingChanged.connect(tr.set_playing)
        self.player.error.connect(lambda msg: self.statusBar().showMessage(msg, 8000))
        tr.playToggled.connect(self.player.toggle)
        tr.skipRequested.connect(self.player.skip)
        tr.playSelectionRequested.connect(self.play_selection)
        tr.speedChanged.connect(self.player.set_speed)
        tr.zoomRequested.connect(wf.zoom)
        tr.fitRequested.connect(wf.fit)
        wf.seekRequested.connect(self.seek)
        wf.selectionChanged.connect(self._on_selection)
        self.transcript.seekRequested.connect(self.seek)
        self.transcript.followChanged.connect(lambda on: self.act_follow.setChecked(on))
        ask.playSpanRequested.connect(self.play_span)
        ask.seekRequested.connect(self.seek)

    def _apply_audio_state(self) -> None:
        ok = self.player.available
        self.transport.set_playback_enabled(ok, self.player.reason)
        for act in self.playback_actions:
            act.setEnabled(ok)
        if ok:
            self.audio_status.setText("")
        else:
            self.audio_status.setText(f"Playback disabled: {self.player.reason}")
            self.audio_status.setToolTip("Install PortAudio / connect an output device and restart to listen. "
                                         "Seeking, the transcript and asking still work.")

    # -- the library -----------------------------------------------------------------------
    def refresh_library(self) -> None:
        if self._closed:  # the queue reports a cancelled job after close: the library is shut
            return
        rows, seen = [], set()
        for s in rd.summaries(self.lib):
            status = self.queue.status.get(s.path) or ("indexed" if s.complete else f"partial {s.done}/{s.total}")
            tip = "all stages done" if s.complete else "unfinished: opening it resumes indexing"
            rows.append(LibraryRow(s.path, s.name, s.duration_s, status, tip))
            seen.add(s.path)
        for path, status in self.queue.status.items():
            if path not in seen:
                rows.append(LibraryRow(path, Path(path).name, None, status))
        self.library.set_rows(rows, self.current_path)

    def _changed_elsewhere(self) -> None:
        """Another program (or one of our workers) committed: list what is there now, follow a
        recording another program finishes indexing, and say so if it deleted the one shown."""
        if self._closed:
            return
        self.refresh_library()
        if not self.indexing():  # our own indexing reports through the queue
            self._reload_current(unless_complete=True)

    def choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add recordings", "", AUDIO_FILTER)
        if paths:
            self.add_paths(paths)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder of recordings")
        if folder:
            self.add_paths([folder])

    def add_paths(self, paths: list[str]) -> None:
        files = expand_paths(paths)
        if not files:
            self.statusBar().showMessage(f"No recordings found (supported: {', '.join(SUPPORTED)})", 8000)
            return
        for i, f in enumerate(files):
            if i == 0:
                self.open_path(f)
            else:
                self.enqueue_index(f)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt API)
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt API)
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.add_paths(paths)

    # -- opening ---------------------------------------------------------------------------
    def open_path(self, path: str) -> None:
        """Show a recording; index it (or resume an unfinished index) in the background."""
        rec = rd.find(self.lib, path)
        p = Path(path).expanduser()
        if rec is None:
            try:  # the CLI's checks, here and now: a broken file never reaches the indexing queue
                self.lib.check_source(p)
                resolved = str(p.resolve())
            except (AudioError, OSError, RuntimeError) as exc:  # RuntimeError: resolve() on a symlink loop
                self.statusBar().showMessage(user_message(exc), 15000)
                return
        else:
            resolved = rec["path"]
        if rec is not None:
            self.show_recording(rec["sha256"])
            if self.data and not self.data.complete:
                if Path(self.data.path).exists():
                    self.enqueue_index(self.data.path)
                else:
                    self.statusBar().showMessage(f"Indexing is unfinished but {self.data.path} is gone; "
                                                 "add the file again to resume.", 10000)
        else:
            self._show_pending(resolved)
            self.enqueue_index(resolved)

    def _show_pending(self, path: str) -> None:
        """A file not decoded yet: its name, empty views, and 'indexing' everywhere."""
        self.player.set_audio(None)
        self.data, self.current_path = None, path
        self.indexer.shown_early = False
        self.setWindowTitle(f"{Path(path).name} \u2014 {APP_TITLE}")
        self.waveform.clear()
        self.transcript.set_recording(None, "indexing\u2026")
        self.speakers.set_speakers([])
        self.ask_panel.clear()
        self.ask_panel.set_ready(False, "Indexing\u2026 you can ask once the transcript is ready")

    def show_recording(self, ref: str, keep_view: bool = False) -> None:
        data = rd.load(self.lib, ref)
        same = self.data is not None and self.data.id == data.id
        self.data, self.current_path = data, data.path
        self.setWindowTitle(f"{data.name} \u2014 {APP_TITLE}")
        self.transcript.set_recording(data)
        self.speakers.set_speakers(data.speakers)
        ready = bool(data.lines)
        why = "" if ready else ("No speech in this recording" if data.complete else "Indexing\u2026")
        self.ask_panel.set_ready(ready, why)
        fresh = not (same and keep_view)
        if fresh:
            self.player.set_audio(None)
            self.waveform.clear()
        self.waveform.set_lanes(self._lanes(data))
        if fresh:
            self.ask_panel.clear()
            self.ask_panel.set_history(self.lib.db.answers(data.id))
            self.ask_panel.clear_cues()  # issue 16: the speaker and emotion clips too
            self.load_envelope(data)
        self.transcript.set_position(self.player.position(), scroll=False)
        self.refresh_library()
        if data.note:
            self.statusBar().showMessage(f"Note: {data.note}", 10000)
        self.recordingShown.emit(data.path)

    def _lanes(self, data: rd.RecordingData) -> list[LaneSpan]:
        spans = []
        for ln in data.lines:
            sp = data.speaker(ln.speaker)
            colour = colors.speaker_color(sp.index if sp else None)
            spans.append(LaneSpan("speaker", ln.start_s, ln.end_s, colour, data.speaker_name(ln.speaker)))
        for t in data.tags:
            lane = "emotion" if t.kind == "emotion" else "event"
            spans.append(LaneSpan(lane, t.start_s, t.end_s, colors.tag_color(t.label, t.kind), t.tooltip))
        return spans

    def load_envelope(self, data: rd.RecordingData) -> None:
        cache = data.audio_cache
        if not cache.exists():
            return
        audio = envelope.open_cache(cache)
        env = envelope.load(envelope.envelope_path(cache), audio)
        if env is not None:
            self._set_envelope(env)
            return
        if self._env_task is not None:
            self._env_task.cancel()
        task = EnvelopeTask(cache)
        task.signals.finished.connect(self._envelope_ready)
        self._env_task = task
        self.runner.start(task)
        self.statusBar().showMessage("Drawing the waveform (once per recording)\u2026", 3000)

    def _envelope_ready(self, env: envelope.Envelope) -> None:
        task = self._env_task
        if task is None or self.sender() is not task.signals:
            return
        self._env_task = None
        if self.data is not None and self.data.audio_cache == task.cache_file:
            self._set_envelope(env)

    def _set_envelope(self, env: envelope.Envelope) -> None:
        pos = self.player.position()
        self.waveform.set_envelope(env)
        self.player.set_audio(env.audio)
        self.player.seek(min(pos, env.duration_s))

    # -- indexing, asking, recording: the controllers' jobs (these names are what menus, other
    # modules and tests call) -------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    def index_options(self) -> IndexOptions:
        return self.indexer.options()

    def indexing(self) -> bool:
        return self.indexer.busy()

    def enqueue_index(self, path: str, show: bool = False) -> None:
        self.indexer.enqueue(path, show)

    def cancel_indexing(self) -> None:
        self.indexer.cancel()

    def reindex_current(self) -> None:
        self.indexer.reindex_current()

    def _index_progress(self, path: str, p: Progress) -> None:
        self.indexer.on_progress(path, p)

    def _index_failed(self, path: str, message: str) -> None:
        self.indexer.on_failed(path, message)

    def _index_cancelled(self, path: str) -> None:
        self.indexer.on_cancelled(path)

    def cancel_work(self) -> None:
        if self.asking.task is not None:
            self.asking.cancel()
        elif self.indexing():
            self.cancel_indexing()

    def focus_question(self) -> None:
        self.asking.focus_question()

    def ask(self, req: dict) -> None:
        self.asking.ask(req)

    def cancel_ask(self) -> None:
        self.asking.cancel()

    def cue_from_selection(self, slot: str = "example") -> None:
        self.asking.cue_from_selection(slot)

    @property
    def _ask_task(self) -> AskTask | None:
        return self.asking.task

    @_ask_task.setter
    def _ask_task(self, task: AskTask | None) -> None:
        self.asking.task = task

    @property
    def _cue_dir(self):
        return self.asking.cue_dir

    def new_recording(self) -> None:
        self.recording.new_recording()

    # -- playback ----------------------------------------------------------------------------
    def seek(self, t: float) -> None:
        self.player.seek(t)

    def toggle_play(self) -> None:
        focus = QApplication.focusWidget()
        if isinstance(focus, QAbstractButton) and focus.window() is self and focus.parent() is not self.transport:
            focus.animateClick()  # Space on a focused button or checkbox still presses it
            return
        self.player.toggle()

    def play_span(self, start_s: float, end_s: float) -> None:
        self.waveform.show_span(start_s, max(end_s, start_s + 1.0))
        if end_s - start_s < 0.3:
            self.player.seek(start_s)
            self.player.play()
        else:
            self.player.play_span(start_s, end_s)

    def play_selection(self) -> None:
        sel = self.waveform.selection()
        if sel:
            self.player.play_span(*sel)

    def _on_position(self, t: float) -> None:
        self.transport.set_time(t, self.player.duration or (self.data.duration_s if self.data else 0.0))
        self.waveform.set_position(t)
        self.transcript.set_position(t)
        if self.player.playing and self.transcript.follow.isChecked():
            self.waveform.ensure_visible(t)

    def _on_selection(self, sel: tuple[float, float] | None) -> None:
        self.transport.set_selection_available(sel is not None)
        self.ask_panel.set_selection_available(sel is not None)
        if sel:
            self.statusBar().showMessage(f"Selected {span_text(*sel)} ({sel[1] - sel[0]:.1f} s): Shift+Space plays "
                                         "it; \u201cUse selection\u201d makes it the example for a question", 6000)

    # -- speakers ----------------------------------------------------------------------------
    def rename_speaker(self, label: str, name: str) -> None:
        if self.data is None:
            return
        try:
            self.lib.rename_speaker(self.data.sha256, label, name)
        except (LookupError, OSError, *dbapi.Error) as exc:  # e.g. a read-only or busy library: one line
            self.statusBar().showMessage(user_message(exc), 10000)
            return
        self.statusBar().showMessage(f"{label} is now \u201c{name or label}\u201d", 5000)
        QTimer.singleShot(0, self._reload_current)  # not from inside the list's own itemChanged

    def _reload_current(self, unless_complete: bool = False) -> None:
        """Show the open recording's rows as they are now; another program may have deleted it."""
        if self.data is None:
            return
        if rd.find(self.lib, self.data.sha256) is None:
            self.statusBar().showMessage(f"{self.data.name} was deleted from the library by another program", 15000)
            self.clear_recording()
            self.refresh_library()  # the list says so at once, not at the next poll
        elif not (unless_complete and self.data.complete):
            self.show_recording(self.data.sha256, keep_view=True)

    # -- settings, help ----------------------------------------------------------------------
    def open_settings(self) -> None:
        dlg = SettingsDialog(self.settings, self)
        if not dlg.exec():
            return
        old = self.settings.library_dir()
        dlg.apply_to(self.settings)
        self.settings.save(self.store)
        if self.settings.library_dir() != old:
            self.switch_library(self.settings.library_dir())

    def switch_library(self, folder: str) -> None:
        if not passphrase.unlock_with_dialog(folder, self):
            self.statusBar().showMessage(f"The encrypted library {folder} was not unlocked; still using "
                                         f"{self.lib.folder}", 8000)
            return
        self.cancel_indexing()
        self.cancel_ask()
        self.player.set_audio(None)
        self.queue.forget()  # before close(): forgetting refreshes the library list from the old library
        self.lib.close()
        self.lib = Library(folder)
        self.clear_recording()
        self.refresh_library()
        self.watch.reset()
        self.statusBar().showMessage(f"Library: {self.lib.folder}", 8000)

    def clear_recording(self) -> None:
        """No recording open: empty views, no audio, nothing to ask about."""
        self.player.set_audio(None)
        self.data, self.current_path = None, None
        self.setWindowTitle(APP_TITLE)
        self.waveform.clear()
        self.transcript.set_recording(None)
        self.speakers.set_speakers([])
        self.ask_panel.clear()
        self.ask_panel.set_ready(False)

    def show_shortcuts(self) -> None:
        self._keep(ShortcutsDialog(self.all_actions, self)).show()

    def show_models(self) -> None:
        from harp_desktop import weights

        dlg = self._keep(AboutModelsDialog(self))
        task = CallTask(weights.status, label="Checking models")
        task.signals.finished.connect(dlg.show_status)
        task.signals.failed.connect(dlg.show_error)
        self.runner.start(task)
        dlg.show()

    def show_about(self) -> None:
        QMessageBox.about(self, f"About {APP_TITLE}",
                          f"<b>{APP_TITLE}</b> 0.1.0<br>Search long recordings offline: everything runs on this "
                          f"device.<br><br>Library: {self.lib.folder}<br>Help \u25b8 Keyboard shortcuts (F1) lists "
                          "the keys; Help \u25b8 About models lists the weights, licences and checksums.")

    def _keep(self, dlg: QWidget) -> QWidget:
        self._dialogs = [d for d in self._dialogs if d.isVisible()] + [dlg]
        return dlg

    # -- layout persistence, shutdown -----------------------------------------------------------
    def _restore_layout(self) -> None:
        geo = self.store.value("window/geometry")
        if geo is not None:
            self.restoreGeometry(geo)
        for name, sp in self.splitters.items():
            state = self.store.value(f"window/{name}")
            if state is not None:
                sp.restoreState(state)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt API)
        if self._closed:
            super().closeEvent(event)
            return
        self._closed = True
        self.recording.shutdown()  # recording: the audio so far is kept, offered at the next start
        self.player.pause()
        self.settings.follow = self.transcript.follow.isChecked()
        self.asking.remember_options()
        self.settings.save(self.store)
        self.store.setValue("window/geometry", self.saveGeometry())
        for name, sp in self.splitters.items():
            self.store.setValue(f"window/{name}", sp.saveState())
        self.store.sync()
        for d in self._dialogs:
            d.close()
        self.watch.timer.stop()
        self.runner.shutdown(2000)  # then indexing processes are killed: every stage commits atomically
        self.lib.close()
        self.asking.cue_dir.cleanup()
        super().closeEvent(event)

    def status_text(self) -> str:
        """What the status bar says now (for tests and the screenshot script)."""
        return " | ".join(t for t in (self.statusBar().currentMessage(), self.audio_status.text()) if t)

    def position_text(self) -> str:
        return clock(self.player.position(), tenths=True)
