"""Spectrogram of the visible part of a recording, at screen resolution (numpy only, no Qt).

Each redraw makes one column per screen pixel over [t0, t1], so its cost depends on the
widget's width, not on the recording's length. Zoomed in (a column up to 256 ms), the
frames a column needs are read from the decoded 16 kHz memmap and transformed: up to
``MAX_FRAMES_PER_COLUMN`` back-to-back 32 ms frames per column, averaged, so nothing
between two frames is skipped; closer in, frames overlap as an ordinary STFT's do.
Zoomed further out, sampling frames would miss a cough between them, so columns are
averaged from the ``Overview``: every 256 ms cell's mean power spectrum, computed once
per recording in the background (about 0.9 s and 15 MB per hour of audio, in memory
only). Until it exists, zoomed-out columns are sampled (a first picture, not complete).

Power is scaled so that a full-scale sine reads 0 dB in its bin (dB re full scale), which
keeps the colours stable while scrolling: the levels never depend on what is on screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

N_FFT = 512  # 32 ms at 16 kHz, 31.25 Hz per bin: coughs, wheezes and breaths separate well
MAX_FRAMES_PER_COLUMN = 8  # frames averaged per pixel column; = the overview's cell, so coverage is complete
MAX_COLUMNS = 4096
_CHUNK_FRAMES = 1024  # frames gathered and transformed at a time: bounded memory, short GIL holds
_EPS = 1e-12


@dataclass(frozen=True)
class SpectroImage:
    """``db[column, row]``: dB re full scale; row r is frequency ``r * bin_hz``."""

    t0: float
    t1: float
    bin_hz: float
    db: np.ndarray  # float32, (columns, rows)

    @property
    def fmax(self) -> float:
        return self.db.shape[1] * self.bin_hz

    def peak_bin(self) -> int:
        """The frequency row holding the most energy over the whole image (tests, diagnostics)."""
        return int(np.argmax(np.mean(10 ** (self.db / 10), axis=0)))


@dataclass(frozen=True)
class Overview:
    """Mean power spectrum (not dB) of every ``cell_s`` of a recording: ``power[cell, bin]``."""

    cell_s: float
    power: np.ndarray  # float32, (cells, N_FFT // 2 + 1)


def build_overview(audio: np.ndarray, sample_rate: int, should_stop: Callable[[], bool] | None = None,
                   n_fft: int = N_FFT) -> Overview | None:
    """Stream over ``audio`` (a memmap is fine) in bounded chunks; None if stopped."""
    cell = n_fft * MAX_FRAMES_PER_COLUMN
    window, scale = _window(n_fft)
    cells = len(audio) // cell
    power = np.empty((cells, n_fft // 2 + 1), dtype=np.float32)
    per_chunk = 256  # cells (about a minute of audio) per step: short GIL holds, bounded memory
    for c in range(0, cells, per_chunk):
        if should_stop is not None and should_stop():
            return None
        n = min(per_chunk, cells - c)
        x = np.asarray(audio[c * cell:(c + n) * cell], dtype=np.float32).reshape(-1, n_fft)
        spec = np.fft.rfft(x * window, axis=1)
        p = (spec.real ** 2 + spec.imag ** 2) * scale
        power[c:c + n] = p.reshape(n, MAX_FRAMES_PER_COLUMN, -1).mean(axis=1)
    return Overview(cell / sample_rate, power)


def _window(n_fft: int) -> tuple[np.ndarray, float]:
    window = np.hanning(n_fft + 2)[1:-1].astype(np.float32)  # no zero end points: every sample counts
    return window, (2.0 / float(window.sum())) ** 2  # a full-scale sine -> power 1 (0 dB) in its bin


def frames_per_column(column_s: float, sample_rate: int, n_fft: int = N_FFT) -> int:
    return int(min(MAX_FRAMES_PER_COLUMN, max(1, math.ceil(column_s * sample_rate / n_fft))))


def compute(audio: np.ndarray, sample_rate: int, t0: float, t1: float, columns: int, fmax: float,
            n_fft: int = N_FFT, should_stop: Callable[[], bool] | None = None,
            overview: Overview | None = None) -> SpectroImage | None:
    """The spectrogram of ``audio[t0:t1]`` (seconds) as ``columns`` columns up to ``fmax`` Hz.

    ``audio`` may be a memmap: only the samples of the frames are read. Returns None when
    ``should_stop()`` turns true between chunks (a newer view made this one obsolete).
    """
    n = len(audio)
    duration = n / sample_rate if sample_rate else 0.0
    t0, t1 = max(0.0, float(t0)), min(duration, float(t1))
    columns = int(min(MAX_COLUMNS, max(1, columns)))
    bin_hz = sample_rate / n_fft
    rows = int(min(n_fft // 2 + 1, max(2, math.floor(fmax / bin_hz) + 1)))
    if t1 <= t0 or n == 0:
        return SpectroImage(t0, max(t0, t1), bin_hz, np.full((columns, rows), -200.0, np.float32))
    col_s = (t1 - t0) / columns
    if overview is not None and col_s >= overview.cell_s and len(overview.power):
        return _from_overview(overview, t0, t1, columns, rows, bin_hz)
    k = frames_per_column(col_s, sample_rate, n_fft)
    # Frame centres: k evenly spread inside each column; column c spans [t0 + c*col_s, t0 + (c+1)*col_s).
    offsets = (np.arange(k) + 0.5) / k
    centres = t0 + (np.arange(columns)[:, None] + offsets[None, :]) * col_s
    starts = np.round(centres.ravel() * sample_rate).astype(np.int64) - n_fft // 2
    window, scale = _window(n_fft)
    ramp = np.arange(n_fft)
    power = np.empty((len(starts), rows), dtype=np.float32)
    for i in range(0, len(starts), _CHUNK_FRAMES):
        if should_stop is not None and should_stop():
            return None
        idx = starts[i:i + _CHUNK_FRAMES, None] + ramp[None, :]
        outside = (idx < 0) | (idx >= n)
        frames = np.asarray(audio[np.clip(idx, 0, n - 1)], dtype=np.float32)
        if outside.any():  # before the start or past the end: silence, not repeated edge samples
            frames[outside] = 0.0
        spec = np.fft.rfft(frames * window, axis=1)[:, :rows]
        power[i:i + len(idx)] = (spec.real ** 2 + spec.imag ** 2) * scale
    mean = power.reshape(columns, k, rows).mean(axis=1)
    db = (10.0 * np.log10(mean + _EPS)).astype(np.float32)
    return SpectroImage(t0, t1, bin_hz, db)


def _from_overview(ov: Overview, t0: float, t1: float, columns: int, rows: int, bin_hz: float) -> SpectroImage:
    """Each column: the mean of the overview cells it covers (at least one)."""
    n = len(ov.power)
    edges = np.floor(np.linspace(t0, t1, columns + 1) / ov.cell_s).astype(np.int64)
    lo = np.clip(edges[:-1], 0, n - 1)
    hi = np.clip(np.maximum(edges[1:], lo + 1), 1, n)
    # One reduceat over the cells on screen (a cumulative sum held the GIL ~4x longer on an hour).
    a = int(lo[0])
    sums = np.add.reduceat(ov.power[a:int(hi[-1]), :rows], lo - a, axis=0)
    counts = np.maximum(np.diff(np.append(lo, hi[-1])), 1)  # equal starts: reduceat gives that one cell
    mean = sums / counts[:, None]
    return SpectroImage(t0, t1, bin_hz, (10.0 * np.log10(mean + _EPS)).astype(np.float32))


def levels(peak_amplitude: float, dynamic_range_db: float) -> tuple[float, float]:
    """Colour levels (low, high) in dB: the recording's loudest sample at the top, so a quiet
    recording is not all dark, and ``dynamic_range_db`` below it mapped to black."""
    top = 20.0 * math.log10(max(peak_amplitude, 1e-4))
    return top - float(dynamic_range_db), top
