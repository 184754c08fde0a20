"""Windows anchored on something the recording itself locates.

"When is the first cough after the examination starts?", "once the consultation is over, when
does she speak?", "before the doctor listens to his chest, ...", "after the doctor mentions the
ECG, ...": the window's edge is a moment found in the index (a section's edge, the first
examination act, the first sound of a kind, the first turn that says something), not a clock
time. An anchor phrase that resolves to none of these is ignored (and the answer says so), so a
"before" that is not a window ("did he smoke before quitting?") changes nothing.
"""

from __future__ import annotations

import re
from typing import Any

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers import words  # the lexical helpers (not the said answerer: no import cycle)
from harp_desktop.retrieval.localize import format_clock

AnswerContext = Any  # the context resolves anchors, so this module cannot import it

AFTER = ("after", "once", "following")  # the others ("before", "until", "till", "by the time") end the window
# "while the doctor and patient are talking": the consultation itself
DIALOGUE = re.compile(r"\b(doctor|gp|clinician|nurse|patient)\b.{0,40}\b(talk\w*|speak\w*|chat\w*|discuss\w*|consult\w*|with)\b",
                      re.I)
WHILE_S = 20.0  # an act a turn asks for ("take big breaths for me") goes on this long after the turn
EXAM_MAX_S = 240.0  # an examination's findings come within this of its first act


def _section_edge(ctx: AnswerContext, relation: str, phrase: str) -> tuple[float, str] | None:
    for kind in ("consultation", "phone_call"):
        if not lx.SECTION_WORDS[kind].search(phrase.lower()):
            continue
        spans = [(a, b) for k, a, b in ctx.sections if k == kind]
        if not spans:
            return None
        start = bool(lx.ANCHOR_START.search(phrase)) or (relation not in AFTER and not lx.ANCHOR_END.search(phrase))
        t = spans[0][0] if start else spans[-1][1]
        return t, f"the {kind.replace('_', ' ')} {'starts' if start else 'ends'}"
    return None


EXAM_VERBS = {"examin", "exam", "listen", "check", "count", "feel", "felt", "take", "took", "measur", "look", "doctor",
              "nurse", "start", "begin", "gp", "have"}


def _exam_act(ctx: AnswerContext, phrase: str) -> tuple[tuple[float, float], str] | None:
    """"After the doctor counts her pulse": the turn that does that act (its own words, the pulse);
    "after the examination starts": the first act of the examination."""
    own = [w for w in re.findall(r"[a-z]+", phrase.lower()) if not any(lx.stem(w).startswith(v) for v in EXAM_VERBS)]
    key = words.rarest(ctx, " ".join(own)) if own else []
    if key:
        lo, hi = ctx.consultation_span or (0.0, float("inf"))
        turns = [s for s in ctx.segments if lo <= s["start_s"] <= hi and words.carries(s["text"], key)
                 and lx.EXAM_ACT.search(s["text"] or "") and ctx.roles.get(ctx.label_of(s) or "") != "patient"]
        if turns:
            return (turns[0]["start_s"], turns[0]["end_s"]), f"'{phrase}'"
    return _exam_start(ctx)


def _exam_start(ctx: AnswerContext) -> tuple[tuple[float, float], str] | None:
    lo, hi = ctx.consultation_span or (0.0, float("inf"))
    times = [(f.start_s, f.end_s) for f in ctx.findings if f.kind == "examination" and lo <= f.start_s <= hi]
    times += [(s["start_s"], s["end_s"]) for s in ctx.segments if lo <= s["start_s"] <= hi
              and lx.EXAM_ACT.search(s["text"] or "") and ctx.roles.get(ctx.label_of(s) or "") != "patient"]
    return (min(times), "the examination starts") if times else None


def _first_event(ctx: AnswerContext, phrase: str) -> tuple[float, str] | None:
    label = next((k for k, p in lx.EVENTS.items() if p.search(phrase.lower())), None)
    if label is None:
        return None
    found = ctx.tools.label(label, 0.0, float(ctx.rec["duration_s"]), "event")
    return (min(e.start_s for e in found), f"the first {label.replace('_', ' ')}") if found else None


def _first_mention(ctx: AnswerContext, phrase: str) -> tuple[tuple[float, float], str] | None:
    m = lx.MENTION_ACT.search(phrase)
    if m is None:
        return None
    key = words.rarest(ctx, m.group(2))
    if not key:
        return None
    turns = [s for s in ctx.segments if s["text"].strip() and words.carries(s["text"], key)]
    return ((turns[0]["start_s"], turns[0]["end_s"]), f"'{m.group(2).strip()}' is first said") if turns else None


# The act's own verbs and particles place nothing: "hands back", "fills in", "gives her".
ACT_WORDS = set(lx.stems("hand hands handed handing back give gives gave given giving pass passes passed take takes took "
                         "taken get gets got put puts fill fills filled finish finishes finished done come comes came "
                         "go goes went start starts started begin begins began make makes made over down up out off"))
DETERMINED = re.compile(r"\b(the|her|his|their|your|my|a|an|this|that)\s+((?:\w+\s+)?\w+)", re.I)
PEOPLE = re.compile(r"\b(receptionist|assistant|registrar|midwife|paramedic|interpreter|caller|carer|neighbour|friend|"
                    r"visitor|child|boy|girl|baby|man|woman|lady|gentleman|person|people)s?\b", re.I)  # who acts, not on what
STATE = re.compile(r"\b(has|have|had|having|got|is|are|was|were|be|been|being|feels?|felt)\b|'s got", re.I)
OBJECT_MAX_TURNS = 3  # a thing named in an act ("hands back the questionnaire") bounds a window only if this rare


def _a_person(noun_phrase: str) -> bool:
    return any(p.search(noun_phrase) for p in (lx.PATIENT, lx.CLINICIAN, lx.RELATIVE, PEOPLE))


def _object_named(ctx: AnswerContext, phrase: str) -> tuple[tuple[float, float], str] | None:
    """"After she hands back the questionnaire": an act nobody names aloud, placed by where its object is
    talked about -- the first of the few turns that name it; a word many turns carry places nothing."""
    # Only a thing the act is done to ("the questionnaire", "her inhaler"): "before quitting" is the story's own
    # time, not a moment of the recording.
    if STATE.search(phrase):
        return None  # "while he's got a cold": how things are, not an act at a moment
    first = DETERMINED.match(phrase.strip())
    if first and not _a_person(first.group(0)):
        return None  # "after a cold", "before his operation": a thing of the story, nobody acting in the room
    objects = " ".join(m.group(2) for m in DETERMINED.finditer(phrase) if not _a_person(m.group(0)))
    things = [t for t in words.respell(ctx, words.focus_terms(objects)) if t not in ACT_WORDS and len(t) > 3]
    df = {t: n for t, n in words.doc_freq(ctx, things).items() if 0 < n <= OBJECT_MAX_TURNS}
    if not df:
        return None
    key = [min(df, key=lambda t: df[t])]
    turns = [s for s in ctx.segments if s["text"].strip() and words.carries(s["text"], key)]
    if not turns:
        return None
    s = turns[0]
    return (s["start_s"], s["end_s"]), f"'{phrase}' (where '{key[0]}' is said)"


def resolve(ctx: AnswerContext) -> tuple[float, float, str] | None:
    """The (start, end) the anchor phrase bounds, and words for it; None when it names nothing found."""
    rel = ctx.spec.relative
    if rel is None:
        return None
    relation, phrase = rel
    named = [(k, a, b) for k, a, b in ctx.sections if lx.SECTION_WORDS.get(k) and lx.SECTION_WORDS[k].search(phrase.lower())]
    if relation == "by the time" and ctx.spec.operation == "exists" and named:
        # "By the time the GP rings back, is he still feverish?": how things are from then on, not before.
        k, a = named[0][0], named[0][1]
        return a, float(ctx.rec["duration_s"]), f"by the time of the {k.replace('_', ' ')} ({format_clock(a)})"
    if relation == "while" and ctx.consultation_span and DIALOGUE.search(phrase):
        a, b = ctx.consultation_span  # "while the doctor and patient are talking": the consultation
        return a, b, f"while the consultation runs ({format_clock(a)}-{format_clock(b)})"
    found = (_section_edge(ctx, relation, phrase) or (_exam_act(ctx, phrase) if lx.EXAM_ACT.search(phrase) else None)
             or _first_mention(ctx, phrase) or _first_event(ctx, phrase) or _object_named(ctx, phrase))
    if found is None:
        ctx.notes.append(f"'{relation} {phrase}' names nothing found in the recording; not used as a window")
        return None
    t, what = found
    # A turn that does the act (or says the words) bounds the window by its start, and "after" it begins
    # when that turn ends: the turn that announces the pulse count is not what comes after it.
    t0, t1 = t if isinstance(t, tuple) else (t, t)
    dur = float(ctx.rec["duration_s"])
    if relation == "while":
        # "she coughs while he's getting her to take big breaths": during the act the turn asks for, which
        # goes on after the turn that asks (WHILE_S), or the whole section the phrase names.
        a, b = (named[0][1], named[-1][2]) if named else (t0, t1 + WHILE_S)
        if not named and "examination" in what:
            # the examination as a whole: on to the last finding it yields (within EXAM_MAX_S of its start)
            ends = [f.end_s for f in ctx.findings if f.kind in ("examination", "vital") and t0 <= f.start_s <= t0 + EXAM_MAX_S]
            b = max([b, *[e + 5.0 for e in ends]])
        return a, b, f"while {what} ({format_clock(a)}-{format_clock(b)})"
    if relation in AFTER:
        start = t0 if "starts" in what else t1
        return start, dur, f"after {what} ({format_clock(t0)})"
    return 0.0, t0, f"before {what} ({format_clock(t0)})"
