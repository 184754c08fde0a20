import pytest

from harp_desktop.retrieval.fusion import fuse, merge
from harp_desktop.types import Evidence


def ev(seg, start, **scores):
    return Evidence(start, start + 2, seg, "SPEAKER_1", f"seg {seg}", [], scores)


TABLE = [
    ev(1, 10, keyword=1.0),  # flat keyword hit
    ev(2, 20, keyword=1.0),
    ev(3, 30, keyword=1.0),
    ev(4, 40, text_emb=0.80),
    ev(4, 40, keyword=0.9),  # same segment from two tools: deduped, both scores kept
    ev(5, 50, text_emb=0.79),
    ev(6, 60, time=1.0),
]


def test_merge_dedupes_and_keeps_best_per_tool():
    merged = merge([ev(1, 10, keyword=0.2), ev(1, 10, keyword=0.7, text_emb=0.5)])
    assert len(merged) == 1 and merged[0].scores == {"keyword": 0.7, "text_emb": 0.5}


def test_harp_sum_top3_sorted_by_time():
    out = fuse(TABLE, "harp", k=3)
    assert [e.segment_id for e in out] == [1, 2, 4]  # 4 (1.7) first, then the flat 1.0s by time
    assert [e.start_s for e in out] == sorted(e.start_s for e in out)


def test_rrf_rewards_agreement_between_tools():
    out = fuse(TABLE, "rrf", k=1)
    assert out[0].segment_id == 4


def test_calibrated_normalises_per_tool():
    out = fuse(TABLE, "calibrated", k=2)
    assert 4 in [e.segment_id for e in out]


def test_time_is_a_filter_not_a_score():
    only_time = [ev(7, 70, time=1.0), ev(6, 60, time=1.0)]
    assert [e.segment_id for e in fuse(only_time, "harp", k=None)] == [6, 7]
    assert 6 not in [e.segment_id for e in fuse(TABLE, "harp", k=5)]


def test_adaptive_k_returns_everything():
    many = [Evidence(t, t + 0.5, None, None, "", [], {"label": 0.9}) for t in range(0, 100, 10)]
    assert len(fuse(many, "rrf", k=None)) == 10
    assert len(fuse(many, "rrf", k=3)) == 3


def test_unknown_method():
    with pytest.raises(ValueError, match="unknown fusion"):
        fuse(TABLE, "magic")
