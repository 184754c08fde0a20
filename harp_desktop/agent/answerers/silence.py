"""Silences: "when does the long silence in the consultation start?", "how long is the pause while she
fills in the questionnaire?", "is there a gap where nobody speaks?", "how many long pauses are there?".

A silence is a stretch with no spoken turn (coughs, breathing and room noise may sound in it): the
gaps between the recording's turns in the question's windows. "A silence" without a length is one of
at least LONG_S (a pause in conversation is a second or two; a pulse counted, a form filled in, an
examination in silence last tens of seconds); "the long silence" is the longest; a length the
question states ("longer than 30 seconds") is used as the minimum.
"""

from __future__ import annotations

import re

from harp_desktop.agent.answerers.context import AnswerContext, Result
from harp_desktop.agent.chain import span
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

ASKS_SILENCE = re.compile(r"\b(silences?|silent (spell|period|stretch|gap|patch)s?|(goes|go|went|fall|falls|fell) silent|pauses?|quiet (spell|period|stretch|moment|patch)s?|lull|"
                          r"(gap|break)s? in the (talk|talking|conversation|speech)|"
                          r"(nobody|no one|no-one) (speaks|talks|is talking|is speaking|says anything)|no speech)\b", re.I)
LONGEST = re.compile(r"\b(long|longest|longer|big|biggest|extended|lengthy)\b", re.I)
AT_LEAST = re.compile(r"\b(?:longer than|more than|over|at least|of)\s+(\d+)\s*(s|sec|secs|seconds?|min|mins|minutes?)\b",
                      re.I)
LONG_S = 8.0  # a silence worth a question; a conversational pause is shorter
HOW_LONG = re.compile(r"\bhow long\b|\bduration\b|\bfor how many seconds\b", re.I)


def asks(question: str, operation: str | None = None) -> bool:
    """The question is about a silence itself: when, how long, how many, whether (not "what was her pulse
    after the silent count", which only dates something else by it)."""
    if not ASKS_SILENCE.search(question):
        return False
    return operation in (None, "when_first", "when_all", "count", "exists") or bool(HOW_LONG.search(question))


def gaps(ctx: AnswerContext) -> list[tuple[float, float]]:
    """Stretches with no spoken turn inside the question's windows, in time order."""
    out = []
    for a, b in ctx.windows:
        turns = sorted((s["start_s"], s["end_s"]) for s in ctx.segments
                       if s["text"].strip() and s["end_s"] > a and s["start_s"] < b)
        t = a
        for s0, s1 in turns:
            if s0 > t:
                out.append((t, s0))
            t = max(t, s1)
        if b > t and turns:  # the end of a window after its last turn (not an empty window's whole span)
            out.append((t, b))
    return out


def answer(ctx: AnswerContext) -> Result:
    spec = ctx.spec
    q = spec.question
    m = AT_LEAST.search(q)
    least = float(m.group(1)) * (60.0 if m.group(2).lower().startswith("m") else 1.0) if m else LONG_S
    found = [(a, b) for a, b in gaps(ctx) if b - a >= least]
    claim = {"kind": "window", "spans": found}
    if not found:
        first = "0" if spec.operation == "count" else "No" if spec.operation == "exists" else "Not found"
        return Result(first, f"{'No — ' if first == 'No' else ''}no silence of {least:.0f} s or more "
                      f"{ctx.window_words()}.", [], claim, True)
    longest = max(found, key=lambda g: g[1] - g[0])
    cited = [_ev(g) for g in found]
    listing = "; ".join(f"{span(e)} ({e.end_s - e.start_s:.0f} s)" for e in cited[:8])
    if spec.operation == "count":
        return Result(str(len(found)), f"{len(found)} silence(s) of {least:.0f} s or more {ctx.window_words()}: "
                      f"{listing}.", cited, claim)
    if spec.operation == "exists":
        return Result("Yes", f"Yes — {len(found)} silence(s) of {least:.0f} s or more {ctx.window_words()}: "
                      f"{listing}.", cited, claim)
    pick = longest if LONGEST.search(q) or HOW_LONG.search(q) or len(found) == 1 else found[0]
    ev = _ev(pick)
    if HOW_LONG.search(q):
        return Result(f"{pick[1] - pick[0]:.0f} seconds", f"The {'longest ' if len(found) > 1 else ''}silence "
                      f"{ctx.window_words()} lasts {pick[1] - pick[0]:.0f} s, {span(ev)}.", [ev], claim)
    which = ("longest " if pick == longest else "first ") if len(found) > 1 else ""
    return Result(format_clock(pick[0]), f"The {which}silence {ctx.window_words()} starts at {format_clock(pick[0])} "
                  f"and lasts {pick[1] - pick[0]:.0f} s {span(ev)}; nobody speaks until {format_clock(pick[1])}.",
                  [ev], claim)


def _ev(g: tuple[float, float]) -> Evidence:
    return Evidence(round(g[0], 3), round(g[1], 3), None, None, "(silence: no speech)", [], {"silence": 1.0})
