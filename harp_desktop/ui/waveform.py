"""The waveform (pyqtgraph) with a playhead, a selection, evidence highlights and lanes.

Rows, top to bottom: the waveform (y in [-1, 1]), then one lane each for speakers,
sound events and emotions. Only the time axis zooms and pans. Mouse: click to seek,
drag to select, wheel to zoom, right- or middle-drag to pan; drag the red playhead.
Redraws pick a level of the envelope pyramid (``envelope.Envelope.view``), so a
three-hour recording costs the same to draw as a three-minute one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QCursor
from PySide6.QtWidgets import QToolTip, QVBoxLayout, QWidget

from harp_desktop.ui import colors
from harp_desktop.ui.envelope import Envelope
from harp_desktop.ui.timefmt import clock, span_text

LANE_H = 0.34
LANES = {"speaker": -1.48, "event": -1.88, "emotion": -2.28}  # y0 of each lane
Y_MIN, Y_MAX = -2.32, 1.04


@dataclass
class LaneSpan:
    lane: str  # "speaker", "event" or "emotion"
    start_s: float
    end_s: float
    color: str
    text: str  # tooltip


class TimeAxis(pg.AxisItem):
    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph API)
        return [clock(v, tenths=spacing < 1) for v in values]


class _ViewBox(pg.ViewBox):
    clicked = Signal(float)
    dragged = Signal(float, float, bool)  # start, current, finished

    def __init__(self) -> None:
        super().__init__(enableMenu=False)
        self.setMouseEnabled(x=True, y=False)

    def mouseClickEvent(self, ev) -> None:  # noqa: N802 (Qt API)
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.clicked.emit(self.mapSceneToView(ev.scenePos()).x())
        else:
            super().mouseClickEvent(ev)

    def mouseDragEvent(self, ev, axis=None) -> None:  # noqa: N802 (Qt API)
        ev.accept()
        if ev.button() == Qt.MouseButton.LeftButton:
            a = self.mapSceneToView(ev.buttonDownScenePos()).x()
            b = self.mapSceneToView(ev.scenePos()).x()
            self.dragged.emit(a, b, ev.isFinish())
        else:  # right or middle button: pan in time
            dx = self.mapSceneToView(ev.lastScenePos()).x() - self.mapSceneToView(ev.scenePos()).x()
            self.translateBy(x=dx)


TimeViewBox = _ViewBox  # shared with the spectrogram and tier lanes (ui/spectrogram.py, ui/tiers.py)


class WaveformView(QWidget):
    seekRequested = Signal(float)
    selectionChanged = Signal(object)  # (start_s, end_s) or None
    drawn = Signal()
    # Issue 19 hooks: the lanes under the waveform (spectrogram, tiers) mirror these.
    envelopeSet = Signal(object)  # the Envelope (its .audio is the decoded memmap), or None when cleared
    evidenceSet = Signal(object)  # list of (start_s, end_s)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._env: Envelope | None = None
        self._gain = 1.0
        self._spans: list[LaneSpan] = []
        self._lane_items: list[pg.GraphicsObject] = []
        self._evidence_item: pg.BarGraphItem | None = None
        self._selection: tuple[float, float] | None = None

        self.vb = _ViewBox()
        self.plot = pg.PlotWidget(viewBox=self.vb, axisItems={"bottom": TimeAxis("bottom")}, background="w")
        self.plot.setAntialiasing(False)
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.showGrid(x=True, y=False, alpha=0.15)
        left = item.getAxis("left")
        left.setTicks([[(0.0, "audio"), *((y + LANE_H / 2, name + "s" if name != "emotion" else "emotion")
                                          for name, y in LANES.items())], []])
        left.setWidth(62)
        left.setPen(pg.mkPen("#9e9e9e"))
        left.setTextPen(pg.mkPen("#424242"))
        item.getAxis("bottom").setPen(pg.mkPen("#9e9e9e"))
        item.getAxis("bottom").setTextPen(pg.mkPen("#424242"))
        self.vb.setYRange(Y_MIN, Y_MAX, padding=0)
        self.vb.setLimits(yMin=Y_MIN, yMax=Y_MAX)
        for y in (-1.07, *(y0 - 0.03 for y0 in LANES.values())):
            sep = pg.InfiniteLine(pos=y, angle=0, pen=pg.mkPen("#e0e0e0"))
            sep.setZValue(-20)
            self.vb.addItem(sep, ignoreBounds=True)

        self._curve = pg.PlotCurveItem(pen=pg.mkPen(colors.WAVEFORM, width=1), skipFiniteCheck=True)
        self.vb.addItem(self._curve)
        self._region = pg.LinearRegionItem(brush=pg.mkBrush(QColor(colors.SELECTION).lighter(120).name() + "55"),
                                           pen=pg.mkPen(colors.SELECTION, width=1))
        self._region.setZValue(5)
        self._region.hide()
        self._region.sigRegionChangeFinished.connect(self._region_moved)
        self.vb.addItem(self._region, ignoreBounds=True)
        self.playhead = pg.InfiniteLine(pos=0.0, angle=90, movable=True, pen=pg.mkPen(colors.PLAYHEAD, width=2),
                                        hoverPen=pg.mkPen(colors.PLAYHEAD, width=4))
        self.playhead.setZValue(10)
        self.playhead.sigDragged.connect(lambda line: self.seekRequested.emit(float(line.value())))
        self.vb.addItem(self.playhead, ignoreBounds=True)

        self.vb.clicked.connect(self._clicked)
        self.vb.dragged.connect(self._dragged)
        self.vb.sigXRangeChanged.connect(self._schedule_redraw)
        self.vb.sigResized.connect(self._schedule_redraw)
        self.plot.scene().sigMouseMoved.connect(self._hover)
        self._redraw_timer = QTimer(self)
        self._redraw_timer.setSingleShot(True)
        self._redraw_timer.setInterval(0)
        self._redraw_timer.timeout.connect(self._redraw)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self.plot.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setMinimumHeight(170)
        self.setAccessibleName("Waveform")
        self.plot.setToolTip("Click to seek, drag to select, wheel to zoom, right-drag to pan.\n"
                             "Lanes below the waveform: speakers, sound events, emotions (hover for details).")

    # -- data -----------------------------------------------------------------------
    @property
    def has_waveform(self) -> bool:
        return self._env is not None and self._curve.xData is not None and len(self._curve.xData) > 0

    @property
    def duration(self) -> float:
        return self._env.duration_s if self._env else 0.0

    def clear(self) -> None:
        self._env = None
        self.envelopeSet.emit(None)
        self._curve.setData([], [])
        self.set_lanes([])
        self.set_evidence([])
        self.clear_selection()
        self.playhead.setValue(0.0)

    def set_envelope(self, env: Envelope, keep_view: bool = False) -> None:
        self._env = env
        top = max(abs(float(np.min(env.mins[-1], initial=0.0))), abs(float(np.max(env.maxs[-1], initial=0.0))))
        self._gain = min(8.0, 0.95 / top) if top > 1e-4 else 1.0  # quiet recordings still read as speech
        dur = max(env.duration_s, 0.01)
        self.vb.setLimits(xMin=0.0, xMax=dur, minXRange=min(0.02, dur), maxXRange=dur)
        if not keep_view:
            self.vb.setXRange(0.0, dur, padding=0)
        self._redraw()
        self.envelopeSet.emit(env)

    def set_lanes(self, spans: list[LaneSpan]) -> None:
        for it in self._lane_items:
            self.vb.removeItem(it)
        self._lane_items = []
        self._spans = sorted(spans, key=lambda s: s.start_s)
        groups: dict[tuple[str, str], list[LaneSpan]] = {}
        for s in self._spans:
            groups.setdefault((s.lane, s.color), []).append(s)
        for (lane, color), group in groups.items():
            x0 = np.array([s.start_s for s in group])
            x1 = np.maximum(np.array([s.end_s for s in group]), x0 + 1e-3)
            # A cosmetic 1 px pen in the same colour: a 0.1 s cough stays visible in a 3-hour view.
            bars = pg.BarGraphItem(x0=x0, x1=x1, y0=LANES[lane], height=LANE_H, brush=pg.mkBrush(color),
                                   pen=pg.mkPen(color, width=1, cosmetic=True))
            self.vb.addItem(bars)
            self._lane_items.append(bars)

    def set_evidence(self, spans: list[tuple[float, float]]) -> None:
        if self._evidence_item is not None:
            self.vb.removeItem(self._evidence_item)
            self._evidence_item = None
        self.evidenceSet.emit(list(spans))
        if not spans:
            return
        x0 = np.array([a for a, _ in spans], dtype=float)
        x1 = np.maximum(np.array([b for _, b in spans], dtype=float), x0 + 0.05)
        self._evidence_item = pg.BarGraphItem(x0=x0, x1=x1, y0=Y_MIN, height=Y_MAX - Y_MIN,
                                              brush=pg.mkBrush(QColor(colors.EVIDENCE).name() + "50"),
                                              pen=pg.mkPen(colors.EVIDENCE, width=1, cosmetic=True))
        self._evidence_item.setZValue(-10)
        self.vb.addItem(self._evidence_item, ignoreBounds=True)

    # -- playhead, selection, view ----------------------------------------------------
    def set_position(self, t: float) -> None:
        self.playhead.blockSignals(True)
        self.playhead.setValue(t)
        self.playhead.blockSignals(False)

    def ensure_visible(self, t: float) -> None:
        """Page the view so ``t`` stays on screen (follow mode while playing)."""
        x0, x1 = self.vb.viewRange()[0]
        width = x1 - x0
        if t < x0 or t > x1 - 0.02 * width:
            start = max(0.0, min(t - 0.1 * width, self.duration - width))
            self.vb.setXRange(start, start + width, padding=0)

    def show_span(self, start_s: float, end_s: float) -> None:
        """Make a span visible, zooming out if it does not fit."""
        x0, x1 = self.vb.viewRange()[0]
        if start_s >= x0 and end_s <= x1:
            return
        width = max(x1 - x0, (end_s - start_s) * 1.5)
        start = max(0.0, min((start_s + end_s) / 2 - width / 2, self.duration - width))
        self.vb.setXRange(start, start + width, padding=0)

    def zoom(self, factor: float) -> None:
        """factor < 1 zooms in, around the playhead when it is on screen."""
        x0, x1 = self.vb.viewRange()[0]
        t = float(self.playhead.value())
        center = t if x0 <= t <= x1 else (x0 + x1) / 2
        self.vb.scaleBy(x=factor, y=1.0, center=QPointF(center, 0.0))

    def fit(self) -> None:
        if self._env:
            self.vb.setXRange(0.0, self.duration, padding=0)

    def selection(self) -> tuple[float, float] | None:
        return self._selection

    def set_selection(self, start_s: float, end_s: float) -> None:
        if self._env is None:
            return
        a, b = sorted((max(0.0, start_s), min(self.duration, end_s)))
        if b - a < 0.05:
            self.clear_selection()
            return
        self._region.blockSignals(True)
        self._region.setRegion((a, b))
        self._region.blockSignals(False)
        self._region.show()
        self._selection = (a, b)
        self.selectionChanged.emit(self._selection)

    def clear_selection(self) -> None:
        had = self._selection is not None
        self._region.hide()
        self._selection = None
        if had:
            self.selectionChanged.emit(None)

    # -- internals --------------------------------------------------------------------
    def _clicked(self, t: float) -> None:
        if self._env is None:
            return
        self.clear_selection()
        self.seekRequested.emit(min(max(0.0, t), self.duration))

    def _dragged(self, a: float, b: float, finished: bool) -> None:
        if self._env is None:
            return
        lo, hi = sorted((max(0.0, a), min(self.duration, b)))
        self._region.blockSignals(True)
        self._region.setRegion((lo, hi))
        self._region.blockSignals(False)
        self._region.show()
        if finished:
            self.set_selection(lo, hi)

    def _region_moved(self) -> None:
        a, b = self._region.getRegion()
        self.set_selection(a, b)

    def _schedule_redraw(self, *_: object) -> None:
        self._redraw_timer.start()

    def _redraw(self) -> None:
        if self._env is None:
            return
        x0, x1 = self.vb.viewRange()[0]
        pad = (x1 - x0) * 0.25
        pixels = max(200.0, self.vb.width() * self.devicePixelRatioF())
        x, y = self._env.view(x0 - pad, x1 + pad, int(pixels * 1.5))
        self._curve.setData(x, y * self._gain)
        self.drawn.emit()

    def _hover(self, scene_pos) -> None:
        if not self._spans or not self.vb.sceneBoundingRect().contains(scene_pos):
            return
        p = self.vb.mapSceneToView(scene_pos)
        lane = next((name for name, y0 in LANES.items() if y0 <= p.y() <= y0 + LANE_H), None)
        if lane is None:
            QToolTip.hideText()
            return
        x0, x1 = self.vb.viewRange()[0]
        slack = (x1 - x0) / max(1.0, self.vb.width()) * 2  # 2 px: thin events stay hoverable
        hits = [s for s in self._spans if s.lane == lane and s.start_s - slack <= p.x() <= s.end_s + slack]
        if hits:
            text = "\n".join(f"{s.text}  {span_text(s.start_s, s.end_s)}" for s in hits[:4])
            QToolTip.showText(QCursor.pos(), text, self.plot)
        else:
            QToolTip.hideText()
