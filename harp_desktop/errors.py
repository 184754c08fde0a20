"""One-line, user-facing messages for failures outside the app's own error types.

The CLI and the GUI show these instead of a traceback: a full disk, a read-only or
corrupt library, a path the file system refuses.
"""

from __future__ import annotations

import errno
import os

from harp_desktop.store import dbapi

_OS_HINTS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the library is on a read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENAMETOOLONG: "the path is too long for the file system",
    errno.ELOOP: "too many levels of symbolic links (a symlink loop?)",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EEXIST: "a file is in the way",
}


def _short_path(p: object, limit: int = 120) -> str:
    s = str(p)
    return s if len(s) <= limit else f"{s[:50]}...{s[-60:]}"


def user_message(exc: BaseException) -> str:
    """A single line saying what went wrong and, where it helps, which file."""
    if isinstance(exc, dbapi.Error):  # sqlite3's or SQLCipher's (encrypted library)
        text = " ".join(str(exc).split()) or type(exc).__name__
        low = text.lower()
        if "disk is full" in low or "database or disk is full" in low:
            return f"the disk is full ({text}); the unfinished step was rolled back: free some space and run again"
        if "readonly" in low or "read-only" in low:
            return f"the library is read-only ({text})"
        if "not a database" in low or "malformed" in low:
            return f"the library database is damaged or not a HARP library ({text})"
        if "locked" in low or "busy" in low:
            return f"the library is busy in another program; try again ({text})"
        return f"library database error: {text}"
    if isinstance(exc, OSError):
        custom = exc.strerror and exc.errno and exc.strerror != os.strerror(exc.errno)
        what = exc.strerror if custom else _OS_HINTS.get(exc.errno or -1) or " ".join((exc.strerror or str(exc)).split())
        where = f": {_short_path(exc.filename)}" if exc.filename else ""
        return f"{what}{where}"
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
