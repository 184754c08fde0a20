"""Delete a recording and everything derived from it, leaving no readable trace.

Rows go in one transaction (foreign keys cascade from ``recordings``); SQLite's
``secure_delete`` zeroes the freed content, the full-text index is merged so deleted
terms leave its segments, and the WAL is checkpointed and truncated so old page copies
do not linger. Files (decoded audio, waveform envelope, vector indexes, large arrays)
are removed after the rows commit: a crash in between leaves orphan files only, which
the next delete sweeps (``orphan_files``: files of recordings the database no longer has).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from harp_desktop.store.db import LibraryDB
from harp_desktop.store.locks import lock_file, recording_lock

# Tables that hold a recording's data; each has a recording_id column.
_OWNED = ("stages", "speech_regions", "asr_chunks", "speakers", "segments", "words", "tags", "arrays", "answers",
          "questions", "exports", "event_speakers", "sections", "findings", "finding_edits", "speaker_roles", "segment_emotion")


@dataclass
class Deleted:
    sha256: str
    name: str
    rows: int = 0
    files: list[str] = field(default_factory=list)


def recording_files(folder: Path, rid: int, sha256: str) -> list[Path]:
    """Every file or folder the library keeps for one recording."""
    audio = folder / "audio"
    return [*audio.glob(f"{sha256}.*"), folder / "vectors" / sha256, folder / "arrays" / str(rid),
            lock_file(folder, sha256)]


def orphan_files(db: LibraryDB) -> list[Path]:
    """Files left by a delete that crashed after its rows committed (never a ``.partial`` in progress)."""
    recs = db.recordings()
    shas, ids = {r["sha256"] for r in recs}, {str(r["id"]) for r in recs}
    folder = db.folder
    out = [p for p in (folder / "audio").glob("*") if p.name.split(".")[0] not in shas and ".partial" not in p.name]
    out += [p for p in (folder / "vectors").glob("*") if p.is_dir() and p.name not in shas]
    out += [p for p in (folder / "arrays").glob("*") if p.is_dir() and p.name not in ids]
    return out


def _remove(paths: list[Path], folder: Path) -> list[str]:
    gone = []
    for p in paths:
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
        else:
            continue
        gone.append(str(p.relative_to(folder)))
    return gone


def delete_recording(db: LibraryDB, rec: dict) -> Deleted:
    rid, sha = rec["id"], rec["sha256"]
    out = Deleted(sha, rec["name"])
    conn = db.db.conn
    conn.execute("PRAGMA secure_delete=ON")  # freed cells and pages are overwritten with zeros
    present = set(db.db.table_names())
    with recording_lock(db.folder, sha), db.transaction():  # never under a running indexer's feet
        for table in _OWNED:
            if table in present:
                out.rows += conn.execute(f"DELETE FROM {table} WHERE recording_id = ?", [rid]).rowcount
        out.rows += conn.execute("DELETE FROM recordings WHERE id = ?", [rid]).rowcount
    # Merge the FTS5 segments so the deleted text is gone from the index, not just tombstoned.
    conn.execute("INSERT INTO segments_fts (segments_fts) VALUES ('optimize')")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    out.files = _remove(recording_files(db.folder, rid, sha) + orphan_files(db), db.folder)
    return out
