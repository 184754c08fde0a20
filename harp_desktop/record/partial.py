"""The on-disk format of a recording in progress, and what happens to it after a crash.

While recording, samples go to ``<library>/partial-recordings/<id>.pcm`` as raw signed
16-bit little-endian PCM, appended as they arrive, with ``<id>.json`` beside it (written
once, atomically, before the first sample) saying the rate, channels and the file the
recording is meant to become. Raw PCM has no header to fix up and no trailer to write,
so whatever reached the disk before a crash or kill -9 is readable as it is (a torn last
frame is dropped). Stopping converts it to FLAC at the target; a partial left by a dead
process is finalised the same way on the next start (see ``recover``).

The recording process holds an exclusive ``flock`` on the ``.pcm`` for as long as it
writes, so another program starting meanwhile does not take a live recording for a
crashed one: the kernel releases the lock when the process dies, however it dies.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf

from harp_desktop.paths import private_dir

FOLDER = "partial-recordings"
SAMPLE_FORMAT = "s16le"


@dataclass(frozen=True)
class Partial:
    pcm: Path
    header: dict

    @property
    def sidecar(self) -> Path:
        return self.pcm.with_suffix(".json")

    @property
    def target(self) -> Path:
        return Path(self.header["target"])

    @property
    def frames(self) -> int:
        return self.pcm.stat().st_size // (2 * int(self.header["channels"]))

    @property
    def duration_s(self) -> float:
        return self.frames / int(self.header["samplerate"])


def partial_dir(library_folder: Path) -> Path:
    return private_dir(Path(library_folder) / FOLDER)


def create(library_folder: Path, target: Path, samplerate: int, channels: int, device: str) -> tuple[Partial, int]:
    """A new partial (sidecar first, then the locked, empty .pcm); returns it and the open fd."""
    folder = partial_dir(library_folder)
    stem = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    header = {"target": str(Path(target).resolve()), "samplerate": int(samplerate), "channels": int(channels),
              "sample_format": SAMPLE_FORMAT, "device": device, "started": time.time()}
    pcm = folder / f"{stem}.pcm"
    tmp = folder / f"{stem}.json.tmp"
    tmp.write_text(json.dumps(header), encoding="utf-8")
    os.replace(tmp, pcm.with_suffix(".json"))
    fd = os.open(pcm, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return Partial(pcm, header), fd


def _in_use(pcm: Path) -> bool:
    try:
        fd = os.open(pcm, os.O_RDONLY)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops our probe lock
    return False


def find_partials(library_folder: Path) -> list[Partial]:
    """Partial recordings no running process is writing: what a crash or kill -9 left."""
    folder = Path(library_folder) / FOLDER
    found = []
    for side in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        pcm = side.with_suffix(".pcm")
        try:
            header = json.loads(side.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if pcm.exists() and not _in_use(pcm):
            found.append(Partial(pcm, header))
    return found


def finalise(partial: Partial) -> Path | None:
    """Convert a partial to FLAC at its target (a free name beside it if taken), then remove
    it. None (and nothing kept) when it holds no sample. Safe to repeat after a crash here:
    the partial is only removed once the FLAC is complete and renamed into place."""
    channels = int(partial.header["channels"])
    frames = partial.frames
    if frames == 0:
        _remove(partial)
        return None
    target = _free_name(partial.target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    raw = np.memmap(partial.pcm, dtype="<i2", mode="r", shape=(frames * channels,))
    with sf.SoundFile(tmp, "w", int(partial.header["samplerate"]), channels, "PCM_16", format="FLAC") as out:
        step = 1 << 20
        for a in range(0, frames, step):
            out.write(np.asarray(raw[a * channels : (a + step) * channels]).reshape(-1, channels))
    del raw
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, target)
    _remove(partial)
    return target


def _free_name(target: Path) -> Path:
    if not target.exists():
        return target
    n = 1
    while (cand := target.with_name(f"{target.stem}-recovered{'' if n == 1 else n}{target.suffix}")).exists():
        n += 1
    return cand


def _remove(partial: Partial) -> None:
    for p in (partial.pcm, partial.sidecar):
        p.unlink(missing_ok=True)


def recover(library_folder: Path) -> list[Path]:
    """Finalise every abandoned partial; returns the FLAC files, to be offered for indexing."""
    return [p for p in (finalise(x) for x in find_partials(library_folder)) if p is not None]
