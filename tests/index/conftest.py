from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from harp_desktop.api import IndexOptions, Library
from tests.conftest import DATA

FAST = IndexOptions(asr_profile="tiny.en")


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
