"""What happens in a window: "what can be heard between 43 and 49 seconds?", "what is going on
from 04:39 to 04:52?", "what does the doctor do in the last minute?".

A question that names a window and asks only what happens in it has no topic to search for, so
the answer is the window itself, in time order: the sounds heard (and whose), examination acts,
long silences (a pulse counted in silence is an act too), and who speaks, with their words.
"""

from __future__ import annotations

import re

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers import sounds
from harp_desktop.agent.answerers.context import AnswerContext, Result
from harp_desktop.agent.chain import span
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

# "what ... happens / is going on / can be heard / does the doctor do", then the window or the end.
WINDOW_ASK = re.compile(r"\b(what|anything)\b[^?]{0,40}?\b(happen\w*|going on|goes on|go on|takes? place|taking place|"
                        r"heard|hear|audible|do|doing|does|talked about|discussed|being discussed|covered|said|spoken about)\b\s*(\?|$|between|from|in|during|around|at|over|after|"
                        r"before|within|across)", re.I)
SILENCE_S = 5.0  # a gap with no speech and no sound this long is worth telling ("31 s of silence")
MAX_ITEMS = 8
EVERY_TURN_S = 60.0  # a window up to this long tells every turn; a longer one each voice's first (and acts)


def asks_window(ctx: AnswerContext) -> bool:
    """The question names a window (a clock time, a stretch, a section) and asks only what happens in it."""
    spec = ctx.spec
    return (spec.window is not None or spec.section is not None) and bool(WINDOW_ASK.search(spec.question)) \
        and not spec.quote


def _silences(ctx: AnswerContext, a: float, b: float) -> list[tuple[float, float]]:
    busy = sorted([(s["start_s"], s["end_s"]) for s in ctx.segments if s["text"].strip()]
                  + [(t["start_s"], t["end_s"]) for t in ctx.tools._tags if t["kind"] == "event"])
    out, t = [], a
    for s, e in busy:
        if e <= t:
            continue
        if s - t >= SILENCE_S and s > a:
            out.append((t, min(s, b)))
        t = max(t, e)
        if t >= b:
            break
    if b - t >= SILENCE_S:
        out.append((t, b))
    return [(x, y) for x, y in out if y - x >= SILENCE_S]


def answer(ctx: AnswerContext) -> Result:
    who = ctx.speakers_for(ctx.spec.subject)
    items: list[tuple[float, str, str, Evidence | None]] = []  # (time, first-line words, rationale words, cited)
    for a, b in ctx.windows:
        labels = sorted({t["label"] for t in ctx.tools._tags if t["kind"] == "event" and t["end_s"] > a and t["start_s"] < b})
        for label in labels:
            for e in sounds.events(ctx, label):
                owner = getattr(e, "speaker_label", None)
                by = f" by the {ctx.role_name(owner)}" if owner else ""
                name = f"a {label.replace('_', ' ')}{by}"
                items.append((e.start_s, f"{name} ({format_clock(e.start_s)})", f"{name} at {span(e)}", e))
        turns = [s for s in ctx.segments if s["text"].strip() and s["end_s"] > a and s["start_s"] < b
                 and (who is None or ctx.label_of(s) in who)]
        told: set[str] = set()
        for s in turns:
            lab = ctx.label_of(s)
            act = lx.EXAM_ACT.search(s["text"]) and ctx.roles.get(lab or "") != "patient"
            if lab in told and not act and b - a > EVERY_TURN_S:
                continue
            told.add(lab or "")
            e = ctx.evidence(s, "time")
            doing = "examines" if act else "says"
            said = s["text"].strip()
            items.append((s["start_s"], f"the {ctx.role_name(lab)} {doing}: \"{said[:70]}\"",
                          f"the {ctx.role_name(lab)} {doing} at {span(e)}: \"{said[:110]}\"", e))
        if who is None or items:
            for x, y in _silences(ctx, a, b):
                quiet = f"{y - x:.0f} s of silence {format_clock(x)}-{format_clock(y)}"
                items.append((x, quiet, quiet + " (no speech, no sound)", None))
    items.sort(key=lambda it: it[0])
    claim = {"kind": "window", "spans": list(ctx.windows)}
    if not items:
        return Result("Nothing", f"Nothing was heard {ctx.window_words()}: no speech and no sound event.", [], claim)
    shown = items[:MAX_ITEMS]
    more = f" (and {len(items) - MAX_ITEMS} more)" if len(items) > MAX_ITEMS else ""
    first = "; ".join(short for _, short, _, _ in shown[:4])
    why = f"{ctx.window_words().capitalize()}: " + "; ".join(long for _, _, long, _ in shown) + more + "."
    return Result(first, why, [e for _, _, _, e in shown if e is not None], claim)
