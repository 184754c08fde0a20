"""The record control: device picker, input level meter, elapsed time, pause/resume, stop."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from harp_desktop.ui.timefmt import clock

METER_FLOOR_DB = -60.0  # the meter's empty end: quieter input shows as nothing


class RecordPanel(QWidget):
    recordRequested = Signal(object)  # the device index (None: the system default)
    pauseToggled = Signal(bool)  # True: pause
    stopRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Record control")
        self.dot = QLabel("\u25cf", self)
        self.dot.setStyleSheet("color: #9e9e9e; font-size: 16px")
        self.device = QComboBox(self)
        self.device.setAccessibleName("Input device")
        self.device.setToolTip("The microphone to record from")
        self.device.setMinimumContentsLength(18)
        self.meter = QProgressBar(self)
        self.meter.setRange(0, int(-METER_FLOOR_DB))
        self.meter.setTextVisible(False)
        self.meter.setFixedWidth(160)
        self.meter.setAccessibleName("Input level")
        self.meter.setToolTip("Input level (peak, dBFS); keep the loudest speech below the right end")
        self.elapsed = QLabel(clock(0.0, tenths=True), self)
        self.elapsed.setAccessibleName("Elapsed time")
        self.elapsed.setMinimumWidth(70)
        self.overflows = QLabel("", self)
        self.overflows.setStyleSheet("color: #b71c1c")
        self.record = QPushButton("\u25cf Record", self)
        self.record.setToolTip("Start recording from the chosen device (Ctrl+R)")
        self.pause = QPushButton("Pause", self)
        self.pause.setCheckable(True)
        self.pause.setToolTip("Pause: nothing is recorded until Resume")
        self.stop = QPushButton("\u25a0 Stop", self)
        self.stop.setToolTip("Stop: the recording is saved and indexed")
        self.record.clicked.connect(lambda: self.recordRequested.emit(self.device.currentData()))
        self.pause.toggled.connect(self._pause_toggled)
        self.stop.clicked.connect(self.stopRequested)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 2, 4, 2)
        for wdg in (self.dot, QLabel("Input:", self), self.device, self.meter, self.elapsed, self.record,
                    self.pause, self.stop, self.overflows):
            row.addWidget(wdg)
        row.addStretch(1)
        self.set_state("idle")

    def set_devices(self, devices: list, current: int | None = None) -> None:
        """``devices``: record.devices.InputDevice rows; the default one is preselected."""
        self.device.clear()
        for d in devices:
            self.device.addItem(f"{d.name}{' (default)' if d.is_default else ''}", d.index)
            if (current is None and d.is_default) or d.index == current:
                self.device.setCurrentIndex(self.device.count() - 1)

    def set_state(self, state: str) -> None:
        """idle | recording | paused | saving."""
        self.record.setEnabled(state == "idle" and self.device.count() > 0)
        self.device.setEnabled(state == "idle")
        self.pause.setEnabled(state in ("recording", "paused"))
        self.stop.setEnabled(state in ("recording", "paused"))
        self.pause.blockSignals(True)
        self.pause.setChecked(state == "paused")
        self.pause.setText("Resume" if state == "paused" else "Pause")
        self.pause.blockSignals(False)
        colour = {"recording": "#d32f2f", "paused": "#f9a825"}.get(state, "#9e9e9e")
        self.dot.setStyleSheet(f"color: {colour}; font-size: 16px")
        self.state = state
        if state == "idle":
            self.meter.setValue(0)

    def show_meter(self, level_db: float, elapsed_s: float, overflows: int) -> None:
        self.meter.setValue(int(max(0.0, level_db - METER_FLOOR_DB)))
        self.elapsed.setText(clock(elapsed_s, tenths=True))
        self.overflows.setText(f"{overflows} input overflow(s): audio was lost" if overflows else "")

    def _pause_toggled(self, on: bool) -> None:
        self.pause.setText("Resume" if on else "Pause")
        self.pauseToggled.emit(on)

