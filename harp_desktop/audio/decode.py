"""Decode a recording to 16 kHz mono float32, streaming, with bounded memory.

Multi-hour files are never held in memory twice: blocks are read, mixed down and
resampled with soxr's streaming resampler, and appended to a raw float32 cache file
that later stages open as a read-only ``np.memmap``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf
import soxr

SAMPLE_RATE = 16000
SUPPORTED = ("WAV", "FLAC", "OGG", "MP3")
_BLOCK_FRAMES = 1 << 18  # ~5.5 s at 48 kHz; bounds memory regardless of file length


class AudioError(ValueError):
    """The file cannot be used as a recording; the message says why in one line."""


@dataclass(frozen=True)
class AudioInfo:
    path: Path
    format: str
    sample_rate: int
    channels: int
    frames: int
    subtype: str
    warning: str = ""

    @property
    def duration_s(self) -> float:
        return self.frames / self.sample_rate if self.sample_rate else 0.0


def sha256_of(path: Path) -> str:
    """A recording's identity: the SHA-256 of its bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def probe(path: Path) -> AudioInfo:
    """Check that ``path`` is a supported, non-empty audio file and describe it."""
    path = Path(path)
    if not path.exists():
        raise AudioError(f"{path}: no such file")
    if path.is_dir():
        raise AudioError(f"{path}: is a folder, not an audio file")
    if path.stat().st_size == 0:
        raise AudioError(f"{path}: the file is empty (0 bytes)")
    try:
        info = sf.info(str(path))
    except (sf.LibsndfileError, RuntimeError, TypeError) as exc:
        raise AudioError(
            f"{path}: not a readable audio file ({_short(exc)}); supported formats: {', '.join(SUPPORTED)}"
        ) from None
    if info.format not in SUPPORTED:
        raise AudioError(f"{path}: {info.format} audio is not supported; use one of {', '.join(SUPPORTED)}")
    if info.frames <= 0 or info.samplerate <= 0:
        raise AudioError(f"{path}: the file contains no audio (0 samples)")
    warning = _wav_truncation(path, info) if info.format == "WAV" else ""
    return AudioInfo(path, info.format, info.samplerate, info.channels, info.frames, info.subtype, warning)


def _wav_truncation(path: Path, info: sf._SoundFileInfo) -> str:
    """A recorder that died mid-file leaves a WAV shorter than its header declares.

    libsndfile quietly reads what is there; we keep that audio but say so.
    """
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    pos = head.find(b"data")
    if pos < 0 or pos + 8 > len(head):
        return ""
    declared = int.from_bytes(head[pos + 4 : pos + 8], "little")
    available = path.stat().st_size - (pos + 8)
    if declared in (0, 0xFFFFFFFF) or declared <= available:
        return ""  # streaming writers leave 0 / -1 on purpose
    frame_bytes = max(1, available // max(1, info.frames))
    return (f"the file is truncated: its header declares {declared / frame_bytes / info.samplerate:.1f} s, "
            f"{info.duration:.1f} s are readable and were indexed")


def _short(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[-1][:120] if str(exc).strip() else type(exc).__name__


def iter_decoded(
    path: Path, should_stop: Callable[[], bool] | None = None
) -> tuple[AudioInfo, object]:
    """Return (info, generator of 16 kHz mono float32 blocks)."""
    info = probe(path)

    def blocks():
        resampler = None
        if info.sample_rate != SAMPLE_RATE:
            resampler = soxr.ResampleStream(info.sample_rate, SAMPLE_RATE, 1, dtype="float32", quality="HQ")
        read = 0
        try:
            with sf.SoundFile(str(path)) as fh:
                while True:
                    if should_stop and should_stop():
                        return
                    data = fh.read(_BLOCK_FRAMES, dtype="float32", always_2d=True)
                    last = len(data) < _BLOCK_FRAMES
                    read += len(data)
                    mono = data.mean(axis=1) if data.shape[1] > 1 else data[:, 0]
                    mono = np.ascontiguousarray(mono, dtype=np.float32)
                    if resampler is not None:
                        mono = resampler.resample_chunk(mono, last=last)
                    if len(mono):
                        yield mono
                    if last:
                        break
        except sf.LibsndfileError as exc:
            raise AudioError(f"{path}: decoding failed after {read / info.sample_rate:.1f} s ({_short(exc)})") from None
        if read == 0:
            raise AudioError(f"{path}: the file contains no audio (0 samples)")

    return info, blocks()


def decode_to_cache(
    path: Path,
    cache_file: Path,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> int:
    """Decode ``path`` into ``cache_file`` (raw float32, 16 kHz mono). Returns samples.

    Written to a temporary name and renamed, so a crash never leaves a partial cache.
    """
    info, blocks = iter_decoded(path, should_stop)
    expected = max(1, int(info.duration_s * SAMPLE_RATE))
    tmp = cache_file.with_suffix(".partial")
    written = 0
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            for block in blocks:
                np.clip(block, -1.0, 1.0, out=block)
                out.write(block.tobytes())
                written += len(block)
                if progress:
                    progress(min(1.0, written / expected))
        if should_stop and should_stop():
            raise InterruptedError("cancelled")
        os.replace(tmp, cache_file)
    finally:
        if tmp.exists():
            tmp.unlink()
    return written


def open_cache(cache_file: Path) -> np.ndarray:
    """Open a decoded cache as a read-only memmap (empty array for an empty cache)."""
    if cache_file.stat().st_size == 0:
        return np.zeros(0, dtype=np.float32)
    return np.memmap(cache_file, dtype=np.float32, mode="r")


def load_clip(path: Path, max_s: float = 120.0) -> np.ndarray:
    """Decode a short clip (e.g. an example cough) fully into memory."""
    info = probe(Path(path))
    if info.duration_s > max_s:
        raise AudioError(f"{path}: clip is {info.duration_s:.0f} s long; example clips must be under {max_s:.0f} s")
    _, blocks = iter_decoded(Path(path))
    parts = list(blocks)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
