"""About models: every weight in models/manifest.json with version, licence and checksum status."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
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

from harp_desktop import weights

COLUMNS = ["Model", "Role", "Version (package)", "Licence", "Status"]


def state_of(st: weights.ModelStatus) -> tuple[str, str]:
    if st.checksum_ok:
        return "checksum OK", "#2e7d32"
    if st.note.startswith("unavailable"):
        return "unavailable", "#757575"
    if st.present:
        return "CHECKSUM FAILED", "#c62828"
    return "absent", "#ef6c00"


class AboutModelsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About models")
        self.resize(980, 420)
        self.info = QLabel("Checking model files (SHA-256)\u2026", self)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2, 3, 4):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 110)
        header.resizeSection(2, 190)
        header.resizeSection(3, 220)
        header.resizeSection(4, 120)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("All models run on this device. Nothing is downloaded: weights come from pinned "
                                "packages and are verified against models/manifest.json.", self))
        layout.addWidget(self.info)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)

    def show_status(self, rows: list[weights.ModelStatus]) -> None:
        manifest = weights.manifest()
        self.table.setRowCount(len(rows))
        for r, st in enumerate(rows):
            entry = manifest.get(st.key, {})
            packages = st.packages if len(st.packages) <= 2 else [st.packages[0], f"+{len(st.packages) - 1} parts"]
            name = entry.get("display_name") or st.key
            text, colour = state_of(st)
            cells = [name, st.role, ", ".join(packages), st.licence, text]
            for c, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setToolTip(value if c != 4 else (st.note or st.path or value))
                if c == 4:
                    item.setForeground(QBrush(QColor(colour)))
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()
        ok = sum(1 for s in rows if s.checksum_ok)
        self.info.setText(f"{ok} of {len(rows)} models present and verified.")

    def show_error(self, message: str) -> None:
        self.info.setText(f"Could not check the models: {message}")
