"""The transcript, synced with playback: click a line to seek; the current line is
highlighted and, in follow mode, kept in view."""

from __future__ import annotations

import bisect

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QCheckBox, QHBoxLayout, QLabel, QListView, QVBoxLayout, QWidget

from harp_desktop.ui import colors
from harp_desktop.ui.recording_data import Line, RecordingData
from harp_desktop.ui.speakers_panel import swatch
from harp_desktop.ui.timefmt import clock, span_text

START_ROLE = Qt.ItemDataRole.UserRole
CURRENT_BG = QColor("#fff3c4")


class TranscriptModel(QAbstractListModel):
    def __init__(self) -> None:
        super().__init__()
        self._lines: list[Line] = []
        self._starts: list[float] = []
        self._names: dict[str | None, str] = {}
        self._icons: dict[str | None, object] = {}
        self.current = -1
        self._bold = QFont()
        self._bold.setBold(True)

    def set_recording(self, data: RecordingData | None) -> None:
        self.beginResetModel()
        self._lines = list(data.lines) if data else []
        self._starts = [ln.start_s for ln in self._lines]
        self._names = {s.label: s.name for s in data.speakers} if data else {}
        self._icons = {s.label: swatch(colors.speaker_color(s.index)) for s in data.speakers} if data else {}
        self.current = -1
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._lines)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        ln = self._lines[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            who = self._names.get(ln.speaker, ln.speaker or "?")
            return f"{clock(ln.start_s)}  {who}:  {ln.text}"
        if role == Qt.ItemDataRole.DecorationRole:
            return self._icons.get(ln.speaker)
        if role == Qt.ItemDataRole.BackgroundRole and index.row() == self.current:
            return QBrush(CURRENT_BG)
        if role == Qt.ItemDataRole.FontRole and index.row() == self.current:
            return self._bold
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{span_text(ln.start_s, ln.end_s)} \u2014 click to play from here"
        if role == START_ROLE:
            return ln.start_s
        return None

    def row_at(self, t: float) -> int:
        """The line playing at ``t`` (the last one started), or -1 before the first."""
        i = bisect.bisect_right(self._starts, t + 1e-6) - 1
        if i >= 0 and t > self._lines[i].end_s + 2.0:  # in a long pause: no line is current
            return -1
        return i

    def set_current(self, row: int) -> bool:
        if row == self.current:
            return False
        old, self.current = self.current, row
        for r in (old, row):
            if 0 <= r < len(self._lines):
                idx = self.index(r)
                self.dataChanged.emit(idx, idx)
        return True


class TranscriptView(QWidget):
    seekRequested = Signal(float)
    followChanged = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = TranscriptModel()
        self.view = QListView(self)
        self.view.setModel(self.model)
        self.view.setWordWrap(True)
        self.view.setUniformItemSizes(False)
        self.view.setLayoutMode(QListView.LayoutMode.Batched)
        self.view.setBatchSize(200)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setSpacing(1)
        self.view.setAccessibleName("Transcript")
        self.view.setToolTip("Click a line to play from there.")
        self.view.clicked.connect(self._clicked)
        self.view.activated.connect(self._clicked)
        self.follow = QCheckBox("Follow playback", self)
        self.follow.setChecked(True)
        self.follow.setToolTip("Keep the current line in view while playing (F)")
        self.follow.toggled.connect(self.followChanged)
        self.status = QLabel("", self)
        self.status.setStyleSheet("color: #757575")
        head = QHBoxLayout()
        head.addWidget(QLabel("<b>Transcript</b>", self))
        head.addWidget(self.status, 1)
        head.addWidget(self.follow)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.view, 1)

    def set_recording(self, data: RecordingData | None, status: str = "") -> None:
        self.model.set_recording(data)
        if data is not None and not data.lines and not status:
            status = "no speech found" if data.complete else "not transcribed yet"
        self.status.setText(status)

    def set_position(self, t: float, scroll: bool | None = None) -> None:
        row = self.model.row_at(t)
        if self.model.set_current(row) and row >= 0 and (self.follow.isChecked() if scroll is None else scroll):
            self.view.scrollTo(self.model.index(row), QAbstractItemView.ScrollHint.PositionAtCenter)

    def current_row(self) -> int:
        return self.model.current

    def _clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.seekRequested.emit(float(index.data(START_ROLE)))
