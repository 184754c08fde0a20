"""Speakers of the open recording, one colour each (as in the waveform lane); renameable."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from harp_desktop.ui import colors
from harp_desktop.ui.recording_data import SpeakerInfo
from harp_desktop.ui.timefmt import clock

LABEL_ROLE = Qt.ItemDataRole.UserRole


def swatch(color: str, size: int = 12) -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(QColor(color))
    return QIcon(pm)


class SpeakersPanel(QWidget):
    renameRequested = Signal(str, str)  # label, new name ("" = back to the label)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.list.setAccessibleName("Speakers")
        self.list.setToolTip("Double-click a speaker (or press F2) to give them a name; it is saved in the library.")
        self.list.itemChanged.connect(self._changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>Speakers</b>", self))
        layout.addWidget(self.list, 1)

    def set_speakers(self, speakers: list[SpeakerInfo]) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for s in speakers:
            item = QListWidgetItem(swatch(colors.speaker_color(s.index)), s.name)
            item.setData(LABEL_ROLE, s.label)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            item.setToolTip(f"{s.label}: {clock(s.total_s)} of speech. Double-click or F2 to rename.")
            self.list.addItem(item)
        self.list.blockSignals(False)

    def names(self) -> dict[str, str]:
        return {self.list.item(i).data(LABEL_ROLE): self.list.item(i).text() for i in range(self.list.count())}

    def rename(self, label: str, name: str) -> None:
        """Rename as if the user edited the item (used by tests and the menu)."""
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item.data(LABEL_ROLE) == label:
                item.setText(name)
                return
        raise LookupError(f"no speaker {label}")

    def _changed(self, item: QListWidgetItem) -> None:
        self.renameRequested.emit(item.data(LABEL_ROLE), item.text().strip())
