"""A fingerprint of this package's rule modules, for the findings stage's key.

Hashing the source means an edit re-runs the stage without anyone bumping a version. A frozen
build (PyInstaller) ships byte code, not source: there the module's compiled code is hashed
instead, so the key still changes with the rules (and differs from a source checkout's, which
only costs one re-run of this cheap stage).
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
from pathlib import Path

PACKAGE = "harp_desktop.findings"


def _bytes(module: str) -> bytes:
    source = Path(__file__).with_name(f"{module}.py")
    if source.is_file():
        return source.read_bytes()
    name = f"{PACKAGE}.{module}"
    spec = importlib.util.find_spec(name)
    code = spec.loader.get_code(name) if spec and spec.loader and hasattr(spec.loader, "get_code") else None
    return marshal.dumps(code) if code is not None else name.encode()


def modules_digest(modules: tuple[str, ...]) -> str:
    return hashlib.sha256(b"".join(_bytes(m) for m in modules)).hexdigest()[:12]
