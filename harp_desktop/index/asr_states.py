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


class TailSkipped(Exception):
    """Raised inside faster-whisper's decoding loop instead of encoding a chunk's short last window (``tail_frames``):
    the segments decoded before it stand, and the loop ends."""


class CapturingWhisper(WhisperModel):
    """A WhisperModel whose transcription windows' encoder states are appended to ``windows`` while it is a list:
    (seek in mel frames, window length in mel frames, (n, d) float16 states).

    ``tail_frames`` > 0: a window that is not the first, reaches the end of the audio and holds fewer mel frames
    than that is not decoded (``TailSkipped`` ends the transcription). After the last word of a chunk faster-whisper
    seeks there and decodes whatever is left, however short, in one more zero-padded 30 s window."""

    windows: list | None = None
    tail_frames: int = 0

    def encode(self, features):  # noqa: ANN001, ANN201 (faster-whisper's signature)
        # Only the decoding loop's windows: detect_language encodes too, at no position of ours. The window's
        # place is the loop's local ``seek`` (faster-whisper 1.2; tests/index/test_asr_states.py checks it).
        caller = sys._getframe(1)
        loc = caller.f_locals if caller.f_code.co_name == "generate_segments" else None
        if loc is not None and self.tail_frames:
            seek, size = int(loc["seek"]), int(loc["segment_size"])
            if seek > 0 and seek + size >= int(loc["content_frames"]) and size < self.tail_frames:
                raise TailSkipped
        out = super().encode(features)
        if self.windows is not None and loc is not None:
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


class ChunkStates:
    """The recording's kept states, read chunk by chunk: ``pool`` equals ``EncoderStates.pool`` over all chunks'
    states concatenated (the same frames in the same order, so the same numbers), but only the chunks a span touches
    are read, memory-mapped where the library keeps them in files, and at most ``CACHED`` stay open. The emotion
    stage held the whole recording's states (~150 MB float16 for 50 min of speech) before (issue 18, stop 27)."""

    CACHED = 2

    def __init__(self, db, rid: int, times: list[np.ndarray]) -> None:
        self._db, self._rid = db, rid
        self.times = np.concatenate(times) if times else np.zeros(0)
        self._starts = np.cumsum([0] + [len(t) for t in times])  # chunk k's frames: [starts[k], starts[k+1])
        self._sorted = bool(np.all(np.diff(self.times) >= 0))
        self._open: dict[int, np.ndarray] = {}

    def _rows(self, k: int) -> np.ndarray:
        if k not in self._open:
            if len(self._open) >= self.CACHED:
                self._open.pop(next(iter(self._open)))
            self._open[k] = self._db.get_array(self._rid, f"asr_states_{k}")[0]
        return self._open[k]

    def _idx(self, a: float, b: float) -> np.ndarray:
        if self._sorted:  # the same indices as the mask below, found by bisection
            return np.arange(np.searchsorted(self.times, a, "left"), np.searchsorted(self.times, b, "right"))
        return np.flatnonzero((self.times >= a) & (self.times <= b))

    def take(self, idx: np.ndarray) -> np.ndarray:
        """The states at global frame indices ``idx`` (ascending), as ``states[idx]`` of the concatenation."""
        parts = []
        ks = np.searchsorted(self._starts, idx, "right") - 1
        for k in np.unique(ks):
            parts.append(np.asarray(self._rows(int(k))[idx[ks == k] - self._starts[k]]))
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def pool(self, a: float, b: float) -> np.ndarray:
        """EncoderStates.pool: (2 d,) mean + std of the states whose centres lie in [a, b] (the nearest if none)."""
        idx = self._idx(a, b)
        if not len(idx):
            idx = np.array([int(np.argmin(np.abs(self.times - (a + b) / 2)))])
        e = self.take(idx).astype(np.float32)
        return np.concatenate([e.mean(0), e.std(0)]).astype(np.float32)


def chunk_states(db, rid: int, chunks: int) -> ChunkStates | None:
    """The recording's kept states, all chunks in time order (read lazily, ``ChunkStates``); None if any chunk has
    none (e.g. indexed before they were kept)."""
    have = {r["name"] for r in db.db.query(
        "SELECT name FROM arrays WHERE recording_id = ? AND name LIKE 'asr_state%'", [rid])}
    times = []
    for i in range(chunks):
        t = db.get_array(rid, f"asr_state_times_{i}") if f"asr_states_{i}" in have else None
        if t is None:
            return None
        times.append(np.asarray(t[0]))
    if not any(len(t) for t in times):  # a chunk without captured windows (none seen; guarded) adds nothing
        return None
    return ChunkStates(db, rid, times)
