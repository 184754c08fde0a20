"""Fixtures for recording tests: the virtual microphone (tests/record/vmic.py) and a speech clip.

The tests skip, saying why, only when PulseAudio cannot start."""

from __future__ import annotations

from pathlib import Path

import pytest
import soundfile as sf

from tests.record.vmic import Unavailable, VirtualMic, best_match, virtual_microphone

__all__ = ["best_match", "virtual_mic", "speech_clip"]


@pytest.fixture(scope="session")
def virtual_mic() -> VirtualMic:
    try:
        with virtual_microphone() as mic:
            yield mic
    except Unavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture
def speech_clip(tmp_path) -> Path:
    """The two-speaker test clip (8.9 s, flite), as WAV for paplay."""
    data, sr = sf.read(Path(__file__).parents[1] / "data" / "speech_two_speakers.flac", dtype="float32")
    out = tmp_path / "clip.wav"
    sf.write(out, data, sr, subtype="PCM_16")
    return out
