"""Whisper encoder states for the emotion head: encode a signal, pool per span.

The app encodes each speech segment alone (emotion.segment_states); encoding a whole recording
once made a segment's vector depend on its neighbours (models/emotion/REPORT.md). A signal is
cut into windows, each window's log-mel is computed on its own (Whisper clamps the log-mel to its
maximum - 8, so the window is the unit) and encoded once. The encoder emits one state per 20 ms;
a span's vector is the mean and std of the states whose centres fall inside it. A span therefore
depends only on the audio of the window(s) it overlaps.

How a signal is cut (``encode``'s window_s, pad_to, equal): heads v6/v7 use consecutive 30 s
windows, Whisper's own input size, each zero-padded to 30 s. Issue 18 ("speed back") allows shorter
windows: the fewest equal windows of at most ``window_s``, each zero-padded to ``pad_to`` seconds or
encoded at its own length (CTranslate2 takes a shorter mel and uses the first positional
embeddings). A 5 s segment then costs several times less encoder work, but the states differ, so a
head must be trained on the same cut (the head's ``feature_version`` names it, emotion.ENCODINGS).
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
        e = self.states[idx].astype(np.float32)  # states kept by the ASR pass are float16 (asr_states)
        return np.concatenate([e.mean(0), e.std(0)]).astype(np.float32)


def windows(n: int, window_s: float = WINDOW_S, equal: bool = False) -> list[tuple[int, int]]:
    """[start, end) sample ranges of the windows a signal of n samples is encoded in: consecutive windows of
    window_s (the last one shorter), or ``equal``: the fewest equal windows of at most window_s."""
    win = int(round(window_s * SR))
    n_win = max(1, int(np.ceil(n / win)))
    if not equal:
        return [(w * win, min(n, (w + 1) * win)) for w in range(n_win)]
    edges = np.linspace(0, n, n_win + 1).round().astype(int)
    return list(zip(edges[:-1].tolist(), edges[1:].tolist(), strict=True))


def encode(whisper_model, wav16k: np.ndarray, window_s: float = WINDOW_S, pad_to: float | None = WINDOW_S,
           equal: bool = False) -> EncoderStates:
    """Encode ``wav16k`` with a faster_whisper.WhisperModel (its ctranslate2 model), window by window.

    Windows as ``windows(len, window_s, equal)``; each is zero-padded to ``pad_to`` seconds (at most 30,
    at least window_s) or, None, encoded at its own length. The defaults are heads v6/v7's: consecutive 30 s
    windows padded to 30 s. A window's states depend only on its own audio. Only the states covering real
    audio are kept."""
    import ctranslate2

    if pad_to is not None and not window_s <= pad_to <= WINDOW_S:
        raise ValueError(f"pad_to {pad_to} outside [window_s, {WINDOW_S}]")
    x = np.asarray(wav16k, np.float32)
    fe = whisper_model.feature_extractor
    states, times = [], []
    for i0, i1 in windows(len(x), window_s, equal):
        seg = x[i0:i1]
        n_pad = int(round(pad_to * SR)) if pad_to is not None else max(len(seg), 2 * 160)
        mel = fe(np.pad(seg, (0, n_pad - len(seg))), padding=0)[:, :N_MEL_FRAMES]
        out = whisper_model.model.encode(
            ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None], np.float32)), to_cpu=True)
        h = np.array(out, np.float32)[0]
        keep = max(1, min(len(h), int(np.ceil(len(seg) / SR / FRAME_S))))
        states.append(h[:keep])
        times.append(i0 / SR + (np.arange(keep) + 0.5) * FRAME_S)
    return EncoderStates(np.concatenate(states), np.concatenate(times))
