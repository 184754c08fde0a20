"""Arousal/valence scale, the shipped dimension head, and the emotion-by-example similarity (issue 18)."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from harp_desktop import weights
from harp_desktop.index.emotion import EmotionModel
from harp_desktop.index.emotion_dims import (
    CIRCUMPLEX,
    NORMAL_SCALE,
    cue_score,
    cue_similarity,
    derived_truth,
    expected,
    places,
    segment_rows,
)
from tests.conftest import DATA


def test_derived_truth_scales_the_distance_from_neutral_by_intensity():
    assert derived_truth("neutral", "normal") == pytest.approx(CIRCUMPLEX["neutral"])
    assert derived_truth("angry", "strong") == pytest.approx(CIRCUMPLEX["angry"])
    n, a_norm, a_strong = (np.array(derived_truth(e, i)) for e, i in
                           (("neutral", "normal"), ("angry", "normal"), ("angry", "strong")))
    assert np.allclose(a_norm - n, NORMAL_SCALE * (a_strong - n))
    assert n[0] < a_norm[0] < a_strong[0]  # strong anger is more aroused than normal anger
    # Strong calm is further from neutral, i.e. calmer (lower arousal, higher valence), not "more intense".
    c_norm, c_strong = derived_truth("calm", "normal"), derived_truth("calm", "strong")
    assert c_strong[0] < c_norm[0] < n[0] and c_strong[1] > c_norm[1] > n[1]
    assert derived_truth("happy")[1] > derived_truth("sad")[1]


def test_expected_places_a_distribution_on_the_circumplex():
    assert expected({"angry": 1.0}, axis="arousal") == pytest.approx(0.90)
    assert expected(np.array([0.5, 0.5]), ["calm", "happy"], "valence") == pytest.approx((0.70 + 0.95) / 2)


def test_cue_similarity_prefers_the_same_distribution():
    cue = np.array([0.1, 0.7, 0.2])
    segs = np.array([[0.1, 0.7, 0.2], [0.0, 0.0, 1.0], [0.8, 0.1, 0.1], [0.2, 0.5, 0.3]])
    s = cue_similarity(cue, segs)
    assert s[0] == pytest.approx(1.0) and s.argmax() == 0
    assert cue_similarity(np.array([1.0, 0.0]), np.array([[0.0, 1.0]]))[0] == pytest.approx(0.0)
    assert s[3] > s[2]  # shares the example's first and second choices


def test_segment_rows_carry_the_top_label_and_the_dimensions():
    rows = segment_rows(7, [3, 4], [np.array([0.2, 0.8]), np.array([0.6, 0.4])], np.array([[0.81234, 0.2], [0.3, 0.6]]),
                        ["calm", "angry"], ["arousal", "valence"])
    assert rows[0] == {"segment_id": 3, "recording_id": 7, "label": "angry", "score": 0.8, "arousal": 0.8123,
                       "valence": 0.2}
    assert rows[1]["label"] == "calm" and rows[1]["valence"] == 0.6


def test_places_match_expected_row_by_row():
    labels = ["neutral", "angry", "calm"]
    p = np.array([[0.2, 0.7, 0.1], [0.0, 0.0, 1.0]])
    got = places(p, labels, ["arousal", "valence"])
    assert got.shape == (2, 2)
    assert got[0, 0] == pytest.approx(expected(p[0], labels, "arousal"))
    assert got[1].tolist() == pytest.approx([0.10, 0.70])


def test_cue_score_keeps_the_examples_label_first_and_breaks_ties_by_distribution():
    cue = np.array([0.1, 0.6, 0.3])  # label 1, leaning label 2
    segs = np.array([[0.1, 0.5, 0.4], [0.4, 0.5, 0.1], [0.7, 0.2, 0.1]])
    s = cue_score(cue, segs)
    assert s[0] > s[1] > s[2]  # same p(label 1) for the first two: the one that also leans label 2 wins


@pytest.fixture(scope="module")
def listener(tmp_path_factory) -> EmotionModel:
    from harp_desktop.index.events import YamnetTagger

    tagger = YamnetTagger(weights.model_file("events", "YamNet_w8a8.onnx.zip"),
                          weights.model_file("events", "yamnet_class_map.csv"), tmp_path_factory.mktemp("yamnet"))
    return EmotionModel(weights.model_file("emotion", "emotion_head.npz"), tagger=tagger)


@pytest.mark.parametrize("name", ["speaker_a_1", "speaker_b_1", "injection"])
def test_plain_read_sentences_sit_near_the_neutral_place(listener, name):
    """Plainly read sentences: stored arousal near neutral's 0.25 (the aroused classes sit at 0.6-0.9),
    valence in the middle."""
    x, _ = sf.read(DATA / f"{name}.flac", dtype="float32")
    p = listener.predict(x)
    arousal, valence = places(np.array([list(p.values())]), list(p), ["arousal", "valence"])[0]
    assert arousal < 0.45 and 0.3 < valence < 0.75
