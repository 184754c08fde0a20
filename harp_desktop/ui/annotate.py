"""Annotation mode: questions of the open recording and their ground-truth evidence spans.

Drag on the waveform (with "Mark spans by dragging" on) or select transcript lines to
mark a span for the current question; drag a span's edges to resize it, edit its label
in the table, Delete removes it; every edit goes through the headless API inside a
QUndoStack (Ctrl+Z / Ctrl+Shift+Z). The annotator's name comes from the settings and
each span records who marked it and when.
"""

from __future__ import annotations

import getpass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.errors import user_message
from harp_desktop.evaluate.queries import ANSWER_KINDS
from harp_desktop.store import dbapi
from harp_desktop.ui import annotate_undo as cmd
from harp_desktop.ui.span_overlay import SpanOverlay
from harp_desktop.ui.timefmt import clock

QUERY_TYPES = ("reported_symptom", "exhibited_symptom", "emotion_state", "emotion_locate", "speaker", "time_window",
               "negative", "count")


class AnnotationPanel(QWidget):
    seekRequested = Signal(float)
    message = Signal(str)

    def __init__(self, get_lib, settings, waveform, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lib, self.settings = get_lib, settings
        self.ref: str | None = None
        self.undo_stack = QUndoStack(self)
        self.overlay = SpanOverlay(waveform, self._span_moved)
        self.overlay_visible = False  # spans drawn on the waveform only in annotation mode / drill-down
        self.closing = lambda: False  # the window sets this: focus-out edits arrive after the library closed
        self._loading = False

        self.question_box = QComboBox(self)
        self.question_box.setAccessibleName("Question")
        self.new_btn, self.del_q_btn = QPushButton("New", self), QPushButton("Delete", self)
        self.from_ask_btn = QPushButton("From Ask", self)
        self.from_ask_btn.setToolTip("A new question with the text of the question asked last")
        self._asked: str | None = None
        self.query = QLineEdit(self)
        self.query_type = QComboBox(self)
        self.query_type.setEditable(True)
        self.query_type.addItems(["", *QUERY_TYPES])
        self.answer_kind = QComboBox(self)
        self.answer_kind.addItems(["", *ANSWER_KINDS])
        self.answer = QLineEdit(self)
        self.annotator = QLineEdit(getattr(settings, "annotator", "") or getpass.getuser(), self)
        self.drag_mode = QCheckBox("Mark spans by dragging on the waveform", self)
        self.mark_sel_btn = QPushButton("Mark selection", self)
        self.mark_lines_btn = QPushButton("Mark transcript lines", self)
        self.del_span_btn = QPushButton("Delete span", self)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels(["Start", "End", "Label", "Annotator"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.agreement = QLabel("", self)

        top = QHBoxLayout()
        top.addWidget(self.question_box, 1)
        top.addWidget(self.new_btn)
        top.addWidget(self.from_ask_btn)
        top.addWidget(self.del_q_btn)
        form = QFormLayout()
        form.addRow("Question", self.query)
        form.addRow("Type", self.query_type)
        form.addRow("Answer kind", self.answer_kind)
        form.addRow("Expected answer", self.answer)
        form.addRow("Annotator", self.annotator)
        marks = QHBoxLayout()
        for b in (self.mark_sel_btn, self.mark_lines_btn, self.del_span_btn):
            marks.addWidget(b)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(form)
        layout.addWidget(self.drag_mode)
        layout.addLayout(marks)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.agreement)

        self.question_box.currentIndexChanged.connect(lambda _: self._show_question())
        self.new_btn.clicked.connect(lambda: self.new_question())
        self.from_ask_btn.clicked.connect(lambda: self._asked and self.new_question(self._asked))
        self.del_q_btn.clicked.connect(self.delete_question)
        self.query.editingFinished.connect(lambda: self._edit("query", self.query.text()))
        # An editable combo: saved when a type is picked or typing ends, not on every keystroke.
        self.query_type.activated.connect(lambda _: self._edit("query_type", self.query_type.currentText() or None))
        self.query_type.lineEdit().editingFinished.connect(
            lambda: self._edit("query_type", self.query_type.currentText().strip() or None))
        self.answer_kind.currentTextChanged.connect(lambda t: self._edit("answer_kind", t or None))
        self.answer.editingFinished.connect(lambda: self._edit("answer", self.answer.text() or None))
        self.annotator.editingFinished.connect(self._annotator_changed)
        self.del_span_btn.clicked.connect(self.delete_selected_span)
        self.table.itemChanged.connect(self._label_edited)
        self.table.cellDoubleClicked.connect(lambda r, _c: self.seekRequested.emit(self._rows[r]["start_s"]))
        QShortcut(QKeySequence.StandardKey.Delete, self.table, self.delete_selected_span,
                  context=Qt.ShortcutContext.WidgetShortcut)  # only while the table has focus
        self._rows: list[dict] = []
        self.set_recording(None)

    # -- state -------------------------------------------------------------------------
    def who(self) -> str:
        return self.annotator.text().strip()

    def question_id(self) -> int | None:
        return self.question_box.currentData()

    def set_overlay_visible(self, on: bool) -> None:
        self.overlay_visible = on
        if on:
            self._show_question()
        else:
            self.overlay.clear()  # no library access: this also runs while the window closes

    def select_query(self, query_id: str) -> bool:
        i = next((i for i in range(self.question_box.count())
                  if self.question_box.itemText(i).startswith(f"{query_id}: ")), -1)
        if i >= 0:
            self.question_box.setCurrentIndex(i)
        return i >= 0

    def set_asked(self, question: str | None) -> None:
        """The question shown in the Ask panel: "From Ask" turns it into a question to annotate."""
        self._asked = question
        self.from_ask_btn.setEnabled(self.ref is not None and bool(question))

    def set_recording(self, ref: str | None) -> None:
        """Show the questions of a recording (sha256), or nothing."""
        if ref != self.ref:
            self.undo_stack.clear()  # commands refer to this recording's rows
        self.ref = ref
        self.refresh()

    def refresh(self, select: int | None = None) -> None:
        if self.closing():
            return
        keep = select if select is not None else self.question_id()
        self._loading = True
        self.question_box.clear()
        questions = self.lib().questions(self.ref) if self.ref else []
        for q in questions:
            self.question_box.addItem(f"{q['query_id']}: {q['query'][:60]}", q["id"])
        i = self.question_box.findData(keep) if keep is not None else -1
        self.question_box.setCurrentIndex(i if i >= 0 else (0 if questions else -1))
        self._loading = False
        enabled = self.ref is not None
        self.from_ask_btn.setEnabled(enabled and bool(self._asked))
        for w in (self.new_btn, self.drag_mode, self.mark_sel_btn, self.mark_lines_btn):
            w.setEnabled(enabled)
        self._show_question()

    def _show_question(self) -> None:
        if self._loading or self.closing():
            return
        qid = self.question_id()
        q = self.lib().db.question(qid) if qid is not None else None
        self._loading = True
        for w in (self.query, self.query_type, self.answer_kind, self.answer, self.del_q_btn, self.table,
                  self.del_span_btn):
            w.setEnabled(q is not None)
        self.query.setText(q["query"] if q else "")
        self.query_type.setCurrentText((q or {}).get("query_type") or "")
        self.answer_kind.setCurrentText((q or {}).get("answer_kind") or "")
        self.answer.setText((q or {}).get("answer") or "")
        self._rows = self.lib().spans(qid) if q else []
        self.table.setRowCount(len(self._rows))
        for r, s in enumerate(self._rows):
            for c, text in enumerate([clock(s["start_s"], tenths=True), clock(s["end_s"], tenths=True),
                                      s["label"] or "", s["annotator"]]):
                item = QTableWidgetItem(text)
                if c != 2:
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                item.setToolTip(f"marked by {s['annotator']} at {s['updated_at']}")
                self.table.setItem(r, c, item)
        self._loading = False
        if self.overlay_visible:
            self.overlay.set_spans(self._rows, self.who())
        else:
            self.overlay.clear()
        names = {s["annotator"] for s in self._rows}
        if q is not None and len(names) >= 2:
            a = self.lib().agreement(qid)
            self.agreement.setText(f"Agreement {a['annotator_a']} vs {a['annotator_b']}: span F1 "
                                   f"{a['span_f1']:.2f}, time F1 {a['time_f1']:.2f}")
        else:
            self.agreement.setText("")

    # -- edits (each one undoable) -------------------------------------------------------
    def _push(self, make) -> bool:
        try:
            self.undo_stack.push(make())
        except (ValueError, LookupError, OSError, *dbapi.Error) as exc:  # a bad span, or a read-only library
            self.message.emit(user_message(exc))
            self._show_question()
            return False
        return True

    def _after(self) -> None:
        self.refresh()

    def _edit(self, field: str, value) -> None:
        qid = self.question_id()
        if self._loading or self.closing() or qid is None or self.lib().db.question(qid)[field] == value:
            return
        self._push(lambda: cmd.update_question(self.lib, qid, {field: value}, self._after))

    def new_question(self, query: str = "New question") -> int | None:
        if self.ref is None:
            return None
        made: list[int] = []

        def make():
            c, qid = cmd.add_question(self.lib, self.ref, query, {}, self._after)
            made.append(qid)
            return c

        if self._push(make):
            self.refresh(select=made[0])
            self.query.setFocus()
            self.query.selectAll()
            return made[0]
        return None

    def delete_question(self) -> None:
        qid = self.question_id()
        if qid is not None:
            self._push(lambda: cmd.delete_question(self.lib, qid, self._after))

    def mark(self, start_s: float, end_s: float, label: str | None = None) -> bool:
        """Mark a span for the current question (undoable)."""
        qid = self.question_id()
        if qid is None:
            self.message.emit("Choose or create a question first")
            return False
        if not self.who():
            self.message.emit("Enter the annotator's name first")
            return False
        return self._push(lambda: cmd.add_span(self.lib, qid, start_s, end_s, self.who(), label, self._after))

    def on_selection(self, sel: tuple[float, float] | None) -> bool:
        """A finished waveform drag: becomes a span while drag mode is on."""
        return bool(sel and self.drag_mode.isChecked() and self.isVisible() and self.mark(*sel))

    def delete_selected_span(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        if rows:
            sid = self._rows[rows[0]]["id"]
            self._push(lambda: cmd.delete_span(self.lib, sid, self._after))

    def _span_moved(self, span_id: int, a: float, b: float) -> None:
        row = next((s for s in self._rows if s["id"] == span_id), None)
        if row is None or (abs(row["start_s"] - a) < 1e-3 and abs(row["end_s"] - b) < 1e-3):
            return
        self._push(lambda: cmd.update_span(self.lib, span_id, {"start_s": max(0.0, a), "end_s": b}, self._after,
                                           "resize span"))

    def _label_edited(self, item: QTableWidgetItem) -> None:
        if self._loading or item.column() != 2:
            return
        row = self._rows[item.row()]
        label = item.text().strip() or None
        if label != row["label"]:
            self._push(lambda: cmd.update_span(self.lib, row["id"], {"label": label}, self._after, "label span"))

    def _annotator_changed(self) -> None:
        if hasattr(self.settings, "annotator"):
            self.settings.annotator = self.who()
        self._show_question()
