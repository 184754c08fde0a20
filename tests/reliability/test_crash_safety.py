"""Crash safety: SIGKILL the indexer at random moments, resume, compare with a clean run.

A seeded schedule of kill times spread over what is left of the run (20 SIGKILLs); after every kill the
library must pass ``PRAGMA integrity_check``, hold no duplicate rows, hold exactly the
clean run's rows for every stage it marks finished, and have vector indexes whose labels
are that stage's segment ids. Every fifth trial the indexer then runs to the end and the
whole library is compared with the clean run, then started afresh.

The same runs on an encrypted library (fewer kills: every start derives the key with
scrypt), where after every kill no file may hold a word of the transcript in the clear
(a killed run must not leave plaintext temporaries behind either).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harp_desktop.api import Library
from harp_desktop.index.ambient_labels import AMBIENT_LABELS
from harp_desktop.index.pipeline import STAGES
from tests.conftest import DATA, REPO, rows

pytestmark = pytest.mark.slow

CLIP = DATA / "speech_two_speakers.flac"  # 8.9 s, two voices
# Small ASR chunks, so kills also land between committed chunks of the ASR stage.
DRIVER = ("import sys\nfrom harp_desktop.api import IndexOptions, Library\n"
          "Library(sys.argv[1]).index(sys.argv[2], IndexOptions(asr_profile='tiny.en', asr_chunk_s=3.0))\n")
SEED = 20261201
PASS = "crash test passphrase"
# Which rows() keys (and tag kinds) each stage owns: compared once the stage is marked done.
OWNS = {"vad": ["regions"], "segments": ["segments", "words", "speakers"]}
# Which tag rows (kind, label, ...) each stage owns: the sounds stage writes the room's events.
TAG_KIND = {"events": lambda t: t[0] == "event" and t[1] not in AMBIENT_LABELS,
            "sounds": lambda t: t[0] == "event" and t[1] in AMBIENT_LABELS,
            "emotion": lambda t: t[0] == "emotion"}
SPACES = {s.name: s.vector_space for s in STAGES if s.vector_space}


def start(lib: Path, encrypted: bool = False) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if encrypted:
        env["HARP_PASSPHRASE"] = PASS
        if not lib.exists():  # created as a user would (`harp library init --encrypt`), then indexed
            Library(lib, PASS, encrypt=True).close()
    return subprocess.Popen([sys.executable, "-c", DRIVER, str(lib), str(CLIP)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def vector_idx(lib: Library, sha: str, space: str, rid: int) -> set[int]:
    """The segment idx values a vector file is labelled with (ids differ between libraries)."""
    index = lib.vectors.load(sha, space)
    labels = set(int(i) for i in index.get_ids_list())
    idx_of = {r["id"]: r["idx"] for r in lib.db.db.query("SELECT id, idx FROM segments WHERE recording_id = ?", [rid])}
    assert labels <= set(idx_of), f"{space}: vector labels that are not segment ids of this recording"
    return {idx_of[i] for i in labels}


def snapshot(lib: Library) -> tuple[dict, dict, set[str], dict]:
    rec = lib.db.recordings()[0]
    rid = rec["id"]
    data = rows(lib, rid)
    fps = {s["stage"]: s["fingerprint"] for s in lib.db.stages(rid)}
    vecs = {stage: vector_idx(lib, rec["sha256"], space, rid) for stage, space in SPACES.items() if stage in fps}
    return data, fps, set(fps), vecs


def check_invariants(lib: Library, clean: tuple) -> int:
    """Everything a killed run may leave must be consistent; returns the number of rows compared."""
    con = lib.db.db.conn
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    dupes = {
        "words": "SELECT COUNT(*) - (SELECT COUNT(*) FROM (SELECT DISTINCT segment_id, start_s, end_s, text FROM words))"
                 " FROM words",
        "tags": "SELECT COUNT(*) - (SELECT COUNT(*) FROM (SELECT DISTINCT recording_id, kind, label, start_s, end_s "
                "FROM tags)) FROM tags",
        "recordings": "SELECT COUNT(*) - COUNT(DISTINCT sha256) FROM recordings",
    }
    for table, sql in dupes.items():
        assert con.execute(sql).fetchone()[0] == 0, f"duplicate rows in {table}"
    fts = con.execute("SELECT COUNT(*) FROM segments_fts").fetchone()[0]
    assert fts == con.execute("SELECT COUNT(*) FROM segments").fetchone()[0], "FTS index out of step with segments"
    if not lib.db.recordings():
        return 0
    c_rows, c_fps, _, c_vecs = clean
    data, fps, done, vecs = snapshot(lib)
    compared = 0
    for stage in done:
        if stage != "decode":
            assert fps[stage] == c_fps[stage], f"stage {stage} finished with a different fingerprint"
        for key in OWNS.get(stage, []):
            assert data[key] == c_rows[key], f"{key} differ from the clean run after {stage}"
            compared += len(data[key])
        if stage in TAG_KIND:
            mine = [t for t in data["tags"] if TAG_KIND[stage](t)]
            assert mine == [t for t in c_rows["tags"] if TAG_KIND[stage](t)], f"{stage} tags differ"
            compared += len(mine)
        if stage in vecs:
            assert vecs[stage] == c_vecs[stage], f"{stage} vectors are not the clean run's segments"
            compared += len(vecs[stage])
    return compared


def plaintext_in(folder: Path, words: set[bytes]) -> list[str]:
    """Files of an encrypted library that hold a transcript word in the clear."""
    hits = []
    for p in folder.rglob("*"):
        if p.is_file():
            raw = p.read_bytes().lower()
            hits += [f"{p.relative_to(folder)}: {w!r}" for w in words if w in raw]
    return hits


@pytest.mark.parametrize("encrypted, trials, finish_every", [(False, 20, 5), (True, 8, 4)], ids=["plain", "encrypted"])
def test_sigkill_at_random_points_then_resume(tmp_path, encrypted, trials, finish_every):
    t0 = time.monotonic()
    clean_dir = tmp_path / "clean"
    proc = start(clean_dir, encrypted)
    assert proc.wait(timeout=300) == 0, proc.stderr.read().decode()
    clean_s = time.monotonic() - t0
    passphrase = PASS if encrypted else None
    with Library(clean_dir, passphrase) as lib:
        clean = snapshot(lib)
    assert clean[2] >= {s.name for s in STAGES} and clean[0]["segments"]
    words = {w.lower().encode() for seg in clean[0]["segments"] for w in re.findall(r"[A-Za-z]{6,}", seg[3])}
    if encrypted:
        assert words and plaintext_in(clean_dir, words) == []

    rng = random.Random(SEED)
    killed = finished_early = compared = cycles = trial = 0
    lib_dir = tmp_path / "cycle0"
    window = clean_s  # what a run from the current state may still take; shrinks as the cycle resumes
    while killed < trials and trial < 4 * trials:  # a run may finish before its kill: try again, the kills are what is asserted
        trial += 1
        proc = start(lib_dir, encrypted)
        t_run = time.monotonic()
        time.sleep(rng.uniform(0.1, 0.9) * window)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        else:  # this state needed less than the window: aim the next kills inside what remains
            finished_early += 1
            window = max(1.0, 0.9 * (time.monotonic() - t_run))
        proc.wait(timeout=60)
        with Library(lib_dir, passphrase) as lib:
            compared += check_invariants(lib, clean)
        if encrypted:
            assert plaintext_in(lib_dir, words) == [], "a killed run left plaintext on disk"
        if trial % finish_every == 0:  # resume to the end: the whole library must equal the clean run
            proc = start(lib_dir, encrypted)
            assert proc.wait(timeout=300) == 0, proc.stderr.read().decode()
            with Library(lib_dir, passphrase) as lib:
                compared += check_invariants(lib, clean)
                data, _, done, vecs = snapshot(lib)
                assert data == clean[0] and done == clean[2] and vecs == clean[3]
                compared += sum(len(v) for v in data.values())
            assert not list(lib_dir.rglob("*.partial")), "temporary files left behind"
            cycles += 1
            lib_dir = tmp_path / f"cycle{cycles}"
            window = clean_s
    elapsed = time.monotonic() - t0
    print(f"\ncrash safety ({'encrypted' if encrypted else 'plain'} library): {trial} trials, {killed} SIGKILLs, {finished_early} finished before the kill, "
          f"{cycles} full resumes, {compared} rows compared, 0 failures; clean run {clean_s:.1f} s, total {elapsed:.0f} s")
    assert killed >= trials
