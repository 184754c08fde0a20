"""Parsing span files (export/span_import.py): EAF made with pympi-ling, TextGrids made with
praatio, hand-written Audacity labels; odd cases: overlapping intervals, empty labels,
non-ASCII labels, times past the recording's end, files that do not parse."""

from __future__ import annotations

import pytest

from harp_desktop.export.span_import import SpanImportError, check_fits, detect_format, read, select_tier

LABELS = ["toux s\u00e8che", "\u043a\u0430\u0448\u0435\u043b\u044c", "\u54b3\u55fd"]


def make_eaf(path, tiers: dict[str, list[tuple[int, int, str]]], annotator: str | None = None):
    from pympi.Elan import Eaf

    doc = Eaf(author="test")
    doc.remove_tier("default")
    for name, rows in tiers.items():
        doc.add_tier(name, part=None, ann=annotator)
        for a, b, text in rows:
            doc.add_annotation(name, a, b, text)
    doc.to_file(str(path))
    return path


def make_textgrid(path, tiers: dict[str, list[tuple[float, float, str]]], end: float = 60.0, points=None):
    from praatio import textgrid as ptg
    from praatio.data_classes.point_tier import PointTier

    tg = ptg.Textgrid()
    for name, rows in tiers.items():
        tg.addTier(ptg.IntervalTier(name, rows, 0.0, end))
    if points:
        tg.addTier(PointTier("beats", points, 0.0, end))
    tg.save(str(path), format="long_textgrid", includeBlankSpaces=True)
    return path


def test_eaf_from_pympi_with_odd_cases(tmp_path):
    path = make_eaf(tmp_path / "carol.eaf", {
        "cough": [(1000, 1500, "wet"), (1200, 1800, ""), (5000, 5250, LABELS[1])],  # overlap, empty, Cyrillic
        "breath": [(2000, 3000, LABELS[2])]}, annotator="carol")
    got = read(path)
    assert got.format == "eaf" and [t.name for t in got.tiers] == ["cough", "breath"]
    cough = got.tiers[0]
    assert cough.annotator == "carol"
    assert [(iv.start_s, iv.end_s, iv.text) for iv in cough.intervals] == [
        (1.0, 1.5, "wet"), (1.2, 1.8, ""), (5.0, 5.25, LABELS[1])]
    assert got.tiers[1].intervals[0].text == LABELS[2]
    assert any("overlap" in w for w in got.warnings)
    check_fits(got, 60.0)
    assert select_tier(got, "breath").tiers[0].name == "breath"
    with pytest.raises(SpanImportError, match="no tier 'wheeze'"):
        select_tier(read(path), "wheeze")


def test_textgrid_from_praatio_skips_gaps_and_point_tiers(tmp_path):
    path = make_textgrid(tmp_path / "praat.TextGrid", {
        "events": [(1.0, 2.0, LABELS[0]), (4.0, 4.5, "wheeze")], "words": [(0.5, 0.9, LABELS[2])]},
        points=[(3.0, "x")])
    got = read(path)
    assert got.format == "textgrid" and [t.name for t in got.tiers] == ["events", "words"]
    assert [(iv.start_s, iv.end_s, iv.text) for iv in got.tiers[0].intervals] == [(1.0, 2.0, LABELS[0]),
                                                                                   (4.0, 4.5, "wheeze")]
    assert any("point tier" in w for w in got.warnings)


def test_textgrid_utf16_and_overlapping_intervals(tmp_path):
    """Praat saves non-ASCII TextGrids as UTF-16; praatio's own reader refuses overlaps, ours keeps them."""
    text = "\n".join(['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", "xmax = 10",
                      "tiers? <exists>", "size = 1", "item []:", "    item [1]:", '        class = "IntervalTier"',
                      '        name = "t"', "        xmin = 0", "        xmax = 10", "        intervals: size = 2",
                      "        intervals [1]:", "            xmin = 1", "            xmax = 2", '            text = "a"',
                      "        intervals [2]:", "            xmin = 1.5", "            xmax = 4",
                      f'            text = "{LABELS[1]}"']) + "\n"  # hand-edited: intervals 1 and 2 overlap
    path = tmp_path / "overlap.TextGrid"
    path.write_bytes(text.encode("utf-16"))
    got = read(path)
    assert [(iv.start_s, iv.text) for iv in got.tiers[0].intervals][-2:] == [(1.0, "a"), (1.5, LABELS[1])]
    assert any("overlap" in w for w in got.warnings)


def test_audacity_hand_written(tmp_path):
    path = tmp_path / "labels.txt"
    path.write_text("1.000000\t2.500000\tcough\n"
                    "\\\t200.0\t4000.0\n"  # a spectral label's frequency line
                    "2.0\t3.0\t\n"  # empty label, overlapping the first
                    "7.5\t7.5\tpoint\n"  # a point label
                    "10 12 " + LABELS[2] + " [bob]\n"  # spaces instead of tabs
                    "\n", encoding="utf-8")
    got = read(path)
    assert got.format == "audacity" and got.tiers[0].name == "labels"
    assert [(iv.start_s, iv.end_s, iv.text) for iv in got.tiers[0].intervals] == [
        (1.0, 2.5, "cough"), (2.0, 3.0, ""), (10.0, 12.0, LABELS[2] + " [bob]")]
    assert any("point label" in w for w in got.warnings) and any("overlap" in w for w in got.warnings)
    assert select_tier(got, "mine").tiers[0].name == "mine"


def test_times_past_the_end(tmp_path):
    path = tmp_path / "late.txt"
    path.write_text("1\t2\tok\n55\t60.5\tclamped\n58\t70\ttoo late\n")
    with pytest.raises(SpanImportError, match=r"late\.txt: tier 'late' interval 3 \(58\.00-70\.00 s\) ends after"):
        check_fits(read(path), 60.0)
    path.write_text("1\t2\tok\n55\t60.5\tclamped\n")
    got = read(path)
    check_fits(got, 60.0)
    assert got.tiers[0].intervals[-1].end_s == 60.0


@pytest.mark.parametrize("name, content, match", [
    ("broken.eaf", b"this is not XML at all", r"broken\.eaf: not an ELAN file \(not XML"),
    ("cut.eaf", b"<?xml version='1.0'?><ANNOTATION_DOCUMENT><TIER", r"cut\.eaf: not an ELAN file"),
    ("x.TextGrid", b"hello", r"x\.TextGrid: not a Praat TextGrid"),
    ("x.TextGrid", b'File type = "ooTextFile"\nObject class = "TextGrid"\n\nxmin = 0\nxmax = ?\n',
     r"x\.TextGrid: not a Praat TextGrid"),
    ("l.txt", b"start end label\n", r"l\.txt line 1: 'start' is not a time"),
    ("l.txt", b"3\t1\tbackwards\n", r"l\.txt line 1: 3-1 s is not a span"),
    ("l.txt", "1\t2\tcaf\u00e9\n".encode("latin-1"), r"l\.txt: not UTF-8 text"),
    ("l.txt", b"", r"l\.txt: no labels in it"),
    ("l.txt", b"RIFF\x00\x00\x00\x00WAVE", r"l\.txt: a binary file"),
])
def test_files_that_do_not_parse_say_so_in_one_line(tmp_path, name, content, match):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(SpanImportError, match=match) as err:
        read(path)
    assert "\n" not in str(err.value)


def test_detect_format_and_missing_file(tmp_path):
    (tmp_path / "a.xml").write_text("<ANNOTATION_DOCUMENT/>")
    (tmp_path / "b.dat").write_text('File type = "ooTextFile"\n')
    (tmp_path / "c.lab").write_text("1\t2\tx\n")
    assert [detect_format(tmp_path / n) for n in ("a.xml", "b.dat", "c.lab")] == ["eaf", "textgrid", "audacity"]
    with pytest.raises(SpanImportError, match="no such file"):
        read(tmp_path / "missing.eaf")
