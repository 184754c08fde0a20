import numpy as np
import pytest

from harp_desktop import weights
from harp_desktop.audio.decode import load_clip
from harp_desktop.index.asr import (
    CHUNK_S,
    GAP_S,
    WINDOW_S,
    AsrOptions,
    Transcriber,
    _to_recording_time,
    join,
    joined_s,
    plan_chunks,
    spans_of,
    uncovered,
)
from harp_desktop.types import Region, Word
from tests.conftest import DATA


def test_plan_chunks_bounds_joined_audio_per_chunk():
    regions = [Region(i * 10.0, i * 10.0 + 8.0) for i in range(10)]
    chunks = plan_chunks(regions, max_joined_s=20.0)  # two regions: 8 + 0.8 gap + 8 s
    assert [len(c) for c in chunks] == [2, 2, 2, 2, 2]
    assert [r for c in chunks for r in c] == regions
    assert plan_chunks([]) == []
    # 30 s of speech used to be one chunk: with the gaps it overflowed Whisper's window. Now 3 + 0.8 + 3 ... <= 10 s.
    short = [Region(i * 5.0, i * 5.0 + 3.0) for i in range(10)]
    assert [len(c) for c in plan_chunks(short, 10.0)] == [2, 2, 2, 2, 2]


def _regions(seed: int, n: int = 300) -> list[Region]:
    rng = np.random.default_rng(seed)
    out, t = [], 0.3
    for _ in range(n):
        t += float(rng.choice([0.2, 0.6, 1.5, 4.0]) * rng.uniform(0.5, 1.5))  # some pauses shorter than JOIN_S
        d = float(rng.choice([0.4, 2.0, 6.0, 14.0, 35.0], p=[0.3, 0.3, 0.25, 0.13, 0.02]) * rng.uniform(0.6, 1.2))
        out.append(Region(round(t, 3), round(t + d, 3)))
        t += d
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_planned_chunk_fits_one_whisper_window(seed):
    """Stop 27: a chunk's joined audio (speech + the synthetic gaps) is at most one 30 s window, unless it is a single
    region longer than that; ``joined_s`` (from the regions only) is the length ``join`` builds."""
    regions = _regions(seed)
    audio = np.zeros(int((regions[-1].end_s + 1) * 16000), np.float32)
    chunks = plan_chunks(regions, CHUNK_S)
    assert [r for c in chunks for r in c] == regions
    for i, c in enumerate(chunks):
        joined, offsets, _ = join(audio, c)
        assert joined_s(c) == len(joined) / 16000
        assert len(joined) <= WINDOW_S * 16000 or (len(spans_of(c)) == 1 and c[0].duration_s > WINDOW_S - 1), i
        if i + 1 < len(chunks):  # greedy: the next region would not have fitted
            assert joined_s(c + chunks[i + 1][:1]) > CHUNK_S


@pytest.mark.parametrize("seed", [3, 4])
def test_chunk_plan_depends_only_on_the_regions_before(seed):
    """The recording worker plans on a growing prefix of the regions and computes every chunk but the last: those
    must be the chunks of the finished file's plan."""
    regions = _regions(seed, 120)
    whole = plan_chunks(regions, CHUNK_S)
    for k in range(1, len(regions) + 1):
        part = plan_chunks(regions[:k], CHUNK_S)
        assert part[:-1] == whole[: len(part) - 1]


def test_times_map_back_through_gaps():
    offsets = [(0.0, 2.0, 10.0), (2.0 + GAP_S, 5.0 + GAP_S, 50.0)]
    assert _to_recording_time(1.0, offsets) == pytest.approx(11.0)
    assert _to_recording_time(2.0 + GAP_S + 1.0, offsets) == pytest.approx(51.0)
    assert _to_recording_time(2.0 + GAP_S / 4, offsets) == pytest.approx(50.0)  # a start in a gap moves forward
    assert _to_recording_time(2.0 + GAP_S / 4, offsets, is_end=True) == pytest.approx(12.0)  # an end moves back


def test_transcribes_two_regions_with_word_times_in_recording_time(clips):
    audio = load_clip(DATA / "speech_two_speakers.flac")
    padded = np.concatenate([np.zeros(16000 * 30, np.float32), audio])  # the clip starts at 30 s
    items = clips["clips"]["speech_two_speakers"]["items"]
    regions = [Region(30 + it["start_s"] - 0.1, 30 + it["end_s"] + 0.1) for it in items]
    tr = Transcriber(weights.model_path("asr-tiny.en"), AsrOptions())
    words, lang = tr.transcribe_chunk(padded, regions)
    assert lang == "en"
    text = "".join(w.text for w in words).lower()
    assert "chest pain" in text and "breathe" in text
    # The two regions are 0.4 s apart, so they are transcribed as one span with their real pause.
    for w in words:
        assert regions[0].start_s - 0.05 <= w.start_s <= w.end_s <= regions[-1].end_s + 0.05, w
    first_b = next(w for w in words if "some" in w.text.lower())
    assert abs(first_b.start_s - (30 + items[1]["start_s"])) < 0.6


def test_regions_far_apart_keep_their_own_times(clips):
    """Regions separated by a long pause get a synthetic gap; words map back into their own region."""
    audio = load_clip(DATA / "speech_two_speakers.flac")
    items = clips["clips"]["speech_two_speakers"]["items"]
    a = audio[int(items[0]["start_s"] * 16000) - 1600 : int(items[0]["end_s"] * 16000) + 1600]
    b = audio[int(items[1]["start_s"] * 16000) - 1600 : int(items[1]["end_s"] * 16000) + 1600]
    silence = np.zeros(16000 * 20, np.float32)
    rec = np.concatenate([silence, a, silence, b])
    regions = [Region(20.0, 20.0 + len(a) / 16000), Region(40.0 + len(a) / 16000, 40.0 + (len(a) + len(b)) / 16000)]
    words, _ = Transcriber(weights.model_path("asr-tiny.en"), AsrOptions()).transcribe_chunk(rec, regions)
    for w in words:
        assert any(r.start_s - 0.05 <= w.start_s <= w.end_s <= r.end_s + 0.05 for r in regions), w
    assert any(w.start_s > regions[1].start_s for w in words) and any(w.end_s < regions[0].end_s for w in words)


def test_uncovered_finds_speech_left_without_words():
    words = [Word(10.0, 10.5, " a", 0.9), Word(10.6, 11.0, " b", 0.9), Word(14.0, 14.5, " c", 0.9)]
    assert uncovered([Region(10.0, 16.0)], words, 1.0) == [(11.0, 14.0), (14.5, 16.0)]
    assert uncovered([Region(10.0, 11.2)], words, 1.0) == []
    assert uncovered([Region(20.0, 22.0)], words, 1.0) == [(20.0, 22.0)]


def test_speech_whisper_skipped_is_transcribed_again(clips, monkeypatch):
    """Whisper can seek past a stretch of speech (seen on dev); the repair pass hears it alone."""
    audio = load_clip(DATA / "speech_two_speakers.flac")
    items = clips["clips"]["speech_two_speakers"]["items"]
    regions = [Region(items[0]["start_s"] - 0.1, items[-1]["end_s"] + 0.1)]
    tr = Transcriber(weights.model_path("asr-tiny.en"), AsrOptions())
    full, _ = tr.transcribe_chunk(audio, regions)
    second = items[1]["start_s"]
    real = Transcriber._words
    calls = []

    def dropout(self, audio, offsets, language, strict=False, repair=False, thorough=False):
        words, lang = real(self, audio, offsets, language, strict, repair, thorough)
        calls.append(repair)
        # The first (whole-chunk) pass loses every word of the second speaker, as Whisper did on dev.
        return ([w for w in words if w.start_s < second - 0.2] if not calls[1:] else words), lang

    monkeypatch.setattr(Transcriber, "_words", dropout)
    repaired, _ = tr.transcribe_chunk(audio, regions)
    assert calls[0] is False and True in calls  # a repair pass ran
    text = "".join(w.text for w in repaired).lower()
    assert "chest pain" in text and "breathe" in text
    assert [w.start_s for w in repaired] == sorted(w.start_s for w in repaired)
    late = [w for w in repaired if w.start_s >= second - 0.2]
    assert abs(len(late) - len([w for w in full if w.start_s >= second - 0.2])) <= 2


def test_repair_pass_decodes_once_without_temperature_fallback(clips, monkeypatch):
    """Issue 18: the fallback re-decoded repair clips up to six times (to T=1.0) for words the strict
    filter then dropped; a repair clip is decoded greedily once, the main pass keeps the fallback."""
    audio = load_clip(DATA / "speech_two_speakers.flac")
    items = clips["clips"]["speech_two_speakers"]["items"]
    regions = [Region(items[0]["start_s"] - 0.1, items[-1]["end_s"] + 0.1)]
    tr = Transcriber(weights.model_path("asr-tiny.en"), AsrOptions())
    seen = []
    real_transcribe = tr.model.transcribe

    def spy(audio, **kw):
        seen.append(kw.get("temperature", "library default"))
        return real_transcribe(audio, **kw)

    monkeypatch.setattr(tr.model, "transcribe", spy)
    real = Transcriber._words
    second = items[1]["start_s"]

    def dropout(self, audio, offsets, language, strict=False, repair=False, thorough=False):
        words, lang = real(self, audio, offsets, language, strict, repair, thorough)
        return ([w for w in words if w.start_s < second - 0.2] if not repair else words), lang

    monkeypatch.setattr(Transcriber, "_words", dropout)
    words, _ = tr.transcribe_chunk(audio, regions)
    assert seen[0] == "library default" and len(seen) >= 2
    assert all(t == 0.0 for t in seen[1:])
    assert "breathe" in "".join(w.text for w in words).lower()


def test_a_long_hole_keeps_what_whisper_keeps_a_short_one_only_confident_speech(monkeypatch):
    """Telephone speech reads as "no speech" to Whisper (no_speech_prob 0.8-0.9 at avg_logprob -0.5): the
    strict filter, meant for a breath or a cough in a 2 s hole, had dropped a minute of a call."""
    from types import SimpleNamespace

    from harp_desktop.index.asr import REPAIR_LENIENT_S

    tr = Transcriber(weights.model_path("asr-tiny.en"), AsrOptions())
    word = SimpleNamespace(start=0.5, end=1.0, word=" amlodipine", probability=0.6)
    phone = SimpleNamespace(no_speech_prob=0.88, avg_logprob=-0.5, compression_ratio=1.6, words=[word])
    loop = SimpleNamespace(no_speech_prob=0.1, avg_logprob=-0.3, compression_ratio=3.1, words=[word])
    monkeypatch.setattr(tr.model, "transcribe", lambda audio, **kw: ([phone, loop], SimpleNamespace(language="en")))
    clip = np.zeros(16000 * 8, np.float32)
    lenient, _ = tr._words(clip, [(0.0, 8.0, 100.0)], "en", strict=False, repair=True)
    strict, _ = tr._words(clip, [(0.0, 8.0, 100.0)], "en", strict=True, repair=True)
    assert [w.text for w in lenient] == [" amlodipine"] and strict == []  # the repetition loop is dropped in both
    assert REPAIR_LENIENT_S > 2.0  # a breath or a cough's hole stays strict


def test_a_chunks_short_last_window_is_not_decoded(clips):
    """Stop 27: after a chunk's last word faster-whisper decodes what is left (a region's padding, ~0.3 s) in one more
    zero-padded 30 s window; a last window shorter than TAIL_SKIP_S is skipped, an earlier or longer one is not."""
    from harp_desktop.index.asr import TAIL_SKIP_S
    from harp_desktop.index.asr_states import TailSkipped

    tr = Transcriber(weights.model_path("asr-tiny.en"), AsrOptions())
    model = tr.model
    feats = np.zeros((80, 3000), np.float32)

    def generate_segments(seek, segment_size, content_frames):  # the locals faster-whisper's loop has
        return model.encode(feats)

    model.tail_frames = round(TAIL_SKIP_S * 100)
    assert TAIL_SKIP_S >= 0.5
    with pytest.raises(TailSkipped):
        generate_segments(2950, 40, 2990)  # a 0.4 s rest after the last word, at the end of the audio
    generate_segments(0, 40, 40)  # a chunk of 0.4 s: its first window is decoded
    generate_segments(2950, 3000, 6000)  # not the last window
    generate_segments(2950, round(TAIL_SKIP_S * 100) + 1, 2951 + round(TAIL_SKIP_S * 100))
    model.tail_frames = 0
    generate_segments(2950, 40, 2990)
    # A real chunk: words as before, and no short last window among those decoded.
    audio = load_clip(DATA / "speech_two_speakers.flac")
    items = clips["clips"]["speech_two_speakers"]["items"]
    regions = [Region(it["start_s"] - 0.1, it["end_s"] + 0.3) for it in items]
    seen = []
    from harp_desktop.index import asr

    real = asr.recording_states

    def spy(windows, offsets):
        seen.extend((seek, size) for seek, size, _ in windows)
        return real(windows, offsets)

    import unittest.mock as mock

    with mock.patch.object(asr, "recording_states", spy):
        words, _ = tr.transcribe_chunk(audio, regions)
    joined, _, _ = join(audio, regions)
    content = len(joined) // 160
    assert seen and seen[0][0] == 0
    assert not any(seek > 0 and seek + size >= content and size < TAIL_SKIP_S * 100 for seek, size in seen)
    assert "chest pain" in "".join(w.text for w in words).lower()


def test_the_temperature_fallback_is_seeded_before_every_transcription(monkeypatch):
    """CTranslate2 seeds its sampler at random unless told: the same audio gave other words run to run."""
    import ctranslate2

    from harp_desktop.index import asr

    calls: list[str] = []
    monkeypatch.setattr(ctranslate2, "set_random_seed", lambda seed: calls.append(f"seed {seed}"))

    class Model:
        def transcribe(self, audio, **kw):
            calls.append("transcribe")
            return iter(()), type("Info", (), {"language": "en"})()

    tr = asr.Transcriber.__new__(asr.Transcriber)
    tr.model, tr.options = Model(), AsrOptions()
    for _ in range(2):
        tr._words(np.zeros(16000, np.float32), [(0.0, 1.0, 0.0)], "en")
    assert calls == [f"seed {asr.ASR_SEED}", "transcribe"] * 2
