"""Index work done while recording: what the stages take from it gives the rows of a file opened cold."""

from __future__ import annotations

import json
import shutil
import time

import numpy as np
import soundfile as sf

from harp_desktop.api import IndexOptions, Library
from harp_desktop.index.diarise import GROUP, MIN_REGION_S
from harp_desktop.record import ahead
from harp_desktop.record.session import transcriber_factory

# The base profile: its encoder states are what the emotion head reads, so a hit must carry them.
OPTIONS = IndexOptions(asr_profile="base", asr_chunk_s=6.0)


def rows(lib: Library, rid: int) -> dict:
    """Everything the stages that can take ahead work leave, and what reads it (segments, emotion tags)."""
    q = lib.db.db.query
    out = {
        "regions": [tuple(r.values()) for r in q("SELECT start_s, end_s FROM speech_regions WHERE recording_id = ? ORDER BY idx", [rid])],
        "asr_chunks": [tuple(r.values()) for r in q("SELECT chunk, words, language FROM asr_chunks WHERE recording_id = ? ORDER BY chunk", [rid])],
        "segments": [tuple(r.values()) for r in q("SELECT s.start_s, s.end_s, s.text, k.label FROM segments s LEFT JOIN speakers k ON k.id = s.speaker_id WHERE s.recording_id = ? ORDER BY s.idx", [rid])],
        "words": [tuple(r.values()) for r in q("SELECT start_s, end_s, text, prob FROM words WHERE recording_id = ? ORDER BY start_s, id", [rid])],
        "tags": [tuple(r.values()) for r in q("SELECT kind, label, start_s, end_s, score FROM tags WHERE recording_id = ? ORDER BY kind, start_s, label", [rid])],
        "stages": sorted((r["stage"], r["fingerprint"]) for r in q("SELECT stage, fingerprint FROM stages WHERE recording_id = ?", [rid])),
    }
    names = [r["name"] for r in q("SELECT name FROM arrays WHERE recording_id = ? ORDER BY name", [rid])]
    for name in names:
        if name.startswith(("asr_state", "speaker_window", "event_", "vad_")):
            arr, _ = lib.db.get_array(rid, name)
            out[name] = (arr.shape, np.asarray(arr).tobytes())
    return out


def stage_info(lib: Library, rid: int, stage: str) -> dict:
    return json.loads(lib.db.db.execute("SELECT info FROM stages WHERE recording_id = ? AND stage = ?",
                                        [rid, stage]).fetchone()[0])


def test_work_done_while_recording_is_taken_and_rows_equal_a_cold_index(long_clip, tmp_path, monkeypatch):
    monkeypatch.setattr(ahead, "STEP_S", 2.0)
    audio, sr = sf.read(long_clip, dtype="int16")
    path = tmp_path / "rec.flac"
    sf.write(path, audio, sr, subtype="PCM_16")  # what Stop's finalise writes: the same 16-bit samples
    with Library(tmp_path / "lib") as lib:
        worker = ahead.IndexAhead(OPTIONS, lib.models, transcriber_factory(OPTIONS, lib.models))
        samples = audio.astype(np.float32) / 32768.0  # what the recorder hands its listeners
        for i in range(0, len(samples), 1600):
            worker.feed(samples[i: i + 1600])
            if i % 16000 == 0:
                time.sleep(0.05)
        deadline = time.monotonic() + 120
        while worker.computed["asr"] < 2 and time.monotonic() < deadline:  # chunks closed before the end
            time.sleep(0.2)
        during = dict(worker.computed)
        worker.finish()
        res = lib.index(path, OPTIONS)
        worker.join()
        assert worker.error is None
        recorded = rows(lib, res.recording_id)
        asr, cache = stage_info(lib, res.recording_id, "asr"), lib.models.ahead()
    assert during["asr"] >= 2, during  # closed chunks were transcribed while the audio still came in
    assert asr["chunks"] >= 3 and asr["chunks_computed_ahead"] == asr["chunks"], asr
    # Silero's regions, every ASR chunk and every speaker group (GE2E and CAM++ each; the events stage tags the file;
    # a group Stop's last plan had not claimed yet was computed beside the asr stage, index/beside.py) and the
    # sounds stage's tagger pass (beside the events stage) were taken, nothing was computed twice
    groups = -(-sum(1 for r in recorded["regions"] if r[-1] - r[-2] >= MIN_REGION_S) // GROUP)
    assert cache.misses == 0 and cache.hits == 2 + asr["chunks"] + 2 * groups, \
        (cache.hits, cache.misses, worker.computed)
    assert len(cache) == 0  # everything computed ahead was taken
    copy = shutil.copy(path, tmp_path / "opened.flac")
    with Library(tmp_path / "other") as other:
        opened = rows(other, other.index(copy, OPTIONS).recording_id)
    assert recorded["words"] and recorded["segments"] and any(k.startswith("asr_states") for k in recorded)
    assert any(t[0] == "emotion" for t in recorded["tags"])
    assert recorded.keys() == opened.keys()
    for k in recorded:
        assert recorded[k] == opened[k], k


def test_nothing_planned_differently_is_taken(long_clip, tmp_path):
    """A recording whose file differs from what the worker heard (here: the last second cut) still indexes
    to the file's own rows: the changed pieces miss and are computed by the stages."""
    audio, sr = sf.read(long_clip, dtype="int16")
    path = tmp_path / "rec.flac"
    sf.write(path, audio[: len(audio) - sr], sr, subtype="PCM_16")
    opts = IndexOptions(asr_profile="tiny.en", asr_chunk_s=6.0)
    with Library(tmp_path / "lib") as lib:
        worker = ahead.IndexAhead(opts, lib.models, transcriber_factory(opts, lib.models))
        worker.feed(audio.astype(np.float32) / 32768.0)
        worker.finish()
        res = lib.index(path, opts)
        worker.join()
        recorded = rows(lib, res.recording_id)
        assert lib.models.ahead().misses >= 1
    with Library(tmp_path / "other") as other:
        assert rows(other, other.index(path, opts).recording_id) == recorded
