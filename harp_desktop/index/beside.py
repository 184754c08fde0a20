"""Later stages' work computed on the core a running stage leaves idle (issue 18, item 1, "Speed back").

The events stage (YAMNet, one ONNX Runtime thread) keeps one of the two cores busy, and faster-whisper with two
threads about 1.1 of them on average (its encoder's matmuls use both, the greedy decoder and the Python around it
mostly one). Meanwhile the pipeline waited: the sounds stage's tagger pass and Silero's regions (the vad stage)
need nothing the events stage makes, and the speakers stage's window embeddings (GE2E and CAM++, single-threaded
numpy) nothing the asr stage makes. So while those two stages run, one more thread computes those pieces and puts
each into the process's ahead cache (index/chunk_cache.py) under the key its stage already looks it up by
(``chunk_cache.recording_key`` for Silero's regions, ``diarise.group_key`` for a speaker group, ``sounds_key``
for the sounds stage's tagger pass), exactly as record/ahead.py does while recording. The stages then take them.

Rows cannot change: a piece is the stage's own code on the stage's own input, and a piece's key names that input.
The thread claims a piece before computing it and its next piece before handing one over, so a stage reaching a
piece in progress waits for it, and a stage reaching a piece the thread has not claimed yet computes it itself
(the thread then skips it): at worst both cores work through the rest. What the thread put and no stage took is
dropped when indexing ends (``close``).
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from harp_desktop.index.chunk_cache import ChunkCache, recording_key
from harp_desktop.index.diarise import GROUP, HOP_S, WINDOW_S, group_key, region_wavs
from harp_desktop.types import Region

Job = tuple[Callable[[], str], Callable[[], Any]]  # (key, compute): both run on the thread


def sounds_key(fingerprint: str, sha256: str) -> str:
    """The sounds stage's tagger pass of one recording: its stage fingerprint (which names the decode) and the
    file's hash (the decoded audio is a function of the two; cheaper than hashing every sample again)."""
    return f"sounds|{fingerprint}|{sha256}"


class Beside:
    """One thread computing ``jobs`` in order into ``cache``; ``close()`` stops it and drops what was not taken."""

    def __init__(self, cache: ChunkCache, jobs: list[Job], stop: threading.Event,
                 should_stop: Callable[[], bool] = lambda: False) -> None:
        """``stop``: set by ``close``, and read by ``jobs`` that check for a stop themselves (with ``should_stop``)."""
        self.cache, self._jobs, self._should_stop, self._stop = cache, jobs, should_stop, stop
        self._put: list[str] = []
        self.computed = 0
        self.cpu_s = 0.0  # this thread's CPU seconds
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="harp-index-beside", daemon=True)
        self._thread.start()

    def _stopped(self) -> bool:
        return self._stop.is_set() or self._should_stop()

    def _claim_from(self, i: int) -> tuple[int, str] | None:
        while i < len(self._jobs) and not self._stopped():
            key = self._jobs[i][0]()
            if self.cache.claim(key):
                return i, key
            i += 1  # held already (e.g. computed while recording) or the stage got there first
        return None

    def _run(self) -> None:
        cur = None
        _renice(NICE)
        try:
            cur = self._claim_from(0)
            while cur is not None:
                i, key = cur
                if self._stopped():
                    break
                value = self._jobs[i][1]()
                nxt = self._claim_from(i + 1)  # claimed before this one is handed over: the cache stays active
                self.cache.put(key, value)
                self._put.append(key)
                self.computed += 1
                cur = nxt
        except BaseException as exc:  # noqa: BLE001 - only time is lost: the stage computes what is missing
            self.error = exc
        finally:
            if cur is not None:
                self.cache.release(cur[1])
            self.cpu_s = time.thread_time()
            _trim()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.cache.discard(self._put)


# A nice value for the thread (Linux sets it per thread): > 0 leaves the running stage its cores when it wants both.
NICE = int(os.environ.get("HARP_BESIDE_NICE", "10"))


def _trim() -> None:
    """Give back the heap this thread's arrays left free: glibc gives each thread its own malloc arena and keeps
    a dead thread's free pages, ~100-150 MB after the speaker windows of 60 minutes (RSS sampled through an index),
    still held when the clustering's n x n arrays came on top."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):
            pass


def _renice(nice: int) -> None:
    if nice and sys.platform.startswith("linux"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
        except OSError:
            pass


def beside_events(models: Any, audio: np.ndarray, fps: dict[str, str], sha256: str, stale: set[str],
                  should_stop: Callable[[], bool]) -> Beside | None:
    """While the events stage runs: the sounds stage's tagger pass, and Silero's regions for the vad stage."""
    stop = threading.Event()
    halt = lambda: stop.is_set() or should_stop()  # noqa: E731
    jobs: list[Job] = []
    if "sounds" in stale:
        tagger = models.yamnet()
        jobs.append((lambda: sounds_key(fps["sounds"], sha256),
                     lambda: tagger.run(audio, should_stop=halt, dense_hop_s=None)))
    if "vad" in stale:
        from harp_desktop.index.vad import speech_regions

        jobs.append((lambda: recording_key(fps["vad"], audio), lambda: speech_regions(audio, should_stop=halt)))
    return Beside(models.ahead(), jobs, stop, should_stop) if jobs else None


def beside_asr(models: Any, audio: np.ndarray, regions: list[Region], fps: dict[str, str], stale: set[str],
               should_stop: Callable[[], bool]) -> Beside | None:
    """While the asr stage runs: the speakers stage's window embeddings, group by group, GE2E's then CAM++'s
    (the order ``diarise.speaker_windows_all`` takes them in)."""
    if "speakers" not in stale:
        return None
    wavs, _ = region_wavs(audio, regions)
    groups = [wavs[g: g + GROUP] for g in range(0, len(wavs), GROUP)]
    jobs: list[Job] = []
    for enc in (models.speaker(), models.diariser()):
        name = getattr(enc, "name", "ge2e")
        for grp in groups:
            jobs.append((lambda grp=grp, name=name: group_key(fps["speakers"], name, grp),
                         lambda grp=grp, enc=enc: enc.embed_regions(grp, WINDOW_S, HOP_S)))
    return Beside(models.ahead(), jobs, threading.Event(), should_stop) if jobs else None
