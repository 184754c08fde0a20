"""Which voice is the clinician, which the patient, and who is someone else.

Per recording, from the turns inside consultations: clinicians ask most of the questions,
examine ("take a deep breath", "let me listen to your chest"), explain and advise ("I think
this is", "I'll prescribe", "if it gets worse, come back"); patients answer ("No, ...",
"About a week"), describe symptoms in the first person ("I've had", "my chest") and ask
the patient's questions ("Should I...?", "Is it serious?"). Voices heard only outside
consultations (or clinical phone calls, see ``_callers``) are ``other``. A role set by hand wins
and is reported with confidence 1.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from harp_desktop.findings.model import ROLES, Section
from harp_desktop.findings.sections import in_sections, spoken_turns

# Each pattern counts once per turn. Weights: a question is weak evidence (patients ask
# too), an examination instruction or a plan is strong.
CLINICIAN_CUES: list[tuple[re.Pattern, float]] = [
    (re.compile(r"\?"), 1.0),
    (re.compile(r"\b(what brings you|how can i help|what can i do for you|how are you feeling|tell me about)\b"), 2.0),
    (re.compile(r"\b(do|did|have|has|are|were|is|does) (you|your|it|the|anyone)\b.*\?"), 0.5),
    (re.compile(r"\b(any|how long|how often|how much|how many|when did|where is|which)\b[^.?!]*\?"), 0.5),
    (re.compile(r"\b(take (a|some) deep breaths?|breathe (in|out)|deep breath|let me (examine|have a look|listen|check"
                r"|feel)|i'?d like to (listen|examine|check|have a look|feel)|listen to your (chest|heart|lungs)"
                r"|lie (down|back)|open your mouth|say ah+|roll up your sleeve|follow my finger|squeeze my"
                r"|on the couch|hop up|any tenderness|does (this|that) hurt)\b"), 3.0),
    (re.compile(r"\b(i'?ll|i will|i'?m going to|i'?d like to|let'?s|we'?ll|we will|we can) (prescribe|refer|arrange"
                r"|request|send|book|start|give you|print|organise|organize|order|take some blood|check your"
                r"|do some|get some)\b"), 3.0),
    (re.compile(r"\b(i think (this|it|that|you)|most likely|it sounds like|it looks like|probably (a|an|just)"
                r"|i suspect|the (diagnosis|good news)|reassuring|nothing to worry)\b"), 2.5),
    (re.compile(r"\b(your (oxygen|pulse|blood pressure|temperature|chest|heart|lungs|throat|ears|tummy|abdomen"
                r"|results?|tests?|bloods?|heart rate) (is|are|was|were|sounds?|looks?|seems?|came))\b"), 3.0),
    (re.compile(r"\b(if (you|it|the|your|things) [^.?!]*\b(call|come back|get in touch|seek|go to|ring|contact))"), 3.0),
    (re.compile(r"\b(keep taking|you should|you'?ll need to|try to|make sure|drink plenty|get some rest"
                r"|come back|take (one|two|the next|it)|twice a day|three times a day|stay off|sick note"
                r"|well done|i'?m sorry to hear|that'?s completely understandable|antibiotics won'?t)\b"), 1.5),
]
PATIENT_CUES: list[tuple[re.Pattern, float]] = [
    (re.compile(r"^\W*(yes|yeah|yep|no|nope|not really|not that i know|a (bit|little)|about|only|just|mostly"
                r"|sometimes|since|for about|badly|okay|ok|i will|sort of|kind of)\b"), 1.5),
    (re.compile(r"\b(i'?ve (had|got|been)|i have (had|got|been)|i had|i get|i feel|i felt|i'?m (feeling|getting"
                r"|worried|anxious|scared|tired|exhausted|not|quite|a bit)|i can'?t|i couldn'?t|i keep|i took"
                r"|i take|i'?m taking|i used to|i stopped|i'?ve stopped|it hurts|it'?s (worse|better|been|mostly"
                r"|sore|painful)|it (comes|feels|gets|started|wakes|stays|isn'?t)|keeps me)\b"), 2.0),
    (re.compile(r"\bmy (chest|head|throat|back|stomach|tummy|leg|legs|arm|knee|foot|feet|ear|ears|eyes|nose"
                r"|breathing|cough|heart|skin|joints?|neck|temperature|son|daughter|wife|husband|mother|father"
                r"|mum|dad|sister|brother|doctor|blood pressure|thyroid|tablets?|medication|inhaler)\b"), 1.5),
    (re.compile(r"\b(should i|can i|do i need|will i|will it|is it (anything|serious|bad|something)|is that bad"
                r"|how long will|what should i|am i)\b"), 2.5),
    (re.compile(r"\b(thank you,? doctor|thanks,? doctor|hello,? doctor|good (morning|afternoon),? doctor)\b"
                r"|^\W*sorry\b(?! to hear)"), 2.0),
]
MIN_CONFIDENCE, MAX_CONFIDENCE = 0.5, 0.99
THIRD_MIN_TURNS, THIRD_MIN_MARGIN = 3, 1.5  # what a voice beyond the two main ones needs to get a role
CALLER_ASKS = 2  # questions naming a symptom that make a call's questioning voice its clinician


@dataclass
class RoleGuess:
    role: str  # one of ROLES
    confidence: float  # 0.5 (a guess) .. 0.99; 1.0 when set by hand
    source: str  # "auto" or "manual"
    clinician_score: float = 0.0  # cue weight per turn, inside consultations
    patient_score: float = 0.0
    turns: int = 0  # this voice's turns inside consultations


def cue_scores(text: str) -> tuple[float, float]:
    """(clinician, patient) cue weight of one turn."""
    t = " ".join(text.lower().split()).replace("’", "'")
    c = sum(w for p, w in CLINICIAN_CUES if p.search(t))
    p = sum(w for p, w in PATIENT_CUES if p.search(t))
    if re.search(r"\b(should i|can i|will i|do i|am i|is it|is that)\b[^?]*\?", t):
        c -= 1.0  # the patient's own question is no evidence of the asker
    return c, p


def assign_roles(segments: list[dict], sections: list[Section], manual: dict[str, str] | None = None,
                 calls: list[Section] | None = None) -> dict[str, RoleGuess]:
    """speaker label -> RoleGuess for every voice with speech (``segments``: dicts with
    ``speaker`` = label, ``text``, ``start_s``, ``end_s``); ``manual``: roles set by hand;
    ``calls``: the clinical phone calls (``sections.clinical_sections``). A recording whose only
    clinical stretch is a call (a telephone consultation) is read from the call; otherwise the
    call's voices not heard in the consultation are placed by ``_callers``."""
    manual = {k: v for k, v in (manual or {}).items() if v in ROLES}
    turns = spoken_turns(segments)
    consult = [s for s in sections if s.kind == "consultation"]
    calls, kind = calls or [], "consultation"
    if calls and not any(in_sections(t["start_s"], t["end_s"], consult) for t in turns):
        consult, calls, kind = calls, [], "phone_call"
    stats = _stats(turns, consult, kind)
    main = {k for k, _ in sorted(stats.items(), key=lambda kv: -kv[1][2])[:2] if stats[k][2]}
    out = {label: _guess(row, label in main) for label, row in stats.items()}
    _one_of_each(out)
    if calls:
        _callers(out, _stats(turns, calls, "phone_call"), _symptom_asks(turns, calls))
    for label, role in manual.items():
        prev = out.get(label, RoleGuess(role, 1.0, "manual"))
        out[label] = RoleGuess(role, 1.0, "manual", prev.clinician_score, prev.patient_score, prev.turns)
    return out


def _stats(turns: list[dict], sections: list[Section], kind: str) -> dict[str, list[float]]:
    """label -> [clinician cue weight, patient cue weight, turns] inside ``sections`` (every
    voice gets a row, with zeros when it is heard only elsewhere)."""
    stats: dict[str, list[float]] = {}
    for t in turns:
        row = stats.setdefault(t["speaker"], [0.0, 0.0, 0])
        if in_sections(t["start_s"], t["end_s"], sections, kind):
            c, p = cue_scores(t["text"])
            row[0] += c
            row[1] += p
            row[2] += 1
    return stats


def _symptom_asks(turns: list[dict], calls: list[Section]) -> dict[str, int]:
    """label -> the voice's turns on the calls that ask about a symptom or sign by name ("has he been
    sick at all?", "does he have a stiff neck?"): what a triage nurse or a doctor ringing does, and
    what staff booking a test or a caller reporting do not."""
    from harp_desktop.findings.vocab import load, tokenize

    vocab, out = load(), {}
    for t in turns:
        if not in_sections(t["start_s"], t["end_s"], calls, "phone_call"):
            continue
        for q in re.findall(r"[^.?!]*\?", t["text"]):
            if any(m.how != "probe" and m.concept.kind == "symptom" for m in vocab.match(tokenize(q))):
                out[t["speaker"]] = out.get(t["speaker"], 0) + 1
    return out


def _callers(guesses: dict[str, RoleGuess], stats: dict[str, list[float]], asks: dict[str, int] | None = None
             ) -> None:
    """Voices of a clinical phone call that the consultation did not place (a phone line changes
    a voice enough for the diariser to give it a new label): when no patient is heard on the
    call, its most patient-like voice is the patient (patient cues outweighing clinician ones:
    "I've still got the runs", "can I hand in the sample"); a voice saying clearly what a
    clinician says is the clinician; the rest (a receptionist booking a test) other. Weak
    guesses: a call is short and one-sided."""
    callers = {k: row for k, row in stats.items() if row[2] and not guesses[k].turns}
    if not callers:
        return
    on_call = {k for k, row in stats.items() if row[2]}
    has_patient = any(guesses[k].role == "patient" for k in on_call - set(callers))
    margin = {k: (row[0] - row[1]) / row[2] for k, row in callers.items()}
    patient = None if has_patient else min(sorted(margin), key=lambda k: margin[k])
    for k, row in callers.items():
        n, cs, ps = int(row[2]), round(row[0] / row[2], 3), round(row[1] / row[2], 3)
        if k == patient and margin[k] < 0:
            guesses[k] = RoleGuess("patient", min(0.7, _confidence(margin[k], n)), "auto", cs, ps, n)
        elif n >= THIRD_MIN_TURNS and (margin[k] >= THIRD_MIN_MARGIN
                                       or (margin[k] > 0 and (asks or {}).get(k, 0) >= CALLER_ASKS)):
            guesses[k] = RoleGuess("clinician", min(0.7, _confidence(margin[k], n)), "auto", cs, ps, n)
        else:
            guesses[k] = RoleGuess("other", 0.6, "auto", cs, ps, n)


def _guess(row: list[float], main: bool) -> RoleGuess:
    c, p, n = row
    if n == 0:
        return RoleGuess("other", 0.9, "auto")  # never heard in a consultation
    cs, ps = c / n, p / n
    margin = cs - ps
    if not main and (n < THIRD_MIN_TURNS or abs(margin) < THIRD_MIN_MARGIN):
        # A third voice in a consultation (a receptionist, a relative, a stray diarisation
        # label) is someone else unless it says a good deal of what one role says.
        return RoleGuess("other", 0.6, "auto", round(cs, 3), round(ps, 3), int(n))
    conf = _confidence(margin, n) if main else min(0.75, _confidence(margin, n))
    return RoleGuess("clinician" if margin > 0 else "patient", conf, "auto", round(cs, 3), round(ps, 3), int(n))


def _confidence(margin: float, n: int) -> float:
    # The margin per turn, made surer by the number of turns it rests on (a logistic in both).
    z = abs(margin) * math.sqrt(max(1, n)) / 1.5
    return round(min(MAX_CONFIDENCE, max(MIN_CONFIDENCE, 1 / (1 + math.exp(-z)))), 3)


def _one_of_each(guesses: dict[str, RoleGuess]) -> None:
    """The two main voices of a consultation are one clinician and one patient: when the
    cues call both the same, the one with the more clinician-like words is the clinician
    and the other, now a weak guess, the patient."""
    main = sorted((g for g in guesses.values() if g.turns and g.role != "other"), key=lambda g: -g.turns)[:2]
    if len(main) == 2 and main[0].role == main[1].role:
        a, b = sorted(main, key=lambda g: -(g.clinician_score - g.patient_score))
        flipped = b if a.role == "clinician" else a
        a.role, b.role = "clinician", "patient"
        flipped.confidence = MIN_CONFIDENCE + 0.05
