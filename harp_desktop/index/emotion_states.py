"""Where the emotion head's Whisper block comes from (the head's ``feature_version`` decides).

- Heads up to v7 (emotion.FEATURE_V5 / V6): tiny.en run again on each segment alone (``emotion.segment_states``).
- A head on emotion.FEATURE_V7 (issue 18, "speed back"): the states the ASR pass computed anyway, kept per ASR
  chunk by the asr stage (``asr_states``). A library whose asr stage ran before they were kept, or with another
  ASR profile than ``asr_states.STATES_PROFILE``, gets them here once: the chunks joined as the asr stage joins
  them, encoded in consecutive 30 s windows by that profile's encoder (encoder only, no decoding). Window
  starts then differ from the decoder's, so those rows are close to, not equal to, a fresh index's.
"""

from __future__ import annotations

from harp_desktop.index.asr_states import STATES_PROFILE, ChunkStates, chunk_states, recording_states
from harp_desktop.index.whisper_enc import SR, EncoderStates, encode, windows


def asr_model(ctx, profile: str):
    """``profile``'s WhisperModel: the asr stage's own instance when it used that profile, else loaded once."""
    from harp_desktop import weights
    from harp_desktop.index.asr import Transcriber

    key = weights.ASR_PROFILES[profile]
    threads = ctx.options.cpu_threads
    return ctx.models.get(f"asr:{key}:{threads}", lambda: Transcriber(weights.model_path(key), None, threads)).model


def encode_joined(whisper, joined, offsets: list[tuple[float, float, float]]) -> EncoderStates:
    """States of a joined chunk encoded in consecutive 30 s windows (the fallback), in recording time."""
    wins = []
    for i0, i1 in windows(len(joined)):
        st = encode(whisper, joined[i0:i1])
        wins.append((i0 * 100 // SR, (i1 - i0) * 100 // SR, st.states))
    return recording_states(wins, offsets)


def asr_states(ctx) -> EncoderStates | ChunkStates:
    """The recording's ASR-pass encoder states (recording time): kept by the asr stage (read chunk by chunk), else
    encoded here."""
    import numpy as np

    from harp_desktop.index.asr import join, plan_chunks
    from harp_desktop.index.stages import _regions

    chunks = plan_chunks(_regions(ctx), ctx.options.asr_chunk_s)
    if ctx.options.asr_profile == STATES_PROFILE and (kept := chunk_states(ctx.db, ctx.rid, len(chunks))) is not None:
        return kept
    whisper = asr_model(ctx, STATES_PROFILE)
    parts = []
    for chunk in chunks:
        ctx.check()
        joined, offsets, _ = join(ctx.audio, chunk)
        parts.append(encode_joined(whisper, joined, offsets))
    parts = [p for p in parts if len(p.times)]
    if not parts:
        return EncoderStates(np.zeros((0, 0), np.float16), np.zeros(0))
    return EncoderStates(np.concatenate([p.states for p in parts]), np.concatenate([p.times for p in parts]))
