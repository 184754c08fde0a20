"""Tiers of spans (evaluate/tiers.py): grouping with sub-rows for overlaps, and the agreement
line for the visible tiers, equal to Library.agreement's figure."""

from __future__ import annotations

import pytest

from harp_desktop.evaluate import tiers
from harp_desktop.evaluate.agreement import agreement


def row(i, q, who, a, b, label=None):
    return {"id": i, "query_id": q, "annotator": who, "start_s": a, "end_s": b, "label": label}


ROWS = [row(1, "q-1", "bob", 1, 2), row(2, "q-1", "alice", 1.5, 2.5), row(3, "q-2", "alice", 2, 3),
        row(4, "q-1", "reference", 0.9, 2.1), row(5, "q-2", "bob", 8, 9), row(6, "q-1", "alice", 5, 6)]


def test_group_by_annotator_reference_first_and_overlaps_in_sub_rows():
    g = tiers.group(ROWS, "annotator")
    assert list(g) == ["reference", "bob", "alice"]
    assert [[r["id"] for r in lane] for lane in g["alice"]] == [[2, 6], [3]]
    assert list(tiers.group(ROWS, "question")) == ["q-1", "q-2"]
    with pytest.raises(ValueError):
        tiers.group(ROWS, "colour")


def test_agreement_lines_match_the_library_figure():
    lines = tiers.agreement_lines(ROWS, "annotator", ["bob", "alice"])
    a1 = agreement([(1, 2)], [(1.5, 2.5), (5, 6)])
    a2 = agreement([(8, 9)], [(2, 3)])
    mean = (a1["span_f1"] + a2["span_f1"]) / 2
    assert lines == [f"bob vs alice: span F1 {mean:.2f}, time F1 {(a1['time_f1'] + a2['time_f1']) / 2:.2f} "
                     "(mean of 2 questions)"]
    assert tiers.agreement_lines(ROWS, "annotator", ["alice"]) == []
    assert tiers.agreement_lines(ROWS, "annotator", ["reference", "alice"])[0].endswith("(q-1)")
    by_q = tiers.agreement_lines(ROWS, "question", ["q-1"])
    ref = agreement([(0.9, 2.1)], [(1, 2)])
    assert by_q == [f"q-1: reference vs bob span F1 {ref['span_f1']:.2f}, time F1 {ref['time_f1']:.2f}"]
