"""Indexing speed and memory: seconds per stage, real-time factor, peak RSS, and the
same file through faster-whisper alone for the "pipeline / ASR alone" ratio.

    .venv/bin/python benchmarks/index_bench.py FILE [--minutes 60] [--asr base]

--minutes N first builds an N-minute file by concatenating FILE (for the 60-minute
memory target). Each measurement runs in its own child process so peak RSS is its own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def build_long(src: Path, minutes: float, out: Path) -> Path:
    x, sr = sf.read(src, dtype="float32", always_2d=True)
    x = x.mean(axis=1)
    reps = int(np.ceil(minutes * 60 * sr / len(x)))
    with sf.SoundFile(out, "w", sr, 1, format="FLAC") as fh:
        for _ in range(reps):
            fh.write(x)
    return out


def worker_pipeline(path: str, asr: str, library: str) -> dict:
    from harp_desktop.api import IndexOptions, Library

    t0, c0 = time.perf_counter(), time.process_time()
    with Library(library) as lib:
        res = lib.index(path, IndexOptions(asr_profile=asr))
    return {"seconds": res.seconds, "cpu": res.cpu_seconds, "total": time.perf_counter() - t0,
            "total_cpu": time.process_time() - c0, "duration_s": res.duration_s}


def worker_asr_alone(path: str, asr: str) -> dict:
    from faster_whisper import WhisperModel

    from harp_desktop import weights

    t0, c0 = time.perf_counter(), time.process_time()
    model = WhisperModel(str(weights.model_path(weights.ASR_PROFILES[asr])), device="cpu", compute_type="int8",
                         cpu_threads=2)
    from harp_desktop.index.context import IndexOptions

    segments, _ = model.transcribe(path, beam_size=1, word_timestamps=True, vad_filter=True,
                                   condition_on_previous_text=False, hotwords=IndexOptions().hotwords)
    n = sum(len(s.words or []) for s in segments)
    return {"total": time.perf_counter() - t0, "total_cpu": time.process_time() - c0, "words": n}


def run_child(mode: str, *args: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--worker", mode, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{mode} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--asr", default="base")
    ap.add_argument("--minutes", type=float, default=0)
    ap.add_argument("--no-asr-alone", action="store_true")
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        mode, *rest = args.worker
        res = worker_pipeline(*rest) if mode == "pipeline" else worker_asr_alone(*rest)
        res["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(res))
        return
    if not args.file:
        ap.error("FILE is required")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.file)
        if args.minutes:
            path = build_long(path, args.minutes, Path(tmp) / f"long_{int(args.minutes)}min.flac")
        load0 = os.getloadavg()
        pipe = run_child("pipeline", str(path), args.asr, str(Path(tmp) / "library"))
        load1 = os.getloadavg()
        alone = None if args.no_asr_alone else run_child("asr", str(path), args.asr)
        load2 = os.getloadavg()
    dur = pipe["duration_s"]
    print(f"file: {path.name}  duration {dur / 60:.1f} min  ASR profile {args.asr}")
    # CPU seconds (process_time, all threads) as well as wall: other jobs may share the cores.
    print(f"{'stage':<14}{'seconds':>10}{'CPU-s':>9}{'RTF':>9}")
    for stage, s in pipe["seconds"].items():
        print(f"{stage:<14}{s:>10.2f}{pipe['cpu'].get(stage, 0.0):>9.2f}{s / dur:>9.4f}")
    for key, cpu in pipe["cpu"].items():  # index/beside.py: later stages' work, inside the row of the stage it ran beside
        if key.startswith("beside "):
            print(f"  ({key}){cpu:>{29 - len(key)}.2f}   of that row: "
                  + ("the sounds tagger pass and Silero" if key.endswith("events") else "the speaker windows"))
    print(f"{'pipeline':<14}{pipe['total']:>10.2f}{pipe['total_cpu']:>9.2f}{pipe['total'] / dur:>9.4f}"
          f"   peak RSS {pipe['peak_rss_mb']:.0f} MB")
    if alone:
        print(f"{'ASR alone':<14}{alone['total']:>10.2f}{alone['total_cpu']:>9.2f}{alone['total'] / dur:>9.4f}"
              f"   peak RSS {alone['peak_rss_mb']:.0f} MB  (faster-whisper + its VAD, same options incl. hotwords)")
        print(f"pipeline / ASR alone = {pipe['total'] / alone['total']:.2f} wall, "
              f"{pipe['total_cpu'] / alone['total_cpu']:.2f} CPU")
    # The machine may be shared: the 1-minute load average before, between and after the two runs.
    print("load (1 min): " + ", ".join(f"{x[0]:.2f}" for x in (load0, load1) + ((load2,) if alone else ())))


if __name__ == "__main__":
    main()
