"""The library: recordings with their index status; add files or a folder."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.ui.timefmt import clock

PATH_ROLE = Qt.ItemDataRole.UserRole


@dataclass
class LibraryRow:
    path: str
    name: str
    duration_s: float | None
    status: str
    tooltip: str = ""


class LibraryPanel(QWidget):
    openRequested = Signal(str)
    addFilesRequested = Signal()
    addFolderRequested = Signal()
    reindexRequested = Signal(str)
    deleteRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown: tuple | None = None
        title = QLabel("<b>Library</b>", self)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels(["Recording", "Length", "Index"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAccessibleName("Recordings in the library")
        self.tree.setToolTip("Click a recording to open it. Drop audio files or folders on the window to add them.")
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.tree.itemClicked.connect(self._open_item)
        self.tree.itemActivated.connect(self._open_item)
        self.add = QPushButton("Add\u2026", self)
        self.add.setToolTip("Add recordings (Ctrl+O): WAV, FLAC, OGG, MP3")
        self.add_folder = QPushButton("Add folder\u2026", self)
        self.add_folder.setToolTip("Add every recording in a folder (Ctrl+Shift+O)")
        self.add.clicked.connect(self.addFilesRequested)
        self.add_folder.clicked.connect(self.addFolderRequested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add)
        buttons.addWidget(self.add_folder)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)

    def set_rows(self, rows: list[LibraryRow], current: str | None = None) -> None:
        if (rows, current) == self._shown:  # polled refreshes keep scroll and selection
            return
        self._shown = (rows, current)
        self.tree.blockSignals(True)
        self.tree.clear()
        for r in rows:
            dur = clock(r.duration_s) if r.duration_s else ""
            item = QTreeWidgetItem([r.name, dur, r.status])
            item.setData(0, PATH_ROLE, r.path)
            item.setToolTip(0, r.path)
            item.setToolTip(2, r.tooltip or r.status)
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.tree.addTopLevelItem(item)
            if r.path == current:
                self.tree.setCurrentItem(item)
        self.tree.blockSignals(False)

    def paths(self) -> list[str]:
        return [self.tree.topLevelItem(i).data(0, PATH_ROLE) for i in range(self.tree.topLevelItemCount())]

    def status_of(self, path: str) -> str | None:
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item.data(0, PATH_ROLE) == path:
                return item.text(2)
        return None

    def _open_item(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        self.openRequested.emit(item.data(0, PATH_ROLE))

    def _menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if item is None:
            return
        path = item.data(0, PATH_ROLE)
        menu = QMenu(self)
        open_action = QAction("Open", menu)
        open_action.triggered.connect(lambda: self.openRequested.emit(path))
        reindex = QAction("Index again with the current settings", menu)
        reindex.triggered.connect(lambda: self.reindexRequested.emit(path))
        delete = QAction("Delete from library…", menu)
        delete.triggered.connect(lambda: self.deleteRequested.emit(path))
        menu.addAction(open_action)
        menu.addAction(reindex)
        menu.addSeparator()
        menu.addAction(delete)
        menu.exec(self.tree.viewport().mapToGlobal(pos))
