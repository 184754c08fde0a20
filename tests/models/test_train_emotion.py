"""The emotion training script end to end on a tiny RAVDESS-shaped set made from the shipped test clips.

The clips are neutral TTS, so the labels given them are arbitrary: this checks that the
pipeline runs (features, nested leave-one-actor-out, temperature, prior, head, report,
out-of-fold file) and that it is deterministic, not what it learns."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf

from harp_desktop.index.emotion import N_WHISPER_TINY, PROSODY, EmotionModel
from harp_desktop.index.voice_quality import VOICE
from tests.conftest import DATA, REPO

N_FEATURES = 2048 + N_WHISPER_TINY + len(PROSODY) + len(VOICE)  # train_emotion.py computes tiny.en features

SCRIPT = REPO / "models" / "emotion" / "train_emotion.py"
CLIPS = ["speaker_a_1", "speaker_a_2", "speaker_b_1", "speaker_b_2"]


def _ravdess(root):
    """3 actors x 4 clips, named 03-01-EE-II-SS-RR-AA like RAVDESS."""
    for actor in (1, 2, 5):
        folder = root / f"Actor_{actor:02d}"
        folder.mkdir(parents=True)
        for i, name in enumerate(CLIPS):
            x, sr = sf.read(DATA / f"{name}.flac", dtype="float32")
            emotion = (actor + 2 * i) % 8 + 1
            sf.write(folder / f"03-01-{emotion:02d}-01-01-01-{actor:02d}.flac", x * (0.5 + 0.1 * i), sr)
    return root


def _plain(root):
    """Two stand-ins for make_plain_speech.py's output (plain_NNN.flac), so the --plain path runs without flite."""
    root.mkdir()
    for i, name in enumerate(["injection", "speaker_b_1"]):
        shutil.copyfile(DATA / f"{name}.flac", root / f"plain_{i:03d}.flac")
    return root


def _train(data, out, cache, *extra):
    r = subprocess.run([sys.executable, str(SCRIPT), str(data), "--out", str(out / "head.npz"),
                        "--report", str(out / "REPORT.md"), "--loao", str(out / "loao.json"), "--cache", str(cache),
                        "--variants", "2", "--quick", *extra], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


@pytest.mark.slow
def test_training_on_a_small_subset_is_deterministic(tmp_path):
    data = _ravdess(tmp_path / "ser")
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    plain = _plain(tmp_path / "plain")
    _train(data, a, tmp_path / "cache_a.npz", "--plain", str(plain))
    _train(data, b, tmp_path / "cache_b.npz", "--plain", str(plain))  # features recomputed too, not read from a's cache
    assert (a / "head.npz").read_bytes() == (b / "head.npz").read_bytes()
    assert (a / "loao.json").read_text() == (b / "loao.json").read_text()
    model = EmotionModel(a / "head.npz")
    assert len(model.labels) == 8 and model.neutral == "neutral" and model.W.shape[0] == N_FEATURES
    loao = json.loads((a / "loao.json").read_text())
    assert loao["labels"] == model.labels and len(loao["rows"]) == 12  # every canonical clip, once
    assert all(abs(sum(r["p"]) - 1) < 1e-3 and r["actor"] in (1, 2, 5) for r in loao["rows"])
    report = (a / "REPORT.md").read_text()
    assert "Held-out-actor accuracy" in report and "| truth \\ pred |" in report
    assert "Plain speech from outside RAVDESS: 2 neutral sentences" in report
    p = model.proba(np.zeros((1, model.W.shape[0]), np.float32))
    assert p.shape == (1, 8) and abs(float(p.sum()) - 1) < 1e-5


@pytest.mark.slow
def test_speaker_normalised_training_is_deterministic_and_writes_speaker_statistics(tmp_path):
    """The --speaker-norm path (v4 candidate, not shipped) on the same subset."""
    data = _ravdess(tmp_path / "ser")
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    _train(data, a, tmp_path / "cache.npz", "--speaker-norm")
    out = _train(data, b, tmp_path / "cache.npz", "--speaker-norm")  # features from a's cache
    assert "stress_accuracy" in out
    assert (a / "head.npz").read_bytes() == (b / "head.npz").read_bytes()
    model = EmotionModel(a / "head.npz")
    start = 2048 + N_WHISPER_TINY  # the speech features after the YAMNet and Whisper blocks
    assert model.spk is not None and model.spk[0] == start and len(model.spk[1]) == model.W.shape[0] - start
    assert "Speaker normalisation" in (a / "REPORT.md").read_text()


@pytest.mark.skipif(shutil.which("flite") is None, reason="flite (Debian package) not installed")
def test_plain_speech_generator_is_deterministic(tmp_path):
    gen = REPO / "models" / "emotion" / "make_plain_speech.py"
    for d in ("a", "b"):
        subprocess.run([sys.executable, str(gen), str(tmp_path / d), "--limit", "3"], check=True, capture_output=True)
    for i in range(3):
        x, sr = sf.read(tmp_path / "a" / f"plain_{i:03d}.flac", dtype="float32")
        assert sr == 16000 and x.ndim == 1 and len(x) > sr
        assert (tmp_path / "a" / f"plain_{i:03d}.flac").read_bytes() == (tmp_path / "b" / f"plain_{i:03d}.flac").read_bytes()
    rows = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert [r["voice"] for r in rows] == ["kal", "kal16", "kal"]  # never the test clips' or the sample's voices


def _emotion_module(name):
    sys.path.insert(0, str(REPO / "models" / "emotion"))
    try:
        return __import__(name)
    finally:
        sys.path.remove(str(REPO / "models" / "emotion"))


def test_room_tone_adds_a_noise_floor_at_the_drawn_level():
    """room_tone.py (issue 18): the clip keeps its speech, gets a noise floor SNR_DB under its active level, and
    the span reaches into the room tone either side; the same seed gives the same room."""
    rt = _emotion_module("room_tone")
    x, sr = sf.read(DATA / "speaker_a_1.flac", dtype="float32")
    sig = np.concatenate([np.zeros(sr // 2, np.float32), x, np.zeros(sr // 2, np.float32)])
    a, b = 0.5, 0.5 + len(x) / sr
    y, a2, b2 = rt.in_room(sig, a, b, np.random.default_rng(3))
    y_again, *_ = rt.in_room(sig, a, b, np.random.default_rng(3))
    assert np.array_equal(y, y_again)
    assert a - 0.3 <= a2 <= a and b <= b2 <= b + 0.3
    floor = y[: sr // 2] - sig[: sr // 2]  # the lead was digital silence: only the added noise is there
    snr = rt.active_rms_db(sig[int(a * sr): int(b * sr)]) - 10 * np.log10(np.mean(floor.astype(np.float64) ** 2))
    assert rt.SNR_DB[0] - 1.5 <= snr <= rt.SNR_DB[1] + 1.5
    for colour in rt.COLOURS:  # unit RMS, and the colours tilt the spectrum as named
        n = rt.noise(1 << 15, colour, np.random.default_rng(0))
        assert abs(float(n.std()) - 1) < 1e-3
        spec = np.abs(np.fft.rfft(n)) ** 2
        lo, hi = spec[1:len(spec) // 8].mean(), spec[len(spec) // 2:].mean()
        assert (lo / hi > 20) if colour != "white" else (0.5 < lo / hi < 2)


def test_speaker_normalisation_can_take_each_variants_own_room():
    """fitting.speaker_normalise(clips=...): a variant's rows are z-scored by the same clips of that variant (a
    speaker's segments share a room), not by the canonical clips; without clips, as before."""
    fitting = _emotion_module("fitting")
    rng = np.random.default_rng(0)
    n = 12
    clean = rng.standard_normal((n, 4)).astype(np.float32)
    noisy = clean + np.float32(5.0)  # the room shifts every speech feature
    X = np.concatenate([clean, noisy])
    actors, variant, clips = np.ones(2 * n, int), np.repeat([0, 1], n), np.tile(np.arange(n), 2)
    plain = np.zeros(2 * n, bool)
    prior = (np.zeros(2), np.ones(2))
    own = fitting.speaker_normalise(X, actors, variant, plain, 2, prior, 0, clips=clips)
    canon = fitting.speaker_normalise(X, actors, variant, plain, 2, prior, 0)
    assert np.allclose(canon[:n], own[:n])  # the canonical rows are normalised as before
    # The room's shift is taken out by its own statistics (all but the prior's share), kept by the canonical ones.
    shift_own, shift_canon = (own[n:, 2:] - own[:n, 2:]).mean(), (canon[n:, 2:] - canon[:n, 2:]).mean()
    assert shift_canon > 2 and abs(shift_own) < 0.4 * shift_canon
    assert np.array_equal(own[:, :2], X[:, :2])  # columns before start untouched
