"""`harp show RECORDING`: a recording's transcript with speakers and events (Library.transcript)."""

from __future__ import annotations

import argparse
import json

from harp_desktop.cli.common import add_library_option, fmt_time, open_library


def cmd_show(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        data = lib.transcript(args.recording)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    rec = data["recording"]
    print(f"{rec['name']}  ({fmt_time(rec['duration_s'])}, sha256 {rec['sha256'][:12]})")
    names = {s["id"]: s["name"] for s in data["speakers"]}
    print("speakers: " + (", ".join(f"{k} ({v})" if k != v else k for k, v in names.items()) or "none"))
    if rec["note"]:
        print(f"note: {rec['note']}")
    items = [(s["start_s"], f"[{fmt_time(s['start_s'])}-{fmt_time(s['end_s'])}] {names.get(s['speaker'], s['speaker'] or '?')}: {s['text']}") for s in data["segments"]]
    items += [(e["start_s"], f"[{fmt_time(e['start_s'])}-{fmt_time(e['end_s'])}] <{e['label']}> ({e['score']:.2f})") for e in data["events"]]
    for _, line in sorted(items, key=lambda x: x[0]):
        print(line)
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("show", help="print a recording's transcript with speakers and events")
    p.add_argument("recording", metavar="RECORDING", help="path or sha256 prefix")
    add_library_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_show)
