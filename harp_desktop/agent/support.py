"""Citations that carry the claim: each cited moment must hold what the answer says of it.

``verify.check`` already refuses citations outside the retrieved evidence; this goes
further: a cough claim's citation must overlap a cough event, an emotion claim's the
speech classified with that emotion, a claim about words the words themselves. A citation
that does not carry its claim is dropped and the answer is marked unsupported when none is
left (a "No fever" answer citing a grandson's cold is caught here).
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from harp_desktop.agent import lexicon as lx
from harp_desktop.types import Evidence

TERM_MATCH = 85  # rapidfuzz partial ratio for a claimed word in a cited line (ASR misspellings pass)


def _overlaps(e: Evidence, a: float, b: float, slack: float = 0.3) -> bool:
    return e.start_s - slack < b and a < e.end_s + slack


def _has_terms(text: str, terms: list[str]) -> bool:
    low = text.lower()
    have = set(lx.stems(low))  # "examination" is carried by "let me examine you"
    return any(len(t) > 2 and (t in low or lx.stem(t) in have or (len(t) >= 5 and fuzz.partial_ratio(t, low) >= TERM_MATCH))
               for t in terms)


def names_concepts(text: str, concepts: list[str]) -> bool:
    """The text names one of the concepts in any of the vocabulary's words ("never smoker" names smoking)."""
    if not concepts:
        return False
    from harp_desktop.findings.extract import mentioned_concepts

    return bool(set(mentioned_concepts(text)) & set(concepts))


def carries(e: Evidence, claim: dict, tags: list[dict], emotion_of: dict[int, str]) -> bool:
    kind = claim.get("kind")
    if kind == "event":
        return any(t["kind"] == "event" and t["label"] == claim.get("label") and _overlaps(e, t["start_s"], t["end_s"])
                   for t in tags)
    if kind == "emotion":
        label = claim.get("label")
        if label is None:  # dimensions and "what emotion": the cited speech must have been classified
            return e.segment_id in emotion_of or any(t["kind"] == "emotion" and _overlaps(e, t["start_s"], t["end_s"])
                                                     for t in tags)
        labels = set(lx.EMOTIONAL) if label == "emotional" else {label}  # "emotional": any emotion but neutral / calm
        return emotion_of.get(e.segment_id) in labels or any(
            t["kind"] == "emotion" and t["label"] in labels and _overlaps(e, t["start_s"], t["end_s"]) for t in tags)
    if kind == "voice":
        return e.scores.get("speaker", 0.0) > 0.0
    if kind == "turn":  # "when does her husband first speak?": a spoken turn of one of the subject's voices
        who = claim.get("speakers")
        return bool(e.text.strip()) and (not who or getattr(e, "speaker_label", None) in who)
    if kind == "finding":
        return bool(e.text.strip()) or any(t["kind"] == "event" and _overlaps(e, t["start_s"], t["end_s"]) for t in tags)
    if kind == "speech":
        if claim.get("quote"):
            return fuzz.partial_ratio(claim["quote"].lower(), e.text.lower()) >= 80
        terms = claim.get("terms") or []
        return not terms or _has_terms(e.text, terms) or names_concepts(e.text, claim.get("concepts") or [])
    if kind == "window":  # "what happens between X and Y": what is cited must lie in the window
        return any(_overlaps(e, a, b, 0.0) for a, b in claim.get("spans") or [])
    if kind == "answer_words":  # free text from the model: the cited line must share a content word with the answer
        words = claim.get("terms") or []
        return not words or _has_terms(e.text, words)
    return True


def check(cited: list[Evidence], claim: dict, tags: list[dict], emotion_of: dict[int, str]
          ) -> tuple[list[Evidence], list[Evidence]]:
    """(kept, dropped)."""
    kept, dropped = [], []
    for e in cited:
        (kept if carries(e, claim, tags, emotion_of) else dropped).append(e)
    return kept, dropped


def answer_words(question: str, first: str, quote_text: str = "") -> list[str]:
    """Content words a free-text answer rests on: the question's topic and the answer's own words."""
    words = lx.content_terms(question) + lx.content_terms(first)
    return [w for w in dict.fromkeys(words) if not re.fullmatch(r"\d+", w)]
