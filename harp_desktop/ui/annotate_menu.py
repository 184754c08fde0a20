"""Wires annotation mode and the Evaluate view into the main window: a dock, an
Annotate menu (mode, undo/redo, import/export, evaluate) and the waveform / transcript
hooks. ``install(window)`` is the only entry point."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QFileDialog, QMenu

from harp_desktop.ui.annotate import AnnotationPanel
from harp_desktop.ui.evaluate_view import EvaluateDialog

EXPORT_FILTERS = {"Question set (*.jsonl)": "jsonl", "Audacity labels (*.txt)": "audacity",
                  "Praat TextGrid (*.TextGrid)": "textgrid", "ELAN (*.eaf)": "eaf"}


class AnnotationMode:
    def __init__(self, window) -> None:
        self.w = window
        self.panel = AnnotationPanel(lambda: window.lib, window.settings, window.waveform, window)
        self.dock = QDockWidget("Annotate", window)
        self.dock.setObjectName("annotate")
        self.dock.setWidget(self.panel)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()
        self.evaluate: EvaluateDialog | None = None

        menu = QMenu("&Annotate", window)
        bar = window.menuBar()
        help_menu = next((a for a in bar.actions() if a.text() == "&Help"), None)
        bar.insertMenu(help_menu, menu) if help_menu else bar.addMenu(menu)
        self.act_mode = window._action(menu, "&Annotation mode", self.set_mode, "Ctrl+M",
                                       "Mark ground-truth evidence spans for questions", checkable=True)
        self.dock.visibilityChanged.connect(self.act_mode.setChecked)
        self.dock.visibilityChanged.connect(lambda v: v or self.panel.set_overlay_visible(False))
        for make, keys, text in ((self.panel.undo_stack.createUndoAction, QKeySequence.StandardKey.Undo, "&Undo"),
                                 (self.panel.undo_stack.createRedoAction, QKeySequence.StandardKey.Redo, "&Redo")):
            act = make(window, text)
            act.setShortcut(QKeySequence(keys))
            menu.addAction(act)
            window.all_actions.append(act)
        menu.addSeparator()
        window._action(menu, "&Import questions\u2026", self.import_questions, None, "Import a queries.jsonl file")
        window._action(menu, "E&xport annotations\u2026", self.export_annotations, None,
                       "queries.jsonl, Audacity labels, Praat TextGrid or ELAN EAF")
        window._action(menu, "&Evaluate\u2026", self.open_evaluate, "F9", "Score the answers against the truth")

        p = self.panel
        p.closing = lambda: getattr(window, "_closed", False)
        window.recordingShown.connect(lambda _path: p.set_recording(window.data.sha256 if window.data else None))
        window.waveform.selectionChanged.connect(self._selection)
        window.transcript.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        p.mark_sel_btn.clicked.connect(self.mark_selection)
        p.mark_lines_btn.clicked.connect(self.mark_transcript_lines)
        p.seekRequested.connect(window.seek)
        window.ask_panel.answerShown.connect(lambda ans: p.set_asked(ans.get("question") if ans else None))
        p.message.connect(lambda msg: window.statusBar().showMessage(msg, 8000))

    def set_mode(self, on: bool) -> None:
        self.dock.setVisible(on)
        self.panel.drag_mode.setChecked(on)
        self.panel.set_overlay_visible(on)

    def _selection(self, sel) -> None:
        if self.panel.on_selection(sel):
            self.w.waveform.clear_selection()

    def mark_selection(self) -> None:
        sel = self.w.waveform.selection()
        if sel is None:
            self.w.statusBar().showMessage("Drag on the waveform to select a span first", 6000)
        elif self.panel.mark(*sel):
            self.w.waveform.clear_selection()

    def mark_transcript_lines(self) -> None:
        """Selected transcript lines become spans: one per run of adjacent lines."""
        data = self.w.data
        rows = sorted(i.row() for i in self.w.transcript.view.selectionModel().selectedIndexes())
        if data is None or not rows:
            self.w.statusBar().showMessage("Select transcript lines first (Shift/Ctrl+click)", 6000)
            return
        runs: list[list[int]] = []
        for r in rows:
            if runs and r == runs[-1][-1] + 1:
                runs[-1].append(r)
            else:
                runs.append([r])
        for run in runs:
            self.panel.mark(data.lines[run[0]].start_s, data.lines[run[-1]].end_s)

    def import_questions(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.w, "Import questions", "", "Question sets (*.jsonl);;All files (*)")
        if not path:
            return
        try:
            ids = self.w.lib.import_questions(path)
        except (ValueError, LookupError, OSError) as exc:
            self.w.statusBar().showMessage(f"Import failed: {exc}", 15000)
            return
        self.panel.refresh()
        self.w.statusBar().showMessage(f"Imported {len(ids)} question(s) from {Path(path).name}", 8000)

    def export_annotations(self) -> None:
        if self.w.data is None:
            self.w.statusBar().showMessage("Open a recording first", 6000)
            return
        path, chosen = QFileDialog.getSaveFileName(self.w, "Export annotations", "", ";;".join(EXPORT_FILTERS))
        if path:
            self.export_to(path, EXPORT_FILTERS.get(chosen, "jsonl"))

    def export_to(self, path: str, fmt: str) -> None:
        try:
            out = self.w.lib.export_annotations(self.w.data.sha256, fmt, path)
        except (ValueError, LookupError, OSError) as exc:
            self.w.statusBar().showMessage(f"Export failed: {exc}", 15000)
            return
        self.w.statusBar().showMessage(f"Wrote {out}", 8000)

    def open_evaluate(self) -> EvaluateDialog:
        if self.evaluate is None:
            self.evaluate = EvaluateDialog(self.w)
            self.evaluate.querySelected.connect(self._show_query)
        self.evaluate.show()
        self.evaluate.raise_()
        return self.evaluate

    def _show_query(self, row: dict) -> None:
        """Drill-down on the main waveform: retrieved evidence highlighted, truth spans as the overlay."""
        self.w.waveform.set_evidence([tuple(s) for s in row["evidence"]])
        self.panel.set_overlay_visible(True)
        self.panel.select_query(row["query_id"])
        if row["truth_spans"]:
            a = min(s[0] for s in row["truth_spans"])
            b = max(s[1] for s in row["truth_spans"])
            self.w.waveform.show_span(a, b)


def install(window) -> AnnotationMode:
    return AnnotationMode(window)
