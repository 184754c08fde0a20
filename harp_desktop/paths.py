"""Where HARP keeps its data on this device.

Everything lives under one per-user data folder (platform default, or $HARP_DATA):
assembled model weights in ``models/`` and the default library in ``library/``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "harp-desktop"
REPO_ROOT = Path(__file__).resolve().parents[1]


def inside(folder: Path | str, path: Path | str) -> bool:
    """Whether ``path`` (symlinks followed; loops and over-long names do not raise) lies in ``folder``."""
    f, p = os.path.realpath(os.path.expanduser(folder)), os.path.realpath(os.path.expanduser(path))
    return p != f and os.path.commonpath([f, p]) == f


def data_dir() -> Path:
    env = os.environ.get("HARP_DATA")
    return Path(env).expanduser() if env else Path(platformdirs.user_data_dir(APP_NAME))


def models_dirs() -> list[Path]:
    """Folders of pre-placed model files (``<folder>/<model key>/<file>``), first wins.

    $HARP_MODELS (an administrator's choice), ``models/`` beside a bundled executable
    (installer/build.sh puts them there), then the machine-wide folder administrators of
    air-gapped sites fill (e.g. /usr/local/share/harp-desktop/models). Installed packages
    are only searched after these.
    """
    dirs = [Path(env).expanduser()] if (env := os.environ.get("HARP_MODELS")) else []
    if getattr(sys, "frozen", False):  # set by PyInstaller
        dirs.append(Path(sys.executable).resolve().parent / "models")
    dirs.append(Path(platformdirs.site_data_dir(APP_NAME)) / "models")
    return dirs


def default_library_dir() -> Path:
    env = os.environ.get("HARP_LIBRARY")
    return Path(env).expanduser() if env else data_dir() / "library"


def private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) readable by the user only."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path
