"""Questions and annotators' ground-truth spans (schema migration 3), mixed into LibraryDB.

Each edit is one small statement the GUI's undo stack can invert with another one:
add <-> delete (the deleted row is returned whole so it can be put back with its id),
update <-> update with the old values.
"""

from __future__ import annotations

import json

from harp_desktop.store import dbapi
from harp_desktop.store.clock import now_iso

QUESTION_FIELDS = ("query_id", "recording_ref", "query_type", "query", "answer", "answer_kind", "time_ref",
                   "cue_audio", "notes")
SPAN_FIELDS = ("annotator", "start_s", "end_s", "label")


def _insert(conn, table: str, row: dict) -> int:
    # Plain SQL: sqlite_utils' insert wraps itself in ``with conn:``, which would commit an
    # enclosing transaction() early and break an all-or-nothing import.
    cols = ", ".join(row)
    cur = conn.execute(f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
    return cur.lastrowid


def _question_row(r: dict) -> dict:
    out = dict(r)
    out["extra"] = json.loads(r["extra"]) if r.get("extra") else {}
    return out


class QuestionsDB:
    """Mixin for LibraryDB: ``self.db`` is the sqlite_utils Database, ``self.transaction`` its writer."""

    # -- questions --------------------------------------------------------------------------
    def add_question(self, recording_id: int, fields: dict, question_id: int | None = None) -> int:
        bad = set(fields) - set(QUESTION_FIELDS) - {"extra", "created_at", "updated_at"}
        if bad:
            raise ValueError(f"unknown question field(s): {', '.join(sorted(bad))}")
        if not str(fields.get("query", "")).strip():
            raise ValueError("the question text is empty")
        now = now_iso()
        row = {"recording_id": recording_id, "created_at": now, "updated_at": now, **fields}
        row.setdefault("query_id", self._next_query_id(recording_id))
        row.setdefault("recording_ref", self._recording_name(recording_id))
        row["extra"] = json.dumps(row.get("extra") or {}) if row.get("extra") else None
        if question_id is not None:
            row["id"] = question_id
        try:
            return _insert(self.db.conn, "questions", row)
        except dbapi.IntegrityError as exc:  # the query_id is taken for this recording
            if "UNIQUE" in str(exc):
                raise ValueError(f"question id '{row['query_id']}' already exists for this recording") from None
            raise

    def _next_query_id(self, recording_id: int) -> str:
        n = self.db.execute("SELECT COUNT(*) FROM questions WHERE recording_id = ?", [recording_id]).fetchone()[0]
        taken = {r["query_id"] for r in self.db.query("SELECT query_id FROM questions WHERE recording_id = ?",
                                                      [recording_id])}
        while f"q-{n + 1:03d}" in taken:
            n += 1
        return f"q-{n + 1:03d}"

    def _recording_name(self, recording_id: int) -> str:
        row = self.db.execute("SELECT name FROM recordings WHERE id = ?", [recording_id]).fetchone()
        if row is None:
            raise LookupError(f"no recording with id {recording_id}")
        return row[0]

    def update_question(self, question_id: int, changes: dict) -> dict:
        """Apply ``changes``; returns the old values of the changed fields (for undo)."""
        old = self.question(question_id)
        bad = set(changes) - set(QUESTION_FIELDS) - {"extra"}
        if bad:
            raise ValueError(f"unknown question field(s): {', '.join(sorted(bad))}")
        if "query" in changes and not str(changes["query"] or "").strip():
            raise ValueError("the question text is empty")
        row = dict(changes)
        if "extra" in row:
            row["extra"] = json.dumps(row["extra"]) if row["extra"] else None
        self._update("questions", question_id, {**row, "updated_at": now_iso()})
        return {k: old[k] for k in changes}

    def delete_question(self, question_id: int) -> tuple[dict, list[dict]]:
        """Delete a question and its spans; returns both so an undo can restore them."""
        q = self.question(question_id)
        spans = self.annotations(question_id)
        with self.transaction():
            self.db.conn.execute("DELETE FROM questions WHERE id = ?", [question_id])
        return q, spans

    def restore_question(self, question: dict, spans: list[dict]) -> None:
        fields = {k: question[k] for k in (*QUESTION_FIELDS, "extra", "created_at", "updated_at")}
        with self.transaction():
            self.add_question(question["recording_id"], fields, question["id"])
            for s in spans:
                _insert(self.db.conn, "annotations", s)

    def _update(self, table: str, row_id: int, changes: dict) -> None:
        sets = ", ".join(f"{k} = ?" for k in changes)
        self.db.conn.execute(f"UPDATE {table} SET {sets} WHERE id = ?", [*changes.values(), row_id])

    def question(self, question_id: int) -> dict:
        rows = list(self.db.query("SELECT * FROM questions WHERE id = ?", [question_id]))
        if not rows:
            raise LookupError(f"no question with id {question_id}")
        return _question_row(rows[0])

    def questions(self, recording_id: int | None = None) -> list[dict]:
        sql, args = "SELECT * FROM questions", []
        if recording_id is not None:
            sql, args = sql + " WHERE recording_id = ?", [recording_id]
        return [_question_row(r) for r in self.db.query(sql + " ORDER BY recording_id, id", args)]

    # -- annotations ------------------------------------------------------------------------
    def add_annotation(self, question_id: int, annotator: str, start_s: float, end_s: float,
                       label: str | None = None, annotation_id: int | None = None) -> int:
        annotator = (annotator or "").strip()
        if not annotator:
            raise ValueError("an annotation needs the annotator's name")
        a, b = sorted((float(start_s), float(end_s)))
        if a < 0:
            raise ValueError(f"a span cannot start before 0 s (got {a:.2f})")
        self.question(question_id)  # a clear error for a missing question
        now = now_iso()
        row = {"question_id": question_id, "annotator": annotator, "start_s": a, "end_s": b,
               "label": label or None, "created_at": now, "updated_at": now}
        if annotation_id is not None:
            row["id"] = annotation_id
        return _insert(self.db.conn, "annotations", row)

    def update_annotation(self, annotation_id: int, changes: dict) -> dict:
        """Resize or relabel a span; returns the old values (for undo)."""
        old = self.annotation(annotation_id)
        bad = set(changes) - {"start_s", "end_s", "label"}
        if bad:
            raise ValueError(f"unknown annotation field(s): {', '.join(sorted(bad))}")
        new = {**old, **changes}
        if not 0 <= new["start_s"] <= new["end_s"]:
            raise ValueError(f"bad span {new['start_s']:.2f}-{new['end_s']:.2f} s")
        self._update("annotations", annotation_id, {**changes, "updated_at": now_iso()})
        return {k: old[k] for k in changes}

    def delete_annotation(self, annotation_id: int) -> dict:
        old = self.annotation(annotation_id)
        self.db.conn.execute("DELETE FROM annotations WHERE id = ?", [annotation_id])
        return old

    def delete_annotations(self, question_id: int, annotator: str) -> None:
        self.db.conn.execute("DELETE FROM annotations WHERE question_id = ? AND annotator = ?",
                             [question_id, annotator])

    def restore_annotation(self, row: dict) -> None:
        _insert(self.db.conn, "annotations", row)

    def annotation(self, annotation_id: int) -> dict:
        rows = list(self.db.query("SELECT * FROM annotations WHERE id = ?", [annotation_id]))
        if not rows:
            raise LookupError(f"no annotation with id {annotation_id}")
        return rows[0]

    def annotations(self, question_id: int, annotator: str | None = None) -> list[dict]:
        sql, args = "SELECT * FROM annotations WHERE question_id = ?", [question_id]
        if annotator is not None:
            sql, args = sql + " AND annotator = ?", [*args, annotator]
        return list(self.db.query(sql + " ORDER BY id", args))

    def annotators(self, question_id: int, reference: str = "reference") -> list[str]:
        """Annotators of a question, the reference first: the one named ``reference`` (an
        imported truth set) if present, else whoever marked a span first."""
        rows = self.db.query("SELECT annotator, MIN(id) AS first FROM annotations WHERE question_id = ? "
                             "GROUP BY annotator ORDER BY annotator = ? DESC, first", [question_id, reference])
        return [r["annotator"] for r in rows]
