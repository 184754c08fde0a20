"""Export menu, buttons and the export audit dialog. Files are written by the headless API
(Library.report / Library.export) in a worker thread; every export lands in the audit trail."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.api import Library
from harp_desktop.ui.workers import CallTask

REPORT_FILTER = "PDF report (*.pdf);;Markdown report (*.md)"
TRANSCRIPT_FILTER = ("Text (*.txt);;SubRip subtitles (*.srt);;WebVTT subtitles (*.vtt);;"
                     "Whole index as JSON (*.json);;PDF transcript (*.pdf)")


def run_export(folder: Path, what: str, ref: str, path: str, answers: list[dict] | None = None) -> dict:
    """Worker-thread body: its own Library (SQLite connection), closed afterwards."""
    lib = Library(folder)
    try:
        if what == "transcript":
            return lib.export(ref, path)
        return lib.report(ref, path, answers=answers, all_answers=what == "all")
    finally:
        lib.close()


def with_suffix(path: str, chosen_filter: str) -> str:
    """A name typed without a suffix gets the one of the filter picked in the dialog."""
    if Path(path).suffix or "(*." not in chosen_filter:
        return path
    return path + chosen_filter.split("(*", 1)[1].split(")", 1)[0]


class ExportActions(QObject):
    """An Export menu (before Help) and a button row under the answer, over the headless API."""

    finished = Signal(dict)  # the audit row
    failed = Signal(str)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window
        self.task: CallTask | None = None
        menu = QMenu("E&xport", window)
        help_menu = next((a for a in window.menuBar().actions() if a.text() == "&Help"), None)
        window.menuBar().insertMenu(help_menu, menu)  # None appends
        self.act_answer = window._action(menu, "Current &answer as a report\u2026", lambda: self.export_answer(),
                                         "Ctrl+E", "A PDF or Markdown rationale report of the answer shown")
        self.act_all = window._action(menu, "A&ll answers as a report\u2026", lambda: self.export_all(), "Ctrl+Shift+E",
                                      "A report of every stored answer for this recording")
        self.act_transcript = window._action(menu, "&Transcript\u2026", lambda: self.export_transcript(), None,
                                             "TXT, SRT or VTT with speaker names, the whole index as JSON, or a PDF")
        menu.addSeparator()
        self.act_audit = window._action(menu, "Export &history\u2026", self.show_audit, None,
                                        "Every export from this library: when, where, checksum, file status")
        bar = QWidget(window.ask_panel)
        row = QHBoxLayout(bar)
        row.setContentsMargins(0, 2, 0, 0)
        row.addWidget(QLabel("Export:", bar))
        self.buttons = {}
        for key, text, act in (("answer", "Answer report", self.act_answer), ("all", "All answers", self.act_all),
                               ("transcript", "Transcript", self.act_transcript)):
            b = QPushButton(text, bar)
            b.setToolTip(act.toolTip())
            b.clicked.connect(act.trigger)
            row.addWidget(b)
            self.buttons[key] = b
        row.addStretch(1)
        window.ask_panel.layout().addWidget(bar)
        window.recordingShown.connect(lambda *_: self.update_state())
        window.ask_panel.answerShown.connect(lambda *_: self.update_state())
        self.update_state()

    def update_state(self) -> None:
        has_rec = self.w.data is not None and self.task is None
        has_answer = has_rec and self.w.ask_panel.reportable() is not None
        for act, btn, on in ((self.act_answer, "answer", has_answer), (self.act_all, "all", has_rec),
                             (self.act_transcript, "transcript", has_rec)):
            act.setEnabled(on)
            self.buttons[btn].setEnabled(on)

    def _target(self, title: str, suffix: str, filt: str, path: str | None) -> str | None:
        if path:
            return path
        default = str(Path.home() / f"{Path(self.w.data.name).stem}{suffix}")
        chosen, picked = QFileDialog.getSaveFileName(self.w, title, default, filt)
        return with_suffix(chosen, picked) if chosen else None

    def export_answer(self, path: str | None = None) -> None:
        answer = self.w.ask_panel.reportable()
        if self.w.data is None or answer is None:
            return
        target = self._target("Export the answer as a report", "-answer.pdf", REPORT_FILTER, path)
        if target:
            self._start("answer", target, [answer])

    def export_all(self, path: str | None = None) -> None:
        if self.w.data is None:
            return
        target = self._target("Export all answers as a report", "-report.pdf", REPORT_FILTER, path)
        if target:
            self._start("all", target)

    def export_transcript(self, path: str | None = None) -> None:
        if self.w.data is None:
            return
        target = self._target("Export the transcript", ".txt", TRANSCRIPT_FILTER, path)
        if target:
            self._start("transcript", target)

    def _start(self, what: str, path: str, answers: list[dict] | None = None) -> None:
        if self.task is not None:
            return
        self.task = CallTask(run_export, self.w.lib.folder, what, self.w.data.sha256, path, answers, label="Export")
        self.task.signals.finished.connect(self._done)
        self.task.signals.failed.connect(self._failed)
        self.w.statusBar().showMessage(f"Exporting to {Path(path).name}\u2026")
        self.update_state()
        self.w.runner.start(self.task)

    def _done(self, row: dict) -> None:
        self.task = None
        self.update_state()
        self.w.statusBar().showMessage(f"Exported {row['kind']} to {row['path']} (sha256 {row['sha256'][:12]})", 10000)
        self.finished.emit(row)

    def _failed(self, message: str) -> None:
        self.task = None
        self.update_state()
        self.w.statusBar().showMessage(f"Export failed: {message}", 15000)
        self.failed.emit(message)

    def show_audit(self) -> None:
        self.w._keep(AuditDialog(lambda: self.w.lib, self.w)).show()


class AuditDialog(QDialog):
    """Every recorded export, newest first, and whether each file is still there unchanged."""

    COLUMNS = ["When (UTC)", "What", "Recording", "File status", "Bytes", "SHA-256", "Path"]

    def __init__(self, library: Callable[[], Library], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export history")
        self.resize(980, 420)
        self.library = library  # the window's current library (it can be switched while this is open)
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.summary = QLabel(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        refresh = buttons.addButton("Refresh", QDialogButtonBox.ButtonRole.ActionRole)
        refresh.clicked.connect(self.refresh)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.summary)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.refresh()

    def refresh(self) -> None:
        lib = self.library()
        rows = lib.exports()
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            cells = [r["created_at"].replace("T", " ").replace("+00:00", ""), r["kind"],
                     r["recording_name"] or "(removed)", r["status"], str(r["bytes"]), r["sha256"][:16] + "\u2026",
                     r["path"]]
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(r["sha256"] if j == 5 else text)
                if j == 3 and text != "ok":
                    item.setForeground(Qt.GlobalColor.red)
                self.table.setItem(i, j, item)
        self.table.resizeColumnsToContents()
        self.summary.setText(f"{len(rows)} export{'s' if len(rows) != 1 else ''} recorded in {lib.folder}"
                             if rows else "No exports yet.")
