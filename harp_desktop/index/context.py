"""What a stage sees: the library, the recording, its audio, models, progress."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from harp_desktop.store.db import LibraryDB
from harp_desktop.store.vectors import VectorStore


class Cancelled(Exception):
    """Indexing was cancelled by the user; finished stages stay committed."""


@dataclass
class IndexOptions:
    asr_profile: str = "base"
    beam_size: int = 1
    language: str | None = None
    cpu_threads: int = 2
    # Joined audio per ASR chunk (its speech and the 0.8 s gaps between spans, asr.plan_chunks): the unit of resume
    # after a crash, and of the work a recording does ahead (issue 20: at Stop at most one chunk is left). 30 s, one
    # Whisper window (stop 27; it was 30 s of speech, two windows per chunk; 240 s before issue 20).
    asr_chunk_s: float = 30.0
    # Whisper hotwords: a clinical vocabulary (drug names, symptoms) it would otherwise misspell.
    hotwords: str | None = field(default_factory=lambda: _default_hotwords())


def _default_hotwords() -> str | None:
    from harp_desktop.paths import REPO_ROOT

    path = REPO_ROOT / "resources" / "clinical_vocabulary.txt"
    return path.read_text(encoding="utf-8").strip() if path.exists() else None


@dataclass
class Progress:
    stage: str
    stage_fraction: float
    fraction: float  # of the whole recording's indexing
    eta_s: float | None
    message: str = ""


class ModelCache:
    """Loads each model once per process (loading whisper takes seconds)."""

    def __init__(self) -> None:
        self._models: dict[str, Any] = {}
        self._lock = threading.Lock()

    def get(self, key: str, factory: Callable[[], Any]) -> Any:
        with self._lock:
            if key not in self._models:
                self._models[key] = factory()
            return self._models[key]

    def ahead(self) -> Any:
        """Results computed while recording (index/chunk_cache.py), taken by the asr and speakers stages."""
        from harp_desktop.index.chunk_cache import ChunkCache

        return self.get("asr-chunk-cache", ChunkCache)

    # The models indexing and asking share (a cue clip is embedded like the recording).
    def text(self) -> Any:
        from harp_desktop import weights
        from harp_desktop.index.text_embed import TextEmbedder

        return self.get("text", lambda: TextEmbedder(
            weights.model_file("text", "model.onnx"), weights.model_file("text", "tokenizer.json")))

    def yamnet(self) -> Any:
        from harp_desktop import weights
        from harp_desktop.index.events import YamnetTagger
        from harp_desktop.paths import data_dir, private_dir

        return self.get("events", lambda: YamnetTagger(
            weights.model_file("events", "YamNet_w8a8.onnx.zip"),
            weights.model_file("events", "yamnet_class_map.csv"),
            private_dir(data_dir() / "models" / "yamnet")))

    def speaker(self) -> Any:
        from harp_desktop import weights
        from harp_desktop.index.speakers import SpeakerEncoder

        return self.get("speaker", lambda: SpeakerEncoder(weights.model_file("speaker", "pretrained.pt")))

    def diariser(self) -> Any:
        """CAM++: the embeddings diarisation clusters (index/diarise.py says why not GE2E's)."""
        from harp_desktop import weights
        from harp_desktop.index.campplus import CamPlusEncoder

        return self.get("speaker-campplus", lambda: CamPlusEncoder(
            weights.model_file("speaker-campplus", "campplus_cn_en_common.pt")))


@dataclass
class StageContext:
    db: LibraryDB
    vectors: VectorStore
    recording: dict
    options: IndexOptions
    models: ModelCache
    fingerprint: str
    report: Callable[[float], None]
    should_stop: Callable[[], bool]
    audio: np.ndarray | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def rid(self) -> int:
        return self.recording["id"]

    @property
    def sha(self) -> str:
        return self.recording["sha256"]

    def check(self) -> None:
        if self.should_stop():
            raise Cancelled()

    def finish(self, stage: str, seconds: float, info: dict, write: Callable[[], None]) -> None:
        """Write a stage's output and mark it done in one transaction."""
        with self.db.transaction():
            write()
            self.db.mark_stage_done(self.rid, stage, self.fingerprint, seconds, info)

    def array(self, name: str) -> tuple[np.ndarray, dict]:
        got = self.db.get_array(self.rid, name)
        if got is None:
            raise RuntimeError(f"stage output '{name}' is missing for recording {self.sha[:12]}")
        return got

    @staticmethod
    def dumps(obj: Any) -> str:
        return json.dumps(obj, separators=(",", ":"))
