"""Shared fixtures: a private data folder, a temporary library, the test clips."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from harp_desktop.api import IndexOptions, Library

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).resolve().parents[1]
FAST = IndexOptions(asr_profile="tiny.en")


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

def rows(lib: Library, rid: int) -> dict:
    """Everything a recording owns, as comparable plain data."""
    q = lambda sql: [tuple(r.values()) for r in lib.db.db.query(sql, [rid])]  # noqa: E731
    return {
        "segments": q("SELECT idx, start_s, end_s, text FROM segments WHERE recording_id = ? ORDER BY idx"),
        "words": q("SELECT start_s, end_s, text FROM words WHERE recording_id = ? ORDER BY start_s, id"),
        "speakers": q("SELECT idx, label, total_s FROM speakers WHERE recording_id = ? ORDER BY idx"),
        "tags": q("SELECT kind, label, start_s, end_s, score FROM tags WHERE recording_id = ? ORDER BY start_s, label"),
        "regions": q("SELECT idx, start_s, end_s FROM speech_regions WHERE recording_id = ? ORDER BY idx"),
        "stages": q("SELECT stage, fingerprint FROM stages WHERE recording_id = ? ORDER BY stage"),
    }


@pytest.fixture(scope="session")
def long_clip(tmp_path_factory) -> Path:
    """~30 s: both voices, a cough, silence between; built from the committed clips."""
    parts = []
    gap = np.zeros(8000, np.float32)
    for name in ["speech_two_speakers", "cough_1", "speaker_a_1", "speaker_b_1", "cough_2", "speaker_a_2",
                 "speaker_b_2"]:
        x, sr = sf.read(DATA / f"{name}.flac", dtype="float32")
        parts += [x, gap]
    path = tmp_path_factory.mktemp("clips") / "long_clip.flac"
    sf.write(path, np.concatenate(parts), 16000)
    return path


@pytest.fixture(scope="session")
def indexed(tmp_path_factory, long_clip):
    """One library indexed once with the fast profile, shared by read-only tests."""
    lib = Library(tmp_path_factory.mktemp("lib-shared"))
    res = lib.index(long_clip, FAST)
    yield lib, res
    lib.close()


def copy_library(src: Path, dst: Path) -> Library:
    """A private copy of a library holding only its index: other tests ask, annotate and
    export in the shared `indexed` library, so what they leave must not reach this one."""
    shutil.copytree(src, dst)
    lib = Library(dst)
    with lib.db.transaction() as db:
        for table in ("answers", "exports", "annotations", "questions"):
            db.execute(f"DELETE FROM {table}")
    return lib
