import numpy as np
import pytest

from harp_desktop import weights
from harp_desktop.audio.decode import load_clip
from harp_desktop.index.asr import GAP_S, AsrOptions, Transcriber, _to_recording_time, plan_chunks, uncovered
from harp_desktop.types import Region, Word
from tests.conftest import DATA


def test_plan_chunks_bounds_speech_per_chunk():
    regions = [Region(i * 10.0, i * 10.0 + 8.0) for i in range(10)]
    chunks = plan_chunks(regions, max_speech_s=20.0)
    assert [len(c) for c in chunks] == [2, 2, 2, 2, 2]
    assert [r for c in chunks for r in c] == regions
    assert plan_chunks([]) == []


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
