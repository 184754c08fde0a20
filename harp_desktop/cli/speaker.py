"""`harp speaker REC SPEAKER [NAME] [--role ROLE]`: name a speaker or set its role by hand."""

from __future__ import annotations

import argparse
import sys

from harp_desktop.cli.common import EXIT_USAGE, add_library_option, open_library


def cmd_speaker(args: argparse.Namespace) -> int:
    if args.name is None and args.role is None:
        print("harp: error: give a name, --role patient|clinician|other, or both", file=sys.stderr)
        return EXIT_USAGE
    with open_library(args) as lib:
        if args.name is not None:
            lib.rename_speaker(args.recording, args.speaker, args.name)
            print(f"{args.speaker} is now '{args.name}'")
        if args.role is not None:
            lib.set_role(args.recording, args.speaker, args.role)
            print(f"{args.speaker}'s role is now {args.role} (set by hand: kept when the recording is re-indexed)")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("speaker", help="name a speaker or set its role, e.g. harp speaker REC SPEAKER_1 'Dr Patel' "
                                       "--role clinician")
    p.add_argument("recording")
    p.add_argument("speaker")
    p.add_argument("name", nargs="?", help="display name (optional when --role is given)")
    p.add_argument("--role", choices=["patient", "clinician", "other"], help="set the speaker's role by hand")
    add_library_option(p)
    p.set_defaults(func=cmd_speaker)
