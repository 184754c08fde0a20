"""One connect() for plain (sqlite3) and encrypted (SQLCipher through sqlcipher3) libraries.

sqlcipher3 is a DB-API twin of sqlite3 with its own exception classes, which are not
sqlite3's subclasses; code that catches database errors uses the tuples here, so an
encrypted library fails with the same one-line messages as a plain one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from harp_desktop.store.crypto import EncryptionUnavailable, LibraryKey, PassphraseError

try:  # the optional 'encryption' extra
    from sqlcipher3 import dbapi2 as _cipher
except ImportError:  # pragma: no cover - depends on the install
    _cipher = None


def _both(name: str) -> tuple[type[Exception], ...]:
    return (getattr(sqlite3, name),) + ((getattr(_cipher, name),) if _cipher else ())


Error = _both("Error")
DatabaseError = _both("DatabaseError")
IntegrityError = _both("IntegrityError")
OperationalError = _both("OperationalError")


def connect(path: Path, key: LibraryKey | None, timeout: float = 30):
    """An autocommit connection (transactions are explicit), WAL, foreign keys on.

    With ``key``: SQLCipher, keyed before any other statement; temporary tables and sort
    spills stay in memory so no unencrypted temporary file is ever written."""
    if key is None:
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    else:
        if _cipher is None:
            raise EncryptionUnavailable(
                "this library is encrypted and needs the 'encryption' extra (sqlcipher3-binary): "
                "pip install 'harp-desktop[encryption]' (installer/setup.sh installs it)")
        conn = _cipher.connect(str(path), timeout=timeout, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA cipher_log_level = NONE")  # no "hmac check failed" lines on stderr
        conn.execute(key.sqlcipher_pragma())
        conn.execute("PRAGMA temp_store = MEMORY")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except _cipher.DatabaseError:
            conn.close()
            raise PassphraseError(f"{path} cannot be opened with this passphrase (or it is damaged)") from None
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")
    except Exception:
        conn.close()  # e.g. "file is not a database": no connection left behind
        raise
    return conn
