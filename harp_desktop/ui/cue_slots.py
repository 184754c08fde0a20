"""The ask panel's example-clip rows: the example clip (a voice or a sound), and issue 16's two
clips for two-clip questions ("this is speaker X: [speaker clip]; when did X sound like
[emotion clip]?"). Each row: what is set, use the waveform selection, pick a file, clear."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QWidget

AUDIO_FILTER = "Audio clips (*.wav *.flac *.ogg *.mp3);;All files (*)"


@dataclass(frozen=True)
class SlotSpec:
    key: str  # "example" (lib.ask's cue=), "speaker" (speaker_cue=), "emotion" (emotion_cue=)
    title: str
    tip: str
    compact: bool = False  # shorter button texts: three rows must fit a narrow panel


SLOTS = (
    SlotSpec("example", "Example clip:", "An example clip (a voice or a sound) to look for"),
    SlotSpec("speaker", "Speaker clip:", "A clip of one voice: \u201cthis is speaker X\u201d. With an emotion clip, "
             "asks when X sounded like it", compact=True),
    SlotSpec("emotion", "Emotion clip:", "A clip whose emotion to find in the speaker clip's voice (two-clip "
             "questions)", compact=True),
)


class CueSlot(QObject):
    fromSelectionRequested = Signal(str)  # the slot's key: the window cuts the selection and calls set()

    def __init__(self, spec: SlotSpec, parent: QWidget) -> None:
        super().__init__(parent)
        self.spec, self.path = spec, None
        self.title = QLabel(spec.title, parent)
        self.label = QLabel("none", parent)
        self.label.setToolTip(spec.tip)
        self.title.setToolTip(spec.tip)
        self.selection = QPushButton("Selection" if spec.compact else "Use selection", parent)
        self.selection.setToolTip(f"Use the span selected on the waveform as the {spec.title[:-1].lower()} "
                                  "(written to a temporary WAV)")
        self.selection.clicked.connect(lambda: self.fromSelectionRequested.emit(spec.key))
        self.file = QPushButton("File\u2026" if spec.compact else "From file\u2026", parent)
        self.file.setToolTip(f"Use an audio file as the {spec.title[:-1].lower()}")
        self.file.clicked.connect(self._pick)
        self.clear = QPushButton("Clear", parent)
        self.clear.setToolTip(f"Ask without a {spec.title[:-1].lower()}")
        self.clear.clicked.connect(lambda: self.set(None))
        for w in (self.title, self.label, self.selection, self.file, self.clear):
            w.setAccessibleName(f"{spec.title[:-1]}: {w.text()}" if isinstance(w, QPushButton) else spec.title[:-1])
        self.set(None)

    def row(self) -> QHBoxLayout:
        out = QHBoxLayout()
        out.addWidget(self.title)
        out.addWidget(self.label, 1)
        for w in (self.selection, self.file, self.clear):
            out.addWidget(w)
        return out

    def widgets(self) -> list[QWidget]:
        """Focusable, in tab order."""
        return [self.selection, self.file, self.clear]

    def set(self, path: str | None, label: str = "") -> None:
        self.path = path
        self.label.setText(label or (Path(path).name if path else "none"))
        self.clear.setEnabled(path is not None)

    def _pick(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.label.window(), self.spec.title[:-1], "", AUDIO_FILTER)
        if path:
            self.set(path)
