"""Recording the virtual microphone through sounddevice: the file, live words, the same index rows."""

from __future__ import annotations

import shutil
import time

import soundfile as sf

from harp_desktop.api import IndexOptions, Library
from harp_desktop.index.diarise import GROUP, MIN_REGION_S
from harp_desktop.record import ahead, partial
from tests.conftest import FAST
from tests.record.conftest import best_match
from tests.record.test_ahead import rows, stage_info


def _record_clip(lib: Library, virtual_mic, clip, target, live: bool = True, options: IndexOptions = FAST):
    got = []
    session = lib.record(target, options=options, live=live, on_words=got.append)
    session.start()
    time.sleep(0.3)
    virtual_mic.play(clip).wait()
    time.sleep(1.0)  # the clip's tail and the sink's latency
    path = session.stop()
    return session, path, got


def test_records_the_played_file_and_transcribes_it_live(virtual_mic, speech_clip, tmp_path):
    with Library(tmp_path / "lib") as lib:
        session, path, chunks = _record_clip(lib, virtual_mic, speech_clip, tmp_path / "out" / "rec.flac")
        assert path == (tmp_path / "out" / "rec.flac").resolve()
        info = sf.info(path)
        clip_s = sf.info(speech_clip).duration
        # 0.3 s before + the clip + 1 s after, minus the sink's start-up latency
        assert clip_s <= info.duration <= clip_s + 3.0, info.duration
        assert session.recorder.overflows == 0
        assert lib.partial_recordings() == [] and not list((lib.folder / partial.FOLDER).glob("*.pcm"))
        # The clip itself is in the file, sample for sample up to the sink's resampling.
        rec, _ = sf.read(path, dtype="float32")
        ref, _ = sf.read(speech_clip, dtype="float32")
        _, score = best_match(rec, ref[16000:48000])
        assert score > 0.95, score
        text = " ".join(w.text for c in chunks for w in c).lower()
        assert len(chunks) >= 2  # shown chunk by chunk, not at the end only
        for word in ("chest", "pain", "breath", "cough", "breathe"):
            assert word in text, text


def test_stopped_recording_is_indexed_as_if_opened_as_a_file(virtual_mic, speech_clip, tmp_path, monkeypatch):
    """The work done while recording (record/ahead.py) is what the stages use, and the rows are the file's."""
    monkeypatch.setattr(ahead, "STEP_S", 1.0)  # plan often: chunks close while the clip still plays
    options = IndexOptions(asr_profile="tiny.en", asr_chunk_s=3.0)
    with Library(tmp_path / "lib") as lib:
        session, path, _ = _record_clip(lib, virtual_mic, speech_clip, tmp_path / "rec.flac", options=options)
        result = session.index()
        session.ahead.join()
        recorded = rows(lib, result.recording_id)
        asr, cache = stage_info(lib, result.recording_id, "asr"), lib.models.ahead()
    assert session.ahead.error is None
    assert asr["chunks"] >= 2 and asr["chunks_computed_ahead"] == asr["chunks"], asr
    # Silero's regions, the chunks, every speaker group (GE2E and CAM++; done while recording, or beside the asr
    # stage: index/beside.py) and the sounds stage's tagger pass (beside the events stage), each taken once
    groups = -(-sum(1 for r in recorded["regions"] if r[-1] - r[-2] >= MIN_REGION_S) // GROUP)
    assert session.ahead.computed["speakers"] > 0
    assert cache.misses == 0 and cache.hits == 2 + asr["chunks"] + 2 * groups, \
        (cache.hits, cache.misses, session.ahead.computed)
    copy = shutil.copy(path, tmp_path / "opened.flac")
    with Library(tmp_path / "other") as other:
        opened = rows(other, other.index(copy, options).recording_id)
    assert recorded["words"] and recorded["segments"]
    assert recorded == opened
    assert "chest pain" in " ".join(s[2] for s in recorded["segments"]).lower()


def _wait_frames(rec, n: int, timeout: float = 10.0) -> None:
    t0 = time.monotonic()
    while rec.frames < n:
        assert time.monotonic() - t0 < timeout, f"only {rec.frames} frames arrived"
        time.sleep(0.05)


def test_pause_leaves_the_paused_audio_out(virtual_mic, tmp_path):
    with Library(tmp_path / "lib") as lib:
        session = lib.record(tmp_path / "p.flac", options=FAST, live=False)
        rec = session.recorder
        session.start()
        _wait_frames(rec, 16000)
        session.pause()
        time.sleep(0.3)  # blocks already queued land on disk
        at_pause = rec.frames
        time.sleep(2.0)
        assert rec.paused and rec.frames == at_pause  # two seconds paused: nothing written
        session.resume()
        _wait_frames(rec, at_pause + 16000)
        path = session.stop()
    assert not rec.paused
    assert sf.info(path).frames == rec.frames
    assert 2.0 <= sf.info(path).duration <= 3.0
