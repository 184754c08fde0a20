"""How many readings of a measurement were taken: "how many peak flow blows did she do?", "how many
blood pressure readings does the nurse read out?".

A measurement repeated ("let's do your peak flow... that was 320... 340... 330, so your best is 340")
is announced once, by the act, and each reading follows as a turn that says a value, often without
naming the measurement again. The count is those turns: from the act's turn, the same voice's next
turns that say a value, one reading per turn, until a turn that says none or a minute has passed.
"""

from __future__ import annotations

import re

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers import words
from harp_desktop.agent.answerers.context import AnswerContext, Result, cites

ASKS_READINGS = re.compile(r"\bhow many\b[^?]{0,40}?\b(readings?|blows?|attempts?|measurements?|goes|tries|"
                           r"values?|results?)\b", re.I)
VALUE = re.compile(r"\b\d{2,3}\b|\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\b", re.I)
SERIES_S = 60.0  # readings of one measurement follow each other within this
# Words of the question that say "readings", not which measurement.
COUNTING = set(lx.stems("how many readings reading blows blow attempts attempt measurements measurement goes tries "
                        "values value results result read out recorded record taken take does did do doctor nurse gp "
                        "clinician patient she he her his they"))


def answer(ctx: AnswerContext) -> Result | None:
    """The readings counted, or None when the question names no measurement said in the recording."""
    q = ctx.spec.question
    key = [t for t in words.focus_terms(q) if t not in COUNTING]
    found = words.rarest(ctx, " ".join(key), keep=2) if key else []
    if not found:
        return None
    spoken = sorted((s for s in ctx.segments if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"])),
                    key=lambda s: s["start_s"])
    acts = [s for s in spoken if words.carries(s["text"], found[:1])]
    if not acts:
        return None
    # The act is the mention the readings follow ("for my blood pressure" in a medicine list is not one).
    act, readings = next(((a, r) for a in acts for r in [_series(ctx, a, spoken, found)] if r), (acts[0], []))
    claim = {"kind": "window", "spans": [(act["start_s"], (readings or [act])[-1]["end_s"])]}
    cited = [ctx.evidence(s, "time") for s in readings]
    name = " ".join(w for w in re.findall(r"[a-z]+", q.lower()) if lx.stem(w) in found) or found[0]
    if not readings:
        return Result("0", f"The {name} is mentioned at {cites([ctx.evidence(act, 'time')])} but no value is read out "
                      "after it.", [ctx.evidence(act, "time")], claim, True)
    return Result(str(len(readings)), f"{len(readings)} reading(s) of the {name}, one per turn after "
                  f"\"{act['text'].strip()[:80]}\": {cites(cited)}.", cited, claim)


def _other_measure(text: str, found: list[str]) -> bool:
    """The turn names a measurement other than the one counted."""
    m = lx.KIND_WORDS["vital"].search(text)
    return bool(m) and not set(lx.stems(m.group(0))) & set(found)


def _continues(prev: dict, seg: dict) -> bool:
    """``seg`` goes on with the sentence ``prev`` left open (no full stop, no pause between them)."""
    return not prev["text"].rstrip().endswith((".", "?", "!")) and seg["start_s"] - prev["end_s"] < 0.5


def _series(ctx: AnswerContext, act: dict, spoken: list[dict], found: list[str]) -> list[dict]:
    """The turns that read values of the measurement ``act`` names: the act itself when a value follows its
    words, then the same voice's next turns that say a value, until none or another measurement."""
    word = next((w for w in act["text"].split() if set(lx.stems(w)) & set(found[:1])), "")
    readings = [act] if word and VALUE.search(act["text"].split(word, 1)[-1]) else []
    for s in spoken:
        if s["start_s"] < act["end_s"] - 0.1 or s["id"] == act["id"]:
            continue
        last = readings[-1] if readings else act
        if s["start_s"] - last["end_s"] > SERIES_S:
            break
        if ctx.label_of(s) != ctx.label_of(act):
            continue  # the patient's "Is that bad?" between two readings
        if not VALUE.search(s["text"]) or _other_measure(s["text"], found):
            break  # the series is over: nothing read, or another measurement's value ("your temperature is 38")
        if _continues(last, s):
            continue  # ASR cut one sentence in two ("... your blood pressure is 118 over / 76"): one reading
        readings.append(s)
    return readings
