"""Voices: is the person of the example clip heard, and when do they first speak."""

from __future__ import annotations

import numpy as np

from harp_desktop.agent.answerers.context import AnswerContext, Result, cites
from harp_desktop.agent.chain import span
from harp_desktop.agent.settle import VOICE_MATCH, VOICE_NEAR_BEST
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

MALE_MAX_HZ = 155.0  # median F0 below this: a man's voice (adult male ~85-180 Hz, female ~165-255 Hz)


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


def median_f0(wav: np.ndarray, sr: int = 16000) -> float | None:
    """Median fundamental frequency of the voiced 40 ms frames (autocorrelation, 60-400 Hz), or None."""
    frame, hop = int(0.04 * sr), int(0.01 * sr)
    lo, hi = int(sr / 400), int(sr / 60)
    f0s = []
    for i in range(0, len(wav) - frame, hop):
        x = wav[i:i + frame] - wav[i:i + frame].mean()
        energy = float(x @ x)
        if energy < 1e-6:
            continue
        ac = np.correlate(x, x, "full")[frame - 1:]
        lag = lo + int(np.argmax(ac[lo:hi]))
        if ac[lag] / energy > 0.5:  # clearly periodic: a voiced frame
            f0s.append(sr / lag)
    return float(np.median(f0s)) if len(f0s) >= 5 else None


def gender_speakers(ctx: AnswerContext, gender: str) -> set[str]:
    """Speakers in the question's windows whose voice pitch says man or woman ("the woman on the phone")."""
    cache = ctx.__dict__.setdefault("_f0", {})
    talk: dict[str, list[dict]] = {}
    for s in ctx.segments:
        if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"]) and ctx.label_of(s):
            talk.setdefault(ctx.label_of(s), []).append(s)
    out = set()
    for label, segs in talk.items():
        if label not in cache:
            longest = sorted(segs, key=lambda s: s["start_s"] - s["end_s"])[:3]
            f0 = [f for s in longest if (f := median_f0(ctx.audio(s["start_s"], min(s["end_s"], s["start_s"] + 6))))]
            cache[label] = float(np.median(f0)) if f0 else None
        if cache[label] is not None and (cache[label] < MALE_MAX_HZ) == (gender == "man"):
            out.add(label)
    pitched = sorted((cache[k], k) for k in talk if cache.get(k) is not None)
    if not out and len(pitched) >= 2:
        # Acted or shouted speech lifts a man's pitch: between the voices in the window, the lower is
        # "the man" and the higher "the woman".
        out = {pitched[0][1] if gender == "man" else pitched[-1][1]}
    return out
