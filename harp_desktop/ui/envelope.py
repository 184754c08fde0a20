"""Min/max envelope pyramid of a decoded recording, so a multi-hour waveform draws instantly.

Level 0 keeps the min and max of every ``BASE_BIN`` samples (4 ms at 16 kHz); each
higher level merges ``FACTOR`` bins of the one below, until a level has fewer than
``MIN_BINS`` bins. It is computed once per recording, streaming over the audio cache
memmap (bounded memory), and saved next to it as ``<sha256>.envelope.npz`` (float16,
~4 MB per hour). Drawing picks the coarsest level that still gives about one bin per
pixel, so the cost of a redraw does not depend on the recording's length. No Qt here.
"""

from __future__ import annotations

import io
import math
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from harp_desktop.audio.decode import SAMPLE_RATE, open_cache
from harp_desktop.store import crypto, sealed

BASE_BIN = 64
FACTOR = 4
MIN_BINS = 2048
VERSION = 1
_CHUNK = BASE_BIN * (1 << 16)  # 4 Mi samples (16 MB) read at a time


@dataclass
class Envelope:
    n_samples: int
    sample_rate: int
    mins: list[np.ndarray]
    maxs: list[np.ndarray]
    audio: np.ndarray | None = None  # the memmap, for drawing single samples when zoomed far in

    @property
    def duration_s(self) -> float:
        return self.n_samples / self.sample_rate if self.sample_rate else 0.0

    @property
    def levels(self) -> int:
        return len(self.mins)

    @staticmethod
    def bin_size(level: int) -> int:
        return BASE_BIN * FACTOR**level

    def view(self, t0: float, t1: float, max_points: int) -> tuple[np.ndarray, np.ndarray]:
        """x (seconds) and y for one curve covering [t0, t1] with about ``max_points`` x positions.

        Zoomed out: a zig-zag through each bin's min and max (reads as a filled envelope).
        Zoomed in past one sample per point: the samples themselves.
        """
        sr = self.sample_rate
        t0, t1 = max(0.0, t0), min(self.duration_s, t1)
        max_points = max(16, int(max_points))
        if t1 <= t0 or self.n_samples == 0:
            return np.zeros(0), np.zeros(0)
        span = (t1 - t0) * sr
        if self.audio is not None and span <= max_points:
            i0, i1 = int(t0 * sr), min(self.n_samples, int(math.ceil(t1 * sr)) + 1)
            return np.arange(i0, i1) / sr, np.asarray(self.audio[i0:i1], dtype=np.float32)
        level = 0
        while level < self.levels - 1 and span / self.bin_size(level) > max_points:
            level += 1
        b = self.bin_size(level)
        j0 = int(t0 * sr) // b
        j1 = min(len(self.mins[level]), int(math.ceil(t1 * sr / b)) + 1)
        mn = self.mins[level][j0:j1].astype(np.float32)
        mx = self.maxs[level][j0:j1].astype(np.float32)
        x = np.repeat((np.arange(j0, j1) + 0.5) * (b / sr), 2)
        return x, np.column_stack((mn, mx)).ravel()


def envelope_path(cache_file: Path) -> Path:
    """``audio/<sha256>.f32`` -> ``audio/<sha256>.envelope.npz``."""
    return cache_file.with_name(cache_file.stem + ".envelope.npz")


def _reduce(mn: np.ndarray, mx: np.ndarray, factor: int) -> tuple[np.ndarray, np.ndarray]:
    pad = (-len(mn)) % factor
    if pad:
        mn = np.concatenate([mn, np.repeat(mn[-1:], pad)])
        mx = np.concatenate([mx, np.repeat(mx[-1:], pad)])
    return mn.reshape(-1, factor).min(axis=1), mx.reshape(-1, factor).max(axis=1)


def build(audio: np.ndarray, sample_rate: int = SAMPLE_RATE, progress: Callable[[float], None] | None = None,
          should_stop: Callable[[], bool] | None = None) -> Envelope:
    """Compute the pyramid, reading ``audio`` (a memmap) in bounded chunks."""
    n = len(audio)
    nb = max(1, math.ceil(n / BASE_BIN)) if n else 0
    mins0 = np.zeros(nb, dtype=np.float16)
    maxs0 = np.zeros(nb, dtype=np.float16)
    for i in range(0, n, _CHUNK):
        if should_stop and should_stop():
            raise InterruptedError("cancelled")
        x = np.asarray(audio[i:i + _CHUNK], dtype=np.float32)
        pad = (-len(x)) % BASE_BIN
        if pad:
            x = np.concatenate([x, np.repeat(x[-1:], pad)])
        r = x.reshape(-1, BASE_BIN)
        j = i // BASE_BIN
        mins0[j:j + len(r)] = r.min(axis=1)
        maxs0[j:j + len(r)] = r.max(axis=1)
        if progress:
            progress(min(1.0, (i + _CHUNK) / n))
    mins, maxs = [mins0], [maxs0]
    while len(mins[-1]) > MIN_BINS:
        mn, mx = _reduce(mins[-1], maxs[-1], FACTOR)
        mins.append(mn)
        maxs.append(mx)
    return Envelope(n, sample_rate, mins, maxs, audio)


def save(env: Envelope, path: Path) -> None:
    """Write atomically (temporary name + rename), readable by the user only."""
    arrays = {"meta": np.array([VERSION, env.n_samples, env.sample_rate, BASE_BIN, FACTOR], dtype=np.int64)}
    for i, (mn, mx) in enumerate(zip(env.mins, env.maxs, strict=True)):
        arrays[f"min{i}"], arrays[f"max{i}"] = mn, mx
    key = crypto.key_for(path.parent.parent)  # <library>/audio/<sha256>.envelope.npz
    if key is not None:  # an encrypted library: the envelope is sealed like the audio it summarises
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        sealed.write_blob(path, key, buf.getvalue(), f"envelope/{path.name}")
        return
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.partial")  # two writers never clash
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def load(path: Path, audio: np.ndarray | None = None) -> Envelope | None:
    """The saved pyramid, or None if absent, stale (different length) or unreadable."""
    try:
        source = path
        if path.exists() and sealed.magic_of(path) == sealed.BLOB_MAGIC:
            key = crypto.key_for(path.parent.parent)
            if key is None:
                return None
            source = io.BytesIO(sealed.read_blob(path, key, f"envelope/{path.name}"))
        with np.load(source, allow_pickle=False) as z:
            version, n, sr, base, factor = (int(v) for v in z["meta"])
            if (version, base, factor) != (VERSION, BASE_BIN, FACTOR) or (audio is not None and n != len(audio)):
                return None
            count = sum(1 for k in z.files if k.startswith("min"))
            mins = [z[f"min{i}"] for i in range(count)]
            maxs = [z[f"max{i}"] for i in range(count)]
    except (OSError, ValueError, KeyError, crypto.PassphraseError):
        return None
    return Envelope(n, sr, mins, maxs, audio)


def load_or_build(cache_file: Path, progress: Callable[[float], None] | None = None,
                  should_stop: Callable[[], bool] | None = None) -> Envelope:
    """Open the audio cache and return its pyramid, computing and saving it the first time."""
    audio = open_cache(cache_file)
    path = envelope_path(cache_file)
    env = load(path, audio)
    if env is None:
        env = build(audio, SAMPLE_RATE, progress, should_stop)
        try:
            save(env, path)
        except OSError:
            pass  # a read-only library still shows the waveform; it is just recomputed next time
    return env
