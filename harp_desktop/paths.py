"""Where HARP keeps its data on this device.

Everything lives under one per-user data folder (platform default, or $HARP_DATA):
assembled model weights in ``models/`` and the default library in ``library/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "harp-desktop"
REPO_ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    env = os.environ.get("HARP_DATA")
    return Path(env).expanduser() if env else Path(platformdirs.user_data_dir(APP_NAME))


def default_library_dir() -> Path:
    env = os.environ.get("HARP_LIBRARY")
    return Path(env).expanduser() if env else data_dir() / "library"


def private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) readable by the user only."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path
