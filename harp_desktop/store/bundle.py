"""Portable library bundles (``.harplib``): a library built on one machine, opened on another.

A bundle is an uncompressed tar (the payload is float arrays and SQLite pages, which
barely compress): ``manifest.json`` first, then a consistent snapshot of
``library.sqlite`` taken with SQLite's backup API (safe while the app has it open),
the vector files, the large-array files and, optionally, the decoded audio caches. The
manifest lists every file with its size and SHA-256; an import checks all of them
before it touches the destination, then copies recording by recording
(store/transfer.py), each in one transaction.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tarfile
import tempfile
from pathlib import Path

from harp_desktop.paths import private_dir
from harp_desktop.store.db import LibraryDB, now_iso
from harp_desktop.store.transfer import Store, copy_recording
from harp_desktop.store.vectors import VectorStore

FORMAT, VERSION = "harplib", 1
MANIFEST = "manifest.json"


class BundleError(ValueError):
    """A bundle that cannot be written or read; the message is for the user."""


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _payload(folder: Path, audio: bool, shas: set[str]) -> list[str]:
    """Library files that travel: vectors and arrays of the chosen recordings, audio if asked."""
    names = []
    for sub in ("vectors", "arrays") + (("audio",) if audio else ()):
        for p in sorted((folder / sub).rglob("*")):
            rel = p.relative_to(folder).as_posix()
            if not p.is_file() or ".partial" in p.name:
                continue
            if sub == "audio" and not (p.suffix == ".f32" and p.stem in shas):
                continue  # envelopes and caches of other recordings are rebuilt where needed
            if sub == "vectors" and p.parent.name not in shas:
                continue
            names.append(rel)
    return names


def export_bundle(db: LibraryDB, out: Path, audio: bool = False, audit: bool = True) -> dict:
    """Write the library to ``out`` (replaced atomically); returns the manifest. ``audit=False``
    for internal snapshots (a Ray evaluation's copy) that are not exports the user made."""
    out = Path(out).expanduser()
    if out.exists() and out.is_dir():
        raise BundleError(f"{out} is a folder; give a file name such as library.harplib")
    if not out.parent.exists():
        raise BundleError(f"folder {out.parent} does not exist")
    tmp = out.with_name(out.name + ".partial")
    with tempfile.TemporaryDirectory(prefix="harplib-", dir=out.parent) as work:
        snap = Path(work) / "library.sqlite"
        target = sqlite3.connect(snap)
        db.db.conn.backup(target)  # a consistent copy even while others read and write
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no WAL beside it
        target.close()
        recs = _recordings(snap)
        files = {"library.sqlite": snap}
        files.update({rel: db.folder / rel for rel in _payload(db.folder, audio, {r["sha256"] for r in recs})})
        manifest = {
            "format": FORMAT, "version": VERSION, "schema_version": db.schema_version, "created_at": now_iso(),
            "app": "harp-desktop 0.1.0", "audio": audio, "recordings": recs,
            "files": {rel: {"bytes": p.stat().st_size, "sha256": _sha256(p)} for rel, p in files.items()},
        }
        try:
            with tarfile.open(tmp, "w") as tar:
                data = json.dumps(manifest, indent=1).encode()
                info = tarfile.TarInfo(MANIFEST)
                info.size, info.mode, info.mtime = len(data), 0o600, 0
                tar.addfile(info, _BytesReader(data))
                for rel, p in files.items():
                    tar.add(p, arcname=rel, recursive=False)
            os.chmod(tmp, 0o600)
            row = {"recording_id": None, "kind": "library-bundle", "path": str(out.resolve()),
                   "sha256": _sha256(tmp), "bytes": tmp.stat().st_size, "created_at": now_iso(),
                   "detail": json.dumps({"recordings": len(recs), "audio": audio})}
            with db.transaction():  # the audit row and the file appear together
                if audit:
                    db.db["exports"].insert(row)
                os.replace(tmp, out)
        except OSError as exc:
            raise BundleError(f"cannot write {out}: {exc.strerror or exc}") from None
        finally:
            tmp.unlink(missing_ok=True)
    return manifest


def _recordings(snap: Path) -> list[dict]:
    conn = sqlite3.connect(snap)
    try:
        rows = conn.execute("SELECT sha256, name, duration_s FROM recordings ORDER BY id").fetchall()
    finally:
        conn.close()
    return [{"sha256": s, "name": n, "duration_s": d} for s, n, d in rows]


class _BytesReader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def read(self, n: int = -1) -> bytes:
        end = len(self.data) if n < 0 else self.pos + n
        chunk, self.pos = self.data[self.pos:end], min(end, len(self.data))
        return chunk


def _read_manifest(tar: tarfile.TarFile, name: str) -> dict:
    try:
        member = tar.getmember(MANIFEST)
        manifest = json.loads(tar.extractfile(member).read())
    except (KeyError, AttributeError, ValueError):
        raise BundleError(f"{name} is not a HARP library bundle (no readable {MANIFEST})") from None
    if manifest.get("format") != FORMAT or not isinstance(manifest.get("files"), dict):
        raise BundleError(f"{name} is not a HARP library bundle")
    if manifest.get("version", 0) > VERSION:
        raise BundleError(f"{name} was written by a newer HARP Desktop (bundle version {manifest['version']})")
    return manifest


def _unpack(path: Path, work: Path) -> dict:
    """Extract into ``work``, checking every file against the manifest; nothing else is written."""
    try:
        tar = tarfile.open(path, "r:")
    except (tarfile.TarError, OSError) as exc:
        raise BundleError(f"{path.name} is not a HARP library bundle ({exc})") from None
    with tar:
        manifest = _read_manifest(tar, path.name)
        expected = manifest["files"]
        seen = set()
        for member in tar.getmembers():
            if member.name == MANIFEST:
                continue
            if member.name not in expected or not member.isfile():
                raise BundleError(f"{path.name}: unexpected entry '{member.name}' (not in its manifest)")
            target = work / member.name
            private_dir(target.parent)
            with tar.extractfile(member) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            seen.add(member.name)
        missing = sorted(set(expected) - seen)
        if missing:
            raise BundleError(f"{path.name} is incomplete: {len(missing)} file(s) missing, e.g. {missing[0]}")
        for rel, want in expected.items():
            p = work / rel
            if p.stat().st_size != want["bytes"] or _sha256(p) != want["sha256"]:
                raise BundleError(f"{path.name} is damaged: {rel} does not match its checksum")
    return manifest


def import_bundle(path: Path, db: LibraryDB) -> list[dict]:
    """Copy every recording of the bundle into the library behind ``db``.

    Recordings the library already holds with the same stage fingerprints are left as
    they are (answers/questions new to it are added); others are added or replaced.
    """
    path = Path(path).expanduser()
    if not path.is_file():
        raise BundleError(f"no such bundle: {path}")
    with tempfile.TemporaryDirectory(prefix=".import-", dir=db.folder) as work:
        manifest = _unpack(path, Path(work))
        try:
            src = Store.open(Path(work))  # migrates an older schema forward; refuses a newer one
        except (RuntimeError, sqlite3.DatabaseError) as exc:
            raise BundleError(f"{path.name}: {exc}") from None
        dst = Store(db, VectorStore(db.folder))
        results = []
        try:
            for rec in manifest["recordings"]:
                rid, what = copy_recording(src, dst, rec["sha256"], audio=True)
                results.append({"sha256": rec["sha256"], "name": rec["name"], "id": rid, "status": what})
        finally:
            src.db.close()
    return results
