"""Deciding, when a library opens, whether it is encrypted and with which key.

Kept apart from the database code: the same answer is needed before the database file
is touched (a wrong passphrase must change nothing) and by the shells that ask for it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from harp_desktop.paths import private_dir
from harp_desktop.store import crypto

ENV = "HARP_PASSPHRASE"
# Set by a shell (the CLI's getpass prompt): (library folder, creating?) -> passphrase or None.
Prompt = Callable[[Path, bool], "str | None"]
_prompt: Prompt | None = None


def set_prompt(prompt: Prompt | None) -> None:
    global _prompt
    _prompt = prompt


def _ask(folder: Path, creating: bool) -> str | None:
    if os.environ.get(ENV):
        return os.environ[ENV]
    return _prompt(folder, creating) if _prompt else None


def unlock_library(folder: Path, db_path: Path, passphrase: str | None = None,
                   encrypt: bool = False) -> crypto.LibraryKey | None:
    """None for a plain library, else the unlocked key; creates the key file for a new
    encrypted library. Raises PassphraseError (with nothing written) when it cannot."""
    # The database file itself is never opened here (e.g. to read its header): closing any
    # descriptor of it drops every POSIX lock this process holds on it, so another program
    # would think our open connections gone and checkpoint the WAL under them, losing writes.
    # A database that is not SQLite to us is reported when it is opened (LibraryDB).
    if not crypto.is_encrypted(folder):
        if db_path.exists() and db_path.stat().st_size > 0:
            if encrypt:
                raise crypto.PassphraseError(
                    f"{folder} is already a plain (unencrypted) library; encryption is chosen when a library "
                    "is created: choose a new folder")
            return None
        if not encrypt:
            return None
        passphrase = passphrase or _ask(folder, True)
        if not passphrase:
            raise crypto.PassphraseError(f"creating the encrypted library {folder} needs a passphrase "
                                         f"(${ENV} or the prompt)")
        private_dir(folder)
        return crypto.create(folder, passphrase)
    if passphrase:
        return crypto.unlock(folder, passphrase)
    key = crypto.unlocked(folder)
    if key is not None:
        return key
    passphrase = _ask(folder, False)
    if not passphrase:
        raise crypto.PassphraseError(f"the library {folder} is encrypted: give its passphrase "
                                     f"(${ENV}, or run in a terminal to be asked)")
    return crypto.unlock(folder, passphrase)
