"""Scores for one answered question against annotated truth: evidence HitRate,
answer correctness by answer kind, and citation validity."""

from __future__ import annotations

import re

from harp_desktop.retrieval.localize import parse_clock

TIME_TOLERANCE_S = 2.0
_NUMBER_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_NUMBER_WORDS.update({"fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50, "hundred": 100})


def hit_rate(truth_spans: list[tuple[float, float]], evidence: list[tuple[float, float]]) -> float | None:
    """Share of truth spans overlapped by any retrieved evidence span (None: no truth spans)."""
    if not truth_spans:
        return None
    hit = sum(1 for a, b in truth_spans if any(s < b and e > a for s, e in evidence))
    return hit / len(truth_spans)


def _tokens(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+(?:\.[0-9]+)?", text.lower())
    return [str(_NUMBER_WORDS[w]) if w in _NUMBER_WORDS else w for w in words]


def answer_correct(kind: str, truth: str, answer: str, rationale: str = "") -> bool:
    first = answer.strip().splitlines()[0] if answer.strip() else ""
    low = first.lower()
    if kind == "yesno":
        return low.startswith(truth.lower())
    if kind == "time":
        want = parse_clock(truth)
        got = re.search(r"\d{1,2}:\d{2}(?::\d{2})?", first)
        return want is not None and got is not None and abs((parse_clock(got.group(0)) or -99) - want) <= TIME_TOLERANCE_S
    if kind == "count":
        got = re.search(r"\d+", first)
        n = int(got.group(0)) if got else next((v for w, v in _NUMBER_WORDS.items() if w in _tokens(first)), None)
        return n is not None and n == int(truth)
    if kind == "label":
        return truth.lower() in _tokens(first) or truth.lower() in low
    # free text: most of the truth's content words appear in the answer (or its rationale)
    stop = {"the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "about", "at", "with", "her", "his", "she"}
    want = [t for t in _tokens(truth) if t not in stop]
    have = set(_tokens(first + " " + rationale))
    return bool(want) and sum(t in have for t in want) / len(want) >= 0.5


def citation_validity(citations: list[tuple[float, float]], evidence: list[tuple[float, float]]) -> float | None:
    if not citations:
        return None
    ok = sum(1 for a, b in citations if any(a >= s - 1.0 and b <= e + 1.0 for s, e in evidence))
    return ok / len(citations)
