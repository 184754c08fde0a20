"""Voice cues: channel band-limiting and picking the segments in an example clip's voice."""

from __future__ import annotations

import numpy as np

from harp_desktop.index.speakers import band_limit, is_phone_band, pick_voice

SR = 16000


def test_phone_band_detection_and_band_limit() -> None:
    x = np.random.default_rng(0).standard_normal(2 * SR).astype(np.float32) * 0.1
    assert not is_phone_band(x)
    y = band_limit(x)
    assert y.shape == x.shape and y.dtype == np.float32
    assert is_phone_band(y)
    spec = np.abs(np.fft.rfft(y)) ** 2
    f = np.fft.rfftfreq(len(y), 1 / SR)
    assert spec[f > 5000].sum() < 1e-3 * spec[(f > 500) & (f < 3000)].sum()


def test_pick_voice_adds_the_best_speakers_weaker_turns_only() -> None:
    scored = [(0.95, "A", "a_long"), (0.93, "A", "a_long2"), (0.78, "A", "a_short_first"),
              (0.70, "A", "a_below_match"), (0.80, "B", "b_other"), (0.91, "B", "b_close")]
    got = pick_voice(scored, match=0.745, near_best=0.06)
    assert set(got) == {"a_long", "a_long2", "a_short_first", "b_close"}  # b_close: near the best itself
    assert pick_voice([(0.7, "A", "x")], match=0.745, near_best=0.06) == []
    assert pick_voice([], match=0.745, near_best=0.06) == []
    assert pick_voice([(0.9, None, "x"), (0.8, None, "y")], match=0.745, near_best=0.06) == ["x"]
