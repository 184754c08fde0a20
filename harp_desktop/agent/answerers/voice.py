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
    band = best.scores.get("speaker_band")  # a turn through the other channel, compared through the phone band
    sim = f"{best.scores['speaker']:.2f}" + (f"; {band:.2f} heard through the telephone band" if band else "")
    why = (f"The example voice matches {len(hits)} segment(s) {where}, first at {span(best)} "
           f"(voice similarity {sim}); also {cites(hits[1:]) or 'none'}.")
    if ctx.spec.operation == "exists":
        return Result("Yes", why, hits, claim)
    if ctx.spec.operation == "count":
        return Result(str(len(hits)), why, hits, claim)
    return Result(format_clock(best.start_s), why, hits, claim)


def identify(ctx: AnswerContext) -> Result:
    """"Whose voice is this clip?", "who is the person in this clip, in relation to the patient?": the
    speaker whose speech matches the clip best, named by role (patient, clinician) or by what the
    recording shows them to be (receptionist, the husband the patient introduces)."""
    wav = ctx.cue_wavs.get("speaker")
    claim = {"kind": "voice"}
    hits = voice_segments(ctx, wav, across_channel=False) if wav is not None else []  # whose: the voices only
    if not hits:
        return Result("Not found", "No speech in the recording matches the example voice closely enough.", [], claim,
                      False)
    best = max(hits, key=lambda e: e.scores.get("speaker", 0.0))
    label = getattr(best, "speaker_label", None) or best.speaker
    role = ctx.roles.get(label or "")
    title = ctx.title_of(label) if role == "clinician" else None
    word = {"clinician": f"{title or 'doctor'} (clinician)"}.get(role or "") or ctx.person(label).replace("the ", "", 1)
    name = ctx.voice_names.get(label or "")
    if role == "clinician" and name:
        word = f"{word}, {name}"
    return Result(word, f"The example voice is closest to {label} ({role or 'role unknown'}; voice similarity "
                  f"{best.scores.get('speaker', 0.0):.2f}), heard at {cites(hits[:4])}.", hits[:4], claim)
