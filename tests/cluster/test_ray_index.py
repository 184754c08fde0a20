import dataclasses

import pytest

from harp_desktop.api import Library
from harp_desktop.cluster.ray_index import index_on_ray
from tests.conftest import DATA, FAST, rows

pytestmark = pytest.mark.slow
CLIPS = [DATA / "speech_two_speakers.flac", DATA / "speaker_b_1.flac", DATA / "cough_1.flac"]


@pytest.fixture(scope="module")
def local_rows(tmp_path_factory, ray_local):
    """The same clips through the local pipeline, with the workers' thread count."""
    _, threads = ray_local
    with Library(tmp_path_factory.mktemp("local")) as lib:
        options = dataclasses.replace(FAST, cpu_threads=threads)
        return {p.name: rows(lib, lib.index(p, options).recording_id) for p in CLIPS}


def test_ray_gives_the_local_rows_and_is_idempotent(ray_local, local_rows, library_dir):
    ray, threads = ray_local
    assert ray._private.worker.global_worker.node.node_ip_address == "127.0.0.1"  # loopback runtime
    with Library(library_dir) as lib:
        out = index_on_ray(lib.db, lib.vectors, CLIPS, FAST, workers=2, threads=threads)
        assert not [o for o in out if "error" in o]
        for o in out:
            res = o["result"]
            assert "asr" in res.ran and rows(lib, res.recording_id) == local_rows[res.path.rsplit("/", 1)[1]]
            assert (lib.folder / "audio" / f"{res.sha256}.f32").exists()
            assert all(s["seconds"] is not None for s in lib.db.stages(res.recording_id))
        sha = lib.recording(CLIPS[0])["sha256"]
        seg = lib.db.segments(lib.recording(CLIPS[0])["id"])[0]
        q = lib.vectors.get(sha, "text", [seg["id"]])[0]
        assert lib.nearest(sha, "text", q, k=1)[0][0]["id"] == seg["id"]  # vectors carry this library's ids
        again = index_on_ray(lib.db, lib.vectors, CLIPS, FAST, workers=2, threads=threads)
        assert [o["result"].ran for o in again] == [[]] * len(CLIPS)
        assert len(lib.db.recordings()) == len(CLIPS)


def test_partly_indexed_recording_resumes_on_a_worker(ray_local, local_rows, library_dir, tmp_path):
    _, threads = ray_local
    clip = CLIPS[0]
    with Library(library_dir) as lib:
        rid = lib.index(clip, dataclasses.replace(FAST, cpu_threads=threads)).recording_id
        lib.db.db.execute("DELETE FROM stages WHERE recording_id = ? AND stage IN ('segments', 'text_emb', "
                          "'speaker_emb', 'audio_emb', 'emotion')", [rid])
        lib.rename_speaker(clip, "SPEAKER_1", "Dr Patel")
        bad = tmp_path / "notes.wav"
        bad.write_text("not audio")
        out = index_on_ray(lib.db, lib.vectors, [clip, bad], FAST, workers=1, threads=threads)
        errors = [o for o in out if "error" in o]
        assert len(errors) == 1 and errors[0]["path"].endswith("notes.wav") and "\n" not in errors[0]["error"]
        res = next(o["result"] for o in out if "result" in o)
        assert res.recording_id == rid and set(res.skipped) >= {"vad", "asr", "speakers", "events"}
        assert "segments" in res.ran and "asr" not in res.ran
        assert rows(lib, rid) == local_rows[clip.name]
        assert lib.db.speakers(rid)[0]["name"] == "Dr Patel"
        assert len(lib.db.recordings()) == 1


def test_cancel_reaches_the_workers_and_leaves_a_consistent_library(ray_local, library_dir):
    from harp_desktop.api import Cancelled

    _, threads = ray_local
    polls = []

    def stop_after_dispatch() -> bool:  # False while jobs are handed out, then Ctrl-C
        polls.append(1)
        return len(polls) > 1

    with Library(library_dir) as lib:
        with pytest.raises(Cancelled):
            index_on_ray(lib.db, lib.vectors, CLIPS[:2], FAST, workers=2, threads=threads,
                         should_stop=stop_after_dispatch)
        for rec in lib.db.recordings():  # whatever finished was merged whole: stage rows match their data
            done = {s["stage"] for s in lib.db.stages(rec["id"])}
            assert "decode" in done
            assert ("vad" in done) == bool(lib.db.db.execute(
                "SELECT count(*) FROM speech_regions WHERE recording_id = ?", [rec["id"]]).fetchone()[0])
        assert not [p for p in library_dir.iterdir() if p.name.startswith((".merge-", ".seed-", ".import-"))]


def test_ray_with_one_core_per_worker_gives_the_default_local_rows(ray_local, tmp_path):
    """Issue 18: `--engine ray` (1 core reserved per worker, the CLI default) against a plain local
    run with the default options: the same segments, words, events, emotion tags and speakers."""
    import os

    clip = CLIPS[0]
    with Library(tmp_path / "local") as lib:
        want = rows(lib, lib.index(clip, FAST).recording_id)
    with Library(tmp_path / "ray") as lib:
        out = index_on_ray(lib.db, lib.vectors, [clip], FAST, workers=1, threads=1)
        assert "error" not in out[0]
        got = rows(lib, out[0]["result"].recording_id)
        # Ray would give a 1-CPU actor OMP_NUM_THREADS=1; the worker keeps this process's width.
        assert out[0]["worker_omp_threads"] == (os.environ.get("OMP_NUM_THREADS")
                                                or str(len(os.sched_getaffinity(0))))
    assert got["words"] and got["segments"] and got["speakers"]
    assert got == want
