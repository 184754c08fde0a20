"""Torch-free Resemblyzer speaker encoder and speaker clustering."""

from __future__ import annotations

import importlib.util
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from harp_desktop.index.speakers import (
    SpeakerEncoder,
    cluster_speakers,
    load_torch_checkpoint,
    mel_filters,
    mel_spectrogram,
)
from tests.conftest import DATA

SR = 16000


def weights_path() -> Path:
    """``pretrained.pt`` of the installed resemblyzer package (found, not imported: it needs torch)."""
    spec = importlib.util.find_spec("resemblyzer")
    path = Path(next(iter(spec.submodule_search_locations))) / "pretrained.pt" if spec else None
    if path is None or not path.is_file():
        pytest.skip("resemblyzer's pretrained.pt is not installed")
    return path


@pytest.fixture(scope="session")
def encoder() -> SpeakerEncoder:
    return SpeakerEncoder(weights_path())


@pytest.fixture(scope="session")
def speaker_clips() -> dict[str, list[np.ndarray]]:
    """speaker_a_*.flac / speaker_b_*.flac: two different (flite) voices, 16 kHz mono."""
    out = {}
    for spk in ("a", "b"):
        files = sorted(DATA.glob(f"speaker_{spk}_*.flac"))
        if len(files) < 2:
            pytest.skip(f"need two tests/data/speaker_{spk}_*.flac clips")
        out[spk] = [sf.read(f, dtype="float32")[0] for f in files[:2]]
    return out


def test_embed_is_unit_norm_float32(encoder, speaker_clips):
    e = encoder.embed(speaker_clips["a"][0])
    assert e.shape == (256,) and e.dtype == np.float32
    assert abs(float(np.linalg.norm(e)) - 1.0) < 1e-5
    assert (e >= 0).all()  # ReLU before the L2 norm


def test_same_speaker_closer_than_different_speaker(encoder, speaker_clips):
    a1, a2 = (encoder.embed(w) for w in speaker_clips["a"])
    b1, b2 = (encoder.embed(w) for w in speaker_clips["b"])
    same = min(a1 @ a2, b1 @ b2)
    different = max(a1 @ b1, a1 @ b2, a2 @ b1, a2 @ b2)
    assert same > 0.8
    assert same - different > 0.15, (same, different)


def test_clustering_windows_of_two_speakers_finds_two(encoder, speaker_clips):
    a, b = np.concatenate(speaker_clips["a"]), np.concatenate(speaker_clips["b"])
    centres, embs = encoder.embed_windows(np.concatenate([a, b]))
    assert embs.shape == (len(centres), 256) and len(centres) >= 8
    np.testing.assert_allclose(np.linalg.norm(embs, axis=1), 1.0, atol=1e-5)
    assert (np.diff(centres) > 0).all()
    labels = cluster_speakers(embs)
    assert labels.max() == 1
    boundary = len(a) / SR
    inside_a = centres + 0.8 <= boundary
    inside_b = centres - 0.8 >= boundary
    assert (labels[inside_a] == 0).all() and (labels[inside_b] == 1).all()


def test_embed_windows_edge_cases(encoder, speaker_clips):
    wav = speaker_clips["b"][0]
    centres, embs = encoder.embed_windows(np.zeros(0, np.float32))
    assert centres.shape == (0,) and embs.shape == (0, 256)
    centres, embs = encoder.embed_windows(wav[: int(0.3 * SR)])  # shorter than a window: one, padded
    assert embs.shape == (1, 256) and centres[0] == pytest.approx(0.15)
    centres, embs = encoder.embed_windows(wav[: int(1.6 * SR)])  # exactly one window
    assert embs.shape == (1, 256) and centres[0] == pytest.approx(0.8)
    centres, embs = encoder.embed_windows(wav[: int(2.9 * SR)])  # 2 windows on the hop grid + one end-aligned
    assert len(centres) == 3 and centres[:2].tolist() == pytest.approx([0.8, 1.6])
    assert 2.9 - 0.8 - 0.02 <= centres[-1] <= 2.9 - 0.8 + 0.02
    silent = encoder.embed_windows(np.zeros(SR, np.float32))[1]
    assert np.isfinite(silent).all()


def test_embed_short_and_empty(encoder, speaker_clips):
    short = encoder.embed(speaker_clips["a"][0][SR : SR + SR // 2])
    assert short.shape == (256,) and abs(float(np.linalg.norm(short)) - 1.0) < 1e-5
    with pytest.raises(ValueError):
        encoder.embed(np.zeros(0, np.float32))


def test_batching_does_not_change_results(encoder, speaker_clips):
    wav = np.concatenate(speaker_clips["a"])
    small = SpeakerEncoder(weights_path(), batch_size=3)
    _, e1 = encoder.embed_windows(wav)
    _, e2 = small.embed_windows(wav)
    np.testing.assert_allclose(e1, e2, atol=1e-5)


def test_embed_regions_matches_embed_windows(encoder, speaker_clips):
    regions = [speaker_clips["a"][0], np.zeros(0, np.float32), speaker_clips["b"][1][: SR // 2], speaker_clips["b"][0]]
    together = encoder.embed_regions(regions)
    assert len(together) == len(regions) and len(together[1][0]) == 0 and len(together[2][0]) == 1
    for wav, (centres, embs) in zip(regions, together, strict=True):
        c, e = encoder.embed_windows(wav)
        np.testing.assert_allclose(centres, c)
        np.testing.assert_allclose(embs, e, atol=1e-5)
    assert encoder.embed_regions([]) == []


def test_quiet_input_is_raised_to_minus_30_dbfs(encoder, speaker_clips):
    wav = speaker_clips["a"][0]
    quiet = wav * (10 ** (-40 / 20) / np.sqrt(np.mean(wav**2)))  # -40 dBFS
    assert float(encoder.embed(quiet) @ encoder.embed(quiet * 0.1)) > 0.9999  # both raised to -30 dBFS


def test_mel_front_end_matches_librosa_slaney():
    filt = mel_filters()
    assert filt.shape == (40, 201) and (filt >= 0).all()
    # reference values from librosa.filters.mel(sr=16000, n_fft=400, n_mels=40)
    np.testing.assert_allclose(filt[0, :4], [0.0, 0.00739021, 0.01240452, 0.00501431], rtol=1e-5, atol=1e-9)
    np.testing.assert_allclose(filt.sum(1)[[0, 20, 39]], [0.02480904, 0.02521975, 0.02497876], rtol=1e-5)
    assert int(filt[39].argmax()) == 185
    tone = np.sin(2 * np.pi * 1000 * np.arange(SR) / SR).astype(np.float32)
    mel = mel_spectrogram(tone)
    assert mel.shape == (101, 40)  # centred frames: 1 + n // 160
    assert int(mel[50].argmax()) == int(filt[:, 25].argmax())  # 1 kHz = FFT bin 25


def _legacy_checkpoint(path: Path, obj: object) -> Path:
    with open(path, "wb") as f:
        for part in (0x1950A86A20F9469CFC6C, 1001, {"little_endian": True}, obj, []):
            pickle.dump(part, f, protocol=2)
    return path


def test_loader_rejects_files_that_are_not_checkpoints(tmp_path):
    text = tmp_path / "notes.pt"
    text.write_text("this is not a checkpoint\n", encoding="utf-8")
    noise = tmp_path / "noise.pt"
    noise.write_bytes(np.random.default_rng(0).bytes(4096))
    other_pickle = tmp_path / "other.pt"
    other_pickle.write_bytes(pickle.dumps({"a": 1}))
    empty_zip = tmp_path / "empty.pt"
    with zipfile.ZipFile(empty_zip, "w") as zf:
        zf.writestr("archive/readme.txt", "no data.pkl")
    evil = tmp_path / "evil.pt"
    evil.write_bytes(pickle.dumps(Path("x")))  # arbitrary globals are refused, never imported
    for path in (text, noise, other_pickle, empty_zip, evil):
        with pytest.raises(ValueError, match="not a readable PyTorch checkpoint"):
            load_torch_checkpoint(path)
        with pytest.raises(ValueError):
            SpeakerEncoder(path)


def test_encoder_rejects_checkpoint_without_lstm(tmp_path):
    path = _legacy_checkpoint(tmp_path / "empty_state.pt", {"model_state": {}})
    assert load_torch_checkpoint(path) == {"model_state": {}}
    with pytest.raises(ValueError, match="not a Resemblyzer voice encoder"):
        SpeakerEncoder(path)


def test_cluster_speakers_small_inputs_and_order():
    assert cluster_speakers(np.zeros((0, 256), np.float32)).shape == (0,)
    assert cluster_speakers(np.ones((1, 256), np.float32)).tolist() == [0]
    rng = np.random.default_rng(1)
    x, y = np.abs(rng.normal(size=(2, 256)))
    rows = [y + 0.1 * np.abs(rng.normal(size=256)) for _ in range(4)]
    rows += [x + 0.1 * np.abs(rng.normal(size=256)) for _ in range(5)]
    labels = cluster_speakers(np.array(rows, np.float32), threshold=0.1)
    assert labels.tolist() == [0] * 4 + [1] * 5  # numbered by first appearance
    outlier = np.zeros(256)
    outlier[:8] = 1.0
    labels = cluster_speakers(np.array([*rows, outlier], np.float32), threshold=0.1, min_cluster_weight=2)
    assert labels.max() == 1  # a one-window cluster joins its nearest neighbour cluster
    labels = cluster_speakers(np.array([*rows, outlier], np.float32), threshold=0.1, min_cluster_weight=0)
    assert labels.max() == 2


def test_attach_only_rows_join_the_nearest_voice_and_found_none():
    """Two voices in the core rows; an outlier flagged attach-only (speech only the tagger heard)
    joins the nearer voice instead of becoming a third speaker, and does not move the others."""
    rng = np.random.default_rng(1)
    a, b = np.eye(256)[0], np.eye(256)[1]
    rows = [a + rng.normal(0, 0.01, 256) for _ in range(4)] + [b + rng.normal(0, 0.01, 256) for _ in range(4)]
    stray = 0.6 * a + 0.8 * np.eye(256)[2]  # far from both: alone it would found a cluster
    emb = np.array([*rows, stray, stray], np.float32)
    assert cluster_speakers(emb, threshold=0.1).max() == 2
    flag = np.array([False] * 8 + [True, True])
    labels = cluster_speakers(emb, threshold=0.1, attach_only=flag)
    assert labels.max() == 1 and labels[8] == labels[9] == labels[0]
    assert labels[:8].tolist() == cluster_speakers(emb[:8], threshold=0.1).tolist()
    assert cluster_speakers(emb, threshold=0.1, attach_only=np.ones(10, bool)).max() == 2  # all flagged: clustered


def test_attach_only_rows_take_their_regions_voice_and_a_region_stays_one_voice():
    """An attached row follows the clustered rows of its own region (one continuous stretch of
    speech), not the nearest centroid; a region of attached rows only gets one voice."""
    rng = np.random.default_rng(2)
    a, b = np.eye(256)[0], np.eye(256)[1]
    rows = [a + rng.normal(0, 0.01, 256) for _ in range(4)] + [b + rng.normal(0, 0.01, 256) for _ in range(4)]
    near_b = 0.3 * a + 0.95 * b  # nearer b's voice, but spoken in region 0 with a's rows
    near_a, near_b2 = 0.9 * a + 0.44 * b, 0.44 * a + 0.9 * b  # region 9: all attached, mean nearer a
    emb = np.array([*rows, near_b, near_a, near_b2, near_a], np.float32)
    groups = np.array([0, 0, 1, 1, 2, 2, 3, 3, 0, 9, 9, 9])
    flag = np.array([False] * 8 + [True] * 4)
    labels = cluster_speakers(emb, threshold=0.1, attach_only=flag, groups=groups)
    assert labels[8] == labels[0] != labels[4]  # the region's voice, though nearer b
    assert labels[9] == labels[10] == labels[11] == labels[0]  # one voice for region 9: its mean is nearer a
