"""CAM++ window embeddings alone: windows/s (wall and CPU) over one indexed recording's speech regions,
embedded in the speakers stage's groups (diarise.GROUP regions a call), as the stage does.

    .venv/bin/python benchmarks/campplus_bench.py --library DIR [--recording 1] [--save E.npy]

Imports ``harp_desktop`` from PYTHONPATH first, so the same script times another checkout's code
(PYTHONPATH=/other/checkout); ``--save`` keeps the embeddings to compare two runs.
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.append(str(REPO))  # after PYTHONPATH: another checkout given there wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--recording", type=int, default=1, help="recording id in the library")
    ap.add_argument("--save", type=Path, help="write the (windows, 192) embeddings here")
    ap.add_argument("--compare", type=Path, help="an earlier --save: report the largest difference")
    args = ap.parse_args()

    import harp_desktop.index.campplus as cp
    from harp_desktop.index.context import ModelCache
    from harp_desktop.index.diarise import GROUP, HOP_S, WINDOW_S, region_wavs
    from harp_desktop.types import Region

    con = sqlite3.connect(args.library / "library.sqlite")
    sha = con.execute("SELECT sha256 FROM recordings WHERE id = ?", [args.recording]).fetchone()[0]
    regions = [Region(a, b) for a, b in con.execute(
        "SELECT start_s, end_s FROM speech_regions WHERE recording_id = ? ORDER BY idx", [args.recording])]
    audio = np.asarray(np.memmap(args.library / "audio" / f"{sha}.f32", np.float32, "r"))
    wavs, _ = region_wavs(audio, regions)
    enc = ModelCache().diariser()
    enc.embed_regions(wavs[:GROUP], WINDOW_S, HOP_S)  # warm-up: first-call allocations
    t0, c0 = time.perf_counter(), time.process_time()
    embs = [e for g in range(0, len(wavs), GROUP) for _, e in enc.embed_regions(wavs[g: g + GROUP], WINDOW_S, HOP_S)]
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    e = np.concatenate(embs)
    print(f"{cp.__file__}\nrecording {args.recording}: {len(wavs)} regions, {len(e)} windows; wall {wall:.1f} s, "
          f"CPU {cpu:.1f} s; {len(e) / wall:.1f} windows/s wall, {len(e) / cpu:.1f} windows/s CPU; "
          f"max RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    if args.save:
        np.save(args.save, e)
    if args.compare:
        ref = np.load(args.compare)
        print(f"vs {args.compare}: max |diff| {np.abs(ref - e).max():.2e}, min cosine {(ref * e).sum(1).min():.7f}")


if __name__ == "__main__":
    main()
