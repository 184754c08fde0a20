"""History questions that name no condition: "FHx?", "any family history?", "PMH?", "any ongoing
medical problems?", "what conditions does she have?".

Why: such a question asks for a section of the history, not for a word; the transcript never says
"family history" or "past medical history" (it says "our mother did, she broke her hip"), so a
search for the question's words answers No. The findings' assertion status already says which
statements belong there: ``family`` for a relative's illness; the patient's own conditions, now
or in the past (``affirmed`` / ``historical``), said by the patient or by a companion answering
for them, for the medical history. A question that names a condition ("family history of heart
disease?") is the exists answerer's (its concept decides).
"""

from __future__ import annotations

import re

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers import speech
from harp_desktop.agent.answerers.context import AnswerContext, Result
from harp_desktop.agent.chain import span

MEDICAL = re.compile(r"\b(past medical history|medical history|past history|medical (problems?|conditions?|issues?)|"
                     r"health (problems?|conditions?|issues?)|(long[- ]term|chronic|ongoing|other|existing|underlying|"
                     r"background) (conditions?|illness(es)?|problems?|medical \w+|health \w+)|what conditions|"
                     r"any conditions)\b", re.I)


def asks(question: str) -> str | None:
    """"family" / "medical" when the question asks for that part of the history, else None."""
    if speech.FAMILY_ASK.search(question):
        return "family"
    if MEDICINES.search(question) and not ALLERGY_WORD.search(question):
        return "medication"
    if SOCIAL.search(question):
        return "social"
    return "medical" if MEDICAL.search(question) else None


# "Is she on any regular meds?", "does he take any medication?", "any regular medicines?": the drug history.
MEDICINES = re.compile(r"\b(on|taking|take|takes|using|uses|prescribed)\b(?:\s+[\w']+){0,3}?\s+(any|regular|other|usual|"
                       r"daily|repeat)\b(?:\s+[\w']+){0,2}?\s+(medications?|medicines?|meds|tablets|pills|drugs|"
                       r"prescriptions?|treatments?)\b|^\s*(any )?(regular |repeat |current |usual )?(medications?|medicines?|"
                       r"meds|tablets|pills)\b|\bdrug history\b|\bdhx\b|\bregular (medications?|medicines?|meds)\b"
                       # "is he taking anything over the counter for the pain?", "does she buy anything for it?"
                       r"|\b(taking|take|takes|using|buy|buys|buying|bought|tried|trying)\s+anything\b", re.I)
# "SH?", "social history?", "any lifestyle factors?": smoking, alcohol, work, exercise -- said either way.
SOCIAL = re.compile(r"\bsocial (history|circumstances|situation)\b|\blifestyle\b", re.I)
LIFESTYLE = frozenset({"smoking", "alcohol", "occupation", "exercise", "caffeine intake", "travel"})
ALLERGY_WORD = re.compile(r"\ballerg\w*|\breact\w*", re.I)


def _belongs(f, part: str) -> bool:
    if part == "family":
        return f.status == "family" and f.kind in ("symptom", "diagnosis")
    if part == "social":  # a non-smoker or a teetotaller is social history too
        return f.concept in LIFESTYLE and f.status in ("affirmed", "historical", "negated") and \
            f.role in ("patient", "other", None)  # (the clinician's "stop smoking service" is a plan)
    if part == "medication":
        # what the patient's side says they take (a clinician's "I'll start amoxicillin" is a plan, not their drugs)
        return f.kind == "medication" and f.status == "affirmed" and f.role in ("patient", "other", None)
    if f.status not in ("affirmed", "historical") or f.role not in ("patient", "other", None) and not _theirs(f):
        return False
    # A lay name for a condition is often its measurement: "my blood pressure", "my sugar" (no value said); a height
    # or a pulse mentioned without a value is no condition.
    return f.kind == "diagnosis" or (f.kind == "vital" and not f.value and f.concept in LAY_CONDITIONS)


def _theirs(f) -> bool:
    """A clinician naming a condition as the patient's ("it can make your heart failure worse"): one they already
    have, not a diagnosis made now ("I think this is diabetic neuropathy")."""
    return f.role == "clinician" and f.kind == "diagnosis" and re.search(
        rf"\b(your|her|his|their)\s+(?:\w+\s+)?{re.escape(f.concept.split()[0])}", f.text or "", re.I) is not None


LAY_CONDITIONS = frozenset({"blood pressure", "blood glucose", "body weight"})


def answer(ctx: AnswerContext) -> Result | None:
    spec = ctx.spec
    part = asks(spec.question)
    if part is None or spec.target != "speech" or spec.operation not in ("exists", "what_said", "describe"):
        return None
    if speech.question_concepts(ctx):
        return None
    if part == "medication" and spec.operation != "exists":
        return None  # "which meds is she on?": the listing and the turn that answers (a drug ASR misspelt is in it)
    seen: dict[str, object] = {}
    for f in sorted(ctx.findings, key=lambda f: f.start_s):
        if ctx.in_window(f.start_s, f.end_s) and _belongs(f, part):
            seen.setdefault(f.concept, f)
    if part == "medication" and speech.BOUGHT.search(spec.question):
        # "anything over the counter?": what they buy, not what is prescribed (when it is said which is which)
        bought = {k: f for k, f in seen.items() if speech._bought(ctx, f)}
        seen = bought or seen
    what = {"family": "family history", "medication": "medication", "social": "social history"}.get(
        part, "past medical history")
    yesno = spec.operation == "exists"
    if not seen:
        if not yesno:
            return None  # the turn that answers is found by its words
        return Result("No", f"No — not mentioned: no {what} is stated {ctx.window_words()}.", [], {"kind": "speech"}, True)
    pool = list(seen.values())[:6]
    cited = list({(e.start_s, e.end_s): e for e in (speech._ev(ctx, f) for f in pool)}.values())  # one turn, cited once

    def item(f) -> str:
        # the relative named in the finding's own clause ("I got a cold myself" beside "our mother did" is nobody's)
        name = None
        if part == "family":
            clause = speech.own_clause(f)
            rel = lx.RELATION.search(clause)
            named = {m.group(1).lower() for m in lx.RELATION.finditer(f.text)}
            # the question's clause names none ("anyone in the family with X?"): the one relative the reply names
            name = rel.group(1).lower() if rel else (next(iter(named)) if len(named) == 1
                                                       and not speech.FIRST_PERSON.search(clause) else None)
        when = {"historical": " (in the past)", "negated": " (none)"}.get(f.status, "")
        dose = f" {f.value}" if part in ("medication", "social") and f.value else ""
        return f.concept + dose + (f" ({name})" if name else "") + when

    items = "; ".join(item(f) for f in pool)
    said = "; ".join(f"\"{e.text.strip()[:140]}\" {span(e)}" for e in cited[:4])
    first = f"Yes — {items}" if yesno else items
    return Result(first[:160], f"The {what} stated {ctx.window_words()}: {said}.", cited,
                  {"kind": "finding", "concepts": [f.concept for f in pool]})
