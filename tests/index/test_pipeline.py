import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest
import soundfile as sf

from harp_desktop.api import AudioError, Cancelled, IndexOptions, Library
from harp_desktop.index.pipeline import STAGES
from tests.conftest import DATA, FAST, REPO, rows


def test_every_stage_produces_its_output(indexed):
    lib, res = indexed
    assert res.ran == [s.name for s in STAGES]
    data = lib.transcript(res.sha256[:10])
    assert [s["id"] for s in data["speakers"]] == ["SPEAKER_1", "SPEAKER_2"]
    text = " ".join(s["text"] for s in data["segments"]).lower()
    assert "chest pain" in text and "clinic" in text
    assert len(data["segments"]) >= 6
    # Turns alternate between the two voices as the clips do (a, b, a, b, a, b).
    first = [s["speaker"] for s in data["segments"] if "chest pain or" in s["text"].lower()]
    second = [s["speaker"] for s in data["segments"] if "breathe normally" in s["text"].lower()]
    assert first and second and first[0] != second[0]
    # Words carry timestamps inside their segment.
    seg = data["segments"][0]
    words = lib.db.words(seg["id"])
    assert words and all(seg["start_s"] - 0.01 <= w["start_s"] <= w["end_s"] <= seg["end_s"] + 0.5 for w in words)
    # Sound events: both coughs found.
    coughs = [e for e in data["events"] if e["label"] == "cough"]
    assert len(coughs) >= 2
    # Vectors for every space, searchable.
    for space in ("text", "speaker", "audio"):
        assert lib.vectors.exists(res.sha256, space)
    n_text = lib.vectors.load(res.sha256, "text").get_current_count()
    assert n_text == sum(1 for s in data["segments"] if s["text"].strip())


def test_vector_search_restricted_to_a_time_window(indexed):
    lib, res = indexed
    segs = lib.db.segments(res.recording_id)
    target = next(s for s in segs if "clinic" in s["text"].lower())
    vec = lib.vectors.get(res.sha256, "text", [target["id"]])[0]
    hits = lib.nearest(res.sha256, "text", vec, k=3)
    assert hits[0][0]["id"] == target["id"] and hits[0][1] > 0.99
    later = lib.nearest(res.sha256, "text", vec, k=3, start_s=target["end_s"] + 0.1)
    assert later and all(h[0]["start_s"] >= target["end_s"] for h in later)


def test_library_files_are_private(indexed):
    lib, _ = indexed
    for p in [lib.folder, *lib.folder.rglob("*")]:
        assert p.stat().st_mode & 0o077 == 0, p


def test_show_json_shape(indexed):
    lib, res = indexed
    data = lib.transcript(res.path)
    assert set(data["recording"]) >= {"path", "sha256", "duration_s"}
    assert all(set(s) >= {"id", "name"} for s in data["speakers"])
    assert all(set(s) >= {"start_s", "end_s", "speaker", "text"} for s in data["segments"])
    assert all(set(e) >= {"start_s", "end_s", "label", "score"} for e in data["events"])


def test_reindex_is_a_noop(indexed, long_clip):
    lib, res = indexed
    before = rows(lib, res.recording_id)
    again = lib.index(long_clip, FAST)
    assert again.ran == [] and again.skipped == [s.name for s in STAGES]
    assert rows(lib, res.recording_id) == before


def test_changing_asr_reruns_only_dependent_stages(tmp_path, long_clip):
    lib = Library(tmp_path / "lib")
    lib.index(long_clip, FAST)
    res = lib.index(long_clip, IndexOptions(asr_profile="base"))
    assert res.ran == ["asr", "segments", "text_emb", "speaker_emb", "audio_emb", "emotion", "findings"]
    assert set(res.skipped) == {"vad", "speakers", "events", "sounds"}


def test_unknown_or_unavailable_profile_is_refused_before_work(tmp_path, long_clip):
    lib = Library(tmp_path / "lib")
    with pytest.raises(Exception, match="unavailable"):
        lib.index(long_clip, IndexOptions(asr_profile="small"))
    assert lib.db.recordings() == []


def test_cancel_keeps_finished_stages_and_resumes(tmp_path, long_clip):
    lib = Library(tmp_path / "lib")
    seen = []

    def progress(p):
        seen.append(p.stage)

    with pytest.raises(Cancelled):
        lib.index(long_clip, FAST, progress, should_stop=lambda: "speakers" in seen)
    rid = lib.db.recordings()[0]["id"]
    done = {s["stage"] for s in lib.db.stages(rid)}
    assert {"decode", "vad", "asr"} <= done and "segments" not in done
    res = lib.index(long_clip, FAST)
    assert "vad" in res.skipped and "asr" in res.skipped and "segments" in res.ran


def test_progress_reports_fraction_and_eta(tmp_path):
    lib = Library(tmp_path / "lib")
    events = []
    lib.index(DATA / "speaker_a_1.flac", FAST, events.append)
    fracs = [p.fraction for p in events]
    assert fracs == sorted(fracs) and fracs[-1] == 1.0
    assert {"decode", "asr", "events", "done"} <= {p.stage for p in events}
    assert any(p.eta_s is not None for p in events)


def test_silence_only_gives_zero_segments_and_a_note(tmp_path):
    path = tmp_path / "silence.wav"
    sf.write(path, np.random.default_rng(0).normal(0, 1e-4, 16000 * 6).astype(np.float32), 16000)
    lib = Library(tmp_path / "lib")
    res = lib.index(path, FAST)
    assert lib.db.segments(res.recording_id) == []
    assert any("no speech" in n for n in res.notes)
    assert "no speech" in lib.transcript(str(path))["recording"]["note"]


def _zero_length_wav(path):
    sf.write(path, np.zeros(0, np.float32), 16000)
    return path.read_bytes()


@pytest.mark.parametrize("content", [b"", b"hello, I am a text file\n" * 20, "zero-length"])
def test_bad_input_leaves_nothing_behind(tmp_path, content):
    bad = tmp_path / "bad.wav"
    if content == "zero-length":
        _zero_length_wav(bad)
    else:
        bad.write_bytes(content)
    lib = Library(tmp_path / "lib")
    with pytest.raises(AudioError):
        lib.index(bad, FAST)
    assert lib.db.recordings() == []
    assert not (tmp_path / "lib" / "audio").exists() or not list((tmp_path / "lib" / "audio").iterdir())


@pytest.mark.parametrize("sr,channels,subtype", [(8000, 2, "PCM_16"), (96000, 1, "PCM_24")])
def test_odd_formats_index_correctly(tmp_path, sr, channels, subtype):
    import soxr

    x, _ = sf.read(DATA / "speaker_b_1.flac", dtype="float32")
    y = soxr.resample(x, 16000, sr)
    path = tmp_path / f"Patientin_é_{sr}.wav"
    sf.write(path, np.stack([y] * channels, 1) if channels > 1 else y, sr, subtype=subtype)
    lib = Library(tmp_path / "lib")
    res = lib.index(path, FAST)
    text = " ".join(s["text"] for s in lib.transcript(str(path))["segments"]).lower()
    assert "headache" in text and "sunday" in text, text
    assert abs(res.duration_s - len(x) / 16000) < 0.05


@pytest.mark.slow
def test_resume_after_kill_9_matches_uninterrupted_run(tmp_path, long_clip):
    """A process killed mid-ASR is re-run: same rows as a run that was never interrupted."""
    opts = "IndexOptions(asr_profile='tiny.en', asr_chunk_s=6.0)"
    script = (
        "import sys; from harp_desktop.api import Library, IndexOptions\n"
        f"Library(sys.argv[1]).index(sys.argv[2], {opts})\n"
    )
    killed_lib = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-c", script, str(killed_lib), str(long_clip)], env=env)
    db_file = killed_lib / "library.sqlite"
    deadline = time.time() + 120
    killed = False
    while time.time() < deadline and proc.poll() is None:
        try:
            with sqlite3.connect(db_file, timeout=1) as con:
                if con.execute("SELECT COUNT(*) FROM asr_chunks").fetchone()[0] >= 1:
                    proc.send_signal(signal.SIGKILL)
                    killed = True
                    break
        except sqlite3.Error:
            pass
        time.sleep(0.02)
    proc.wait()
    assert killed, "the indexer finished before it could be killed"
    lib = Library(killed_lib)
    rid = lib.db.recordings()[0]["id"]
    assert "segments" not in {s["stage"] for s in lib.db.stages(rid)}
    partial_chunks = lib.db.db.execute("SELECT COUNT(*) FROM asr_chunks").fetchone()[0]
    assert partial_chunks >= 1
    res = lib.index(long_clip, eval(opts))
    assert "decode" not in res.ran and "vad" not in res.ran
    clean = Library(tmp_path / "clean")
    clean_res = clean.index(long_clip, eval(opts))
    assert rows(lib, res.recording_id) == rows(clean, clean_res.recording_id)
    assert lib.db.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
