"""Sound events (cough, sneeze, laughter... and the room's: telephone, knock, alarm, music, dog):
exists / when / count, for a subject and a window.

A bodily sound belongs to the speaker whose turn it falls in or next to (``speaker_of_time``), so
"how many times does the patient cough" counts the patient's coughs, not the room's. A sound of the
room is nobody's: "did the patient's phone ring?" counts every ring in the window. One ambient event
is one sequence (a phone ringing three times), so a count of rings counts sequences.
"""

from __future__ import annotations

import re

from harp_desktop.agent.answerers.context import AnswerContext, Result, cites
from harp_desktop.agent.chain import span
from harp_desktop.agent.rules import described_side
from harp_desktop.agent.settle import CANNOT_TELL
from harp_desktop.findings.attribution import BOUT_S
from harp_desktop.index.ambient_labels import AMBIENT_WORDS
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

# One run of a sound asked for ("that burst", "in a row", "a coughing fit"): sounds no further apart than a bout's.
ONE_BOUT = re.compile(r"\b(burst|bout|fit|spell|in a row|run of|back to back|in succession)\b", re.I)


# The sound's own end asked for: "when does the music stop?", "when did the ringing end?"
STOPS = re.compile(r"\b(stop|stops|stopped|end|ends|ended|finish\w*|cease\w*|die down|dies down|died down)\s*\??\s*$"
                   r"|\b(stop|stops|stopped|ceases?|ceased) (playing|ringing|beeping|barking|knocking)\b", re.I)


def cue_event(ctx: AnswerContext) -> str | None:
    """The sound class of the example clip ("find sounds like this one")."""
    wav = ctx.cue_wavs.get("sound")
    if wav is None:
        return None
    from harp_desktop.index.events import detect_ambient, detect_events

    tg = ctx.lib.models.yamnet()
    fs = tg.run(wav)
    tags = detect_events(fs, tg.class_names) + detect_ambient(fs, tg.class_names, wav)
    return max(tags, key=lambda t: t.score).label if tags else None


def events(ctx: AnswerContext, label: str) -> list[Evidence]:
    """Every ``label`` event in the question's windows, one per separate burst, subject-filtered."""
    out: list[Evidence] = []
    for a, b in ctx.windows:
        out += ctx.tools.label(label, a, b, "event")
    out = sorted({(round(e.start_s, 2), round(e.end_s, 2)): e for e in out}.values(), key=lambda e: e.start_s)
    if label in AMBIENT_WORDS:  # nobody's sound
        if ctx.spec.subject.kind != "anyone":
            ctx.notes.append(f"{AMBIENT_WORDS[label]} is a sound of the room, nobody's: counted every one")
        return out
    who = ctx.speakers_for(ctx.spec.subject)
    for e in out:
        e.speaker_label = ctx.speaker_of_time(e.start_s, e.end_s, label)  # type: ignore[attr-defined]
    if who is None:
        return out
    if not who:
        ctx.notes.append(f"no speaker is known as {ctx.spec.subject.describe()}; counted every {label.replace('_', ' ')}")
        return out
    if ctx.spec.subject.kind == "other":  # a bystander's sound may have nobody's turn next to it
        return [e for e in out if e.speaker_label in who or e.speaker_label is None]  # type: ignore[attr-defined]
    return [e for e in out if e.speaker_label in who]  # type: ignore[attr-defined]


def answer(ctx: AnswerContext) -> Result:
    spec = ctx.spec
    label = spec.event
    if spec.cues.get("sound"):
        heard = cue_event(ctx)
        if heard and (label is None or heard != label) and not spec.event:
            ctx.notes.append(f"the example clip sounds like {heard.replace('_', ' ')}; searching for that")
            label = heard
    label = label or "cough"
    name = AMBIENT_WORDS.get(label) or label.replace("_", " ")
    items = events(ctx, label)
    who = "" if spec.subject.kind == "anyone" or label in AMBIENT_WORDS else f" by {spec.subject.describe()}"
    where = ctx.window_words()
    claim = {"kind": "event", "label": label}
    if spec.operation == "count":
        if not items:
            return Result("0", f"No {name}{who} was detected {where}.", [], claim, True)
        if ONE_BOUT.search(spec.question) or (RIGHT_AFTER.search(spec.question) and spec.window is not None):
            # "right after he says X, how many coughs come in that burst?": the first bout only, not every one after
            bout = items[:1]
            for e in items[1:]:
                if e.start_s - bout[-1].end_s > BOUT_S:
                    break
                bout.append(e)
            return Result(str(len(bout)), f"{len(bout)} {name} event(s){who} in one bout {where}: {cites(bout, 12)}"
                          + (f" ({len(items) - len(bout)} more later, after a pause)." if items[len(bout):] else "."),
                          bout, claim)
        return Result(str(len(items)), f"{len(items)} {name} event(s){who} {where}: {cites(items, 12)}.", items, claim)
    if spec.operation == "who" and label not in AMBIENT_WORDS:
        return _whose(ctx, items, name, where, claim)
    if spec.operation in ("when_first", "when_all"):
        if not items:
            return Result("Not found", f"No {name}{who} was detected {where}.", [], claim, False)
        if spec.operation == "when_all":
            return Result(", ".join(format_clock(e.start_s) for e in items[:12]),
                          f"{name.capitalize()}{who} at {cites(items, 12)}.", items, claim)
        pick = items[-1] if spec.ordinal == "last" else items[0]
        if STOPS.search(spec.question):  # "when does the music stop?": where the sound ends
            return Result(format_clock(pick.end_s), f"The {spec.ordinal} {name}{who} {where} ends at {span(pick)}; "
                          f"all: {cites(items)}.", items, claim)
        return Result(format_clock(pick.start_s),
                      f"The {spec.ordinal} {name}{who} {where} is at {span(pick)}; all: {cites(items)}.",
                      items, claim)
    if not items:
        return Result("No", f"No — not heard: no {name}{who} was detected {where}.", [], claim, True)
    return Result("Yes", f"{name.capitalize()}{who} can be heard {where} at {cites(items)}.", items, claim)



def _whose(ctx: AnswerContext, items: list[Evidence], name: str, where: str, claim: dict) -> Result:
    """"Who coughs in the first two minutes?": the voice each sound belongs to (``speaker_of_time``), first heard
    first; a sound next to nobody's turn is a bystander's."""
    if not items:
        return Result("Not found", f"No {name} was detected {where}.", [], claim, False)
    owners: dict[str | None, list[Evidence]] = {}
    for e in items:
        owners.setdefault(getattr(e, "speaker_label", None), []).append(e)

    def word(lab: str | None) -> str:
        if lab:
            return ctx.person(lab, named=False)
        places = {ctx.place_of((e.start_s + e.end_s) / 2) for e in owners[None]}
        return f"a bystander{places.pop() if len(places) == 1 else ''} (no speaker's turn is next to it)"

    times = {lab: f" ({len(v)} times)" if len(owners) > 1 else "" for lab, v in owners.items()}
    first = "; ".join(word(lab) + times[lab] for lab in owners)
    why = "; ".join(f"{word(lab)} at {cites(v, 6)}" for lab, v in owners.items())
    return Result(first, f"{name.capitalize()} {where}: {why}.", items, claim)


def quality(ctx: AnswerContext, which: str, pattern: str) -> Result:
    """"Are the coughs wet or dry?": no model here measures what a sound is like, so the answer says so,
    cites the sounds heard, and gives what the speakers said about it ("it's completely dry"): when that
    names one side only, the first line carries it, marked as described."""
    label = ctx.spec.event or "cough"
    name = label.replace("_", " ")
    heard = events(ctx, label)
    said: list[tuple[str, dict]] = []
    for seg in ctx.segments:
        if not ctx.in_window(seg["start_s"], seg["end_s"]):
            continue
        said += [(s, seg) for s in re.split(r"(?<=[.!?])\s+", seg["text"].strip())
                 if s and not s.endswith("?") and re.search(pattern, s.lower())]
    if heard:
        why = (f"{len(heard)} {name} event(s) can be heard ({cites(heard)}), but HARP has no model that tells "
               f"whether a {name} is {which}, so the sound alone cannot settle this.")
    else:
        why = f"No {name} was detected {ctx.window_words()}, and HARP has no model that tells whether a {name} is {which}."
    quoted = [ctx.evidence(seg, "keyword") for _, seg in said[:3]]
    if said:
        why += " What was said about it: " + "; ".join(f'"{s[:120]}" {span(e)}'
                                                      for (s, _), e in zip(said[:3], quoted, strict=True)) + "."
    side = described_side(which, [s for s, _ in said])
    first = CANNOT_TELL + (f" (described as {side})" if side else "")
    return Result(first, why, heard + quoted, {"kind": "event", "label": label}, False)


RIGHT_AFTER = re.compile(r"\b(right|just|straight|immediately|directly)\s+(after|once|following)\b|\bas soon as\b", re.I)
AFTER_WORDS = {"right", "just", "straight", "immediately", "directly", "say", "said", "says", "saying", "soon", "door",
               "start", "starts", "started", "begin", "begins", "began", "stop", "stops", "stopped", "end", "ends",
               "ended", "goes", "went", "off", "comes", "came", "background", "first", "again", "time", "playing"}
STARTS = re.compile(r"\b(start\w*|begin\w*|began|come?s? on|came on)\b", re.I)
AFTER_REACH_S = 60.0  # the turn that follows a sound starts within this of its end


def said_after(ctx: AnswerContext) -> Result | None:
    """"What did the pharmacist say right after the phone rang?": the first turn (of the subject) that starts
    once the first such sound ends, cited with the sound. None when the question is not that: no
    "after <a sound>" anchor, a quote, or topic words that the turn ranker should weigh instead."""
    from harp_desktop.agent import lexicon as lx

    spec = ctx.spec
    if spec.relative is None or spec.relative[0] not in ("after", "once", "following") or spec.quote:
        return None
    phrase = spec.relative[1].lower()
    label = next((k for k, p in lx.EVENTS.items() if p.search(phrase)), None)
    if label is None or (not RIGHT_AFTER.search(spec.question) and [t for t in spec.terms if t not in AFTER_WORDS]):
        return None
    if [t for t in lx.content_terms(lx.EVENTS[label].sub(" ", phrase)) if t not in AFTER_WORDS]:
        return None  # "after the phone rang about her results": a topic for the turn ranker
    name = AMBIENT_WORDS.get(label) or label.replace("_", " ")
    claim = {"kind": "window", "spans": []}
    found = sorted(ctx.tools.label(label, 0.0, float(ctx.rec["duration_s"]), "event"), key=lambda e: e.start_s)
    if not found:
        return Result("Not found", f"No {name} was detected in the recording, so nothing was said after one.", [],
                      claim, False)
    sound = found[-1] if spec.ordinal == "last" else found[0]
    t0 = sound.start_s + 0.5 if STARTS.search(phrase) else sound.end_s - 1.0  # "after the music starts": its start
    who = ctx.speakers_for(spec.subject)
    if who is not None and not who:
        ctx.notes.append(f"no speaker is known as {spec.subject.describe()}; took whoever spoke first")
        who = None
    turns = [s for s in sorted(ctx.segments, key=lambda s: s["start_s"]) if s["text"].strip()
             and t0 <= s["start_s"] <= sound.end_s + AFTER_REACH_S
             and (who is None or ctx.label_of(s) in who)]
    by = "" if spec.subject.kind == "anyone" else f" by {spec.subject.describe()}"
    if not turns:
        return Result("Not found", f"Nothing was said{by} within {AFTER_REACH_S:.0f} s after the {name} at {span(sound)}.",
                      [sound], claim, False)
    turn = turns[0]
    cited = [ctx.evidence(turn, "time"), sound]
    claim["spans"] = [(sound.start_s, turn["end_s"])]
    speaker = ctx.role_name(ctx.label_of(turn)) if ctx.roles.get(ctx.label_of(turn) or "") else turn.get("speaker")
    return Result(turn["text"].strip()[:220],
                  f"Right after the {name} at {span(sound)}, the {speaker or 'speaker'} says at {span(cited[0])}: "
                  f"\"{turn['text'].strip()[:240]}\".", cited, claim)


# "What sound is heard at 00:50?", "which noise comes just before she answers?": the sound events, not the words.
WHAT_SOUND = re.compile(r"\b(what|which) (sound|noise)s?\b", re.I)


def which_sound(ctx: AnswerContext) -> Result | None:
    """The sound events in the question's window, nearest its anchor first ("just before X": the last before it);
    None when none is there (the words of the window answer instead)."""
    # (the recording's tags as its tools already hold them, as window.py reads them)
    tags = [t for t in ctx.tools._tags if t["kind"] == "event" and ctx.in_window(t["start_s"], t["end_s"])]
    if not tags:
        return None
    rel = ctx.spec.relative[0] if ctx.spec.relative else None
    t0 = ctx.spec.anchor_s if ctx.spec.anchor_s is not None else (
        (ctx.spec.window[0] + ctx.spec.window[1]) / 2 if ctx.spec.window else None)
    if rel == "before":
        tags.sort(key=lambda t: -t["end_s"])
    elif t0 is not None:
        tags.sort(key=lambda t: abs((t["start_s"] + t["end_s"]) / 2 - t0))
    else:
        tags.sort(key=lambda t: t["start_s"])
    first = tags[0]["label"]
    name = AMBIENT_WORDS.get(first) or first.replace("_", " ")
    if first not in AMBIENT_WORDS:  # a bodily sound is someone's: "a cough (a bystander in the waiting room)"
        owner = ctx.speaker_of_time(tags[0]["start_s"], tags[0]["end_s"], first)
        mid = (tags[0]["start_s"] + tags[0]["end_s"]) / 2
        name += f" ({ctx.person(owner, named=False) if owner else 'a bystander' + ctx.place_of(mid)})"
    # (what is cited carries the answer: the nearest sound's own events; the others are named in the rationale)
    cited = [e for t in tags if t["label"] == first for e in ctx.tools.label(first, t["start_s"], t["end_s"], "event")][:3]
    others = "; ".join(f"{AMBIENT_WORDS.get(t['label']) or t['label'].replace('_', ' ')} at {format_clock(t['start_s'])}"
                       for t in tags[1:5] if t["label"] != first)
    return Result(name, f"{name.capitalize()} is heard {ctx.window_words()} at {cites(cited)}"
                  + (f"; other sounds there: {others}." if others else "."), cited, {"kind": "event", "label": first})

