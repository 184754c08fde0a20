"""The report's waveform strip: a min/max envelope of the decoded audio cache (read through
a memmap, in bounded blocks) drawn with reportlab graphics, evidence spans shaded, cited
spans darker, annotators' ground truth as a lane underneath."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
from reportlab.graphics.shapes import Drawing, Line, Polygon, Rect, String
from reportlab.lib import colors

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.retrieval.localize import format_clock

WAVE, EVIDENCE, CITED, TRUTH = (colors.HexColor(c) for c in ("#455a64", "#ffe3a6", "#f39c12", "#2e7d32"))
_BLOCK = 1 << 22  # samples read at a time: 16 MB, whatever the recording's length
MIN_SPAN_PT = 1.5  # a 2 s cough in a 3-hour strip stays visible


def envelope(audio: np.ndarray, t0: float, t1: float, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-bin min and max of the samples in [t0, t1)."""
    a, b = max(0, int(t0 * SAMPLE_RATE)), min(len(audio), int(t1 * SAMPLE_RATE))
    n = b - a
    if n <= 0 or bins <= 0:
        return np.zeros(0, np.float32), np.zeros(0, np.float32)
    per = max(1, n // bins)
    bins = n // per
    mins, maxs = np.empty(bins, np.float32), np.empty(bins, np.float32)
    step = max(1, _BLOCK // per)
    for i in range(0, bins, step):
        j = min(bins, i + step)
        block = np.asarray(audio[a + i * per : a + j * per], dtype=np.float32).reshape(j - i, per)
        mins[i:j], maxs[i:j] = block.min(axis=1), block.max(axis=1)
    return mins, maxs


_CACHE: OrderedDict[tuple, tuple[np.ndarray, np.ndarray]] = OrderedDict()


def cached_envelope(audio: np.ndarray, t0: float, t1: float, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """``envelope`` memoised for decoded caches (named by the recording's sha256, never rewritten):
    a report of many answers about a 10-hour recording reads the audio once for the overview."""
    name = getattr(audio, "filename", None)
    if not name:
        return envelope(audio, t0, t1, bins)
    key = (str(name), len(audio), round(t0, 3), round(t1, 3), bins)
    if key not in _CACHE:
        _CACHE[key] = envelope(audio, t0, t1, bins)
        while len(_CACHE) > 16:
            _CACHE.popitem(last=False)
    return _CACHE[key]


def _tick_step(span_s: float, max_ticks: int = 8) -> float:
    for step in (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200):
        if span_s / step <= max_ticks:
            return float(step)
    return span_s / max_ticks


def strip(audio: np.ndarray | None, t0: float, t1: float, evidence: list[tuple[float, float]],
          cited: list[tuple[float, float]], truth: list[tuple[float, float]], width: float,
          height: float = 66.0, font: str = "Helvetica", marks: list[tuple[float, str]] | None = None) -> Drawing:
    """A drawing of [t0, t1]: shaded evidence, cited spans, the waveform, a truth lane, a time axis,
    and ``marks`` (e.g. "E3" at its evidence's start) in a row above the waveform."""
    d = Drawing(width, height)
    axis_h, lane_h, mark_h = 10.0, (7.0 if truth else 0.0), (8.0 if marks else 0.0)
    y0 = axis_h + lane_h + (2.0 if truth else 0.0)
    wave_h = height - y0 - mark_h
    span = max(t1 - t0, 1e-6)

    def x(t: float) -> float:
        return (min(max(t, t0), t1) - t0) / span * width

    def box(s: float, e: float, y: float, h: float, fill) -> None:
        if e < t0 or s > t1:
            return
        xa, xb = x(s), x(e)
        if xb - xa < MIN_SPAN_PT:
            xa = max(0.0, (xa + xb - MIN_SPAN_PT) / 2)
            xb = min(width, xa + MIN_SPAN_PT)
        d.add(Rect(xa, y, xb - xa, h, fillColor=fill, strokeColor=None))

    d.add(Rect(0, y0, width, wave_h, fillColor=colors.HexColor("#fafafa"), strokeColor=colors.HexColor("#cfd8dc"),
               strokeWidth=0.4))
    for s, e in evidence:
        box(s, e, y0, wave_h, EVIDENCE)
    for s, e in cited:
        box(s, e, y0, wave_h, CITED)
    mid = y0 + wave_h / 2
    if audio is not None and len(audio):
        mins, maxs = cached_envelope(audio, t0, t1, int(width * 2))
        if len(mins):
            peak = float(max(np.abs(mins).max(), np.abs(maxs).max(), 1e-4))
            xs = np.linspace(0, width, len(mins))
            half = wave_h / 2 * 0.92
            top = [v for xi, m in zip(xs, maxs, strict=True) for v in (float(xi), mid + half * float(m) / peak)]
            bot = [v for xi, m in zip(xs[::-1], mins[::-1], strict=True) for v in (float(xi), mid + half * float(m) / peak)]
            d.add(Polygon(top + bot, fillColor=WAVE, strokeColor=WAVE, strokeWidth=0.2))
    else:
        d.add(String(width / 2, mid - 3, "waveform unavailable (decoded audio cache missing)", fontName=font,
                     fontSize=7, fillColor=colors.grey, textAnchor="middle"))
    if truth:
        d.add(Rect(0, axis_h, width, lane_h, fillColor=colors.HexColor("#eef5ee"), strokeColor=None))
        for s, e in truth:
            box(s, e, axis_h, lane_h, TRUTH)
    last = -1e9
    for t, text in sorted(m for m in marks or [] if t0 <= m[0] <= t1):
        xt = x(t)
        if xt - last >= 4.5 * len(text):  # skip a label that would overprint its neighbour
            d.add(String(min(xt, width - 3 * len(text)), y0 + wave_h + 1.5, text, fontName=font, fontSize=5.8,
                         fillColor=colors.HexColor("#8d5a00")))
            last = xt
    step = _tick_step(span)
    t = np.ceil(t0 / step) * step
    while t <= t1 + 1e-6:
        xt = x(t)
        d.add(Line(xt, axis_h - 2, xt, axis_h, strokeColor=colors.grey, strokeWidth=0.4))
        anchor = "start" if xt < 12 else ("end" if xt > width - 12 else "middle")
        d.add(String(xt, 1, format_clock(t), fontName=font, fontSize=6, fillColor=colors.HexColor("#37474f"),
                     textAnchor=anchor))
        t += step
    return d


def zoom_window(spans: list[tuple[float, float]], duration_s: float) -> tuple[float, float] | None:
    """A closer view around the evidence when it sits in a small part of a long recording."""
    if not spans or duration_s < 60:
        return None
    a, b = min(s for s, _ in spans), max(e for _, e in spans)
    pad = max(2.0, 0.1 * (b - a))
    a, b = max(0.0, a - pad), min(duration_s, b + pad)
    return (a, b) if (b - a) < 0.5 * duration_s else None
