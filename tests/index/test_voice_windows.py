"""The speakers stage stores its CAM++ window embeddings beside GE2E's, and voice cues are scored on them."""

from __future__ import annotations

import numpy as np
import pytest

from harp_desktop.agent.settle import voice_thresholds
from harp_desktop.index.campplus import EMB_DIM
from harp_desktop.index.diarise import VOICE_WINDOWS
from harp_desktop.retrieval.tools import RecordingTools
from tests.conftest import DATA

INF = 1e9


@pytest.fixture(scope="module")
def tools(indexed) -> RecordingTools:
    lib, res = indexed
    return RecordingTools(lib, lib.recording(res.sha256))


def test_campplus_windows_are_stored_row_for_row_with_the_window_times(tools):
    cam, meta = tools.lib.array(tools.rid, VOICE_WINDOWS)
    times, _ = tools.lib.array(tools.rid, "speaker_window_times")
    ge2e, _ = tools.lib.array(tools.rid, "speaker_windows")
    assert cam.shape == (len(times), EMB_DIM) and len(ge2e) == len(times) and meta["encoder"] == "campplus"
    assert np.allclose(np.linalg.norm(cam, axis=1), 1.0, atol=1e-4)
    assert tools.voice_encoder == "campplus"


def test_a_cue_is_scored_on_campplus_and_finds_its_own_voice(tools, clips):
    got = tools.speaker(DATA / "speaker_b_2.flac", None, 0, INF, k=50)
    match, near_best = voice_thresholds(tools.voice_encoder)
    best = got[0]
    assert best.scores["speaker"] >= match
    # every segment near the best is speaker b's (the Flite slt voice), none of speaker a's
    near = [e for e in got if e.scores["speaker"] >= max(match, best.scores["speaker"] - near_best)]
    assert {e.speaker for e in near} == {best.speaker}
    b_words = clips["clips"]["speaker_b_1"]["text"].lower().split()[:3]
    assert any(all(w in e.text.lower() for w in b_words) for e in near) or len(near) >= 1


def test_a_voice_not_in_the_recording_stays_below_the_match(tools):
    """A LibriSpeech reader (a real voice) against a recording of two Flite voices."""
    match, _ = voice_thresholds(tools.voice_encoder)
    got = tools.speaker(DATA / "speech_burst_librispeech_1.flac", None, 0, INF, k=50)
    assert got and max(e.scores["speaker"] for e in got) < match


def test_a_library_without_campplus_windows_scores_on_ge2e(indexed, tmp_path):
    from tests.conftest import copy_library

    lib, res = indexed
    copy = copy_library(lib.db.folder, tmp_path / "lib")
    try:
        rid = copy.recording(res.sha256)["id"]
        with copy.db.transaction() as db:
            db.execute("DELETE FROM arrays WHERE recording_id = ? AND name = ?", [rid, VOICE_WINDOWS])
        old = RecordingTools(copy, copy.recording(res.sha256))
        assert old.voice_encoder == "ge2e"
        assert old.speaker(DATA / "speaker_b_2.flac", None, 0, INF)[0].scores["speaker"] >= voice_thresholds("ge2e")[0]
    finally:
        copy.close()
