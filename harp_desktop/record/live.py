"""Transcription while the recording grows: speech found and transcribed in chunks.

Audio arrives (16 kHz mono float32) from the recorder's writer thread and is only queued;
this module's own thread runs Silero (index/vad.py's options) over the audio not yet
transcribed, and once a speech region is followed by a pause (or has run on for
``MAX_OPEN_S``) hands the closed regions to the same Transcriber the asr stage uses
(index/asr.py), in recording time. What it shows is a live view: when the recording
stops, the normal Indexer indexes the finished file (same rows as opening it).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from faster_whisper.vad import get_speech_timestamps

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.index.vad import VAD_OPTIONS
from harp_desktop.types import Region, Word

STEP_S = 0.5  # look for closed regions this often
CLOSE_GAP_S = 0.35  # silence after a region's (padded) end: the speaker paused, the region is done
MAX_OPEN_S = 12.0  # a region still open after this long is cut at its quietest point and transcribed
# Whisper encodes a full 30 s window however short its input, so one call per sentence wastes
# most of the encoder: closed regions wait (at most BATCH_WAIT_S after the first closed) until
# BATCH_S of speech is ready, and go in one call. When transcription lags, more regions have
# closed by the next look, so batches grow by themselves.
BATCH_S = 20.0
BATCH_WAIT_S = 3.0
QUIET_WINDOW_S = 0.05


@dataclass
class Chunk:
    """One transcribed piece: its words, and when its audio had fully arrived / its text was ready."""

    words: list[Word]
    end_s: float
    arrived: float  # time.monotonic() when the chunk's last sample reached us
    ready: float  # time.monotonic() when its words were ready

    @property
    def delay_s(self) -> float:
        return self.ready - self.arrived


@dataclass
class LiveStats:
    chunks: list[Chunk] = field(default_factory=list)

    def delays(self) -> list[float]:
        return [c.delay_s for c in self.chunks if c.words]


class LiveTranscriber:
    """Feed it blocks with ``feed``; ``on_words(words)`` is called (on this object's thread) per chunk."""

    def __init__(self, transcriber_factory: Callable[[], object], on_words: Callable[[list[Word]], None] | None = None,
                 language: str | None = None) -> None:
        self._factory = transcriber_factory
        self.on_words = on_words or (lambda words: None)
        self.language = language
        self.words: list[Word] = []
        self.stats = LiveStats()
        self.error: BaseException | None = None
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._buf = np.zeros(0, np.float32)
        self._base = 0  # recording sample index of _buf[0]
        self._received = 0
        self._arrivals: list[tuple[int, float]] = []  # (samples received, when): for the delay statistics
        self._thread = threading.Thread(target=self._loop, name="harp-live-asr", daemon=True)
        self._model = None
        self._aborted = False
        self._thread.start()

    def feed(self, block: np.ndarray) -> None:
        self._queue.put(np.asarray(block, np.float32))

    def close(self) -> list[Word]:
        """Transcribe what is left (the last region is closed by the end of the recording); all words."""
        self._queue.put(None)
        self._thread.join()
        if self.error is not None:
            raise self.error
        return self.words

    def abort(self) -> None:
        """Stop without transcribing what is left (the program is closing)."""
        self._aborted = True
        self._queue.put(None)
        self._thread.join()

    # -- the thread --------------------------------------------------------------------------
    def _loop(self) -> None:
        try:
            self._model = self._factory()  # load now, not when the first sentence ends
            last = time.monotonic()
            while True:
                got = self._drain(timeout=STEP_S)
                if got is None:
                    if not self._aborted:
                        self._process(final=True)
                    return
                if time.monotonic() - last >= STEP_S:
                    self._process(final=False)
                    last = time.monotonic()
        except BaseException as exc:  # noqa: BLE001 - raised by close(): never a silently dead thread
            self.error = exc

    def _drain(self, timeout: float) -> bool | None:
        """Append everything queued to the buffer; None once the recording ended."""
        pieces = []
        try:
            item = self._queue.get(timeout=timeout)
            while True:
                if item is None:
                    self._append(pieces)
                    return None
                pieces.append(item)
                item = self._queue.get_nowait()
        except queue.Empty:
            pass
        self._append(pieces)
        return True

    def _append(self, pieces: list[np.ndarray]) -> None:
        if pieces:
            self._buf = np.concatenate([self._buf, *pieces])
            self._received += sum(len(p) for p in pieces)
            self._arrivals.append((self._received, time.monotonic()))

    def _arrived_at(self, sample: int) -> float:
        for n, t in self._arrivals:
            if n >= sample:
                return t
        return time.monotonic()

    def _process(self, final: bool) -> None:
        buf = self._buf
        if len(buf) < 512:
            return
        now = len(buf) / SAMPLE_RATE
        regions = [Region(ts["start"] / SAMPLE_RATE, ts["end"] / SAMPLE_RATE)
                   for ts in get_speech_timestamps(buf, VAD_OPTIONS, SAMPLE_RATE)]
        forced = final
        if final:
            closed, cut = regions, now
        else:
            closed = [r for r in regions if now - r.end_s >= CLOSE_GAP_S]
            cut = closed[-1].end_s if closed else 0.0
            open_ = [r for r in regions if r not in closed]
            if open_ and now - open_[0].start_s >= MAX_OPEN_S:  # a long monologue: do not wait for its pause
                q = self._quiet_point(buf, open_[0].start_s + MAX_OPEN_S / 2, now - 0.5)
                closed.append(Region(open_[0].start_s, q))
                cut, forced = q, True
        if not closed:
            if not regions and now > 30.0:  # a long silence: keep only its tail, bounded memory
                self._drop(int((now - 1.0) * SAMPLE_RATE))
            return
        waited = time.monotonic() - self._arrived_at(self._base + int(closed[0].end_s * SAMPLE_RATE))
        if not forced and sum(r.duration_s for r in closed) < BATCH_S and waited < BATCH_WAIT_S:
            return
        self._transcribe(buf, closed, cut)
        self._drop(int(cut * SAMPLE_RATE))

    @staticmethod
    def _quiet_point(buf: np.ndarray, lo: float, hi: float) -> float:
        """The quietest 50 ms window in [lo, hi] (seconds): a cut there rarely splits a word."""
        w = int(QUIET_WINDOW_S * SAMPLE_RATE)
        a, b = int(lo * SAMPLE_RATE), int(hi * SAMPLE_RATE)
        seg = buf[a:b]
        if len(seg) < 2 * w:
            return hi
        energy = np.square(seg[: len(seg) // w * w]).reshape(-1, w).sum(1)
        return (a + int(np.argmin(energy)) * w + w // 2) / SAMPLE_RATE

    def _transcribe(self, buf: np.ndarray, closed: list[Region], cut: float) -> None:
        if self._model is None:
            self._model = self._factory()
        base_s = self._base / SAMPLE_RATE
        words, lang = self._model.transcribe_chunk(buf, closed, self.language)
        self.language = self.language or lang
        words = [Word(round(w.start_s + base_s, 3), round(w.end_s + base_s, 3), w.text, w.prob) for w in words]
        end = self._base + int(closed[-1].end_s * SAMPLE_RATE)
        self.stats.chunks.append(Chunk(words, base_s + closed[-1].end_s, self._arrived_at(end), time.monotonic()))
        self.words += words
        if words:
            self.on_words(words)

    def _drop(self, n: int) -> None:
        n = max(0, min(n, len(self._buf)))
        self._buf = self._buf[n:].copy()
        self._base += n
        self._arrivals = [a for a in self._arrivals if a[0] >= self._base]
