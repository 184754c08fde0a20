"""`harp index --engine ray`: the local pipeline, run per recording on Ray actors.

Nothing here schedules: Ray places the actors and hands each a recording when it is
free. Each actor (``IndexWorker``) keeps one ModelCache, so whisper, YAMNet and the
encoders load once per worker, and runs the unchanged local ``Indexer`` into a scratch
library of its own; it returns that library as a bundle (store/bundle.py: rows, arrays,
vector files, the decoded audio, all under checksums). The driver alone writes the main
library: it imports each bundle with store/transfer.py, one transaction per recording,
so SQLite keeps a single writer and the fingerprints, checksums and stage rows are the
pipeline's own. A recording already partly indexed in the library is sent along as a
seed bundle, so the worker's Indexer resumes it (finished stages and ASR chunks kept)
exactly as a local run would.
"""

from __future__ import annotations

import dataclasses
import os
import resource
import shutil
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from harp_desktop import weights
from harp_desktop.audio.decode import AudioError, probe, sha256_of
from harp_desktop.cluster.runtime import cluster_cpus, ray_runtime
from harp_desktop.index.context import Cancelled, IndexOptions, ModelCache
from harp_desktop.index.pipeline import DECODE_KEY, STAGES, Indexer, IndexResult, fingerprints
from harp_desktop.store.bundle import BundleError, export_bundle, import_bundle
from harp_desktop.store.db import LibraryDB
from harp_desktop.store.transfer import Store, copy_recording, stage_fingerprints
from harp_desktop.store.vectors import VectorStore


class IndexWorker:
    """One Ray actor: models loaded once, a scratch library per recording."""

    def __init__(self) -> None:
        self.models = ModelCache()
        self.stop = threading.Event()

    def cancel(self) -> None:
        self.stop.set()  # seen by the Indexer at its next checkpoint (between ASR chunks, stages)

    def index(self, path: str, options: IndexOptions, seed: bytes | None = None) -> dict:
        scratch = Path(tempfile.mkdtemp(prefix="harp-worker-"))
        cpu0 = _cpu_s()
        try:
            db = LibraryDB(scratch / "library")
            if seed:
                (scratch / "seed.harplib").write_bytes(seed)
                import_bundle(scratch / "seed.harplib", db)
            status, result, error = "done", None, None
            try:
                result = Indexer(db, VectorStore(db.folder), options, should_stop=self.stop.is_set,
                                 models=self.models).index(Path(path))
            except (Cancelled, InterruptedError):  # decode/VAD/events stop with InterruptedError
                status = "cancelled"  # what finished is still returned, so the next run resumes
            except (AudioError, weights.WeightsError, LookupError, OSError) as exc:
                status, error = "failed", str(exc)  # as locally: the stages before the failure are kept
            out = scratch / "result.harplib"
            export_bundle(db, out, audio=True)
            db.close()
            return {"status": status, "error": error, "result": dataclasses.asdict(result) if result else None,
                    "bundle": out.read_bytes(), "peak_rss_mb": _peak_rss_mb(), "cpu_s": round(_cpu_s() - cpu0, 2),
                    "omp_threads": os.environ.get("OMP_NUM_THREADS")}
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def _cpu_s() -> float:
    """CPU seconds of this process, all threads (what a recording costs, whatever else runs)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # Linux: KiB


def up_to_date(db: LibraryDB, vectors: VectorStore, sha256: str, options: IndexOptions) -> bool:
    """The Indexer's own rule: every stage's fingerprint matches and its vector file exists."""
    rec = db.recording_by_sha(sha256)
    if rec is None:
        return False
    have, want = stage_fingerprints(db, rec["id"]), fingerprints(options)
    return have.get("decode") == DECODE_KEY and all(
        have.get(s.name) == want[s.name] and (not s.vector_space or vectors.exists(sha256, s.vector_space))
        for s in STAGES)


def _seed(db: LibraryDB, vectors: VectorStore, sha256: str) -> bytes | None:
    """The recording's finished stages in this library, as a bundle for the worker to resume from."""
    if db.recording_by_sha(sha256) is None:
        return None
    with tempfile.TemporaryDirectory(prefix=".seed-", dir=db.folder) as work:
        scratch = Store.open(Path(work) / "library")
        copy_recording(Store(db, vectors), scratch, sha256, audio=False)
        export_bundle(scratch.db, Path(work) / "seed.harplib")
        scratch.db.close()
        return (Path(work) / "seed.harplib").read_bytes()


def _merge(db: LibraryDB, out: dict, path: Path) -> IndexResult | None:
    with tempfile.NamedTemporaryFile(prefix=".merge-", suffix=".harplib", dir=db.folder) as f:
        f.write(out["bundle"])
        f.flush()
        merged = import_bundle(Path(f.name), db)
    if not merged:
        return None  # cancelled before the recording was even decoded
    fields = out["result"] or {}
    rec = db.recording_by_sha(merged[0]["sha256"])
    return IndexResult(rec["id"], rec["sha256"], fields.get("path", str(path)), rec["duration_s"],
                       fields.get("ran", []), fields.get("skipped", []), fields.get("notes", []),
                       fields.get("seconds", {}))


def index_on_ray(
    db: LibraryDB,
    vectors: VectorStore,
    paths: list[Path | str],
    options: IndexOptions,
    *,
    address: str | None = None,
    workers: int | None = None,
    threads: int | None = None,
    on_result: Callable[[dict], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    models: ModelCache | None = None,
) -> list[dict]:
    """Index ``paths`` on Ray; one dict per path: {"path", "result": IndexResult} or {"path", "error"}."""
    should_stop = should_stop or (lambda: False)
    report = on_result or (lambda r: None)
    for spec in STAGES:  # unknown profile or bad weights: refuse before anything starts
        spec.own_key(options)
    outcomes: list[dict] = []
    jobs: deque[tuple[Path, str]] = deque()
    seen: set[str] = set()
    for p in paths:
        path = Path(p).expanduser().resolve()
        try:
            probe(path)
            sha = sha256_of(path)
        except (AudioError, OSError) as exc:
            outcomes.append({"path": str(path), "error": str(exc)})
            report(outcomes[-1])
            continue
        if sha in seen:
            continue
        seen.add(sha)
        if up_to_date(db, vectors, sha, options):  # nothing to compute: the local Indexer just checks
            res = Indexer(db, vectors, options, models=models).index(path)
            outcomes.append({"path": str(path), "result": res})
            report(outcomes[-1])
        else:
            jobs.append((path, sha))
    if not jobs:
        return outcomes
    # ``threads`` only reserves cores for Ray's placement. The numbers are computed with the
    # options' own cpu_threads and this process's OpenMP width, as a local run would: CTranslate2's
    # word times move by a 20 ms frame with its thread count, which gave 116 vs 115 segments
    # (issue 18). Ray would otherwise set OMP_NUM_THREADS to the actor's num_cpus.
    env = {"OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS") or str(len(os.sched_getaffinity(0)))}
    threads = threads or options.cpu_threads
    with ray_runtime(address, num_cpus=None) as ray:
        n = max(1, min(len(jobs), workers or cluster_cpus(ray) // threads))
        Actor = ray.remote(num_cpus=threads, max_concurrency=2,  # 2: cancel() runs beside index()
                           runtime_env={"env_vars": env})(IndexWorker)
        actors = [Actor.remote() for _ in range(n)]
        idle, busy, cancelled = list(actors), {}, False
        try:
            while jobs or busy:
                if should_stop() and not cancelled:
                    cancelled = True
                    jobs.clear()
                    for actor, _ in busy.values():
                        actor.cancel.remote()
                while idle and jobs:
                    path, sha = jobs.popleft()
                    actor = idle.pop()
                    busy[actor.index.remote(str(path), options, _seed(db, vectors, sha))] = (actor, path)
                if not busy:
                    break
                done, _ = ray.wait(list(busy), num_returns=1, timeout=0.5)
                for ref in done:
                    actor, path = busy.pop(ref)
                    idle.append(actor)
                    outcomes.append(_collect(ray, db, ref, path))
                    report(outcomes[-1])
        finally:
            for actor in actors:
                ray.kill(actor)
    if cancelled:
        raise Cancelled()
    return outcomes


def _collect(ray, db: LibraryDB, ref, path: Path) -> dict:
    try:
        out = ray.get(ref)
    except ray.exceptions.RayError as exc:
        return {"path": str(path), "error": f"worker failed: {str(exc).strip().splitlines()[-1]}"}
    t0 = time.perf_counter()
    try:
        res = _merge(db, out, path)
    except BundleError as exc:
        return {"path": str(path), "error": f"worker result rejected: {exc}"}
    if out["error"]:
        return {"path": str(path), "error": out["error"]}
    if res is None:
        return {"path": str(path), "cancelled": True}
    return {"path": str(path), "result": res, "cancelled": out["status"] == "cancelled",
            "worker_peak_rss_mb": out.get("peak_rss_mb"), "worker_cpu_s": out.get("cpu_s"),
            "worker_omp_threads": out.get("omp_threads"),
            "merge_s": round(time.perf_counter() - t0, 3),
            "bundle_mb": round(len(out["bundle"]) / 1e6, 2)}
