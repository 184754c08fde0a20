"""Which speakers sound like an example clip or like a man / a woman: the voice lookups that
AnswerContext (cue and gender subjects) and the voice answerer (voice.py) share.

A module of its own, typed against the few context members it reads (VoiceContext), so
context.py can import it without importing the answerers that import context.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from harp_desktop.agent.settle import CAM_BAND_SAME, SAME_VOICE, voice_thresholds
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


def voice_segments(ctx: VoiceContext, wav, across_channel: bool = True) -> list[Evidence]:
    """Segments in the clip's voice, in time order (``cue_voice``). ``across_channel``: also confirm the voice's
    turns heard through the other channel (a phone line against the room); callers that want only the voices
    (labels) skip it, as it adds turns of a voice already found, never another voice."""
    key = "_voice_cache"
    cache = ctx.__dict__.setdefault(key, {})
    if (id(wav), across_channel) in cache:
        return cache[(id(wav), across_channel)]
    by_id = {s["id"]: s for s in ctx.segments}
    out = cue_voice(ctx.tools, wav, float(ctx.rec["duration_s"]),
                    lambda e: ctx.label_of(by_id[e.segment_id]) if e.segment_id in by_id else None,
                    ctx.audio if across_channel else None)
    cache[(id(wav), across_channel)] = out
    return out


BAND_MAX_S = 8.0  # of a turn compared through the telephone band: CAM++ costs ~15 ms per second of audio


def cue_voice(tools: RecordingTools, wav: np.ndarray, duration_s: float, label_of: Callable[[Evidence], str | None],
              audio: Callable[[float, float], np.ndarray] | None = None) -> list[Evidence]:
    """The recording's segments in the voice of the clip ``wav``, in time order: every turn scored by its best
    speaker window (``tools.speaker``), picked by ``speakers.pick_voice`` with the encoder's thresholds, and,
    given ``audio`` (start, end -> samples), the turns of the picked
    voice heard through the other channel than the clip that match it through the telephone band
    (``across_channel``). Shared by the answerers and benchmarks/paraling/voice_cues.py (what is measured is
    what answers). Each item's ``speaker_label`` is its diarised speaker (``label_of``)."""
    from harp_desktop.index.speakers import main_voice, pick_voice

    # Every turn, not the best few hundred: the voice's turns through the other channel may score below hundreds of
    # other voices' turns (a phone turn at 0.15) and are still its own (``across_channel``).
    scored = tools.speaker(wav, None, 0.0, duration_s, k=1_000_000)
    for e in scored:
        e.speaker_label = label_of(e)  # type: ignore[attr-defined]
    encoder = tools.voice_encoder
    match, near_best = voice_thresholds(encoder)
    triples = [(e.scores["speaker"], e.speaker_label, e) for e in scored]  # type: ignore[attr-defined]
    picked = pick_voice(triples, match, near_best)
    if picked and audio is not None and encoder == "campplus":
        main = main_voice(triples, near_best)
        chosen = {id(e) for e in picked}
        picked += across_channel(tools, wav, [e for e in scored if id(e) not in chosen and main is not None
                                              and e.speaker_label == main], audio)  # type: ignore[attr-defined]
    return sorted(picked, key=lambda e: e.start_s)


def across_channel(tools: RecordingTools, wav: np.ndarray, turns: list[Evidence],
                   audio: Callable[[float, float], np.ndarray]) -> list[Evidence]:
    """Those of ``turns`` (the picked voice's own, by diarisation, below the match) heard through the other
    channel than the clip -- one on a telephone line, the other in the room (``findings.band.phone_band``,
    the test index/phone_link.py linked the labels by) -- whose voice matches the clip's when both are heard
    through the telephone band (settle.CAM_BAND_SAME). Why: the line takes away the bands CAM++ leans on, so
    a room clip scores a person's phone turns like another voice's (bank_rec_08's patient, "Hello, nurse."
    on the line: 0.15; through the band 0.63), and a phone clip their room turns. Each item added carries
    its band similarity in ``scores["speaker_band"]``."""
    from harp_desktop.audio.decode import SAMPLE_RATE
    from harp_desktop.findings.band import phone_band

    clip_phone = phone_band(np.asarray(wav, np.float32), 0.0, len(wav) / SAMPLE_RATE)
    if clip_phone is None or not turns:
        return []
    other, clips = [], []
    for e in turns:
        x = audio(e.start_s, e.end_s)
        turn_phone = phone_band(x, 0.0, len(x) / SAMPLE_RATE)
        if turn_phone is not None and turn_phone != clip_phone:
            other.append(e)
            clips.append(x[: int(BAND_MAX_S * SAMPLE_RATE)])
    if not other:
        return []
    emb = tools.band_embeddings([np.asarray(wav, np.float32), *clips])
    out = []
    for e, sim in zip(other, emb[1:] @ emb[0], strict=True):
        if float(sim) >= CAM_BAND_SAME:
            e.scores["speaker_band"] = float(sim)
            out.append(e)
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
