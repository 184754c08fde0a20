"""The Findings panel (issue 17): the open recording's clinical findings grouped by kind, each
with its status in words and colour, who said it and when; click a finding to hear it.

Edits go through the headless API (``Library.edit_finding`` / ``reject_finding``), which
keeps them as annotations over the automatic findings, so a re-index never overwrites
them. A rejected finding stays in the list, struck through. Every edit and rejection is a
step on the panel's own undo stack (Undo / Redo buttons; Ctrl+Z / Ctrl+Shift+Z while the
list has the focus: the window's Ctrl+Z belongs to the Annotate panel). The header corrects each
voice's role (``Library.set_role``); that re-runs the extractor, so it runs on a worker
when the window gives the panel a ``TaskRunner``.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.errors import user_message
from harp_desktop.findings import display as fd
from harp_desktop.findings.model import STATUSES, Finding
from harp_desktop.store import dbapi
from harp_desktop.ui import findings_undo
from harp_desktop.ui.findings_roles import RolesHeader, SpeakerRole
from harp_desktop.ui.speakers_panel import swatch

ID_ROLE = Qt.ItemDataRole.UserRole
COLUMNS = ["Finding", "Status", "Said by", "Time"]
CONCEPT, STATUS, WHO, TIME = range(4)
API_ERRORS = (ValueError, LookupError, OSError, *dbapi.Error)  # a bad value, a vanished row, a read-only library
NO_FINDINGS_YET = ("No findings yet for this recording: Recording \u25b8 Index again runs only the findings stage.")


def _store_role(folder: Path, ref: str, label: str, role: str, annotator: str | None) -> dict[str, str]:
    """Run on a worker thread, with its own Library (SQLite connections stay in their thread)."""
    from harp_desktop.api import Library

    with Library(folder) as lib:
        return lib.set_role(ref, label, role, annotator)


class FindingsPanel(QWidget):
    playSpanRequested = Signal(float, float)
    message = Signal(str)
    rolesChanged = Signal(dict)  # label -> role, after every refresh (the speakers panel shows them)

    def __init__(self, get_lib: Callable, annotator: Callable[[], str] | None = None, runner=None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lib = get_lib
        self.annotator = annotator or getpass.getuser
        self.runner = runner  # None: role corrections run inline (tests)
        self.ref: str | None = None
        self.closing = lambda: False  # the window sets this: no library reads while it closes
        self._by_id: dict[int, Finding] = {}
        self._names: dict[str, str] = {}
        self._indexes: dict[str, int] = {}
        self.roles: dict[str, str] = {}
        self._role_task = None
        self._role_ref: str | None = None
        self._role_text = ""

        self.roles_header = RolesHeader(self)
        self.roles_header.roleChosen.connect(self.set_role)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setAccessibleName("Findings")
        self.tree.setToolTip("Click a finding to play the moment it was said")
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        for col, mode in ((CONCEPT, QHeaderView.ResizeMode.Stretch), (STATUS, QHeaderView.ResizeMode.ResizeToContents),
                          (WHO, QHeaderView.ResizeMode.ResizeToContents),
                          (TIME, QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(col, mode)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)
        self.tree.currentItemChanged.connect(lambda cur, _prev: self._show_selected())

        self.quote = QLabel("", self)
        self.quote.setWordWrap(True)
        self.quote.setStyleSheet("color: #546e7a")
        self.status_box = QComboBox(self)
        self.status_box.addItems([fd.status_word(s) for s in STATUSES])
        self.status_box.setAccessibleName("Status of the selected finding")
        self.concept = QLineEdit(self)
        self.concept.setAccessibleName("Concept of the selected finding")
        self.value = QLineEdit(self)
        self.value.setPlaceholderText("dose, measurement, duration\u2026")
        self.value.setAccessibleName("Value of the selected finding")
        self.save_btn = QPushButton("Save edit", self)
        self.save_btn.setToolTip("Keep the corrected finding as an annotation (a re-index keeps it)")
        self.save_btn.clicked.connect(self.save_edit)
        self.concept.returnPressed.connect(self.save_edit)
        self.value.returnPressed.connect(self.save_edit)
        self.reject_btn = QPushButton("Reject", self)
        self.reject_btn.setToolTip("Mark the finding wrong: kept, struck through, never answered from")
        self.reject_btn.clicked.connect(self.reject)
        self.undo_stack = QUndoStack(self)
        self.undo_btn = QPushButton("Undo", self)
        self.redo_btn = QPushButton("Redo", self)
        for btn, step, can, text in ((self.undo_btn, self.undo_stack.undo, self.undo_stack.canUndoChanged,
                                      self.undo_stack.undoTextChanged),
                                     (self.redo_btn, self.undo_stack.redo, self.undo_stack.canRedoChanged,
                                      self.undo_stack.redoTextChanged)):
            btn.clicked.connect(step)
            btn.setEnabled(False)
            can.connect(btn.setEnabled)
            text.connect(lambda t, b=btn: b.setToolTip(f"{b.text()} {t}" if t else ""))
        # Ctrl+Z here undoes a finding edit: the key is taken before the window's shortcuts see it.
        for w in (self.tree, self.status_box, self.save_btn, self.reject_btn, self.undo_btn, self.redo_btn):
            w.installEventFilter(self)

        form = QGridLayout()
        form.addWidget(QLabel("Status", self), 0, 0)
        form.addWidget(self.status_box, 0, 1)
        form.addWidget(QLabel("Concept", self), 0, 2)
        form.addWidget(self.concept, 0, 3, 1, 2)
        form.addWidget(QLabel("Value", self), 1, 0)
        form.addWidget(self.value, 1, 1, 1, 2)
        form.addWidget(self.save_btn, 1, 3)
        form.addWidget(self.reject_btn, 1, 4)
        form.addWidget(self.undo_btn, 2, 3)
        form.addWidget(self.redo_btn, 2, 4)
        form.setColumnStretch(3, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(QLabel("<b>Roles</b>", self))
        layout.addWidget(self.roles_header)
        layout.addWidget(self.status)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.quote)
        layout.addLayout(form)
        self.set_recording(None)

    # -- state from the window ------------------------------------------------------------
    def set_recording(self, ref: str | None, speakers: list | None = None) -> None:
        """Show a recording's findings (sha256) with its speakers (recording_data.SpeakerInfo)."""
        if ref != self.ref:
            self.undo_stack.clear()  # its steps name this recording's findings
        self.ref = ref
        self._names = {s.label: s.name for s in speakers or []}
        self._indexes = {s.label: s.index for s in speakers or []}
        self.refresh()

    def refresh(self, select: int | None = None) -> None:
        if self.closing():
            return
        keep = select if select is not None else self.selected_id()
        found: list[Finding] = []
        rows: list[dict] = []
        if self.ref is None:
            self.status.setText("Open a recording to see its findings.")
            self.roles = {}
        else:
            try:
                lib = self.lib()
                rows = lib.db.speakers(lib.recording(self.ref)["id"])
                self.roles = lib.roles(self.ref)
                found = lib.findings(self.ref)
                self.status.setText(self._summary(found))
            except LookupError:  # not indexed that far yet (or deleted meanwhile): say what to do
                self.roles = {}
                self.status.setText(NO_FINDINGS_YET)
            except API_ERRORS as exc:
                self.roles = {}
                self.status.setText(user_message(exc))
        self.roles_header.set_speakers([
            SpeakerRole(r["label"], self._names.get(r["label"]) or r["name"] or r["label"],
                        self._indexes.get(r["label"], r["idx"]), self.roles.get(r["label"]), r.get("role_source"),
                        r.get("role_confidence")) for r in rows])
        self.roles_header.set_enabled(not self.busy())  # one correction at a time
        self._fill(found)
        if keep is not None and keep in self._by_id:
            self.select(keep)
        self._show_selected()
        self.rolesChanged.emit(dict(self.roles))

    @staticmethod
    def _summary(found: list[Finding]) -> str:
        if not found:
            return "No clinical findings in this recording."
        rejected = sum(f.rejected for f in found)
        edited = sum(f.source == "annotator" for f in found)
        parts = [f"{len(found) - rejected} finding{'s' if len(found) - rejected != 1 else ''}"]
        parts += [f"{edited} edited"] if edited else []
        parts += [f"{rejected} rejected"] if rejected else []
        return " \u00b7 ".join(parts) + " \u2014 click one to hear it"

    def _fill(self, found: list[Finding]) -> None:
        self.tree.clear()
        self._by_id = {f.id: f for f in found if f.id is not None}
        bold = QFont()
        bold.setBold(True)
        for kind, items in fd.grouped(found):
            group = QTreeWidgetItem([f"{fd.KIND_TITLES.get(kind, kind)} ({len(items)})"])
            group.setFont(CONCEPT, bold)
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)  # a heading: not selectable, not a finding
            self.tree.addTopLevelItem(group)
            group.setFirstColumnSpanned(True)
            for f in items:
                group.addChild(self._row(f))
            group.setExpanded(True)

    def _row(self, f: Finding) -> QTreeWidgetItem:
        edited = f.source == "annotator"
        item = QTreeWidgetItem([("\u270e " if edited else "") + fd.concept_text(f), fd.status_word(f.status),
                                f.role or self._name(f.speaker), fd.citation(f)])
        item.setData(CONCEPT, ID_ROLE, f.id)
        colour = fd.REJECTED_COLOR if f.rejected else fd.status_color(f.status)
        item.setIcon(STATUS, swatch(colour, 10))
        item.setForeground(STATUS, QBrush(QColor(colour)))
        quote = f"\u201c{f.text.strip()}\u201d" if f.text.strip() else "(no words: added by hand)"
        item.setToolTip(CONCEPT, f"{fd.concept_text(f)} ({f.category}; "
                                 f"{'edited or added by an annotator' if edited else 'found by the index'})\n{quote}")
        item.setToolTip(STATUS, f"{fd.status_word(f.status)} ({f.status})")
        # The role is the column (what a reader needs); the name and label are one hover away.
        item.setToolTip(WHO, f"{self._name(f.speaker)} ({f.speaker or 'no speaker'}): {f.role or 'no role'}")
        item.setToolTip(TIME, f"{f.start_s:.1f}\u2013{f.end_s:.1f} s \u2014 click to play")
        for col in range(len(COLUMNS)):
            font = item.font(col)
            font.setBold(col == STATUS and not f.rejected)
            font.setItalic(edited)
            font.setStrikeOut(f.rejected)
            item.setFont(col, font)
            if f.rejected:
                item.setForeground(col, QBrush(QColor(fd.REJECTED_COLOR)))
        if f.rejected:
            item.setToolTip(STATUS, f"rejected by an annotator (was: {fd.status_word(f.status)}); kept, never "
                                    "answered from")
        return item

    def _name(self, label: str | None) -> str:
        return self._names.get(label or "", label or "unknown speaker")

    # -- reading the view -------------------------------------------------------------------
    def findings(self) -> list[Finding]:
        return list(self._by_id.values())

    def item_for(self, finding_id: int) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            for j in range(group.childCount()):
                if group.child(j).data(CONCEPT, ID_ROLE) == finding_id:
                    return group.child(j)
        return None

    def groups(self) -> list[str]:
        return [self.tree.topLevelItem(i).text(CONCEPT) for i in range(self.tree.topLevelItemCount())]

    def selected_id(self) -> int | None:
        item = self.tree.currentItem()
        return item.data(CONCEPT, ID_ROLE) if item is not None else None

    def selected(self) -> Finding | None:
        return self._by_id.get(self.selected_id())

    def select(self, finding_id: int) -> None:
        item = self.item_for(finding_id)
        if item is not None:
            self.tree.setCurrentItem(item)

    def _show_selected(self) -> None:
        f = self.selected()
        for w in (self.status_box, self.concept, self.value, self.save_btn):
            w.setEnabled(f is not None and not f.rejected)
        self.reject_btn.setEnabled(f is not None and not f.rejected)
        self.quote.setText(f"\u201c{f.text.strip()}\u201d" if f is not None and f.text.strip() else "")
        self.status_box.setCurrentText(fd.status_word(f.status) if f else "")
        self.concept.setText(f.concept if f else "")
        self.value.setText((f.value or "") if f else "")

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            step = (self.undo_stack.undo if event.matches(QKeySequence.StandardKey.Undo) else
                    self.undo_stack.redo if event.matches(QKeySequence.StandardKey.Redo) else None)
            if step is not None:
                event.accept()
                if kind == QEvent.Type.KeyPress:
                    step()
                return True
        return super().eventFilter(obj, event)

    def _after_step(self, finding_id: int | None) -> None:
        self.refresh(select=finding_id)

    # -- user actions -----------------------------------------------------------------------
    def _clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        f = self._by_id.get(item.data(CONCEPT, ID_ROLE))
        if f is not None:
            self.playSpanRequested.emit(f.start_s, f.end_s)

    def save_edit(self) -> Finding | None:
        f = self.selected()
        if f is None or f.rejected:
            return None
        changes: dict = {}
        status = fd.status_from_word(self.status_box.currentText())
        if status != f.status:
            changes["status"] = status
        concept = self.concept.text().strip()
        if concept and concept != f.concept:
            changes["concept"] = concept
        value = self.value.text().strip() or None
        if value != f.value:
            changes["value"] = value
        if not changes:
            self.message.emit("Nothing to save: change the status, concept or value first")
            return None
        try:
            cmd, new = findings_undo.edit(self.lib, self.ref, f, changes, self.annotator() or None, self._after_step)
        except API_ERRORS as exc:
            self.message.emit(user_message(exc))
            self.refresh()
            return None
        self.message.emit(f"Saved: {fd.concept_text(new)} \u2014 {fd.status_word(new.status)} (kept as an annotation)")
        self.undo_stack.push(cmd)  # refreshes, selecting the new id (an automatic finding's edit is a new one)
        return new

    def reject(self) -> Finding | None:
        f = self.selected()
        if f is None or f.rejected:
            return None
        try:
            cmd, new = findings_undo.reject(self.lib, self.ref, f, self.annotator() or None, self._after_step)
        except API_ERRORS as exc:
            self.message.emit(user_message(exc))
            self.refresh()
            return None
        self.message.emit(f"Rejected {f.concept}: kept struck through, never used in answers (Undo takes it back)")
        self.undo_stack.push(cmd)
        return new

    def set_role(self, label: str, role: str) -> None:
        if self.ref is None or self.roles.get(label) == role:
            return
        ref, who = self.ref, self.annotator() or None
        name = self._names.get(label, label)
        if self.runner is None:
            try:
                self.lib().set_role(ref, label, role, who)
            except API_ERRORS as exc:
                self.message.emit(user_message(exc))
            else:
                self.message.emit(f"{name} is now the {role}; findings updated")
            self.refresh()
            return
        from harp_desktop.ui.workers import CallTask

        task = CallTask(_store_role, self.lib().folder, ref, label, role, who, label="Setting a role")
        # Bound methods, not lambdas: a QObject slot is queued to the GUI thread for certain.
        task.signals.finished.connect(self._role_stored)
        task.signals.failed.connect(self._role_failed)
        self._role_task, self._role_ref, self._role_text = task, ref, f"{name} is now the {role}; findings updated"
        self.roles_header.set_enabled(False)
        self.status.setText(f"Setting {name} as the {role} and updating the findings\u2026")
        self.runner.start(task)

    def _role_stored(self, _roles: dict) -> None:
        self._role_done(self._role_text)

    def _role_failed(self, message: str) -> None:
        self._role_done(f"Could not set the role: {message}")

    def _role_done(self, text: str) -> None:
        task = self._role_task
        if task is None or self.sender() is not task.signals:
            return  # a task this panel no longer waits for
        self._role_task = None
        self.message.emit(text)
        if self.ref == self._role_ref:
            self.refresh()
        self.roles_header.set_enabled(True)

    def busy(self) -> bool:
        return self._role_task is not None
