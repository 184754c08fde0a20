"""Importing span files onto a recording (evaluate/span_import.py): the round trip of our own
EAF / TextGrid / Audacity exports, label-set tiers of foreign files, replace-on-reimport,
undo / redo, and the one-line refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from harp_desktop.api import Library
from harp_desktop.evaluate import span_import
from harp_desktop.export.span_import import SpanImportError
from tests.export.test_span_import import make_eaf, make_textgrid

SHA = "ab" * 32


@pytest.fixture
def lib(tmp_path):
    lib = Library(tmp_path / "library")
    with lib.db.transaction():
        lib.db.add_recording(SHA, Path("/recordings/consult.flac"),
                             {"duration_s": 120.0, "format": "FLAC", "sample_rate": 16000, "channels": 1})
    yield lib
    lib.close()


def spans(lib) -> set[tuple]:
    return {(q["query_id"], r["annotator"], r["start_s"], r["end_s"], r["label"])
            for q in lib.questions(SHA) for r in lib.spans(q["id"])}


def annotate(lib) -> set[tuple]:
    q1 = lib.add_question(SHA, "Does the patient cough?")
    q2 = lib.add_question(SHA, "Chest pain?", query_id="pain-1")
    lib.add_span(q1, 10.0, 12.5, "alice", "wet cough")
    lib.add_span(q2, 11.0, 13.25, "alice")  # overlaps alice's first: an overflow tier in EAF / TextGrid
    lib.add_span(q2, 30.125, 31.0, "alice", "douleur thoracique \u2013 \u80f8\u75db")
    lib.add_span(q1, 10.5, 12.0, "bob", "cough")
    lib.add_span(q1, 100.0, 101.5, "reference")
    return spans(lib)


@pytest.mark.parametrize("fmt, by", [("eaf", "annotator"), ("eaf", "question"), ("textgrid", "annotator"),
                                     ("textgrid", "question"), ("audacity", "annotator")])
def test_round_trip_import_what_we_export(lib, tmp_path, fmt, by):
    before = annotate(lib)
    out = lib.export_annotations(SHA, fmt, tmp_path / f"spans.{fmt}", by)
    with lib.db.transaction():
        lib.db.db.conn.execute("DELETE FROM annotations")
    plan, done = lib.import_spans(SHA, out)
    assert plan.new_questions == [] and spans(lib) == before
    assert len(done.added) == len(before)
    plan, _ = lib.import_spans(SHA, out)  # again: replaces, never duplicates
    assert plan.replaced == len(before) and spans(lib) == before


def test_foreign_eaf_tiers_become_label_sets(lib, tmp_path):
    path = make_eaf(tmp_path / "carol.eaf", {"cough": [(1000, 1500, "wet"), (1200, 1800, "")],
                                             "breath": [(2000, 3000, "\u5438\u6c14")]}, annotator="carol")
    plan = lib.plan_span_import(SHA, path)
    assert plan.new_questions == ["cough", "breath"] and plan.tiers() == {"cough": 2, "breath": 1}
    assert "3 span(s) in 2 tier(s) from carol.eaf onto consult.flac" in plan.summary()
    assert any("overlap" in w for w in plan.warnings)
    assert spans(lib) == set()  # planning changes nothing
    _, done = lib.import_spans(SHA, path)
    assert spans(lib) == {("cough", "carol", 1.0, 1.5, "wet"), ("cough", "carol", 1.2, 1.8, None),
                          ("breath", "carol", 2.0, 3.0, "\u5438\u6c14")}
    q = {q["query_id"]: q for q in lib.questions(SHA)}
    assert q["cough"]["query"] == "Spans of tier 'cough' imported from carol.eaf"

    span_import.undo(lib, done)
    assert spans(lib) == set() and lib.questions(SHA) == []
    span_import.redo(lib, done)
    assert len(spans(lib)) == 3 and [q["id"] for q in lib.questions(SHA)] == [r["id"] for r in done.questions]


def test_tier_option_annotator_option_and_audacity_name(lib, tmp_path):
    tg = make_textgrid(tmp_path / "praat.TextGrid", {"events": [(1.0, 2.0, "cough")], "words": [(3.0, 4.0, "hi")]})
    lib.import_spans(SHA, tg, tier="events", annotator="dora")
    assert spans(lib) == {("events", "dora", 1.0, 2.0, "cough")}
    labels = tmp_path / "aud.txt"
    labels.write_text("5\t6\twheeze [erin]\n")
    lib.import_spans(SHA, labels, tier="wheezes")
    assert ("wheezes", "reference", 5.0, 6.0, "wheeze [erin]") in spans(lib)  # [erin] is ours only for our ids
    with pytest.raises(SpanImportError, match="no tier 'nope'"):
        lib.import_spans(SHA, tg, tier="nope")


def test_refusals_change_nothing(lib, tmp_path):
    annotate(lib)
    before = spans(lib)
    late = tmp_path / "late.txt"
    late.write_text("1\t2\tok\n119\t125\ttoo late\n")
    with pytest.raises(SpanImportError, match=r"ends after 'consult\.flac' \(120\.00 s long\)"):
        lib.import_spans(SHA, late)
    bad = tmp_path / "bad.eaf"
    bad.write_text("{not xml}")
    with pytest.raises(SpanImportError, match="not an ELAN file"):
        lib.import_spans(SHA, bad)
    only_points = tmp_path / "points.txt"
    only_points.write_text("3\t3\tclick\n")
    with pytest.raises(SpanImportError, match="no spans to import"):
        lib.import_spans(SHA, only_points)
    with pytest.raises(LookupError):
        lib.import_spans("ffffff", late)
    assert spans(lib) == before
