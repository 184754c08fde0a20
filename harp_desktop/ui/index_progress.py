"""Status-bar widget for background indexing: what, stage, percent, ETA, Cancel."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from harp_desktop.api import Progress

STAGE_NAMES = {"decode": "decoding", "vad": "finding speech", "asr": "transcribing", "speakers": "speakers",
               "events": "sound events", "sounds": "room sounds", "segments": "turns", "text_emb": "text index", "speaker_emb": "voice index",
               "audio_emb": "audio index", "emotion": "emotions", "waveform": "waveform", "done": "finishing"}


def eta_text(eta_s: float | None) -> str:
    if eta_s is None:
        return ""
    m, s = divmod(int(round(eta_s)), 60)
    h, m = divmod(m, 60)
    return f"ETA {h}:{m:02d}:{s:02d}" if h else f"ETA {m}:{s:02d}"


def describe(name: str, p: Progress) -> str:
    stage = STAGE_NAMES.get(p.stage, p.stage)
    eta = eta_text(p.eta_s)
    return f"Indexing {name}: {stage} {p.stage_fraction * 100:.0f}%" + (f" \u00b7 {eta}" if eta else "")


class IndexProgress(QWidget):
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel("", self)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setMaximumWidth(220)
        self.bar.setMaximumHeight(16)
        self.bar.setAccessibleName("Indexing progress")
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setToolTip("Stop indexing; finished stages are kept and the next run resumes (Esc)")
        self.cancel.clicked.connect(self.cancelRequested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel)
        self.hide()

    def start(self, name: str, queued: int = 0) -> None:
        self.label.setText(f"Indexing {name}\u2026" + (f" (+{queued} queued)" if queued else ""))
        self.bar.setValue(0)
        self.cancel.setEnabled(True)
        self.show()

    def update_progress(self, name: str, p: Progress, queued: int = 0) -> None:
        self.label.setText(describe(name, p) + (f" (+{queued} queued)" if queued else ""))
        self.bar.setValue(int(p.fraction * 1000))
        self.bar.setToolTip(f"{p.fraction * 100:.1f}% of the whole recording")

    def cancelling(self) -> None:
        self.label.setText("Cancelling\u2026 (at the next checkpoint)")
        self.cancel.setEnabled(False)
