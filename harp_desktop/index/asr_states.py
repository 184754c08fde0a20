"""The ASR pass's own Whisper encoder states, kept for the emotion head (issue 18, "speed back").

faster-whisper encodes each 30 s window of a chunk's joined audio once (``WhisperModel.encode``, called by
``generate_segments`` at the window's start ``seek``, in 10 ms mel frames). ``CapturingWhisper`` keeps a copy
of each window's states (float16, one per 20 ms), so the emotion head can pool them per segment at no extra
encoder cost, where the shipped v7 head encodes every segment again with tiny.en in its own padded 30 s window
(as much CPU as the whole ASR pass). ``recording_states`` maps the windows back to recording time: frames in
the synthetic gaps between joined spans are dropped, and where windows overlap (the next window starts at the
previous one's last word) a frame is taken from the later window, the one that decoded the words after it.
"""

from __future__ import annotations

import sys

import numpy as np
from faster_whisper import WhisperModel

from harp_desktop.index.whisper_enc import FRAME_S, EncoderStates

MEL_S = 0.01  # faster-whisper's seek unit: one 10 ms mel frame
# The ASR profile whose states are kept: the one the emotion head was trained on (models/emotion/asr_context.py).
# With another profile the emotion stage encodes the joined chunks with this profile's encoder itself.
STATES_PROFILE = "base"


class CapturingWhisper(WhisperModel):
    """A WhisperModel whose transcription windows' encoder states are appended to ``windows`` while it is a list:
    (seek in mel frames, window length in mel frames, (n, d) float16 states)."""

    windows: list | None = None

    def encode(self, features):  # noqa: ANN001, ANN201 (faster-whisper's signature)
        out = super().encode(features)
        if self.windows is not None:
            # Only the decoding loop's windows: detect_language encodes too, at no position of ours. The window's
            # place is the loop's local ``seek`` (faster-whisper 1.2; tests/index/test_asr_states.py checks it).
            caller = sys._getframe(1)
            if caller.f_code.co_name == "generate_segments":
                loc = caller.f_locals
                self.windows.append((int(loc["seek"]), int(loc["segment_size"]), np.array(out, np.float16)[0]))
        return out


def recording_states(windows: list, offsets: list[tuple[float, float, float]]) -> EncoderStates:
    """States of captured windows in recording time. ``offsets``: (start, end in the joined audio, start in the
    recording) of each joined span, as asr.Transcriber builds them."""
    states, times = [], []
    for k, (seek, size, h) in enumerate(windows):
        t = seek * MEL_S + (np.arange(len(h)) + 0.5) * FRAME_S
        end = (seek + size) * MEL_S  # the rest of the window is zero padding
        if k + 1 < len(windows):
            end = min(end, windows[k + 1][0] * MEL_S)
        for a, b, orig in offsets:
            m = (t >= max(a, seek * MEL_S)) & (t < min(b, end))
            if m.any():
                states.append(h[m])
                times.append(orig + t[m] - a)
    if not states:
        return EncoderStates(np.zeros((0, 0), np.float16), np.zeros(0))
    times_, states_ = np.concatenate(times), np.concatenate(states)
    order = np.argsort(times_, kind="stable")
    return EncoderStates(states_[order], times_[order])


def put_chunk_states(db, rid: int, chunk: int, states: EncoderStates) -> None:
    """One ASR chunk's states (float16) and their times in the library (read back by chunk_states)."""
    db.put_array(rid, f"asr_states_{chunk}", np.asarray(states.states, np.float16))
    db.put_array(rid, f"asr_state_times_{chunk}", np.asarray(states.times, np.float64))


def chunk_states(db, rid: int, chunks: int) -> EncoderStates | None:
    """The recording's kept states, all chunks in time order; None if any chunk has none (e.g. indexed before)."""
    states, times = [], []
    for i in range(chunks):
        s, t = db.get_array(rid, f"asr_states_{i}"), db.get_array(rid, f"asr_state_times_{i}")
        if s is None or t is None:
            return None
        if len(t[0]):  # a chunk without captured windows (none seen; guarded) adds nothing
            states.append(np.asarray(s[0]))
            times.append(np.asarray(t[0]))
    if not states:
        return None
    return EncoderStates(np.concatenate(states), np.concatenate(times))
