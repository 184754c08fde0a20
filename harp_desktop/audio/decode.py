"""Decode a recording to 16 kHz mono float32, streaming, with bounded memory.

Multi-hour files are never held in memory twice: blocks are read, mixed down and
resampled with soxr's streaming resampler, and appended to a raw float32 cache file
that later stages open as a read-only ``np.memmap``.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf
import soxr

from harp_desktop.store import crypto, sealed
from harp_desktop.store.atomic import sweep_stale, tmp_path
from harp_desktop.store.crypto import LibraryKey

SAMPLE_RATE = 16000
SUPPORTED = ("WAV", "FLAC", "OGG", "MP3")
_BLOCK_FRAMES = 1 << 18  # ~5.5 s at 48 kHz; bounds memory regardless of file length
_SALVAGE_FRAMES = 4096  # re-read step over a damaged stretch: keeps all but the last few ms before it


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
    try:
        st = path.stat()
    except OSError as exc:  # missing, a symlink loop, a name too long: a clear line, not a traceback
        if exc.errno == errno.ELOOP:
            raise AudioError(f"{_shown(path)}: a symbolic link loop, not an audio file") from None
        if exc.errno == errno.ENOENT:
            dangling = " (a symbolic link to nothing)" if path.is_symlink() else ""
            raise AudioError(f"{_shown(path)}: no such file{dangling}") from None
        raise AudioError(f"{_shown(path)}: cannot open ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise AudioError(f"{_shown(path)}: is a folder, not an audio file")
    if not stat.S_ISREG(st.st_mode):
        raise AudioError(f"{_shown(path)}: not a regular file (a device, pipe or socket)")
    if st.st_size == 0:
        raise AudioError(f"{_shown(path)}: the file is empty (0 bytes)")
    try:
        with open(path, "rb") as raw:  # a Python file object: libsndfile's own open fails on very long paths
            info = sf.info(raw)
    except (sf.LibsndfileError, RuntimeError, TypeError, OSError) as exc:
        raise AudioError(
            f"{_shown(path)}: not a readable audio file ({_short(exc)}); supported formats: {', '.join(SUPPORTED)}"
        ) from None
    if info.format not in SUPPORTED:
        raise AudioError(f"{_shown(path)}: {info.format} audio is not supported; use one of {', '.join(SUPPORTED)}")
    if info.frames <= 0 or info.samplerate <= 0:
        raise AudioError(f"{_shown(path)}: the file contains no audio (0 samples)")
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


def _reopen_at(raw, frame: int) -> sf.SoundFile | None:
    """Reopen a stream after a decode error, at ``frame``; None if the file will not seek there."""
    try:
        raw.seek(0)
        again = sf.SoundFile(raw)
    except (sf.LibsndfileError, RuntimeError, OSError):
        return None
    try:
        again.seek(frame)
    except (sf.LibsndfileError, RuntimeError, ValueError):
        again.close()
        return None
    return again


def _shown(path: Path) -> str:
    """A path short enough for a one-line message (very long paths keep their ends)."""
    s = str(path)
    return s if len(s) <= 160 else f"{s[:60]}...{s[-90:]}"


def _short(exc: BaseException) -> str:
    if getattr(exc, "error_string", None):  # libsndfile's own words, without the file object's repr
        return str(exc.error_string).strip()[:120]
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
        read, step = 0, _BLOCK_FRAMES
        raw = open(path, "rb")
        fh: sf.SoundFile | None = sf.SoundFile(raw)
        try:
            while True:
                if should_stop and should_stop():
                    return
                try:
                    data = fh.read(step, dtype="float32", always_2d=True)
                except (sf.LibsndfileError, RuntimeError) as exc:
                    if step > _SALVAGE_FRAMES:
                        # A damaged or cut-off stretch: re-read it in small steps and keep what decodes.
                        fh.close()
                        fh, step = _reopen_at(raw, read), _SALVAGE_FRAMES
                        if fh is not None:
                            continue
                    if read == 0:
                        raise AudioError(f"{_shown(path)}: decoding failed at the start ({_short(exc)})") from None
                    data = np.zeros((0, info.channels), np.float32)  # the damage: end here, keep the rest
                last = len(data) < step
                read += len(data)
                mono = data.mean(axis=1) if data.shape[1] > 1 else data[:, 0]
                mono = np.ascontiguousarray(mono, dtype=np.float32)
                # NaN/Inf samples (a broken float WAV) would poison the resampler and every model.
                np.nan_to_num(mono, copy=False, nan=0.0, posinf=1.0, neginf=-1.0)
                if resampler is not None:
                    mono = resampler.resample_chunk(mono, last=last)
                if len(mono):
                    yield mono
                if last:
                    break
        finally:
            if fh is not None:
                fh.close()
            raw.close()
        if read == 0:
            raise AudioError(f"{_shown(path)}: the file contains no audio (0 samples)")

    return info, blocks()


def decode_to_cache(
    path: Path,
    cache_file: Path,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    key: LibraryKey | None = None,
) -> int:
    """Decode ``path`` into ``cache_file`` (raw float32, 16 kHz mono). Returns samples.

    Written to a temporary name and renamed, so a crash never leaves a partial cache.
    With ``key`` (an encrypted library) the samples are sealed as they stream in
    (store/sealed.py): the decoded audio never touches the disk in the clear.
    """
    info, blocks = iter_decoded(path, should_stop)
    expected = max(1, int(info.duration_s * SAMPLE_RATE))
    sweep_stale(cache_file)  # left by a killed run
    tmp = tmp_path(cache_file)  # per process: a second indexer of the same file never truncates ours
    written = 0
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            sink = sealed.StreamWriter(out, key, _cache_aad(cache_file)) if key is not None else out
            for block in blocks:
                np.clip(block, -1.0, 1.0, out=block)
                try:
                    sink.write(block.tobytes())
                except OSError as exc:  # e.g. the disk filled up: say where
                    raise OSError(exc.errno, exc.strerror, str(cache_file.parent)) from None
                written += len(block)
                if progress:
                    progress(min(1.0, written / expected))
            if key is not None:
                sink.close()
        if should_stop and should_stop():
            raise InterruptedError("cancelled")
        os.replace(tmp, cache_file)
    finally:
        if tmp.exists():
            tmp.unlink()
    return written


def ensure_free_space(folder: Path, duration_s: float, margin_bytes: int = 64 << 20) -> None:
    """Refuse before writing when the decoded cache (float32 at 16 kHz: 230 MB per hour) cannot fit.

    A disk that fills mid-decode is still safe (the partial cache is removed), but
    saying so up front spares the user a long wait for a failure.
    """
    need = int(duration_s * SAMPLE_RATE * 4) + margin_bytes
    free = shutil.disk_usage(folder).free
    if free < need:
        raise OSError(errno.ENOSPC, f"not enough free disk space for the library in {_shown(folder)}: decoding "
                      f"this {duration_s / 3600:.1f} h recording needs about {need / 1e6:.0f} MB, "
                      f"{free / 1e6:.0f} MB are free")


def _cache_aad(cache_file: Path) -> str:
    return f"audio/{Path(cache_file).name}"


def open_cache(cache_file: Path) -> np.ndarray:
    """Open a decoded cache as a read-only memmap (empty array for an empty cache).

    A sealed cache (encrypted library, ``audio/<sha256>.f32`` inside it) is decrypted into
    memory instead, with the key this process unlocked for that library."""
    if cache_file.stat().st_size == 0:
        return np.zeros(0, dtype=np.float32)
    if sealed.magic_of(cache_file) == sealed.STREAM_MAGIC:
        key = crypto.key_for(Path(cache_file).parent.parent)
        if key is None:
            raise crypto.PassphraseError(f"{cache_file} is encrypted but its library's key file is missing")
        return sealed.read_stream_cached(cache_file, key, _cache_aad(cache_file))
    return np.memmap(cache_file, dtype=np.float32, mode="r")


def load_clip(path: Path, max_s: float = 120.0) -> np.ndarray:
    """Decode a short clip (e.g. an example cough) fully into memory."""
    info = probe(Path(path))
    if info.duration_s > max_s:
        raise AudioError(f"{_shown(path)}: clip is {info.duration_s:.0f} s long; example clips must be under {max_s:.0f} s")
    _, blocks = iter_decoded(Path(path))
    parts = list(blocks)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
