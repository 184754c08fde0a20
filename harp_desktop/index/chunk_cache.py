"""Results computed ahead of the index stages while recording, found again by their exact input (issue 20).

While a recording grows, ``record/ahead.py`` runs the asr stage's own per-chunk code (``Transcriber``, same model
object, same options, same language argument) on the chunks the file's VAD will plan, and puts each result here.
When Stop indexes the finished file, ``stages.run_asr`` looks every chunk up by ``chunk_key``: a sha256 of
everything the chunk's words and encoder states depend on (the asr stage's fingerprint, the compute threads, the
language passed in, the chunk's regions, and the recording's samples those regions and the repair pass can
read). A hit is therefore the output the stage would have computed; anything that differs (a region the live
VAD saw otherwise, a sample) is a miss and the stage transcribes the chunk itself. Rows cannot differ by this
cache, only time can.

The speakers stage does the same for its groups of regions' window embeddings (``diarise.group_key``), the
events and vad stages for the tagger's frame scores and Silero's regions of the whole recording
(``recording_key``: the worker stitches both from the pieces it tagged as the audio came in).
The cache lives in the process's ``ModelCache`` (memory only, never on disk: nothing extra to seal in an
encrypted library); a hit is taken out of it, and it holds at most ``MAX_BYTES``.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.index.asr import REPAIR_PAD_S
from harp_desktop.index.whisper_enc import EncoderStates
from harp_desktop.types import Region, Word

MAX_BYTES = 512 * 2**20  # ~3 h of speech's base encoder states; the oldest entries go first
_MARGIN = 16  # samples hashed beyond the repair pass's padding (float rounding of its slice bounds)


@dataclass(frozen=True)
class ChunkResult:
    words: list[Word]
    language: str
    states: EncoderStates | None  # the main pass's encoder states (asr_states), None if not kept

    @property
    def nbytes(self) -> int:
        return 64 * len(self.words) + (0 if self.states is None else self.states.states.nbytes + self.states.times.nbytes)


def _nbytes(value: Any) -> int:
    if hasattr(value, "nbytes"):
        return int(value.nbytes)
    if isinstance(value, (list, tuple)):
        return sum(_nbytes(v) for v in value)
    return 64


def chunk_key(stage_fingerprint: str, cpu_threads: int, language: str | None, audio: np.ndarray,
              chunk: list[Region]) -> str:
    """What ``Transcriber.transcribe_chunk(audio, chunk, language)`` reads, hashed: the chunk's regions and the
    recording's samples from its first region's start to its last region's end, each widened by the repair
    pass's padding."""
    h = hashlib.sha256(f"{stage_fingerprint}|threads{cpu_threads}|{language}|".encode())
    h.update(repr([(r.start_s, r.end_s) for r in chunk]).encode())
    a = max(0, int((chunk[0].start_s - REPAIR_PAD_S) * SAMPLE_RATE) - _MARGIN)
    b = int((chunk[-1].end_s + REPAIR_PAD_S) * SAMPLE_RATE) + _MARGIN
    piece = np.ascontiguousarray(audio[a:b], dtype=np.float32)
    h.update(f"|{a}:{a + len(piece)}|".encode())
    h.update(piece.tobytes())
    return h.hexdigest()


def recording_key(stage_fingerprint: str, audio: np.ndarray) -> str:
    """A whole-recording result (the tagger's frame scores, Silero's regions): its stage and every sample."""
    h = hashlib.sha256(f"{stage_fingerprint}|{len(audio)}|".encode())
    step = 16000 * 60
    for i in range(0, len(audio), step):  # a memmap is read a minute at a time
        h.update(np.ascontiguousarray(audio[i: i + step], dtype=np.float32).tobytes())
    return h.hexdigest()


def take_or(cache: ChunkCache | None, key_fn: Callable[[], str], compute: Callable[[], Any]) -> Any:
    """``cache``'s result for ``key_fn()`` when one was computed ahead, else ``compute()``."""
    key = key_fn() if cache is not None and cache.active() else None
    got = cache.take(key) if key else None
    if got is not None:
        return got
    try:
        return compute()
    finally:
        if key:
            cache.release(key)


class ChunkCache:
    """Thread-safe: the worker claims and puts while recording (and just after Stop), the asr stage takes.

    A key is free, claimed (someone computes it: ``take`` waits for the worker's result, the worker skips a key
    the stage claimed), or held. Whoever claims a key must ``put`` or ``release`` it."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._claimed: dict[str, str] = {}  # key -> who: "ahead" (the worker) or "stage"
        self._planning = 0  # workers that have the whole recording and are claiming what they will compute
        self._cond = threading.Condition()
        self.hits = 0
        self.misses = 0

    def claim(self, key: str, who: str = "ahead") -> bool:
        """Mark ``key`` as being computed by ``who``; False if it is held or claimed already."""
        with self._cond:
            if key in self._items or key in self._claimed:
                return False
            self._claimed[key] = who
            return True

    def put(self, key: str, result: Any) -> None:
        with self._cond:
            self._claimed.pop(key, None)
            self._items[key] = (result, _nbytes(result))
            self._items.move_to_end(key)
            while len(self._items) > 1 and sum(n for _, n in self._items.values()) > self.max_bytes:
                self._items.popitem(last=False)
            self._cond.notify_all()

    def begin_planning(self) -> None:
        """A worker got its last audio (Stop): ``take`` waits until it has claimed its keys (``end_planning``)."""
        with self._cond:
            self._planning += 1

    def end_planning(self) -> None:
        with self._cond:
            self._planning -= 1
            self._cond.notify_all()

    def release(self, key: str) -> None:
        """Give up a claim without a result."""
        with self._cond:
            self._claimed.pop(key, None)
            self._cond.notify_all()

    def take(self, key: str, timeout_s: float = 600.0) -> Any:
        """The result for ``key`` (waiting while the worker computes it), removed; None: the caller computes it,
        and the key stays claimed by it until ``release``."""
        with self._cond:
            self._cond.wait_for(lambda: key in self._items or (self._claimed.get(key) != "ahead"
                                                                and not self._planning), timeout=timeout_s)
            got = self._items.pop(key, None)
            if got is None:
                self.misses += 1
                self._claimed[key] = "stage"
                return None
            self.hits += 1
            return got[0]

    def poll(self, key: str) -> tuple[str, Any]:
        """``take`` without waiting: ("held", result) taken out; ("busy", None) a worker computes it or is still
        planning (``take`` it later, after other work); ("yours", None) claimed by the caller now, who computes it
        and must ``release`` it."""
        with self._cond:
            if key in self._items:
                self.hits += 1
                return "held", self._items.pop(key)[0]
            if self._claimed.get(key) == "ahead" or self._planning:
                return "busy", None
            self.misses += 1
            self._claimed[key] = "stage"
            return "yours", None

    def discard(self, keys: list[str]) -> None:
        with self._cond:
            for k in keys:
                self._items.pop(k, None)

    def active(self) -> bool:
        """Anything held, being computed or being planned: worth hashing a chunk to look it up."""
        with self._cond:
            return bool(self._items or self._planning or "ahead" in self._claimed.values())

    def __len__(self) -> int:
        with self._cond:
            return len(self._items)
