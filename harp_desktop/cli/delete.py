"""`harp delete RECORDING [--yes]`: delete a recording's index, answers and caches (never the file)."""

from __future__ import annotations

import argparse
import sys

from harp_desktop.cli.common import EXIT_USAGE, add_library_option, open_library


def cmd_delete(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        rec = lib.recording(args.recording)
        if not args.yes:
            if not sys.stdin.isatty():
                print("harp: error: deleting needs confirmation; pass --yes", file=sys.stderr)
                return EXIT_USAGE
            reply = input(f"Delete '{rec['name']}' ({rec['sha256'][:12]}) and everything derived from it? [y/N] ")
            if reply.strip().lower() not in ("y", "yes"):
                print("nothing deleted")
                return 0
        gone = lib.delete_recording(rec["sha256"])
    print(f"deleted {gone.name} ({gone.sha256[:12]}): {gone.rows} rows, {len(gone.files)} files or folders; "
          "the original recording file was not touched")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("delete", help="delete a recording's index, answers and caches (not the recording file)")
    p.add_argument("recording", metavar="RECORDING", help="path or sha256 prefix")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    add_library_option(p)
    p.set_defaults(func=cmd_delete)
