"""A full disk and a read-only library, for real: a small tmpfs and a read-only bind mount.

Both need mount(8) rights (root in CI); without them the tests skip and say why.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import harp_desktop.index.pipeline as pipeline
from harp_desktop.api import Library
from harp_desktop.cli import main
from tests.conftest import DATA, FAST, rows

CLIP = DATA / "speech_two_speakers.flac"


def _mount(*args: str) -> None:
    r = subprocess.run(["mount", *args], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount here (needs root and CAP_SYS_ADMIN): {r.stderr.strip()[:120]}")


@contextmanager
def mounted(target: Path, *args: str) -> Iterator[Path]:
    target.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs / read-only bind needs root")
    _mount(*args, str(target))
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False)


@pytest.fixture(scope="module")
def clean_rows(tmp_path_factory) -> dict:
    with Library(tmp_path_factory.mktemp("clean")) as lib:
        res = lib.index(CLIP, FAST)
        return rows(lib, res.recording_id)


@pytest.mark.slow
@pytest.mark.parametrize("size", ["256k", "768k", "850k", "950k"])  # fills during decode, commit, later stages
def test_full_disk_keeps_the_library_consistent_and_resumes(tmp_path, size, clean_rows, monkeypatch, capsys):
    # The up-front free-space check would refuse first; switch it off to hit the real ENOSPC / SQLITE_FULL.
    monkeypatch.setattr(pipeline, "ensure_free_space", lambda *a, **k: None)
    with mounted(tmp_path / "small", "-t", "tmpfs", "-o", f"size={size}", "tmpfs") as mnt:
        lib_dir = mnt / "lib"
        code = main(["index", str(CLIP), "--library", str(lib_dir), "--asr", "tiny.en"])
        err = capsys.readouterr().err
        assert code == 1 and err.count("\n") == 1 and "the disk is full" in err and "Traceback" not in err, err
        with sqlite3.connect(lib_dir / "library.sqlite") as con:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            done = {r[0] for r in con.execute("SELECT stage FROM stages")}
            segments = con.execute("SELECT COUNT(*) FROM segments").fetchone()[0]
        assert ("segments" in done) == (segments > 0)  # a stage's rows land with its stage row, or not at all
        assert not list(lib_dir.rglob("*.partial"))
        _mount("-o", "remount,size=64m", str(mnt))  # the user frees space; the next run resumes
        assert main(["index", str(CLIP), "--library", str(lib_dir), "--asr", "tiny.en"]) == 0
        with Library(lib_dir) as lib:
            rec = lib.db.recordings()[0]
            assert rows(lib, rec["id"]) == clean_rows
        capsys.readouterr()


def test_read_only_library_gives_one_line_errors(tmp_path, capsys):
    src = tmp_path / "lib"
    with Library(src) as lib:
        res = lib.index(DATA / "cough_1.flac", FAST)
    before = (src / "library.sqlite").read_bytes()
    with mounted(tmp_path / "ro", "--bind", str(src)) as ro:
        _mount("-o", "remount,bind,ro", str(ro))
        for argv in (["show", res.sha256[:10]], ["index", str(DATA / "cough_2.flac"), "--asr", "tiny.en"],
                     ["ask", res.sha256[:10], "Did anyone cough?", "--no-llm"], ["delete", res.sha256[:10], "--yes"]):
            code = main([*argv, "--library", str(ro)])
            err = capsys.readouterr().err
            assert code == 1 and err.count("\n") == 1 and "read-only" in err and "Traceback" not in err, (argv, err)
    assert (src / "library.sqlite").read_bytes() == before
