import sqlite3

import pytest

from harp_desktop.store.db import LibraryDB


@pytest.fixture
def db(tmp_path):
    d = LibraryDB(tmp_path / "lib")
    rid = d.db["recordings"].insert({"sha256": "ab" * 32, "path": "/x/a.flac", "name": "a.flac",
                                     "added_at": "now", "duration_s": 60.0}).last_pk
    yield d, rid
    d.close()


def test_question_edits_return_what_undo_needs(db):
    d, rid = db
    qid = d.add_question(rid, {"query": "Does she cough?", "answer_kind": "yesno"})
    q = d.question(qid)
    assert q["query_id"] == "q-001" and q["recording_ref"] == "a.flac" and q["extra"] == {}
    assert d.add_question(rid, {"query": "Second?"}) and d.question(qid + 1)["query_id"] == "q-002"
    old = d.update_question(qid, {"answer": "Yes", "query_type": "exhibited_symptom"})
    assert old == {"answer": None, "query_type": None}
    d.update_question(qid, old)
    assert d.question(qid)["answer"] is None
    with pytest.raises(ValueError, match="already exists"):
        d.add_question(rid, {"query": "dup", "query_id": "q-001"})
    with pytest.raises(ValueError, match="empty"):
        d.update_question(qid, {"query": "  "})
    with pytest.raises(ValueError, match="unknown"):
        d.update_question(qid, {"recording_id": 5})


def test_spans_add_resize_delete_restore(db):
    d, rid = db
    qid = d.add_question(rid, {"query": "Q?"})
    a = d.add_annotation(qid, "alice", 12.0, 10.0, "cough")  # given backwards: stored in order
    assert (d.annotation(a)["start_s"], d.annotation(a)["end_s"]) == (10.0, 12.0)
    b = d.add_annotation(qid, "bob", 1.0, 2.0)
    d.add_annotation(qid, "alice", 20.0, 21.0)
    assert d.annotators(qid) == ["alice", "bob"]
    old = d.update_annotation(a, {"end_s": 15.0})
    assert old == {"end_s": 12.0} and d.annotation(a)["end_s"] == 15.0
    with pytest.raises(ValueError, match="bad span"):
        d.update_annotation(a, {"start_s": 16.0})
    row = d.delete_annotation(b)
    assert [r["annotator"] for r in d.annotations(qid)] == ["alice", "alice"]
    d.restore_annotation(row)
    assert d.annotation(b) == row
    with pytest.raises(ValueError, match="annotator"):
        d.add_annotation(qid, " ", 1, 2)
    with pytest.raises(ValueError, match="before 0"):
        d.add_annotation(qid, "alice", -1, 2)
    with pytest.raises(sqlite3.IntegrityError):  # the schema refuses a backwards span too
        d.db.conn.execute("UPDATE annotations SET start_s = 99 WHERE id = ?", [a])


def test_delete_question_cascades_and_restores(db):
    d, rid = db
    qid = d.add_question(rid, {"query": "Q?", "extra": {"k": [1, 2]}})
    d.add_annotation(qid, "alice", 1, 2)
    q, spans = d.delete_question(qid)
    assert d.questions(rid) == [] and d.db.conn.execute("SELECT COUNT(*) FROM annotations").fetchone()[0] == 0
    d.restore_question(q, spans)
    assert d.question(qid) == q and d.annotations(qid) == spans
