"""Merge the tools' outputs for one evidence set.

``harp``: HARP's rule — dedupe by segment, keep each tool's best score, rank by the
sum over tools, keep the top K, re-sort by time. Its known weakness: a flat 1.0 from
keyword or label swamps cosine scores.
``rrf``: reciprocal rank fusion — each tool contributes 1 / (c + rank), so only the
order inside a tool matters, not its score scale.
``calibrated``: per-tool min-max normalisation inside the evidence set, then a
weighted sum (weights favour tools whose scores mean more).
The ``time`` tool is a filter, never a score: it only contributes when nothing else
returned anything (then its segments are the evidence, in time order).
"""

from __future__ import annotations

from collections.abc import Iterable

from harp_desktop.types import Evidence

FUSIONS = ("harp", "rrf", "calibrated")
WEIGHTS = {"keyword": 1.0, "text_emb": 1.0, "label": 1.2, "audio_emb": 0.8, "speaker": 1.0}


def merge(items: Iterable[Evidence]) -> list[Evidence]:
    """Dedupe by segment (or span); each tool keeps its best score; labels are unioned."""
    merged: dict[tuple, Evidence] = {}
    for ev in items:
        cur = merged.get(ev.key)
        if cur is None:
            merged[ev.key] = Evidence(ev.start_s, ev.end_s, ev.segment_id, ev.speaker, ev.text, list(ev.labels),
                                      dict(ev.scores))
            continue
        for tool, s in ev.scores.items():
            cur.scores[tool] = max(cur.scores.get(tool, 0.0), s)
        cur.labels += [lab for lab in ev.labels if lab not in cur.labels]
        cur.start_s, cur.end_s = min(cur.start_s, ev.start_s), max(cur.end_s, ev.end_s)
    return list(merged.values())


def _scored(ev: Evidence) -> dict[str, float]:
    return {t: s for t, s in ev.scores.items() if t != "time"}


def fuse(items: Iterable[Evidence], method: str = "rrf", k: int | None = 3) -> list[Evidence]:
    """Ranked, de-duplicated evidence: top ``k`` (None = all) re-sorted by time."""
    if method not in FUSIONS:
        raise ValueError(f"unknown fusion '{method}'; choose one of {', '.join(FUSIONS)}")
    pool = merge(items)
    scored = [e for e in pool if _scored(e)]
    if not scored:  # only the time filter answered: its segments, in time order
        ranked = sorted(pool, key=lambda e: e.start_s)
        return ranked if k is None else ranked[:k]
    tools = sorted({t for e in scored for t in _scored(e)})
    total: dict[tuple, float] = {e.key: 0.0 for e in scored}
    for tool in tools:
        having = sorted((e for e in scored if tool in e.scores), key=lambda e: -e.scores[tool])
        if method == "harp":
            for e in having:
                total[e.key] += e.scores[tool]
        elif method == "rrf":
            for rank, e in enumerate(having):
                total[e.key] += WEIGHTS.get(tool, 1.0) / (60 + rank)
        else:
            hi, lo = having[0].scores[tool], having[-1].scores[tool]
            for e in having:
                norm = (e.scores[tool] - lo) / (hi - lo) if hi > lo else 1.0
                total[e.key] += WEIGHTS.get(tool, 1.0) * (0.5 + 0.5 * norm)
    ranked = sorted(scored, key=lambda e: (-total[e.key], e.start_s))
    for e in ranked:
        e.scores["fused"] = round(total[e.key], 4)
    top = ranked if k is None else ranked[:k]
    return sorted(top, key=lambda e: e.start_s)
