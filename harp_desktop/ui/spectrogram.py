"""The spectrogram lane under the waveform: a pyqtgraph ImageItem over the visible time range.

Its time axis is linked to the waveform's, so zooming or panning either moves both.
Each change of view asks for one image at screen resolution (``audio/spectrogram.py``;
zoomed out, from the recording's overview, built once in the background);
a single background thread computes the newest request only, dropping the ones a
scroll made obsolete mid-way, and hands the image back through a queued signal, so the
event loop never waits for an FFT. Until it arrives the previous image stays,
stretched to where it belongs. Clicks, drags and the wheel act as on the waveform;
the playhead, the selection and the answer's evidence are drawn over it, and the
annotation spans through ``SpanOverlay`` (see ``ui/workbench.py``).
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QRectF, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from harp_desktop.audio import spectrogram as spec
from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.ui import colors
from harp_desktop.ui.waveform import TimeViewBox, WaveformView

CEILINGS_HZ = (1000, 2000, 4000, 6000, 8000)
DEFAULT_CEILING_HZ = 8000
DEFAULT_RANGE_DB = 80
RANGE_STEP_DB, RANGE_MIN_DB, RANGE_MAX_DB = 10, 30, 120
AXIS_WIDTH = 62  # the waveform's left axis: the two plots' time axes must line up pixel for pixel


_OVERVIEWS: dict[str, spec.Overview] = {}  # audio cache file -> overview; the last two recordings shown


class _Computer(QObject):
    """One daemon thread computing the newest requested view (older requests are skipped), and
    one building the recording's overview for zoomed-out views, once per recording."""

    ready = Signal(object, int, float)  # SpectroImage, generation, seconds since requested
    overviewReady = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._cond = threading.Condition()
        self._request: tuple | None = None
        self._gen = 0
        self._closed = False
        self.overview: spec.Overview | None = None
        self._audio_key: str | None = None
        self._thread = threading.Thread(target=self._run, name="spectrogram", daemon=True)
        self._thread.start()

    def set_audio(self, audio: np.ndarray | None) -> None:
        key = str(getattr(audio, "filename", None) or id(audio)) if audio is not None else None
        if key == self._audio_key:
            return
        self._audio_key = key
        self.overview = _OVERVIEWS.get(key) if key else None
        if audio is not None and self.overview is None:
            threading.Thread(target=self._build_overview, args=(audio, key), name="spectrogram-overview",
                             daemon=True).start()

    def _build_overview(self, audio: np.ndarray, key: str) -> None:
        ov = spec.build_overview(audio, SAMPLE_RATE, should_stop=lambda: self._audio_key != key or self._closed)
        if ov is None:
            return
        _OVERVIEWS[key] = ov
        while len(_OVERVIEWS) > 2:
            _OVERVIEWS.pop(next(iter(_OVERVIEWS)))
        if self._audio_key == key:
            self.overview = ov
            self.overviewReady.emit()

    def request(self, audio: np.ndarray, t0: float, t1: float, columns: int, fmax: float) -> int:
        with self._cond:
            self._gen += 1
            self._request = (self._gen, time.perf_counter(), audio, t0, t1, columns, fmax)
            self._cond.notify()
            return self._gen

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._request = None
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._request is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                gen, asked, audio, t0, t1, columns, fmax = self._request
                self._request = None
            img = spec.compute(audio, SAMPLE_RATE, t0, t1, columns, fmax, overview=self.overview,
                               should_stop=lambda gen=gen: self._gen != gen or self._closed)
            if img is not None:
                self.ready.emit(img, gen, time.perf_counter() - asked)


class SpectrogramView(QWidget):
    drawn = Signal(float)  # seconds from the view change to the new image on screen (benchmarks)

    def __init__(self, waveform: WaveformView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.waveform = waveform
        self._audio: np.ndarray | None = None
        self._peak = 1.0
        self._shown_gen = 0
        self._computer = _Computer()
        self._computer.ready.connect(self._image_ready)
        self._computer.overviewReady.connect(self.schedule)  # zoomed-out columns are complete now

        self.ceiling = QComboBox(self)
        for hz in CEILINGS_HZ:
            self.ceiling.addItem(f"{hz / 1000:g} kHz", hz)
        self.ceiling.setCurrentIndex(CEILINGS_HZ.index(DEFAULT_CEILING_HZ))
        self.ceiling.setToolTip("Frequency ceiling (Alt+Up / Alt+Down)")
        self.ceiling.setAccessibleName("Spectrogram frequency ceiling")
        self.range_db = QSpinBox(self)
        self.range_db.setRange(RANGE_MIN_DB, RANGE_MAX_DB)
        self.range_db.setSingleStep(RANGE_STEP_DB)
        self.range_db.setValue(DEFAULT_RANGE_DB)
        self.range_db.setSuffix(" dB")
        self.range_db.setToolTip("Dynamic range: how far below the recording's peak is still coloured "
                                 "(Alt+PgUp wider / Alt+PgDown narrower)")
        self.range_db.setAccessibleName("Spectrogram dynamic range")
        head = QHBoxLayout()
        head.setContentsMargins(4, 0, 4, 0)
        head.addWidget(QLabel("Spectrogram", self))
        head.addStretch(1)
        head.addWidget(QLabel("ceiling", self))
        head.addWidget(self.ceiling)
        head.addWidget(QLabel("range", self))
        head.addWidget(self.range_db)

        self.vb = TimeViewBox()
        self.plot = pg.PlotWidget(viewBox=self.vb, background="w")
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.hideAxis("bottom")  # the waveform's time axis is just above
        left = item.getAxis("left")
        left.setWidth(AXIS_WIDTH)
        left.setPen(pg.mkPen("#9e9e9e"))
        left.setTextPen(pg.mkPen("#424242"))
        left.setLabel("kHz")
        left.setScale(0.001)
        self.vb.setXLink(waveform.vb)
        self.vb.setMouseEnabled(x=True, y=False)
        self.image = pg.ImageItem(axisOrder="col-major")
        self.image.setLookupTable(pg.colormap.get("inferno").getLookupTable(nPts=256))
        self.image.setZValue(-30)
        self.vb.addItem(self.image, ignoreBounds=True)
        self._evidence: pg.BarGraphItem | None = None
        self._region = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(QColor(colors.SELECTION).name() + "40"),
                                           pen=pg.mkPen(colors.SELECTION, width=1))
        self._region.setZValue(5)
        self._region.hide()
        self.vb.addItem(self._region, ignoreBounds=True)
        self.playhead = pg.InfiniteLine(pos=0.0, angle=90, pen=pg.mkPen(colors.PLAYHEAD, width=2))
        self.playhead.setZValue(10)
        self.vb.addItem(self.playhead, ignoreBounds=True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(head)
        layout.addWidget(self.plot, 1)
        self.setMinimumHeight(120)
        self.setAccessibleName("Spectrogram")
        self.plot.setToolTip("Spectrogram of what is on screen: click to seek, drag to select, wheel to zoom.\n"
                             "Brighter = louder; the ceiling and range are set above it.")

        # Clicks and drags are the waveform's own (selection, drag-to-mark in annotation mode).
        self.vb.clicked.connect(waveform.vb.clicked)
        self.vb.dragged.connect(waveform.vb.dragged)
        waveform.envelopeSet.connect(self._set_envelope)
        waveform.evidenceSet.connect(self.set_evidence)
        waveform.selectionChanged.connect(self._set_selection)
        self.vb.sigXRangeChanged.connect(self.schedule)
        self.vb.sigResized.connect(self.schedule)
        self.ceiling.currentIndexChanged.connect(lambda _: self._apply_ceiling())
        self.range_db.valueChanged.connect(lambda _: self._apply_levels())
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._request)
        self._apply_ceiling()

    # -- settings --------------------------------------------------------------------
    @property
    def fmax(self) -> float:
        return float(self.ceiling.currentData())

    def step_ceiling(self, direction: int) -> None:
        i = self.ceiling.currentIndex() + direction
        self.ceiling.setCurrentIndex(min(self.ceiling.count() - 1, max(0, i)))

    def step_range(self, direction: int) -> None:
        self.range_db.setValue(self.range_db.value() + direction * RANGE_STEP_DB)

    def _apply_ceiling(self) -> None:
        self.vb.setYRange(0.0, self.fmax, padding=0)
        self.vb.setLimits(yMin=0.0, yMax=self.fmax)
        self.schedule()

    def _apply_levels(self) -> None:
        if self.image.image is not None:
            self.image.setLevels(spec.levels(self._peak, self.range_db.value()))

    # -- data --------------------------------------------------------------------------
    def _set_envelope(self, env) -> None:
        self._audio = None if env is None else env.audio
        self._computer.set_audio(self._audio)
        if env is not None and env.levels:
            self._peak = max(abs(float(np.min(env.mins[-1], initial=0.0))),
                             abs(float(np.max(env.maxs[-1], initial=0.0))), 1e-4)
        if self._audio is None:
            self.image.clear()
            self._region.hide()
        self.schedule()

    def set_position(self, t: float) -> None:
        self.playhead.setValue(t)

    def set_evidence(self, spans: list[tuple[float, float]]) -> None:
        if self._evidence is not None:
            self.vb.removeItem(self._evidence)
            self._evidence = None
        if not spans:
            return
        x0 = np.array([a for a, _ in spans], dtype=float)
        x1 = np.maximum(np.array([b for _, b in spans], dtype=float), x0 + 0.05)
        self._evidence = pg.BarGraphItem(x0=x0, x1=x1, y0=0.0, height=20000.0, brush=pg.mkBrush(None),
                                         pen=pg.mkPen(colors.EVIDENCE, width=2, cosmetic=True))
        self._evidence.setZValue(3)  # an outline: the spectrogram under it stays readable
        self.vb.addItem(self._evidence, ignoreBounds=True)

    def _set_selection(self, sel) -> None:
        if sel is None:
            self._region.hide()
        else:
            self._region.setRegion(sel)
            self._region.show()

    # -- drawing ---------------------------------------------------------------------------
    def schedule(self, *_: object) -> None:
        if self.isVisible():
            self._timer.start()

    def showEvent(self, event) -> None:  # noqa: N802 (Qt API)
        super().showEvent(event)
        self.schedule()

    def columns(self) -> int:
        return int(max(16, self.vb.width() * self.devicePixelRatioF()))

    def _request(self) -> None:
        if self._audio is None or not self.isVisible():
            return
        x0, x1 = self.vb.viewRange()[0]
        self._computer.request(self._audio, x0, x1, self.columns(), self.fmax)

    def _image_ready(self, img: spec.SpectroImage, gen: int, elapsed: float) -> None:
        if gen < self._shown_gen or self._audio is None:
            return
        self._shown_gen = gen
        self.image.setImage(img.db, autoLevels=False, levels=spec.levels(self._peak, self.range_db.value()))
        self.image.setRect(QRectF(img.t0, 0.0, max(img.t1 - img.t0, 1e-6), img.fmax))
        self.drawn.emit(elapsed)

    def shown_image(self) -> np.ndarray | None:
        return self.image.image

    def close_worker(self) -> None:
        self._computer.close()
