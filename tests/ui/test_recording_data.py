"""The emotion lane's tooltip carries the segment's stored arousal/valence (issue 18)."""

from __future__ import annotations

from harp_desktop.ui.recording_data import TagSpan, _dims_of

SEGMENTS = [{"start_s": 0.0, "end_s": 6.0, "emotion": {"label": "angry", "score": 0.9, "arousal": 0.82, "valence": 0.2}},
            {"start_s": 7.0, "end_s": 9.0, "emotion": {"label": "calm", "score": 0.6, "arousal": None, "valence": None}}]


def test_an_emotion_tag_and_its_window_read_the_covering_segment():
    whole = {"kind": "emotion", "start_s": 0.0, "end_s": 6.0}
    window = {"kind": "emotion", "start_s": 1.5, "end_s": 4.5}
    assert _dims_of(whole, SEGMENTS) == _dims_of(window, SEGMENTS) == (0.82, 0.2)
    assert _dims_of({"kind": "event", "start_s": 1.0, "end_s": 2.0}, SEGMENTS) == (None, None)
    assert _dims_of({"kind": "emotion", "start_s": 7.0, "end_s": 9.0}, SEGMENTS) == (None, None)  # older library


def test_tooltip_says_arousal_and_valence_when_known():
    t = TagSpan("emotion", "angry", 0.0, 6.0, 0.9, 0.82, 0.2)
    assert t.tooltip == "emotion: angry (0.90), arousal 0.82, valence 0.20"
    assert TagSpan("event", "cough", 1.0, 1.4, 0.7).tooltip == "event: cough (0.70)"
