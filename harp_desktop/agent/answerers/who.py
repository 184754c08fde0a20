"""Who: the voice that said, asked or raised something, or whose fact or sound it is, named the way the people in
the room would name it (``people.person``: "the patient's mother", "the receptionist, Marcus").

A question naming an act of speech ("who asked about...", "who brought up...", "who tells him to...") is answered by
the turn that does it; one naming none ("who is allergic to...", "whose inhaler...", "which relative had...") asks
who holds a fact: the findings, or the relative the turn that states it names (``people.holder``).
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers import said
from harp_desktop.agent.answerers.context import AnswerContext, Result
from harp_desktop.agent.answerers.speech import (
    OWN_COMPLAINT,
    SECOND_PERSON,
    STATUS_WORDS,
    _ev,
    _in_scope,
    question_concepts,
)
from harp_desktop.agent.chain import span
from harp_desktop.agent.names import NAME
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

# How a "who" question names what was done: asking ("who wanted to know..."), raising a topic first
# ("who brought up..."), or another act of speech ("who tells him to..."). A question with none of these
# asks who holds a fact ("who is allergic to...", "who still smokes?"): the findings answer that.
ASKING, RAISING, SPEECH_ACT = lx.ASKING, lx.RAISING, lx.SPEECH_ACT  # acts of speech a question names


ASK_SHARE = 0.6  # a question turn answers "who asked" when it scores at least this share of the best turn
RELATIVE_ASKED = re.compile(r"\b(family member|member of (his|her|their|the) family|relatives?|relation|in (his|her|their|the) "
                            r"family)\b", re.I)
TOLD_PATIENT = re.compile(r"\b(tell\w*|told|advis\w*|instruct\w*|remind\w*|warn\w*|reassur\w*) (him|her|the patient)\b", re.I)


# "Who answers the phone?", "who picks up?": whoever speaks first after the phone rings, not a turn with the words.
ANSWERS_PHONE = re.compile(r"\b(answer\w*|pick\w* up|picks? it up|took the call|takes the call)\b.{0,30}\b(phone|telephone|call)\b"
                           r"|\b(phone|telephone)\b.{0,20}\b(answer\w*|pick\w* up)\b|\bpicks? up\b"
                           r"|\b(rings?|ringing|calls?|calling)\b.{0,40}\bwho (answers|answered|picks up|picked up)\b", re.I)
CLINICIAN_CALLS = re.compile(r"\b(gp|doctor|dr\.? \w+|nurse|clinician|practitioner|pharmacist|surgery|practice|consultant|hospital|ward|"
                             r"clinic|registrar|team)\b"
                             r".{0,12}\b(rang|rings?|rung|ringing|calls?|called|calling|phoned|phones?|phoning)\b", re.I)
ANSWER_RING_S = 12.0  # the first words this soon after a ring starts answer it
CALL_TOPIC_S = 45.0  # what the call is about is said this soon after the ring


def _answers_phone(ctx: AnswerContext) -> Result | None:
    from harp_desktop.agent.answerers.sounds import events

    turns = sorted((s for s in ctx.segments if s["text"].strip() and ctx.label_of(s)), key=lambda s: s["start_s"])
    rings = events(ctx, "telephone")
    # "When the hospital rings, who answers?": of several rings, the one whose call speaks of what the question names.
    topic = set(said.focus_terms(ANSWERS_PHONE.sub(" ", ctx.spec.question))) - VOICE_WORDS
    if topic and len(rings) > 1:
        def told(ring: Evidence) -> int:
            call = " ".join(s["text"] for s in turns if ring.start_s <= s["start_s"] <= ring.end_s + CALL_TOPIC_S)
            return len(topic & set(said.focus_terms(call)))
        rings = sorted(rings, key=lambda r: -told(r))
    # "Who answered when the GP rang back?": the caller speaks into the ring-back, but the one who answers is the
    # other side of the call.
    caller = "clinician" if CLINICIAN_CALLS.search(ctx.spec.question) else None
    for ring in rings:
        after = [s for s in turns if ring.start_s <= s["start_s"] <= ring.end_s + ANSWER_RING_S
                 and (caller is None or ctx.roles.get(ctx.label_of(s) or "") != caller)]
        if after:
            e, label = ctx.evidence(after[0], "time"), ctx.label_of(after[0])
            word = ctx.person(label, named=False)
            return Result(_options_word(ctx.spec, word, ctx.voice_names.get(label or "")),
                          f"The phone rings at {format_clock(ring.start_s)}; the first to speak after it is {label} ({word}) "
                          f"at {span(e)}: \"{e.text.strip()[:120]}\".", [e], {"kind": "turn", "speakers": [label]})
    return None


# "Who is the first voice heard?", "who speaks last?": the voice of the first (last) spoken turn in the scope asked.
FIRST_VOICE = re.compile(r"\b(first|last|final|earliest) (voice|person|speaker|one)\b(?! (to )?(mention|say|ask|tell|bring|raise))"
                         r"|\bwho (speaks|spoke|talks|talked|is heard|was heard|says anything|said anything|says something|"
                         r"said something)\b(?: [\w']+){0,4}? (first|last)\b|\b(first|last|final) (word|words)\b(?! (about|on|of) )",
                         re.I)


VOICE_WORDS = set(lx.stems("identify name speaker speaking speaks voice person talking talks heard hear whose who is it that "
                            "this there around about at"))


def _voice_at(ctx: AnswerContext) -> Result | None:
    """"Whose voice is it at 01:35?", "identify the speaker at 11:50": nothing is asked but who talks at a time, so
    the voice of the speech at that time answers. None when the question names something said or done."""
    spec = ctx.spec
    if set(said.focus_terms(spec.question)) - VOICE_WORDS:
        return None
    t = spec.subject.at_s if spec.subject.at_s is not None else spec.anchor_s
    if t is None and spec.window is not None and spec.window[1] - spec.window[0] <= 60:
        t = (spec.window[0] + spec.window[1]) / 2  # "at 01:35" read as the half minute around it
    seg = ctx.segment_at(t) if t is not None else None
    if seg is None or not ctx.label_of(seg):
        return None
    label, e = ctx.label_of(seg), ctx.evidence(seg, "time")
    word = ctx.person(label, named=False)
    return Result(_options_word(spec, word, ctx.voice_names.get(label or "")),
                  f"At {format_clock(t)} {label} ({word}) is speaking, {span(e)}: \"{e.text.strip()[:120]}\".", [e],
                  {"kind": "turn", "speakers": [label]})


def _never_said(ctx: AnswerContext, concepts: list[str], body: str) -> str | None:
    """The named thing (a concept of the vocabulary) when no finding states it and no turn in scope holds its words
    or the question's rarest one, else None."""
    if not concepts or any(f.concept in concepts for f in ctx.findings):
        return None
    words = set(said.respell(ctx, said.focus_terms(body))) | {t for c in concepts for t in lx.stems(c)}
    turns = [s for s in ctx.segments if ctx.in_window(s["start_s"], s["end_s"])]
    if any(words & set(lx.stems(s["text"])) for s in turns):
        return None
    # Nor anything like it: ASR spells a drug its own way ("alive with theroxine" for levothyroxine).
    heard = {w for s in turns for w in re.findall(r"[a-z]{5,}", s["text"].lower())}
    if any(fuzz.partial_ratio(w, c.lower()) >= 75 for c in concepts if len(c) >= 6 for w in heard if len(w) >= 5):
        return None
    return " / ".join(concepts)


def _reader(ctx: AnswerContext) -> Result | None:
    turns = [s for s in ctx.segments if ctx.label_of(s) in ctx.readers and s["text"].strip()
             and ctx.in_window(s["start_s"], s["end_s"])]
    if not turns:
        return None
    label = ctx.label_of(turns[0])
    cited = [ctx.evidence(s, "turn") for s in turns[:3]]
    word = ctx.person(label, named=False)
    return Result(_options_word(ctx.spec, word, ctx.voice_names.get(label or "")),
                  f"{label} ({word}) reads aloud: a long stretch nobody answers, from {span(cited[0])}: "
                  f"\"{cited[0].text.strip()[:120]}\".", cited, {"kind": "turn", "speakers": [label]})


def _first_voice(ctx: AnswerContext) -> Result:
    turns = sorted((s for s in ctx.segments if s["text"].strip() and ctx.label_of(s)
                    and ctx.in_window(s["start_s"], s["end_s"])), key=lambda s: s["start_s"])
    last = re.search(r"\b(last|final)\b", ctx.spec.question, re.I) is not None
    if not turns:
        return Result("Not found", f"Nobody speaks {ctx.window_words()}.", [], {"kind": "turn"}, False)
    seg = turns[-1] if last else turns[0]
    label, e = ctx.label_of(seg), ctx.evidence(seg, "time")
    word = ctx.person(label, named=False)
    return Result(_options_word(ctx.spec, word, ctx.voice_names.get(label or "")),
                  f"The {'last' if last else 'first'} voice {ctx.window_words()} is {label} ({word}) at {span(e)}: "
                  f"\"{e.text.strip()[:120]}\".", [e], {"kind": "turn", "speakers": [label]})


# "How is the woman in this clip related to the patient?", "Ken - who is he to Mr Bennett?": what a person is to the
# patient, not who said something.
RELATION_ASK = re.compile(r"\brelated to\b|\b(relation|relationship)\b|\bwho (is|was|'s) (he|she|this \w+|that \w+|the \w+)"
                          r"( (in|on|from) (the|this) \w+)? to (the patient|him|her|them|mr\.? \w+|mrs\.? \w+|ms\.? \w+|"
                          r"(?-i:[A-Z][a-z]+))\b", re.I)
CAPITALISED = re.compile(rf"\b{NAME}\b")  # a name as names.py reads one


def relation(ctx: AnswerContext) -> Result | None:
    """What the person the question names is to the patient: a voice's relation (``people.relations``), or for a
    name nobody answers to, the relative a turn calls by it ("my brother Ken"). None when neither is known."""
    from harp_desktop.agent.answerers.people import holder
    from harp_desktop.agent.names import NOT_NAMES

    spec = ctx.spec
    for sub in [spec.subject, *spec.others]:
        if sub.kind in ("anyone", "patient"):
            continue
        talk: dict[str, float] = {}
        voices = ctx.speakers_for(sub) or set()
        for s in ctx.segments:
            if s["text"].strip() and ctx.label_of(s) in voices:
                talk[ctx.label_of(s)] = talk.get(ctx.label_of(s), 0.0) + s["end_s"] - s["start_s"]
        if not talk:
            continue
        label = max(talk, key=talk.get)
        if label in ctx.relations:
            e = ctx.evidence(next(s for s in ctx.segments if ctx.label_of(s) == label and s["text"].strip()), "turn")
            word = ctx.person(label, named=False)
            return Result(_options_word(spec, word, ctx.voice_names.get(label)), f"{label} is {word}: the recording "
                          f"says so in what is said to and by them (first heard {span(e)}).", [e],
                          {"kind": "turn", "speakers": [label]})
        return None
    patient_words = {w.lower() for lab, n in ctx.voice_names.items() if ctx.roles.get(lab) == "patient" for w in n.split()}
    for m in CAPITALISED.finditer(spec.question):
        name = m.group(0)
        if name.lower() in NOT_NAMES or name.lower() in patient_words:
            continue
        for s in ctx.segments:
            if re.search(rf"\b{re.escape(name)}\b", s["text"]):
                kin = holder(ctx, ctx.label_of(s), s["text"], {name.lower()})
                if kin and name.lower() in kin.lower():
                    e = ctx.evidence(s, "keyword", 1.0)
                    return Result(_options_word(spec, kin), f"{e.speaker} ({ctx.person(ctx.label_of(s))}) names {name} "
                                  f"as {kin} at {span(e)}: \"{e.text.strip()[:140]}\".", [e], {"kind": "speech", "terms": []})
    return None


def who(ctx: AnswerContext) -> Result:
    """"Who mentions X?" / "who asked about X?" / "who is allergic to X?": the speaker (and role) of
    the turn that carries X (a question, for asking; the earliest strong one, for raising), or of the
    statement of the fact."""
    spec = ctx.spec
    q = spec.question
    if ANSWERS_PHONE.search(q):
        got = _answers_phone(ctx)
        if got is not None:
            return got
    if FIRST_VOICE.search(q):
        return _first_voice(ctx)
    if said.READING.search(q):
        got = _reader(ctx)  # "who's reading the story out loud?": the voice that reads, not a turn with the words
        if got is not None:
            return got
    if RELATION_ASK.search(q):
        got = relation(ctx)
        if got is not None:
            return got
    got = _voice_at(ctx)
    if got is not None:
        return got
    asked, raised, act = ASKING.search(q), RAISING.search(q), SPEECH_ACT.search(q)
    claim = {"kind": "speech", "terms": spec.terms}
    concepts = question_concepts(ctx)
    # A clinician naming a thing asks or advises about it ("any regular medicines, or inhalers?"); it is theirs only
    # when they say so in the first person.
    found = [f for f in ctx.findings if f.concept in concepts and _in_scope(ctx, f)
             and (f.role != "clinician" or (OWN_COMPLAINT.search(f.text) and not SECOND_PERSON.search(f.text)))]
    # "Who still smokes?": the one it is true of now (an ex-smoker's "I gave up" is not the answer).
    pref = ["affirmed", "family", "uncertain"] + ([] if spec.tense == "current" else ["historical"])
    if RELATIVE_ASKED.search(q):  # "which family member has high blood pressure?": a relative's, never the patient's
        pref = ["family"]
    # "Who's the one with pins and needles in the hands?": of two people with it, the one whose words have the
    # question's other words too (the hands, not the feet); then the status preferred, then the earliest.
    asked_stems = set(lx.stems(" ".join(spec.terms)))
    found = sorted((f for f in found if f.status in pref),
                   key=lambda f: (-len(asked_stems & set(lx.stems(f.text or ""))), pref.index(f.status), f.start_s))
    if found and not (asked or raised or act):
        f = found[0]
        ev = _ev(ctx, f)
        word = ctx.person(f.speaker, named=False) if f.role else (f.speaker or "?")
        who_label = f.speaker
        if f.status == "family":
            word = "someone else (a relative)"
            from harp_desktop.agent.answerers.people import holder

            kin = holder(ctx, f.speaker, f.text or "", set(lx.stems(f.concept)) | set(lx.stems(" ".join(spec.terms))))
            if f.role == "other" and f.speaker in ctx.other_names:  # the companion speaking of themself
                word = ctx.person(f.speaker, named=False)
            elif kin:  # "My dad has high blood pressure", "his big sister, Ruby, had...": the relative the words name
                word, who_label = kin, None
            elif f.speaker in ctx.proxies:  # the parent answering for the child, speaking of themself
                word = ctx.person(f.speaker, named=False)
            else:
                who_label = None
        # The statement of the fact is the evidence: checked as the finding it is, not by the question's words.
        return Result(_options_word(spec, word, ctx.voice_names.get(who_label or "")),
                      f"{f.concept} ({STATUS_WORDS[f.status]}) is said {'of' if who_label is None else 'by'} {word} at "
                      f"{span(ev)}: \"{f.text.strip()[:120]}\".", [ev], {"kind": "finding", "concepts": [f.concept]})
    body = q
    for pat in (ASKING, RAISING, SPEECH_ACT):
        body = pat.sub(" ", body)
    unsaid = _never_said(ctx, concepts, body)
    if unsaid and not _closest_spelling(ctx, spec):  # (ASR may have misspelt it: "the peroxide" for levothyroxine)
        # "Who brought up the ibuprofen?" of a recording where nobody says it: nobody, not the nearest turn by meaning.
        return Result("Not found", f"Nobody mentions {unsaid} {ctx.window_words()}.", [], claim, True)
    scored = [(sc, s) for sc, s in said.own_relevance(ctx, body) if sc > 0]
    if asked and scored:
        # "Who asked about X?": a question turn close to the best turn that carries X; else the question that
        # turn answers ("Have you had a fever?" / "I took my temperature"); else that turn itself (requests are
        # often statements: "I hope it's alright if he sits in").
        top = scored[0][0]
        asking = [(sc, s) for sc, s in scored if said._is_question(s["text"]) and sc >= ASK_SHARE * top]
        prompt = _asked_before(ctx, scored[0][1])
        scored = asking or ([(top, prompt)] if prompt is not None else scored)
    key = set(said.focus_terms(body))
    if scored and TOLD_PATIENT.search(q):
        # "Who tells her to carry on with it?": someone other than the patient she is (her own words tell her nothing).
        others = [(sc, s) for sc, s in scored if ctx.roles.get(ctx.label_of(s) or "") != "patient"]
        if others and others[0][0] >= ASK_SHARE * scored[0][0]:
            scored = others
    if scored and act and not asked and _clause_asks(scored[0][1]["text"], key):
        # "Who tells him to hand it in at the front desk?": telling is a statement; the patient's "can I hand it
        # in?" asks. A statement close to the best turn answers (judged by the clause that carries the topic:
        # "...and hand it in at the front desk, and how are you feeling?" tells).
        top, first = scored[0]
        told = [(sc, s) for sc, s in scored if not _clause_asks(s["text"], key) and sc >= ASK_SHARE * top
                and not (TOLD_PATIENT.search(q) and ctx.roles.get(ctx.label_of(s) or "") == "patient")]
        if not told:  # nobody states it in those words: whoever answers the question does ("Yes, keep taking it")
            from harp_desktop.agent.replies import reply_to

            reply = reply_to(ctx.segments, first["id"])
            told = [(top, reply)] if reply is not None else []
        scored = told or scored
    if scored and not (asked or raised or act) and said._is_question(scored[0][1]["text"]):
        # "Who is allergic to an antibiotic?", "who smokes?": the fact is held by whoever answers the
        # question that names it ("Any allergies to medicines?" / "Trimethoprim, my lip swelled up").
        from harp_desktop.agent.replies import reply_to

        reply = reply_to(ctx.segments, scored[0][1]["id"])
        if reply is not None:
            scored = [(scored[0][0], reply)] + scored
    if scored and raised:
        best = scored[0][0]
        # Who raised it first: the turn of its first finding ("the ibuprofen tablets": ibuprofen), even when a
        # later turn has more of the question's words; else the earliest of the turns that say it best.
        first = min((f for f in ctx.findings if f.concept in concepts and _in_scope(ctx, f)), key=lambda f: f.start_s,
                    default=None)
        # A finding spans the exchange that states it: of its turns, the first that says the thing itself raised it
        # (the doctor's "have you travelled recently?"; not "any medicines?" when the patient names the ibuprofen).
        named = []
        if first is not None:
            said_it = set(said.respell(ctx, said.focus_terms(body))) | set(lx.stems(first.concept))
            inside = sorted((x for x in scored if x[1]["start_s"] < first.end_s and x[1]["end_s"] > first.start_s),
                            key=lambda x: x[1]["start_s"])
            named = [x for x in inside if said_it & set(lx.stems(x[1]["text"]))][:1] or \
                [x for x in inside if ctx.label_of(x[1]) == first.speaker][:1]
        scored = sorted(named or [x for x in scored if x[0] >= 0.7 * best], key=lambda x: x[1]["start_s"])
    if scored and lx.CALLED_THROUGH.search(q):
        # "Who called Alfie through?": the turn that calls someone in ("Alfie Walsh, come on through to room two"),
        # not any turn with the name in it.
        from harp_desktop.findings.sections import CALL_IN

        calls = [x for x in scored if CALL_IN.search(x[1]["text"])]
        if calls:
            e = ctx.evidence(calls[0][1], "keyword", calls[0][0])
            label = ctx.label_of(calls[0][1])
            return Result(_options_word(spec, ctx.person(label, named=False), ctx.voice_names.get(label or "")),
                          f"{e.speaker} ({ctx.person(label)}) calls them in at {span(e)}: \"{e.text.strip()[:140]}\".",
                          [e], {"kind": "speech", "terms": []})
    if scored and not (asked or raised or act):
        # "Who had lots of ear infections as a boy?", "which family member has high blood pressure?": whose
        # fact it is, when the turn that states it names a relative ("My dad, his granddad, had..."), not who
        # said it. A question asking for a relative prefers the turns that name one.
        from harp_desktop.agent.answerers.people import HOLDER, holder

        if RELATIVE_ASKED.search(q):
            kin_turns = [x for x in scored if HOLDER.search(x[1]["text"]) and x[0] >= 0.5 * scored[0][0]]
            scored = kin_turns + [x for x in scored if x not in kin_turns]
        top = scored[0][1]
        kin = holder(ctx, ctx.label_of(top), top["text"], key)
        if kin:
            e = ctx.evidence(top, "keyword", scored[0][0])
            return Result(_options_word(spec, kin, None), f"{e.speaker} ({ctx.person(ctx.label_of(top))}) says it of "
                          f"{kin} at {span(e)}: \"{e.text.strip()[:140]}\".", [e], {"kind": "speech", "terms": []})
    if not scored:
        hits = _closest_spelling(ctx, spec)
        if not hits:
            what = " ".join(spec.terms[:4]) or "what the question names"
            return Result("Not found", f"Nobody says {what} {ctx.window_words()}.", [], claim, False)
    else:
        hits = [ctx.evidence(s, "keyword", sc) for sc, s in scored[:2]]
    e = hits[0]
    label = getattr(e, "speaker_label", None) or e.speaker
    role = ctx.roles.get(label or "")
    word = ctx.person(label, named=False) if role else (e.speaker or "?")
    return Result(_options_word(spec, word, ctx.voice_names.get(label or "") if role else None), f"{e.speaker} ({ctx.person(label) if role else 'role unknown'}) says it at {span(e)}: "
                  f"\"{e.text.strip()[:140]}\".", hits[:2], {"kind": "speech", "terms": []})


def _clause_asks(text: str, key: set[str]) -> bool:
    """Whether the clause of ``text`` that carries most of the topic asks (ASR joins a statement and the
    next question into one sentence)."""
    clauses = [c for c in re.split(r"[,.;!?]+\s*", text) if c.strip()] or [text]
    best = max(clauses, key=lambda c: len(key & set(lx.stems(c))))
    return bool(said.ASKS.match(best.strip())) or (best == clauses[-1] and text.rstrip().endswith("?")
                                                   and bool(said.ASKS.search(best)))


def _asked_before(ctx: AnswerContext, seg: dict) -> dict | None:
    """The question turn (another voice, ending at most 10 s before) that ``seg`` answers."""
    spoken = [s for s in sorted(ctx.segments, key=lambda s: s["start_s"]) if s["text"].strip()
              and s["end_s"] <= seg["start_s"] + 0.2 and seg["start_s"] - s["end_s"] <= 10.0]
    prev = spoken[-1] if spoken else None
    if prev is None or ctx.label_of(prev) == ctx.label_of(seg) or not said._is_question(prev["text"]):
        return None
    return prev


def _closest_spelling(ctx: AnswerContext, spec) -> list[Evidence]:
    """ASR mishears drug names ("the peroxide" for levothyroxine): the turn whose letters come closest,
    when it is far closer than any other turn."""
    long_terms = [t for t in spec.terms if len(t) >= 6]
    scored = sorted(((max((fuzz.partial_ratio(t, s["text"].lower().replace(" ", "")) for t in long_terms), default=0), s)
                     for s in ctx.segments if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"])),
                    key=lambda x: -x[0])
    if scored and (scored[0][0] >= 80 or (scored[0][0] >= 65 and scored[0][0] - (scored[1][0] if len(scored) > 1
                                                                                   else 0) >= 12)):
        ctx.notes.append("the words asked about were not found verbatim; this is the closest-matching turn")
        return [ctx.evidence(scored[0][1], "keyword", scored[0][0] / 100)]
    return []


def _options_word(spec, word: str, name: str | None = None) -> str:
    """Answer in the question's own words when it offers options ("the doctor or the patient?"), with
    the name the voice answers to after it ("the receptionist, Marcus")."""
    tail = f", {name}" if name and name.lower() not in word.lower() else ""
    if word == "the patient":
        return "patient" + tail
    m = lx.CLINICIAN.search(spec.question)
    if "patient" not in word and ("clinician" in word or "doctor" in word or "nurse" in word or "gp" in word.lower()):
        # The question's own word for the clinician, else "doctor (clinician)": the reader may have said either.
        title = word.replace("the ", "", 1)
        return (m.group(2).lower() if m else f"{title} (clinician)" if title not in ("clinician", "doctor", "doctor (clinician)")
                else "doctor (clinician)") + tail
    return word.replace("the ", "", 1) + tail


# "Is it the mum who says 'Kids are talking by the door'?", "was it her husband saying '...'?": whose the quoted words are.
SAYS_QUOTE = re.compile(r"\b(who|that) (says|said|is saying|was saying|asks|asked|shouts|shouted)\b|\bsaying\b", re.I)


def said_by(ctx: AnswerContext) -> Result | None:
    """Yes when the turn that carries the quote is the subject's voice, No (naming whose it is) when another's;
    None when the quote is not found."""
    from harp_desktop.agent.answerers.emotion import quoted_segment

    seg = quoted_segment(ctx)
    if seg is None or not ctx.label_of(seg):
        return None
    who = ctx.speakers_for(ctx.spec.subject) or set()
    label, e = ctx.label_of(seg), ctx.evidence(seg, "time")
    word = ctx.person(label, named=False)
    verdict = "Yes" if label in who else "No"
    return Result(verdict, f"{verdict} — \"{e.text.strip()[:100]}\" {span(e)} is said by {label} ({word})"
                  + ("" if label in who else f", not {ctx.spec.subject.describe()}") + ".", [e],
                  {"kind": "turn", "speakers": [label]})

