"""The library database: one SQLite file (WAL) opened through sqlite-utils.

Small verbs with intent-revealing names; every multi-row write happens inside
``transaction()`` so a stage's output lands whole or not at all.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import sqlite_utils

from harp_desktop.paths import private_dir
from harp_desktop.store import dbapi, sealed
from harp_desktop.store.atomic import sweep_stale, tmp_path
from harp_desktop.store.clock import now_iso  # also read as db.now_iso by findings/store.py, bundle.py
from harp_desktop.store.crypto import KEY_FILE, PassphraseError
from harp_desktop.store.locks import schema_lock
from harp_desktop.store.questions import QuestionsDB
from harp_desktop.store.unlock import unlock_library

SCHEMA_VERSION = 6
LARGE_ARRAY_BYTES = 1 << 20
_SCHEMA_FILE = Path(__file__).with_name("schema.sql")


# Each entry is the SQL that upgrades the schema from version i to i + 1; append, never edit.
MIGRATIONS = [
    _SCHEMA_FILE.read_text(encoding="utf-8"),
    # 2: answers, stored with their plan and evidence (JSON) so they can be reviewed and scored later.
    """CREATE TABLE answers (
        id INTEGER PRIMARY KEY,
        recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        supported INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        data TEXT NOT NULL
    );
    CREATE INDEX answers_recording ON answers (recording_id, created_at);""",
    # 3: question sets and annotators' ground-truth evidence spans (docs/queries_format.md).
    # recording_ref keeps queries.jsonl's "recording" as written and extra its unknown fields,
    # so an import exports back unchanged.
    """CREATE TABLE questions (
        id INTEGER PRIMARY KEY,
        recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        query_id TEXT NOT NULL,
        recording_ref TEXT NOT NULL,
        query_type TEXT,
        query TEXT NOT NULL,
        answer TEXT,
        answer_kind TEXT,
        time_ref TEXT,
        cue_audio TEXT,
        notes TEXT,
        extra TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (recording_id, query_id)
    );
    CREATE TABLE annotations (
        id INTEGER PRIMARY KEY,
        question_id INTEGER NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
        annotator TEXT NOT NULL,
        start_s REAL NOT NULL,
        end_s REAL NOT NULL,
        label TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK (start_s >= 0 AND end_s >= start_s)
    );
    CREATE INDEX annotations_question ON annotations (question_id, annotator);""",
    # 4: audit trail of exports (what, when, where, checksum of the output). The recording's
    # sha256 and name are copied so a row still says what was exported after the recording is removed.
    """CREATE TABLE exports (
        id INTEGER PRIMARY KEY,
        recording_id INTEGER REFERENCES recordings(id) ON DELETE SET NULL,
        recording_sha256 TEXT,
        recording_name TEXT,
        kind TEXT NOT NULL,
        path TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        detail TEXT
    );
    CREATE INDEX exports_recording ON exports (recording_id, created_at);""",
    # 5: the findings layer (harp_desktop/findings/store.py). Index output, replaced when the
    # findings stage re-runs: speakers' role columns, sections, findings, event_speakers.
    # Annotations the index never touches: speaker_roles (set by hand; wins over the automatic
    # role) and finding_edits (rejections, edits, added findings; re-applied by matching the
    # remembered concept, speaker and time, so they survive a re-index).
    """ALTER TABLE speakers ADD COLUMN role TEXT;
    ALTER TABLE speakers ADD COLUMN role_source TEXT;
    ALTER TABLE speakers ADD COLUMN role_confidence REAL;
    CREATE TABLE speaker_roles (
        id INTEGER PRIMARY KEY,
        recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('patient', 'clinician', 'other')),
        annotator TEXT,
        updated_at TEXT NOT NULL,
        UNIQUE (recording_id, label)
    );
    CREATE TABLE sections (
        id INTEGER PRIMARY KEY,
        recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        start_s REAL NOT NULL,
        end_s REAL NOT NULL,
        confidence REAL NOT NULL
    );
    CREATE INDEX sections_recording ON sections (recording_id, start_s);
    CREATE TABLE findings (
        id INTEGER PRIMARY KEY,
        recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        concept TEXT NOT NULL,
        category TEXT NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        speaker TEXT,
        role TEXT,
        start_s REAL NOT NULL,
        end_s REAL NOT NULL,
        text TEXT NOT NULL,
        value TEXT,
        segment_ids TEXT NOT NULL DEFAULT '[]'
    );
    CREATE INDEX findings_recording ON findings (recording_id, start_s);
    CREATE TABLE finding_edits (
        id INTEGER PRIMARY KEY,
        recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        action TEXT NOT NULL CHECK (action IN ('edit', 'reject', 'add')),
        match_concept TEXT,
        match_speaker TEXT,
        match_start_s REAL,
        match_end_s REAL,
        concept TEXT,
        category TEXT,
        kind TEXT,
        status TEXT,
        speaker TEXT,
        role TEXT,
        start_s REAL,
        end_s REAL,
        text TEXT,
        value TEXT,
        segment_ids TEXT,
        rejected INTEGER NOT NULL DEFAULT 0,
        annotator TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX finding_edits_recording ON finding_edits (recording_id);
    CREATE TABLE event_speakers (
        tag_id INTEGER PRIMARY KEY REFERENCES tags(id) ON DELETE CASCADE,
        recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        speaker TEXT,
        method TEXT NOT NULL,
        distance_s REAL
    );
    CREATE INDEX event_speakers_recording ON event_speakers (recording_id, speaker);""",
    # 6: per-segment emotion (issue 18): the class head's top label and score, and the dimension head's
    # arousal and valence on [0, 1] (models/emotion/DIMENSIONS.md). Index output of the emotion stage,
    # replaced when it re-runs; a segment's row goes with the segment. A library indexed before has no
    # rows until its emotion stage re-runs (the head's fingerprint changed, so the next index does it).
    """CREATE TABLE segment_emotion (
        segment_id INTEGER PRIMARY KEY REFERENCES segments(id) ON DELETE CASCADE,
        recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        score REAL NOT NULL,
        arousal REAL,
        valence REAL
    );
    CREATE INDEX segment_emotion_recording ON segment_emotion (recording_id);""",
]


class LibraryDB(QuestionsDB):
    """The SQLite side of a library folder (SQLCipher when the library is encrypted).

    ``passphrase`` unlocks an encrypted library (else a key this process already unlocked
    is used); ``encrypt=True`` makes a new library encrypted. A plain library ignores both
    but refuses ``encrypt``: encryption is chosen once, when the library is created.
    """

    def __init__(self, folder: Path, passphrase: str | None = None, encrypt: bool = False) -> None:
        self.folder = Path(folder)
        self.path = self.folder / "library.sqlite"
        self.key = unlock_library(self.folder, self.path, passphrase, encrypt)
        private_dir(self.folder)
        # Programs opening a new library together: switching it to WAL and each schema step
        # happen once, under a lock (SQLite's busy timeout does not cover the WAL switch).
        with schema_lock(self.folder):
            old_umask = os.umask(0o077)  # database, WAL and SHM files: user-only
            try:
                conn = dbapi.connect(self.path, self.key)
            except dbapi.DatabaseError as exc:
                if self.key is None and "not a database" in str(exc):  # random bytes to SQLite
                    raise PassphraseError(
                        f"the library database is damaged or not a HARP library (file is not a database, or an "
                        f"encrypted library without its {KEY_FILE}): {self.path}") from None
                raise
            finally:
                os.umask(old_umask)
            self.db = sqlite_utils.Database(conn)
            self._migrate()

    @property
    def encrypted(self) -> bool:
        return self.key is not None

    def _migrate(self) -> None:
        version = self.db.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"library {self.folder} was written by a newer HARP Desktop (schema {version} > {SCHEMA_VERSION})"
            )
        while version < SCHEMA_VERSION:
            # One script per step, inside one transaction: a step lands whole or not at all.
            self.db.conn.executescript(
                f"BEGIN IMMEDIATE;\n{MIGRATIONS[version]}\nPRAGMA user_version={version + 1};\nCOMMIT;"
            )
            version += 1

    @property
    def schema_version(self) -> int:
        return self.db.conn.execute("PRAGMA user_version").fetchone()[0]

    @contextmanager
    def transaction(self) -> Iterator[sqlite_utils.Database]:
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def close(self) -> None:
        self.db.conn.close()

    def data_version(self) -> int:
        """Changes whenever another connection (another program, or a worker thread) commits."""
        return self.db.conn.execute("PRAGMA data_version").fetchone()[0]

    # -- recordings -------------------------------------------------------------
    def find_recording(self, ref: str) -> dict | None:
        """A recording by id, full sha256, unique sha256 prefix (>= 6 chars) or path."""
        rows = list(self.db.query("SELECT * FROM recordings WHERE path = ?", [str(ref)]))
        if not rows and len(ref) >= 6 and all(c in "0123456789abcdef" for c in ref.lower()):
            rows = list(self.db.query("SELECT * FROM recordings WHERE sha256 LIKE ?", [ref.lower() + "%"]))
            if len(rows) > 1:
                raise LookupError(f"'{ref}' matches {len(rows)} recordings; give more of the sha256")
        return rows[0] if rows else None

    def recording_by_sha(self, sha256: str) -> dict | None:
        rows = list(self.db.query("SELECT * FROM recordings WHERE sha256 = ?", [sha256]))
        return rows[0] if rows else None

    def add_recording(self, sha256: str, path: Path, info: dict) -> int:
        existing = self.recording_by_sha(sha256)
        if existing:
            if existing["path"] != str(path):
                self.db["recordings"].update(existing["id"], {"path": str(path), "name": Path(path).name})
            return existing["id"]
        row = {"sha256": sha256, "path": str(path), "name": Path(path).name, "added_at": now_iso(), **info}
        return self.db["recordings"].insert(row).last_pk

    def recordings(self) -> list[dict]:
        return list(self.db.query("SELECT * FROM recordings ORDER BY id"))

    # -- stages -----------------------------------------------------------------
    def stage_fingerprint(self, recording_id: int, stage: str) -> str | None:
        rows = list(
            self.db.query(
                "SELECT fingerprint FROM stages WHERE recording_id = ? AND stage = ?", [recording_id, stage]
            )
        )
        return rows[0]["fingerprint"] if rows else None

    def mark_stage_done(self, recording_id: int, stage: str, fingerprint: str, seconds: float, info: dict) -> None:
        self.db["stages"].upsert(
            {
                "recording_id": recording_id,
                "stage": stage,
                "fingerprint": fingerprint,
                "completed_at": now_iso(),
                "seconds": round(seconds, 3),
                "info": json.dumps(info),
            },
            pk=("recording_id", "stage"),
        )

    def stages(self, recording_id: int) -> list[dict]:
        return list(self.db.query("SELECT * FROM stages WHERE recording_id = ?", [recording_id]))

    # -- arrays -----------------------------------------------------------------
    def put_array(self, recording_id: int, name: str, arr: np.ndarray, meta: dict | None = None) -> None:
        """Small arrays live in the row; large ones (per-frame embeddings) in an .npy file
        beside the database, memory-mapped on read so a tool touches only its window.
        The file is replaced atomically before the row commits; a crash in between
        leaves the stage unfinished, so it re-runs and rewrites the same content."""
        arr = np.ascontiguousarray(arr)
        meta = dict(meta or {})
        buf = io.BytesIO()
        if arr.nbytes > LARGE_ARRAY_BYTES and self.key is not None:
            # Encrypted library: the .npy bytes sealed; read back whole into memory (no memmap).
            folder = private_dir(private_dir(self.folder / "arrays") / str(recording_id))
            np.save(buf, arr, allow_pickle=False)
            sealed.write_blob(folder / f"{name}.sealed", self.key, buf.getvalue(), f"arrays/{recording_id}/{name}")
            buf = io.BytesIO()
            meta["_sealed"] = f"arrays/{recording_id}/{name}.sealed"
        elif arr.nbytes > LARGE_ARRAY_BYTES:
            folder = private_dir(private_dir(self.folder / "arrays") / str(recording_id))
            target = folder / f"{name}.npy"
            sweep_stale(target)
            tmp = tmp_path(target)  # per process, so a concurrent indexer never shares it
            with open(tmp, "wb") as fh:
                np.save(fh, arr, allow_pickle=False)
            os.chmod(tmp, 0o600)
            os.replace(tmp, target)
            meta["_file"] = f"arrays/{recording_id}/{name}.npy"
        else:
            np.save(buf, arr, allow_pickle=False)
        self.db["arrays"].upsert(
            {
                "recording_id": recording_id,
                "name": name,
                "dtype": str(arr.dtype),
                "shape": json.dumps(list(arr.shape)),
                "meta": json.dumps(meta),
                "data": buf.getvalue(),
            },
            pk=("recording_id", "name"),
        )

    def get_array(self, recording_id: int, name: str) -> tuple[np.ndarray, dict] | None:
        rows = list(
            self.db.query("SELECT data, meta FROM arrays WHERE recording_id = ? AND name = ?", [recording_id, name])
        )
        if not rows:
            return None
        meta = json.loads(rows[0]["meta"] or "{}")
        if "_sealed" in meta:
            blob = sealed.read_blob(self.folder / meta.pop("_sealed"), self.key, f"arrays/{recording_id}/{name}")
            return np.load(io.BytesIO(blob), allow_pickle=False), meta
        if "_file" in meta:
            return np.load(self.folder / meta.pop("_file"), mmap_mode="r", allow_pickle=False), meta
        return np.load(io.BytesIO(rows[0]["data"]), allow_pickle=False), meta

    # -- answers ----------------------------------------------------------------
    def store_answer(self, recording_id: int, data: dict) -> int:
        row = {"recording_id": recording_id, "question": data["question"], "answer": data["answer"],
               "supported": int(bool(data["supported"])), "created_at": now_iso(),
               "data": json.dumps(data, ensure_ascii=False)}
        return self.db["answers"].insert(row).last_pk

    def answers(self, recording_id: int) -> list[dict]:
        rows = self.db.query("SELECT id, created_at, data FROM answers WHERE recording_id = ? ORDER BY id",
                             [recording_id])
        return [{"id": r["id"], "created_at": r["created_at"], **json.loads(r["data"])} for r in rows]

    # -- reading ----------------------------------------------------------------
    def speakers(self, recording_id: int) -> list[dict]:
        return list(
            self.db.query(
                "SELECT id, idx, label, name, total_s, role, role_source, role_confidence FROM speakers "
                "WHERE recording_id = ? ORDER BY idx",
                [recording_id],
            )
        )

    def rename_speaker(self, recording_id: int, label_or_id: str, name: str) -> None:
        rows = [s for s in self.speakers(recording_id) if label_or_id in (s["label"], str(s["id"]))]
        if not rows:
            raise LookupError(f"no speaker '{label_or_id}' in this recording")
        self.db["speakers"].update(rows[0]["id"], {"name": name.strip()[:80] or None})

    def segments(self, recording_id: int, start_s: float = 0.0, end_s: float = float("inf")) -> list[dict]:
        return list(
            self.db.query(
                "SELECT s.id, s.idx, s.start_s, s.end_s, s.text, s.speaker_id, sp.label AS speaker_label, "
                "COALESCE(sp.name, sp.label) AS speaker FROM segments s LEFT JOIN speakers sp ON sp.id = s.speaker_id "
                "WHERE s.recording_id = ? AND s.end_s > ? AND s.start_s < ? ORDER BY s.start_s",
                [recording_id, start_s, end_s if end_s != float("inf") else 1e18],
            )
        )

    def segment_emotions(self, recording_id: int) -> dict[int, dict]:
        """segment id -> {"label", "score", "arousal", "valence"} as the emotion stage stored them
        (arousal/valence None when the stage ran without a dimension head)."""
        rows = self.db.query("SELECT segment_id, label, score, arousal, valence FROM segment_emotion "
                             "WHERE recording_id = ?", [recording_id])
        return {r["segment_id"]: {k: r[k] for k in ("label", "score", "arousal", "valence")} for r in rows}

    def words(self, segment_id: int) -> list[dict]:
        return list(
            self.db.query("SELECT start_s, end_s, text, prob FROM words WHERE segment_id = ? ORDER BY start_s", [segment_id])
        )

    def tags(self, recording_id: int, kind: str | None = None) -> list[dict]:
        sql = "SELECT id, kind, label, start_s, end_s, score, source FROM tags WHERE recording_id = ?"
        args: list = [recording_id]
        if kind:
            sql += " AND kind = ?"
            args.append(kind)
        return list(self.db.query(sql + " ORDER BY start_s", args))

    # -- exports (audit trail) ----------------------------------------------------
    def record_export(self, recording_id: int | None, kind: str, path: str, sha256: str, size: int,
                      detail: dict) -> int:
        rec = list(self.db.query("SELECT sha256, name FROM recordings WHERE id = ?", [recording_id]))
        row = {"recording_id": recording_id, "recording_sha256": rec[0]["sha256"] if rec else None,
               "recording_name": rec[0]["name"] if rec else None, "kind": kind, "path": path, "sha256": sha256,
               "bytes": size, "created_at": now_iso(), "detail": json.dumps(detail, ensure_ascii=False)}
        return self.db["exports"].insert(row).last_pk

    def exports(self, recording_id: int | None = None) -> list[dict]:
        """Every recorded export, newest first (one recording's when ``recording_id`` is given)."""
        sql, args = "SELECT * FROM exports", []
        if recording_id is not None:
            sql, args = sql + " WHERE recording_id = ?", [recording_id]
        rows = self.db.query(sql + " ORDER BY id DESC", args)
        return [{**r, "detail": json.loads(r["detail"] or "{}")} for r in rows]
