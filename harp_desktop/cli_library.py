"""`harp library init [--encrypt]` and the terminal's passphrase prompt (no logic of its own).

The passphrase comes from $HARP_PASSPHRASE, else a getpass prompt when stdin is a
terminal; it is never a command-line argument (other users can read those in ps).
"""

from __future__ import annotations

import getpass
import sys
from pathlib import Path

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


def cmd_init(args) -> int:
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
