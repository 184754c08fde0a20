"""Which speakers sound like an example clip or like a man / a woman: the voice lookups that
AnswerContext (cue and gender subjects) and the voice answerer (voice.py) share.

A module of its own, typed against the few context members it reads (VoiceContext), so
context.py can import it without importing the answerers that import context.py.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from harp_desktop.agent.settle import SAME_VOICE, voice_thresholds
from harp_desktop.retrieval.tools import RecordingTools
from harp_desktop.types import Evidence


class VoiceContext(Protocol):
    """What these lookups read of an AnswerContext (answerers/context.py)."""

    rec: dict
    tools: RecordingTools
    segments: list[dict]
    __dict__: dict[str, Any]  # per-question caches live on the context

    def label_of(self, seg: dict) -> str | None: ...

    def in_window(self, start_s: float, end_s: float) -> bool: ...

    def audio(self, a: float, b: float) -> np.ndarray: ...


MALE_MAX_HZ = 155.0  # median F0 below this: a man's voice (adult male ~85-180 Hz, female ~165-255 Hz)


def voice_segments(ctx: VoiceContext, wav) -> list[Evidence]:
    """Segments in the clip's voice, in time order (``speakers.pick_voice``)."""
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
    from harp_desktop.index.speakers import pick_voice  # near the best, plus the best's diarised speaker

    # The thresholds of the encoder whose windows scored the cue (CAM++ where stored, else GE2E).
    picked = pick_voice([(e.scores["speaker"], e.speaker_label, e) for e in scored],  # type: ignore[attr-defined]
                        *voice_thresholds(ctx.tools.voice_encoder))
    out = sorted(picked, key=lambda e: e.start_s)
    cache[id(wav)] = out
    return out


def close_turns(ctx: VoiceContext, wav, windows: list[tuple[float, float]], k: int = 3) -> list[tuple[float, dict, bool]]:
    """The ``k`` turns in ``windows`` closest to the clip's voice, best first, as (score, segment, same), where
    ``same``: the score reaches the encoder's same-voice threshold (settle.SAME_VOICE), a voice's emotional
    line included, another voice's mostly not."""
    by_id = {s["id"]: s for s in ctx.segments}
    near = [e for a, b in windows for e in ctx.tools.speaker(wav, None, a, b, k=k)]
    same = SAME_VOICE.get(ctx.tools.voice_encoder, SAME_VOICE["ge2e"])
    return [(e.scores["speaker"], by_id[e.segment_id], e.scores["speaker"] >= same)
            for e in sorted(near, key=lambda e: -e.scores["speaker"])[:k] if e.segment_id in by_id]


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


def voice_pitch(ctx: VoiceContext, segs: list[dict]) -> float | None:
    """Median F0 of a voice: the median over its three longest turns (their first 6 s each)."""
    longest = sorted(segs, key=lambda s: s["start_s"] - s["end_s"])[:3]
    f0 = [f for s in longest if (f := median_f0(ctx.audio(s["start_s"], min(s["end_s"], s["start_s"] + 6))))]
    return float(np.median(f0)) if f0 else None


def gender_speakers(ctx: VoiceContext, gender: str) -> set[str]:
    """Speakers in the question's windows whose voice pitch says man or woman ("the woman on the phone")."""
    cache = ctx.__dict__.setdefault("_f0", {})
    talk: dict[str, list[dict]] = {}
    for s in ctx.segments:
        if s["text"].strip() and ctx.in_window(s["start_s"], s["end_s"]) and ctx.label_of(s):
            talk.setdefault(ctx.label_of(s), []).append(s)
    out = set()
    for label, segs in talk.items():
        if label not in cache:
            cache[label] = voice_pitch(ctx, segs)
        if cache[label] is not None and (cache[label] < MALE_MAX_HZ) == (gender == "man"):
            out.add(label)
    pitched = sorted((cache[k], k) for k in talk if cache.get(k) is not None)
    if not out and len(pitched) >= 2:
        # Acted or shouted speech lifts a man's pitch: between the voices in the window, the lower is
        # "the man" and the higher "the woman".
        out = {pitched[0][1] if gender == "man" else pitched[-1][1]}
    return out
