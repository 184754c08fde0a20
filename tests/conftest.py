"""Shared fixtures: a private data folder, a temporary library, the test clips."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session", autouse=True)
def harp_data(tmp_path_factory) -> Path:
    """Assembled weights go to a per-session folder, never the user's real one."""
    folder = tmp_path_factory.mktemp("harp-data")
    os.environ["HARP_DATA"] = str(folder)
    os.environ.pop("HARP_LIBRARY", None)
    return folder


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Every test fails loudly if anything tries to open a network connection."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[:2]}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.fixture
def library_dir(tmp_path) -> Path:
    return tmp_path / "library"


@pytest.fixture(scope="session")
def clips() -> dict:
    return json.loads((DATA / "clips.json").read_text(encoding="utf-8"))


def write_tone(path: Path, seconds: float, sr: int = 16000, channels: int = 1, subtype: str = "PCM_16",
               freq: float = 440.0, amp: float = 0.3) -> Path:
    t = np.arange(int(seconds * sr)) / sr
    x = (amp * np.sin(2 * np.pi * freq * t)).astype(np.float32)
    data = np.stack([x] * channels, axis=1) if channels > 1 else x
    sf.write(path, data, sr, subtype=subtype)
    return path
