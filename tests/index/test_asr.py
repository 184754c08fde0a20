import numpy as np
import pytest

from harp_desktop import weights
from harp_desktop.audio.decode import load_clip
from harp_desktop.index.asr import GAP_S, AsrOptions, Transcriber, _to_recording_time, plan_chunks
from harp_desktop.types import Region
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
