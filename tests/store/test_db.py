import os
import stat

import numpy as np
import pytest

from harp_desktop.store.db import SCHEMA_VERSION, LibraryDB


def test_schema_wal_and_private_files(library_dir):
    db = LibraryDB(library_dir)
    assert db.schema_version == SCHEMA_VERSION
    assert db.db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert "segments_fts" in db.db.table_names()
    assert stat.S_IMODE(os.stat(library_dir).st_mode) == 0o700
    for f in library_dir.iterdir():
        assert stat.S_IMODE(os.stat(f).st_mode) & 0o077 == 0, f
    db.close()
    # Re-opening does not migrate twice.
    assert LibraryDB(library_dir).schema_version == SCHEMA_VERSION


def test_newer_schema_is_refused(library_dir):
    db = LibraryDB(library_dir)
    db.db.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(RuntimeError, match="newer"):
        LibraryDB(library_dir)


def _recording(db, sha="ab" * 32):
    return db.add_recording(sha, "/tmp/x.wav", {"duration_s": 10.0})


def test_fts5_bm25_over_segment_text(library_dir):
    db = LibraryDB(library_dir)
    rid = _recording(db)
    db.db["segments"].insert_all([
        {"recording_id": rid, "idx": 0, "start_s": 0, "end_s": 2, "text": "I have had chest pains for three days"},
        {"recording_id": rid, "idx": 1, "start_s": 2, "end_s": 4, "text": "The weather is lovely"},
    ])
    rows = list(db.db.query(
        "SELECT s.idx, bm25(segments_fts) AS r FROM segments_fts JOIN segments s ON s.rowid = segments_fts.rowid "
        "WHERE segments_fts MATCH ? ORDER BY r", ["chest pain"]))
    assert [r["idx"] for r in rows] == [0]  # porter stemming: pains ~ pain
    db.db.execute("UPDATE segments SET text = 'no pain at all' WHERE idx = 1")
    assert len(list(db.db.query("SELECT rowid FROM segments_fts WHERE segments_fts MATCH 'pain'"))) == 2


def test_transaction_rolls_back_whole(library_dir):
    db = LibraryDB(library_dir)
    rid = _recording(db)
    with pytest.raises(ZeroDivisionError):
        with db.transaction():
            db.db["tags"].insert({"recording_id": rid, "kind": "event", "label": "cough", "start_s": 1,
                                  "end_s": 2, "score": 0.9})
            db.mark_stage_done(rid, "events", "fp", 1.0, {})
            raise ZeroDivisionError("simulated crash inside the transaction")
    assert db.tags(rid) == [] and db.stage_fingerprint(rid, "events") is None


def test_find_recording_by_prefix_and_path(library_dir):
    db = LibraryDB(library_dir)
    _recording(db, "abcdef0" + "0" * 57)
    _recording(db, "abcdef1" + "0" * 57)
    assert db.find_recording("abcdef1")["sha256"].startswith("abcdef1")
    with pytest.raises(LookupError, match="matches 2"):
        db.find_recording("abcdef")
    assert db.find_recording("abcde") is None  # too short to be a prefix: treated as a path
    assert db.find_recording("/tmp/x.wav") is not None


def test_arrays_roundtrip(library_dir):
    db = LibraryDB(library_dir)
    rid = _recording(db)
    a = np.arange(12, dtype=np.float16).reshape(3, 4)
    db.put_array(rid, "x", a, {"hop_s": 0.5})
    b, meta = db.get_array(rid, "x")
    assert (a == b).all() and b.dtype == np.float16 and meta == {"hop_s": 0.5}


def test_rename_speaker(library_dir):
    db = LibraryDB(library_dir)
    rid = _recording(db)
    db.db["speakers"].insert({"recording_id": rid, "idx": 0, "label": "SPEAKER_1"})
    db.rename_speaker(rid, "SPEAKER_1", "Dr Patel")
    assert db.speakers(rid)[0]["name"] == "Dr Patel"
    with pytest.raises(LookupError):
        db.rename_speaker(rid, "SPEAKER_9", "x")


def test_large_arrays_live_in_private_memmapped_files(library_dir):
    db = LibraryDB(library_dir)
    rid = _recording(db)
    big = np.arange(600_000, dtype=np.float32).reshape(-1, 100)
    db.put_array(rid, "frames", big, {"hop_s": 0.48})
    got, meta = db.get_array(rid, "frames")
    assert isinstance(got, np.memmap) and (got[123] == big[123]).all() and meta == {"hop_s": 0.48}
    files = list((library_dir / "arrays").rglob("*.npy"))
    assert len(files) == 1 and files[0].stat().st_mode & 0o077 == 0
    db.put_array(rid, "frames", big[:10])  # shrinks below the threshold: back into the row
    assert db.get_array(rid, "frames")[0].shape == (10, 100)


def test_programs_opening_a_new_library_at_once_migrate_it_once(tmp_path):
    """Several programs creating the same library together (CI caught "table recordings
    already exists"): the schema steps run once, the others wait and find it current."""
    import subprocess
    import sys
    import time

    from tests.conftest import REPO

    for trial in range(3):
        folder = tmp_path / f"lib{trial}"
        go = tmp_path / f"go{trial}"
        code = ("import os, sys, time\nfrom harp_desktop.store.db import LibraryDB\n"
                "while not os.path.exists(sys.argv[2]): time.sleep(0.001)\n"
                "print(LibraryDB(sys.argv[1]).schema_version)\n")
        procs = [subprocess.Popen([sys.executable, "-c", code, str(folder), str(go)],
                                  env={**os.environ, "PYTHONPATH": str(REPO)},
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(6)]
        time.sleep(3.0)  # every program imported and waiting at the start line
        go.touch()
        for p in procs:
            out, err = p.communicate(timeout=60)
            assert p.returncode == 0, err
            assert out.strip() == str(SCHEMA_VERSION)


def test_a_second_handle_in_one_process_keeps_other_programs_writes(tmp_path):
    """The GUI keeps the library open and opens it again for every question. Opening must not
    touch the database file outside SQLite: closing any descriptor of it drops all of this
    process's POSIX locks, another program then takes itself for the last user, checkpoints
    and resets the WAL under our connection, and rows are silently lost (it did: the header
    check for encrypted libraries read library.sqlite with open())."""
    import subprocess
    import sys

    main = LibraryDB(tmp_path)  # the window's handle, kept open
    main.db.conn.execute("CREATE TABLE t (who TEXT)")
    other = ("import sqlite3, sys\n"
             "con = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)\n"
             "con.execute(\"INSERT INTO t VALUES ('other')\"); con.close()\n")
    for _ in range(3):
        LibraryDB(tmp_path).close()  # a question's worker opens and closes its own handle
        subprocess.run([sys.executable, "-c", other, str(main.path)], check=True, timeout=60)
        main.db.conn.execute("INSERT INTO t VALUES ('main')")
    counts = dict(main.db.conn.execute("SELECT who, COUNT(*) FROM t GROUP BY who").fetchall())
    assert counts == {"other": 3, "main": 3}
    assert main.db.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    main.close()


def test_a_v5_library_gains_segment_emotion_and_rows_go_with_their_segment(library_dir, monkeypatch):
    from harp_desktop.store import db as dbmod

    monkeypatch.setattr(dbmod, "SCHEMA_VERSION", 5)
    old = dbmod.LibraryDB(library_dir)
    rid = _recording(old)
    sid = old.db["segments"].insert({"recording_id": rid, "idx": 0, "start_s": 0, "end_s": 2, "text": "hello"}).last_pk
    assert old.schema_version == 5 and "segment_emotion" not in old.db.table_names()
    old.close()
    monkeypatch.undo()
    db = LibraryDB(library_dir)
    assert db.schema_version == SCHEMA_VERSION >= 6
    assert db.segment_emotions(rid) == {}  # indexed before the dimension head: nothing until the stage re-runs
    db.db["segment_emotion"].insert({"segment_id": sid, "recording_id": rid, "label": "angry", "score": 0.8,
                                     "arousal": 0.81, "valence": 0.2})
    assert db.segment_emotions(rid) == {sid: {"label": "angry", "score": 0.8, "arousal": 0.81, "valence": 0.2}}
    assert [r["text"] for r in db.segments(rid)] == ["hello"]  # the segment survived the migration
    db.db.execute("DELETE FROM segments WHERE id = ?", [sid])  # the segments stage re-running
    assert db.segment_emotions(rid) == {}
    db.close()
