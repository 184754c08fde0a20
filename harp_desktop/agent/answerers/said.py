"""Free-text "what was said" questions ("what makes the tightness worse?", "when is her
follow-up?", "what does he do for a living?"): the turn that answers, then quoted.

A turn answers when it carries what the question asks about and what it asks for:
- its content words, weighted by how rare they are in this recording (a word every turn
  has says nothing), matched on stems ("wakes" / "wake", "listening" / "listen");
- its meaning (MiniLM cosine to the question), so "home remedy" meets "honey and lemon";
- the dialogue: a reply is scored with the question turn before it ("Any allergies?" /
  "Penicillin, my face swelled up"), since patients answer in few words;
- the kind of answer wanted: a time, a duration, a number, a frequency, a place; a turn that
  is itself a question is rarely the answer to a wh-question;
- the subject: "what did the doctor hear" is in the clinician's words.
No language model is needed; with one, ``ask.py`` lets it rephrase the chosen turns only.
"""

from __future__ import annotations

import re

import numpy as np

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent import support
from harp_desktop.agent.answerers.context import AnswerContext, Result
from harp_desktop.agent.answerers.words import (  # noqa: F401 - the lexical helpers, used here and by the answerers
    GRAMMAR,
    SUBJECT_WORDS,
    carries,
    doc_freq,
    focus_terms,
    rarest,
    respell,
    turn_stems,
)
from harp_desktop.agent.answerers.words import idf as idf_of
from harp_desktop.agent.chain import span
from harp_desktop.agent.query import NARRATED_BEFORE

NUM = r"(\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|" \
      r"hundred|half|a couple|a few|several)"
WANTS = [  # (what the question asks for, how a turn that gives it reads)
    # A date or slot still to come ("when is her follow-up?", "when is the test booked for?"): a future time.
    ("scheduled", lx.SCHEDULED,
     re.compile(rf"\bin {NUM} (days?|weeks?|months?|years?)\b|\bin (a|an) (day|week|fortnight|month|year)\b|\bnext "
                r"(week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\b(monday|tuesday|wednesday|"
                r"thursday|friday|saturday|sunday|tomorrow|fortnight)\b|\b\d{1,2}[:.]\d{2}\b|\b\d{1,2} ?(am|pm)\b|o'clock"
                r"|\bat [0-2]?\d[0-5]\d\b"  # ASR writes a clock time as digits: "at 930", "at 1940"
                r"|\b(again|back) in\b", re.I)),
    # "When should she call the registrar?", "when might he go home?": the condition or the time told ("if his sats drop
    # below 92", "Friday, possibly Thursday").
    ("told_when", lx.TOLD_WHEN,
     re.compile(r"\b(if|unless|once|as soon as|in case|should|when)\b|\b(monday|tuesday|wednesday|thursday|friday|saturday|"
                r"sunday|today|tomorrow|tonight|week|weeks|month|months|days?)\b", re.I)),
    ("time", re.compile(r"^\s*(?:[^,?]{0,80},\s*)?(when\b|since when\b|what (time|day|date|slot)\b|which (day|date|time)\b)"
                        r"|\bwhat time of (day|night)\b|\bby when\b", re.I),
     re.compile(r"\b\d{1,2}[:.]\d{2}\b|\bat [0-2]?\d[0-5]\d\b|\b\d{1,2} ?(am|pm|a\.m\.|p\.m\.)\b|o'clock|\b(morning|afternoon|evening|night|midnight|"
                r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|tonight|week|weeks|"
                r"month|months|christmas|easter|summer|winter|spring|autumn|ago|since|before|after|until|by)\b", re.I)),
    ("duration", re.compile(r"\bhow long\b|\bfor how long\b|\bsince when\b", re.I),
     re.compile(rf"\b{NUM} (seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b|\bsince\b|\bago\b|\ball (day|night|week)\b"
                r"|\b(an?|half an?) (minute|hour|day|week|fortnight|month|year)\b",  # "about an hour and a half"
                re.I)),
    ("frequency", re.compile(r"\bhow (often|frequently|regularly)\b|\bhow many times a\b", re.I),
     re.compile(r"\b(times? a|a|per|every|each) (day|week|night|month|hour)\b|\b(daily|nightly|weekly|most days|most nights|"
                r"always|sometimes|occasionally|once|twice|constantly|all the time|every day)\b", re.I)),
    # A score on a scale ("pain score out of ten?", "how bad on a scale of one to ten?"): a small number, not a
    # dose, a phone number or a count of days ("call 999", "in two days").
    ("scale", re.compile(r"\bout of (ten|10)\b|\bpain score\b|\bon a scale\b|\bscale of\b|\bscore(d)? (it|the pain)\b", re.I),
     re.compile(r"\b(10|[0-9]|zero|one|two|three|four|five|six|seven|eight|nine|ten)\b(?!\s*(days?|weeks?|months?|years?|hours?|"
                r"minutes?|times?|mg|milligrams?|ml|tablets?|puffs?|o'clock|am|pm|[:.]\d))", re.I)),
    ("number", re.compile(r"\bhow (many|much|old|far|heavy|high)\b|\bwhat (number|dose|dosage|score|reading|level|amount|"
                          r"temperature|weight|rate)\b|\bwhat (?:was|is|were|are) (?:his|her|their|the|your|its) (?:\w+ )?"
                          r"(?:temperature|temp|weight|pulse|heart rate|blood pressure|bp|sats|saturation|oxygen|peak flow|"
                          r"score|reading|dose|level|fev1)\b|\bout of (ten|10)\b|\bwhat (numbers?|readings?)\b"
                          r"|\b(reading|level|score|value)s?\s*\??\s*$", re.I),  # "BP reading?"
     re.compile(rf"\b{NUM}\b|%|\bper ?cent\b", re.I)),
    ("name", re.compile(r"\bnames?\b|\bcalled\b|\bwho is\b", re.I),
     re.compile(r"(?<=[a-z,] )[A-Z][a-z]{2,}\b|\b(I'm|I am|this is|it's|my name is|called) [A-Z][a-z]+")),
    # How someone is doing ("how does he say he's doing?", "how has she been?"): a turn that reports a course or state.
    ("state", re.compile(r"\bhow (is|are|was|were|'s)\b.{0,40}\b(doing|getting on|feeling|keeping|coping|managing)\b"
                         r"|\bhow (does|did|do)\b.{0,40}\b(doing|getting on|feeling|keeping|coping|managing)\b"
                         r"|\bhow (has|have)\b.{0,30}\bbeen\b\s*(doing|feeling|keeping)?\s*[?.]?\s*$", re.I),
     re.compile(r"\b(better|worse|easing|eased|improv\w*|settl\w*|the same|fine|not (great|good|bad|too bad)|awful|rough"
                r"|poorly|still|anymore|no longer)\b", re.I)),
    # A colour asked ("what colour is the phlegm?", "what colour was the rash?"): a turn that names one.
    ("colour", re.compile(r"\bwhat colou?rs?\b|\bwhich colou?rs?\b|\bcolou?r of\b", re.I),
     re.compile(r"\b(green|greenish|yellow|yellowy|yellowish|white|clear|brown|red|pink|black|grey|gray|blue|purple|"
                r"orange|cream|rusty|bloody|blood[- ]?stained|streaked)\b", re.I)),
    ("place", re.compile(r"^\s*(?:[^,?]{0,80},\s*)?where\b", re.I),
     re.compile(r"\b(in|at|on|to|into|from|near|down|up) (the|my|his|her|a|your)\b|\b(left|right|side|front|back|here|there)\b",
                re.I)),
]
ASKS = re.compile(r"\?|(^|[,.;]\s*)(and |so |now |okay,? |right,? )?(do|does|did|is|are|was|were|have|has|can|could|would|should|shall|"
                  r"any|how|what|when|where|why|which)\b", re.I)
# "How does he feel once the doctor says it isn't cancer?": the reply to that statement answers.
AFTER_CLAUSE = re.compile(r"\b(once|after|when|as soon as|right after|straight after)\s+((the|his|her) )?(doctor|clinician|gp|nurse|"
                          r"patient|husband|wife|he|she|they)\s+((?:has |had |is |was |just )?(?:says?|said|tells?|told|"
                          r"explains?|explained|mentions?|mentioned|asks?|asked|suggests?|suggested|reassures?|reassured|"
                          r"confirms?|confirmed|breaks?|broke|announces?|announced|gives?|gave)\b.*)$", re.I)
WHEN_ASKED = re.compile(r"\b(?:when|once|after|on being)\s+(?:(?:she|he|they|the patient) (?:was|were|is|got) )?"
                        r"(?:asked|questioned)\s+((?:if|whether|about|how|what|why|when|for)\b[^,?]*)", re.I)
# Reading aloud from a text ("what is the man reading out loud?"), not a value read out ("read out the results").
READING = re.compile(r"\bread(s|ing)?\b[\w' ]{0,30}\b(aloud|out loud)\b|\bbeing read\b|\breading (from )?(the|a|his|her)"
                     r"( [\w']+)? (paper|newspaper|book|magazine|story|stories|article)\b|\bread(s|ing)? from\b", re.I)
# A speaker naming themselves: the strongest sign of a turn that answers "what are their names?".
INTRO = re.compile(r"\b(?i:I'm|I am|this is|it's|my name is|call me|here's) [A-Z][a-z]+")
MAX_FIRST = 220


stem, _stems = lx.stem, lx.stems


def wanted(question: str) -> list[tuple[str, re.Pattern]]:
    """The kinds of answer the question asks for, with how a turn that gives one reads."""
    got = [(name, gives) for name, asks, gives in WANTS if asks.search(question)]
    if any(name == "scheduled" for name, _ in got):
        got = [(name, gives) for name, gives in got if name != "time"]  # "since Christmas" is not a date to come
    if any(name == "scale" for name, _ in got):
        got = [(name, gives) for name, gives in got if name != "number"]  # the score, not any number said
    if any(name == "told_when" for name, _ in got):
        got = [(name, gives) for name, gives in got if name not in ("time", "scheduled")]
    return got


def _best_sentence(text: str, terms: set[str], gives: list[re.Pattern]) -> str:
    sents = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s.strip()]
    if len(sents) <= 1:
        return text.strip()[:MAX_FIRST]

    def score(s: str) -> float:
        st = set(_stems(s))
        # What the question is about outweighs the kind of answer: a sentence with a time in it but none of the
        # question's words ("Muddled since Thursday...") is not the one that says when the dose was given.
        # ... and a sentence that has both ("It was 36.8 this morning") is the answer itself.
        said_, gives_ = len(st & terms), sum(1.5 for g in gives if g.search(s))
        return 2.0 * said_ + gives_ + (2.0 if said_ and gives_ else 0.0) - (0.5 if ASKS.search(s) else 0.0)

    i = max(range(len(sents)), key=lambda k: score(sents[k]))
    out = sents[i]
    if len(out) < 60 and i + 1 < len(sents):  # "At its worst." "About a seven." reads as one answer
        out = f"{out} {sents[i + 1]}"
    return out[:MAX_FIRST]


CLINICIAN_ACTS = {"diagnosis", "examination", "plan"}


_asked_kinds = lx.asked_kinds


def _is_question(text: str) -> bool:
    """A turn that asks (a "?" or a clause opening like one: ASR drops question marks)."""
    return bool(ASKS.search(text.strip()))


def rank(ctx: AnswerContext, question: str | None = None) -> list[tuple[float, dict]]:
    """Turns in the question's windows, best answer first, with their scores.

    relevance(turn) = 0.55 x rare-word overlap + 0.45 x meaning; a turn's score adds the
    relevance of the other speaker's turn just before it (more when that turn asked a
    question: replies are short), the answer-kind match, and the subject's role."""
    question = question or ctx.spec.question
    by_start = [s for s in sorted(ctx.segments, key=lambda s: s["start_s"]) if s["text"].strip()]
    segs = [s for s in by_start if ctx.in_window(s["start_s"], s["end_s"])]
    if not segs:
        return []
    plain = lx.QUOTE_FREE.sub(lambda m: m.group(1), question)
    after = AFTER_CLAUSE.search(plain)
    terms = respell(ctx, focus_terms(plain[:after.start()] if after else plain))
    # the statement the answer replies to: "once the doctor says it isn't cancer" (a speech act; "when she was
    # diagnosed" is the topic's own time, not a statement to reply to)
    before = focus_terms(after.group(5)) if after else []
    asked = WHEN_ASKED.search(plain) if after is None else None
    if asked:
        # "When asked if she was more breathless, what did she say?": the question put is what the reply answers;
        # what is asked of it is the rest ("what did she say" holds no topic of its own).
        before = respell(ctx, focus_terms(asked.group(1)))
        terms = respell(ctx, focus_terms(plain[:asked.start()] + " " + plain[asked.end():])) or before
    idf, idf_before = idf_of(ctx, terms), idf_of(ctx, before)
    total, total_before = sum(idf.values()) or 1.0, sum(idf_before.values()) or 1.0
    sem, pair_sem = _semantic(ctx, question, by_start)
    gives = [g for _, g in wanted(question)]
    kinds = {k for k, _ in wanted(question)}
    role = {"patient": "patient", "clinician": "clinician"}.get(ctx.spec.subject.kind)
    if role is None and ctx.spec.subject.kind == "anyone" and CLINICIAN_ACTS & set(_asked_kinds(question)):
        role = "clinician"  # "what's the most likely diagnosis?": the clinician's words, not a relative's history
    if role is None and ctx.spec.subject.kind == "anyone" and NARRATED_BEFORE.search(question):
        role = "patient"  # "how many doses had he had before they came in?": the patient's side tells its story
    who = ctx.speakers_for(ctx.spec.subject) if ctx.spec.subject.kind not in ("anyone", "patient", "clinician") else None
    if READING.search(question):
        # "What is the man reading out loud?": the voice that reads (a long stretch nobody answers), of those asked.
        readers = ctx.readers
        if readers and (who is None or readers & who):
            who = readers & who if who else readers
    if who is not None and lx.RELATION.search(ctx.spec.subject.name or "") and not _speaks(question):
        # "How old was his mother when...", "does her husband have a cold?": a relative the question is about,
        # not one whose words it asks for; the patient often tells it. Their words count, nobody's less.
        who = None
    index = {s["id"]: i for i, s in enumerate(by_start)}

    def lex(s: dict, w8: dict[str, float] = idf, tot: float = total) -> float:
        st = set(_stems(s["text"]))
        return sum(w for t, w in w8.items() if t in st) / tot

    unrelated = [(a, b) for kind, a, b in ctx.sections if kind == "unrelated"] if ctx.spec.section is None else []
    dictated = [(a, b) for kind, a, b in ctx.sections if kind == "dictation"] if ctx.spec.section is None else []
    anchor = ctx.spec.anchor_s
    asks_what_asked = bool(lx.ASK_ACT.search(question)) and ctx.spec.operation == "what_said"
    out = []
    for s in segs:
        i = index[s["id"]]
        prev = next((p for p in reversed(by_start[max(0, i - 3):i])
                     if ctx.label_of(p) != ctx.label_of(s) and s["start_s"] - p["end_s"] < 10), None)
        own = 0.55 * lex(s) + 0.45 * sem.get(s["id"], 0.0)
        if prev is not None:
            asked = _is_question(prev["text"])
            # The exchange read as one: a reply's meaning is its question's plus its own words.
            pair = pair_sem.get((prev["id"], s["id"]), 0.0)
            own = max(own, 0.55 * lex(s) + 0.45 * pair) if asked else own
            own += (0.6 if asked else 0.3) * 0.55 * lex(prev)
            if before:
                own += 0.5 * lex(prev, idf_before, total_before)
        score = own
        if anchor is not None:  # "what does the doctor say at 03:51?": the turn at that time
            dist = 0.0 if s["start_s"] <= anchor <= s["end_s"] else min(abs(anchor - s["start_s"]), abs(anchor - s["end_s"]))
            score += 0.3 * max(0.0, 1.0 - dist / 10.0)
        if unrelated and any(a <= (s["start_s"] + s["end_s"]) / 2 <= b for a, b in unrelated):
            score *= 0.7  # a clinical question is about the clinical talk unless it names the waiting room
        if dictated and any(a <= (s["start_s"] + s["end_s"]) / 2 <= b for a, b in dictated):
            score *= 0.85  # the dictation retells the consultation: where it was said first is the evidence
        if gives:
            score += 0.15 if any(g.search(s["text"]) for g in gives) else -0.05
            if "name" in kinds and INTRO.search(s["text"]):
                score += 0.15
        if _is_question(s["text"]):
            # A wh-question is answered by a statement, rarely by another question ("Hello? Oh, I'm Diane"),
            # unless it asks what someone asked ("what does her husband ask her?").
            score += 0.1 if asks_what_asked else -0.05 if gives and any(g.search(s["text"]) for g in gives) else -0.2
        spk = ctx.label_of(s)
        if role is not None and ctx.roles:
            score *= 1.15 if ctx.roles.get(spk or "") == role else 0.75
        if who is not None:
            # The voice of the example clip is who the question is about ("what does the woman in this clip say
            # about her cough?"): another voice's turn answers only when none of hers says anything like it.
            score *= 1.15 if spk in who else 0.3 if ctx.spec.subject.kind == "cue" else 0.6
        out.append((score, s))
    return sorted(out, key=lambda x: -x[0])


def _speaks(question: str) -> bool:
    """The question asks for someone's words ("what did her husband say / ask / suggest")."""
    return bool(lx.SPEECH_ACT.search(question) or lx.ASKING.search(question) or re.search(r"(speak|talk)\w*", question, re.I))


def own_relevance(ctx: AnswerContext, question: str) -> list[tuple[float, dict]]:
    """Turns in the question's windows by how much they themselves say what the question names
    (0.55 x rare-word overlap + 0.45 x meaning), best first; no reply or answer-kind terms: for
    "who said / asked / brought up X", where the turn that carries X is the answer."""
    by_start = [s for s in sorted(ctx.segments, key=lambda s: s["start_s"]) if s["text"].strip()]
    segs = [s for s in by_start if ctx.in_window(s["start_s"], s["end_s"])]
    terms = respell(ctx, focus_terms(lx.QUOTE_FREE.sub(lambda m: m.group(1), question)))
    if not segs or not terms:
        return []
    idf = idf_of(ctx, terms)
    total = sum(idf.values()) or 1.0
    sem, _ = _semantic(ctx, question, segs)
    out = []
    for s in segs:
        st = set(_stems(s["text"]))
        out.append((0.55 * sum(w for t, w in idf.items() if t in st) / total + 0.45 * sem.get(s["id"], 0.0), s))
    return sorted(out, key=lambda x: -x[0])


def _semantic(ctx: AnswerContext, question: str, segs: list[dict]
              ) -> tuple[dict[int, float], dict[tuple[int, int], float]]:
    """Cosine of each turn, and of each (turn, next turn by another voice) exchange, to the
    question, from the stored text vectors (an exchange: the sum of its two unit vectors).
    No vectors: lexical only."""
    try:
        q = np.asarray(ctx.lib.models.text().embed([question])[0], np.float32)
        ids = [s["id"] for s in segs]
        vecs = ctx.lib.vectors.get(ctx.rec["sha256"], "text", ids)
        vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
        qn = q / max(float(np.linalg.norm(q)), 1e-9)
        sims = vecs @ qn
        one = {i: max(0.0, float(v)) for i, v in zip(ids, sims, strict=True)}
        pairs: dict[tuple[int, int], float] = {}
        for k in range(1, len(segs)):
            for j in range(max(0, k - 3), k):
                v = vecs[j] + vecs[k]
                pairs[(ids[j], ids[k])] = max(0.0, float(v @ qn / max(float(np.linalg.norm(v)), 1e-9)))
        return one, pairs
    except Exception:  # noqa: BLE001 - a library without text vectors still answers lexically
        ctx.notes.append("no text vectors for this recording: turns ranked by their words only")
        return {}, {}


OPTIONS = re.compile(r"\b([a-z][\w-]+)\W{0,2} or (?:a |an |the )?([a-z][\w-]+)\s*[?.]?\s*$", re.I)


def _chosen_option(question: str, turns: list[dict]) -> str | None:
    """For an either/or question, the option the best turns say (and only one of them says)."""
    m = OPTIONS.search(question)
    pair = lx.choice_pair(question) or (m and (m.group(1).lower(), m.group(2).lower()))
    if not pair:
        return None
    a, b = pair
    for t in turns:
        st = set(_stems(t["text"]))
        has_a, has_b = stem(a) in st, stem(b) in st
        if has_a != has_b:
            return a if has_a else b
    return None


def _continuation(ctx: AnswerContext, seg: dict) -> dict | None:
    """The same speaker's next turn when it follows without a pause (one sentence split in two)."""
    after = [s for s in ctx.segments if s["start_s"] >= seg["end_s"] - 0.05 and s["text"].strip()]
    nxt = min(after, key=lambda s: s["start_s"], default=None)
    if nxt is None or nxt["start_s"] - seg["end_s"] > 1.5 or ctx.label_of(nxt) != ctx.label_of(seg):
        return None
    return nxt


RESULT_ASK = re.compile(r"\b(find|found|finding\w*|hear|heard|see|saw|seen|show(s|ed)?|result\w*|reveal\w*|make of|conclu\w*|"
                        r"turn(ed)? up|look(ed)? like)\b", re.I)
# A turn that ends by announcing the next look ("The right eardrum looks normal. Now the sore one."): what is found
# there comes in the same voice's next turns.
ANNOUNCES = re.compile(r"(?:^|[.!?]\s+)(?:and |right,? |okay,? |so,? )?(?:now|next)\b[^.!?]{0,40}[.!?]?\s*$", re.I)
RESULT_SAID = re.compile(r"\b(clear|normal|fine|okay|ok|reassuring|nothing|sounds?|tender|soft|high|low|raised|regular|"
                         r"irregular|crackles?|wheez\w*|red|swollen|bulging|inflamed|infected|is \d|are \d|\d)\b", re.I)


def _result_of_act(ctx: AnswerContext, best: dict) -> dict | None:
    """"What did the doctor find on listening to her chest?": the turn that names the act ("I'd like to
    listen to your chest") is not the finding; the same voice's next turns (within 30 s) that state a
    result are."""
    announced = ANNOUNCES.search(best["text"])
    if not RESULT_ASK.search(ctx.spec.question) or not (lx.EXAM_ACT.search(best["text"]) or announced):
        return None
    # The act's own turn may state its result after the act ("let me listen... that's clear"); a result said
    # before the act ("your pulse is 88, now I'd like to listen to your chest") is another act's.
    after_act = best["text"][announced.start():] if announced else \
        re.split(r"\b(listen|examin|check|take|feel)\w*", best["text"], flags=re.I)[-1]
    if RESULT_SAID.search(after_act):
        return None
    later = [s for s in sorted(ctx.segments, key=lambda s: s["start_s"]) if s["start_s"] >= best["end_s"] - 0.1
             and s["start_s"] - best["end_s"] <= 30.0 and ctx.label_of(s) == ctx.label_of(best) and s["text"].strip()]
    return next((s for s in later if RESULT_SAID.search(s["text"])), None)


GIVING_SHARE = 0.6  # a turn that gives the kind asked for beats a better-matching one that does not, down to this share
EXCHANGE_S = 20.0  # the turns after the best one that still belong to its exchange


BOOKING = re.compile(r"\b(book\w*|slot|appointment|arrang\w*|fix\w* up|scheduled?)\b", re.I)
OFFER_SPLIT = re.compile(r",?\s+\bor\b\s+", re.I)


def _settled(ctx: AnswerContext, best: dict, first: str) -> tuple[str, list[dict]] | None:
    """(the chosen offer, [the reply choosing it, the turn after]) when ``best`` offers slots joined by "or" and
    the other person's next turn names one of them by a word only that option has; else None."""
    options = [o for o in OFFER_SPLIT.split(first) if o.strip()]
    gives = [g for name, _, g in WANTS if name in ("scheduled", "time")]  # a slot: a date or a time of day
    if len(options) < 2 or sum(any(g.search(o) for g in gives) for o in options) < 2:
        return None
    turns = [s for s in sorted(ctx.segments, key=lambda s: s["start_s"]) if s["text"].strip()
             and best["end_s"] - 0.1 <= s["start_s"] <= best["end_s"] + EXCHANGE_S]
    reply = next((s for s in turns if ctx.label_of(s) != ctx.label_of(best)), None)
    if reply is None:
        return None
    said = set(_stems(reply["text"]))
    own = [set(_stems(o)) - set().union(*[set(_stems(x)) for x in options if x is not o]) for o in options]
    picked = [o for o, words in zip(options, own, strict=True) if words & said - GRAMMAR]
    if len(picked) != 1:
        return None
    after = next((s for s in turns if s["start_s"] > reply["start_s"] and ctx.label_of(s) == ctx.label_of(best)), None)
    return picked[0].strip(" ,."), [reply] + ([after] if after else [])


def _giving(ctx: AnswerContext, ranked: list[tuple[float, dict]], gives: list[re.Pattern]) -> tuple[float, dict] | None:
    """"How old was his mother when...?", "when is the blood test booked for?": the answer holds a number, a date,
    a time... When the best turn holds none, the answer is a close runner-up that does, or a later turn of the
    same exchange that does ("I need a blood test" / "Wednesday at 8:40?")."""
    if not gives or any(g.search(ranked[0][1]["text"]) for g in gives):
        return None
    best_score, best = ranked[0]
    close = next(((sc, s) for sc, s in ranked[1:5] if sc >= GIVING_SHARE * best_score
                  and any(g.search(s["text"]) for g in gives) and not _is_question(s["text"])), None)
    if close is not None:
        return close
    later = [s for s in sorted(ctx.segments, key=lambda s: s["start_s"]) if s["text"].strip()
             and best["end_s"] - 0.1 <= s["start_s"] <= best["end_s"] + EXCHANGE_S and ctx.in_window(s["start_s"], s["end_s"])]
    nxt = next((s for s in later[:4] if any(g.search(s["text"]) for g in gives)), None)
    return (best_score, nxt) if nxt is not None else None


# "How much sertraline does he take?", "what dose of omeprazole?" (not "how often": a frequency is its own answer)
DOSE_ASK = re.compile(r"\bhow much\b|\bhow many (mg|milligrams?|micrograms?|tablets?|puffs?)\b|\bwhat (dose|dosage|strength)\b"
                      r"|\b(dose|dosage|strength) of\b", re.I)
# "What does she suggest instead of ibuprofen?": the medicine named is the one replaced, not the one asked.
INSTEAD = re.compile(r"\b(instead of|rather than|in place of|other than|apart from|besides|except|replac\w*|switch\w* from)\b",
                     re.I)


def dose(ctx: AnswerContext) -> Result | None:
    """A dose asked of a medicine the question names: the value the findings read with it (the
    patient's own statement first), cited where it was said. None: no medicine named, or no value."""
    if not DOSE_ASK.search(ctx.spec.question) or INSTEAD.search(ctx.spec.question):
        return None
    from harp_desktop.findings.extract import mentioned_concepts

    drugs = [c for c in mentioned_concepts(ctx.spec.question)
             if any(f.concept == c and f.kind == "medication" for f in ctx.findings)]
    valued = [f for f in ctx.findings if f.concept in drugs and f.value and ctx.in_window(f.start_s, f.end_s)
              and f.status in ("affirmed", "historical")]
    if len(drugs) != 1 or not valued:
        return None
    f = min(valued, key=lambda f: (f.role != "patient", f.start_s))
    ev = ctx.evidence(next((s for s in ctx.segments if s["id"] in set(f.segment_ids)), None) or {}, "finding") \
        if f.segment_ids else None
    cited = [ev] if ev is not None else []
    return Result(f.value, f"{f.concept}: {f.value}, said by the {f.role or 'speaker'} {span(ev) if ev else ''}"
                  f": \"{f.text.strip()[:160]}\".", cited, {"kind": "answer_words",
                                                          "terms": support.answer_words(ctx.spec.question, f.text)})


TOLD_REACH = 8  # the addressee's turn about the topic is among this many best-ranked turns


def _told_reply(ctx: AnswerContext, ranked: list[tuple[float, dict]]) -> tuple[float, dict] | None:
    """For "what did X tell Y (about Z)?": X's reply to the best of Y's turns about Z, or None."""
    from harp_desktop.agent.query import ADDRESSEE, parse_subjects
    from harp_desktop.agent.replies import reply_to

    m = ADDRESSEE.search(ctx.spec.question)
    if m is None or ctx.spec.subject.kind in ("anyone", "cue") or m.group(1).lower().startswith("ask"):
        return None  # (what X asked Y is X's own question, not a reply)
    speakers, listeners = ctx.speakers_for(ctx.spec.subject), ctx.speakers_for(parse_subjects(m.group(2), False)[0])
    if not speakers or not listeners:
        return None
    for sc, seg in ranked[:TOLD_REACH]:
        if ctx.label_of(seg) in listeners:
            reply = reply_to(ctx.segments, seg["id"])
            if reply is not None and ctx.label_of(reply) in speakers and not _is_question(reply["text"]):
                return sc, reply  # (a question back is not what they were told)
    return None


def answer(ctx: AnswerContext) -> Result:
    valued = dose(ctx)
    if valued is not None:
        return valued
    ranked = rank(ctx)
    if not ranked or ranked[0][0] <= 0.05:
        return Result("Not found", f"Nothing said {ctx.window_words()} answers this.", [],
                      {"kind": "speech", "terms": ctx.spec.terms}, False)
    best_score, best = ranked[0]
    if READING.search(ctx.spec.question) and "reading aloud" in (ctx.describe_voice(ctx.label_of(best) or "") or ""):
        # What a reading is about is where it starts (the headline, the title), then what follows.
        start = min((s for _, s in ranked if ctx.label_of(s) == ctx.label_of(best)), key=lambda s: s["start_s"])
        ranked = [(best_score, start)] + [x for x in ranked if x[1]["id"] != start["id"]]
        best = start
    gives = [g for _, g in wanted(ctx.spec.question)]
    giving = _giving(ctx, ranked, gives)
    if giving is not None:
        ranked.insert(0, giving)
        best_score, best = giving
    told = _told_reply(ctx, ranked)
    if told is not None:
        # "What did the GP tell the husband to do about his cold?": the subject's reply to the addressee's turn about
        # it ("Should I keep away from her while I've got this cold?" / "Wash your hands often...").
        ranked.insert(0, told)
        best_score, best = told
    result = _result_of_act(ctx, best) if told is None else None
    if result is not None:
        ranked.insert(0, (best_score, result))
        best = result
    elif told is None and _is_question(best["text"]) and not (lx.ASK_ACT.search(ctx.spec.question)
                                                             or lx.ASKING.search(ctx.spec.question)) \
            and _is_question(_best_sentence(best["text"], set(focus_terms(ctx.spec.question)), gives)):
        # (a turn that states what is asked and then asks something else -- "That's about 55 pack years. Would you
        # like a referral?" -- answers by its statement)
        # The turn that best matches is itself a question ("Any allergies to medicines?"): what was said in
        # answer to it is its reply ("Aspirin makes my breathing worse"), cited with the question.
        from harp_desktop.agent.replies import reply_to

        reply = reply_to(ctx.segments, best["id"])
        if reply is not None:
            ranked = [(best_score, reply), (best_score, best)] + [x for x in ranked if x[1]["id"] not in
                                                                    (reply["id"], best["id"])]
            best = reply
    terms = set(respell(ctx, focus_terms(ctx.spec.question)))
    first = _best_sentence(best["text"], terms, gives)
    more = _continuation(ctx, best)
    if more is not None and gives and not any(g.search(first) for g in gives) and any(g.search(more["text"]) for g in gives):
        # ASR cut the sentence in two ("...if you're too breathless / to speak, call 999"): the answer is in the rest.
        first = f"{first} {_best_sentence(more['text'], terms, gives)}"[:MAX_FIRST + 80]
        ranked.insert(1, (best_score, more))
    # The cited turns must share a content word with the question or with the answer quoted from them.
    claim = {"kind": "answer_words", "terms": support.answer_words(ctx.spec.question, first)}
    close = [s for sc, s in ranked[1:4] if sc >= 0.8 * best_score]
    cited = [ctx.evidence(best, "keyword", best_score)] + [ctx.evidence(s, "keyword", sc) for sc, s in ranked[1:4]
                                                          if s in close]
    booking = {"scheduled", "time"} & {k for k, _ in wanted(ctx.spec.question)} and BOOKING.search(ctx.spec.question)
    settled = _settled(ctx, best, first) if booking else None
    if settled is not None:
        # Two slots offered ("8:40 in the morning, or 2:50 in the afternoon"): the one the other person chose is
        # what was booked, and the choice and its confirmation are the evidence.
        first, chosen = settled
        cited = [cited[0]] + [ctx.evidence(s, "keyword", best_score) for s in chosen] + cited[1:2]
    option = _chosen_option(ctx.spec.question, [s for _, s in ranked[:3]])
    if option:
        first = option  # "are the coughs dry or wet?": the option the answering turn says
    elif re.match(r"\s*(?:[^,?]{0,80},\s*)?how (many|much|long|old)\b", ctx.spec.question, re.I):
        n = lx.spoken_count(first, ctx.spec.question)
        if n is not None and not first.lstrip().startswith(str(n)):
            first = f"{n} — {first}"  # the number asked for leads; the words that say it follow
    speaker = ctx.role_name(ctx.label_of(best)) if ctx.roles.get(ctx.label_of(best) or "") else best.get("speaker")
    also = "; also: " + "; ".join(f"\"{e.text.strip()[:120]}\" {span(e)}" for e in cited[1:]) if cited[1:] else ""
    rationale = f"The {speaker or 'speaker'} says at {span(cited[0])}: \"{best['text'].strip()[:240]}\"{also}."
    return Result(first, rationale, cited, claim)
