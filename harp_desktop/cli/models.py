"""`harp models`: model weights, presence, checksum status and licence (harp_desktop/weights.py)."""

from __future__ import annotations

import argparse
import dataclasses
import json

from harp_desktop import weights
from harp_desktop.cli.common import EXIT_ERROR


def cmd_models(args: argparse.Namespace) -> int:
    rows = weights.status()
    if args.json:
        print(json.dumps({"models": [dataclasses.asdict(r) for r in rows]}, ensure_ascii=False))
        return 0
    for r in rows:
        state = "ok" if r.checksum_ok else ("CHECKSUM FAILED" if r.present else ("unavailable" if r.note.startswith("unavailable") else "absent"))
        print(f"{r.key:12} {state:16} {r.role}")
        print(f"{'':12} licence: {r.licence}; from {', '.join(r.packages)}")
        if r.note:
            print(f"{'':12} {r.note}")
    profiles = ", ".join(f"{k}{' (default)' if k == 'base' else ''}" for k in weights.ASR_PROFILES)
    print(f"ASR profiles: {profiles}")
    return 0 if all(r.checksum_ok or "unavailable" in r.note for r in rows) else EXIT_ERROR


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("models", help="list model weights, presence, checksum status and licence")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_models)
