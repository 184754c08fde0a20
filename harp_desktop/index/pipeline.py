"""The one driver of the offline stage: decides which stages must run, runs them in
dependency order, reports progress (stage, fraction, ETA) and honours Cancel.

A stage is up to date when its stored fingerprint equals the one computed now from
its own model/parameters and its upstream stages' fingerprints, so changing a model
re-runs exactly the stages that depend on it.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harp_desktop import weights
from harp_desktop.audio.decode import (
    AudioError,
    AudioInfo,
    decode_to_cache,
    ensure_free_space,
    open_cache,
    probe,
    sha256_of,
)
from harp_desktop.findings import stage as findings_stage
from harp_desktop.index import stages, stages_embed
from harp_desktop.index.asr import GAP_S, JOIN_S, PLAN, REPAIR, TAIL_GAP
from harp_desktop.index.beside import Beside, beside_asr, beside_events
from harp_desktop.index.context import Cancelled, IndexOptions, ModelCache, Progress, StageContext
from harp_desktop.index.diarise import VERSION as DIARISE_VERSION
from harp_desktop.index.vad import RESCUE_LOGIT, RESCUE_MIN_CELLS, VAD_OPTIONS
from harp_desktop.paths import inside, private_dir
from harp_desktop.store.db import LibraryDB
from harp_desktop.store.locks import recording_lock
from harp_desktop.store.vectors import VectorStore


@dataclass(frozen=True)
class StageSpec:
    name: str
    deps: tuple[str, ...]
    weight: float  # share of total indexing time, for the progress bar and ETA
    run: Callable[[StageContext], dict]
    own_key: Callable[[IndexOptions], str]
    vector_space: str | None = None


STAGES: list[StageSpec] = [
    StageSpec("events", (), 0.12, stages_embed.run_events, lambda o: f"{weights.fingerprint('events')}:v6-onsets"),
    # Ambient sounds (telephone, knock, alarm, music, dog): their own stage, so they re-run alone.
    StageSpec("sounds", ("events",), 0.01, stages_embed.run_sounds, stages_embed.sounds_key),
    StageSpec("vad", ("events",), 0.03, stages.run_vad,
              lambda o: f"{weights.fingerprint('vad')}:{VAD_OPTIONS}:rescue{RESCUE_LOGIT}x{RESCUE_MIN_CELLS}:v2"),
    StageSpec("asr", ("vad",), 0.62, stages.run_asr,
              lambda o: f"{weights.fingerprint(stages.asr_model_key(o))}:beam{o.beam_size}:{o.language}:{o.asr_chunk_s}:"
                        f"{hashlib.sha256((o.hotwords or '').encode()).hexdigest()[:8]}:gap{GAP_S}:join{JOIN_S}:{REPAIR}"
                        f"{'' if TAIL_GAP else ':notail'}:{PLAN}"),
    StageSpec("speakers", ("vad",), 0.08, stages.run_speakers,
              lambda o: f"{weights.fingerprint('speaker')}:{weights.fingerprint('speaker-campplus')}:"
                        f"w{stages.SPEAKER_WINDOW_S}:h{stages.SPEAKER_HOP_S}:{DIARISE_VERSION}"),
    StageSpec("segments", ("asr", "speakers"), 0.02, stages.run_segments, lambda o: f"turns:v3-min{stages.turns.MIN_TURN_S}"),
    StageSpec("text_emb", ("segments",), 0.08, stages_embed.run_text_emb,
              lambda o: weights.fingerprint("text"), "text"),
    StageSpec("speaker_emb", ("segments",), 0.01, stages_embed.run_speaker_emb, lambda o: "mean:v1", "speaker"),
    StageSpec("audio_emb", ("segments", "events"), 0.04, stages_embed.run_audio_emb, lambda o: "mean:v1+q8", "audio"),
    StageSpec("emotion", ("segments", "events"), 0.01, stages_embed.run_emotion, stages_embed.emotion_key),
    # Roles, sections, clinical findings, whose sounds: text and turns only (events and VAD chain in via segments).
    StageSpec("findings", ("segments",), 0.005, findings_stage.run_findings, findings_stage.own_key),
]
DECODE_KEY = "decode:soxr-HQ:16k-mono-f32:v1"


@dataclass
class IndexResult:
    recording_id: int
    sha256: str
    path: str
    duration_s: float
    ran: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    cpu_seconds: dict[str, float] = field(default_factory=dict)  # process CPU (all threads): wall lies on a shared machine


def fingerprints(options: IndexOptions) -> dict[str, str]:
    fps: dict[str, str] = {}
    for spec in STAGES:
        parts = [spec.own_key(options)] + [fps[d] for d in spec.deps]
        fps[spec.name] = hashlib.sha256("|".join([DECODE_KEY, *parts]).encode()).hexdigest()[:16]
    return fps


def check_source(library_folder: Path, path: Path | str) -> AudioInfo:
    """What a file must pass before indexing starts (the CLI and the window check the same):
    not a file of the library itself (reading its database with open() would drop this
    process's SQLite locks), and a supported, non-empty audio file. No path is resolved first."""
    if inside(library_folder, path):
        raise AudioError(f"{path}: is inside the library folder, not a recording")
    return probe(Path(path))


class Indexer:
    def __init__(
        self,
        db: LibraryDB,
        vectors: VectorStore,
        options: IndexOptions | None = None,
        progress: Callable[[Progress], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
        models: ModelCache | None = None,
    ) -> None:
        self.db, self.vectors = db, vectors
        self.options = options or IndexOptions()
        self.progress = progress or (lambda p: None)
        self.should_stop = should_stop or (lambda: False)
        self.models = models or ModelCache()

    def audio_cache(self, sha256: str) -> Path:
        return self.db.folder / "audio" / f"{sha256}.f32"

    def _decode(self, path: Path, sha: str, report: Callable[[float], None]) -> dict:
        """Decode into the cache and register the recording, atomically."""
        info = probe(path)
        cache = self.audio_cache(sha)
        rec = self.db.recording_by_sha(sha)
        if rec and cache.exists() and self.db.stage_fingerprint(rec["id"], "decode") == DECODE_KEY:
            self.db.add_recording(sha, path, {})  # refresh the path if the file moved
            return self.db.recording_by_sha(sha)
        private_dir(cache.parent)
        ensure_free_space(cache.parent, info.duration_s)
        t0 = time.perf_counter()
        n = decode_to_cache(path, cache, report, self.should_stop, key=self.db.key)
        meta = {"format": info.format, "sample_rate": info.sample_rate, "channels": info.channels,
                "duration_s": round(n / 16000, 3)}
        if not info.warning and n / 16000 < info.duration_s - 0.5:  # a damaged or cut-off file (e.g. FLAC)
            meta["note"] = (f"the file is damaged or truncated: its header declares {info.duration_s:.1f} s, "
                            f"{n / 16000:.1f} s were readable and were indexed")
        with self.db.transaction():
            rid = self.db.add_recording(sha, path, meta)
            self.db.mark_stage_done(rid, "decode", DECODE_KEY, time.perf_counter() - t0, meta)
        return self.db.recording_by_sha(sha)

    def index(self, path: Path) -> IndexResult:
        warning = check_source(self.db.folder, path).warning  # fail fast, before anything is written
        path = Path(path).resolve()
        for spec in STAGES:  # unknown profile or bad weights: refuse before work starts
            spec.own_key(self.options)
        sha = sha256_of(path)
        # Another program (the GUI, a second `harp index`) may be indexing this recording: wait for it.
        with recording_lock(self.db.folder, sha, self.should_stop,
                            lambda: self.progress(Progress("waiting", 0.0, 0.0, None,
                                                           "another program is indexing this recording"))):
            return self._index_locked(path, sha, warning)

    def _index_locked(self, path: Path, sha: str, warning: str) -> IndexResult:
        fps = fingerprints(self.options)
        t_start = time.perf_counter()
        done_weight = 0.0
        total_weight = 0.03 + sum(s.weight for s in STAGES)

        def reporter(stage: str, weight: float) -> Callable[[float], None]:
            def report(frac: float) -> None:
                overall = (done_weight + weight * max(0.0, min(1.0, frac))) / total_weight
                elapsed = time.perf_counter() - t_start
                eta = elapsed * (1 - overall) / overall if overall > 0.02 else None
                self.progress(Progress(stage, frac, overall, eta))
            return report

        rec = self._decode(path, sha, reporter("decode", 0.03))
        done_weight += 0.03
        result = IndexResult(rec["id"], sha, str(path), rec["duration_s"])
        if not warning and (rec["note"] or "").startswith("the file is damaged"):
            warning = rec["note"].split("; ")[0]
        if warning:
            result.notes.append(warning)
            self.db.db["recordings"].update(rec["id"], {"note": warning})
        audio = open_cache(self.audio_cache(sha))

        def stale() -> set[str]:
            return {s.name for s in STAGES if self.db.stage_fingerprint(rec["id"], s.name) != fps[s.name]
                    or (s.vector_space and not self.vectors.exists(sha, s.vector_space))}

        beside: dict[str, Beside | None] = {}  # later stages' work on the core a running stage leaves idle (index/beside.py)
        try:
            for spec in STAGES:
                if self.should_stop():
                    raise Cancelled()
                todo = stale()
                if spec.name not in todo:
                    result.skipped.append(spec.name)
                else:
                    ctx = StageContext(self.db, self.vectors, rec, self.options, self.models, fps[spec.name],
                                       reporter(spec.name, spec.weight), self.should_stop, audio)
                    if spec.name == "events":
                        beside["events"] = beside_events(self.models, audio, fps, sha, todo, self.should_stop)
                    elif spec.name == "asr":
                        beside["asr"] = beside_asr(self.models, audio, stages._regions(ctx), fps, todo, self.should_stop)
                    ctx.report(0.0)
                    t0, c0 = time.perf_counter(), time.process_time()
                    spec.run(ctx)
                    result.seconds[spec.name] = round(time.perf_counter() - t0, 3)
                    result.cpu_seconds[spec.name] = round(time.process_time() - c0, 3)
                    result.ran.append(spec.name)
                    result.notes += ctx.notes
                done_weight += spec.weight
        finally:
            for stage, b in beside.items():
                if b is not None:
                    b.close()
                    # counted in that stage's row already (process CPU), shown on its own too
                    result.cpu_seconds[f"beside {stage}"] = round(b.cpu_s, 3)
        if not self.db.segments(rec["id"]):
            note = "no speech found: the recording is silent or holds no voice (0 segments)"
            result.notes = [n for n in result.notes if not n.startswith("no speech")] + [note]
            self.db.db["recordings"].update(rec["id"], {"note": "; ".join(filter(None, [warning, note]))})
        self.progress(Progress("done", 1.0, 1.0, 0.0))
        return result


__all__ = ["Indexer", "IndexResult", "IndexOptions", "Progress", "Cancelled", "AudioError", "STAGES"]
