import pytest

from harp_desktop.evaluate.agreement import agreement, span_f1, time_f1


def test_identical_and_disjoint():
    a = [(1.0, 2.0), (5.0, 6.0)]
    assert span_f1(a, a) == 1.0 and time_f1(a, a) == 1.0
    assert span_f1(a, [(3.0, 4.0)]) == 0.0 and time_f1(a, [(3.0, 4.0)]) == 0.0


def test_partial_overlap():
    a = [(0.0, 10.0), (20.0, 30.0)]
    b = [(5.0, 15.0)]
    # recall: 1 of A's 2 spans matched; precision: B's 1 span matched
    assert span_f1(a, b) == pytest.approx(2 * 1.0 * 0.5 / 1.5)
    # 5 s shared; A marks 20 s, B 10 s -> P 0.5, R 0.25
    assert time_f1(a, b) == pytest.approx(2 * 0.5 * 0.25 / 0.75)


def test_negatives_with_no_spans():
    assert span_f1([], []) == 1.0 and time_f1([], []) == 1.0  # both say: no evidence
    assert span_f1([(1.0, 2.0)], []) == 0.0 and time_f1([], [(1.0, 2.0)]) == 0.0


def test_overlapping_spans_of_one_annotator_are_not_double_counted_in_time():
    a = [(0.0, 10.0), (5.0, 10.0)]
    assert time_f1(a, [(0.0, 10.0)]) == 1.0
    assert agreement(a, [(0.0, 10.0)]) == {"span_f1": 1.0, "time_f1": 1.0, "n_a": 2, "n_b": 1}
