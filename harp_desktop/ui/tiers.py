"""Annotation tiers under the spectrogram: one lane per annotator (or per question), each
hideable, time-linked to the waveform, with the agreement of the visible tiers.

Grouping and agreement are ``evaluate/tiers.py``; this draws them. A click on a span
seeks to it and makes it the span the keyboard commands act on (``spanClicked``); a
click elsewhere seeks, a drag selects, as on the waveform.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCursor
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.evaluate import tiers as model
from harp_desktop.ui import colors
from harp_desktop.ui.spectrogram import AXIS_WIDTH
from harp_desktop.ui.timefmt import span_text
from harp_desktop.ui.waveform import TimeViewBox, WaveformView

ROW_PX = 24
MAX_TEXTS = 150  # labels drawn inside spans; beyond that the hover tooltip tells


class _TierBox(TimeViewBox):
    clickedAt = Signal(float, float)

    def mouseClickEvent(self, ev) -> None:  # noqa: N802 (Qt API)
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            p = self.mapSceneToView(ev.scenePos())
            self.clickedAt.emit(p.x(), p.y())
        else:
            super().mouseClickEvent(ev)


class TiersView(QWidget):
    spanClicked = Signal(object)  # the span's row (dict)
    visibleChanged = Signal()

    def __init__(self, waveform: WaveformView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.waveform = waveform
        self.rows: list[dict] = []
        self.by = "annotator"
        self.hidden: set[str] = set()
        self.current_id: int | None = None
        self._layout: list[tuple[str, float, float, list[dict]]] = []  # (tier, y0, height, spans) per sub-row
        self._items: list[pg.GraphicsObject] = []
        self._texts: list[pg.TextItem] = []

        self.menu_btn = QToolButton(self)
        self.menu_btn.setText("Tiers")
        self.menu_btn.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_btn.setToolTip("Show or hide each tier")
        self.tier_menu = QMenu(self)
        self.menu_btn.setMenu(self.tier_menu)
        self.tier_menu.aboutToShow.connect(self.menu_actions)
        self.group_box = QComboBox(self)
        self.group_box.addItem("by annotator", "annotator")
        self.group_box.addItem("by question", "question")
        self.group_box.setToolTip("One tier per annotator, or one per question (label set)")
        self.agreement = QLabel("", self)
        self.agreement.setStyleSheet("color: #37474f")
        self.agreement.setToolTip("Span-overlap F1 (and time F1) between the visible tiers, as "
                                  "`harp questions agreement` computes it")
        head = QHBoxLayout()
        head.setContentsMargins(4, 0, 4, 0)
        head.addWidget(self.menu_btn)
        head.addWidget(self.group_box)
        head.addWidget(self.agreement, 1)

        self.vb = _TierBox()
        self.plot = pg.PlotWidget(viewBox=self.vb, background="w")
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.hideAxis("bottom")
        left = item.getAxis("left")
        left.setWidth(AXIS_WIDTH)
        left.setPen(pg.mkPen("#9e9e9e"))
        left.setTextPen(pg.mkPen("#424242"))
        self.vb.setXLink(waveform.vb)
        self.vb.setMouseEnabled(x=True, y=False)
        self.playhead = pg.InfiniteLine(pos=0.0, angle=90, pen=pg.mkPen(colors.PLAYHEAD, width=2))
        self.playhead.setZValue(10)
        self.vb.addItem(self.playhead, ignoreBounds=True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(head)
        layout.addWidget(self.plot, 1)
        self.setAccessibleName("Annotation tiers")

        self.vb.clickedAt.connect(self._clicked)
        self.vb.dragged.connect(waveform.vb.dragged)
        self.group_box.currentIndexChanged.connect(lambda _: self.set_grouping(self.group_box.currentData()))
        self.plot.scene().sigMouseMoved.connect(self._hover)
        self._text_timer = QTimer(self)
        self._text_timer.setSingleShot(True)
        self._text_timer.setInterval(30)
        self._text_timer.timeout.connect(self._place_texts)
        self.vb.sigXRangeChanged.connect(lambda *_: self._text_timer.start())
        self._redraw()

    # -- state ------------------------------------------------------------------------
    def tier_names(self) -> list[str]:
        return list(model.group(self.rows, self.by))

    def visible_tiers(self) -> list[str]:
        return [n for n in self.tier_names() if n not in self.hidden]

    def set_spans(self, rows: list[dict]) -> None:
        self.rows = list(rows)
        self._redraw()

    def set_grouping(self, by: str) -> None:
        if by != self.by:
            self.by = by
            self.hidden = set()
            i = self.group_box.findData(by)
            if i != self.group_box.currentIndex():
                self.group_box.setCurrentIndex(i)
            self._redraw()

    def set_tier_visible(self, name: str, on: bool) -> None:
        (self.hidden.discard if on else self.hidden.add)(name)
        self._redraw()
        self.visibleChanged.emit()

    def set_current(self, span_id: int | None) -> None:
        if span_id != self.current_id:
            self.current_id = span_id
            self._redraw()

    def set_position(self, t: float) -> None:
        self.playhead.setValue(t)

    def visible_spans(self) -> list[dict]:
        shown = set(self.visible_tiers())
        return [r for r in self.rows if model.tier_name(r, self.by) in shown]

    def menu_actions(self) -> list[QAction]:
        """The Tiers menu, rebuilt as it opens (never from inside one of its own actions' toggles)."""
        self.tier_menu.clear()
        for name in self.tier_names():
            act = QAction(name, self.tier_menu)
            act.setCheckable(True)
            act.setChecked(name not in self.hidden)
            act.toggled.connect(lambda on, n=name: self.set_tier_visible(n, on))
            self.tier_menu.addAction(act)
        return self.tier_menu.actions()

    # -- drawing ---------------------------------------------------------------------------
    def _color(self, row: dict, names: list[str]) -> str:
        if self.by == "annotator":
            return colors.tag_color(row["query_id"])
        return colors.speaker_color(names.index(row["annotator"]) if row["annotator"] in names else None)

    def _redraw(self) -> None:
        for it in self._items:
            self.vb.removeItem(it)
        self._items = []
        groups = model.group(self.rows, self.by)
        annotators = list(model.group(self.rows, "annotator"))
        visible = [n for n in groups if n not in self.hidden]
        self._layout = []
        ticks = []
        y = 0.0
        for name in visible:
            lanes = groups[name]
            h = 0.8 / len(lanes)
            top = y - 0.1
            for i, lane in enumerate(lanes):
                self._layout.append((name, top - (i + 1) * h, h, lane))
            ticks.append((y - 0.5, name if len(name) <= 9 else name[:8] + "\u2026"))
            y -= 1.0
        for _name, y0, h, lane in self._layout:
            by_color: dict[str, list[dict]] = {}
            for r in lane:
                by_color.setdefault(self._color(r, annotators), []).append(r)
            for color, rs in by_color.items():
                x0 = np.array([r["start_s"] for r in rs])
                x1 = np.maximum(np.array([r["end_s"] for r in rs]), x0 + 1e-3)
                bars = pg.BarGraphItem(x0=x0, x1=x1, y0=y0, height=h * 0.92, brush=pg.mkBrush(color + "b0"),
                                       pen=pg.mkPen(color, width=1, cosmetic=True))
                self.vb.addItem(bars)
                self._items.append(bars)
            cur = [r for r in lane if r["id"] == self.current_id]
            if cur:
                r = cur[0]
                box = pg.BarGraphItem(x0=[r["start_s"]], x1=[max(r["end_s"], r["start_s"] + 1e-3)], y0=y0,
                                      height=h * 0.92, brush=pg.mkBrush(None),
                                      pen=pg.mkPen("#111111", width=2, cosmetic=True))
                box.setZValue(2)
                self.vb.addItem(box)
                self._items.append(box)
        rows = max(1, len(visible))
        self.plot.getPlotItem().getAxis("left").setTicks([ticks, []])
        self.vb.setLimits(yMin=-rows, yMax=0.0)
        self.vb.setYRange(-rows, 0.0, padding=0)
        self.setFixedHeight(28 + ROW_PX * rows + 6)
        self.agreement.setText("   ".join(model.agreement_lines(self.rows, self.by, visible)))
        self._place_texts()

    def _place_texts(self) -> None:
        for t in self._texts:
            self.vb.removeItem(t)
        self._texts = []
        x0, x1 = self.vb.viewRange()[0]
        px = max(1.0, self.vb.width()) / max(x1 - x0, 1e-9)  # pixels per second
        for _name, y0, h, lane in self._layout:
            for r in lane:
                if len(self._texts) >= MAX_TEXTS:
                    return
                if r["end_s"] < x0 or r["start_s"] > x1 or (r["end_s"] - r["start_s"]) * px < 36:
                    continue
                text = r["label"] or (r["query_id"] if self.by == "annotator" else r["annotator"])
                t = pg.TextItem(text, color="#111111", anchor=(0, 0.5))
                t.setPos(QPointF(max(r["start_s"], x0), y0 + h * 0.46))
                t.setZValue(3)
                self.vb.addItem(t, ignoreBounds=True)
                self._texts.append(t)

    # -- mouse ----------------------------------------------------------------------------
    def span_at(self, t: float, y: float) -> dict | None:
        x0, x1 = self.vb.viewRange()[0]
        slack = (x1 - x0) / max(1.0, self.vb.width()) * 2  # 2 px: thin spans stay clickable
        for _name, y0, h, lane in self._layout:
            if y0 <= y <= y0 + h:
                hits = [r for r in lane if r["start_s"] - slack <= t <= r["end_s"] + slack]
                if hits:
                    return min(hits, key=lambda r: r["end_s"] - r["start_s"])
        return None

    def _clicked(self, t: float, y: float) -> None:
        row = self.span_at(t, y)
        if row is None:
            self.waveform.vb.clicked.emit(t)
        else:
            self.spanClicked.emit(row)

    def _hover(self, scene_pos) -> None:
        if not self.vb.sceneBoundingRect().contains(scene_pos):
            return
        p = self.vb.mapSceneToView(scene_pos)
        row = self.span_at(p.x(), p.y())
        if row is None:
            QToolTip.hideText()
            return
        QToolTip.showText(QCursor.pos(), f"{row['query_id']}: {row['label'] or 'evidence'} ({row['annotator']})  "
                                         f"{span_text(row['start_s'], row['end_s'])}", self.plot)
