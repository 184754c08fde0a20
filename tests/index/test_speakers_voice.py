"""Voice cues: channel band-limiting and picking the segments in an example clip's voice."""

from __future__ import annotations

import numpy as np

from harp_desktop.agent.settle import CAM_STANDS_OUT, CAM_SURE
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


def test_a_best_turn_that_does_not_stand_out_from_the_recording_is_no_voice() -> None:
    """A clip of one synthesiser matches its sibling voices throughout a recording: the best turn reaches the match
    but sits no higher above the recording's typical turn than any voice does -- not found (stop 33)."""
    from harp_desktop.index.speakers import voice_present

    presence = (CAM_STANDS_OUT, CAM_SURE)
    labels = ["A", "A", "B", "B", "C", "C"]
    siblings = [0.55, 0.50, 0.45, 0.44, 0.42, 0.40]  # median 0.445: the best stands out by 0.105
    assert voice_present(siblings, labels, 0.47)  # the match alone finds it
    assert not voice_present(siblings, labels, 0.47, presence)
    assert pick_voice(list(zip(siblings, labels, range(6), strict=True)), 0.47, 0.10, presence) == []
    own = [0.55, 0.50, 0.10, 0.08, 0.05, 0.02]  # the same best over a recording of other voices: it stands out
    assert voice_present(own, labels, 0.47, presence)
    assert voice_present([0.75, 0.74, 0.72, 0.7, 0.7, 0.7], labels, 0.47, presence)  # sure outright
    # only a veto: a best below the match is not found however much it stands out
    assert not voice_present([0.40, 0.02, 0.01, 0.0, 0.0, 0.0], labels, 0.47, presence)


def test_a_recording_of_one_voice_or_few_turns_is_judged_by_the_match_alone() -> None:
    from harp_desktop.index.speakers import voice_present

    presence = (CAM_STANDS_OUT, CAM_SURE)
    assert voice_present([0.55, 0.50, 0.52, 0.53, 0.51, 0.5], ["A"] * 6, 0.47, presence)  # a monologue: no others
    assert voice_present([0.55, 0.50, 0.52], ["A", "B", "C"], 0.47, presence)  # three turns: no typical turn
