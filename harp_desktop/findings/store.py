"""The findings layer's rows (schema migration 5): plain SQL, no logic beyond reading and writing.

Index output, replaced whole when the stage re-runs: ``speakers.role / role_source /
role_confidence``, ``sections``, ``findings`` (auto) and ``event_speakers``. Annotations,
never touched by the index: ``speaker_roles`` (a role set by hand) and ``finding_edits``
(rejections, edits and added findings; see ``edits.py`` for how they are re-applied).
Writes use plain SQL: sqlite_utils' insert commits an enclosing transaction early.
"""

from __future__ import annotations

import json

from harp_desktop.findings.attribution import EventSpeaker
from harp_desktop.findings.model import Finding, Section
from harp_desktop.findings.roles import RoleGuess
from harp_desktop.store.db import LibraryDB, now_iso

FINDING_FIELDS = ("concept", "category", "kind", "status", "speaker", "role", "start_s", "end_s", "text", "value")


def _insert(db: LibraryDB, table: str, row: dict) -> int:
    cols = ", ".join(row)
    return db.db.conn.execute(f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * len(row))})",
                              list(row.values())).lastrowid


# -- index output -------------------------------------------------------------------------
def write_roles(db: LibraryDB, rid: int, roles: dict[str, RoleGuess]) -> None:
    conn = db.db.conn
    conn.execute("UPDATE speakers SET role = NULL, role_source = NULL, role_confidence = NULL WHERE recording_id = ?",
                 [rid])
    for label, g in roles.items():
        conn.execute("UPDATE speakers SET role = ?, role_source = ?, role_confidence = ? WHERE recording_id = ? "
                     "AND label = ?", [g.role, g.source, g.confidence, rid, label])


def write_sections(db: LibraryDB, rid: int, sections: list[Section]) -> None:
    db.db.conn.execute("DELETE FROM sections WHERE recording_id = ?", [rid])
    for s in sections:
        _insert(db, "sections", {"recording_id": rid, "kind": s.kind, "start_s": s.start_s, "end_s": s.end_s,
                                 "confidence": s.confidence})


def write_findings(db: LibraryDB, rid: int, findings: list[Finding]) -> None:
    """Replace the recording's automatic findings (annotators' rows live in finding_edits)."""
    db.db.conn.execute("DELETE FROM findings WHERE recording_id = ?", [rid])
    for f in findings:
        row = {k: getattr(f, k) for k in FINDING_FIELDS}
        _insert(db, "findings", {"recording_id": rid, **row, "segment_ids": json.dumps(list(f.segment_ids))})


def write_event_speakers(db: LibraryDB, rid: int, items: list[EventSpeaker]) -> None:
    db.db.conn.execute("DELETE FROM event_speakers WHERE recording_id = ?", [rid])
    for e in items:
        _insert(db, "event_speakers", {"tag_id": e.tag_id, "recording_id": rid, "speaker": e.speaker,
                                       "method": e.method, "distance_s": e.distance_s})


# -- reading ------------------------------------------------------------------------------
def word_spans(db: LibraryDB, rid: int) -> dict[int, list[tuple[float, float]]]:
    """segment id -> its ASR words' (start, end), in time order."""
    out: dict[int, list[tuple[float, float]]] = {}
    for r in db.db.query("SELECT segment_id, start_s, end_s FROM words WHERE recording_id = ? ORDER BY start_s", [rid]):
        out.setdefault(r["segment_id"], []).append((r["start_s"], r["end_s"]))
    return out


def stored_roles(db: LibraryDB, rid: int) -> dict[str, dict]:
    """label -> {"role", "source", "confidence"}: the stage's roles with hand-set ones over them
    (a role set after the stage ran, or carried in a bundle, wins at read time too)."""
    out = {r["label"]: {"role": r["role"], "source": r["role_source"], "confidence": r["role_confidence"]}
           for r in db.db.query("SELECT label, role, role_source, role_confidence FROM speakers "
                                "WHERE recording_id = ? ORDER BY idx", [rid])}
    for label, role in manual_roles(db, rid).items():
        if label in out:
            out[label] = {"role": role, "source": "manual", "confidence": 1.0}
    return out


def manual_roles(db: LibraryDB, rid: int) -> dict[str, str]:
    return {r["label"]: r["role"] for r in db.db.query(
        "SELECT label, role FROM speaker_roles WHERE recording_id = ?", [rid])}


def sections(db: LibraryDB, rid: int) -> list[Section]:
    return [Section(r["kind"], r["start_s"], r["end_s"], r["confidence"]) for r in db.db.query(
        "SELECT kind, start_s, end_s, confidence FROM sections WHERE recording_id = ? ORDER BY start_s", [rid])]


def _finding(r: dict, source: str, fid: int, rejected: bool = False) -> Finding:
    ids = tuple(json.loads(r["segment_ids"])) if r.get("segment_ids") else ()
    return Finding(**{k: r[k] for k in FINDING_FIELDS}, segment_ids=ids, id=fid, source=source, rejected=rejected)


def auto_findings(db: LibraryDB, rid: int) -> list[Finding]:
    rows = db.db.query("SELECT * FROM findings WHERE recording_id = ? ORDER BY start_s, id", [rid])
    return [_finding(r, "auto", r["id"]) for r in rows]


def finding_edits(db: LibraryDB, rid: int) -> list[dict]:
    return list(db.db.query("SELECT * FROM finding_edits WHERE recording_id = ? ORDER BY id", [rid]))


def annotator_finding(row: dict) -> Finding:
    """An edited or added finding. Its id is the edit row's id, negated, so auto and annotator
    findings share one id space in the API (auto ids are positive findings.id)."""
    return _finding(row, "annotator", -row["id"], bool(row["rejected"]))


def event_speakers(db: LibraryDB, rid: int) -> list[dict]:
    """Every event tag with the speaker it is attributed to (None when nobody spoke near it)."""
    rows = db.db.query(
        "SELECT t.id AS tag_id, t.label, t.start_s, t.end_s, e.speaker, e.method FROM tags t "
        "LEFT JOIN event_speakers e ON e.tag_id = t.id WHERE t.recording_id = ? AND t.kind = 'event' "
        "ORDER BY t.start_s", [rid])
    return [dict(r) for r in rows]


# -- annotations --------------------------------------------------------------------------
def set_manual_role(db: LibraryDB, rid: int, label: str, role: str, annotator: str | None = None) -> None:
    conn = db.db.conn
    conn.execute("DELETE FROM speaker_roles WHERE recording_id = ? AND label = ?", [rid, label])
    _insert(db, "speaker_roles", {"recording_id": rid, "label": label, "role": role, "annotator": annotator,
                                  "updated_at": now_iso()})
    conn.execute("UPDATE speakers SET role = ?, role_source = 'manual', role_confidence = 1.0 "
                 "WHERE recording_id = ? AND label = ?", [role, rid, label])


def add_edit(db: LibraryDB, rid: int, action: str, match: Finding | None, new: Finding | None,
             annotator: str | None = None) -> int:
    now = now_iso()
    row: dict = {"recording_id": rid, "action": action, "annotator": annotator, "created_at": now, "updated_at": now}
    if match is not None:
        row.update(match_concept=match.concept, match_speaker=match.speaker, match_start_s=match.start_s,
                   match_end_s=match.end_s)
    if new is not None:
        row.update({k: getattr(new, k) for k in FINDING_FIELDS}, segment_ids=json.dumps(list(new.segment_ids)),
                   rejected=int(new.rejected))
    return _insert(db, "finding_edits", row)


def update_edit(db: LibraryDB, edit_id: int, changes: dict) -> None:
    cols = {k: v for k, v in changes.items() if k in (*FINDING_FIELDS, "rejected")}
    if "rejected" in cols:
        cols["rejected"] = int(bool(cols["rejected"]))
    sets = ", ".join(f"{k} = ?" for k in cols)
    db.db.conn.execute(f"UPDATE finding_edits SET {sets}, updated_at = ? WHERE id = ?",
                       [*cols.values(), now_iso(), edit_id])


def delete_edit(db: LibraryDB, rid: int, edit_id: int) -> dict:
    """Remove one annotator's row and return it whole (to put it back with ``insert_edit_row``)."""
    rows = list(db.db.query("SELECT * FROM finding_edits WHERE id = ? AND recording_id = ?", [edit_id, rid]))
    if not rows:
        raise LookupError(f"no finding correction {edit_id} in this recording")
    db.db.conn.execute("DELETE FROM finding_edits WHERE id = ?", [edit_id])
    return dict(rows[0])


def insert_edit_row(db: LibraryDB, row: dict) -> int:
    """Put a removed row back as it was, with its id (later undo steps refer to it)."""
    return _insert(db, "finding_edits", dict(row))
