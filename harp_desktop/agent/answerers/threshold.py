"""Whether a reading is past a threshold: "are his sats below 92%?", "was her temperature over 38?", "is the
blood pressure higher than 140?".

The words of the threshold are often said too -- as the rule for when to act ("if his sats drop below 92, call
the registrar") -- so a turn that says them is not the reading. The answer is the measurement's value as read out
(the latest in scope), compared with the number asked.
"""

from __future__ import annotations

import re

from harp_desktop.agent.answerers.context import AnswerContext, Result
from harp_desktop.agent.chain import span

COMPARATOR = re.compile(r"\b(below|under|less than|lower than|beneath|(?:above|over|more than|higher than|greater than|"
                        r"in excess of|exceed\w*|at least))\s+(\d+(?:\.\d+)?)\b", re.I)
BELOW = frozenset({"below", "under", "less than", "lower than", "beneath"})  # the other comparators are "above"
# The measurements whose reading a question can put a threshold on, with the words a turn reads them by.
MEASURES = {
    "oxygen saturation": re.compile(r"\b(oxygen|saturation|saturations|sats|sat|spo2)\b", re.I),
    "temperature": re.compile(r"\b(temperature|temp)\b", re.I),
    "blood pressure": re.compile(r"\b(blood pressure|bp)\b", re.I),
    "pulse": re.compile(r"\b(pulse|heart rate)\b", re.I),
    "respiratory rate": re.compile(r"\b(respiratory rate|resp rate|breathing rate|breathing)\b", re.I),
    "peak flow": re.compile(r"\bpeak flow\b", re.I),
    "blood sugar": re.compile(r"\b(blood sugars?|glucose|sugars?)\b", re.I),
    "weight": re.compile(r"\b(weight|weighs|weighed)\b", re.I),
}
# The values a reading of each can take: a number outside them near the word is something else ("off the oxygen by
# tomorrow... for 3 more days").
PLAUSIBLE = {"oxygen saturation": (60, 100), "temperature": (33, 43), "blood pressure": (50, 260), "pulse": (25, 230),
             "respiratory rate": (5, 70), "peak flow": (50, 900), "blood sugar": (1, 40), "weight": (2, 300)}
NUMBER = re.compile(r"\b\d{1,3}(?:\.\d+)?\b")
READING_REACH = 40  # characters after the measurement's word in which its value is read


def asks(question: str) -> bool:
    """A yes/no question putting a threshold on a named measurement."""
    return COMPARATOR.search(question) is not None and _measure(question) is not None


def _measure(text: str) -> str | None:
    hits = [(m.start(), name) for name, pat in MEASURES.items() for m in [pat.search(text)] if m]
    return min(hits)[1] if hits else None


def _reading(text: str, measure: str) -> tuple[float, str] | None:
    """The value read for ``measure`` in ``text`` (the first number soon after its word that is not itself a
    threshold), with the sentence that reads it."""
    for sent in re.split(r"(?<=[.!?])\s+", text):
        for m in MEASURES[measure].finditer(sent):
            tail = sent[m.end():m.end() + READING_REACH]
            for n in NUMBER.finditer(tail):
                before = tail[:n.start()]
                if COMPARATOR.search(before + n.group(0)) or re.search(r"\b(if|drop\w*|goes|go|falls?|rises?|aim\w*|target\w*|"
                                                                        r"between|keep\w*|goal|range|should)\b", before, re.I):
                    break  # "if his sats drop below 92", "aiming for between 92 and 96": a rule or a target, not his reading
                lo, hi = PLAUSIBLE[measure]
                if lo <= float(n.group(0)) <= hi:
                    return float(n.group(0)), sent
    return None


def answer(ctx: AnswerContext) -> Result | None:
    """Yes or No by the reading compared with the threshold; None when the measurement is never read out."""
    q = ctx.spec.question
    m = COMPARATOR.search(q)
    measure = _measure(q)
    if m is None or measure is None:
        return None
    limit, below = float(m.group(2)), m.group(1).lower() in BELOW
    unrelated = [(a, b) for kind, a, b in ctx.sections if kind == "unrelated"] if ctx.spec.section is None else []
    read = []
    for s in sorted(ctx.segments, key=lambda s: s["start_s"]):
        if not s["text"].strip() or not ctx.in_window(s["start_s"], s["end_s"]):
            continue
        if any(a <= (s["start_s"] + s["end_s"]) / 2 <= b for a, b in unrelated):
            continue  # another patient's observations in the bay are not his
        got = _reading(s["text"], measure)
        if got is not None:
            read.append((got, s))
    if not read:
        return None
    (value, sent), seg = read[-1]  # the latest reading: "are his sats below 92?" asks how they are now
    past = value < limit if below else value > limit
    e = ctx.evidence(seg, "keyword")
    verdict = "Yes" if past else "No"
    side = "below" if below else "above"
    return Result(verdict, f"{verdict} — the {measure} read out {span(e)} is {value:g} (\"{sent.strip()[:120]}\"), "
                  f"{'' if past else 'not '}{side} {limit:g}.", [e], {"kind": "speech", "terms": []})
