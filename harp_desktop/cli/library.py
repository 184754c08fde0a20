"""`harp library init [--encrypt] | export FILE [--audio] | import FILE` and the terminal's
passphrase prompt: the shell over Library(encrypt=...), export_bundle and import_bundle.

The passphrase comes from $HARP_PASSPHRASE, else a getpass prompt when stdin is a
terminal; it is never a command-line argument (other users can read those in ps).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from harp_desktop.cli.common import add_library_option
from harp_desktop.store.crypto import LOST_PASSPHRASE_WARNING, PassphraseError

_warned = False  # the creation prompt showed the warning already


def prompt_passphrase(folder: Path, creating: bool) -> str | None:
    """Ask on the terminal; None when there is none (a script, CI): the caller says what to set."""
    if not sys.stdin.isatty():
        return None
    if not creating:
        return getpass.getpass(f"Passphrase for the encrypted library {folder}: ")
    global _warned
    print(f"warning: {LOST_PASSPHRASE_WARNING}", file=sys.stderr)
    _warned = True
    first = getpass.getpass(f"New passphrase for {folder}: ")
    if first != getpass.getpass("Repeat the passphrase: "):
        raise PassphraseError("the two passphrases differ; nothing was created")
    return first


def cmd_init(args: argparse.Namespace) -> int:
    from harp_desktop.api import Library
    from harp_desktop.store import crypto

    existed = crypto.is_encrypted(Path(args.library)) if args.library else False
    with Library(args.library, encrypt=args.encrypt) as lib:
        n = len(lib.db.recordings())
        kind = "encrypted" if lib.encrypted else "plain (not encrypted)"
        state = "already exists" if existed or n else "ready"
        print(f"{lib.folder}: {kind} library {state}; {n} recording(s)")
        if lib.encrypted and not existed and not _warned:  # $HARP_PASSPHRASE: no prompt showed it
            print(f"warning: {LOST_PASSPHRASE_WARNING}", file=sys.stderr)
    return 0


def cmd_library(args: argparse.Namespace) -> int:
    from harp_desktop.api import Library

    if args.action == "init":
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


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("library", help="create a library (init [--encrypt]), export it as a portable .harplib "
                                       "bundle, or import one")
    p.add_argument("action", choices=["init", "export", "import"])
    p.add_argument("file", metavar="FILE", nargs="?", help="export/import: the .harplib file to write or read")
    p.add_argument("--encrypt", action="store_true",
                   help="init: encrypt the new library with a passphrase ($HARP_PASSPHRASE or a prompt); "
                        "a lost passphrase means lost data")
    p.add_argument("--audio", action="store_true", help="export: include the decoded audio caches "
                                                        "(playback and burst counting without the originals)")
    add_library_option(p)
    p.set_defaults(func=cmd_library)
