"""One answerer per operation: the QuerySpec picks it, each has a fixed answer policy.

Yes/no questions start Yes or No; "when" questions give mm:ss or say nothing was found in
the window; counts are digits; emotion-at reads the speech at that time; compare and change
read arousal/valence; free-text questions quote the turn that answers (``said``).
What a sound is like ("are the coughs wet or dry?") is answered "Cannot tell from the sound",
with what was said about it (``sounds.quality``).
"""

from __future__ import annotations

import re

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers import (
    course,
    emotion,
    history,
    readings,
    said,
    silence,
    sounds,
    speech,
    threshold,
    voice,
    who,
    window,
)
from harp_desktop.agent.answerers.context import AnswerContext, Result
from harp_desktop.agent.chain import span
from harp_desktop.agent.query import asks_quality

# "Does anyone cough during the handover?": someone doing it is the sound, not a symptom anyone reports.
SOMEONE_DOES = re.compile(r"\b(anyone|anybody|someone|somebody|either of them|any of them)\s+(cough|sneez|laugh|cr[iy]|wheez|"
                          r"sniff|clear\w* (his|her|their) throat)\w*", re.I)
STRANGERS = re.compile(r"\b(strangers?|bystanders?|other (people|patients|voices)|members? of the public|passers-by|"
                       r"visitors?)\b", re.I)


def count_voices(ctx: AnswerContext) -> Result:
    said: dict[str, list] = {}
    for s in ctx.segments:
        if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"]) and ctx.label_of(s):
            said.setdefault(ctx.label_of(s), []).append(s)
    voices = {k: v for k, v in said.items() if sum(s["end_s"] - s["start_s"] for s in v) >= 1.0}
    if STRANGERS.search(ctx.spec.question):
        # "How many strangers / other people in the waiting room...": not the patient, the clinician, the
        # companion the patient brought, or the receptionist who calls them in.
        known = {k for k, r in ctx.roles.items() if r in ("patient", "clinician")} | set(ctx.other_names)
        voices = {k: v for k, v in voices.items() if k not in known}
    claim = {"kind": "voice_count"}
    if not voices:
        return Result("0", f"No speech was found {ctx.window_words()}.", [], claim, False)
    cited = [ctx.evidence(v[0], "time") for v in voices.values()]
    parts = "; ".join(f"{e.speaker} from {span(e)} ({len(voices[lab])} turn(s))"
                      for e, lab in zip(cited, voices, strict=True))
    return Result(str(len(voices)), f"{len(voices)} distinct voice(s) speak {ctx.window_words()}: {parts}.", cited,
                  claim)


def count_quote(ctx: AnswerContext) -> Result:
    from harp_desktop.agent.settle import count_quote as quoted

    voices = ctx.speakers_for(ctx.spec.subject)  # "how many times does the GP say 'okay'?": the GP's turns only
    said = [ctx.evidence(s, "keyword") for s in ctx.segments if ctx.in_window(s["start_s"], s["end_s"])
            and (voices is None or ctx.label_of(s) in voices)]
    hits = quoted(ctx.spec.quote or "", said)
    claim = {"kind": "speech", "quote": ctx.spec.quote}
    if not hits:
        return Result("0", f"'{ctx.spec.quote}' was not found in the transcript {ctx.window_words()}.", [], claim, True)
    return Result(str(len(hits)), f"'{ctx.spec.quote}' is spoken {len(hits)} time(s): "
                  + ", ".join(span(e) for e in hits[:12]) + ".", hits, claim)


def stated_count(ctx: AnswerContext) -> Result | None:
    """"How many times was he up in the night?", "how many blows did she do?": a number the speech
    states, not a count of moments of the recording. A question about acts of speech ("how many
    questions does she ask", "how many times does the doctor say 'okay'") or about a kind of finding
    ("how many medicines") is counted instead (None here)."""
    q = ctx.spec.question
    if ctx.spec.quote or lx.SPEECH_ACT.search(q) or lx.ASKING.search(q) or re.search(
            r"\b(turns?|words?|phrases?|occasions?|people|speakers?|voices?|speaks?|spoke|talks?|talked)\b", q, re.I):
        return None
    if speech.counted_kinds(q):
        return None
    got = said.answer(ctx)
    n = lx.spoken_count(got.first, q) if got.first != "Not found" else None
    if n is None:
        return None
    return Result(str(n), f"Stated in the speech: \"{got.first.strip()[:160]}\". {got.rationale}", got.cited, got.claim)


GENDER_ASK = re.compile(r"\b(male or female|female or male|(a )?man or (a )?woman|(a )?woman or (a )?man|what (gender|sex))\b"
                        r"|^\s*(is|was) (the|that|this) [\w' ]{2,30}? (a )?(man|woman|male|female|lady|gentleman)\s*\??\s*$",
                        re.I)


def voice_gender(ctx: AnswerContext) -> Result | None:
    """"Is the doctor male or female?": the subject's voice pitch (median F0 per speaker)."""
    from harp_desktop.agent.answerers.voice_match import gender_speakers

    who = ctx.speakers_for(ctx.spec.subject)
    if not who:
        return None
    men, women = gender_speakers(ctx, "man"), gender_speakers(ctx, "woman")
    label = sorted(who)[0]
    said = [s for s in ctx.segments if ctx.label_of(s) in who and s["text"].strip()]
    if label not in men and label not in women or not said:
        return None
    gender = "male" if label in men else "female"
    cited = [ctx.evidence(s, "voice", 1.0) for s in said[:2]]
    why = (f"{ctx.spec.subject.describe()} is {label}, whose voice pitch is in the {gender} range "
           f"(median fundamental frequency per speaker): {span(cited[0])}.")
    asked = re.search(r"\b(man|woman|male|female|lady|gentleman)\s*\??\s*$", ctx.spec.question, re.I)
    if ctx.spec.operation == "exists" and asked and not re.search(r"\bor\b", ctx.spec.question, re.I):
        want = "male" if asked.group(1).lower() in ("man", "male", "gentleman") else "female"
        return Result("Yes" if want == gender else "No", why, cited, {"kind": "finding"})
    return Result(gender, why, cited, {"kind": "finding"})


def answer(ctx: AnswerContext) -> Result | None:
    """The answerer of the question's operation, its citations completed with the exchange they belong to."""
    got = _dispatch(ctx)
    if got is not None and ctx.spec.operation in ("exists", "what_said", "describe"):
        got.cited = with_questions(ctx, got.cited)
    return got


def with_questions(ctx: AnswerContext, cited: list) -> list:
    """A reply is evidence with the question it answers: "No, none at all" means nothing without "Any blood
    in your stool?". The question turn (another voice, ending at most 3 s before) is cited after the reply."""
    from harp_desktop.agent.answerers.said import _is_question

    by_id = {s["id"]: s for s in ctx.segments}
    spoken = [s for s in sorted(ctx.segments, key=lambda s: s["start_s"]) if s["text"].strip()]
    have = {e.segment_id for e in cited}
    out = list(cited)
    for e in cited:
        seg = by_id.get(e.segment_id)
        if seg is None:
            continue
        before = [s for s in spoken if s["end_s"] <= seg["start_s"] + 0.2 and seg["start_s"] - s["end_s"] <= 3.0
                  and ctx.label_of(s) != ctx.label_of(seg)]
        q = before[-1] if before else None
        if q is not None and q["id"] not in have and _is_question(q["text"]):
            out.append(ctx.evidence(q, "exchange"))
            have.add(q["id"])
    return out


TALK_TOGETHER = re.compile(r"\b(talk|speak|chat|convers|argu|discuss)\w*\b(?! about)", re.I)


def talk_together(ctx: AnswerContext) -> Result | None:
    """"Do the patient and her husband talk to each other in the first minute?": both voices speak in the
    window, one answering the other (turns within 10 s of each other)."""
    spec = ctx.spec
    a, b = ctx.speakers_for(spec.subject), ctx.speakers_for(spec.others[0])
    if not a or not b:
        return None
    turns = [s for s in ctx.segments if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"])]
    pairs = [(p, q) for p, q in zip(turns, turns[1:], strict=False)  # one turn right after the other's
             if {ctx.label_of(p), ctx.label_of(q)} & a and {ctx.label_of(p), ctx.label_of(q)} & b
             and ctx.label_of(p) != ctx.label_of(q) and q["start_s"] - p["end_s"] <= 10.0]
    claim = {"kind": "turn", "speakers": sorted(a | b)}
    who = f"{spec.subject.describe()} and {spec.others[0].describe()}"
    if not pairs:
        return Result("No", f"No — {who} do not speak to each other {ctx.window_words()}.", [], claim, True)
    p, q = pairs[0]
    cited = [ctx.evidence(p, "time"), ctx.evidence(q, "time")]
    return Result("Yes", f"Yes — {who} speak to each other {ctx.window_words()}: \"{p['text'].strip()[:80]}\" "
                  f"{span(cited[0])} / \"{q['text'].strip()[:80]}\" {span(cited[1])}.", cited, claim)


def _dispatch(ctx: AnswerContext) -> Result | None:
    spec = ctx.spec
    if (spec.operation == "exists" and spec.target == "speech" and spec.others and not spec.quote
            and TALK_TOGETHER.search(spec.question) and not spec.terms[3:]):
        got = talk_together(ctx)
        if got is not None:
            return got
    op, target = spec.operation, spec.target
    if op == "exists" and spec.quote and spec.subject.kind not in ("anyone", "at_time") and who.SAYS_QUOTE.search(
            spec.question):
        got = who.said_by(ctx)  # "is it the mum who says '...'?": whose the words are
        if got is not None:
            return got
    if GENDER_ASK.search(spec.question) and spec.subject.kind in ("patient", "clinician", "other", "named"):
        got = voice_gender(ctx)
        if got is not None:
            return got
    if op == "compare":
        return emotion.answer_compare(ctx)
    if op == "change":
        return emotion.answer_change(ctx)
    if spec.cues.get("emotion"):
        return emotion.answer_locate(ctx)
    if op == "emotion_at" or op in ("describe", "what_said") and target == "emotion":
        return emotion.answer_at(ctx)
    if silence.asks(spec.question, op) and target in ("speech", "event") and not spec.quote:
        return silence.answer(ctx)
    if op == "describe" and asks_quality(spec.question):
        from harp_desktop.agent.rules import SOUND_QUALITIES, analyse

        which = analyse(spec.question, False).quality or "wet or dry"
        return sounds.quality(ctx, which, SOUND_QUALITIES[which][0])
    if op in ("describe", "what_said") and sounds.WHAT_SOUND.search(spec.question):
        got = sounds.which_sound(ctx)  # "what sound is heard at 00:50?"
        if got is not None:
            return got
    if op in ("describe", "what_said"):
        got = sounds.said_after(ctx)  # "what did she say right after the phone rang?"
        if got is not None:
            return got
    if op in ("describe", "what_said") and window.asks_window(ctx):
        return window.answer(ctx)
    if op in ("describe", "what_said"):
        return history.answer(ctx) or speech.listing(ctx) or said.answer(ctx)
    if op == "who" and target == "event" and who.ANSWERS_PHONE.search(spec.question):
        return who.who(ctx)  # "who answered the phone when the GP rang back?": a person, never Yes
    if target == "event":
        got = sounds.answer(ctx)
        if (op == "exists" and got.first == "No" and spec.mode != "exhibited" and spec.event in speech.SOUND_CATEGORY
                and not lx.HEARD.search(spec.question) and not SOMEONE_DOES.search(spec.question)):
            # "Has she noticed wheezing?", "does he have a cough?": a symptom that is also a sound is
            # there when it is heard or when it is reported, so the findings answer too.
            told = speech.exists(ctx)
            if told.first == "Yes":
                told.rationale += f" (No {spec.event.replace('_', ' ')} was detected as a sound.)"
                return told
        return got
    if target == "voice":
        return voice.answer(ctx)
    if target == "emotion" and op in ("exists", "when_first", "when_all", "count"):
        return emotion.answer_label(ctx)
    if target == "speakers":
        return count_voices(ctx)
    if op == "count" and spec.quote:
        return count_quote(ctx)
    if op == "count" and readings.ASKS_READINGS.search(spec.question):
        got = readings.answer(ctx)
        if got is not None:
            return got
    if op == "count":
        return stated_count(ctx) or speech.count(ctx)
    if op == "who" and (spec.cues.get("speaker") or spec.subject.kind == "cue"):
        got = who.relation(ctx) if who.RELATION_ASK.search(spec.question) else None
        return got or voice.identify(ctx)  # what the clip's voice is to the patient, where the recording says it
    if op == "who":
        return who.who(ctx)
    if op == "exists" and threshold.asks(spec.question):
        got = threshold.answer(ctx)  # "are his sats below 92?": his reading against the number, not the words
        if got is not None:
            return got
    if op == "exists":
        return history.answer(ctx) or course.answer(ctx) or speech.exists(ctx)
    if op in ("when_first", "when_all"):
        return speech.when(ctx)
    return speech.listing(ctx) or said.answer(ctx)
