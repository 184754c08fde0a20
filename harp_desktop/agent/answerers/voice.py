"""Voices: is the person of the example clip heard, and when do they first speak."""

from __future__ import annotations

from harp_desktop.agent.answerers.context import AnswerContext, Result, cites
from harp_desktop.agent.answerers.voice_match import voice_segments
from harp_desktop.agent.chain import span
from harp_desktop.retrieval.localize import format_clock


def answer(ctx: AnswerContext) -> Result:
    wav = ctx.cue_wavs.get("speaker")
    claim = {"kind": "voice"}
    if wav is None:
        return Result("Not found", "The question is about the voice of an example clip, but no clip was given.",
                      [], claim, False)
    hits = [e for e in voice_segments(ctx, wav) if ctx.in_window(e.start_s, e.end_s)]
    where = ctx.window_words()
    if not hits:
        first = "No" if ctx.spec.operation == "exists" else "Not found"
        return Result(first, f"No — not heard: no speech {where} matches the example voice closely enough.",
                      [], claim, ctx.spec.operation == "exists")
    best = hits[0]
    why = (f"The example voice matches {len(hits)} segment(s) {where}, first at {span(best)} "
           f"(voice similarity {best.scores['speaker']:.2f}); also {cites(hits[1:]) or 'none'}.")
    if ctx.spec.operation == "exists":
        return Result("Yes", why, hits, claim)
    if ctx.spec.operation == "count":
        return Result(str(len(hits)), why, hits, claim)
    return Result(format_clock(best.start_s), why, hits, claim)
