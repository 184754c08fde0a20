"""Annotated spans drawn on the waveform as pyqtgraph LinearRegionItems (annotation mode)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor

MINE, OTHERS = "#2e7d32", "#9e9e9e"


class SpanOverlay:
    """One LinearRegionItem per span on the waveform; the annotator's own spans are resizable."""

    def __init__(self, waveform, on_moved) -> None:
        self.vb = waveform.vb
        self.on_moved = on_moved
        self.items: dict[int, pg.LinearRegionItem] = {}

    def set_spans(self, spans: list[dict], annotator: str) -> None:
        # Items are kept and moved rather than rebuilt: the one being dragged must survive
        # the refresh its own resize triggers.
        wanted = {s["id"]: s for s in spans}
        for sid in [k for k, it in self.items.items() if k not in wanted
                    or it.movable != (wanted[k]["annotator"] == annotator)]:
            self.vb.removeItem(self.items.pop(sid))
        for s in spans:
            item = self.items.get(s["id"])
            if item is not None:
                item.blockSignals(True)
                item.setRegion((s["start_s"], s["end_s"]))
                item.blockSignals(False)
                continue
            mine = s["annotator"] == annotator
            color = QColor(MINE if mine else OTHERS)
            item = pg.LinearRegionItem((s["start_s"], s["end_s"]), movable=mine,
                                       brush=pg.mkBrush(color.name() + "40"), pen=pg.mkPen(color, width=2))
            item.setZValue(4)
            item.setToolTip(f"{s['label'] or 'evidence'} ({s['annotator']})")
            if mine:
                item.sigRegionChangeFinished.connect(lambda it, sid=s["id"]: self.on_moved(sid, *it.getRegion()))
            self.vb.addItem(item, ignoreBounds=True)
            self.items[s["id"]] = item

    def clear(self) -> None:
        for item in self.items.values():
            self.vb.removeItem(item)
        self.items = {}
