"""`--engine ray` for `harp index` and `harp eval`: the options and the Ray indexing loop, the
terminal shell over Library.index_on_ray (no logic of its own; no parser of its own)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import threading
from pathlib import Path

from harp_desktop.cli.common import EXIT_ERROR, fmt_time


def add_engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", default="local", choices=["local", "ray"],
                   help="ray: spread the work over Ray workers (needs the 'cluster' extra)")
    p.add_argument("--address", help="with --engine ray: a Ray cluster to join (default: start one on this machine)")
    p.add_argument("--workers", type=int, help="with --engine ray: number of workers (default: cluster CPUs / threads)")
    p.add_argument("--threads", type=int, default=1, help="with --engine ray: CPU cores each worker reserves (default 1; it computes with the index options' threads)")


def cmd_index_ray(args: argparse.Namespace, options, stop: threading.Event) -> int:
    """Like the local `harp index`, one line (or JSON entry) per recording, as each worker finishes."""
    from harp_desktop.api import Cancelled, Library

    if (args.workers is not None and args.workers < 1) or args.threads < 1:
        raise ValueError("--workers and --threads must be at least 1")
    results, failures = [], 0

    def report(o: dict) -> None:
        nonlocal failures
        if "error" in o:
            failures += 1
            results.append({"path": o["path"], "error": o["error"]})
            print(f"harp: error: {Path(o['path']).name}: {o['error']}", file=sys.stderr)
            return
        if "result" not in o:
            return  # cancelled before anything of this recording finished
        res = o["result"]
        results.append(dataclasses.asdict(res))
        if not args.json:
            status = "already indexed" if not res.ran else f"indexed ({', '.join(res.ran)})"
            print(f"{res.path}: {status}; sha256 {res.sha256[:12]}, {fmt_time(res.duration_s)}", flush=True)
            for note in res.notes:
                print(f"  note: {note}")

    with Library(args.library) as lib:
        try:
            lib.index_on_ray(args.paths, options, address=args.address, workers=args.workers,
                             threads=args.threads, on_result=report, should_stop=stop.is_set)
        except Cancelled:
            print("harp: cancelled; finished recordings and stages are kept and the next run resumes",
                  file=sys.stderr)
            return 130
    if args.json:
        print(json.dumps({"recordings": results}, ensure_ascii=False))
    return EXIT_ERROR if failures else 0
