"""What a sentence means from the sentences around it: the extractor's cross-turn rules.

- "the pain" names the pain last talked about ("if the pain on the right gets worse" in a
  consultation about tummy pain is that abdominal pain);
- a question about "it" right after a resolved complaint asks about that past episode
  ("I had a rash last week, it's cleared up" / "Was it itchy?" / "A bit itchy": past itching);
- "it" in an examination names the body part just named ("your tummy is a bit tender, but
  it's soft" says the abdomen is soft);
- a clinician's sentence that names a symptom to "you" and gets a bare Yes or No back was a
  question ASR did not punctuate ("And any burning when you pass water, or needing to go more
  often." / "No, nothing like that");
- a patient asking whether they may take a medicine is answered by the clinician's Yes or No
  ("Can I take something? I've got loperamide at home." / "I'd rather you didn't": loperamide
  ruled out, said by the clinician; having it at home is not taking it).
"""

from __future__ import annotations

from .assertion import answer_polarity, sentence_status
from .vocab import Match, Sentence, Utterance, Vocabulary

_DEFINITE = frozenset("the your my this that".split())
_PAIN_WORDS = frozenset("pain pains ache aches".split())
_NOT_ANTECEDENT = frozenset(("radiating pain", "pain on movement"))
# "Was it itchy?", "Did they spread?", "Is that still there?": a question whose subject points back.
_AUX = frozenset("was is did does has had were are do have".split())
_BACK = frozenset("it they that those".split())
# A patient asking leave to take something.
_PERMISSION = (("can", "i"), ("could", "i"), ("should", "i"), ("shall", "i"), ("may", "i"), ("is", "it", "ok", "to"),
               ("is", "it", "okay", "to"), ("is", "it", "alright", "to"), ("is", "it", "all", "right", "to"),
               ("am", "i", "allowed", "to"), ("would", "it", "help", "to"))
_TAKE = frozenset("take use have try keep start carry".split())
_LEADING = frozenset("and so um uh er erm well okay ok oh but".split())
_REFUSE = tuple(tuple(p.split()) for p in (
    "i'd rather you didn't|i would rather you didn't|rather you didn't|i'd prefer you didn't|i'd rather you did not|"
    "i wouldn't|i would not|i'd avoid|best not|better not|please don't|don't|no|not at the moment|not for now|not yet|"
    "i'd hold off|hold off|i'd leave|leave it").split("|"))
_ALLOW = tuple(tuple(p.split()) for p in (
    "yes|yeah|of course|that's fine|that's okay|that's ok|you can|go ahead|sure|fine|by all means|that would help|"
    "it's fine").split("|"))


def is_pain_concept(term: str, kind: str) -> bool:
    return kind == "symptom" and term not in _NOT_ANTECEDENT and term.endswith(("pain", "ache"))


def resolve_pain(utts: list[Utterance], vocab: Vocabulary) -> None:
    """Add a match for a bare definite "pain" ("the pain", "your pain") naming the pain concept
    talked about most so far (any voice, any status but denied; the later one on a tie): the
    consultation's complaint, not the back pain named once with the ibuprofen it is taken for."""
    counts: dict[str, int] = {}
    last = None
    for u in utts:
        for s in u.sentences:
            covered = {k for x in s.matches for k in range(x.start, x.end)}
            for i, t in enumerate(s.tokens):
                if (last is not None and t in _PAIN_WORDS and i > 0 and s.tokens[i - 1] in _DEFINITE
                        and i not in covered):
                    s.matches.append(Match(last, i, i + 1, t, "anaphor"))
            s.matches.sort(key=lambda x: x.start)
            for x in s.matches:
                if x.how != "anaphor" and is_pain_concept(x.concept.term, x.concept.kind) and (
                        s.question or sentence_status(u, u.sentences.index(s), x) != "negated"):
                    counts[x.concept.term] = counts.get(x.concept.term, 0) + 1
                    if last is None or counts[x.concept.term] >= counts[last.term]:
                        last = x.concept


# Body parts a clinician examines and then describes as "it".
_BODY = frozenset("tummy abdomen belly stomach chest throat ear ears eardrum skin".split())


def resolve_it(utts: list[Utterance], vocab: Vocabulary) -> None:
    """In the clinician's sentences, "it's soft" after "your tummy ..." is read as "tummy is
    soft": an examination concept found that way is added where "it's ..." was said."""
    for u in utts:
        if u.role != "clinician":
            continue
        for s in u.sentences:
            t = s.tokens
            for i, w in enumerate(t):
                step = 1 if w == "it's" else 2 if w == "it" and t[i + 1 : i + 2] == ["is"] else 0
                body = next((b for b in reversed(t[:i]) if b in _BODY), None)
                if not step or body is None or any(x.start <= i < x.end for x in s.matches):
                    continue
                window = [body, "is", *t[i + step : i + step + 4]]
                hit = next((x for x in vocab.match(window) if x.start == 0 and x.concept.kind == "examination"), None)
                if hit is not None:
                    end = i + step + hit.end - 2
                    if not any(x.start < end and i < x.end for x in s.matches):
                        s.matches.append(Match(hit.concept, i, end, " ".join(t[i:end]), "anaphor"))
                        s.matches.sort(key=lambda x: x.start)


def refers_back(q: Sentence) -> bool:
    """"Was it itchy", "did it come with anything else", "were they painful"."""
    t = q.tokens
    return any(t[i] in _AUX and t[i + 1] in _BACK for i in range(len(t) - 1))


def inherited_status(utts: list[Utterance]) -> dict[int, str]:
    """id(answer utterance) -> "historical" where the question before it points back at a
    complaint its answerer had just said was over."""
    out: dict[int, str] = {}
    for k in range(1, len(utts) - 1):
        before, q, a = utts[k - 1], utts[k], utts[k + 1]
        block = q.trailing_questions()
        if not block or a.speaker != before.speaker or a.speaker == q.speaker or not refers_back(block[-1]):
            continue
        last = None
        for si, s in enumerate(before.sentences):
            if not s.question and s.matches:
                last = (si, s.matches[-1])
        if last is not None and sentence_status(before, last[0], last[1]) == "historical":
            out[id(a)] = "historical"
    return out


def _opens(tokens: list[str], phrases: tuple[tuple[str, ...], ...]) -> bool:
    i = 0
    while i < len(tokens) and (tokens[i] in _LEADING or tokens[i] in ",."):
        i += 1
    return any(tuple(tokens[i : i + len(p)]) == p for p in phrases)


def _asks_leave(s: Sentence) -> bool:
    t = [w for w in s.tokens if w not in _LEADING and w != ","]
    for p in _PERMISSION:
        if tuple(t[: len(p)]) == p:
            return bool(_TAKE.intersection(t[len(p) : len(p) + 2]))
    return False


def medicine_requests(utts: list[Utterance]) -> list[tuple[Utterance, Utterance, Sentence, Match, str]]:
    """(request, reply, sentence, medication match, status) for each medicine the patient asked
    leave to take and the clinician allowed ("affirmed") or refused ("negated"). The matches are
    taken out of the request's sentences: the reply says what holds."""
    out = []
    for k, u in enumerate(utts[:-1]):
        reply = utts[k + 1]
        if u.role != "patient" or reply.role != "clinician" or not reply.sentences:
            continue
        ask = next((i for i, s in enumerate(u.sentences) if s.question and _asks_leave(s)), None)
        if ask is None:
            continue
        first = reply.sentences[0].tokens
        status = "negated" if _opens(first, _REFUSE) else "affirmed" if _opens(first, _ALLOW) else None
        if status is None:
            continue
        for s in u.sentences[ask:]:
            meds = [m for m in s.matches if m.concept.kind == "medication"]
            for m in meds:
                s.matches.remove(m)
                out.append((u, reply, s, m, status))
    return out


_YOU = frozenset("you your you're you've yourself".split())
_THIRD = frozenset("he she he's she's his her him they their them".split())
_LIST_DENIALS = (("none", "of", "those"), ("none", "of", "them"), ("none", "of", "that"), ("neither",),
                 ("nothing", "like", "that"), ("neither", "of", "them"))


def _denies_list(tokens: list[str]) -> bool:
    head = tokens[:6]
    return any(tuple(head[i : i + len(p)]) == p for p in _LIST_DENIALS for i in range(len(head)))


def questions_by_reply(utts: list[Utterance]) -> None:
    """Mark as a question the clinician's last sentence that names a concept to "you" when the next voice
    answers it with a plain Yes or No (whatever punctuation ASR gave it)."""
    for u, a in zip(utts, utts[1:], strict=False):
        if u.role != "clinician" or a.speaker == u.speaker or not u.sentences or not a.sentences:
            continue
        last = u.sentences[-1]
        # (a concept named, not a function probed: "keep an eye on your breathing" / "yes" confirms nothing)
        # Addressed: "you", or "he"/"she" when the one answering speaks for the patient (a parent); a reply that
        # denies a list as a whole ("No, none of those") shows the list was asked, whatever ASR left of the asking.
        listed = _denies_list(a.sentences[0].tokens)
        addressed = _YOU | (_THIRD if a.proxy else frozenset())
        if last.question or not any(m.how != "probe" for m in last.matches) or not (addressed & set(last.tokens) or listed):
            continue
        if any(sentence_status(None, 0, m, sentence=last) == "hypothetical" for m in last.matches):
            continue  # "If you get chest pain, call us." "Yes, okay.": advice taken, not a symptom confirmed
        first = a.sentences[0].tokens
        if _ACK & set(first):
            continue
        if (first[:1] and first[0] in ("no", "yes", "yeah", "nope", "yep") and answer_polarity(first) in ("affirmed", "negated")
                or listed):
            last.question = True


_ACK = frozenset("okay ok alright right thanks thank will sure understood".split())
