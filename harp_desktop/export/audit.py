"""Write an export atomically and record it in the library's audit trail (table ``exports``).

The output is written to a temporary file beside the target, checksummed, and renamed
over the target only once the audit row is in the open transaction: a failure leaves
neither a half-written file nor a row for a file that does not exist.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from harp_desktop import __version__
from harp_desktop.weights import sha256_file


class ExportError(ValueError):
    """Bad export input (unknown format, unusable output path); the message is for the user."""


def check_target(path: Path | str) -> Path:
    """The resolved output path, or a clear error before any work is done."""
    p = Path(path).expanduser()
    if str(path).strip() == "":
        raise ExportError("no output file given")
    if p.is_dir():
        raise ExportError(f"{p} is a folder; give a file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ExportError(f"the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ExportError(f"cannot write to the folder {parent} (permission denied)")
    return p.resolve()


def write_export(db, recording_id: int | None, kind: str, path: Path | str,
                 produce: Callable[[Path], None], detail: dict | None = None) -> dict:
    """Run ``produce(tmp_path)``, then move the file into place and record it. Returns the audit row."""
    target = check_target(path)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        produce(tmp)
        size = tmp.stat().st_size
        digest = sha256_file(tmp)
        info = {"app_version": __version__, **(detail or {})}
        with db.transaction():
            row_id = db.record_export(recording_id, kind, str(target), digest, size, info)
            os.replace(tmp, target)  # inside the transaction: a failed rename rolls the row back
    finally:
        if tmp.exists():
            tmp.unlink()
    return {"id": row_id, "recording_id": recording_id, "kind": kind, "path": str(target), "sha256": digest,
            "bytes": size, "detail": info}


def file_status(row: dict) -> str:
    """Whether an exported file is still there and unchanged: ok, changed or missing."""
    p = Path(row["path"])
    if not p.is_file():
        return "missing"
    if p.stat().st_size != row["bytes"]:
        return "changed"
    return "ok" if sha256_file(p) == row["sha256"] else "changed"


def describe(row: dict) -> str:
    """One short line about an export's content, from its detail."""
    d = row.get("detail") or {}
    if isinstance(d, str):
        d = json.loads(d or "{}")
    qs = d.get("questions")
    if isinstance(qs, list) and qs:
        n = len(qs)
        return f"{n} question{'s' if n != 1 else ''}: " + "; ".join(str(q)[:40] for q in qs[:3])
    if isinstance(qs, int):  # question-set exports count them
        return f"{qs} question{'s' if qs != 1 else ''}"
    if "segments" in d:
        return f"{d['segments']} segments"
    if "spans" in d:
        return f"{d['spans']} spans"
    return ""
