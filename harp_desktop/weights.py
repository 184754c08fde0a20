"""Model weights: find them in their packages, assemble split files, verify SHA-256.

The manifest (models/manifest.json) is the single source of truth for which files the
app may load. Files pre-placed in a models folder (paths.models_dirs: beside the bundled
executable, $HARP_MODELS, the machine-wide folder) take precedence over the packages and
pass the same checks. Nothing is ever downloaded; a file whose checksum does not match is
refused with a message that names it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from harp_desktop.paths import REPO_ROOT, data_dir, models_dirs, private_dir

MANIFEST = REPO_ROOT / "models" / "manifest.json"
ASR_PROFILES = {"base": "asr-base", "tiny.en": "asr-tiny.en", "small": "asr-small"}
_verified: set[tuple[str, int, int]] = set()


class WeightsError(RuntimeError):
    """A model file is missing, incomplete or fails its checksum."""


@dataclass
class ModelStatus:
    key: str
    role: str
    licence: str
    packages: list[str]
    present: bool
    checksum_ok: bool | None  # None: not checked (absent or unavailable)
    path: str | None
    note: str = ""


@lru_cache(maxsize=1)
def manifest() -> dict:
    with open(MANIFEST, encoding="utf-8") as fh:
        return json.load(fh)["models"]


def _package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        if getattr(sys, "frozen", False):  # a bundle has no weight packages: only models folders
            folders = ", ".join(str(d) for d in models_dirs())
            raise WeightsError(f"not in this bundle (package '{package}'); an administrator can place its files "
                               f"in <folder>/<model key>/ under one of: {folders} (docs/installer.md)")
        raise WeightsError(f"package '{package}' is not installed (run the setup command in README.md)")
    return Path(list(spec.submodule_search_locations)[0])


def _source(f: dict) -> Path:
    """Where a manifest file lives: ``repo_path`` (shipped in this repository) or package + path."""
    if "repo_path" in f:
        return REPO_ROOT / f["repo_path"]
    return _package_dir(f["package"]) / f["path"]


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def _stamp_file() -> Path:
    return data_dir() / "models" / "verified.json"


def _stamps() -> dict:
    try:
        return json.loads(_stamp_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _remember(path: Path, st: os.stat_result, sha256: str) -> None:
    """Persist a successful check so a 1 GB model is not re-hashed by every process.

    The stamp is keyed by path, size, mtime and inode: any rewrite of the file
    invalidates it and the next use hashes the file again.
    """
    stamps = _stamps()
    stamps[str(path)] = [st.st_size, st.st_mtime_ns, st.st_ino, sha256]
    target = private_dir(_stamp_file().parent) / _stamp_file().name
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(stamps), encoding="utf-8")
    os.replace(tmp, target)


def file_sha256(path: Path) -> str:
    """SHA-256 of a user-supplied model file (not in the manifest), for the answer's record.

    Large files reuse the stamp written after their last hash (same path, size, mtime and
    inode), so a multi-GB GGUF is hashed once, not on every question.
    """
    path = Path(path).resolve()
    st = path.stat()
    stamp = _stamps().get(str(path))
    if stamp and stamp[:3] == [st.st_size, st.st_mtime_ns, st.st_ino]:
        return stamp[3]
    digest = sha256_file(path)
    if st.st_size > 50_000_000:
        try:
            _remember(path, st, digest)
        except OSError:  # a read-only data folder only costs a re-hash next time
            pass
    return digest


def _verify(path: Path, sha256: str, size: int) -> None:
    if not path.is_file():
        raise WeightsError(f"model file missing: {path}")
    st = path.stat()
    cache_key = (str(path), st.st_size, st.st_mtime_ns)
    if cache_key in _verified:
        return
    if size > 50_000_000 and _stamps().get(str(path)) == [st.st_size, st.st_mtime_ns, st.st_ino, sha256]:
        _verified.add(cache_key)
        return
    if st.st_size != size:
        raise WeightsError(f"model file {path} has {st.st_size} bytes, expected {size}: refusing it")
    actual = sha256_file(path)
    if actual != sha256:
        raise WeightsError(
            f"model file {path} fails its checksum (sha256 {actual[:12]}..., expected {sha256[:12]}...): "
            "refusing it; reinstall the package or delete the file so it is assembled again"
        )
    _verified.add(cache_key)
    if size > 50_000_000:
        _remember(path, st, sha256)


def _assemble(entry: dict, target: Path) -> None:
    """Concatenate verified parts into ``target`` atomically (tmp file + rename)."""
    parts = []
    for part in entry["parts"]:
        src = _package_dir(part["package"]) / part["path"]
        _verify(src, part["sha256"], part["size"])
        parts.append(src)
    tmp = target.with_suffix(target.suffix + ".partial")
    with open(tmp, "wb") as out:
        for src in parts:
            with open(src, "rb") as fh:
                shutil.copyfileobj(fh, out, 1 << 20)
    os.replace(tmp, target)


def _placed(key: str, entry: dict) -> Path | None:
    """The first pre-placed ``<models folder>/<key>/``, verified; None when there is none.

    A folder that exists but lacks a file or fails a checksum is refused rather than
    skipped: an administrator put it there on purpose and should hear what is wrong.
    """
    for root in models_dirs():
        folder = root / key
        if folder.is_dir():
            for f in entry["files"]:
                _verify(folder / f["name"], f["sha256"], f["size"])
            return folder
    return None


def model_path(key: str) -> Path:
    """Return the verified folder (or single file's folder) for model ``key``.

    Models with split files are assembled once into the user's data folder; the
    others are read in place from their package.
    """
    try:
        entry = manifest()[key]
    except KeyError:
        raise WeightsError(f"unknown model '{key}'") from None
    if entry.get("unavailable"):
        raise WeightsError(f"model '{key}' is unavailable: {entry['unavailable']}")
    if (placed := _placed(key, entry)) is not None:
        return placed
    if "assemble_dir" not in entry:
        paths = [_source(f) for f in entry["files"]]
        for f, p in zip(entry["files"], paths, strict=False):
            _verify(p, f["sha256"], f["size"])
        return paths[0].parent
    folder = private_dir(data_dir() / "models" / entry["assemble_dir"])
    for f in entry["files"]:
        dest = folder / f["name"]
        if "parts" in f:
            if not dest.exists():
                _assemble(f, dest)
        elif not dest.exists():
            src = _source(f)
            _verify(src, f["sha256"], f["size"])
            shutil.copyfile(src, dest)
        _verify(dest, f["sha256"], f["size"])
    return folder


def model_file(key: str, name: str) -> Path:
    """Path of one verified file of model ``key`` (by its manifest name)."""
    entry = manifest()[key]
    folder = model_path(key)
    for f in entry["files"]:
        if f["name"] == name:
            if "assemble_dir" in entry or folder == _placed(key, entry):
                return folder / name  # assembled or pre-placed: every file sits in one folder
            return _source(f)
    raise WeightsError(f"model '{key}' has no file '{name}'")


def fingerprint(key: str) -> str:
    """Short identity of a model's weights, used to decide which stages must re-run."""
    entry = manifest()[key]
    joined = "".join(f.get("sha256", "") for f in entry["files"])
    return f"{key}:{hashlib.sha256(joined.encode()).hexdigest()[:12]}"


def status(skip: tuple[str, ...] = ()) -> list[ModelStatus]:
    out = []
    for key, entry in manifest().items():
        if key in skip:
            continue
        st = ModelStatus(key, entry["role"], entry["licence"], entry["packages"], False, None, None)
        if entry.get("unavailable"):
            st.note = "unavailable: " + entry["unavailable"]
        else:
            try:
                st.path = str(model_path(key))
                st.present, st.checksum_ok = True, True
            except WeightsError as exc:
                st.note = str(exc)
                st.present = "missing" not in st.note and "not installed" not in st.note
                st.checksum_ok = False if st.present else None
        out.append(st)
    return out
