"""Inter-annotator agreement on evidence spans for one question.

Span-overlap F1 (the headline): a span of one annotator counts as matched when any span
of the other overlaps it; precision = B's matched spans / B's spans, recall = A's
matched spans / A's spans. Time F1 (secondary) does the same with seconds: the
overlapping duration of the two unions over each union's duration. Two annotators who
both mark nothing agree fully (1.0, a negative question); one empty side scores 0.0.
"""

from __future__ import annotations

Span = tuple[float, float]


def _overlaps(a: Span, spans: list[Span]) -> bool:
    return any(s < a[1] and e > a[0] for s, e in spans)


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def span_f1(a: list[Span], b: list[Span]) -> float:
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    recall = sum(_overlaps(s, b) for s in a) / len(a)
    precision = sum(_overlaps(s, a) for s in b) / len(b)
    return _f1(precision, recall)


def _union(spans: list[Span]) -> list[Span]:
    out: list[list[float]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def time_f1(a: list[Span], b: list[Span]) -> float:
    if not a and not b:
        return 1.0
    ua, ub = _union(a), _union(b)
    da, db = sum(e - s for s, e in ua), sum(e - s for s, e in ub)
    both = sum(max(0.0, min(e1, e2) - max(s1, s2)) for s1, e1 in ua for s2, e2 in ub)
    if da == 0 or db == 0:
        return 0.0
    return _f1(both / db, both / da)


def agreement(a: list[Span], b: list[Span]) -> dict:
    return {"span_f1": round(span_f1(a, b), 4), "time_f1": round(time_f1(a, b), 4), "n_a": len(a), "n_b": len(b)}
