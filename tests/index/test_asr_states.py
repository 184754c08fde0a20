import numpy as np
import pytest

from harp_desktop import weights
from harp_desktop.audio.decode import load_clip
from harp_desktop.index.asr import GAP_S, AsrOptions, Transcriber, join
from harp_desktop.index.asr_states import recording_states
from harp_desktop.index.emotion_states import encode_joined
from harp_desktop.index.whisper_enc import encode
from harp_desktop.types import Region
from tests.conftest import DATA


def test_windows_map_to_recording_time_without_gaps_or_overlap():
    # Window 1 starts at 0 (30 s), window 2 at the previous one's last word, 25 s; joined spans with a gap.
    h1 = np.full((1500, 4), 1.0, np.float16)
    h2 = np.full((1500, 4), 2.0, np.float16)
    offsets = [(0.0, 20.0, 100.0), (20.0 + GAP_S, 40.0, 300.0)]
    st = recording_states([(0, 3000, h1), (2500, 1500, h2)], offsets)
    assert np.all(np.diff(st.times) > 0)
    # Nothing from the synthetic gap: no time between the first span's end and the second span's start.
    assert not np.any((st.times > 120.0) & (st.times < 300.0))
    # Joined time 25 s onwards comes from window 2 (the one that decoded it); before it, from window 1.
    t25 = 300.0 + 25.0 - (20.0 + GAP_S)
    assert np.all(st.states[st.times < t25 - 0.02] == 1.0) and np.all(st.states[st.times > t25 + 0.02] == 2.0)
    # Window 2 holds 15 s of audio: its padding is not kept.
    assert st.times.max() < 300.0 + 40.0 - (20.0 + GAP_S)


@pytest.fixture(scope="module")
def tiny():
    return Transcriber(weights.model_path("asr-tiny.en"), AsrOptions())


def test_transcription_keeps_its_encoder_states(tiny, clips):
    """The main pass's windows are captured as it decodes them (faster-whisper's ``seek``), cost-free; they equal
    encoding the same joined window again, and nothing is captured outside transcribe_chunk."""
    audio = load_clip(DATA / "speech_two_speakers.flac")
    rec = np.concatenate([np.zeros(16000 * 5, np.float32), audio])
    items = clips["clips"]["speech_two_speakers"]["items"]
    chunk = [Region(5 + it["start_s"] - 0.1, 5 + it["end_s"] + 0.1) for it in items]
    words, _ = tiny.transcribe_chunk(rec, chunk)
    st = tiny.states
    assert words and st is not None and tiny.model.windows is None
    assert st.states.shape[1] == 384 and st.states.dtype == np.float16
    assert chunk[0].start_s <= st.times.min() and st.times.max() <= chunk[-1].end_s
    assert np.all(np.diff(st.times) > 0)
    joined, offsets, _ = join(rec, chunk)
    again = encode_joined(tiny.model, joined, offsets)  # one window here: the same input, the same states
    n = min(len(again.times), len(st.times))
    assert np.allclose(again.times[:n], st.times[:n])
    assert np.corrcoef(again.states[:n].astype(np.float32).ravel(), st.states[:n].astype(np.float32).ravel())[0, 1] > 0.99
    whole = encode(tiny.model, joined).pool(0.0, offsets[-1][1])
    assert whole.shape == (768,)


@pytest.mark.slow
def test_emotion_stage_reads_the_states_the_asr_stage_kept(tmp_path, monkeypatch):
    """Base profile: the asr stage stores its states per chunk and the emotion stage (head v9) pools them without
    running an encoder (the fallback encoder path would raise here)."""
    from harp_desktop.api import IndexOptions, Library
    from harp_desktop.index import emotion_states

    def no_encoder(*_a, **_k):
        raise AssertionError("the emotion stage encoded audio although the asr stage kept its states")

    monkeypatch.setattr(emotion_states, "encode_joined", no_encoder)
    with Library(tmp_path / "lib") as lib:
        res = lib.index(DATA / "speech_two_speakers.flac", IndexOptions(asr_profile="base"))
        assert "emotion" in res.ran
        states, _ = lib.db.get_array(res.recording_id, "asr_states_0")
        times, _ = lib.db.get_array(res.recording_id, "asr_state_times_0")
        assert states.shape == (len(times), 512) and states.dtype == np.float16
        probs, meta = lib.db.get_array(res.recording_id, "emotion_probs")
        assert len(meta["segment_ids"]) >= 1 and np.allclose(probs.sum(1), 1.0, atol=1e-4)


class _Arrays:
    """The two LibraryDB calls chunk_states makes, in memory."""

    def __init__(self) -> None:
        self.arrays: dict = {}
        self.db = self
        self.reads: list[str] = []

    def put_array(self, rid, name, arr, meta=None) -> None:  # noqa: ANN001
        self.arrays[name] = np.asarray(arr)

    def get_array(self, rid, name):  # noqa: ANN001, ANN201
        self.reads.append(name)
        return (self.arrays[name], {}) if name in self.arrays else None

    def query(self, sql, params):  # noqa: ANN001, ANN201
        return [{"name": n} for n in self.arrays]


def test_emotion_pools_chunk_by_chunk_with_the_same_numbers():
    """Stop 27: the emotion stage reads the kept states one chunk at a time (peak RSS at 60 minutes) and pools exactly
    what the whole recording's states concatenated gave."""
    from harp_desktop.index.asr_states import ChunkStates, chunk_states, put_chunk_states
    from harp_desktop.index.whisper_enc import EncoderStates

    rng = np.random.default_rng(27)
    db, parts, t = _Arrays(), [], 0.0
    for k, n in enumerate([700, 0, 1500, 30, 1200]):  # a chunk without captured windows adds nothing
        times = t + np.sort(rng.uniform(0, n * 0.02, n))
        t = (times[-1] if n else t) + 5.0
        st = EncoderStates(rng.normal(size=(n, 16)).astype(np.float16), times)
        put_chunk_states(db, 1, k, st)
        parts.append(st)
    whole = EncoderStates(np.concatenate([p.states for p in parts]), np.concatenate([p.times for p in parts]))
    lazy = chunk_states(db, 1, 5)
    assert isinstance(lazy, ChunkStates)
    spans = [(float(a), float(a) + float(d)) for a, d in zip(rng.uniform(-5, t + 5, 300), rng.choice([0.01, 1, 3, 40], 300), strict=True)]
    for a, b in spans + [(whole.times[0], whole.times[-1]), (13.99, 14.0)]:
        assert np.array_equal(lazy.pool(a, b), whole.pool(a, b)), (a, b)
        assert len(lazy._open) <= ChunkStates.CACHED
    assert chunk_states(db, 1, 6) is None  # a chunk without stored states: the emotion stage encodes instead
