"""Who is the patient and who the clinician: one small role combo per speaker, the header of
the Findings panel. Choosing a role only emits ``roleChosen``; the panel stores it."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFrame, QGridLayout, QLabel, QScrollArea, QWidget

from harp_desktop.findings.model import ROLES
from harp_desktop.ui import colors
from harp_desktop.ui.speakers_panel import swatch

PAIRS_PER_ROW = 2  # a dock is ~400 px wide: two (name, role) pairs fit side by side
MAX_HEIGHT = 96  # 13 voices (the dev recording) scroll instead of pushing the findings away


@dataclass
class SpeakerRole:
    label: str  # SPEAKER_n
    name: str  # display name (the label when not renamed)
    index: int  # colour index, as in the speakers panel and the waveform lane
    role: str | None
    source: str | None = None  # "auto" or "manual"
    confidence: float | None = None

    def tip(self) -> str:
        if self.role is None:
            return f"{self.label}: no role yet (the findings stage has not run)"
        how = "set by hand" if self.source == "manual" else (
            f"guessed from the words, confidence {self.confidence:.2f}" if self.confidence is not None else "guessed")
        return f"{self.label} is the {self.role} ({how}). Pick another role to correct it; findings follow."


class RolesHeader(QScrollArea):
    roleChosen = Signal(str, str)  # speaker label, role

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMaximumHeight(MAX_HEIGHT)
        self.combos: dict[str, QComboBox] = {}
        self._inner = QWidget(self)
        self._grid = QGridLayout(self._inner)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(4)
        self._grid.setVerticalSpacing(2)
        self.setWidget(self._inner)

    def set_speakers(self, speakers: list[SpeakerRole]) -> None:
        while self._grid.count():
            w = self._grid.takeAt(0).widget()
            if w is not None:
                w.deleteLater()
        self.combos = {}
        for i, s in enumerate(speakers):
            row, col = divmod(i, PAIRS_PER_ROW)
            name = QLabel(self._inner)
            name.setPixmap(swatch(colors.speaker_color(s.index)).pixmap(10, 10))
            text = QLabel(s.name, self._inner)
            text.setToolTip(s.tip())
            combo = QComboBox(self._inner)
            combo.addItems(list(ROLES))
            combo.setPlaceholderText("role?")
            combo.setCurrentIndex(ROLES.index(s.role) if s.role in ROLES else -1)
            combo.setToolTip(s.tip())
            combo.setAccessibleName(f"Role of {s.name}")
            # activated, not currentIndexChanged: only a person's choice stores a role
            combo.activated.connect(lambda _i, label=s.label, c=combo: self.roleChosen.emit(label, c.currentText()))
            self._grid.addWidget(name, row, 3 * col)
            self._grid.addWidget(text, row, 3 * col + 1)
            self._grid.addWidget(combo, row, 3 * col + 2)
            self.combos[s.label] = combo
        self._grid.setColumnStretch(3 * PAIRS_PER_ROW, 1)
        self.setVisible(bool(speakers))

    def role(self, label: str) -> str | None:
        c = self.combos.get(label)
        return c.currentText() if c is not None and c.currentIndex() >= 0 else None

    def choose(self, label: str, role: str) -> None:
        """Pick a role as the user would (tests, the speakers panel's menu)."""
        c = self.combos[label]
        c.setCurrentIndex(ROLES.index(role))
        c.activated.emit(c.currentIndex())

    def set_enabled(self, on: bool) -> None:
        for c in self.combos.values():
            c.setEnabled(on)
