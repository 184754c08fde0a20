"""Who a voice is, said the way the people in the room would say it.

A "who" answer used to name a voice by its role only ("patient", "man in the consultation"),
while people ask and answer by relation and name: "the mother", "her husband, Mark", "the
receptionist, Marcus". The recording usually says both, in words that need no model:

* relation -- a companion introducing themself ("I'm Kerry, his mum", "I'm his wife"), the
  patient introducing them ("this is my husband"), or somebody addressing them by it
  ("Mummy, how long is it going to be?" -- the next voice is the mother);
* name -- ``names.voices_by_name`` (a voice introducing itself, addressed by name).

A parent answering for a child is stored with the patient's role (the findings are the
child's); named here, it is the patient's mother, not "the patient".
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.names import NAME, NOT_NAMES, THANKS_BEFORE

AnswerContext = Any  # the context asks this module who its voices are, so this module cannot import it

# Words for one parent or grandparent, to the one word a report (and a reader) uses for it: the lexicon's table of
# everyday words (lx.SAME_WORD), its parents and grandparents only, and "gran".
CANONICAL = {k: v for k, v in lx.SAME_WORD.items() if v in ("mother", "father", "grandmother", "grandfather")}
CANONICAL["gran"] = "grandmother"
# "I'm Kerry, his mum", "I'm his wife", "I am her daughter": the speaker says what they are to the patient
# (not "I'm worried about his wife": a preposition before the possessive names someone else).
_REL = lx.RELATIONS + "|mum|mom|mam|dad|grandad|granddad|grandpa|grandma|nan|nana|granny|gran"
SELF_INTRO = re.compile(rf"^\s*(?:i'm|i am)\b(?:[^.?!]{{0,30}}?[\s,])?(?<!about )(?<!for )(?<!with )(?<!to )(?<!of )"
                        rf"(?:his|her|their|the patient's) ({_REL})\s*(?:[.,!?]|$|and\b)", re.I)
# Addressed by a relation: "Mummy, how long...", "Thanks, Mum.", "Sit on mum's lap" is not an address.
ADDRESS = re.compile(r"(?:^|[.,!?]\s*|^(?:hello|hi|thanks|thank you|okay|ok|come on|look)\s+)"
                     r"(mum|mummy|mom|mommy|mam|dad|daddy|nan|nana|grandma|granny|grandad|grandpa)\s*(?=[,.!?]|$)", re.I)
INTRODUCES = re.compile(rf"\b(?:this is|it's|here's|i've brought|i brought|(?:came|come|i'm here|we're here) with) my "
                        rf"({_REL})\b", re.I)


# Staff addressed by what they are: "Nurse, that machine's beeping again" (the next voice answers), "thank you,
# doctor" (the voice just thanked).
TITLE_ADDRESS = re.compile(r"(?:^|[.,!?]\s*|^(?:hello|hi|thanks|thank you|excuse me|sorry|morning|good morning)\s*,?\s*)"
                           r"(nurse|sister|doctor|doc|porter|midwife)\s*(?=[,.!?]|$)", re.I)
TITLE_WORD = {"doc": "doctor", "sister": "nurse"}


def _addressed(ctx: AnswerContext, segs: list[dict], pattern: re.Pattern) -> list[tuple[str, str]]:
    """(voice, word) for each address ``pattern`` finds ("Mummy, ...", "Nurse, ..."): the voice addressed is the next
    one to answer, or the one just thanked ("thank you, doctor")."""
    out = []
    for i, s in enumerate(segs):
        for m in pattern.finditer(s["text"]):
            back = THANKS_BEFORE.search(s["text"][:m.end(1)] + ",") and m.start(1) > 0
            lab = _neighbour(ctx, segs, i, -1 if back else 1)
            if lab:
                out.append((lab, m.group(1).lower()))
    return out


def addressed_titles(ctx: AnswerContext) -> dict[str, str]:
    """Speaker label -> the staff title the other voices address it by (most votes), for voices addressed so."""
    segs = [s for s in ctx.segments if (s.get("text") or "").strip() and ctx.label_of(s)]
    votes: dict[str, Counter] = {}
    for lab, title in _addressed(ctx, segs, TITLE_ADDRESS):
        votes.setdefault(lab, Counter())[TITLE_WORD.get(title, title)] += 1
    return {lab: c.most_common(1)[0][0] for lab, c in votes.items()}


def canonical(word: str) -> str:
    """"mum" -> "mother"; a word with no other form is itself."""
    w = word.lower()
    return CANONICAL.get(w, w)


def relations(ctx: AnswerContext) -> dict[str, str]:
    """Speaker label -> what that voice is to the patient ("mother", "wife"), for voices that are
    not the clinician, from the most direct evidence the recording has."""
    segs = [s for s in ctx.segments if (s.get("text") or "").strip() and ctx.label_of(s)]
    eligible = {lab for lab in {ctx.label_of(s) for s in segs}
                if ctx.roles.get(lab or "") != "clinician" and (ctx.roles.get(lab or "") != "patient" or lab in ctx.proxies)}
    said: dict[str, Counter] = {}
    for s in segs:  # the voice itself says it: surest
        lab = ctx.label_of(s)
        if lab not in eligible:
            continue
        for sentence in re.split(r"(?<=[.?!])\s+", s["text"]):
            m = SELF_INTRO.search(sentence)
            if m:
                said.setdefault(lab, Counter())[canonical(m.group(1))] += 3
    for lab, word in _addressed(ctx, segs, ADDRESS):  # addressed by it: the next voice answers, or the one just thanked
        if lab in eligible:
            said.setdefault(lab, Counter())[canonical(word)] += 1
    out = {lab: c.most_common(1)[0][0] for lab, c in said.items()}
    for lab, rel in _on_the_phone(ctx, segs, eligible).items():
        out.setdefault(lab, rel)
    lo, hi = ctx.consultation_span or (0.0, float("inf"))
    intro = {canonical(m.group(1)) for s in segs if ctx.roles.get(ctx.label_of(s) or "") == "patient"
             and ctx.label_of(s) not in ctx.proxies and lo <= s["start_s"] < hi for m in [INTRODUCES.search(s["text"])] if m}
    companions = [lab for lab in eligible if lab not in out and any(ctx.label_of(s) == lab and lo <= s["start_s"] < hi
                                                                   for s in segs)]
    if len(intro) == 1 and len(companions) == 1:  # the patient introduces the one companion ("this is my husband")
        out[companions[0]] = intro.pop()
    return out


# On a call about the patient, the patient is the one not on the line: the clinician's "your father asked me to ring
# you" and the relative's own "is my dad alright?" name the patient from the relative's side, so the voice is the
# other end of that relation (a parent's child, a husband's wife).
_KIN_WORD = r"(dad|father|mum|mother|mam|mom|husband|wife|son|daughter)"
YOUR_KIN = re.compile(rf"\byour {_KIN_WORD}\b", re.I)
MY_KIN = re.compile(rf"\bmy {_KIN_WORD}\b", re.I)
INVERSE = {"father": "child", "mother": "child", "husband": "wife", "wife": "husband", "son": "parent",
           "daughter": "parent"}


def _on_the_phone(ctx: AnswerContext, segs: list[dict], eligible: set[str]) -> dict[str, str]:
    """Speaker label -> relation for the relative at the other end of a two-sided phone call, named from the patient:
    "your father" said to them by the other side, "my dad" said by them."""
    out: dict[str, str] = {}
    for kind, a, b in getattr(ctx, "sections", None) or []:  # (a context with no sections has no call)
        if kind != "phone_call":
            continue
        call = [s for s in segs if a <= (s["start_s"] + s["end_s"]) / 2 <= b]
        sides = Counter(ctx.label_of(s) for s in call)
        if len(sides) != 2:  # the two ends of the line, or nobody can say who is spoken to
            continue
        votes: dict[str, Counter] = {}
        for s in call:
            me = ctx.label_of(s)
            other = next(lab for lab in sides if lab != me)
            for pat, lab in ((YOUR_KIN, other), (MY_KIN, me)):
                for m in pat.finditer(s["text"]):
                    if lab in eligible:
                        votes.setdefault(lab, Counter())[INVERSE[canonical(m.group(1))]] += 1
        for lab, c in votes.items():
            rel = c.most_common(1)[0][0]
            desc = ctx.describe_voice(lab) or ""
            woman, man = " woman" in f" {desc}", " man" in f" {desc}"
            if rel == "child":
                rel = "daughter" if woman else "son" if man else "child"
            elif rel == "parent":
                rel = "mother" if woman else "father" if man else "parent"
            out.setdefault(lab, rel)
    return out


INTRODUCED_NAME = re.compile(INTRODUCES.pattern + r",?\s+([A-Z][a-z]{2,})\b", re.I)


def introduced_names(ctx: AnswerContext) -> dict[str, str]:
    """Lower-cased name -> voice for a companion the patient introduces by relation and name ("This is my daughter,
    Susan"): the one companion heard in the consultation, as ``relations`` finds them. The name itself is said by the
    patient, so the name votes (``names.voice_names``) rightly leave it out."""
    rel = relations(ctx)
    segs = [s for s in ctx.segments if (s.get("text") or "").strip() and ctx.label_of(s)]
    out: dict[str, str] = {}
    for s in segs:
        if ctx.roles.get(ctx.label_of(s) or "") != "patient" or ctx.label_of(s) in ctx.proxies:
            continue
        for m in INTRODUCED_NAME.finditer(s["text"]):
            name, kin = m.group(2), canonical(m.group(1))
            who = [lab for lab, r in rel.items() if r == kin]
            if len(who) == 1 and name[0].isupper() and name.lower() not in NOT_NAMES:
                out[name.lower()] = who[0]
    return out


def _neighbour(ctx: AnswerContext, segs: list[dict], i: int, step: int) -> str | None:
    """The nearest other voice before (step -1) or after (step 1) turn ``i``, within 15 s."""
    me, j = ctx.label_of(segs[i]), i + step
    while 0 <= j < len(segs) and abs(j - i) <= 3:
        gap = segs[j]["start_s"] - segs[i]["end_s"] if step > 0 else segs[i]["start_s"] - segs[j]["end_s"]
        if gap > 15:
            return None
        if ctx.label_of(segs[j]) != me:
            return ctx.label_of(segs[j])
        j += step
    return None


def person(ctx: AnswerContext, label: str | None, named: bool = True) -> str:
    """How to name the voice ``label`` in an answer: "the patient", "the doctor (clinician), Dr
    Pryce", "the patient's mother", "the receptionist, Marcus", "the man in the waiting room"."""
    if not label:
        return "an unidentified speaker"
    role = ctx.roles.get(label)
    rel = ctx.relations.get(label)
    name = ctx.voice_names.get(label)
    if rel:
        word = f"the patient's {rel}"
    elif role == "patient" and label in ctx.proxies:
        word = "the patient's companion (answering for the patient)"
    elif role == "patient":
        word = "the patient"
    elif role == "clinician":
        word = f"the {ctx.role_name(label)}"
        word = word if word != "the clinician" else "the doctor (clinician)"
    else:
        word = f"the {ctx.role_name(label)}"
    if named and name and name.lower() not in word.lower():
        word = f"{word}, {name}"
    return word



# Whose fact a sentence states when it names a relative: "His big sister, Ruby, had a sore throat last week",
# "My dad, his granddad, had lots of ear infections", "my dad has high blood pressure" (the patient speaking).
_KIN = _REL + ("|grandfather|grandmother|grandson|granddaughter|uncle|aunt|auntie|cousin|niece|nephew|stepdad|stepmum|"
               "stepfather|stepmother|fiance|fiancee|girlfriend|boyfriend|twin")
HOLDER = re.compile(rf"\b(my|his|her|their|our|the patient's)\s+(?:(?:big|little|older|younger|elder|eldest|youngest|baby|"
                    rf"twin|late|other)\s+)?({_KIN})\b(?:,?\s+(?-i:({NAME}))\b)?", re.I)
NAME_BEFORE = re.compile(rf"\b({NAME}),?\s+$")
# A companion's own relative, said as the patient's: the mother's dad is the child's grandfather.
COMPOSE = {("mother", "mother"): "grandmother", ("mother", "father"): "grandfather", ("father", "mother"): "grandmother",
           ("father", "father"): "grandfather", ("mother", "sister"): "aunt", ("father", "sister"): "aunt",
           ("mother", "brother"): "uncle", ("father", "brother"): "uncle", ("wife", "son"): "son",
           ("wife", "daughter"): "daughter", ("husband", "son"): "son", ("husband", "daughter"): "daughter"}


def _name_of(sentence: str, m: re.Match) -> str | None:
    after = m.group(3)
    before = NAME_BEFORE.search(sentence[:m.start()])
    for n in (after, before.group(1) if before else None):
        if n and n.lower() not in NOT_NAMES:
            return n
    return None


def holder(ctx: AnswerContext, label: str | None, text: str, stems: set[str]) -> str | None:
    """The patient's relative a turn says holds the fact it states ("the patient's sister, Ruby"), in the
    sentence that carries the fact (most of ``stems``); None when that sentence names no relative of theirs.

    "his/her X" is the patient's X from anyone but the patient; "my X" is the patient's from the patient, and
    from a companion is the companion's X, named from the patient when the two relations compose."""
    sents = [x for x in re.split(r"(?<=[.?!])\s+", text or "") if x.strip()]
    if not sents:
        return None
    sent = max(sents, key=lambda x: len(stems & set(lx.stems(x))))
    found = list(HOLDER.finditer(sent))
    if not found:
        return None
    own = ctx.roles.get(label or "") == "patient" and label not in ctx.proxies
    for m in found:
        poss = m.group(1).lower()
        if (poss in ("my", "our")) == own:
            name = _name_of(sent, m)
            return f"the patient's {canonical(m.group(2))}" + (f", {name}" if name else "")
    rel = ctx.relations.get(label or "")
    for m in found:
        if m.group(1).lower() in ("my", "our") and rel:
            kin = canonical(m.group(2))
            name = _name_of(sent, m)
            word = f"the patient's {COMPOSE[(rel, kin)]}" if (rel, kin) in COMPOSE else f"the patient's {rel}'s {kin}"
            return word + (f", {name}" if name else "")
    return None
