"""What was said: symptoms and other clinical facts from the findings (with their assertion
status and speaker), "who said X", and lists of findings of one kind ("what medication?").

A yes/no question about a symptom is answered from the findings, so a denial ("No, no
blood at all"), a clinician's safety-net advice, a symptom that has gone and a relative's
illness are each a "No" with the reason, not a keyword hit.
"""

from __future__ import annotations

import re

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent import support
from harp_desktop.agent.answerers import said
from harp_desktop.agent.answerers.context import AnswerContext, Result, cites
from harp_desktop.agent.chain import span
from harp_desktop.agent.lexicon import KIND_WORDS, asked_kinds  # noqa: F401 - what a question asks for, by kind
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

# Sounds that are also symptoms of a body system: "were respiratory symptoms exhibited?" hears them.
# (YAMNet's "breathing" and "gasp" fire on ordinary speech pauses: they are not symptoms.)
SYMPTOMS_WORD = re.compile(r"\bsymptoms?\b", re.I)  # "any URTI symptoms?": the category's sounds count too
SOUND_CATEGORY = {"cough": "respiratory", "wheeze": "respiratory", "sneeze": "respiratory",
                  "throat_clearing": "respiratory"}
MENTION = re.compile(r"\b(mention\w*|talk\w* about|bring up|brought up|discuss\w*|ask\w* about|refer\w* to|say anything about)\b",
                     re.I)


COORDINATED = re.compile(r"\b(\w+) (or|and|/) (\w+) (pain|ache|aches|swelling|stiffness|problems?|symptoms?|bleeding|rash)\b",
                         re.I)


def question_concepts(ctx: AnswerContext) -> list[str]:
    """The vocabulary concepts the question names ("short of breath" -> dyspnoea), by the same
    vocabulary that reads the transcript, so lay and clinical words meet in one concept."""
    try:
        from harp_desktop.findings.extract import mentioned_concepts
    except ImportError:
        return []
    # "Is anything coming up when she coughs?": the scene clause names no concept asked about; nor does the part of
    # the recording named ("at the phone follow-up", "during the COPD review").
    q = SECTION_PHRASE.sub(" ", lx.SCENE.sub(" ", lx.QUOTE_FREE.sub(" ", ctx.spec.question)))
    # "joint or muscle pain", "chest or back pain": each modifier with the shared head is a concept of its own.
    q = COORDINATED.sub(lambda m: f"{m.group(1)} {m.group(4)} {m.group(2)} {m.group(3)} {m.group(4)}", q)
    found = _predicated(q, as_allergies(q, mentioned_concepts(q)))
    # "Does she get chest pain with the fluttering?" asks about the chest pain; the fluttering says when
    # (so does "palpitations when anxious": anxiety is the circumstance, not what is asked about).
    m = re.search(r"\b(with|alongside|during|along with|together with|when|whenever|while)\b", q, re.I)
    if len(found) > 1 and m:
        head = mentioned_concepts(q[:m.start()])
        if head:
            return head
    if len(found) > 1:
        # "Is she coughing up mucus?" names a cough and phlegm: the narrower concept ("productive cough")
        # is what is asked; the cough it narrows is not (she has a cough either way).
        found = [c for c in found if not any(d != c and _same_kind(c, d) and re.search(rf"(^|\s){re.escape(c)}($|\s)", d)
                                             for d in found)]
    if len(found) > 1:
        # "Does the tightness move up into her jaw?": the concept named as known is the context, the
        # other one is asked about.
        asked = _not_definite(q)
        if asked and len(asked) < len(found):
            return [c for c in found if c in asked]
    return found


# "Is the pt's cough productive?": a quality said of the concept after it, not before it ("a productive cough").
PREDICATIVE = re.compile(r"\b(?:is|was|are|were|has been|have been)\b(?:\s+[\w']+){0,3}?\s+([a-z]+)\s+(?:still |now |really |very )?"
                         r"([a-z]+)\s*\??\s*$", re.I)


def _predicated(q: str, found: list[str]) -> list[str]:
    """The concepts with one that a predicate narrows ("is the cough productive?" -> productive cough) replaced by the
    narrower one. (Only a quality the vocabulary names as present: "is the cough dry?" asks a quality, not an absence.)"""
    m = PREDICATIVE.search(q)
    if not m or not found:
        return found
    from harp_desktop.findings.vocab import load, tokenize

    noun, adj = m.group(1).lower(), m.group(2).lower()
    narrower = [x.concept.term for x in load().match(tokenize(f"{adj} {noun}")) if x.how == "exact" and x.start == 0
                and x.end == 2]
    if not narrower or narrower[0] in found:
        return found
    heads = {x.concept.term for x in load().match(tokenize(noun))}
    return [narrower[0] if c in heads else c for c in found]


SECTION_PHRASE = re.compile(r"\b(at|during|in|on|over|by the time of|before|after) (the|his|her|their|this|that|a) "
                            r"([\w-]+ ){0,3}?(review|follow-?up|call|consultation|appointment|visit|check-?up)( call)?\b", re.I)


def without_frame_words(spec, text: str) -> str:
    """The question without the words that only frame it in time: the anchor of a relative window ("after the
    examination, is she allowed home?" asks about going home, not about the examination) and the part of the
    recording named ("at the phone follow-up")."""
    if spec.relative:
        relation, phrase = spec.relative
        text = re.sub(rf"\b{re.escape(relation)}\s+{re.escape(phrase)}", " ", text, flags=re.I)
    return SECTION_PHRASE.sub(" ", text)


def _diagnoses_of(concepts: list[str]) -> set[str]:
    """The diagnoses that are the lasting state of these symptoms (vocabulary ``presents_as``): "is he
    depressed?" is answered by "I had depression a few years ago" as much as by "I feel low"."""
    from harp_desktop.findings.vocab import load

    return {c.term for c in load().concepts.values() if set(c.presents_as) & set(concepts)}


def _signs_of(concepts: list[str], mode: str) -> set[str]:
    """The examination findings that are these symptoms heard or seen by the clinician (vocabulary ``as_exam``):
    "is she wheezy?" is answered by "there's a faint wheeze on both sides" as much as by her own words. Not when
    the question asks what the patient reports ("has she complained of wheezing?")."""
    from harp_desktop.findings.vocab import load

    if mode == "reported":
        return set()
    v = load()
    return {v.get(c).as_exam for c in concepts if c in v.concepts and v.get(c).as_exam}


# "Is she allergic to ibuprofen?", "does he react badly to anti-inflammatories?": a reaction asked of a medicine, or
# of a class of them, is that medicine's allergy concept -- what the findings record ("NSAID allergy"), not the
# medicine taken.
REACTION = re.compile(r"\b(allerg\w*|react\w*|(in)?toleran\w*|tolerat\w*|disagree\w*|sensitiv\w*|(can'?t|cannot|unable to) "
                      r"(take|tolerate|have)|(doesn'?t|don'?t|does not|do not) agree with)\b", re.I)
DRUG_CLASSES = {"NSAID allergy": re.compile(r"\b(nsaids?|anti-? ?inflammator\w*|non-? ?steroidals?)\b", re.I),
                "opioid allergy": re.compile(r"\b(opioids?|opiates?)\b", re.I),
                "antibiotic allergy": re.compile(r"\bantibiotics?\b", re.I)}


def as_allergies(question: str, found: list[str]) -> list[str]:
    """The question's concepts with each medicine asked about as a reaction turned into its allergy concept."""
    if not REACTION.search(question):
        return found
    from harp_desktop.findings.vocab import load

    v = load()
    out = [v.allergy_for(v.get(c)).term if v.get(c).kind == "medication" else c for c in found]
    out += [t for t, p in DRUG_CLASSES.items() if p.search(question) and t in v.concepts]
    if any(v.get(c).kind == "allergy" and c != "allergy" for c in out):
        out = [c for c in out if c != "allergy"]  # the named allergy, not allergies in general
    return list(dict.fromkeys(out))


def _same_kind(a: str, b: str) -> bool:
    """Two symptoms (a cough, a productive cough), not a symptom and an examination finding."""
    from harp_desktop.findings.vocab import load

    v = load()
    return v.get(a).kind == v.get(b).kind


def _not_definite(question: str) -> list[str]:
    from harp_desktop.findings.vocab import load, tokenize

    toks = tokenize(question)
    return list(dict.fromkeys(x.concept.term for x in load().match(toks) if x.how != "probe"
                              and not (x.start and toks[x.start - 1] in ("the", "that", "this"))))


def _ev(ctx: AnswerContext, f) -> Evidence:
    segs = [s for s in ctx.segments if s["id"] in set(f.segment_ids)] or \
        [s for s in ctx.segments if s["end_s"] > f.start_s and s["start_s"] < f.end_s]
    own = [s for s in segs if ctx.label_of(s) == f.speaker]
    segs = own or segs  # cite the words of whoever stated it (the patient's "No"), not the question before
    if segs:
        ev = ctx.evidence(segs[-1], "finding")
        ev.start_s, ev.end_s = min(s["start_s"] for s in segs), max(s["end_s"] for s in segs)
        ev.text = " ".join(s["text"].strip() for s in segs)
        return ev
    return Evidence(f.start_s, f.end_s, None, f.speaker, f.text, [], {"finding": 1.0})


def _said_by_subject(ctx: AnswerContext, f) -> bool:
    """"When does the doctor first mention her blood pressure?": a finding in the subject's own words."""
    who = ctx.speakers_for(ctx.spec.subject)
    return who is None or f.speaker in who


def _value_ev(ctx: AnswerContext, f) -> Evidence:
    """A measurement's evidence is the turn that says its value ("one hundred and eighteen over seventy six"),
    not the turn that announces the measuring, when the two differ (the next minute's turns)."""
    ev = _ev(ctx, f)
    num = re.search(r"\d+", str(f.value or ""))
    if not num or num.group(0) in ev.text or lx.spoken_count(ev.text) == int(num.group(0)):
        return ev
    later = [s for s in ctx.segments if f.start_s - 1 <= s["start_s"] <= f.start_s + 60 and s["text"].strip()]
    for s in later:
        if num.group(0) in s["text"] or lx.spoken_count(s["text"]) == int(num.group(0)):
            return ctx.evidence(s, "finding")
    return ev


def _in_scope(ctx: AnswerContext, f) -> bool:
    return ctx.in_window(f.start_s, f.end_s)


RESOLVED = re.compile(r"\b(better|gone|over it|cleared|recovered|fine now|no longer|stopped|settled|eased|went away|"
                      r"not since|haven'?t been \w+ since|hasn'?t been \w+ since|not any ?more|no more|easier)\b"
                      # "on Sunday I couldn't walk to the toilet, now I can get there and back": then, not now
                      r"|\bnow (i|he|she|they|we) (can|could|manage)\b(?!'?t| not)", re.I)


YOU_HAVE = re.compile(r"\b(so|and|which means|that means|i think|it looks like|it sounds like) you (do |still )?(have|'ve got|have got)"
                      r" (a |an |some )?\w+", re.I)
THIRD_PERSON = re.compile(r"\b(he|he's|him|his|she|she's|her)\b", re.I)
FIRST_PERSON = re.compile(r"\b(i|i'm|i've|me|my)\b", re.I)
SECOND_PERSON = re.compile(r"\b(you|you're|you've|your)\b", re.I)
OWN_COMPLAINT = re.compile(r"\b(my|i've (got|had|been)|i have (got|had|been|a)|i had|i get|i'm (getting|feeling))\b", re.I)


CHILD = lx.CHILD


def _for_subject(ctx: AnswerContext, f, subject) -> bool:
    if subject.kind in ("anyone",):
        return True
    if subject.kind == "other":  # "the patient's son": what is said about another person, by anyone
        # ... including a parent's report on the phone: "his temperature was 39", "he's got spots" are
        # about the child, whoever the caller is taken to be.
        if CHILD.search(subject.name or "") and f.role == "patient" and f.status != "family" and not FIRST_PERSON.search(f.text):
            return True  # a parent brings the child: the voice taken as the patient's speaks of the child
        return f.status == "family" or f.role == "other" or bool(THIRD_PERSON.search(f.text) and not FIRST_PERSON.search(f.text))
    if subject.kind == "patient":
        # Facts about the patient: what the patient says, and what the clinician finds or plans for them -- and
        # what a companion answering for the patient says of "she" / "he" ("she was shivering last night"); the
        # companion's own complaints are "family" status and stay theirs.
        # (Not in the first person is not the companion's own either: "coughs no better, you tell them".)
        if f.role == "other" and f.status != "family" and f.speaker in ctx.own_voices:
            return True  # the child a parent answers for, speaking for itself ("my ear hurts")
        if f.role == "clinician" and YOU_HAVE.search(f.text) and "?" not in f.text:
            return True  # the clinician telling the patient what they find: "so you do have a mild fever"
        return f.role in ("patient", None) or f.kind in ("examination", "plan", "diagnosis", "vital") or (
            f.role == "other" and f.status != "family" and bool(THIRD_PERSON.search(f.text) or not FIRST_PERSON.search(f.text)))
    who = ctx.speakers_for(subject)
    if who is not None and f.speaker in who and f.role == "clinician" and f.kind == "symptom":
        # A clinician naming a symptom speaks of the patient ("the tightness is from the coughing"), so
        # "has the doctor got a cough?" counts only the clinician's own first-person complaint.
        return bool(OWN_COMPLAINT.search(f.text)) and not SECOND_PERSON.search(f.text)
    return who is None or f.speaker in who


STATUS_WORDS = {"negated": "denied", "historical": "in the past, not now", "hypothetical": "only as advice/conditional",
                "family": "about someone else", "uncertain": "uncertain", "affirmed": "affirmed"}


FAMILY_ASK = re.compile(r"\bfamily (history|hx)\b|\b(runs?|running) in the family\b|\bin the family\b|\bany relatives?\b"
                        r"|\b(parents?|siblings?|relatives?) (had|have|with)\b", re.I)


CLAUSE_BREAK = re.compile(r"(?<=[.;!?])\s+|,?\s+\bbut\b\s+|,\s+and\s+", re.I)


def own_clause(f) -> str:
    """The clause of a finding's turn that names its concept: "I haven't been sick since Saturday, but I still feel
    a bit queasy" -- the nausea's clause is "I still feel a bit queasy" (the vomiting's "since" is not its course)."""
    from harp_desktop.findings.extract import mentioned_concepts

    # A clause that names nothing continues the one before ("an upset stomach on Friday, but she was better after a day").
    mine, keep = [], False
    for c in (c for c in CLAUSE_BREAK.split(f.text or "") if c.strip()):
        named = mentioned_concepts(c)
        keep = f.concept in named or (keep and not named)
        if keep:
            mine.append(c)
    return " ".join(mine) if mine else f.text


def _counts_as_yes(ctx: AnswerContext, status: str, text: str = "") -> bool:
    spec = ctx.spec
    if FAMILY_ASK.search(spec.question):
        return status == "family"  # "family history of bowel cancer?": a relative's, not the patient's
    if spec.subject.kind == "other" and status == "family":
        return not (spec.tense == "current" and RESOLVED.search(text))
    if spec.polarity == "negative":
        return status == "negated"
    if status == "uncertain" and spec.category:
        return False  # "any GI complaints?" is not answered Yes by "maybe a bit off his food, hard to say" alone
    if status in ("affirmed", "uncertain"):
        # "Is he still vomiting?" when he says "I haven't been sick since Saturday": not now.
        return not (spec.tense == "current" and RESOLVED.search(text))
    return status == "historical" and (spec.tense == "past" or (spec.mode == "reported" and spec.tense != "current"))


REPORTING = {lx.stem(w) for w in ("think", "thinks", "notice", "noticed", "feel", "feels", "felt", "describe", "described",
                                   "complain", "complained", "report", "reported", "suffer", "experience", "have", "has",
                                   "had", "get", "gets", "any", "still", "currently", "being", "recently", "now", "today",
                                   "him", "herself", "himself", "been", "going", "come", "coming", "symptoms",
                                   # whether it is there at all: "are the panic attacks still happening?"
                                   "happen", "happening", "happened", "occur", "occurring", "continue", "continuing",
                                   "ongoing", "persist", "persisting", "present", "around", "bothering", "troubling", "lately",
                                   "experiencing", "having", "suffering", "getting")}


NOT_ASKED = set(lx.stems("all ever mention mentioned mentions discuss discussed talk talked bring brought raise raised "
                         "say said tell told ask asked whether family history relative relatives past medical"))


# A degree asked of a symptom: "so breathless (that) she can't finish her sentences", "too dizzy to stand",
# "bad enough to keep him off work".
SEVERITY = re.compile(r"\bso \w+(?: \w+)?,? (?:that )?(?P<a>(?:she|he|they|you|it|i)(?:'s| is| are)? ?(?:can'?t|cannot|"
                      r"couldn'?t|is unable|are unable|has to|had to|needs? to|wakes?|stops?)\b[^?.,]*)"
                      r"|\btoo \w+ to (?P<b>\w+[^?.,]*)|\b(?:bad|severe|serious) enough to (?P<c>\w+[^?.,]*)", re.I)

DEGREE_GRAMMAR = set(lx.stems("can't cannot couldn't unable able has have had need needs needed stop stops"))


def beyond_concepts(question: str) -> list[str]:
    """Topic stems of a question outside the phrases naming its concepts: "does he have to fast
    before the blood test?" asks about fasting; the blood test only says which one."""
    from harp_desktop.agent.query import SOURCE_FRAME, strip_reporter
    from harp_desktop.findings.vocab import load, tokenize

    # Who it is about ("does the little boy have a stiff neck?") is not what is asked, nor who says it
    # ("according to her sister, ...").
    # ("she's", "he'd" are grammar: the tokenizer would leave "she'" as a word of the topic)
    plain = PRONOUN_CONTRACTION.sub(" ", strip_reporter(SOURCE_FRAME.sub(" ", question)))
    toks = tokenize(lx.RELATIVE.sub(" ", lx.SCENE.sub(" ", lx.QUOTE_FREE.sub(" ", plain))))
    covered = {i for m in load().match(toks) if m.how != "probe" for i in range(m.start, m.end)}
    rest = " ".join(t for i, t in enumerate(toks) if i not in covered)
    # A name ("has Linda ever fainted?") says who, not what: capitalised words after the first.
    names = {lx.stem(w.lower()) for w in re.findall(r"(?<=\s)[A-Z][a-z]+", question)}
    return [t for t in said.focus_terms(rest) if t not in REPORTING and t not in NOT_ASKED and t not in names]


def main_clause(question: str) -> str:
    """The yes/no question without its lead-in ("The news mentions a headache - is that anyone's actual symptom?"
    asks whether it is a symptom; the mention is the lead-in's)."""
    m = lx.YESNO.match(question)
    return question[m.start(1):] if m and m.start(1) > 0 else question


def by_reporter(ctx: AnswerContext, items: list, speaker_of) -> list:
    """The items said by the question's reporter ("according to her sister, ..."), when the recording has any of
    theirs; else all of them (a note says the account was not found)."""
    rep = ctx.spec.reporter
    if rep is None or not items:
        return items
    voices = ctx.speakers_for(rep) or set()
    mine = [x for x in items if speaker_of(x) in voices]
    if mine:
        return mine
    if "_reporter_note" not in ctx.__dict__:
        ctx.__dict__["_reporter_note"] = True
        ctx.notes.append(f"nothing on this from {rep.describe()}: everyone's words were read")
    return items


def _reporter_replies(ctx: AnswerContext, verdicts: list) -> list:
    """The reporter's turns that answer a turn carrying the topic ("Do you take it every day?" "Yes" -- and the
    daughter: "Not every day, she leaves it out on Tuesdays"): their account needs no topic words of its own."""
    if ctx.spec.reporter is None or not verdicts:
        return []
    voices = ctx.speakers_for(ctx.spec.reporter) or set()
    turns = sorted((s for s in ctx.segments if s["text"].strip()), key=lambda s: s["start_s"])
    out = []
    for _, e, _ in verdicts:
        after = [s for s in turns if e.start_s < s["start_s"] <= e.end_s + 15.0][:3]
        for s in after:
            if ctx.label_of(s) in voices and (NO_REPLY.search(s["text"]) or YES_REPLY.search(s["text"])):
                status = "negated" if NO_REPLY.search(s["text"]) else "affirmed"
                out.append((status, ctx.evidence(s, "keyword"), f"{ctx.spec.reporter.describe()}: "))
                break
    return out


THIRD_PARTY_NAME = re.compile(r"(?<=\w )(?-i:[A-Z][a-z]{2,})'s\b")


def exists(ctx: AnswerContext) -> Result:
    spec = ctx.spec
    asks_mention = MENTION.search(main_clause(spec.question)) is not None
    concepts = question_concepts(ctx)
    by_meaning = False
    if not concepts and not spec.category and spec.target == "speech" and not asks_mention:
        from harp_desktop.agent.answerers.meaning import concepts_by_meaning

        concepts = concepts_by_meaning(spec.question, ctx.lib.models)  # a paraphrase the vocabulary lacks
        if concepts:
            by_meaning = True
            ctx.notes.append(f"read by meaning as: {', '.join(concepts)}")
            if not any(f.concept in concepts for f in ctx.findings):
                # A concept found by meaning alone that the recording never states is weak evidence of
                # absence: the turns that carry the question's own words decide (as for any unnamed topic).
                return _asserted(ctx)
    claim = {"kind": "speech"}
    # "Is Ruby's sore throat mentioned?": a named person no voice answers to (names.py left the name as typed) is
    # someone talked about, so any mention of their complaint is the answer, whoever it belongs to.
    third_party = THIRD_PARTY_NAME.search(spec.question) is not None
    if asks_mention and (spec.subject.kind != "anyone" or third_party) or (asks_mention and not concepts
                                                                             and not spec.category) \
            or spec.section == "dictation":  # no findings are read from a dictation's notes register: its words
        return _mentioned(ctx, concepts)
    pool = by_reporter(ctx, [f for f in ctx.findings if _in_scope(ctx, f) and _for_subject(ctx, f, spec.subject)],
                       lambda f: f.speaker)
    if concepts:
        asked_about = set(concepts) | _diagnoses_of(concepts) | _signs_of(concepts, spec.mode)
        kinds = {CONTAINERS[c] for c in concepts if c in CONTAINERS}  # "any allergies?": a penicillin allergy is one
        hits = [f for f in pool if f.concept in asked_about or f.kind in kinds]
        what = " / ".join(c for c in concepts)
    elif spec.subject.kind == "other" and _asks_health(spec):
        hits = [f for f in pool if f.kind in ("symptom", "diagnosis")]  # "is her son ill?": anything he has
        what = f"{spec.subject.describe()}'s health"
    elif spec.category:
        # (a normal examination -- "her chest is clear" -- is no respiratory symptom)
        hits = [f for f in pool if f.category == spec.category and f.kind in ("symptom", "examination", "diagnosis")
                and not NORMAL_EXAM.search(f.concept)]
        what = f"{spec.category} symptoms"
    else:
        return _asserted(ctx)
    if concepts and set(concepts) <= set(CONTAINERS) and hits:
        # "Is theophylline one of his allergies?": an allergy to something the vocabulary does not know is that
        # thing's, and the allergies said (penicillin) are not it unless their words name it.
        named = [t for t in beyond_concepts(spec.question) if len(t) >= 4]
        if named:
            theirs = [f for f in hits if set(named) & set(lx.stems(f.text or "")) or set(named) & set(lx.stems(f.concept))]
            if not theirs:
                said_ = [f for f in hits if f.status == "affirmed" and f.concept not in CONTAINERS]
                what_ = "; ".join(f"{f.concept}: \"{f.text.strip()[:90]}\" {span(_ev(ctx, f))}" for f in said_[:3]) or \
                    "no specific allergy is named"
                word = " ".join(w for w in re.findall(r"[A-Za-z][\w-]+", spec.question) if lx.stem(w) in named)
                return Result("No", f"No — {word or ' '.join(named)} is not named as an allergy {ctx.window_words()} ({what_}).",
                              [_ev(ctx, f) for f in said_[:3]], {"kind": "finding", "concepts": [f.concept for f in said_]})
            hits = theirs
    when = lx.circumstance(" ".join(beyond_concepts(spec.question))) if concepts and hits else None
    if when is not None:
        got = _in_circumstance(ctx, hits, when)
        if got is not None:
            return got
    if concepts and hits and spec.mode != "exhibited" and not spec.category and not by_meaning:
        # (A concept read by meaning is the whole question: its words are the paraphrase, not something more.)
        # "Does the tightness go into her arm?", "does he have to fast before the blood test?": the question
        # asks something of the concept that the recording's words hold; those turns answer, as dialogue acts.
        # (A word most turns say, or a category question's examples, are not such a thing.)
        df = said.doc_freq(ctx, beyond_concepts(spec.question))
        extra = [t for t, n in df.items() if 0 < n <= 4 and t not in DEGREE_GRAMMAR]
        severe = SEVERITY.search(spec.question)
        degree = severe and next(g for g in severe.groups() if g)
        if degree and not any(n for t, n in said.doc_freq(ctx, said.focus_terms(degree)).items()
                              if t not in REPORTING and t not in NOT_ASKED and t not in DEGREE_GRAMMAR):
            # "Is she so breathless she can't finish her sentences?": the degree is what is asked; when nothing
            # said has its words, the symptom is there but not that badly.
            yes_f = [f for f in hits if _counts_as_yes(ctx, f.status, own_clause(f))]
            if yes_f:
                return Result("No", f"No — {yes_f[0].concept} is reported, but nothing said {ctx.window_words()} "
                              f"describes it as \"{severe.group(0).strip()}\": \"{yes_f[0].text.strip()[:100]}\" "
                              f"{span(_ev(ctx, yes_f[0]))}.", [_ev(ctx, yes_f[0])],
                              {"kind": "finding", "concepts": [yes_f[0].concept]})
        if extra:
            told = _asserted(ctx, extra)  # the concept is the context; what is asked of it is the topic
            if told.cited:
                return told
    heard: list[Evidence] = []
    if spec.mode == "exhibited" or (spec.category and spec.mode != "reported"):
        from harp_desktop.agent.answerers.sounds import events

        for label, cat in SOUND_CATEGORY.items():
            # A category is the question only when it names no concept ("crackles in her lungs" asks about
            # crackles, not about every respiratory sound of the recording).
            if (cat == spec.category and (not concepts or SYMPTOMS_WORD.search(spec.question))) or label in spec.terms \
                    or any(label in c for c in concepts):
                heard += events(ctx, label)
    # A symptom is the patient's to report: when the patient speaks of it, the clinician's mentions of it
    # (advice, plans, "until 48 hours after the last vomit") do not make it present.
    # Symptom by symptom: a category ("any respiratory symptoms?") is answered by each of its concepts, and the
    # patient denying breathlessness says nothing of the cough a companion (or a voice diarisation split off)
    # reports of them.
    own = {f.concept for f in hits if f.role == "patient"} if spec.subject.kind in ("anyone", "patient") else set()
    basis = [f for f in hits if f.concept not in own or f.role == "patient" or f.kind in ("examination", "vital", "diagnosis")]
    # Each concept's first mention first (where annotators mark it), then the rest in time order.
    yes = sorted((f for f in basis if _counts_as_yes(ctx, f.status, own_clause(f))), key=lambda f: f.start_s)
    firsts = list({f.concept: f for f in reversed(yes)}.values())
    yes = sorted(firsts, key=lambda f: f.start_s) + [f for f in yes if f not in firsts]
    where = ctx.window_words()
    if yes or heard:
        parts = []
        if yes:
            parts.append("reported: " + "; ".join(
                f"{f.concept} ({STATUS_WORDS[f.status]}, said by {f.role or f.speaker}): "
                f"\"{_ev(ctx, f).text.strip()[:100]}\" {span(_ev(ctx, f))}" for f in yes[:4]))
        if heard:
            parts.append(f"heard: {len(heard)} sound event(s) ({', '.join(sorted({e.labels[0].split(' ')[0] if e.labels else 'sound' for e in heard}))}) at {cites(heard, 5)}")
        # A category ("any respiratory symptoms?") is answered by each of its symptoms: cite more of them.
        n = 6 if spec.category and not concepts else 4
        cited = [_ev(ctx, f) for f in yes[:n]] + heard[:n]
        # The first line names what was found ("Yes — penicillin allergy"): "is he allergic to anything?" is answered
        # by the thing, and a category by its members.
        named = list(dict.fromkeys(f.concept + (f" {f.value}" if f.value and f.kind in ("medication", "vital") else "")
                                   for f in yes))[:4]
        first = "Yes — " + "; ".join(named) if named and (set(concepts) <= set(CONTAINERS) or spec.category
                                                           or not concepts) else "Yes"
        return Result(first, f"Yes — {what} {where}: " + "; ".join(parts) + ".", cited,
                      {"kind": "finding", "concepts": [f.concept for f in yes], "events": bool(heard)})
    if not hits and concepts and asks_mention:
        # "Does anyone mention vomiting?" where no statement of it was read (a question the answer to
        # which ASR garbled): whether its words were said at all.
        named = _naming(ctx, concepts, None)
        if named:  # the concept's own words, not just any of the question's words ("her hands")
            return Result("Yes", f"Yes — mentioned {ctx.window_words()}: " + "; ".join(
                f"\"{e.text.strip()[:120]}\" {span(e)}" for e in named[:3]) + ".", named,
                {"kind": "speech", "terms": spec.terms, "concepts": concepts})
    if hits:
        why = "; ".join(f"{g.concept} {STATUS_WORDS[g.status]}: \"{g.text.strip()[:100]}\" {span(_ev(ctx, g))}"
                        for g in hits[:3])
        return Result("No", f"No — {why}.", [_ev(ctx, g) for g in hits[:3]],
                      {"kind": "finding", "concepts": [f.concept for f in hits]})
    # (Only when no statement of it was read at all: one about someone else is answered below.)
    stated = [f for f in ctx.findings if f.concept in concepts and _in_scope(ctx, f)]
    asked = _asked_unconfirmed(ctx, concepts) if concepts and not stated else None
    if asked is not None:
        return asked
    if concepts and spec.subject.kind != "anyone":
        # Said, but of someone else ("does she have back pain?" when only her husband's back is bad): the
        # statement is the evidence that it is not hers, so it is cited, not reported as never mentioned.
        # (a clinician's advice to the patient is nobody's complaint, not someone else's)
        theirs = [f for f in stated if f not in pool and not (f.role == "clinician" and spec.subject.kind == "patient")]
        if theirs:
            why = "; ".join(f"{g.concept} {STATUS_WORDS[g.status]}, said by {g.role or g.speaker}: "
                            f"\"{g.text.strip()[:100]}\" {span(_ev(ctx, g))}" for g in theirs[:3])
            return Result("No", f"No — said of someone other than {spec.subject.describe()}: {why}.",
                          [_ev(ctx, g) for g in theirs[:3]],
                          {"kind": "finding", "concepts": [f.concept for f in theirs]})
    return Result("No", f"No — not mentioned: no statement about {what} {where} "
                  f"{'' if spec.subject.kind == 'anyone' else 'by or about ' + spec.subject.describe()}".rstrip() + ".",
                  [], claim, True)


# Examination concepts that name a normal finding ("chest clear", "normal heart sounds", "soft abdomen").
NORMAL_EXAM = re.compile(r"\b(normal|clear|soft)\b", re.I)
LIGHT_VERBS = frozenset(lx.stems("give giving gives gave get gets getting got make makes making take takes taking go goes "
                                  "going do does doing put keep keeps seem seems look looks"))
# Concepts that stand for a list ("allergy"): a question naming a member the vocabulary lacks asks about that member.
CONTAINERS = {"allergy": "allergy"}  # concept -> the kind of finding each member is
CIRCUMSTANCE_WORDS = {"exertion": "on exertion", "rest": "at rest", "night": "at night", "eating": "with eating"}
NEGATIVE = re.compile(r"\b(no|not|never|none|without|fine)\b|n't\b", re.I)


def _said_in(f, fam: frozenset) -> str | None:
    """How a finding's words put it in the circumstance: the sentences that name the circumstance, read on their
    own ("Not when I'm resting. Only a little on the stairs."): "negated", the finding's status, or None."""
    # the clause, not the sentence: "I've felt hot and shivery at night, but I haven't got a thermometer"
    sents = [x for x in re.split(r"(?<=[.!?])\s+|,\s*|\s+but\s+", f.text) if fam & set(lx.stems(x))]
    if not sents:
        return None
    return "negated" if any(NEGATIVE.search(x) for x in sents) else f.status


def _in_circumstance(ctx: AnswerContext, hits: list, when: str) -> Result | None:
    """"Is she breathless at rest?": the mentions of the symptom that name that circumstance decide ("No, I feel
    fine sitting down"); a symptom said only in the opposite one ("puffed out on the stairs") is not there at rest."""
    words = CIRCUMSTANCE_WORDS[when]
    read = [(f, _said_in(f, lx.CIRCUMSTANCE_STEMS[when])) for f in hits]
    said_so = [(f, st) for f, st in read if st is not None]
    yes = [f for f, st in said_so if _counts_as_yes(ctx, st, f.text)]
    if yes or said_so:
        basis = yes or [f for f, _ in said_so]
        f, verdict = basis[0], "Yes" if yes else "No"
        return Result(verdict, f"{verdict} — {f.concept} {words}: \"{_ev(ctx, f).text.strip()[:110]}\" {span(_ev(ctx, f))}.",
                      [_ev(ctx, g) for g in basis[:3]], {"kind": "finding", "concepts": [f.concept]})
    other = {"rest": "exertion", "exertion": "rest"}.get(when)
    present = [f for f in hits if _counts_as_yes(ctx, f.status, own_clause(f))]
    only = [f for f in present if other and _said_in(f, lx.CIRCUMSTANCE_STEMS[other]) not in (None, "negated")]
    if only and len(only) == len(present):
        f = only[0]
        return Result("No", f"No — {f.concept} only {CIRCUMSTANCE_WORDS[other]}, not {words}: "
                      f"\"{_ev(ctx, f).text.strip()[:110]}\" {span(_ev(ctx, f))}.", [_ev(ctx, f)],
                      {"kind": "finding", "concepts": [f.concept]})
    return None


# Words of a question about someone's health as a whole ("is her son ill?", "any problems with the
# husband's health?"); any other content word is a specific predicate ("does the husband say he is
# frightened?") that the person's symptoms do not answer.
HEALTH_WORDS = set(lx.stems("ill unwell sick poorly health healthy well problem problems symptom symptoms wrong "
                            "bother bothers bothering bothered trouble troubles troubling troubled playing "
                            "matter ok okay fine condition conditions illness complaint complaints suffer suffering"))


def _asks_health(spec) -> bool:
    own = set(lx.stems(spec.subject.name or ""))
    rest = [t for t in lx.stems(" ".join(spec.terms)) if t not in own and t not in HEALTH_WORDS and t not in REPORTING]
    return not rest


def _term_hits(ctx: AnswerContext, terms: list[str], who: set[str] | None) -> list[Evidence]:
    hits: list[Evidence] = []
    for a, b in ctx.windows:
        hits += ctx.tools.keyword(terms, a, b) if terms else []
    by_id = {s["id"]: s for s in ctx.segments}
    out = []
    for e in hits:
        seg = by_id.get(e.segment_id)
        if seg is None or (who is not None and ctx.label_of(seg) not in who):
            continue
        if e.scores.get("keyword", 0) >= 0.5:
            e.speaker_label = ctx.label_of(seg)  # type: ignore[attr-defined]
            out.append(e)
    return sorted(out, key=lambda e: e.start_s)


def term_status(text: str, terms: list[str]) -> str | None:
    """The assertion status (the findings layer's rules) of the first question term in ``text``."""
    from harp_desktop.findings import assertion
    from harp_desktop.findings.vocab import tokenize

    stems = [t[:5] for t in terms if len(t) > 3]
    for sent in re.split(r"(?<=[.!?])\s+", text):
        toks = tokenize(sent)
        i = next((k for k, w in enumerate(toks) if any(w.startswith(st) for st in stems)), None)
        if i is not None:
            span_ = (i, i + 1)
            return assertion.status(toks, span_, assertion.find_cues(toks, [span_]), assertion.clause_ids(toks))
    return None


# What safety-net advice tells the patient to do: a clinician's sentence with it is conditional advice.
# What a medicine can do, said by the one who gives it ("they can leave a funny taste", "it may upset your stomach"):
# a possibility explained, not something the patient has.
POSSIBLE_EFFECT = re.compile(r"\b(can|may|might|could|sometimes|often) (cause|give|leave|make|upset|bring on|lead to|affect)\b"
                             r"|\bsome (people|patients) (get|find|notice|feel)\b", re.I)
EMERGENCY = re.compile(r"\b(999|nine nine nine|111|one one one|a ?(and|&) ?e|(call|ring|phone) (us|the surgery|an ambulance)|"
                       # an escalation rule handed over ("below 92 or NEWS above 5, call the registrar")
                       r"(call|ring|phone|bleep|page|escalate to|get) (the )?(registrar|on-?call|outreach|medical team|"
                       r"doctor on call|crash team)|"
                       r"(bring|take) (him|her|them) (straight )?(back|in)|come (straight )?back|seek (urgent )?(help|advice)|"
                       r"straight (back|away|to))\b", re.I)
NO_REPLY = re.compile(r"^\W*(no|nope|nah|not (really|at all|that i know)|never|none|nothing|i don'?t|i haven'?t|i'?m not|"
                      r"it'?s not|it isn'?t|not)\b", re.I)
YES_REPLY = re.compile(r"^\W*(yes|yeah|yep|yup|i do|i have|i am|i'?ve|it is|it does|a (bit|little)|sometimes|definitely|"
                       r"quite|mostly|certainly|absolutely|all the time)\b", re.I)


PRONOUN_CONTRACTION = re.compile(r"\b(she|he|they|it|i|you|we|that|there)'(s|re|ve|ll|d|m)\b", re.I)
NEG_PREDICATE = re.compile(r"\b(unable|can'?t|cannot|can not|not able|fail\w* to|struggl\w* to|incapable)\b", re.I)


def _reply(ctx: AnswerContext, seg: dict) -> dict | None:
    """The next turn by another voice within 10 s: what answers a question turn."""
    later = [s for s in ctx.segments if s["start_s"] >= seg["end_s"] - 0.1 and s["text"].strip()
             and ctx.label_of(s) != ctx.label_of(seg) and s["start_s"] - seg["end_s"] < 10]
    return min(later, key=lambda s: s["start_s"]) if later else None


def _about_subject(ctx: AnswerContext, seg: dict) -> bool:
    """Whether a turn can say something of the question's subject: the patient's own words (or a
    question put to them); for a relative, their own words or a turn that names them ("my wife had...")."""
    spec = ctx.spec
    kind = spec.subject.kind
    if kind == "anyone":
        return True
    who = ctx.speakers_for(spec.subject) or set()
    label = ctx.label_of(seg)
    if kind == "other":
        rel = lx.RELATION.search(spec.subject.name or "")
        return label in who or (rel is not None and re.search(rf"\b{rel.group(0)}\b", seg["text"], re.I) is not None)
    if kind == "patient":
        return label in who or said._is_question(seg["text"]) or _companion_of_patient(ctx, seg)
    return label in who


def _companion_of_patient(ctx: AnswerContext, seg: dict) -> bool:
    """A companion answering for the patient, not in the first person ("coughs no better, you tell them"):
    a voice with no role named as the patient's relation, or speaking in the consultation."""
    label = ctx.label_of(seg)
    if ctx.roles.get(label or "") != "other" or FIRST_PERSON.search(seg["text"]):
        return False
    if ctx.other_names.get(label) not in (None, "receptionist"):
        return True  # named as a relation of the patient
    lo, hi = ctx.consultation_span or (0.0, -1.0)
    return lo <= seg["start_s"] < hi


def _asserted(ctx: AnswerContext, only: list[str] | None = None) -> Result:
    """A yes/no question the findings vocabulary cannot name ("is he passing blood when he opens his
    bowels?"): the turns that carry most of its topic, each read as a dialogue act. A statement
    counts by its assertion status (a denial, a clinician's "if you get X..."); a question turn
    ("Any blood in your stool?") counts by the reply to it ("No, none at all"). One word of the
    topic in passing is not the topic."""
    spec = ctx.spec
    claim = {"kind": "speech", "terms": spec.terms}
    body = without_frame_words(spec, lx.SCENE.sub(" ", spec.question))
    for name in [spec.subject.name, *[o.name for o in spec.others]]:
        body = body.replace(name, " ") if name else body  # "does the husband say...": he is who, not what
    body = PRONOUN_CONTRACTION.sub(" ", body)  # "she's", "he'd": grammar, not topic
    topic = only or [t for t in said.respell(ctx, said.focus_terms(body)) if t not in REPORTING and t not in HEALTH_WORDS]
    df = said.doc_freq(ctx, topic)
    present = {t: n for t, n in df.items() if n > 0}
    if not present:
        return Result("No", f"No — not mentioned {ctx.window_words()}: nothing is said about "
                      f"{' '.join(spec.terms[:4]) or 'it'}.", [], claim, True)
    idf = said.idf_of(ctx, topic)
    total = sum(idf.values()) or 1.0
    rare = min(present, key=present.get)
    # Two words that are the whole topic ("are his lips blue?") are both needed; a light verb is neither.
    pair = {t for t in topic if t not in LIGHT_VERBS}
    pair = pair if len(pair) == 2 and pair <= set(present) else set()
    # A question that names a time ("by the end", "after 08:00") means whatever is said then, wherever.
    unrelated = [(a, b) for kind, a, b in ctx.sections if kind == "unrelated"] \
        if spec.section is None and spec.window is None else []
    verdicts: list[tuple[str, Evidence, str]] = []
    for s in ctx.segments:
        if not s["text"].strip() or not ctx.in_window(s["start_s"], s["end_s"]):
            continue
        if any(a <= (s["start_s"] + s["end_s"]) / 2 <= b for a, b in unrelated):
            continue  # the waiting room's talk is not what the consultation established
        st = set(lx.stems(s["text"]))
        if rare not in st or sum(w for t, w in idf.items() if t in st) / total < 0.5:
            continue
        if len(pair) == 2 and len(pair & st) < 2:
            continue  # "are his lips blue?": "my lips swelled up" says one word of it, not what is asked
        if not _about_subject(ctx, s):
            continue
        # The sentence that says it decides whether the turn asks ("...room 2. When...? You don't need to fast").
        sentence = next((x for x in re.split(r"(?<=[.!?])\s+", s["text"]) if rare in set(lx.stems(x))), s["text"])
        if said._is_question(sentence):
            r = _reply(ctx, s)
            if r is not None and (NO_REPLY.search(r["text"]) or YES_REPLY.search(r["text"])):
                status = "negated" if NO_REPLY.search(r["text"]) else "affirmed"
                verdicts.append((status, ctx.evidence(r, "keyword"), f"asked \"{s['text'].strip()[:80]}\" -> "))
                continue
            if sentence.rstrip().endswith("?"):
                continue  # asked, and not answered yes or no
            # else: read like a question ("When you get home, ...") without a yes/no reply: a statement
        status = term_status(sentence, [rare]) or "affirmed"
        if ctx.roles.get(ctx.label_of(s) or "") != "patient" and (EMERGENCY.search(sentence) or (
                ctx.roles.get(ctx.label_of(s) or "") == "clinician" and POSSIBLE_EFFECT.search(sentence))):
            # "...or he becomes very drowsy or floppy, call 999": advice, whatever ASR left of the "if" (also as a
            # nurse reads it back); "they can leave a funny taste": what a medicine may do, explained
            status = "hypothetical"
        verdicts.append((status, ctx.evidence(s, "keyword"), ""))
    if NEG_PREDICATE.search(spec.question):
        # "Is he unable to keep fluids down?" asks the negation of what the turns assert or are asked
        # ("are you managing to keep fluids down?" "Mostly"): their polarity is turned to the question's.
        flip = {"affirmed": "negated", "negated": "affirmed"}
        verdicts = [(st if NEG_PREDICATE.search(how or e.text) else flip.get(st, st), e, how) for st, e, how in verdicts]
    verdicts = by_reporter(ctx, verdicts + _reporter_replies(ctx, verdicts), lambda v: v[1].speaker)
    if not verdicts:
        return Result("No", f"No — not mentioned {ctx.window_words()}: no turn says "
                      f"{' '.join(spec.terms[:4]) or 'it'}.", [], claim, True)
    yes = [v for v in verdicts if _counts_as_yes(ctx, v[0], v[1].text)]
    pick = yes or verdicts

    def status_word(st: str, text: str) -> str:
        if not yes and st in ("affirmed", "uncertain") and spec.tense == "current" and RESOLVED.search(text):
            return "said of before, not now"  # "on Sunday I couldn't..., now I can": asked of now
        return STATUS_WORDS.get(st, st)

    said_ = "; ".join(f"{how}\"{e.text.strip()[:110]}\" {span(e)} ({status_word(st, e.text)})" for st, e, how in pick[:3])
    cited = [e for _, e, _ in pick[:3]]
    claim = {"kind": "speech", "terms": []}
    if yes:
        return Result("Yes", f"Yes — said {ctx.window_words()}: {said_}.", cited, claim)
    return Result("No", f"No — {said_}.", cited, claim)


def _asked_unconfirmed(ctx: AnswerContext, concepts: list[str]) -> Result | None:
    """The clinician asked about the concept and the answer reported no such thing ("Any other symptoms, any
    headaches...?" / "I had a rash last week"): a No with the exchange as its evidence; None if never asked."""
    from harp_desktop.agent.replies import reply_to

    clinicians = {k for k, v in ctx.roles.items() if v == "clinician"}
    for e in _naming(ctx, concepts, clinicians or None):
        if not said._is_question(e.text):
            continue
        reply = reply_to(ctx.segments, e.segment_id) if e.segment_id is not None else None
        cited = [e] + ([ctx.evidence(reply, "keyword")] if reply is not None else [])
        answer = f"; the answer: \"{reply['text'].strip()[:100]}\" {span(cited[1])}" if reply is not None else ""
        return Result("No", f"No — asked about {' / '.join(concepts)} {ctx.window_words()} at {span(e)} "
                      f"(\"{e.text.strip()[:100]}\"), and nothing reported it{answer}.", cited,
                      {"kind": "turn", "speakers": None}, True)
    return None


def _naming(ctx: AnswerContext, concepts: list[str], who: set[str] | None) -> list[Evidence]:
    """Up to four turns in the window (of ``who``) whose words name one of ``concepts``."""
    return [ctx.evidence(x, "keyword") for x in ctx.segments
            if x["text"].strip() and ctx.in_window(x["start_s"], x["end_s"])
            and (who is None or ctx.label_of(x) in who) and support.names_concepts(x["text"], concepts)][:4]


MENTION_FRAME = set(lx.stems("mention mentions mentioned mentioning anyone anybody someone somebody talk talks talked "
                             "discuss discussed bring brought raise raised"))


def _mentioned(ctx: AnswerContext, concepts: list[str]) -> Result:
    """"Did the doctor mention antibiotics?": whether the words (or the concept) were said, whatever their status."""
    spec = ctx.spec
    who = ctx.speakers_for(spec.subject)
    found = [f for f in ctx.findings if f.concept in concepts and _in_scope(ctx, f)
             and (who is None or f.speaker in who or any(ctx.label_of(s) in who for s in ctx.segments
                                                          if s["id"] in set(f.segment_ids)))]
    cited = [_ev(ctx, f) for f in found[:4]]
    if not cited and concepts:  # named in words the vocabulary knows ("never smoker" names smoking), whatever the status
        cited = _naming(ctx, concepts, who)
    if not cited and not (concepts or set(_unsaid_terms(ctx)) - MENTION_FRAME):
        # By the question's own words -- all of them said somewhere: "did he mention that he listens to music?"
        # is not answered by "listen to this one" when nobody says "music".
        cited = _term_hits(ctx, spec.terms, who)[:4]
    claim = {"kind": "speech", "terms": spec.terms, "concepts": concepts}
    where = ctx.window_words()
    if cited and not MENTION.search(spec.question) and not found:
        # "Does he have to fast?" answered by "no need to fast": whether it was said, and how.
        said = [(term_status(e.text, spec.terms), e) for e in cited]
        if said and all(st == "negated" for st, _ in said):
            return Result("No", "No — said in the negative: " + "; ".join(f"\"{e.text.strip()[:120]}\" {span(e)}"
                                                                           for _, e in said[:3]) + ".", cited, claim)
    if cited:
        return Result("Yes", f"Yes — mentioned {where}: " + "; ".join(f"\"{e.text.strip()[:120]}\" {span(e)}"
                                                                     for e in cited[:3]) + ".", cited, claim)
    return Result("No", f"No — not mentioned {where}"
                  f"{'' if spec.subject.kind == 'anyone' else ' by ' + spec.subject.describe()}.", [], claim, True)


BOUNDARY = re.compile(r"\b(start|starts|begin|begins|began|end|ends|ended|finish|finishes|over)\b", re.I)


EDGE_WORDS = {"give", "time", "point", "moment", "exact", "exactly", "timestamp", "what", "starting", "beginning"}


def _beyond_section(spec) -> list[str]:
    """The question's topic words other than the section's own name and its edge ("start time of
    the face-to-face appointment" names only the section)."""
    body = spec.question.lower()
    for pat in lx.SECTION_WORDS.values():
        body = pat.sub(" ", body)
    return [t for t in lx.content_terms(body) if not BOUNDARY.fullmatch(t) and t not in EDGE_WORDS]


# Words that only say someone spoke: "when does her husband speak for the last time?" names no topic.
SPEAKING = {lx.stem(w) for w in ("speak speaks spoke speaking talk talks talked talking say says said saying word words "
                                 "voice heard hear contribute chip chime utter open mouth time times final first last "
                                 "husband wife partner son daughter mother father relative receptionist friend").split()}


# How the asker asks ("can you find where...", "show me the point at which...") is not what is asked about.
REQUEST_FRAME = re.compile(r"^\s*(?:(?:can|could|would) you |please )?(?:find|show|locate|point (?:me )?to|tell me|give me)"
                           r"(?: me)?(?: (?:the )?(?:moment|point|place|time|bit|part|spot))?(?: where| when| at which| in which)?\b",
                           re.I)


def _without_frame(spec, who: bool = False) -> str:
    """The question without its window and anchor phrases (and, with ``who``, its subjects' words)."""
    body = REQUEST_FRAME.sub(" ", spec.question)
    for phrase in (spec.window_text, " ".join(spec.relative) if spec.relative else None,
                   *([spec.subject.name, *[o.name for o in spec.others]] if who else [])):
        if phrase:
            body = re.sub(re.escape(phrase), " ", body, flags=re.I)
    return body


def _topic_of_when(spec) -> list[str]:
    """The question's topic stems without its window, its anchor, its subject and words of speaking."""
    return [t for t in said.focus_terms(_without_frame(spec, who=True)) if t not in SPEAKING]


def speaking_turn(ctx: AnswerContext) -> Result:
    """"When does the patient first say something?", "when does her husband speak for the last time?":
    the subject's first (or last) turn in the window."""
    spec = ctx.spec
    who = ctx.speakers_for(spec.subject)
    turns = [s for s in ctx.segments if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"])
             and (who is None or ctx.label_of(s) in who)]
    claim = {"kind": "turn", "speakers": sorted(who) if who else None}
    if not turns:
        return Result("Not found", f"{spec.subject.describe().capitalize()} does not speak {ctx.window_words()}.", [],
                      claim, False)
    pick = turns[-1] if spec.ordinal == "last" else turns[0]
    ev = ctx.evidence(pick, "time")
    return Result(format_clock(pick["start_s"]), f"{spec.subject.describe().capitalize()} ({ctx.label_of(pick)}) speaks "
                  f"for the {spec.ordinal} time {ctx.window_words()} at {span(ev)}: \"{pick['text'].strip()[:120]}\"",
                  [ev], claim)


def _called_in(ctx: AnswerContext) -> Result | None:
    """"When is Dorothy called through?": the call from the waiting room that leads into the consultation (the one
    nearest its start), else the first call in the recording."""
    from harp_desktop.findings.sections import CALL_IN

    calls = sorted((s for s in ctx.segments if CALL_IN.search(s["text"] or "")), key=lambda s: s["start_s"])
    if not calls:
        return None
    start = (ctx.consultation_span or (None, None))[0]
    pick = min(calls, key=lambda s: abs(s["start_s"] - start)) if start is not None else calls[0]
    e = ctx.evidence(pick, "time")
    return Result(format_clock(pick["start_s"]), f"{e.speaker} ({ctx.person(ctx.label_of(pick))}) calls them in at {span(e)}: "
                  f"\"{e.text.strip()[:120]}\".", [e], {"kind": "time"})


def when(ctx: AnswerContext) -> Result:
    spec = ctx.spec
    if lx.CALLED_THROUGH.search(spec.question) and not spec.quote:
        got = _called_in(ctx)
        if got is not None:
            return got
    if spec.section and BOUNDARY.search(spec.question) and len(_beyond_section(spec)) <= 1:
        # "When does the consultation start?", "when does the call to the daughter start?": the section's own edge
        # (the person it is with says which section, not whose turn).
        a, b = ctx.windows[0][0], ctx.windows[-1][1]
        ends = bool(re.search(r"\b(end|ends|ended|finish|finishes|over)\b", spec.question, re.I))
        t = b if ends else a
        segs = [s for s in ctx.segments if s["text"].strip() and a <= (s["start_s"] + s["end_s"]) / 2 <= b]
        seg = (segs[-1] if t == b else segs[0]) if segs else None
        cited = [ctx.evidence(seg, "time")] if seg else []
        t = (seg["end_s"] if t == b else seg["start_s"]) if seg else t
        if spec.section == "phone_call" and not ends and seg is not None:
            from harp_desktop.agent.answerers.sounds import events

            ring = [e for e in events(ctx, "telephone") if a - 1.0 <= e.start_s < seg["start_s"]]
            if ring:  # a call starts with its ring, before anyone speaks
                return Result(format_clock(ring[0].start_s), f"The phone call runs {format_clock(a)}-{format_clock(b)}: "
                              f"the phone rings at {span(ring[0])}, the first words at {span(cited[0])}.",
                              [ring[0]] + cited, {"kind": "time"})
        return Result(format_clock(t), f"The {spec.section.replace('_', ' ')} runs {format_clock(a)}-{format_clock(b)}"
                      + (f"; its {'last' if t == b else 'first'} words are at {span(cited[0])}." if cited else "."),
                      cited, {"kind": "time"})
    if spec.subject.kind != "anyone" and not spec.quote and not _topic_of_when(spec):
        return speaking_turn(ctx)
    concepts = question_concepts(ctx)
    scope = _without_frame(spec)  # "after the examination, when ... diagnosis?" asks about the diagnosis
    kinds = [k for k, p in KIND_WORDS.items() if p.search(scope)] if not concepts else []
    found = sorted((f for f in ctx.findings if (f.concept in concepts or f.kind in kinds) and _in_scope(ctx, f)
                    and (spec.subject.kind == "anyone" or _said_by_subject(ctx, f))), key=lambda f: f.start_s)
    cited = [_ev(ctx, f) for f in found]
    hits = _term_hits(ctx, ctx.spec.terms, ctx.speakers_for(ctx.spec.subject))
    key = said.rarest(ctx, spec.question)
    hits = [e for e in hits if said.carries(e.text, key)] if key else hits  # the topic word, not "gets"
    meant = False
    if not found and _unsaid_terms(ctx):
        # "Where does he first say the pain has shifted to the right?" when he said "moved": a word of the
        # question nobody says leaves only its commonest words to match; the turns that mean it answer instead.
        by_meaning = _meant_turns(ctx)
        if by_meaning:
            hits, meant = by_meaning, True
    # The first (or last) time the topic comes up is in the findings or in the words, whichever is
    # earlier: "let me examine you" comes before the first examination finding.
    seen = {(round(e.start_s), round(e.end_s)) for e in cited}
    cited = sorted(cited + [e for e in hits if (round(e.start_s), round(e.end_s)) not in seen], key=lambda e: e.start_s)
    claim = {"kind": "speech", "terms": ctx.spec.terms}
    values = lx.DECIMAL.findall(_without_frame(spec))
    if values and any(v in e.text for e in cited for v in values):
        # "When does the doctor say his temperature is 38.3?": the turn that says that value, not the first
        # mention of the temperature.
        cited = [e for e in cited if any(v in e.text for v in values)]
    if not cited:
        return Result("Not found", f"Nothing about {' '.join(ctx.spec.terms[:4]) or 'it'} was said "
                      f"{ctx.window_words()}.", [], claim, False)
    if READS_VALUE.search(spec.question) and not meant:
        # "when does the doctor read out his temperature?": the turn that says the value, not the one that
        # announces the measuring ("I'll take your temperature").
        valued = _value_turns(ctx, cited, [*key, *_topic_of_when(spec)])
        if valued:  # the value's turn need not repeat the measurement's name: it carries the time asked for
            cited, claim = valued, {"kind": "turn", "speakers": None}
    pick = cited[-1] if spec.ordinal == "last" else cited[0]
    # (A turn chosen by meaning has no word of the question to place the time on: its start.)
    t = pick.start_s if meant else _word_time(ctx, pick, [*key, *_topic_of_when(spec)])
    return Result(format_clock(t), f"{spec.ordinal.capitalize()} said at {span(pick)}"
                  + (f", the words at {format_clock(t)}" if abs(t - pick.start_s) >= 1.0 else "")
                  + f": \"{pick.text.strip()[:140]}\"", [pick, *[c for c in cited if c is not pick][:2]], claim)


MEANT_SHARE = 0.85  # turns scoring this share of the best-meaning turn are candidates for "the first time"


def _unsaid_terms(ctx: AnswerContext) -> list[str]:
    """Topic words of the question that no turn of the recording says."""
    terms = [t for t in said.focus_terms(lx.QUOTE_FREE.sub(" ", ctx.spec.question)) if t not in REPORTING]
    return [t for t, n in said.doc_freq(ctx, terms).items() if n == 0]


def _meant_turns(ctx: AnswerContext) -> list[Evidence]:
    """The turns that answer the question best by words and meaning together (``said.rank``), near the best."""
    ranked = said.rank(ctx)
    if not ranked or ranked[0][0] <= 0:
        return []
    best = ranked[0][0]
    return sorted((ctx.evidence(s, "keyword", sc) for sc, s in ranked if sc >= MEANT_SHARE * best),
                  key=lambda e: e.start_s)


VALUE = re.compile(r"\d{2}|\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\b", re.I)


def _value_turns(ctx: AnswerContext, cited: list[Evidence], stems: list[str]) -> list[Evidence]:
    """The turns that say the value of what is measured: a value after the measurement's words in the same
    turn ("your temperature is 37.8"), else the next turns of the next minute that say a value ("Three
    hundred and twenty" after "let's do your peak flow"); a value before those words is another reading's."""
    out: list[Evidence] = []
    want = set(stems)
    spoken = sorted((s for s in ctx.segments if s["text"].strip()), key=lambda s: s["start_s"])
    for e in cited:
        # A finding said in several turns ("I'll take your temperature" ... "Your temperature is 37.8") is read
        # turn by turn: the first that says a value after the measurement's words.
        own = [ctx.evidence(s, "time") for s in spoken if s["start_s"] < e.end_s and s["end_s"] > e.start_s
               and e.segment_id is not None] or [e]
        hit = None
        for x in own:
            words = x.text.split()
            at = next((i for i, w in enumerate(words) if want & set(lx.stems(w))), None)
            if VALUE.search(" ".join(words[at:] if at is not None else words)):
                hit = x  # the value after the measurement's words, or a turn that says only a value
                break
        if hit is not None:
            out.append(hit)
            continue
        nxt = next((s for s in spoken if e.end_s - 0.1 <= s["start_s"] <= e.end_s + 60 and VALUE.search(s["text"])), None)
        if nxt is not None:
            out.append(ctx.evidence(nxt, "time"))
    return sorted({(round(x.start_s, 2)): x for x in out}.values(), key=lambda x: x.start_s)


READS_VALUE = re.compile(r"\b(read(s|ing)? (out|back)|readings?|results?|gives? (him|her|them|you) the|tells? (him|her|them|you) "
                         r"(the|his|her|their|what)|what (his|her|the) \w+ (was|is))\b", re.I)


def _word_time(ctx: AnswerContext, ev: Evidence, stems: list[str]) -> float:
    """When, inside a long turn, the words asked about are said (word timestamps), not inside the window's
    start: "between 6:30 and 7:10, when is the first reading?" of a turn that began at 06:24."""
    lo = min((a for a, b in ctx.windows if b > ev.start_s), default=0.0)
    try:  # every word of the cited span (a finding's evidence may join several turns)
        words = list(ctx.lib.db.db.query("SELECT start_s, end_s, text FROM words WHERE recording_id = ? AND start_s >= ? "
                                         "AND start_s < ? ORDER BY start_s",
                                         [ctx.rec["id"], ev.start_s - 0.05, ev.end_s]))
    except Exception:  # noqa: BLE001 - an older library without word rows: the turn's start
        words = []
    want = set(stems)
    for i, w in enumerate(words):
        if w["start_s"] >= lo - 0.05 and want & set(lx.stems(w["text"] or "")):
            # the sentence that says it: back to the word after the last sentence end
            j = i
            while j > 0 and not re.search(r"[.?!]\s*$", words[j - 1]["text"] or "") and words[j - 1]["start_s"] >= lo:
                j -= 1
            return float(words[j]["start_s"])
    return max(ev.start_s, lo) if words else ev.start_s



def _kind_of(concept: str) -> str | None:
    """The vocabulary's kind of a concept ("vital", "symptom", ...), or None when it is not there."""
    from harp_desktop.findings.vocab import load

    got = load().concepts.get(concept)
    return got.kind if got is not None else None


def listing(ctx: AnswerContext) -> Result | None:
    """"What medication does she take?" / "what did the doctor advise?": findings of that kind, or None."""
    kinds = asked_kinds(ctx.spec.question)
    concepts = question_concepts(ctx)
    if not kinds and ctx.spec.operation == "what_said" and len(
            {c for c in concepts if _kind_of(c) == "vital"}) >= 2:
        kinds = ["vital"]  # "BP, HR and RR on the round?": each reading asked, not one turn that has one of them
    if not kinds:
        return None
    # A working diagnosis is a hedged one ("the most likely explanation is gastroenteritis"): it is the answer.
    ok = ("affirmed", "historical", "uncertain") if "diagnosis" in kinds else ("affirmed", "historical")
    pool = [f for f in ctx.findings if f.kind in kinds and _in_scope(ctx, f) and f.status in ok]
    role = {"patient": "patient", "clinician": "clinician"}.get(ctx.spec.subject.kind)
    if role and lx.REPORTED.search(ctx.spec.question):
        # "what did the patient say she had": her words, not the doctor's; none of hers -> the turn that answers
        pool = [f for f in pool if f.role == role]
    elif role and [f for f in pool if f.role == role]:
        pool = [f for f in pool if f.role == role]
    if "vital" in kinds:
        pool = _in_setting(ctx, pool)
    if concepts:
        narrowed = [f for f in pool if f.concept in concepts]
        if not narrowed and _of_kinds(concepts, kinds):
            # "BP reading?" with no blood-pressure finding: another vital (the weight) is not the answer;
            # the turn that says it is found by its words. ("Medicines for her asthma?" names a condition,
            # not a medicine: all her medicines stay the answer.)
            return None
        pool = narrowed or pool
    if not pool:
        return None
    # Examinations, diagnoses and plans are the clinician's words; a patient's "I had depression" is history.
    if set(kinds) <= {"examination", "diagnosis", "plan"} and any(f.role for f in pool):
        pool = [f for f in pool if f.role == "clinician"]
        if not pool:
            return None  # none of the clinician's own words name one: the turn that answers is found by meaning
    if set(kinds) == {"vital"}:  # one reading per measurement: the first said with a value
        firsts: dict = {}
        for f in sorted(pool, key=lambda f: f.start_s):
            prev = firsts.get(f.concept)
            if prev is None or (f.value and not prev.value):
                firsts[f.concept] = f
        pool = list(firsts.values())
    pool = sorted(pool, key=lambda f: f.start_s)[:6]
    if set(kinds) == {"vital"} and not any(f.value for f in pool):
        said_later = _values_after(ctx, pool)
        if said_later is not None:
            return said_later
    cited = [_value_ev(ctx, f) for f in pool]
    # A finding without a parsed value ("what temperature did she have?") shows its words instead.
    first = "; ".join(f.concept + (f" {f.value}" if f.value else f": \"{e.text.strip()[:90]}\"" if len(pool) <= 2 else "")
                      for f, e in zip(pool, cited, strict=True))
    said = "; ".join(f"\"{e.text.strip()[:140]}\" {span(e)}" for e in cited[:4])
    return Result(first[:160], f"From the {', '.join(kinds)} findings {ctx.window_words()}: {said}.", cited,
                  {"kind": "finding", "concepts": [f.concept for f in pool]})


# Where a reading was taken: at home (the patient's or a relative's thermometer, told to the clinician) or in the
# clinic (the clinician measuring it now). "What did her thermometer say at home?" is not the clinic's reading.
AT_HOME = re.compile(r"\bat home\b|\b(her|his|their|my|your|the) (own )?thermometer\b|\bhome (reading|temperature)\b|"
                     r"\bbefore (the appointment|coming in|(she|he|they) (came|come) in)\b|\bwhen (she|he|they) felt\b", re.I)
IN_CLINIC = re.compile(r"\bin (the )?(clinic|surgery|practice|consultation|room|department|hospital|a&e)\b|\btoday\b|"
                       r"\bwhen the (doctor|gp|nurse|clinician|practitioner) (took|checked|measured|did)\b|\bon (exam|examination)\b|"
                       r"\b(doctor|gp|nurse|clinician|practitioner) (measure|record|read|take|check|get)s?\b", re.I)


def _in_setting(ctx: AnswerContext, pool: list) -> list:
    """The readings of the setting the question names (home: said by the patient's side; clinic: the clinician's), or
    the pool unchanged when it names none or none of that setting was read."""
    q = ctx.spec.question
    home, clinic = AT_HOME.search(q), IN_CLINIC.search(q)
    if bool(home) == bool(clinic):
        return pool
    mine = [f for f in pool if (f.role == "clinician") == bool(clinic)]
    return mine or pool


def _values_after(ctx: AnswerContext, pool: list) -> Result | None:
    """A measurement announced ("now let's do your peak flow") whose values come in the next minute's turns
    ("320", "340, and the last one", "so your best today is 340"): those turns, the one sharing most of the
    question's other words ("best", "today") first; None when no later turn says a number."""
    ev = _ev(ctx, pool[0])
    spoken = sorted((s for s in ctx.segments if s["text"].strip()), key=lambda s: s["start_s"])
    later = [s for s in spoken if ev.end_s - 0.1 <= s["start_s"] <= ev.end_s + 60 and VALUE.search(s["text"])][:4]
    if not later:
        return None
    # A turn whose values are another measurement's ("his oxygen level is 98%, heart rate 122") is not this one's.
    own = [s for s in later if not _names_other_vital(s["text"], pool[0].concept)]
    later = own or later
    extra = set(beyond_concepts(ctx.spec.question))
    # (a tie goes to the turn saying more values: the summary "so your best today is 340, last year 450")
    best = max(later, key=lambda s: (len(extra & set(lx.stems(s["text"]))), len(VALUE.findall(s["text"])), -s["start_s"]))
    cited = [ctx.evidence(best, "time"), *[ctx.evidence(s, "time") for s in later if s is not best][:2], ev]
    first = next((x for x in re.split(r"(?<=[.!?])\s+|,\s*", best["text"]) if VALUE.search(x)
                  and extra & set(lx.stems(x))), None) or best["text"].strip()
    return Result(first[:160], f"{pool[0].concept} was measured at {span(ev)}; the values follow: "
                  + "; ".join(f"\"{e.text.strip()[:100]}\" {span(e)}" for e in cited[:3]) + ".", cited,
                  {"kind": "answer_words", "terms": support.answer_words(ctx.spec.question, first)})


def _names_other_vital(text: str, concept: str) -> bool:
    """Whether the text names a measurement other than ``concept`` and not ``concept`` itself."""
    from harp_desktop.findings.extract import mentioned_concepts
    from harp_desktop.findings.vocab import load

    vocab = load()
    named = [c for c in mentioned_concepts(text) if c in vocab.concepts and vocab.get(c).kind == "vital"]
    return bool(named) and concept not in named


def _of_kinds(concepts: list[str], kinds: list[str]) -> bool:
    """Some concept the question names is itself of a kind asked for (blood pressure is a vital)."""
    from harp_desktop.findings.vocab import load

    vocab = load()
    out = False
    for c in concepts:
        try:
            out = out or vocab.get(c).kind in kinds
        except KeyError:
            continue
    return out


COUNT_WORDS = {"times", "time", "occasions", "occasion", "separate", "different", "asks", "ask", "asked", "does", "put",
               "many", "often", "number", "total", "say", "says", "said", "speak", "speaks", "spoke", "speaking", "talk",
               "talks", "talked", "talking", "altogether", "overall", "whole", "recording"}


def _stem(w: str) -> str:
    return re.sub(r"(ly|ing|ed|es|s)$", "", w)[:5]


def counted_kinds(question: str) -> list[str]:
    """Kinds of finding a "how many" question counts by its head noun ("how many medicines / different
    tablets"), not by any later word ("how many percent was her oxygen level" counts no findings)."""
    m = re.search(r"\bhow many\s+((?:[\w'-]+\s+){0,2}[\w'-]+)", question, re.I)
    return [k for k, p in KIND_WORDS.items() if m and p.search(m.group(1))] if m else []


PRESCRIBED = re.compile(r"\bprescri\w*|\bon prescription\b|\bfrom (the|his|her) (gp|doctor)\b", re.I)
BOUGHT = re.compile(r"\b(buy|buys|buying|bought)\b|\bover[- ]the[- ]counter\b|\botc\b|\b(chemist|pharmacy|shop|supermarket)\b",
                    re.I)


INCLUDED = re.compile(r"\b(includ\w*|incl|inc|as well|too|also|counting|plus|along with)\b", re.I)
EXCLUDED = re.compile(r"\bnot (counting|including|the)\b|\bexclud\w*|\bexcept\b|\bapart from\b|\bother than\b|\bbesides\b"
                      r"|\bleaving out\b|\bwithout\b", re.I)


def _bought(ctx: AnswerContext, f) -> bool:
    """A medicine said to be bought, or named in answer to a question about what is bought."""
    if BOUGHT.search(f.text):
        return True
    ids = set(f.segment_ids)
    turns = sorted((s for s in ctx.segments if s["text"].strip()), key=lambda s: s["start_s"])
    k = next((i for i, s in enumerate(turns) if s["id"] in ids), None)
    prev = _other_voice_before(ctx, turns, k) if k is not None else None
    return bool(prev and BOUGHT.search(prev["text"]) and prev["start_s"] > turns[k]["start_s"] - 15)


def _other_voice_before(ctx: AnswerContext, turns: list[dict], k: int) -> dict | None:
    """Of the two turns before ``turns[k]`` (sorted, spoken), the nearer one by another voice: what it answers."""
    return next((p for p in reversed(turns[max(0, k - 2):k]) if ctx.label_of(p) != ctx.label_of(turns[k])), None)


DOSE_CHANGE = {"to", "from", "increased", "reduced", "raised", "lowered", "up", "down", "then", "now", "instead"}
MED_ASK = re.compile(r"\b(medication|medicines?|tablets?|pills?|inhalers?|take|taking|buy|bought|over the counter"
                     r"|anything else)\b", re.I)


def _unnamed_doses(ctx: AnswerContext, bought: bool | None = None) -> list[Evidence]:
    """Doses said in answer to a question about medicines that no recognised medicine owns: a dose
    belongs to the last medicine named before it in the turn, unless another dose came between
    ("Ibuprofen, 400 milligrams ... and [cetirizine garbled], 10 milligrams": the 10 mg is another medicine's)."""
    from harp_desktop.findings.vocab import dose_starts, load, tokenize

    vocab = load()
    turns = sorted((s for s in ctx.segments if s["text"].strip()), key=lambda s: s["start_s"])
    out = []
    for k, s in enumerate(turns):
        if not ctx.in_window(s["start_s"], s["end_s"]) or ctx.roles.get(ctx.label_of(s) or "") == "clinician":
            continue
        prev = _other_voice_before(ctx, turns, k)
        if prev is None or prev["start_s"] < s["start_s"] - 15 or not MED_ASK.search(prev["text"]):
            continue
        if bought is not None and bool(BOUGHT.search(prev["text"]) or BOUGHT.search(s["text"])) != bought:
            continue  # ``bought``: only answers about what is bought (True) or only the others (False)
        toks = tokenize(s["text"])
        drugs = [m.start for m in vocab.match(toks) if m.concept.kind == "medication"]
        prev_dose = -1
        for i in dose_starts(toks):
            # "5 milligrams, raised to 10 milligrams": a changed dose of the same medicine, not another one.
            if not any(prev_dose < d < i for d in drugs) and not DOSE_CHANGE & set(toks[max(0, i - 3):i]):
                out.append(ctx.evidence(s, "keyword", 1.0))
            prev_dose = i
    return out


DIGIT_WORDS = "zero one two three four five six seven eight nine".split()
UNIT_AFTER = re.compile(r"\s*(%|mg|ml|kg|cm|mm|s\b|secs?|seconds?|mins?|minutes?|hours?|days?|weeks?|months?|years?|units?|"
                        r"times|o'?clock|am\b|pm\b)", re.I)


def _said_numbers(spec) -> list[re.Pattern]:
    """A number the question counts mentions of ("how many times is 999 said?"), as ASR may write it: digits or
    the digits spoken one by one ("nine nine nine"). Numbers that are the window's, a unit's or a clock's are not."""
    q = spec.question.replace(spec.window_text or "\0", " ")
    out = []
    for m in re.finditer(r"(?<![\d:.])\b(\d{2,4})\b(?![:.]\d)", q):
        if UNIT_AFTER.match(q[m.end():]):
            continue
        spoken = r"\W+".join(DIGIT_WORDS[int(d)] for d in m.group(1))
        digits = r"[-\s]?".join(m.group(1))  # ASR may hyphenate a number read digit by digit ("9-99")
        out.append(re.compile(rf"(?<![\d.]){digits}(?!\.?\d)|\b{spoken}\b", re.I))
    return out


def count(ctx: AnswerContext) -> Result:
    """"How many questions does the patient ask?", "on how many occasions does the doctor say X?":
    the subject's turns in the window that carry the thing counted."""
    spec = ctx.spec
    kinds = counted_kinds(spec.question)
    if kinds and not spec.quote:
        # "How many medicines does he take?": distinct findings of that kind, not turns.
        found = {f.concept: f for f in sorted(ctx.findings, key=lambda f: f.start_s)
                 if f.kind in kinds and _in_scope(ctx, f) and f.status in ("affirmed",) and f.role != "clinician"}
        # "prescribed or bought", "over-the-counter ones included": all of them
        every = bool(BOUGHT.search(spec.question) and (PRESCRIBED.search(spec.question) or INCLUDED.search(spec.question))
                     and not EXCLUDED.search(spec.question))
        if "medication" in kinds and (PRESCRIBED.search(spec.question) or BOUGHT.search(spec.question)) and not every:
            # "How many prescribed medicines?": not the ones named in answer to "anything you buy?";
            # "how many over-the-counter ones?": only those.
            bought = {c for c, f in found.items() if _bought(ctx, f)}
            keep_bought = bool(BOUGHT.search(spec.question)) and not PRESCRIBED.search(spec.question)
            found = {c: f for c, f in found.items() if (c in bought) == keep_bought}
        cited = [_ev(ctx, f) for f in found.values()]
        only = None if every or not (PRESCRIBED.search(spec.question) or BOUGHT.search(spec.question)) \
            else not PRESCRIBED.search(spec.question)  # True: bought ones only; False: prescribed ones only
        unnamed = _unnamed_doses(ctx, only) if kinds == ["medication"] else []
        if unnamed:
            # A dose whose medicine ASR did not render ("mippers oil, 20 milligrams") is still a medicine taken.
            found.update({f"a medicine not heard clearly ({n})": None for n in range(1, len(unnamed) + 1)})
            cited += unnamed
        if not found:
            return Result("0", f"No {' or '.join(kinds)} of that kind is stated {ctx.window_words()}.", [],
                          {"kind": "finding", "concepts": []}, True)
        return Result(str(len(found)), f"{len(found)} {', '.join(kinds)} finding(s) {ctx.window_words()}: "
                      + "; ".join(f"{c} {span(e)}" for c, e in zip(found, cited, strict=True)) + ".", cited,
                      {"kind": "finding", "concepts": list(found)}, bool(found))
    who = ctx.speakers_for(spec.subject)
    # Who is counted ("the husband", SPEAKER_6) is not what is said.
    named = set(lx.content_terms(spec.subject.name or "")) | {(spec.subject.name or "").lower()} | \
        {n.lower() for n in re.findall(r"SPEAKER_\d+ \((\w+)\)", spec.question)}
    terms = [t for t in spec.terms if t not in COUNT_WORDS and t not in named]
    asks = any(t.startswith("question") for t in terms)
    about = re.search(r"\babout\s+(.{3,60}?)\s*[?.]?$", spec.question, re.I)
    # Counting someone's questions: every question of theirs, unless the question says what about.
    terms = lx.content_terms(about.group(1)) if asks and about else [] if asks else \
        [t for t in terms if not t.startswith("question")]
    stems = [_stem(t) for t in terms if len(t) > 3]
    said_numbers = _said_numbers(spec)
    # "On how many occasions does she ask him to breathe in deeply?": an occasion holds the words
    # together (breathe AND deep), not any one of them; with many words, two of every three.
    need = len(stems) if len(stems) <= 3 else max(2, (2 * len(stems) + 2) // 3)
    hits = []
    for s in ctx.segments:
        if not s["text"].strip() or not ctx.in_window(s["start_s"], s["end_s"]):
            continue
        if who is not None and ctx.label_of(s) not in who:
            continue
        words = [_stem(w) for w in re.findall(r"[a-z']+", s["text"].lower())]
        if stems and sum(st in words or any(w.startswith(st) for w in words) for st in stems) < need:
            continue
        if said_numbers and not any(p.search(s["text"]) for p in said_numbers):
            continue
        n = s["text"].count("?") if asks else 1
        hits += [ctx.evidence(s, "keyword")] * n
    what = "questions" if asks else f"turns mentioning {' '.join(terms[:3])}" if terms else "turns"
    by = "" if spec.subject.kind == "anyone" else f" by {spec.subject.describe()}"
    claim = {"kind": "speech", "terms": terms}
    uniq = list({id(e): e for e in hits}.values())
    if not hits:
        return Result("0", f"No {what}{by} {ctx.window_words()}.", [], claim, True)
    return Result(str(len(hits)), f"{len(hits)} {what}{by} {ctx.window_words()}: {cites(uniq, 12)}.", uniq, claim)
