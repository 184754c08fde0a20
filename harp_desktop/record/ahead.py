"""Index work done while the recording grows, for the asr and speakers stages to find after Stop (issue 20).

Fed the same 16 kHz blocks the recorder writes, this module's thread plans what the stages will compute on the
finished file -- the events stage's tagger Speech scores and Silero (``vad.speech_regions``) give the regions,
``vad.rescue_regions`` joins them as ``stages.run_vad`` does, ``asr.plan_chunks`` groups them -- and runs the
stages' own per-chunk code on every piece no later audio can change: an ASR chunk once the region after it has
opened a new chunk (``Transcriber.transcribe_chunk_states``: words and the emotion head's encoder states), a
group of ``diarise.GROUP`` speaker regions once all of them ended. Results go to the process's ahead cache
(index/chunk_cache.py) under the hash of their exact inputs, so the stages use them only where the file gives
the very same input; anything planned differently is computed again after Stop, never wrong.

A region counts as ended ``SETTLE_S`` before the audio's end (Silero closes a region after 0.4 s of silence and
pads it by 0.15 s; the rescue needs three 0.48 s tagger cells). ``finish()`` (at Stop) plans once more on the
whole recording, claims everything left and computes it while the indexer decodes, tags and runs VAD.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.index.asr import plan_chunks
from harp_desktop.index.chunk_cache import ChunkResult, chunk_key, recording_key
from harp_desktop.index.context import IndexOptions, ModelCache
from harp_desktop.index.diarise import GROUP, HOP_S, WINDOW_S, group_key, region_wavs
from harp_desktop.index.events import _PATCH, _STEP, PATCH_S, FrameScores
from harp_desktop.index.vad import rescue_regions, speech_regions
from harp_desktop.types import Region

STEP_S = 10.0  # plan again after this much new audio
SETTLE_S = 3.0
_CELL = 48 * _STEP  # samples per tagger cell (the events stage's 0.48 s hop)
_PATCH_SAMPLES = (_PATCH - 1) * _STEP + 400


class IndexAhead:
    """``feed`` blocks while recording; ``finish()`` at Stop (returns at once); ``abort()`` to drop the work."""

    def __init__(self, options: IndexOptions, models: ModelCache, transcriber_factory: Callable[[], Any]) -> None:
        from harp_desktop.index.pipeline import fingerprints  # the stages' own keys

        fps = fingerprints(options)
        self.options, self.models = options, models
        self.events_fp, self.vad_fp, self.asr_fp, self.speakers_fp = fps["events"], fps["vad"], fps["asr"], fps["speakers"]
        self.cache = models.ahead()
        self._factory = transcriber_factory
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._buf = np.zeros(16000 * 60, np.float32)
        self._n = 0
        self._planned_n = 0
        self._scores = np.zeros((0, 521), np.float16)  # the tagger's scores and embeddings of settled cells
        self._emb = np.zeros((0, 1024), np.float16)
        self._silero: dict[int, list[dict]] = {}
        self._done: set[str] = set()  # keys this worker computed or found claimed
        self._claims: set[str] = set()  # claimed, not yet put: released whenever the thread ends
        self._lang0: str | None = None  # the language chunk 0 was transcribed in (run_asr keeps it)
        self._aborted = False
        self._finishing = False  # finish() was called: stop the current plan early, the last plan follows
        self._planning = True  # until the last plan's claims are made (only counts once finish() was called)
        self.error: BaseException | None = None
        self.computed = {"asr": 0, "speakers": 0}
        self.busy_s = 0.0  # wall seconds spent planning and computing
        self._thread = threading.Thread(target=self._loop, name="harp-index-ahead", daemon=True)
        self._thread.start()

    # -- control -------------------------------------------------------------------------------
    def feed(self, block: np.ndarray) -> None:
        self._queue.put(np.asarray(block, np.float32))

    def finish(self) -> None:
        """The recording ended: the rest is planned on the whole and computed in the background. Until this
        worker has claimed what it will compute, the stages wait rather than compute it too."""
        if not self._finishing and self._thread.is_alive():
            self._finishing = True
            self.cache.begin_planning()
        self._queue.put(None)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def abort(self) -> None:
        """Stop after the piece in hand; drop what was computed (the recording will not be indexed now)."""
        self._aborted = True
        self._queue.put(None)
        self._thread.join()
        self.cache.discard(sorted(self._done))

    # -- the thread ----------------------------------------------------------------------------
    def _loop(self) -> None:
        try:
            self._preload()
            while True:
                final = self._drain()
                if self._aborted:
                    return
                if final or self._n - self._planned_n >= STEP_S * SAMPLE_RATE:
                    t0 = time.perf_counter()
                    self._plan(final)
                    self.busy_s += time.perf_counter() - t0
                if final:
                    return
        except BaseException as exc:  # noqa: BLE001 - only time is lost: the stages compute what is missing
            self.error = exc
        finally:
            self._end_planning()
            for key in list(self._claims):  # a stage waiting for one of these computes it itself
                self.cache.release(key)
            self._claims.clear()

    def _preload(self) -> None:
        """Every model the stages after Stop load, loaded now (ModelCache keys of the stages themselves)."""
        from harp_desktop import weights
        from harp_desktop.index.emotion import EmotionModel

        self.models.speaker(), self.models.diariser(), self.models.yamnet(), self.models.text()
        self.models.get("emotion", lambda: EmotionModel(weights.model_file("emotion", "emotion_head.npz")))
        self._factory()

    def _drain(self) -> bool:
        """Append what arrived; True once the recording ended."""
        try:
            item = self._queue.get(timeout=0.5)
            while True:
                if item is None:
                    return True
                self._append(item)
                item = self._queue.get_nowait()
        except queue.Empty:
            return False

    def _append(self, block: np.ndarray) -> None:
        if self._n + len(block) > len(self._buf):
            grown = np.zeros(max(2 * len(self._buf), self._n + len(block)), np.float32)
            grown[: self._n] = self._buf[: self._n]
            self._buf = grown
        self._buf[self._n: self._n + len(block)] = block
        self._n += len(block)

    # -- planning ------------------------------------------------------------------------------
    def regions(self, audio: np.ndarray, final: bool) -> list[Region]:
        """The regions ``stages.run_vad`` will store for a file whose first ``len(audio)`` samples these are:
        all of them when ``final`` (and the events and vad stages' own results go to the cache), else those
        ended ``SETTLE_S`` before the end."""
        fs = self._tag(audio)
        tg = self.models.yamnet()
        speech = fs.scores[:, tg.class_names.index("Speech")].astype(np.float32)
        found = speech_regions(audio, blocks=self._silero)
        regions, _ = rescue_regions(found, speech, fs.times_s.astype(np.float32), PATCH_S, len(audio) / SAMPLE_RATE)
        if final:
            # The tagger's stitched scores are not handed to the events stage: they matched the whole-file run
            # in a quiet test but not under load (a cough onset near a slice boundary came out different in
            # CI), so the events stage tags the file itself after Stop. Silero's regions are exact.
            self.cache.put(recording_key(self.vad_fp, audio), found)
            return regions
        return [r for r in regions if r.end_s <= len(audio) / SAMPLE_RATE - SETTLE_S]

    def _tag(self, audio: np.ndarray) -> FrameScores:
        """``YamnetTagger.run(audio)``, tagging only the new audio and four settled cells before it: a cell's
        scores are a function of the patches around it (tests/record/test_ahead.py checks the stitching)."""
        tg = self.models.yamnet()
        s_cell = max(0, len(self._scores) - 4)
        fs = tg.run(audio[s_cell * _CELL:])
        keep = s_cell + 1 if s_cell else 0  # the first cell of a later slice misses dense patches before it
        scores = np.concatenate([self._scores[:keep], fs.scores[keep - s_cell:]])
        emb = None if fs.embeddings is None else np.concatenate([self._emb[:keep], fs.embeddings[keep - s_cell:]])
        settled = max(0, (len(audio) - _PATCH_SAMPLES) // _CELL - 3)
        self._scores, self._emb = scores[:settled], (None if emb is None else emb[:settled])
        h = round(fs.hop_s * 100)
        times = (np.arange(len(scores)) * h * _STEP + (PATCH_S * SAMPLE_RATE) / 2) / SAMPLE_RATE
        return FrameScores(times, fs.hop_s, scores, emb, fs.dense_hop_s)

    def _plan(self, final: bool) -> None:
        n = self._n
        self._planned_n = n
        audio = self._buf[:n]
        if n < 16000:
            return
        regions = self.regions(audio, final)
        chunks = plan_chunks(regions, self.options.asr_chunk_s)
        ready = chunks if final else chunks[:-1]
        wavs, _ = region_wavs(audio, regions)
        groups = [wavs[g: g + GROUP] for g in range(0, len(wavs), GROUP)]
        groups = groups if final else [g for g in groups if len(g) == GROUP]
        encoders = [self.models.speaker(), self.models.diariser()]
        todo = [(enc, grp) for grp in groups for enc in encoders]
        if final:  # claim the speaker groups at once, so the stage waits for them instead of computing them too
            todo = [(enc, grp) for enc, grp in todo if self._claim(self._group_key(enc, grp))]
        if final and todo:  # at Stop the last speaker group and the last chunk are computed side by side
            side = threading.Thread(target=self._embed_groups, args=(todo, final), name="harp-ahead-speakers",
                                    daemon=True)
            side.start()
            try:
                self._asr(audio, ready, final)
            finally:
                side.join()
        else:
            self._asr(audio, ready, final)
            self._embed_groups(todo, final)

    def _embed_groups(self, todo: list[tuple[Any, list[np.ndarray]]], final: bool) -> None:
        try:
            for enc, grp in todo:
                if self._aborted or (self._finishing and not final):
                    return
                key = self._group_key(enc, grp)
                if final or self._claim(key):
                    self._put(key, enc.embed_regions(grp, WINDOW_S, HOP_S))
                    self.computed["speakers"] += 1
        except BaseException as exc:  # noqa: BLE001 - the claims are released when the worker ends
            self.error = exc

    def _group_key(self, enc: Any, grp: list[np.ndarray]) -> str:
        return group_key(self.speakers_fp, getattr(enc, "name", "ge2e"), grp)

    def _claim(self, key: str) -> bool:
        if key in self._done:
            return False
        self._done.add(key)
        if self.cache.claim(key):
            self._claims.add(key)
            return True
        return False

    def _put(self, key: str, value: Any) -> None:
        self.cache.put(key, value)
        self._claims.discard(key)

    def _asr(self, audio: np.ndarray, ready: list[list[Region]], final: bool) -> None:
        """The asr stage's loop: chunk 0 with the options' language, the others with chunk 0's (run_asr)."""
        def key(i: int) -> str | None:
            language = self.options.language if i == 0 else (self.options.language or self._lang0)
            if i > 0 and language is None:
                return None  # chunk 0's language is not known here yet
            return chunk_key(self.asr_fp, self.options.cpu_threads, language, audio, ready[i])

        tried: set[int] = set()
        mine: dict[int, str] = {}

        def claim_known() -> None:  # at Stop: claim at once, so the stage waits for these instead of racing
            for i in range(len(ready)):
                k = key(i) if i not in tried else None
                if i not in tried and k is None:
                    return
                if k is not None:
                    tried.add(i)
                    if self._claim(k):
                        mine[i] = k
            self._end_planning()

        if final:
            claim_known()
            if 0 not in mine:
                self._end_planning()  # chunk 0 is not ours: its language stays unknown here
        for i, chunk in enumerate(ready):
            if self._aborted or (self._finishing and not final):
                return
            if final:
                k = mine.get(i)
            else:
                k = key(i)
                if k is None:
                    return
                k = k if self._claim(k) else None
            if k is not None:
                self._transcribe(k, audio, chunk, i)
                if final and i == 0:
                    claim_known()

    def _end_planning(self) -> None:
        if self._finishing and self._planning:
            self._planning = False
            self.cache.end_planning()

    def _transcribe(self, key: str, audio: np.ndarray, chunk: list[Region], i: int) -> None:
        language = self.options.language if i == 0 else self.options.language or self._lang0
        words, lang, states = self._factory().transcribe_chunk_states(audio, chunk, language)
        self._put(key, ChunkResult(words, lang, states))
        self.computed["asr"] += 1
        if i == 0:
            self._lang0 = lang
