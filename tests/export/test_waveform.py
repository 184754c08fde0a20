"""The report's waveform strip: the min/max envelope read in blocks, its cache, the zoom rule."""

from __future__ import annotations

import numpy as np
from reportlab.graphics.shapes import Polygon, Rect, String

from harp_desktop.audio.decode import open_cache
from harp_desktop.export import waveform


def test_envelope_matches_numpy_across_block_boundaries(monkeypatch):
    x = np.random.default_rng(1).standard_normal(16000 * 10).astype(np.float32)
    monkeypatch.setattr(waveform, "_BLOCK", 3000)  # many blocks, none aligned with the bins
    mins, maxs = waveform.envelope(x, 2.0, 7.0, 100)
    part = x[32000:112000].reshape(100, 800)
    assert np.array_equal(mins, part.min(axis=1)) and np.array_equal(maxs, part.max(axis=1))
    assert len(waveform.envelope(x, 9.99, 20.0, 1000)[0]) == 160  # fewer samples than bins: one per sample
    assert len(waveform.envelope(x, 5.0, 5.0, 10)[0]) == 0


def test_cached_envelope_reads_a_decoded_cache_once(tmp_path, monkeypatch):
    path = tmp_path / ("ab" * 32 + ".f32")
    np.linspace(-1, 1, 16000 * 4, dtype=np.float32).tofile(path)
    audio = open_cache(path)
    calls = []
    real = waveform.envelope
    monkeypatch.setattr(waveform, "envelope", lambda *a: calls.append(a[1:]) or real(*a))
    first = waveform.cached_envelope(audio, 0.0, 4.0, 50)
    again = waveform.cached_envelope(audio, 0.0, 4.0, 50)
    assert first is again and len(calls) == 1
    assert first[0][0] == -1.0 and first[1][-1] == 1.0


def test_strip_draws_spans_truth_marks_and_says_when_audio_is_missing():
    x = np.sin(np.linspace(0, 300, 16000 * 60)).astype(np.float32)
    d = waveform.strip(x, 0.0, 60.0, [(10, 12), (40, 41)], [(40, 41)], [(39.5, 40.2)], 400, marks=[(10, "E1"), (40, "E2")])
    shapes = d.contents
    assert any(isinstance(s, Polygon) for s in shapes)
    assert sum(isinstance(s, Rect) and s.fillColor == waveform.EVIDENCE for s in shapes) == 2
    assert sum(isinstance(s, Rect) and s.fillColor == waveform.TRUTH for s in shapes) == 1
    assert {s.text for s in shapes if isinstance(s, String)} >= {"E1", "E2", "00:00", "01:00"}
    empty = waveform.strip(None, 0.0, 60.0, [], [], [], 400)
    assert any(isinstance(s, String) and "unavailable" in s.text for s in empty.contents)


def test_zoom_only_when_the_evidence_sits_in_a_small_part():
    assert waveform.zoom_window([(100, 110), (130, 140)], 3600) == (96.0, 144.0)
    assert waveform.zoom_window([(10, 20), (3000, 3010)], 3600) is None  # spread out: the overview is enough
    assert waveform.zoom_window([(10, 20)], 45) is None  # short recordings need no zoom
