"""Voices: is the person of the example clip heard, and when do they first speak."""

from __future__ import annotations

from harp_desktop.agent.answerers.context import AnswerContext, Result, cites
from harp_desktop.agent.chain import span
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

VOICE_MATCH = 0.745  # best-window cosine between the cue's voice and a segment's (GE2E), set on dev (decisions.md)
VOICE_NEAR_BEST = 0.06


def voice_segments(ctx: AnswerContext, wav) -> list[Evidence]:
    """Segments in the clip's voice, in time order: within VOICE_NEAR_BEST of the best match."""
    key = "_voice_cache"
    cache = ctx.__dict__.setdefault(key, {})
    if id(wav) in cache:
        return cache[id(wav)]
    dur = float(ctx.rec["duration_s"])
    scored = ctx.tools.speaker(wav, None, 0.0, dur, k=400)
    by_id = {s["id"]: s for s in ctx.segments}
    for e in scored:
        seg = by_id.get(e.segment_id)
        e.speaker_label = ctx.label_of(seg) if seg else None  # type: ignore[attr-defined]
    best = max((e.scores["speaker"] for e in scored), default=0.0)
    out = [] if best < VOICE_MATCH else sorted(
        [e for e in scored if e.scores["speaker"] >= max(VOICE_MATCH, best - VOICE_NEAR_BEST)], key=lambda e: e.start_s)
    cache[id(wav)] = out
    return out


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
