"""Whether a symptom has ended or is improving: "has the diarrhoea stopped?", "is her cough getting better?".

Why: such a question asks about the course of a symptom, not its presence. Read as "is there diarrhoea?" it was
answered Yes from "I've still got the runs" -- the opposite of what was said. The answer is read from the latest
statement of the symptom in the question's scope (a section such as the follow-up call, a window): words that it is
over ("it's gone", "cleared up", "not since Tuesday") or better ("easing off", "improving") against words that it
goes on ("still", "no better", "worse"). With no statement of its course, the answer says it is still reported.
"""

from __future__ import annotations

import re

from harp_desktop.agent.answerers import speech
from harp_desktop.agent.answerers.context import AnswerContext, Result
from harp_desktop.agent.chain import span

# The course asked about, and of what: "has the diarrhoea stopped?", "is Dorothy's cough getting any better?"
ENDED_ASK = re.compile(r"\b(stopped|cleared( up)?|settled( down)?|resolved|gone away|gone now|went away|eased( off)?|"
                       r"calmed down|finished|over)\s*\??\s*$|\b(stopped|cleared up|gone away|settled) (yet|now|by)\b"
                       r"|\b(stopped|finished) (being|having|getting|feeling)\b", re.I)
BETTER_ASK = re.compile(r"\b(getting|any|got|feeling|much) (better|worse)\b|\bimprov(ing|ed)\b|\bon the mend\b", re.I)

# What a statement says of the course.
GOES_ON = re.compile(r"\b(still|no better|not (any |getting |much )?better|worse|hasn'?t (stopped|gone|cleared|settled|"
                     r"improved)|not (stopped|gone|cleared|settled|improved)|keeps? (on|coming)|ongoing|persist\w*|"
                     r"same as (before|ever)|no change)\b", re.I)
ENDED = re.compile(r"\b(gone|stopped|cleared( up)?|settled|resolved|went away|over it|no longer|not any ?more|no more|"
                   r"not since|fine now|back to normal|recovered|(haven'?t|hasn'?t|have not|has not|not) (been|had|felt|got)"
                   r"( \w+){0,2} since)\b", re.I)
BETTER = re.compile(r"\b(better|improv\w*|easing|eased|settling|less|not as bad|on the mend|picking up)\b", re.I)


def asks(question: str) -> str | None:
    """"ended" / "better" when the question asks about a symptom's course, else None. ("Has his appetite gone?"
    asks whether it is lost: a state, not an end, so "gone" alone is not asked as an end.)"""
    if ENDED_ASK.search(question):
        return "ended"
    if BETTER_ASK.search(question):
        return "better"
    return None


def answer(ctx: AnswerContext) -> Result | None:
    """The course of the symptom the question names, or None when it names none or nothing states it."""
    which = asks(ctx.spec.question)
    concepts = speech.question_concepts(ctx) if which else []
    if not concepts:
        return None
    said = sorted((f for f in ctx.findings if f.concept in concepts and speech._in_scope(ctx, f)
                   and f.status in ("affirmed", "historical", "uncertain")), key=lambda f: f.start_s)
    # The course is the patient's side's to tell (a clinician's summary names the symptom, not how it goes); a
    # statement of its course counts wherever it is said (a relative in the waiting room: "cough's no better").
    told = speech.by_reporter(ctx, [f for f in said if f.role != "clinician"] or said, lambda f: f.speaker)
    coursed = [f for f in told if COURSE_WORDS.search(speech.own_clause(f))]
    turn = _course_turn(ctx, concepts)
    last_f = coursed[-1] if coursed else None
    if turn is not None and (last_f is None or turn["start_s"] > last_f.start_s):
        text, ev, concept, status = turn["text"], ctx.evidence(turn, "keyword"), concepts[0], "affirmed"
        claim = {"kind": "answer_words", "terms": [m.group(0).lower() for m in COURSE_WORDS.finditer(text)]}
    elif last_f is not None or told:
        f = last_f or told[-1]  # (a statement that says nothing of its course: it is still there, as far as said)
        text, ev, concept, status = speech.own_clause(f), speech._ev(ctx, f), f.concept, f.status
        claim = {"kind": "finding", "concepts": [concept]}
    else:
        return None
    quote = f"\"{ev.text.strip()[:120]}\" {span(ev)}"
    # A "still" beside an ending ("the cramps are easing off, but I've still got the runs"): it goes on.
    goes_on = GOES_ON.search(text) is not None
    if which == "ended":
        ended = (status == "historical" or ENDED.search(text) is not None) and not goes_on
        first = "Yes" if ended else "No"
        how = "said to be over" if ended else "still reported"
    else:
        better = BETTER.search(text) is not None and not re.search(r"\b(no|not( any| getting| much)?) better\b|\bworse\b",
                                                                   text, re.I)
        first = "Yes" if better else "No"
        how = "said to be improving" if better else ("said to be no better" if goes_on else "not said to be improving")
    return Result(first, f"{first} — {concept} {how} {ctx.window_words()}, the latest statement of it: {quote}.",
                  [ev], claim)


COURSE_WORDS = re.compile(f"{GOES_ON.pattern}|{ENDED.pattern}|{BETTER.pattern}", re.I)


def _course_turn(ctx: AnswerContext, concepts: list[str]) -> dict | None:
    """The latest turn of the patient's side in scope that names the symptom and says how it goes, or None."""
    from harp_desktop.findings.extract import mentioned_concepts

    turns = [s for s in ctx.segments if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"])
             and ctx.roles.get(ctx.label_of(s) or "") != "clinician" and COURSE_WORDS.search(s["text"])
             and set(concepts) & set(mentioned_concepts(s["text"]))]
    return max(speech.by_reporter(ctx, turns, ctx.label_of), key=lambda s: s["start_s"], default=None)
