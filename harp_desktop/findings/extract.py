"""Findings from diarised turns: concepts, their status, who said them and when.

Pure and fast (no model): turns -> utterances (a speaker's consecutive turns) -> sentences ->
concept matches (vocab) -> status (assertion) and values (values) -> findings. A question and
its answer are one statement: the concepts a question asks about become findings only through
the answer, said by the one who answered ("Any blood in it?" / "No, no blood at all").
"""

from __future__ import annotations

import re

from .assertion import (
    answer_polarity,
    clause_ids,
    dates_in_past,
    has_fine_word,
    is_resolution,
    opens_answer,
    quality,
    sentence_status,
)
from .discourse import inherited_status, medicine_requests, questions_by_reply, resolve_it, resolve_pain
from .model import Finding, Turn
from .values import describe, find_values
from .vocab import VOCAB_PATH, Match, Sentence, Utterance, Vocabulary, key, load, tokenize, utterances

VOCABULARY_PATH = VOCAB_PATH  # the index stage hashes it into its fingerprint

# Which values belong to which kind of finding.
_VALUE_KINDS = {
    "medication": ("dose", "frequency"),
    "vital": ("temperature", "bp", "percent", "rate", "weight"),
    "history": ("per_day", "ago", "duration"),
    "symptom": ("duration",),
    "plan": ("duration",),
}
_VITAL_VALUE = {"body temperature": "temperature", "blood pressure": "bp", "oxygen saturation": "percent",
                "heart rate": "rate", "respiratory rate": "rate", "body weight": "weight"}
# Questions a yes or a no does not answer.
_OPEN_QUESTION = ("how", "how's", "hows", "what", "what's", "when", "when's", "where", "which", "who", "why")
_FIRST_PERSON = frozenset("i i'm i've i'd me my myself".split())
_THIRD_PERSON = frozenset("she her he him his she's he's".split())
# How a speaker says a complaint is their own ("i've been" sneezing, "i've got" a sore throat).
_OWN = frozenset(tuple(p.split()) for p in "i've been|i have been|i've got|i have got|i've had|i have had|i've caught|"
                 "i caught|i'm getting|i've been getting".split("|"))
_OWN_FILLER = frozenset("a an some the bit of really bad terrible awful horrible nasty slight and , also".split())
_SUBORDINATE = frozenset("when while whilst after because if since who which".split())
# Words of a question's concept phrase that do not by themselves name it in an answer.
_NOT_ELLIPTIC = frozenset(
    "a an the any my your in it of at all on to up pain pains feeling feel problem problems bit some have had has get "
    "getting been chest head back arm leg neck stomach tummy throat ear eye eyes nose skin when you i cough coughing "
    "bringing coming go goes down into".split())
# A question about a property of something already named: "Does the tightness spread to your
# arm?" asks where the tightness goes, not whether it is there. The concept is named with a
# definite word and the question says more than its name.
_DEFINITE = frozenset("the your my this that these those his her".split())
_PROPERTY_KINDS = frozenset("symptom diagnosis medication examination".split())
# Words that ask only whether something is there (or carry nothing): "Have you still got the rash?"
_EXISTENCE = frozenset(
    "do does did is are was were has have had am can could would will you your i my me it its it's the a an any "
    "this that these those there still got get getting gotten been being at all ever now currently today recently "
    "anymore any more also too and or , ; : notice noticed noticing experience experienced suffer suffering "
    "around present same bit little".split())
DEDUPE_S = 30.0  # the same fact from the same voice within this many seconds is said once


def _version() -> str:
    """The rules' own fingerprint: any edit to these modules re-runs the findings stage."""
    from harp_desktop.findings.digest import modules_digest

    return "extract-" + modules_digest(("extract", "vocab", "sites", "tokens", "assertion", "values", "questions", "discourse"))


VERSION = _version()


def mentioned_concepts(text: str) -> list[str]:
    """Preferred terms a text names, whatever its form or status ("Did the patient report
    shortness of breath?" -> ["dyspnoea"]). ``extract`` gives nothing for an unanswered
    question by design, so a question's own concepts come from here."""
    vocab = load()
    return list(dict.fromkeys(m.concept.term for m in vocab.match(tokenize(text)) if m.how != "probe"))


def extract(turns: list[Turn]) -> list[Finding]:
    """All findings of a stretch of diarised turns, in time order."""
    vocab = load()
    utts = utterances(turns, vocab)
    proxies = proxy_voices(utts)
    own_voices = speaking_for_themselves(utts) if proxies else set()
    pronouns = _proxy_pronouns(utts, proxies)
    for u in utts:
        u.proxy = u.speaker in proxies
        u.proxy_pronoun = pronouns.get(u.speaker)
        if u.role == "other" and u.speaker in own_voices:
            u.role = "patient"  # the child a parent answers for, speaking for itself: "my ear hurts"
    questions_by_reply(utts)
    resolve_pain(utts, vocab)
    resolve_it(utts, vocab)
    requests = medicine_requests(utts)
    inherit = inherited_status(utts)
    elicited: set[int] = set()  # findings that answer a clinician's question
    paired = _pairs(utts, vocab, elicited)
    out: list[Finding] = []
    for ask, reply, s, m, st in requests:  # "Can I take loperamide?" "I'd rather you didn't"
        for f in _emit(vocab, m.concept.term, st, reply, [reply.sentences[0]], ask, m, question=s):
            f.value = None  # a dose said in the request is not one prescribed
            out.append(f)
    for u in utts:
        for si, s in enumerate(u.sentences):
            if s.question:
                continue
            for m in s.matches:
                q, pol, qlocal = paired.pop((id(u), si, m.start), (None, None, None))
                st = _statement_status(u, si, m)
                if st is None:
                    continue
                if q is not None and st == "affirmed" and (qlocal == "family" or (si > 0 and pol == "historical")):
                    st = qlocal if qlocal == "family" else pol  # "Do you smoke?" "I gave up. Before that I smoked..."
                if si == 0 and st == "affirmed" and m.concept.kind == "symptom" and id(u) in inherit:
                    st = inherit[id(u)]  # "[the rash has gone] Was it itchy?" "A bit itchy": itching then, not now
                out += _emit(vocab, m.concept.term, st, u, [s], q, m)
                if q is not None and q.role == "clinician":
                    elicited.update(id(f) for f in out[-1:])
    for f in paired.values():  # pairs whose answer named nothing: the answer's polarity decided
        if isinstance(f, list):
            out += f
    return _dedupe(_known_facts(_read_backs(_roles(_derive(vocab, out), elicited))))


def _statement_status(u: Utterance, si: int, m: Match) -> str | None:
    s = u.sentences[si]
    if m.how == "probe":  # "My breathing feels normal": only with a word for how it is
        return quality(s.clause_tokens(m.start))
    st = sentence_status(u, si, m)
    if st == "negated" and m.concept.kind == "diagnosis" and _still_watched(s.tokens[m.end :]):
        return "uncertain"  # "I don't think it is appendicitis, but it's something we need to watch"
    if m.how == "absent":  # "the air is getting in well" says there is no reduced air entry
        return {"affirmed": "negated", "negated": "affirmed"}.get(st, st)
    return st


# After a "but": the clinician keeps a doubted diagnosis open.
_WATCH = tuple(tuple(p.split()) for p in (
    "watch|monitor|keep an eye|in mind|rule out|rule it out|exclude|be sure|make sure|check|safe side|just in case|"
    "can't be certain|can't be sure").split("|"))


def _still_watched(after: list[str]) -> bool:
    if "but" not in after:
        return False
    rest = after[after.index("but") + 1 :]
    return any(tuple(rest[i : i + len(p)]) == p for i in range(len(rest)) for p in _WATCH)


def _pairs(utts: list[Utterance], vocab: Vocabulary, elicited: set[int]) -> dict:
    """Question-answer pairs. Keys (utterance, sentence, start) of answer mentions map to the
    question utterance (so the mention's finding spans both); ints map to ready findings."""
    paired: dict = {}
    seen: set[str] = set()  # concepts named before the question (grown as the loop goes)
    for k, u in enumerate(utts[:-1]):
        if k:
            seen.update(x.concept.term for t in utts[k - 1].sentences for x in t.matches)
        block = u.trailing_questions()
        a = utts[k + 1]
        if not block or a.speaker == u.speaker or not a.sentences:
            continue
        first = a.sentences[0].tokens
        pol = answer_polarity(first)
        foci = [(s, m) for s in block for m in s.focus(_SUBORDINATE)]
        mentions = [_find_mention(a, m) for _, m in foci]
        for (s, m), mention in zip(foci, mentions, strict=True):
            open_q = bool(s.tokens) and s.tokens[0] in _OPEN_QUESTION
            if m.how == "probe" and not open_q and any(x.how != "probe" for x in s.matches):
                continue  # "Any pain when you pass water or eating to go more often": the complaint is asked, not "eating"
            if mention is not None:
                paired[(id(a), *mention)] = (u, pol, sentence_status(None, 0, m, sentence=s))
                continue
            if any(mentions) and _rest_denied(a):
                # "Any headaches, nosebleeds, trouble with your eyes?" "The odd headache. The rest no."
                f = _emit(vocab, m.concept.term, "negated", a, [a.sentences[0]], u, m, question=s)
                paired[len(paired) + 10**9] = f
                continue
            if any(mentions):
                continue  # "Eaten anything unusual, or been abroad?" "I haven't been abroad": the No is about travel
            if (open_q or pol != "affirmed") and u.role == "clinician" and _presupposed(s, m) and m.concept.term not in seen:
                # "How's the back pain this week?" "Not too bad today", "How often are you using the
                # inhaler?" "Most days", "Any problems taking the metformin?" "I forget the evening one":
                # a concept the clinician names as known, first named here, is there unless the answer
                # says it has gone. Named before, it keeps what was said of it then.
                st = "historical" if _says_over(a) else (
                    # "What about the chest pain?" "None": a No to a wh-question is about the concept; to a
                    # yes/no question about a property ("does the tightness spread?") it is about the property.
                    "negated" if pol == "negated" and (open_q or not _asks_property(s, m)) else "affirmed")
                f = _emit(vocab, m.concept.term, st, a, [a.sentences[0]], u, m, question=s)
                paired[len(paired) + 10**9] = f
                continue
            if pol != "affirmed" and _asks_property(s, m):
                continue  # "Does the tightness spread to your arm?" "No": the tightness is still there
            if m.concept.kind == "allergy" and _allergy_answer(vocab, a, u, paired):
                continue
            if _answers_something_else(a, foci, first) or (pol == "negated" and _narrower_named(a, m)):
                continue
            st = _answer_status(s, m, a, first, open_q)
            if st is not None:
                f = _emit(vocab, m.concept.term, st, a, [a.sentences[0]], u, m, question=s)
                paired[len(paired) + 10**9] = f
                if f and u.role == "clinician":
                    elicited.update(id(x) for x in f)
    return paired


_FLIP = {"affirmed": "negated", "negated": "affirmed"}
_KNOWN = frozenset("the your this that these those".split())
_NOW = frozenset("now still currently".split())
# An answer to a list question that denies what it did not name.
_REST = tuple(tuple(p.split()) for p in (
    "the rest no|rest no|the rest , no|the rest is fine|the rest are fine|the rest are okay|the rest is okay|"
    "none of the others|none of the rest|not the others|not the rest|the others no|the others , no|"
    "the others are fine|nothing else|no to the rest|no to the others|rest of it no|rest of them no|"
    "the other things no|not the other").split("|"))


def _rest_denied(a: Utterance) -> bool:
    return any(tuple(s.tokens[i : i + len(p)]) == p for s in a.sentences for p in _REST for i in range(len(s.tokens)))


def _presupposed(q: Sentence, m: Match) -> bool:
    """The question names ``m`` as something the patient has: a definite word right before it
    ("the cough you mentioned", "your inhaler") in a question that asks about it rather than
    whether it is there (an open question, or one about a property)."""
    before = q.tokens[m.start - 1] if m.start else ""
    # "your" presupposes a medicine ("your inhaler"), not a symptom ("any palpitations, like your heart racing?")
    if m.concept.kind not in _PROPERTY_KINDS or m.how == "probe" or before not in _KNOWN or (
            before == "your" and m.concept.kind != "medication"):
        return False
    return _asks_property(q, m) or any(t in _OPEN_QUESTION for t in q.tokens)


def _says_over(a: Utterance) -> bool:
    """The answer says it has gone or been stopped ("It stopped when I came off them"), and not
    that some of it goes on ("Just two at night now. I don't need them in the day anymore")."""
    over = any(answer_polarity(t.tokens) == "historical" or is_resolution(t.tokens) for t in a.sentences)
    first = a.sentences[0].tokens
    return over and not (answer_polarity(first) == "affirmed" or _NOW.intersection(first))


def _asks_property(q: Sentence, m: Match) -> bool:
    """Whether question ``q`` asks about a property of ``m`` (where it goes, when it comes, how bad
    it is: "Is the cough worse at night?", "Has the rash spread to your face?", "Any wheeze with
    the cough?") rather than whether ``m`` is there ("Any chest pain?", "Does your back hurt?",
    "Have you still got the rash?"): ``m`` is named with a definite word and the question has
    words beyond its name and the words of asking (another concept counts). A No then answers
    the property; the concept itself keeps what was said of it."""
    if m.concept.kind not in _PROPERTY_KINDS or m.how == "probe" or m.start == 0:
        return False
    k = m.start - 1
    if q.tokens[k] not in _DEFINITE:
        return False
    start = next((i for i, t in enumerate(q.tokens) if t not in _OPEN_QUESTION), 0)
    rest = [t for i, t in enumerate(q.tokens) if i >= start and not m.start - 1 <= i < m.end]
    return any(t not in _EXISTENCE and t not in _OPEN_QUESTION for t in rest)


def _answers_something_else(a: Utterance, foci: list, first: list[str]) -> bool:
    """"Any other symptoms, any headaches, crashes or joint pains?" (ASR for "rashes") / "I had
    a rash on my arms last week, but it's cleared up now": with no yes or no first, an answer
    naming a concept nobody asked about is about that concept; its "cleared up" says nothing
    of the headaches."""
    asked = {m.concept.term for _, m in foci}
    own = any(x.how != "probe" and x.concept.term not in asked for x in a.sentences[0].matches)
    if own and any(m.how == "probe" for _, m in foci):
        # "Have you been eating?" "Not much, half a sandwich and a cup of tea": how it is, said first, answers
        # the function asked about; what the rest names is the detail.
        cut = next((i for i, t in enumerate(first) if t in (",", ".", ";")), len(first))
        if quality(first[:cut]) is not None:
            return False
    return own and not opens_answer(first) and not relative_did(first)


_RELATIVES = frozenset("mother mum mom mam dad father brother sister nan nana gran granny grandma grandmother grandad grandpa "
                       "grandfather aunt auntie uncle cousin son daughter wife husband".split())
_BARE_AUX = frozenset("did does has had was is do have".split())


def relative_did(first: list[str]) -> bool:
    """"Our mother did, she broke her hip", "my dad has": a relative and a bare auxiliary answer a
    family question Yes, whatever else the answer goes on to name."""
    i = 1 if first[:1] and first[0] in ("my", "our", "her", "his", "their", "your") else 0
    return (len(first) > i + 1 and first[i] in _RELATIVES and first[i + 1] in _BARE_AUX
            and (len(first) == i + 2 or first[i + 2] in (",", ".", "too", "though", "yes", "yeah")))


def _narrower_named(a: Utterance, m: Match) -> bool:
    """The answer describes a narrower concept of the one asked as absent ("...when you cough?" (ASR lost "any
    phlegm") / "No, nothing comes up, it's completely dry": no productive cough): its No is that one's, not the
    cough's. ("No, and no productive cough either" names it outright: both are denied.)"""
    words = set(m.concept.term.split())
    return any(x.how == "absent" and x.concept.term != m.concept.term and x.concept.kind == m.concept.kind
               and words < set(x.concept.term.split()) for s in a.sentences for x in s.matches)


def _answer_status(q: Sentence, m: Match, a: Utterance, first: list[str], open_q: bool) -> str | None:
    if m.how == "probe":
        if open_q:
            return quality(first)
        pol = answer_polarity(first)
        if has_fine_word(q.tokens) and pol in ("affirmed", "negated"):  # "Sleeping okay?" "Not really."
            return "negated" if pol == "affirmed" else "affirmed"
        if pol is None:  # "Any change in your appetite?" "About the same, I'm not eating any less": how it is
            return quality(first)
        return pol if pol != "family" else None
    if open_q:
        return None  # "How's the cough?" "Better": not a yes or a no
    pol = answer_polarity(first)
    if m.how == "absent" and pol in _FLIP:
        pol = _FLIP[pol]  # "Is the cough completely dry?" "Yes": no phlegm
    local = sentence_status(None, 0, m, sentence=q)  # "anyone in your family", "as a child"
    if pol == "affirmed":
        if local not in ("family", "historical") and any(dates_in_past(t.tokens) for t in a.sentences[:2]):
            return "historical"  # "Has he had chickenpox?" "Yeah, at nursery, two years ago"
        return local if local in ("family", "historical") else "affirmed"
    if pol == "historical" and local == "family":
        return "family"
    if pol == "family" and m.concept.kind != "history" and local != "family":
        return None  # a Yes about someone else is not an answer about this
    return pol


def _find_mention(a: Utterance, m: Match) -> tuple[int, int] | None:
    """Where the answer names the asked concept, in full or by a word of the question's phrase
    ("a sharp pain?" / "It isn't sharp")."""
    words = {w for w in m.surface.split() if w not in _NOT_ELLIPTIC and len(w) > 2}
    for si, s in enumerate(a.sentences):
        for x in s.matches:
            if x.concept.term == m.concept.term and x.how != "probe":  # "every night" does not name sleep
                return si, x.start
    for si, s in enumerate(a.sentences):
        if s.question:
            continue
        for i, t in enumerate(s.tokens):
            if t in words and not any(x.start <= i < x.end for x in s.matches):
                s.matches.append(Match(m.concept, i, i + 1, t, "ellipsis"))
                s.matches.sort(key=lambda x: x.start)
                return si, i
    return None


def _allergy_answer(vocab: Vocabulary, a: Utterance, q: Utterance, paired: dict) -> bool:
    """"Any allergies?" / "Penicillin, it gives me a rash. And ibuprofen too.": the drugs named
    are the allergies."""
    found = False
    for si, s in enumerate(a.sentences):
        for x in s.matches:
            if x.concept.kind == "medication":
                x.concept = vocab.allergy_for(x.concept)
                paired[(id(a), si, x.start)] = (q, None, None)
                found = True
    return found


def _emit(vocab: Vocabulary, term: str, status: str, u: Utterance, sents: list[Sentence],
          q: Utterance | None, m: Match, question: Sentence | None = None) -> list[Finding]:
    keys = tuple(key(t) for t in m.surface.split())
    # (a stacked modifier, "a dry, tickly cough", is keyed by its two ends)
    also = (vocab.absent_also.get(keys) or vocab.absent_also.get((keys[0], keys[-1]))) if m.how == "absent" else None
    if also is None:
        return _emit_one(vocab, term, status, u, sents, q, m, question)
    plain = Match(also, m.start, m.end, m.surface, "exact")
    if status in _FLIP:  # "a dry cough" is also a cough: said with the opposite sign
        return _emit_one(vocab, term, status, u, sents, q, m, question) + _emit_one(
            vocab, also.term, _FLIP[status], u, sents, q, plain, question)
    # "A dry, tickly cough is a known side effect": a cough, hypothetically; the absence of phlegm it names is no
    # finding of its own when the cough is not said to be there
    return _emit_one(vocab, also.term, status, u, sents, q, plain, question)


def _emit_one(vocab: Vocabulary, term: str, status: str, u: Utterance, sents: list[Sentence],
              q: Utterance | None, m: Match, question: Sentence | None = None) -> list[Finding]:
    c = vocab.get(term)
    if c.fixed_status:
        status = c.fixed_status
    if u.role == "clinician" and c.as_exam and status in ("affirmed", "negated") and not sents[0].recap():
        c = vocab.get(c.as_exam)  # "I can hear a wheeze" is an examination finding
    if c.term == "follow-up" and status == "hypothetical" and u.role == "clinician":
        c, status = vocab.get("safety-netting"), "affirmed"  # "if it gets worse, come back and see me"
    if c.kind == "vital" and status == "negated":
        return []  # "I haven't checked my temperature": a reading not taken is not a finding
    if c.term == "sick contacts" and status == "family":
        status = "affirmed"
    if u.role == "clinician" and c.kind in ("symptom", "diagnosis") and status == "affirmed" and _own_complaint(sents[0], m):
        status = "family"  # "I've been sneezing all week": not the patient's (a companion the diariser gave this voice)
    own = next((x for x in u.sentences if any(y is m for y in x.matches)), sents[0])  # the sentence naming it
    if (u.role == "other" or u.proxy) and status != "hypothetical" and _about_self(own.tokens, m):
        if status == "negated":
            return []  # a companion denying something of their own says nothing about the patient
        status = "family"  # the companion's own cold or smoking, not the patient's
    if u.proxy_pronoun and status != "hypothetical" and _other_sex_only(own.tokens, m, u.proxy_pronoun):
        status = "family"  # a parent speaking of "he" all along: "her sore throat's gone" is the sister's
    segs = {i for s in sents for i in s.segments}
    if q is not None:
        qsents = [question] if question is not None else q.trailing_questions()
        segs |= {i for s in qsents for i in s.segments}
        turns = q.turns + u.turns
    else:
        turns = u.turns
    chosen = [t for t in turns if t.segment_id in segs] or u.turns
    return [Finding(
        concept=c.term, category=c.category, kind=c.kind, status=status, speaker=u.speaker, role=u.role,
        start_s=min(t.start_s for t in chosen), end_s=max(t.end_s for t in chosen),
        text=" ".join(t.text.strip() for t in chosen), value=_value(c.term, c.kind, u, sents[0], m),
        segment_ids=tuple(t.segment_id for t in chosen),
    )]


def _own_complaint(s: Sentence, m: Match) -> bool:
    """The speaker reporting a complaint of their own: "I've been sneezing all week and I've got a
    sore throat and a runny nose" -- an experiencer phrase right before the concept (articles and
    a "bad" between) or before the complaint it is listed with. "I've had a look at your chest",
    "I had a patient with a cough", "I can feel a lump" are not it."""
    i = m.start
    while i > 0 and s.tokens[i - 1] in _OWN_FILLER:
        i -= 1
    if any(tuple(s.tokens[max(0, i - len(p)): i]) == p for p in _OWN):
        return True
    prev = next((x for x in s.matches if x.end <= i and x.end >= i - 1 and x is not m), None)
    return prev is not None and s.tokens[prev.end: m.start][:1] in (["and"], [","]) and _own_complaint(s, prev)


_HE, _SHE = frozenset("he him his he's himself".split()), frozenset("she her hers she's herself".split())


def _proxy_pronouns(utts: list[Utterance], proxies: set[str]) -> dict[str, str]:
    """Proxy voice -> "he" or "she": the pronoun it uses for the patient, when it uses one at least three
    times as often as the other."""
    out = {}
    for k in proxies:
        words = [t for u in utts if u.speaker == k for s in u.sentences if not s.question for t in s.tokens]
        he, she = sum(t in _HE for t in words), sum(t in _SHE for t in words)
        if he >= 3 * max(she, 1):
            out[k] = "he"
        elif she >= 3 * max(he, 1):
            out[k] = "she"
    return out


def _other_sex_only(tokens: list[str], m: Match, pronoun: str) -> bool:
    """The concept's clause speaks of a person of the other sex than the patient, and not of the patient."""
    ids = clause_ids(tokens)
    k = min(m.start, len(tokens) - 1)
    clause = {t for t, c in zip(tokens, ids, strict=True) if c == ids[k]} if tokens else set()
    mine, other = (_HE, _SHE) if pronoun == "he" else (_SHE, _HE)
    return bool(clause & other) and not clause & mine


def _about_self(tokens: list[str], m: Match) -> bool:
    """A companion speaking of themselves: first person and no third person in the concept's
    clause ("I've got type 2 myself, so I know ..., and she's drinking like a fish"); "my son has
    an earache" names another person, not the speaker."""
    ids = clause_ids(tokens)
    k = min(m.start, len(tokens) - 1)
    clause = [t for t, c in zip(tokens, ids, strict=True) if c == ids[k]] if tokens else []
    return _person(clause) == "first"


def _person(tokens: list[str]) -> str | None:
    """"first" when only the speaker is spoken of, "third" when someone else is ("he", "her", "my son"), or None."""
    if _THIRD_PERSON.intersection(tokens) or any(a == "my" and b in _RELATIVES | _CHILD_WORDS
                                                  for a, b in zip(tokens, tokens[1:], strict=False)):
        return "third"
    return "first" if _FIRST_PERSON.intersection(tokens) else None


_CHILD_WORDS = frozenset("boy girl child kid baby lad little youngest eldest".split())
PROXY_MIN_CLAUSES = 3  # third-person statements a voice needs before it counts as answering for someone


def _person_counts(utts: list[Utterance], role: str) -> dict[str, list[int]]:
    """speaker -> [third-person-only statements, first-person-only statements] of the voices with ``role``."""
    counts: dict[str, list[int]] = {}
    for u in utts:
        if u.role != role or u.speaker is None:
            continue
        for s in u.sentences:
            person = None if s.question else _person(s.tokens)
            if person is not None:
                counts.setdefault(u.speaker, [0, 0])[0 if person == "third" else 1] += 1
    return counts


def speaking_for_themselves(utts: list[Utterance]) -> set[str]:
    """When a proxy answers for the patient, the other voice of the consultation that speaks of itself and
    names a complaint ("No, I don't want you to look in my sore ear, it hurts") is the patient."""
    counts = _person_counts(utts, "other")
    complains = {u.speaker for u in utts if u.role == "other" and any(
        m.concept.kind == "symptom" for s in u.sentences if not s.question for m in s.matches)}
    return {k for k, (third, first) in counts.items() if first > third and k in complains}


def proxy_voices(utts: list[Utterance]) -> set[str]:
    """Voices taken as the patient that speak of the patient, not of themselves: most of their statements
    (replies to a question name no concept, so all count) are in the third person ("he's been really hot since yesterday", "no,
    she hasn't been sick") -- a parent answering for a child, a carer for someone with dementia. Their
    first-person-only statements ("the inhaler's mine, I've got asthma") are then their own, as a
    companion's are. A patient who mentions a relative now and then ("my wife says I snore") is not one:
    third-person-only statements must be at least twice the first-person-only ones."""
    counts = _person_counts(utts, "patient")
    return {k for k, (third, first) in counts.items() if third >= PROXY_MIN_CLAUSES and third >= 2 * first}


def _value(term: str, kind: str, u: Utterance, s: Sentence, m: Match) -> str | None:
    kinds = _VALUE_KINDS.get(kind, ())
    if term == "fever":
        kinds = ("temperature", "duration")
    if term in _VITAL_VALUE:
        kinds = (_VITAL_VALUE[term],)
    if not kinds:
        return None
    # The sentence's values after this concept and before the next one; for doses, readings and
    # habits also the following sentences that name nothing ("Levothyroxine. Fifty micrograms.").
    nxt = min((x.start for x in s.matches if x.start > m.start and x.concept.kind == kind), default=len(s.tokens))
    vals = [v for v in find_values(s.tokens) if (v.start >= m.start or kind != "medication") and v.start < nxt]
    if kind in ("medication", "vital", "history") or term == "fever":
        idx = u.sentences.index(s)
        for later in u.sentences[idx + 1 : idx + 3]:
            if later.matches or later.question:
                break
            vals += find_values(later.tokens)
    if term in ("heart rate", "respiratory rate"):
        # "pulse 94 and breathing 20 a minute": the number right after the word is its reading, before any rate
        # said later in the sentence (which is the breathing's)
        near = next((w for w, i, _ in s.numbers() if m.end <= i <= m.end + 2 and re.fullmatch(r"\d{2,3}", w)
                     and 5 <= int(w) <= 230), None)
        if near is not None:
            return near
    value = describe(vals, kinds)
    if value is None and term in ("heart rate", "respiratory rate", "blood glucose"):
        value = next((w for w, i, _ in s.numbers() if w[0].isdigit() and i >= m.end), None)  # "pulse is 102"
    return value


def _derive(vocab: Vocabulary, fs: list[Finding]) -> list[Finding]:
    """Someone around the patient with an infection is a sick contact."""
    extra = []
    for f in fs:
        if f.status == "family" and vocab.get(f.concept).contagious:
            c = vocab.get("sick contacts")
            extra.append(Finding(c.term, c.category, c.kind, "affirmed", f.speaker, f.role, f.start_s, f.end_s,
                                 f.text, None, f.segment_ids))
    return fs + extra


_KNOWN_KINDS = frozenset("medication history diagnosis".split())


def _known_facts(fs: list[Finding]) -> list[Finding]:
    """The clinician's hedged or conditional re-mention of a medicine, a habit or a condition the
    consultation already established adds no finding: the hedge is about its effect, not its
    existence ("using the blue inhaler so often ... might be part of it", "if your inhaler isn't
    helping", "probably from the chicken at the barbecue", "a thyroid dose that might be a bit
    high"). Symptoms are not such facts: "if the pain gets worse" is a safety-net finding."""
    fs = sorted(fs, key=lambda f: (f.start_s, f.end_s))
    known: set[str] = set()
    out = []
    for f in fs:
        if (f.role == "clinician" and f.kind in _KNOWN_KINDS and f.status in ("uncertain", "hypothetical")
                and f.concept in known):
            continue
        if f.status == "affirmed":
            known.add(f.concept)
        out.append(f)
    return out


# What safety-net advice tells someone to do, heard again in a read-back.
_SAFETY_ACTION = re.compile(r"\b(999|nine nine nine|111|one one one|a ?(and|&) ?e|call|ring|phone|come (straight )?back"
                            r"|straight back|bring (him|her|them)|seek help|emergency)\b", re.I)
READ_BACK_S = 90.0  # how soon after the clinician's advice its read-back comes


def _read_backs(fs: list[Finding]) -> list[Finding]:
    """The patient or a companion repeating the clinician's safety-net advice ("so a stiff neck or a rash
    that doesn't fade, 999") speaks of the same conditions: still advice, not complaints, though the
    "if" is dropped (or lost by the recogniser). A finding of another voice, affirmed, in a turn naming
    what to do, within READ_BACK_S of the clinician's conditional advice on that concept, is advice too."""
    advice = [f for f in fs if f.role == "clinician" and f.status == "hypothetical"]
    for f in fs:
        if f.role != "clinician" and f.status == "affirmed" and _SAFETY_ACTION.search(f.text) and any(
                a.concept == f.concept and 0 <= f.start_s - a.start_s <= READ_BACK_S for a in advice):
            f.status = "hypothetical"
    return fs


def _roles(fs: list[Finding], elicited: set[int]) -> list[Finding]:
    """Examinations and plans are the clinician's: a patient saying "plenty of water" plans nothing.
    The patient's answer to the clinician's "Is it sore when I press here?" still counts."""
    return [f for f in fs if f.kind not in ("examination", "plan") or f.role in (None, "clinician") or id(f) in elicited]


def _dedupe(fs: list[Finding]) -> list[Finding]:
    fs.sort(key=lambda f: (f.start_s, f.end_s))
    kept: list[Finding] = []
    last: dict[tuple, Finding] = {}
    for f in fs:
        k = (f.concept, f.status, f.speaker)
        prev = last.get(k)
        if prev is not None and f.start_s - prev.end_s <= DEDUPE_S:
            prev.value = prev.value or f.value
            # Said again ("a dry cough" ... "nothing comes up, it's completely dry"): one fact, both places its words.
            prev.segment_ids = tuple(dict.fromkeys((*prev.segment_ids, *f.segment_ids)))
            continue
        kept.append(f)
        last[k] = f
    return kept
