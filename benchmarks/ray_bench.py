"""Local pipeline vs Ray workers on N copies of one recording: throughput and ratio.

    .venv/bin/python benchmarks/ray_bench.py [FILE] [--copies 2] [--workers 2] [--threads 1] [--asr base]

Copies differ by a tiny dither (recordings are keyed by their sha256, so identical
copies would be indexed once). "local" indexes them one after another with the default
options (all cores for whisper); "ray" starts a local Ray runtime and gives each worker
--threads cores. Wall time includes model loading (and, for ray, starting the runtime,
shown separately). Also prints seconds per stage per audio hour from the `stages`
table, which is what docs/scale.md's throughput model is built from.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEV = Path("/work/shared/data/dev/dev_long_01.flac")


def make_copies(src: Path, n: int, folder: Path) -> list[Path]:
    x, sr = sf.read(src, dtype="float32", always_2d=True)
    out = []
    for i in range(n):
        rng = np.random.default_rng(i)
        y = np.clip(x + rng.normal(0, 1e-4, x.shape).astype(np.float32), -1, 1)  # ~-80 dBFS: inaudible
        p = folder / f"{src.stem}_copy{i}.flac"
        sf.write(p, y, sr, subtype="PCM_16")
        out.append(p)
    return out


def cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def stage_seconds(lib) -> dict[str, float]:
    rows = lib.db.db.query("SELECT stage, SUM(seconds) AS s FROM stages GROUP BY stage")
    return {r["stage"]: r["s"] or 0.0 for r in rows}


def rows_by_sha(lib) -> dict[str, dict]:
    """Per recording: its segments, words, tags and speakers, to check ray against local (issue 18)."""
    out = {}
    for rec in lib.db.recordings():
        q = lambda sql, rid=rec["id"]: [tuple(r.values()) for r in lib.db.db.query(sql, [rid])]  # noqa: E731
        out[rec["sha256"]] = {
            "segments": q("SELECT idx, start_s, end_s, text FROM segments WHERE recording_id = ? ORDER BY idx"),
            "words": q("SELECT start_s, end_s, text FROM words WHERE recording_id = ? ORDER BY start_s, id"),
            "tags": q("SELECT kind, label, start_s, end_s, score FROM tags WHERE recording_id = ? ORDER BY start_s, label"),
            "speakers": q("SELECT idx, label, total_s FROM speakers WHERE recording_id = ? ORDER BY idx"),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=str(DEV))
    ap.add_argument("--copies", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="cores per Ray worker")
    ap.add_argument("--asr", default="base")
    ap.add_argument("--json", help="also write the numbers to this file")
    args = ap.parse_args()

    from harp_desktop.api import IndexOptions, Library
    from harp_desktop.cluster.ray_index import index_on_ray
    from harp_desktop.cluster.runtime import ray_runtime

    options = IndexOptions(asr_profile=args.asr)
    with tempfile.TemporaryDirectory(prefix="ray-bench-") as tmp:
        tmp = Path(tmp)
        copies = make_copies(Path(args.file), args.copies, tmp)
        audio_h = sum(sf.info(p).duration for p in copies) / 3600
        runs = {}

        t0, c0 = time.perf_counter(), cpu_s()
        with Library(tmp / "local") as lib:
            for p in copies:
                lib.index(p, options)
            runs["local"] = {"wall_s": time.perf_counter() - t0, "stages": stage_seconds(lib), "rss": None,
                             "cpu_s": cpu_s() - c0}
            local_rows = rows_by_sha(lib)

        t0 = time.perf_counter()
        with ray_runtime(None, num_cpus=args.workers * args.threads):
            t_init = time.perf_counter() - t0
            with Library(tmp / "ray") as lib:
                out = index_on_ray(lib.db, lib.vectors, copies, options, workers=args.workers, threads=args.threads)
                errors = [o["error"] for o in out if "error" in o]
                if errors:
                    raise SystemExit(f"ray run failed: {errors}")
                same = rows_by_sha(lib) == local_rows
                runs["ray"] = {"wall_s": time.perf_counter() - t0, "init_s": t_init, "stages": stage_seconds(lib),
                               "rss": max(o.get("worker_peak_rss_mb") or 0 for o in out),
                               "cpu_s": sum(o.get("worker_cpu_s") or 0 for o in out),
                               "merge_s": [o.get("merge_s") for o in out], "bundle_mb": [o.get("bundle_mb") for o in out]}

    print(f"{args.copies} x {Path(args.file).name} ({audio_h * 60:.1f} min of audio), ASR {args.asr}, "
          f"ray: {args.workers} workers x {args.threads} thread(s)")
    print(f"{'engine':<8}{'wall s':>9}{'audio h / wall h':>18}{'ratio':>8}{'CPU s':>9}{'audio h / core h':>18}"
          f"{'worker peak RSS MB':>20}")
    base = runs["local"]["wall_s"]
    for name, r in runs.items():
        rss = f"{r['rss']:.0f}" if r["rss"] else "-"
        print(f"{name:<8}{r['wall_s']:>9.1f}{audio_h * 3600 / r['wall_s']:>18.2f}{base / r['wall_s']:>8.2f}"
              f"{r['cpu_s']:>9.1f}{audio_h * 3600 / r['cpu_s']:>18.2f}{rss:>20}")
    print(f"ray rows (segments, words, events, speakers) {'identical to' if same else 'DIFFER from'} local")
    print(f"(ray wall time includes {runs['ray']['init_s']:.1f} s to start the runtime; merging each worker's "
          f"result into the library took {', '.join(f'{m:.2f}' for m in runs['ray']['merge_s'])} s, "
          f"bundles of {', '.join(f'{b:.1f}' for b in runs['ray']['bundle_mb'])} MB)")
    # Stage rows hold wall seconds, inflated by whatever else runs; CPU seconds are split over
    # stages in proportion to them (an approximation: stages differ in how well they use a core).
    print(f"\n{'stage':<12}{'local wall s/audio-h':>21}{'ray wall s/audio-h':>19}{'ray core s/audio-h':>19}"
          f"{'audio-h per core-h':>20}")
    ray_wall = sum(runs["ray"]["stages"].values())
    for stage in runs["local"]["stages"]:
        lo = runs["local"]["stages"][stage] / audio_h
        ry = runs["ray"]["stages"].get(stage, 0.0) / audio_h
        core = runs["ray"]["cpu_s"] * (runs["ray"]["stages"].get(stage, 0.0) / ray_wall) / audio_h
        print(f"{stage:<12}{lo:>21.1f}{ry:>19.1f}{core:>19.1f}{(3600 / core if core else float('inf')):>20.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"audio_h": audio_h, **runs}, indent=1))


if __name__ == "__main__":
    main()
