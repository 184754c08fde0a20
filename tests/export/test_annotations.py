"""Each export parsed back the way its tool reads it: Praat TextGrids with praatio, ELAN
EAF with pympi-ling (and the EAF 3.0 schema's element order), Audacity labels as TSV."""

import xml.etree.ElementTree as ET

import pytest

from harp_desktop.export.annotations import Span, audacity, eaf, textgrid, tiers, write

SPANS = [
    Span("alice", "q-1", 10.0, 12.5, "chest pain"),
    Span("alice", "q-2", 11.0, 13.0),  # overlaps the first: goes to an overflow tier
    Span("alice", "q-2", 30.25, 31.0, 'says "no"'),
    Span("bob", "q-1", 10.5, 12.0),
]


def test_tiers_never_overlap():
    got = tiers(SPANS)
    assert list(got) == ["alice", "alice 2", "bob"]
    for items in got.values():
        assert all(a.end_s <= b.start_s for a, b in zip(items, items[1:], strict=False))
    assert list(tiers(SPANS, "question")) == ["q-1 (alice)", "q-2 (alice)", "q-1 (bob)"]
    with pytest.raises(ValueError):
        tiers(SPANS, "colour")


def test_audacity_labels(tmp_path):
    path = write("audacity", tmp_path / "labels.txt", SPANS, 60.0)
    rows = [line.split("\t") for line in path.read_text().splitlines()]
    assert len(rows) == 4 and all(len(r) == 3 for r in rows)
    assert [(float(a), float(b)) for a, b, _ in rows] == sorted((s.start_s, s.end_s) for s in SPANS)
    assert rows[0][2] == "q-1: chest pain [alice]"
    assert audacity([]) == ""


def test_textgrid_parses_with_praatio(tmp_path):
    from praatio import textgrid as ptg

    path = write("textgrid", tmp_path / "spans.TextGrid", SPANS, 60.0)
    tg = ptg.openTextgrid(str(path), includeEmptyIntervals=False)
    assert tg.tierNames == ("alice", "alice 2", "bob") and tg.maxTimestamp == 60.0
    alice = [(e.start, e.end, e.label) for e in tg.getTier("alice").entries]
    assert alice == [(10.0, 12.5, "q-1: chest pain"), (30.25, 31.0, 'q-2: says "no"')]
    assert [(e.start, e.end) for e in tg.getTier("alice 2").entries] == [(11.0, 13.0)]
    full = ptg.openTextgrid(str(path), includeEmptyIntervals=True)
    entries = full.getTier("bob").entries  # gaps are empty intervals covering 0..60 s
    assert entries[0].start == 0.0 and entries[-1].end == 60.0
    assert all(a.end == b.start for a, b in zip(entries, entries[1:], strict=False))


def test_textgrid_without_spans_is_still_valid(tmp_path):
    from praatio import textgrid as ptg

    path = tmp_path / "empty.TextGrid"
    path.write_text(textgrid([], 5.0))
    assert ptg.openTextgrid(str(path), includeEmptyIntervals=True).maxTimestamp == 5.0


def test_eaf_parses_with_pympi(tmp_path):
    from pympi.Elan import Eaf

    media = tmp_path / "rec.flac"
    path = write("eaf", tmp_path / "spans.eaf", SPANS, 60.0, media)
    doc = Eaf(str(path))
    assert set(doc.get_tier_names()) == {"alice", "alice 2", "bob"}
    assert doc.get_parameters_for_tier("bob")["ANNOTATOR"] == "bob"
    assert sorted(doc.get_annotation_data_for_tier("alice")) == [(10000, 12500, "q-1: chest pain"),
                                                                  (30250, 31000, 'q-2: says "no"')]
    assert doc.media_descriptors[0]["RELATIVE_MEDIA_URL"] == "./rec.flac"
    by_q = Eaf(str(write("eaf", tmp_path / "q.eaf", SPANS, 60.0, None, by="question")))
    assert "q-1 (bob)" in by_q.get_tier_names()


def test_eaf_follows_the_schema_order(tmp_path):
    root = ET.fromstring(eaf(SPANS, None))
    order = ["HEADER", "TIME_ORDER", "TIER", "LINGUISTIC_TYPE", "CONSTRAINT"]
    tags = [el.tag for el in root]
    assert tags == sorted(tags, key=order.index) and root.get("FORMAT") == "3.0"
    slots = {ts.get("TIME_SLOT_ID") for ts in root.iter("TIME_SLOT")}
    refs = {a.get(k) for a in root.iter("ALIGNABLE_ANNOTATION") for k in ("TIME_SLOT_REF1", "TIME_SLOT_REF2")}
    assert refs == slots
    ids = [a.get("ANNOTATION_ID") for a in root.iter("ALIGNABLE_ANNOTATION")]
    assert len(ids) == len(set(ids)) == 4


def test_unknown_format_and_no_partial_file(tmp_path):
    with pytest.raises(ValueError, match="unknown annotation format"):
        write("srt", tmp_path / "x.srt", SPANS, 60.0)
    assert list(tmp_path.iterdir()) == []
