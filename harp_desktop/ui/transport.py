"""Playback controls: back / play-pause / forward, play selection, speed, time, zoom."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QStyle, QToolButton, QWidget

from harp_desktop.ui.player import SPEEDS
from harp_desktop.ui.timefmt import clock

SKIP_S = 5.0


class TransportBar(QWidget):
    playToggled = Signal()
    skipRequested = Signal(float)
    playSelectionRequested = Signal()
    speedChanged = Signal(float)
    zoomRequested = Signal(float)  # < 1 zooms in
    fitRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        style = self.style()

        def button(icon: QStyle.StandardPixmap | None, text: str, tip: str) -> QToolButton:
            b = QToolButton(self)
            if icon is not None:
                b.setIcon(style.standardIcon(icon))
            b.setText(text)
            b.setToolTip(tip)
            b.setAccessibleName(text or tip.split(" (")[0])
            b.setAutoRaise(True)
            return b

        self.back = button(QStyle.StandardPixmap.SP_MediaSeekBackward, "", f"Back {SKIP_S:.0f} s (Left)")
        self.play = button(QStyle.StandardPixmap.SP_MediaPlay, "", "Play / pause (Space)")
        self.forward = button(QStyle.StandardPixmap.SP_MediaSeekForward, "", f"Forward {SKIP_S:.0f} s (Right)")
        self.play_sel = button(None, "Play selection", "Play the selected span (Shift+Space); drag on the waveform "
                                                       "to select")
        self.speed = QComboBox(self)
        for s in SPEEDS:
            self.speed.addItem(f"{s:g}x", s)
        self.speed.setCurrentIndex(SPEEDS.index(1.0))
        self.speed.setToolTip("Playback speed (< slower, > faster)")
        self.speed.setAccessibleName("Playback speed")
        self.time = QLabel("00:00.0 / 00:00", self)
        self.time.setToolTip("Position / length")
        self.time.setMinimumWidth(120)
        self.zoom_in = button(None, "+", "Zoom in (Ctrl++)")
        self.zoom_out = button(None, "\u2212", "Zoom out (Ctrl+-)")
        self.fit = button(None, "Fit", "Show the whole recording (Ctrl+0)")
        self.zoom_in.setAccessibleName("Zoom in")
        self.zoom_out.setAccessibleName("Zoom out")

        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        for w in (self.back, self.play, self.forward, self.play_sel, QLabel("Speed", self), self.speed, self.time):
            layout.addWidget(w)
        layout.addStretch(1)
        for w in (self.zoom_out, self.zoom_in, self.fit):
            layout.addWidget(w)

        self.back.clicked.connect(lambda: self.skipRequested.emit(-SKIP_S))
        self.forward.clicked.connect(lambda: self.skipRequested.emit(SKIP_S))
        self.play.clicked.connect(self.playToggled)
        self.play_sel.clicked.connect(self.playSelectionRequested)
        self.speed.currentIndexChanged.connect(lambda i: self.speedChanged.emit(float(self.speed.itemData(i))))
        self.zoom_in.clicked.connect(lambda: self.zoomRequested.emit(0.5))
        self.zoom_out.clicked.connect(lambda: self.zoomRequested.emit(2.0))
        self.fit.clicked.connect(self.fitRequested)
        self.set_selection_available(False)

    def set_playing(self, playing: bool) -> None:
        icon = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play.setIcon(self.style().standardIcon(icon))
        self.play.setAccessibleName("Pause" if playing else "Play")

    def set_time(self, pos: float, duration: float) -> None:
        self.time.setText(f"{clock(pos, tenths=True)} / {clock(duration)}")

    def set_playback_enabled(self, enabled: bool, reason: str = "") -> None:
        for w in (self.back, self.play, self.forward, self.play_sel, self.speed):
            w.setEnabled(enabled)
        if not enabled and reason:
            self.play.setToolTip(f"Playback disabled: {reason}")
        else:
            self.play.setToolTip("Play / pause (Space)")

    def set_selection_available(self, available: bool) -> None:
        self.play_sel.setProperty("has_selection", available)
        self.play_sel.setEnabled(available and self.play.isEnabled())

    def set_speed(self, speed: float) -> None:
        i = self.speed.findData(speed)
        if i >= 0:
            self.speed.setCurrentIndex(i)

    def step_speed(self, direction: int) -> None:
        self.speed.setCurrentIndex(min(self.speed.count() - 1, max(0, self.speed.currentIndex() + direction)))
