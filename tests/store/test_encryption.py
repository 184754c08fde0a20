"""Encrypted libraries: nothing derived from a recording sits readable on disk, a wrong or
missing passphrase is one clear line with nothing changed, and plain libraries are untouched."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from harp_desktop.api import Library
from harp_desktop.cli import main
from harp_desktop.store import crypto, sealed
from harp_desktop.store import db as dbmod
from harp_desktop.ui.envelope import load_or_build
from tests.conftest import DATA, FAST, REPO

PASS = "correct horse battery staple"
CLIP = DATA / "speech_two_speakers.flac"  # "...shortness of breath since the weekend?"


def _secrets(lib: Library, sha: str) -> dict[str, list[bytes]]:
    """What must not be findable in any file: transcript words, vector bytes, decoded samples."""
    data = lib.transcript(sha)
    words = {w.lower() for s in data["segments"] for w in re.findall(r"[A-Za-z]{5,}", s["text"])}
    ids = [s["id"] for s in data["segments"]]
    vecs = [lib.vectors.get(sha, space, ids[:1])[0].tobytes()[:32] for space in ("text", "speaker", "audio")]
    audio = np.asarray(lib_audio(lib, sha))
    mid = len(audio) // 2
    samples = [audio[mid:mid + 8].tobytes(), audio[mid // 2:mid // 2 + 8].tobytes()]
    return {"words": sorted(w.encode() for w in words), "vectors": vecs, "audio": samples}


def lib_audio(lib: Library, sha: str) -> np.ndarray:
    from harp_desktop.audio.decode import open_cache

    return open_cache(lib.folder / "audio" / f"{sha}.f32")


def _found(folder: Path, secrets: dict[str, list[bytes]]) -> list[str]:
    hits = []
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        raw = p.read_bytes()
        low = raw.lower()
        for kind, needles in secrets.items():
            for n in needles:
                if (n in low) if kind == "words" else (n in raw):
                    hits.append(f"{p.relative_to(folder)}: {kind} {n[:16]!r}")
    return hits


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def enc(tmp_path_factory):
    """An encrypted library with one indexed recording, an answer and a waveform envelope;
    large arrays forced to files so their sealing is exercised too."""
    folder = tmp_path_factory.mktemp("enc") / "lib"
    mp = pytest.MonkeyPatch()
    mp.setattr(dbmod, "LARGE_ARRAY_BYTES", 1024)
    try:
        with Library(folder, PASS, encrypt=True) as lib:
            res = lib.index(CLIP, FAST)
            answer = lib.ask(res.sha256, "When is the weekend mentioned?")
            load_or_build(folder / "audio" / f"{res.sha256}.f32")  # the GUI's waveform cache
            out = folder.parent / "exports"  # the user's own place: plain by design
            out.mkdir()
            lib.report(res.sha256, out / "a.pdf", all_answers=True)  # waveform strip from the sealed audio
            lib.export(res.sha256, out / "a.srt")
            assert (out / "a.pdf").stat().st_size > 1000 and b"weekend" in (out / "a.srt").read_bytes()
            assert len(lib.exports()) == 2
            secrets = _secrets(lib, res.sha256)
            name = lib.db.db.execute("SELECT name FROM arrays WHERE meta LIKE '%_sealed%'").fetchone()[0]
            stored = (name, np.array(lib.db.get_array(res.recording_id, name)[0]))
    finally:
        mp.undo()
    crypto.forget(folder)  # as a new process would start: locked
    return folder, res, answer, secrets, stored


def test_encrypted_library_answers_and_leaves_nothing_readable(enc):
    folder, res, answer, secrets, _ = enc
    assert answer.evidence, "the encrypted library must still answer with evidence"
    assert len(secrets["words"]) >= 5 and b"weekend" in secrets["words"]
    names = {p.name for p in folder.rglob("*") if p.is_file()}
    assert "encryption.json" in names and "library.sqlite" in names
    assert any(n.endswith(".sealed") for n in names), "large arrays were not written as sealed files"
    assert any(n.endswith(".envelope.npz") for n in names) and any(n.endswith(".hnsw") for n in names)
    assert _found(folder, secrets) == []
    for p in folder.rglob("*"):
        if p.is_file() and p.stat().st_size >= 16:
            assert not p.read_bytes().startswith(b"SQLite format 3"), p
            if p.suffix in (".hnsw", ".sealed", ".f32", ".npz"):
                assert sealed.is_sealed(p), p


def test_the_byte_search_finds_the_same_secrets_in_a_plain_library(tmp_path, enc):
    """The search above is meaningful: a plain library of the same recording shows them in the clear."""
    _, res, _, secrets, _ = enc
    with Library(tmp_path / "plain") as lib:
        lib.index(CLIP, FAST)
        assert not lib.encrypted and not (tmp_path / "plain" / "encryption.json").exists()
    hits = _found(tmp_path / "plain", secrets)
    kinds = {h.split(": ")[1].split()[0] for h in hits}
    assert {"words", "vectors", "audio"} <= kinds, hits


def test_reopen_with_the_passphrase_reads_everything(enc):
    folder, res, _, secrets, stored = enc
    with Library(folder, PASS) as lib:
        assert lib.encrypted
        text = " ".join(s["text"] for s in lib.transcript(res.sha256)["segments"]).lower()
        assert "weekend" in text
        assert lib.db.db.execute("SELECT count(*) FROM segments_fts WHERE segments_fts MATCH 'weekend'").fetchone()[0] >= 1
        assert lib.db.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert lib.db.db.execute("PRAGMA busy_timeout").fetchone()[0] == 30000
        assert lib.db.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        again, _ = lib.db.get_array(res.recording_id, stored[0])
        assert np.array_equal(again, stored[1])
        first = lib.transcript(res.sha256)["segments"][0]["id"]
        hits = lib.nearest(res.sha256, "text", lib.vectors.get(res.sha256, "text", [first])[0], k=1)
        assert hits[0][0]["id"] == first
    crypto.forget(folder)


def test_wrong_passphrase_is_one_line_and_changes_nothing(enc, monkeypatch, capsys):
    folder, res, _, _, _ = enc
    before = _digest(folder)
    monkeypatch.setenv("HARP_PASSPHRASE", "not the passphrase")
    assert main(["show", res.sha256[:12], "--library", str(folder)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("harp: error: wrong passphrase") and "\n" not in err and "Traceback" not in err
    with pytest.raises(crypto.PassphraseError, match="wrong passphrase"):
        Library(folder, "still wrong")
    monkeypatch.delenv("HARP_PASSPHRASE")
    assert main(["show", res.sha256[:12], "--library", str(folder)]) == 1  # no terminal, no variable
    err = capsys.readouterr().err.strip()
    assert "is encrypted: give its passphrase" in err and "\n" not in err
    assert _digest(folder) == before
    assert crypto.unlocked(folder) is None


def test_cli_in_a_new_process_with_the_passphrase(enc):
    folder, res, _, _, _ = enc
    env = {"HARP_PASSPHRASE": PASS, "PATH": "/usr/bin:/bin", "HARP_DATA": str(folder.parent / "data")}
    out = subprocess.run([sys.executable, "-m", "harp_desktop.cli", "show", res.sha256[:12], "--library", str(folder)],
                         capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "weekend" in out.stdout and out.stderr.strip() == ""


def test_tools_refuse_to_touch_a_locked_library(enc):
    from harp_desktop.audio.decode import open_cache
    from harp_desktop.store.vectors import VectorStore

    folder, res, _, _, _ = enc
    crypto.forget(folder)
    with pytest.raises(crypto.PassphraseError, match="locked"):
        VectorStore(folder)
    with pytest.raises(crypto.PassphraseError, match="locked"):
        open_cache(folder / "audio" / f"{res.sha256}.f32")


def test_a_plain_library_cannot_be_turned_encrypted_and_vice_versa(tmp_path, monkeypatch, capsys):
    plain = tmp_path / "plain"
    Library(plain).close()
    with pytest.raises(crypto.PassphraseError, match="already a plain"):
        Library(plain, PASS, encrypt=True)
    assert not (plain / "encryption.json").exists()
    monkeypatch.setenv("HARP_PASSPHRASE", PASS)
    assert main(["library", "init", "--encrypt", "--library", str(tmp_path / "new")]) == 0
    captured = capsys.readouterr()
    assert "encrypted library ready" in captured.out and "no recovery" in captured.err
    assert (tmp_path / "new" / "encryption.json").exists()
    # A key file lost from an encrypted library: a clear line, not "file is not a database".
    (tmp_path / "new" / "encryption.json").rename(tmp_path / "key.json")
    crypto.forget()
    assert main(["show", "abcdef", "--library", str(tmp_path / "new")]) == 1
    assert "an encrypted library without its encryption.json" in capsys.readouterr().err
    assert main(["library", "init", "--library", str(tmp_path / "plain2")]) == 0
    assert "plain (not encrypted) library" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "plain2" / "library.sqlite") as conn:  # still plain SQLite
        assert conn.execute("PRAGMA user_version").fetchone()[0] == dbmod.SCHEMA_VERSION


def test_bundles_are_refused_for_an_encrypted_library(tmp_path):
    with Library(tmp_path / "e", PASS, encrypt=True) as lib, pytest.raises(RuntimeError, match="encrypted library"):
        lib.export_bundle(tmp_path / "x.harplib")


def test_delete_removes_everything_of_the_recording(enc, monkeypatch, capsys, tmp_path):
    import shutil

    src, res, _, secrets, _ = enc
    folder = tmp_path / "copy"
    shutil.copytree(src, folder)
    monkeypatch.setenv("HARP_PASSPHRASE", PASS)
    assert main(["delete", res.sha256[:12], "--yes", "--library", str(folder)]) == 0
    assert "deleted speech_two_speakers.flac" in capsys.readouterr().out
    with Library(folder) as lib:
        assert lib.db.recordings() == []
        assert lib.db.db.execute("SELECT count(*) FROM segments").fetchone()[0] == 0
    left = [p.relative_to(folder) for p in folder.rglob("*") if p.is_file()]
    assert sorted(str(p) for p in left) == ["encryption.json", "library.sqlite", "locks/schema.lock"], left
    assert _found(folder, secrets) == []


def test_a_tampered_or_swapped_sealed_file_is_refused(enc, tmp_path):
    import shutil

    from harp_desktop.store.vectors import VectorStore

    src, res, _, _, _ = enc
    folder = tmp_path / "copy"
    shutil.copytree(src, folder)
    key = crypto.unlock(folder, PASS)
    vdir = folder / "vectors" / res.sha256
    shutil.copy(vdir / "speaker.hnsw", vdir / "text.hnsw")  # right key, wrong file: its name is in the tag
    with pytest.raises(crypto.PassphraseError, match="damaged or belongs to another library"):
        VectorStore(folder).load(res.sha256, "text")
    blob = bytearray((vdir / "audio.hnsw").read_bytes())
    blob[40] ^= 1
    with pytest.raises(crypto.PassphraseError, match="damaged"):
        sealed.unseal(key, bytes(blob), f"vectors/{res.sha256}/audio")
    cache = folder / "audio" / f"{res.sha256}.f32"
    cache.write_bytes(cache.read_bytes()[:-100])  # a truncated audio cache fails, never reads short
    with pytest.raises(crypto.PassphraseError, match="damaged"):
        sealed.read_stream(cache, key, f"audio/{cache.name}")
    (folder / "encryption.json").write_text('{"format": "something else"}')
    crypto.forget(folder)
    with pytest.raises(crypto.PassphraseError, match="damaged or from a newer HARP Desktop"):
        Library(folder, PASS)


def test_without_the_encryption_extra_the_message_says_what_to_install(enc, monkeypatch, capsys):
    folder, res, _, _, _ = enc
    crypto.forget(folder)
    monkeypatch.setitem(sys.modules, "cryptography.hazmat.primitives.ciphers.aead", None)
    monkeypatch.setenv("HARP_PASSPHRASE", PASS)
    assert main(["show", res.sha256[:12], "--library", str(folder)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == ("harp: error: encrypted libraries need the 'encryption' extra: pip install "
                   "'harp-desktop[encryption]' (installer/setup.sh installs it)")
    assert crypto.unlocked(folder) is None


def test_two_programs_write_one_encrypted_library_without_database_is_locked(tmp_path):
    """The GUI and `harp` at once: SQLCipher keeps WAL and the busy timeout, so a writer waits."""
    import threading
    import time

    folder = tmp_path / "shared"
    first, second = Library(folder, PASS, encrypt=True), Library(folder, PASS)
    held = threading.Event()

    def hold() -> None:
        with first.db.transaction() as d:
            d["recordings"].insert({"sha256": "a" * 64, "path": "/a", "name": "a", "duration_s": 1.0, "added_at": "t"})
            held.set()
            time.sleep(0.8)

    t = threading.Thread(target=hold)
    t.start()
    held.wait(5)
    t0 = time.perf_counter()
    with second.db.transaction() as d:  # blocks until the first commits, then succeeds
        d["recordings"].insert({"sha256": "b" * 64, "path": "/b", "name": "b", "duration_s": 1.0, "added_at": "t"})
    waited = time.perf_counter() - t0
    t.join()
    assert waited > 0.3 and len(second.db.recordings()) == 2
    first.close()
    second.close()
