"""Per-speaker normalisation of the emotion head's speech features."""

from __future__ import annotations

import numpy as np

from harp_desktop import weights
from harp_desktop.index.emotion import N_FEATURES, N_WHISPER, EmotionModel
from harp_desktop.index.speaker_norm import normalise, population_prior, speaker_stats


def test_many_segments_use_the_speakers_own_statistics():
    rng = np.random.default_rng(0)
    ref = rng.normal(3.0, 2.0, (400, 4))
    mean, std = speaker_stats(ref, np.zeros(4), np.ones(4), n0=5)
    assert np.allclose(mean, 3.0, atol=0.3) and np.allclose(std, 2.0, atol=0.2)
    z = normalise(np.hstack([np.full((400, 2), 7.0), ref]), 2, mean, std)
    assert np.all(z[:, :2] == 7.0)  # columns before start untouched
    assert np.allclose(z[:, 2:].mean(0), 0.0, atol=0.1)


def test_few_segments_lean_on_the_prior():
    mean, std = speaker_stats(np.array([[10.0, 10.0]]), np.zeros(2), np.full(2, 4.0), n0=5)
    assert np.allclose(mean, 10 / 6) and np.allclose(std, np.sqrt(20 / 6))
    mean0, std0 = speaker_stats(np.zeros((0, 2)), np.zeros(2), np.full(2, 4.0))
    assert np.allclose(mean0, 0.0) and np.allclose(std0, 2.0)


def test_population_prior_adds_the_spread_between_speakers():
    X = np.array([[0.0], [2.0], [10.0], [12.0]])
    mean, var = population_prior(X, np.array([1, 1, 2, 2]))
    assert np.allclose(mean, 6.0) and np.allclose(var, 1.0 + 25.0)


def test_shipped_head_normalises_only_the_speech_features():
    """v7's normalisation ships in v9 (issue 18, models/emotion/REPORT.md): the 99 speech features are z-scored per
    speaker; the YAMNet and Whisper blocks are left as they are."""
    model = EmotionModel(weights.model_file("emotion", "emotion_head.npz"))
    feats = np.random.default_rng(1).normal(0, 1, (3, N_FEATURES)).astype(np.float32)
    start = 2048 + N_WHISPER
    assert model.spk is not None and model.spk[0] == start
    z = model.speaker_normalise(feats, feats)
    assert np.array_equal(z[:, :start], feats[:, :start]) and not np.allclose(z[:, start:], feats[:, start:])


def test_a_head_with_speaker_statistics_normalises_the_speech_columns(tmp_path):
    with np.load(weights.model_file("emotion", "emotion_head.npz"), allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    d = N_FEATURES - 2048
    arrays.update(spk_start=np.array(2048), spk_mean=np.zeros(d, np.float32), spk_var=np.ones(d, np.float32),
                  spk_n0=np.array(5.0, np.float32))
    np.savez(tmp_path / "head.npz", **arrays)
    model = EmotionModel(tmp_path / "head.npz")
    feats = np.random.default_rng(1).normal(3, 1, (6, N_FEATURES)).astype(np.float32)
    z = model.speaker_normalise(feats[:2], feats)
    assert z.shape == (2, N_FEATURES) and np.array_equal(z[:, :2048], feats[:2, :2048])
    assert np.abs(z[:, 2048:]).mean() < np.abs(feats[:2, 2048:]).mean()  # centred on the speaker (and prior)
    p = model.proba(z)
    assert p.shape == (2, 8) and np.allclose(p.sum(1), 1.0, atol=1e-5)
