"""Speech emotion head: features, the shipped head, and the pipeline stage."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf

from harp_desktop import weights
from harp_desktop.api import Library
from harp_desktop.index.emotion import (
    ENCODINGS,
    FEATURE_V6,
    FEATURE_V7,
    FEATURE_VERSION,
    N_FEATURES,
    N_WHISPER,
    N_WHISPER_TINY,
    PROSODY,
    SR,
    WHISPER_DIMS,
    EmotionModel,
    features,
    frames_in,
    load_whisper,
    prosody,
    span_features,
    spans,
)
from harp_desktop.index.emotion_dims import places
from harp_desktop.index.whisper_enc import WINDOW_S, EncoderStates, encode, windows
from tests.conftest import DATA, FAST


def _vowel(f0: float, seconds: float = 1.5, amp: float = 0.1) -> np.ndarray:
    t = np.arange(int(seconds * SR)) / SR
    x = sum(np.sin(2 * np.pi * f0 * h * t) / h for h in range(1, 8))
    noise = np.random.default_rng(0).standard_normal(len(t)) * 0.01  # a noise floor, as any recording has
    return (amp * (x / np.abs(x).max() + noise)).astype(np.float32)


@pytest.fixture(scope="module")
def model() -> EmotionModel:
    return EmotionModel(weights.model_file("emotion", "emotion_head.npz"))


def test_prosody_finds_pitch_and_is_level_invariant():
    x = _vowel(200.0)
    p = dict(zip(PROSODY, prosody(x), strict=True))
    assert p["voiced_ratio"] > 0.9
    assert abs(p["f0_median_st"] - 12 * np.log2(200 / 55)) < 0.3
    assert p["f0_range_st"] < 0.5
    quiet = prosody(x * 0.05)
    assert np.allclose(quiet, prosody(x), rtol=1e-2, atol=1e-2)


def test_feature_shapes_and_degenerate_input():
    rng = np.random.default_rng(0)
    emb = rng.standard_normal((5, 1024)).astype(np.float16)
    wv = rng.standard_normal(N_WHISPER).astype(np.float32)
    f = features(_vowel(120.0), emb, wv)
    assert f.shape == (N_FEATURES,) and f.dtype == np.float32 and np.isfinite(f).all()
    assert np.allclose(f[:1024], emb.astype(np.float32).mean(0), atol=1e-3)
    assert np.array_equal(f[2048:2048 + N_WHISPER], wv)  # the Whisper block follows the YAMNet block
    for wav in (np.zeros(SR, np.float32), np.zeros(100, np.float32)):  # silence, shorter than one frame
        g = features(wav, emb[:1], wv)
        assert g.shape == (N_FEATURES,) and np.isfinite(g).all()
    assert np.isfinite(features(_vowel(120.0), np.zeros((0, 1024), np.float16), wv)).all()


def test_frames_in_and_windows():
    times = np.arange(10) * 0.48 + 0.4875
    assert list(frames_in(times, 0.9, 2.0)) == [1, 2, 3]
    assert list(frames_in(times, 0.5, 0.6)) == [0]  # no centre inside: the nearest frame
    assert spans(1.0, 3.0) == [(1.0, 3.0)]
    w = spans(10.0, 19.0)
    assert w[0] == (10.0, 19.0) and w[1][0] == 10.0 and w[-1][1] == pytest.approx(19.0)
    assert all(b - a == pytest.approx(3.0) for a, b in w[1:])
    assert all(b2 - b1 <= 1.5 + 1e-9 for (b1, _), (b2, _) in zip(w[1:], w[2:], strict=False))


def test_window_features_share_one_prosody_pass():
    x, sr = sf.read(DATA / "speech_two_speakers.flac", dtype="float32")
    start, end = 1.23456, 7.891  # not on a sample boundary
    seg = x[int(start * SR): int(end * SR)]
    times = np.arange(30) * 0.48 + 0.4875
    emb = np.random.default_rng(2).standard_normal((30, 1024)).astype(np.float16)
    st = np.arange(500, dtype=np.float32)[:, None] * np.ones(N_WHISPER // 2, np.float32)  # state i = i, every dim
    states = EncoderStates(st, (np.arange(500) + 0.5) * 0.02)
    wins = spans(start, end)
    got = span_features(seg, int(start * SR) / SR, wins, times, emb, states)
    assert got.shape == (len(wins), N_FEATURES)
    whole = features(seg, emb[frames_in(times, start, end)], states.pool(start, end))
    assert np.array_equal(got[0], whole)  # the segment: exact
    # The Whisper block pools the 20 ms states centred inside the span: here their mean index.
    inside = np.flatnonzero(((np.arange(500) + 0.5) * 0.02 >= start) & ((np.arange(500) + 0.5) * 0.02 <= end))
    assert got[0, 2048] == pytest.approx(inside.mean()) and inside[0] == 62 and inside[-1] == 394
    for (a, b), row in zip(wins[1:], got[1:], strict=True):  # windows: a slice of the same tracks
        alone = features(x[int(a * SR): int(b * SR)], emb[frames_in(times, a, b)], states.pool(a, b))
        assert np.array_equal(row[:2048 + N_WHISPER], alone[:2048 + N_WHISPER])
        assert np.corrcoef(row[2048 + N_WHISPER:], alone[2048 + N_WHISPER:])[0, 1] > 0.99


@pytest.fixture(scope="module")
def whisper():
    return load_whisper()


def test_whisper_states_are_pooled_inside_the_segment_and_its_window_only(whisper):
    """A segment's Whisper block comes from the states of its own 30 s window, centred inside it: it equals
    encoding that window alone and does not change when audio in another window changes."""
    x, _ = sf.read(DATA / "speaker_a_1.flac", dtype="float32")
    rec = np.zeros(int(40 * SR), np.float32)
    rec[: len(x)] = x * 0.5  # window 0: other speech
    rec[int(31 * SR): int(31 * SR) + len(x)] = x  # window 1: the segment's speech
    seg = (31.0, 34.0)  # both ends 10 ms from a state centre: no rounding at the edges
    full = encode(whisper, rec)
    assert full.states.shape[1] == N_WHISPER_TINY // 2 and np.all(np.diff(full.times) > 0)
    assert full.times[0] == pytest.approx(0.01) and full.times[-1] < 40.0
    v = full.pool(*seg)
    assert v.shape == (N_WHISPER_TINY,) and np.isfinite(v).all()
    alone = encode(whisper, rec[int(WINDOW_S * SR):])  # the same window encoded by itself, times from 0
    assert np.allclose(v, alone.pool(seg[0] - WINDOW_S, seg[1] - WINDOW_S), atol=1e-5)
    changed = rec.copy()
    changed[: int(WINDOW_S * SR)] = np.random.default_rng(0).standard_normal(int(WINDOW_S * SR)) * 0.1
    other = encode(whisper, changed)
    assert np.array_equal(other.times, full.times)
    assert np.array_equal(other.pool(*seg), v)
    # Pooling uses the states inside the span: another span of the same window gives another vector.
    assert not np.allclose(full.pool(31.0, 31.5), v, atol=1e-2)


def test_encoder_windows_cover_the_signal():
    """whisper_enc.windows: consecutive windows (heads up to v7) or the fewest equal windows of at most
    window_s (head v8): either way they tile [0, n) without gaps or overlap, none longer than window_s."""
    for n in (1, 319, SR, int(7.99 * SR), int(8 * SR), int(8 * SR) + 1, int(17.3 * SR), int(31 * SR), int(95 * SR)):
        for window_s, equal in ((WINDOW_S, False), (8.0, True), (8.0, False), (3.0, True)):
            w = windows(n, window_s, equal)
            assert w[0][0] == 0 and w[-1][1] == n
            assert all(b0 == a1 for (_, a1), (b0, _) in zip(w, w[1:], strict=False))
            assert all(0 < b - a <= window_s * SR for a, b in w)
            assert len(w) == max(1, -(-n // int(window_s * SR)))  # the fewest windows of at most window_s
            if equal:
                assert max(b - a for a, b in w) - min(b - a for a, b in w) <= 1
    assert windows(int(20 * SR), 8.0, True) == [(0, 106667), (106667, 213333), (213333, 320000)]
    assert windows(int(20 * SR), 8.0, False)[-1] == (256000, 320000)


def test_unpadded_encoding_keeps_one_state_per_20_ms_of_real_audio(whisper):
    """The v8 cut (emotion.ENCODINGS): equal unpadded windows of at most 8 s; states cover the signal only,
    in order, and a window's states depend on its own audio."""
    x, _ = sf.read(DATA / "speaker_a_1.flac", dtype="float32")
    sig = np.tile(x, int(np.ceil(11 * SR / len(x))))[: int(11 * SR)]
    window_s, pad_to, equal = ENCODINGS[FEATURE_V6]
    st = encode(whisper, sig, window_s, pad_to, equal)
    assert st.states.shape == (len(st.times), N_WHISPER_TINY // 2) and np.isfinite(st.states).all()
    assert np.all(np.diff(st.times) > 0) and st.times[-1] < len(sig) / SR
    assert len(st.times) == pytest.approx(len(sig) / SR / 0.02, abs=2)
    (_, a1), (b0, _) = windows(len(sig), window_s, equal)  # two windows of 5.5 s
    assert a1 == b0 == int(5.5 * SR)
    alone = encode(whisper, sig[b0:], window_s, pad_to, equal)  # the second window by itself
    assert np.allclose(st.pool(b0 / SR + 0.5, 10.5), alone.pool(0.5, 10.5 - b0 / SR), atol=1e-4)
    assert not np.allclose(st.pool(1.0, 4.0), encode(whisper, sig).pool(1.0, 4.0), atol=1e-2)  # not the v7 cut


def test_shipped_head_names_the_feature_version(model):
    """FEATURE_VERSION is what the shipped head was trained on, and the stage gets its states as that head says:
    v9 (issue 18) reads the ASR pass's base-encoder states (no per-segment encoding: encoding None)."""
    assert model.feature_version == FEATURE_VERSION == FEATURE_V7
    assert model.encoding is None and ENCODINGS.get(FEATURE_VERSION) is None
    assert model.W.shape[0] == N_FEATURES == 2048 + 2 * WHISPER_DIMS[FEATURE_V7] + len(PROSODY) + 49


def test_head_matches_manifest_and_gives_probabilities(model):
    entry = weights.manifest()["emotion"]
    f = entry["files"][0]
    path = weights.model_file("emotion", "emotion_head.npz")
    assert path.stat().st_size == f["size"] < 500_000
    assert weights.sha256_file(path) == f["sha256"]
    assert "non-commercial" in entry["licence"].lower()
    assert "neutral" in model.labels and len(model.labels) >= 4
    assert model.W.shape == (N_FEATURES, len(model.labels)) and model.temperature > 0
    rng = np.random.default_rng(1)
    p = model.predict(_vowel(180.0, 2.0), rng.standard_normal((4, 1024)).astype(np.float16))
    assert list(p) == model.labels
    assert sum(p.values()) == pytest.approx(1.0, abs=1e-5) and all(0 <= v <= 1 for v in p.values())
    with pytest.raises(ValueError, match="no embeddings"):
        model.predict(_vowel(180.0))


def test_emotion_stage_in_the_pipeline(tmp_path, model):
    lib = Library(tmp_path / "lib")
    try:
        res = lib.index(DATA / "speech_two_speakers.flac", FAST)
        assert "emotion" in res.ran
        rid = res.recording_id
        segs = [s for s in lib.db.segments(rid) if s["end_s"] - s["start_s"] >= 0.8]
        assert segs
        tags = lib.db.tags(rid, "emotion")
        assert len(tags) >= len(segs)
        assert all(t["label"] in model.labels and 0 < t["score"] <= 1 and t["source"] == "emotion-head" for t in tags)
        assert all(any(s["start_s"] - 1e-3 <= t["start_s"] < t["end_s"] <= s["end_s"] + 1e-3 for s in segs)
                   for t in tags)
        probs, meta = lib.db.get_array(rid, "emotion_probs")
        assert meta["labels"] == model.labels and meta["segment_ids"] == [s["id"] for s in segs]
        assert probs.shape == (len(segs), len(model.labels))
        assert np.allclose(probs.sum(1), 1.0, atol=1e-4)
        # Each segment's tag is its most probable label.
        for s, p in zip(segs, probs, strict=True):
            own = [t for t in tags if t["start_s"] == round(s["start_s"], 3) and t["end_s"] == round(s["end_s"], 3)]
            assert own and own[0]["label"] == model.labels[int(p.argmax())]
        # Issue 18: one segment_emotion row per classified segment (its top label, arousal/valence on the
        # circumplex), and the same in show --json's "emotion".
        rows = lib.db.segment_emotions(rid)
        assert set(rows) == {s["id"] for s in segs}
        av = places(probs, model.labels, ["arousal", "valence"])
        for s, p, (a, v) in zip(segs, probs, av, strict=True):
            r = rows[s["id"]]
            assert r["label"] == model.labels[int(p.argmax())] and r["score"] == pytest.approx(float(p.max()), abs=1e-4)
            assert 0 <= r["arousal"] <= 1 and r["arousal"] == pytest.approx(a, abs=1e-4)
            assert r["valence"] == pytest.approx(v, abs=1e-4)
        shown = {s["id"]: s["emotion"] for s in lib.transcript(res.sha256[:10])["segments"]}
        assert all(shown[sid] == rows[sid] for sid in rows)
        assert set(next(iter(rows.values()))) == {"label", "score", "arousal", "valence"}
        # Not in the events list of the transcript.
        assert all(e["label"] not in model.labels for e in lib.transcript(res.sha256[:10])["events"])
    finally:
        lib.close()


def test_predict_without_embeddings_runs_yamnet(model, tmp_path):
    from harp_desktop.index.events import YamnetTagger

    tagger = YamnetTagger(weights.model_file("events", "YamNet_w8a8.onnx.zip"),
                          weights.model_file("events", "yamnet_class_map.csv"), tmp_path / "yamnet")
    x, sr = sf.read(DATA / "speaker_a_1.flac", dtype="float32")
    m = EmotionModel(weights.model_file("emotion", "emotion_head.npz"), tagger=tagger)
    p = m.predict(x[: 3 * sr])
    assert sum(p.values()) == pytest.approx(1.0, abs=1e-5)


@pytest.fixture(scope="module")
def listener(tmp_path_factory) -> EmotionModel:
    from harp_desktop.index.events import YamnetTagger

    tagger = YamnetTagger(weights.model_file("events", "YamNet_w8a8.onnx.zip"),
                          weights.model_file("events", "yamnet_class_map.csv"), tmp_path_factory.mktemp("yamnet"))
    return EmotionModel(weights.model_file("emotion", "emotion_head.npz"), tagger=tagger)


@pytest.mark.parametrize("name", ["speaker_a_1", "speaker_a_2", "speaker_b_1", "speaker_b_2", "injection"])
def test_plain_read_sentences_are_heard_as_plain(listener, name):
    """The shipped clips are plainly read sentences (two voices): the head, with its deployment
    prior, puts them in the plain group (neutral or calm), not an emotion."""
    x, _ = sf.read(DATA / f"{name}.flac", dtype="float32")
    p = listener.predict(x)
    assert len(p) == 8 and max(p, key=p.get) in ("neutral", "calm")
    assert p["neutral"] + p["calm"] > 0.6


def test_a_rooms_noise_floor_does_not_change_what_the_head_hears(listener):
    """Issue 18: the head is trained on clips heard through rooms' noise floors too (models/emotion/room_tone.py).
    Head v9 heard the bank recordings' lines through their room tone as calmer than they are (benchmarks/
    emotion_lines_bench.py); here, the two voices' read sentences with pink noise 20 dB under their speech keep the
    label they have clean."""
    import sys

    from tests.conftest import REPO

    sys.path.insert(0, str(REPO / "models" / "emotion"))
    try:
        from room_tone import active_rms_db, noise
    finally:
        sys.path.remove(str(REPO / "models" / "emotion"))
    for name in ["speaker_a_1", "speaker_a_2", "speaker_b_1", "speaker_b_2"]:
        x, _ = sf.read(DATA / f"{name}.flac", dtype="float32")
        room = x + noise(len(x), "pink", np.random.default_rng(0)) * np.float32(10 ** ((active_rms_db(x) - 20) / 20))
        clean, heard = listener.predict(x), listener.predict(room)
        assert max(heard, key=heard.get) == max(clean, key=clean.get), name
