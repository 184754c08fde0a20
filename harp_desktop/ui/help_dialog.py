"""Help > Keyboard shortcuts: generated from the window's actions, so it cannot drift."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

MOUSE = [("Seek", "click the waveform, a transcript line, an evidence row or a [mm:ss] citation"),
         ("Select a span", "drag on the waveform (then Play selection or Use selection as an example)"),
         ("Zoom / pan", "mouse wheel / right- or middle-drag on the waveform"),
         ("Rename a speaker", "double-click it in Speakers (or F2)"),
         ("Add recordings", "drop files or folders on the window")]


def shortcut_rows(actions: list[QAction]) -> list[tuple[str, str]]:
    rows = []
    for a in actions:
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in a.shortcuts() if not k.isEmpty()]
        if keys:
            rows.append((a.text().replace("&", "").rstrip("\u2026."), ", ".join(keys)))
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, actions: list[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(560, 560)
        rows = shortcut_rows(actions) + MOUSE
        table = QTableWidget(len(rows), 2, self)
        table.setHorizontalHeaderLabels(["Action", "Keys / mouse"])
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for r, (what, keys) in enumerate(rows):
            table.setItem(r, 0, QTableWidgetItem(what))
            table.setItem(r, 1, QTableWidgetItem(keys))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Space, Left and Right act on playback unless you are typing in a text box.", self))
        layout.addWidget(table, 1)
        layout.addWidget(buttons)
        self.table = table
