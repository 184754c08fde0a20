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
    for w in words:
        assert any(r.start_s - 0.05 <= w.start_s <= w.end_s <= r.end_s + 0.05 for r in regions), w
    first_b = next(w for w in words if "some" in w.text.lower())
    assert abs(first_b.start_s - (30 + items[1]["start_s"])) < 0.6
