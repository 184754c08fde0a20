"""`harp index PATH...`: the terminal shell over Library.index (no logic of its own)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
import threading
from pathlib import Path

from harp_desktop import weights
from harp_desktop.cli import cluster
from harp_desktop.cli.common import EXIT_ERROR, ProgressBar, add_library_option, fmt_time, open_library


def cmd_index(args: argparse.Namespace) -> int:
    from harp_desktop.api import AudioError, Cancelled, IndexOptions

    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *a: stop.set())  # Ctrl-C: cancel cleanly at the next checkpoint
    options = IndexOptions(asr_profile=args.asr)
    if args.engine == "ray":
        return cluster.cmd_index_ray(args, options, stop)
    results, failures = [], 0
    with open_library(args) as lib:
        for p in args.paths:
            bar = ProgressBar(Path(p).name)
            try:
                res = lib.index(p, options, bar, stop.is_set)
            except (AudioError, weights.WeightsError, LookupError) as exc:
                bar.close()
                failures += 1
                results.append({"path": str(p), "error": str(exc)})
                print(f"harp: error: {exc}", file=sys.stderr)
                continue
            except Cancelled:
                bar.close()
                print("harp: cancelled; finished stages are kept and the next run resumes", file=sys.stderr)
                return 130
            bar.close()
            results.append(dataclasses.asdict(res))
            if not args.json:
                status = "already indexed" if not res.ran else f"indexed ({', '.join(res.ran)})"
                print(f"{res.path}: {status}; sha256 {res.sha256[:12]}, {fmt_time(res.duration_s)}")
                for note in res.notes:
                    print(f"  note: {note}")
    if args.json:
        print(json.dumps({"recordings": results}, ensure_ascii=False))
    return EXIT_ERROR if failures else 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("index", help="index recordings into the library")
    p.add_argument("paths", nargs="+", metavar="PATH")
    add_library_option(p)
    p.add_argument("--asr", default="base", choices=list(weights.ASR_PROFILES), help="ASR profile")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    cluster.add_engine_options(p)  # --engine ray, --address, --workers, --threads
    p.set_defaults(func=cmd_index)
