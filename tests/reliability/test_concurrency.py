"""Two programs on one library at once (the GUI and the CLI): WAL + busy timeouts, no
"database is locked" reaching the user, and the same rows as a run on its own."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from harp_desktop.api import Library
from tests.conftest import DATA, FAST, REPO, rows

pytestmark = pytest.mark.slow


def harp(*argv) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "harp_desktop.cli", *map(str, argv)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_indexers_and_a_reader_share_one_library(tmp_path, indexed, long_clip):
    ref_lib, ref = indexed
    lib_dir = tmp_path / "lib"
    # Two processes index the same recording at once (the GUI queue and a terminal), a third
    # indexes another file, while this process reads, renames a speaker and asks questions.
    procs = [harp("index", long_clip, "--asr", "tiny.en", "--library", lib_dir) for _ in range(2)]
    procs.append(harp("index", DATA / "speaker_b_1.flac", "--asr", "tiny.en", "--library", lib_dir))
    time.sleep(1.0)
    reads = writes = 0
    with Library(lib_dir) as lib:
        while any(p.poll() is None for p in procs):
            for rec in lib.db.recordings():
                lib.transcript(rec["sha256"])
                reads += 1
                if lib.db.segments(rec["id"]) and {"text_emb", "segments"} <= {s["stage"] for s in lib.db.stages(rec["id"])}:
                    lib.ask(rec["sha256"], "Did anyone cough?")
                    writes += 1
            time.sleep(0.2)
        outs = [p.communicate(timeout=60) for p in procs]
        for p, (out, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, err
            assert "locked" not in (out + err).lower() and "Traceback" not in err
        rec = lib.recording(str(long_clip))
        assert rows(lib, rec["id"]) == rows(ref_lib, ref.recording_id)
        assert len(lib.db.recordings()) == 2
        assert lib.db.db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for r in lib.db.recordings():  # vector labels are this recording's current segment ids
            segs = lib.db.segments(r["id"])
            for space in ("text", "speaker", "audio"):
                labels = set(int(i) for i in lib.vectors.load(r["sha256"], space).get_ids_list())
                assert labels <= {s["id"] for s in segs}, space
            text_labels = set(int(i) for i in lib.vectors.load(r["sha256"], "text").get_ids_list())
            assert text_labels == {s["id"] for s in segs if s["text"].strip()}
        lib.rename_speaker(rec["sha256"], "SPEAKER_1", "Dr Patel")
        assert not list(lib_dir.rglob("*.partial"))
    assert reads > 0


def test_a_writer_waits_for_a_long_transaction_instead_of_failing(tmp_path, capsys):
    """A second program holding the write lock for 3 s: `harp speaker` waits, then succeeds."""
    from harp_desktop.cli import main

    lib_dir = tmp_path / "lib"
    with Library(lib_dir) as lib:
        res = lib.index(DATA / "speech_two_speakers.flac", FAST)
    holder = subprocess.Popen([sys.executable, "-c",
                               "import sqlite3, sys, time\n"
                               "con = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                               "con.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(6)\n"
                               "con.execute('COMMIT'); print(time.time(), flush=True)\n",
                               str(lib_dir / "library.sqlite")], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    t0 = time.time()
    code = main(["speaker", res.sha256[:10], "SPEAKER_1", "Ms Jones", "--library", str(lib_dir)])
    done = time.time()
    released = float(holder.stdout.readline())
    holder.wait(timeout=30)
    err = capsys.readouterr().err
    assert code == 0 and "locked" not in err, err
    # It started while the lock was held and finished after the commit: it waited, it did not fail.
    assert t0 < released <= done + 0.05
