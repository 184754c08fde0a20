"""The bad-input matrix (tests/reliability/cases.py), run through the real `harp` CLI in-process.

Every case either succeeds with a correct result or prints exactly one ``harp: error:``
line (no traceback) and leaves the library exactly as it was.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

import harp_desktop.api as api
from harp_desktop.cli import main
from harp_desktop.index.context import ModelCache
from tests.conftest import REPO
from tests.reliability.cases import CASES, Env

_TABLES = ("recordings", "stages", "segments", "words", "tags", "arrays", "answers", "asr_chunks", "speakers",
           "questions", "annotations", "exports")


def library_state(lib: Path) -> tuple:
    """Files (but the SQLite WAL/SHM) and non-zero row counts: what 'nothing half-written' compares."""
    if not lib.is_dir():
        return (), {}
    files = tuple(sorted(str(p.relative_to(lib)) for p in lib.rglob("*")
                         if p.is_file() and p.name not in ("library.sqlite-wal", "library.sqlite-shm")
                         and p.name != "library.sqlite" and p.parent.name != "locks"))  # empty lock files
    db = lib / "library.sqlite"
    if not db.exists() or db.stat().st_size == 0:
        return files, {}
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            counts = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in _TABLES if t in names}
        finally:
            con.close()
    except sqlite3.DatabaseError:
        return files, {"unreadable": hashlib.sha256(db.read_bytes()).hexdigest()}
    return files, {t: n for t, n in counts.items() if n}


@pytest.fixture(scope="session")
def ten_hours(tmp_path_factory) -> Path:
    """A real 10-hour FLAC (8 kHz, near-silent): ~1 MB on disk, written in blocks."""
    p = tmp_path_factory.mktemp("long") / "ten_hours.flac"
    block = (np.random.default_rng(0).normal(0, 1e-4, 8000 * 60)).astype(np.float32)
    with sf.SoundFile(p, "w", 8000, 1, "PCM_16", format="FLAC") as fh:
        for _ in range(600):
            fh.write(block)
    return p


@pytest.fixture(scope="session")
def shared_models() -> ModelCache:
    return ModelCache()


@pytest.fixture(scope="module")
def asked(indexed, tmp_path_factory) -> Path:
    """A copy of the shared indexed library: asking and importing cases must not leave answers or
    questions in the library other test modules read."""
    import shutil

    lib, _ = indexed
    lib.db.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    target = tmp_path_factory.mktemp("asked") / "lib"
    shutil.copytree(lib.folder, target)
    return target


@pytest.fixture
def env(tmp_path, indexed, asked, ten_hours, shared_models, monkeypatch, long_clip) -> Env:
    lib, res = indexed
    monkeypatch.setattr(api, "ModelCache", lambda: shared_models)  # load each model once for the whole matrix
    src = tmp_path / "inputs"
    src.mkdir()
    return Env(src, tmp_path / "lib", asked, res.sha256, monkeypatch, ten_hours, long_clip)


def _params() -> list:
    return [pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.slow else []) for c in CASES]


@pytest.mark.parametrize("case", _params())
def test_bad_input(case, env, capsys):
    argv = [str(a) for a in case.build(env)]
    lib = Path(argv[argv.index("--library") + 1]) if "--library" in argv else None
    before = library_state(lib) if lib else None
    code = main(argv)
    out, err = capsys.readouterr()
    if os.environ.get("HARP_BAD_INPUTS_LOG"):  # how docs/bad_inputs.md's "what the user sees" was collected
        with open(os.environ["HARP_BAD_INPUTS_LOG"], "a", encoding="utf-8") as log:
            shown = err.strip() or (out.splitlines() or [""])[0]
            log.write(f"{case.id}\t{code}\t{' | '.join(shown.splitlines()[:2])}\n")
    assert "Traceback" not in out + err
    if case.ok:
        assert code == 0, err
        if case.check:
            case.check(env, out, err)
        if argv[0] == "index":
            code = main(["show", argv[1], "--library", str(lib)])
            shown = capsys.readouterr().out.lower()
            assert code == 0 and "patient" in shown, shown
    else:
        assert code != 0
        assert err.count("\n") == 1 and err.startswith("harp: error:"), err
        assert case.needle.lower() in err.lower(), err
        assert len(err) < 400, err
        if lib is not None and case.keeps:
            # Whole stages finished before the failure stay (the next run resumes); nothing partial.
            with sqlite3.connect(lib / "library.sqlite") as con:
                assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                stages = {r[0] for r in con.execute("SELECT stage FROM stages")}
            assert stages == set(case.keeps.split(",")), stages
            assert not list(lib.rglob("*.partial"))
        elif lib is not None:
            assert library_state(lib) == before, "a failed command changed the library"


def test_every_case_is_documented():
    doc = (REPO / "docs" / "bad_inputs.md").read_text(encoding="utf-8")
    missing = [c.id for c in CASES if f"`{c.id}`" not in doc]
    assert not missing, missing
    assert len(CASES) >= 25 and len({c.id for c in CASES}) == len(CASES)
