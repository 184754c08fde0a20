"""`harp index --engine ray` and `harp library export|import`: the terminal shell over
Library.index_on_ray / export_bundle / import_bundle (no logic of its own)."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

EXIT_ERROR = 1


def add_engine_options(p) -> None:
    p.add_argument("--engine", default="local", choices=["local", "ray"],
                   help="ray: spread the work over Ray workers (needs the 'cluster' extra)")
    p.add_argument("--address", help="with --engine ray: a Ray cluster to join (default: start one on this machine)")
    p.add_argument("--workers", type=int, help="with --engine ray: number of workers (default: cluster CPUs / threads)")
    p.add_argument("--threads", type=int, default=1, help="with --engine ray: CPU threads per worker (default 1)")


def cmd_index_ray(args, options, stop) -> int:
    """Like the local `harp index`, one line (or JSON entry) per recording, as each worker finishes."""
    from harp_desktop.api import Cancelled, Library
    from harp_desktop.cli import _fmt_time

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
            print(f"{res.path}: {status}; sha256 {res.sha256[:12]}, {_fmt_time(res.duration_s)}", flush=True)
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


def cmd_library(args) -> int:
    from harp_desktop.api import Library

    if args.action == "init":
        from harp_desktop.cli_library import cmd_init

        return cmd_init(args)
    if not args.file:
        raise ValueError(f"`harp library {args.action}` needs the .harplib FILE")
    with Library(args.library) as lib:
        if args.action == "export":
            m = lib.export_bundle(args.file, audio=args.audio)
            size = sum(f["bytes"] for f in m["files"].values())
            print(f"wrote {args.file}: {len(m['recordings'])} recording(s), {len(m['files'])} files, "
                  f"{size / 1e6:.1f} MB{' (with audio caches)' if args.audio else ''}")
        else:
            for r in lib.import_bundle(args.file):
                print(f"{r['name']}: {r['status']}; sha256 {r['sha256'][:12]}")
    return 0


def add_parsers(sub, lib_help: str) -> None:
    p = sub.add_parser("library", help="create a library (init [--encrypt]), export it as a portable .harplib "
                                       "bundle, or import one")
    p.add_argument("action", choices=["init", "export", "import"])
    p.add_argument("file", metavar="FILE", nargs="?", help="export/import: the .harplib file to write or read")
    p.add_argument("--encrypt", action="store_true",
                   help="init: encrypt the new library with a passphrase ($HARP_PASSPHRASE or a prompt); "
                        "a lost passphrase means lost data")
    p.add_argument("--audio", action="store_true", help="export: include the decoded audio caches "
                                                        "(playback and burst counting without the originals)")
    p.add_argument("--library", default=os.environ.get("HARP_LIBRARY"), help=lib_help)
    p.set_defaults(func=cmd_library)
