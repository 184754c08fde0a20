"""One writer per recording across processes: an advisory lock file per sha256.

The GUI and the CLI may be asked to index the same recording at once. Without a lock,
one could re-write the segments (new ids) while the other builds vectors from the old
ids. With it, the second waits, then finds every stage up to date. The kernel releases
a lock when its process dies, so a killed indexer never leaves the recording locked.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from harp_desktop.paths import private_dir

try:
    import fcntl
except ImportError:  # not POSIX: no cross-process lock (documented in docs/decisions.md)
    fcntl = None  # type: ignore[assignment]


def lock_file(library: Path, sha256: str) -> Path:
    return Path(library) / "locks" / f"{sha256}.lock"


@contextmanager
def recording_lock(library: Path, sha256: str, should_stop: Callable[[], bool] | None = None,
                   on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the recording's lock; wait (cancellably) while another process holds it."""
    with file_lock(lock_file(library, sha256), should_stop, on_wait):
        yield


@contextmanager
def schema_lock(library: Path) -> Iterator[None]:
    """Held while a program checks and upgrades the library's schema, so programs opening a
    new library together run each migration step once (the rest wait, then find it current)."""
    with file_lock(Path(library) / "locks" / "schema.lock"):
        yield


@contextmanager
def file_lock(path: Path, should_stop: Callable[[], bool] | None = None,
              on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """An exclusive advisory lock on ``path``; wait (cancellably) while another process holds it."""
    private_dir(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if fcntl is not None:
            waited = False
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if not waited and on_wait:
                        on_wait()
                    waited = True
                    if should_stop and should_stop():
                        raise InterruptedError("cancelled while waiting for another indexer") from None
                    time.sleep(0.1)
        yield
    finally:
        os.close(fd)  # closing releases the lock
