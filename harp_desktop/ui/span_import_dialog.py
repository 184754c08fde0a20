"""Annotate > Import spans: pick a file, preview what it brings, then import it (undoable).

The preview is ``evaluate/span_import.plan``: tiers, spans per tier, the questions it
creates, the spans it replaces, and the file's warnings; a file that cannot be imported
shows its one-line reason instead and the Import button stays disabled.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.errors import user_message
from harp_desktop.evaluate import span_import
from harp_desktop.ui.timefmt import clock

FILTER = "Annotations (*.eaf *.TextGrid *.textgrid *.txt);;ELAN (*.eaf);;Praat TextGrid (*.TextGrid);;" \
         "Audacity labels (*.txt);;All files (*)"
PREVIEW_ROWS = 500


class SpanImportDialog(QDialog):
    def __init__(self, lib, ref: str, path: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lib, self.ref, self.path = lib, ref, path
        self.plan: span_import.ImportPlan | None = None
        self.setWindowTitle("Import spans")
        self.resize(720, 480)
        self.annotator = QLineEdit(self)
        self.annotator.setPlaceholderText("from the file (tier names, ELAN's annotator), else 'reference'")
        self.annotator.setToolTip("Whose spans these are; empty: as the file says")
        self.tier = QLineEdit(self)
        self.tier.setPlaceholderText("all tiers")
        self.tier.setToolTip("Import only this tier (an Audacity file's one tier gets this name)")
        self.summary = QLabel("", self)
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 6, self)
        self.table.setHorizontalHeaderLabels(["Tier", "Question", "Annotator", "Start", "End", "Label"])
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.import_btn = self.buttons.addButton("Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        opts = QHBoxLayout()
        opts.addWidget(QLabel("Annotator", self))
        opts.addWidget(self.annotator, 2)
        opts.addWidget(QLabel("Tier", self))
        opts.addWidget(self.tier, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"<b>{path}</b>", self))
        layout.addLayout(opts)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.buttons)
        self.annotator.editingFinished.connect(self.preview)
        self.tier.editingFinished.connect(self.preview)
        self.preview()

    def preview(self) -> None:
        try:
            self.plan = span_import.plan(self.lib, self.ref, self.path, self.tier.text().strip() or None,
                                         self.annotator.text().strip() or None)
        except (ValueError, LookupError, OSError) as exc:  # SpanImportError is a ValueError: one line
            self.plan = None
            self.summary.setText(f'<span style="color:#c62828">{user_message(exc)}</span>')
            self.table.setRowCount(0)
            self.import_btn.setEnabled(False)
            return
        p = self.plan
        notes = "".join(f"<br>note: {w}" for w in p.warnings)
        self.summary.setText(p.summary() + notes)
        shown = p.spans[:PREVIEW_ROWS]
        self.table.setRowCount(len(shown))
        for r, s in enumerate(shown):
            for c, text in enumerate([s.tier, s.query_id + (" (new)" if s.query_id in p.new_questions else ""),
                                      s.annotator, clock(s.start_s, tenths=True), clock(s.end_s, tenths=True),
                                      s.label or ""]):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.import_btn.setEnabled(True)
