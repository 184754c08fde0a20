import json

import pytest

from harp_desktop.evaluate.queries import QueriesFormatError
from tests.conftest import copy_library


@pytest.fixture
def lib(indexed, tmp_path):
    """A private copy of the shared indexed library: these tests write questions into it."""
    shared, res = indexed
    shared.db.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with copy_library(shared.folder, tmp_path / "lib") as lib:
        yield lib, res


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _rows(name):
    return [
        {"query_id": "t-1", "recording": name, "query_type": "reported_symptom", "query": "Chest pain?",
         "answer": "Yes", "answer_kind": "yesno", "evidence": [[5.26, 8.47], [0.5, 4.66]], "time_ref": None,
         "cue_audio": None, "notes": ""},
        {"query_id": "t-2", "recording": name, "query_type": "negative", "query": "Vomiting?", "answer": "No",
         "answer_kind": "yesno", "evidence": [], "time_ref": None, "cue_audio": None, "notes": "",
         "source": "hand-made"},
    ]


def test_import_export_round_trip_through_the_library(lib, long_clip, tmp_path):
    lib, res = lib
    src = _write(tmp_path / "set.jsonl", _rows(long_clip.name))
    ids = lib.import_questions(src, long_clip.parent)
    assert len(ids) == 2 and [q["query_id"] for q in lib.questions(res.sha256)] == ["t-1", "t-2"]
    assert lib.truth_spans(ids[0]) == [(5.26, 8.47), (0.5, 4.66)]
    assert lib.spans(ids[0])[0]["annotator"] == "reference"
    out = tmp_path / "out.jsonl"
    assert lib.export_questions(out, res.sha256) == 2
    assert out.read_text(encoding="utf-8") == src.read_text(encoding="utf-8")


def test_reimport_replaces_own_spans_and_keeps_other_annotators(lib, long_clip, tmp_path):
    lib, res = lib
    rows = _rows(long_clip.name)
    (qid, _) = lib.import_questions(_write(tmp_path / "a.jsonl", rows), long_clip.parent)
    lib.add_span(qid, 1.0, 3.0, "alice")
    rows[0]["evidence"] = [[0.4, 4.7]]
    rows[0]["answer"] = "No"
    assert lib.import_questions(_write(tmp_path / "b.jsonl", rows), long_clip.parent)[0] == qid
    assert lib.truth_spans(qid) == [(0.4, 4.7)] and lib.truth_spans(qid, "alice") == [(1.0, 3.0)]
    assert lib.db.question(qid)["answer"] == "No" and len(lib.questions(res.sha256)) == 2


def test_bad_import_writes_nothing(lib, long_clip, tmp_path):
    lib, res = lib
    good = json.dumps(_rows(long_clip.name)[0])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good + "\n" + good.replace('"t-1"', '"t-3"').replace("[[5.26", "[[6.26") + "\n{oops\n")
    with pytest.raises(QueriesFormatError, match="line 3"):
        lib.import_questions(bad, long_clip.parent)
    unknown = _write(tmp_path / "unknown.jsonl", [{**_rows(long_clip.name)[0], "recording": "nowhere.flac"}])
    with pytest.raises(LookupError, match="nowhere.flac"):
        lib.import_questions(unknown, long_clip.parent)
    assert lib.questions(res.sha256) == []
    assert lib.db.db.conn.execute("SELECT COUNT(*) FROM annotations").fetchone()[0] == 0


def test_agreement_between_two_annotators(lib):
    lib, res = lib
    qid = lib.add_question(res.sha256, "When is the first cough?", answer="00:10", answer_kind="time")
    lib.add_span(qid, 9.0, 11.0, "alice")
    lib.add_span(qid, 20.0, 21.0, "alice")
    lib.add_span(qid, 10.0, 12.0, "bob")
    got = lib.agreement(qid)
    assert got["annotator_a"] == "alice" and got["annotator_b"] == "bob"
    assert got["span_f1"] == pytest.approx(2 * 1.0 * 0.5 / 1.5, abs=1e-4)
    assert lib.truth_spans(qid) == [(9.0, 11.0), (20.0, 21.0)]  # the first annotator is the reference
    lonely = lib.add_question(res.sha256, "Anything?")
    lib.add_span(lonely, 1.0, 2.0, "alice")
    with pytest.raises(LookupError, match="two annotators"):
        lib.agreement(lonely)


def test_bad_question_fields_are_refused(lib):
    lib, res = lib
    with pytest.raises(ValueError, match="answer kind"):
        lib.add_question(res.sha256, "Q?", answer_kind="essay")
    qid = lib.add_question(res.sha256, "Q?")
    with pytest.raises(ValueError, match="answer kind"):
        lib.update_question(qid, answer_kind="poem")
    with pytest.raises(LookupError):
        lib.add_span(qid + 99, 1.0, 2.0, "alice")


def test_failure_midway_rolls_the_whole_import_back(lib, long_clip, tmp_path, monkeypatch):
    lib, res = lib
    calls = []
    real = lib.db.add_annotation

    def flaky(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise OSError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(lib.db, "add_annotation", flaky)
    with pytest.raises(OSError):
        lib.import_questions(_write(tmp_path / "set.jsonl", _rows(long_clip.name)), long_clip.parent)
    assert lib.questions(res.sha256) == []
    assert lib.db.db.conn.execute("SELECT COUNT(*) FROM annotations").fetchone()[0] == 0


def test_annotation_exports_from_the_library(lib, tmp_path):
    from pympi.Elan import Eaf

    lib, res = lib
    qid = lib.add_question(res.sha256, "Chest pain?", query_id="c-1", answer="Yes", answer_kind="yesno")
    lib.add_span(qid, 5.26, 8.47, "alice", "reply")
    lib.add_span(qid, 5.0, 8.0, "bob")
    eaf = lib.export_annotations(res.sha256, "eaf", tmp_path / "a.eaf")
    assert sorted(Eaf(str(eaf)).get_annotation_data_for_tier("alice")) == [(5260, 8470, "c-1: reply")]
    labels = lib.export_annotations(res.sha256, "audacity", tmp_path / "a.txt").read_text().splitlines()
    assert labels == ["5.000000\t8.000000\tc-1 [bob]", "5.260000\t8.470000\tc-1: reply [alice]"]
    assert "IntervalTier" in lib.export_annotations(res.sha256, "textgrid", tmp_path / "a.TextGrid").read_text()
    rows = [json.loads(x) for x in lib.export_annotations(res.sha256, "jsonl", tmp_path / "a.jsonl").read_text()
            .splitlines()]
    assert rows[0]["evidence"] == [[5.26, 8.47]] and rows[0]["recording"] == res.path.split("/")[-1]


def test_exports_are_in_the_audit_trail_and_bad_targets_refused(lib, tmp_path):
    from harp_desktop.export.audit import ExportError

    lib, res = lib
    qid = lib.add_question(res.sha256, "Q?")
    lib.add_span(qid, 1.0, 2.0, "alice")
    out = lib.export_annotations(res.sha256, "textgrid", tmp_path / "a.TextGrid")
    rows = lib.db.exports(lib.recording(res.sha256)["id"])
    assert rows[0]["kind"] == "annotations-textgrid" and rows[0]["path"] == str(out)
    with pytest.raises(ExportError, match="does not exist"):
        lib.export_annotations(res.sha256, "eaf", tmp_path / "nowhere" / "a.eaf")
    with pytest.raises(ValueError, match="unknown annotation format"):
        lib.export_annotations(res.sha256, "srt", tmp_path / "a.srt")
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["a.TextGrid"]
