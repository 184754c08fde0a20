"""Whisper encoder states for the emotion head: encode a signal, pool per span.

The app encodes each speech segment alone (emotion.segment_states); encoding a whole recording
once made a segment's vector depend on its neighbours (models/emotion/REPORT.md). A signal is
cut into consecutive 30 s windows (Whisper's own input size; the last one is
zero-padded), each window's log-mel is computed on its own (Whisper clamps the log-mel to its
maximum - 8, so the window is the unit) and encoded once. The encoder emits one state per 20 ms;
a span's vector is the mean and std of the states whose centres fall inside it. A span therefore
depends only on the audio of the 30 s window(s) it overlaps.
"""

from __future__ import annotations

import numpy as np

SR = 16000
WINDOW_S = 30.0
FRAME_S = 0.02  # one encoder state per 20 ms (2 mel frames of 10 ms, stride-2 convolution)
N_MEL_FRAMES = 3000


class EncoderStates:
    """Encoder states of a whole signal: ``states`` (n, d) float32 and their centre ``times`` (s)."""

    def __init__(self, states: np.ndarray, times: np.ndarray) -> None:
        self.states, self.times = states, times

    def pool(self, a: float, b: float) -> np.ndarray:
        """(2 d,) mean + std of the states whose centres lie in [a, b] (the nearest one if none)."""
        idx = np.flatnonzero((self.times >= a) & (self.times <= b))
        if not len(idx):
            idx = np.array([int(np.argmin(np.abs(self.times - (a + b) / 2)))])
        e = self.states[idx]
        return np.concatenate([e.mean(0), e.std(0)]).astype(np.float32)


def encode(whisper_model, wav16k: np.ndarray) -> EncoderStates:
    """Encode ``wav16k`` in 30 s windows with a faster_whisper.WhisperModel (its ctranslate2 model).

    A window's states depend only on its own audio. Only the states covering real audio are
    kept (the padding of the last window is dropped)."""
    import ctranslate2

    x = np.asarray(wav16k, np.float32)
    win = int(WINDOW_S * SR)
    n_win = max(1, int(np.ceil(len(x) / win)))
    fe = whisper_model.feature_extractor
    states, times = [], []
    for w in range(n_win):
        seg = x[w * win: (w + 1) * win]
        mel = fe(np.pad(seg, (0, win - len(seg))), padding=0)[:, :N_MEL_FRAMES]
        out = whisper_model.model.encode(
            ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None], np.float32)), to_cpu=True)
        h = np.array(out, np.float32)[0]
        keep = max(1, min(len(h), int(np.ceil(len(seg) / SR / FRAME_S))))
        states.append(h[:keep])
        times.append(w * WINDOW_S + (np.arange(keep) + 0.5) * FRAME_S)
    return EncoderStates(np.concatenate(states), np.concatenate(times))
