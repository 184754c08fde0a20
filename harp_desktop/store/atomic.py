"""Temporary names for write-then-rename, safe when two processes write the same file.

The GUI and the CLI may index the same recording at once: each writer gets its own
temporary file (pid + thread in the name), so neither truncates the other's half-written
bytes, and the last ``os.replace`` wins with complete content. Files left by a writer
that was killed are swept the next time the same target is written.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

_SUFFIX = ".partial"


def tmp_path(target: Path) -> Path:
    """``<target>.<pid>-<thread>.partial`` beside ``target`` (same file system: rename is atomic)."""
    return target.with_name(f"{target.name}.{os.getpid()}-{threading.get_ident()}{_SUFFIX}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale(target: Path) -> list[Path]:
    """Remove temporary files of ``target`` whose writer process no longer runs."""
    gone = []
    for p in target.parent.glob(f"{target.name}.*{_SUFFIX}"):
        owner = p.name[len(target.name) + 1 : -len(_SUFFIX)].split("-")[0]
        if owner.isdigit() and (int(owner) == os.getpid() or _alive(int(owner))):
            continue
        try:
            p.unlink()
            gone.append(p)
        except FileNotFoundError:
            pass
    return gone
