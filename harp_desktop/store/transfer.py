"""Copy one recording's index from one library into another.

Used where a library is filled by someone other than its own pipeline: a Ray worker's
scratch library merged into the main one, and a portable bundle imported on a laptop.
Row ids differ between libraries, so every id is remapped through the foreign keys the
schema declares (segments -> speakers, words -> segments, ...), array files move to the
destination's recording id, and hnswlib files, labelled by segment id, are relabelled.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from dataclasses import dataclass

from harp_desktop.paths import private_dir
from harp_desktop.store.db import LibraryDB
from harp_desktop.store.vectors import SPACES, VectorStore

# What the indexing pipeline writes for a recording: replaced whole on a copy, as a
# re-index would. Other recording-owned tables (answers, questions, annotations, and
# any added later) are merged: rows the destination already holds are not repeated.
INDEX_TABLES = ("stages", "speech_regions", "asr_chunks", "speakers", "segments", "words", "tags",
                "sections", "findings", "event_speakers", "segment_emotion")  # the findings stage's output (speaker_roles and
# finding_edits are annotations: merged, so a role or an edit made in the destination survives)
# This library's own audit trail of what it exported; it does not travel.
LOCAL_TABLES = ("exports",)


@dataclass
class Store:
    """The two halves of a library folder that a copy touches."""

    db: LibraryDB
    vectors: VectorStore

    @classmethod
    def open(cls, folder) -> Store:
        db = LibraryDB(folder)
        return cls(db, VectorStore(db.folder))


def stage_fingerprints(db: LibraryDB, recording_id: int) -> dict[str, str]:
    return {s["stage"]: s["fingerprint"] for s in db.stages(recording_id)}


def _columns(db: LibraryDB, table: str) -> list[str]:
    return [r[1] for r in db.db.conn.execute(f"PRAGMA table_info({table})")]


def _foreign_keys(db: LibraryDB, table: str) -> dict[str, str]:
    """column -> referenced table, for keys that point at an integer ``id``."""
    return {r[3]: r[2] for r in db.db.conn.execute(f"PRAGMA foreign_key_list({table})") if r[4] == "id"}


def _owned_tables(db: LibraryDB) -> list[str]:
    """Tables holding a recording's rows, parents before children (foreign-key order)."""
    names = [r[0] for r in db.db.conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
        "AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'")]
    fks = {t: _foreign_keys(db, t) for t in names}
    owned = {"recordings"}
    grew = True
    while grew:  # a table is owned if it points at an owned one (annotations -> questions -> recordings)
        new = {t for t in names if t not in owned and set(fks[t].values()) & owned}
        owned |= new
        grew = bool(new)
    owned -= {"recordings", "arrays", *LOCAL_TABLES}
    ordered: list[str] = []
    while len(ordered) < len(owned):
        for t in sorted(owned - set(ordered)):
            if set(fks[t].values()) & owned <= set(ordered) | {t}:
                ordered.append(t)
    return ordered


def _rows(db: LibraryDB, table: str, rid: int, parents: dict[str, dict[int, int]]) -> list[dict]:
    cols = _columns(db, table)
    if "recording_id" in cols:
        return list(db.db.query(f"SELECT * FROM {table} WHERE recording_id = ?", [rid]))
    # A child without a recording column: its rows hang off a parent already copied.
    col, parent = next((c, p) for c, p in _foreign_keys(db, table).items() if p in parents)
    ids = list(parents[parent])
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    return list(db.db.query(f"SELECT * FROM {table} WHERE {col} IN ({marks})", ids))


def copy_recording(src: Store, dst: Store, sha256: str, audio: bool = True) -> tuple[int, str]:
    """Copy recording ``sha256`` from ``src`` into ``dst``; returns (dst id, what happened).

    The rows land in one transaction. When ``dst`` already holds the recording with the
    same stage fingerprints and its vector files, only new answers/questions are added.
    """
    rec = src.db.recording_by_sha(sha256)
    if rec is None:
        raise LookupError(f"no recording {sha256[:12]} in {src.db.folder}")
    src_fps = stage_fingerprints(src.db, rec["id"])
    spaces = [s for s in SPACES if src.vectors.exists(sha256, s)]
    old = dst.db.recording_by_sha(sha256)
    same = (old is not None and stage_fingerprints(dst.db, old["id"]) == src_fps
            and all(dst.vectors.exists(sha256, s) for s in spaces))
    if old is not None and not same:
        # Vector files are labelled with segment ids that are about to change: without
        # them the pipeline sees those stages as undone, also after a crash mid-copy.
        for s in SPACES:
            dst.vectors.path(sha256, s).unlink(missing_ok=True)
    tables = _owned_tables(src.db)
    with dst.db.transaction():
        if old is None:
            meta = {k: v for k, v in rec.items() if k not in ("id", "sha256", "path", "name")}
            dst_rid = dst.db.db["recordings"].insert(
                {**meta, "sha256": sha256, "path": rec["path"], "name": rec["name"]}).last_pk
        else:
            dst_rid = old["id"]
            dst.db.db["recordings"].update(dst_rid, {k: rec[k] for k in (
                "format", "sample_rate", "channels", "duration_s", "note")})
        ids: dict[str, dict[int, int]] = {"recordings": {rec["id"]: dst_rid}}
        names = {r["idx"]: r["name"] for r in dst.db.speakers(dst_rid)}
        for table in tables:
            if table in INDEX_TABLES:
                if same:
                    continue
                dst.db.db.execute(f"DELETE FROM {table} WHERE recording_id = ?", [dst_rid])
            ids[table] = _copy_rows(src.db, dst.db, table, rec["id"], ids, dedupe=table not in INDEX_TABLES)
        if not same:
            if names:  # a name given in the destination survives a re-index, as in the pipeline
                for idx, name in names.items():
                    if name:
                        dst.db.db.execute("UPDATE speakers SET name = COALESCE(name, ?) WHERE recording_id = ? "
                                          "AND idx = ?", [name, dst_rid, idx])
            dst.db.db.execute("DELETE FROM arrays WHERE recording_id = ?", [dst_rid])
            for row in src.db.db.query("SELECT name FROM arrays WHERE recording_id = ?", [rec["id"]]):
                arr, meta = src.db.get_array(rec["id"], row["name"])
                dst.db.put_array(dst_rid, row["name"], arr, meta)
            seg_ids = ids.get("segments", {})
            for space in spaces:
                old_ids = sorted(int(i) for i in src.vectors.load(sha256, space).get_ids_list())
                vecs = src.vectors.get(sha256, space, old_ids) if old_ids else None
                # Insertion in the original (segment) order keeps hnswlib's graph the same.
                dst.vectors.write(sha256, space, [seg_ids[i] for i in old_ids],
                                  vecs if vecs is not None else [])
    if audio:
        _copy_audio(src.db, dst.db, sha256)
    return dst_rid, "unchanged" if same else ("replaced" if old is not None else "added")


def _copy_rows(src: LibraryDB, dst: LibraryDB, table: str, src_rid: int, ids: dict[str, dict[int, int]],
               dedupe: bool) -> dict[int, int]:
    fks = _foreign_keys(src, table)
    has_id = "id" in _columns(src, table)
    mapping: dict[int, int] = {}
    for row in _rows(src, table, src_rid, ids):
        new = {k: v for k, v in row.items() if k != "id"}
        for col, parent in fks.items():
            if new.get(col) is not None:
                new[col] = ids.get(parent, {}).get(new[col])
        if any(row.get(c) is not None and new[c] is None for c in fks if c in new):
            continue  # its parent row was not copied (kept the destination's instead)
        if dedupe:  # merged tables: an identical row already there is the same row
            where = " AND ".join(f"{k} IS ?" for k in new)
            hit = list(dst.db.query(f"SELECT {'id' if has_id else 'rowid'} AS id FROM {table} WHERE {where}",
                                    list(new.values())))
            if hit:
                if has_id:
                    mapping[row["id"]] = hit[0]["id"]
                continue
        try:
            pk = dst.db[table].insert(new).last_pk
        except sqlite3.IntegrityError:
            if not dedupe:
                raise
            continue  # e.g. the same query_id with other text: the destination's row wins
        if has_id:
            mapping[row["id"]] = pk
    return mapping


def _copy_audio(src: LibraryDB, dst: LibraryDB, sha256: str) -> None:
    """The decoded 16 kHz cache (playback, burst counting); copied under a temporary name."""
    source = src.folder / "audio" / f"{sha256}.f32"
    target = dst.folder / "audio" / f"{sha256}.f32"
    if not source.exists() or (target.exists() and target.stat().st_size == source.stat().st_size):
        return
    private_dir(target.parent)
    tmp = target.with_suffix(".f32.partial")
    shutil.copyfile(source, tmp)
    os.chmod(tmp, 0o600)
    os.replace(tmp, target)
