"""Privacy at rest: every file the app writes is the user's alone, and "Delete recording"
leaves no row, vector, cache, clip, report record or readable byte of the recording behind."""

from __future__ import annotations

import json
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from harp_desktop.api import Library
from harp_desktop.cli import main
from harp_desktop.ui.envelope import load_or_build
from tests.conftest import DATA, FAST, REPO, rows

A = DATA / "speech_two_speakers.flac"  # "...shortness of breath since the weekend?"
B = DATA / "speaker_b_1.flac"  # "My headaches started on Sunday evening."
A_ONLY = [b"shortness", b"weekend", b"breathe"]  # words of A's transcript that B never says


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.lstat().st_mode)


def _loose(folder: Path) -> list[str]:
    bad = [f"{folder}: {oct(_mode(folder))}"] if _mode(folder) != 0o700 else []
    for p in folder.rglob("*"):
        want = 0o700 if p.is_dir() else 0o600
        if _mode(p) != want:
            bad.append(f"{p.relative_to(folder)}: {oct(_mode(p))}")
    return bad


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    """A library with two recordings, answers, an export, a report, a question set and a waveform cache."""
    root = tmp_path_factory.mktemp("privacy")
    lib_dir, out = root / "lib", root / "exports"
    out.mkdir(mode=0o700)
    with Library(lib_dir) as lib:
        a, b = lib.index(A, FAST), lib.index(B, FAST)
        for rec in (a, b):
            lib.ask(rec.sha256, "Does the patient have chest pain?")
            load_or_build(lib_dir / "audio" / f"{rec.sha256}.f32")  # the GUI's waveform cache
    q = {"query_id": "q1", "recording": A.name, "query": "When is the weekend mentioned?", "answer_kind": "time",
         "evidence": [[0.5, 4.7]]}
    (root / "q.jsonl").write_text(json.dumps(q) + "\n", encoding="utf-8")
    common = ["--library", str(lib_dir)]
    for argv in (["questions", "import", str(root / "q.jsonl"), "--audio-dir", str(DATA)],
                 ["export", a.sha256[:12], "-o", str(out / "a.srt")],
                 ["report", a.sha256[:12], "--answers", "all", "-o", str(out / "a.pdf")]):
        assert main([*argv, *common]) == 0, argv
    return lib_dir, out, a, b


def test_every_file_the_app_writes_is_private(two):
    lib_dir, out, _, _ = two
    assert _loose(lib_dir) == []
    assert [f"{p.name}: {oct(_mode(p))}" for p in out.iterdir() if _mode(p) != 0o600] == []


def test_delete_recording_leaves_nothing(two, capsys):
    lib_dir, _, a, b = two
    with Library(lib_dir) as lib:
        b_rows = rows(lib, b.recording_id)
        a_files = [p for p in lib_dir.rglob("*") if a.sha256 in p.name or p == lib_dir / "arrays" / str(a.recording_id)]
        assert len(a_files) >= 4  # audio cache, waveform, vectors, lock (arrays of a short file stay in rows)
        for word in A_ONLY:  # and the transcript really was searchable before
            assert lib.db.db.execute("SELECT COUNT(*) FROM segments_fts WHERE segments_fts MATCH ?",
                                     [word.decode()]).fetchone()[0] > 0
    raw = b"".join(p.read_bytes().lower() for p in lib_dir.rglob("*") if p.is_file())
    assert all(n in raw for n in A_ONLY)  # the byte search below can fail: the words are there now
    assert main(["delete", a.sha256[:12], "--library", str(lib_dir)]) == 2  # not a terminal: needs --yes
    assert "--yes" in capsys.readouterr().err
    assert main(["delete", a.sha256[:12], "--library", str(lib_dir), "--yes"]) == 0
    assert "the original recording file was not touched" in capsys.readouterr().out and A.exists()

    con = sqlite3.connect(lib_dir / "library.sqlite")
    try:
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            cols = [c[1] for c in con.execute(f"PRAGMA table_info({table})")]
            if "recording_id" in cols:
                n = con.execute(f"SELECT COUNT(*) FROM {table} WHERE recording_id = ?", [a.recording_id]).fetchone()[0]
                assert n == 0, f"{table} still holds {n} rows of the deleted recording"
        assert [r[0] for r in con.execute("SELECT sha256 FROM recordings")] == [b.sha256]
        for word in A_ONLY:
            assert con.execute("SELECT COUNT(*) FROM segments_fts WHERE segments_fts MATCH ?",
                               [word.decode()]).fetchone()[0] == 0
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    assert [str(p) for p in lib_dir.rglob("*") if a.sha256 in p.name] == []
    assert not (lib_dir / "arrays" / str(a.recording_id)).exists()
    # Not one readable byte: the database, its WAL and every other file, searched raw.
    needles = [*A_ONLY, a.sha256.encode(), A.name.encode()]
    for p in [p for p in lib_dir.rglob("*") if p.is_file()]:
        data = p.read_bytes().lower()
        found = [n.decode() for n in needles if n in data]
        assert not found, f"{p.relative_to(lib_dir)} still contains {found}"
    with Library(lib_dir) as lib:  # the other recording is untouched and still answers
        assert rows(lib, b.recording_id) == b_rows
        assert lib.ask(b.sha256, "When did the headaches start?").evidence


def test_deleting_a_recording_being_indexed_waits_for_the_indexer(tmp_path):
    """The delete takes the recording's lock: it never runs under a live indexer's feet."""
    from harp_desktop.store.locks import recording_lock

    with Library(tmp_path / "lib") as lib:
        res = lib.index(DATA / "cough_1.flac", FAST)
        holder = subprocess.Popen([sys.executable, "-c",
                                   "import sys, time\nfrom harp_desktop.store.locks import recording_lock\n"
                                   "with recording_lock(sys.argv[1], sys.argv[2]):\n"
                                   "    print('held', flush=True); time.sleep(2)\n", str(lib.folder), res.sha256],
                                  stdout=subprocess.PIPE, text=True, env={"PYTHONPATH": str(REPO)})
        assert holder.stdout.readline().strip() == "held"
        import time

        t0 = time.monotonic()
        lib.delete_recording(res.sha256)
        assert time.monotonic() - t0 > 1.0 and lib.db.recordings() == []
        holder.wait(timeout=30)
        with recording_lock(lib.folder, res.sha256):
            pass
