"""Voice-cue thresholds per encoder: a CAM++ cosine is judged by CAM++'s thresholds, and a voice that is
not in the recording is answered as not found."""

from __future__ import annotations

from harp_desktop.agent.plan import Plan
from harp_desktop.agent.settle import (
    CAM_MATCH,
    CAM_NEAR_BEST,
    VOICE_MATCH,
    VOICE_NEAR_BEST,
    settle,
    voice_matches,
    voice_thresholds,
)
from harp_desktop.types import Evidence
from tests.conftest import DATA


def _ev(start: float, score: float) -> Evidence:
    return Evidence(start, start + 2.0, None, "S1", "words", [], {"speaker": score})


def test_thresholds_per_encoder_and_ge2e_for_older_libraries():
    assert voice_thresholds("campplus") == (CAM_MATCH, CAM_NEAR_BEST)
    assert voice_thresholds("ge2e") == voice_thresholds("anything else") == (VOICE_MATCH, VOICE_NEAR_BEST)
    assert CAM_MATCH < VOICE_MATCH  # CAM++ cosines of one voice are lower than GE2E's


def test_a_campplus_score_is_judged_on_campplus_scale():
    ev = [_ev(10.0, 0.62), _ev(50.0, 0.58), _ev(90.0, 0.30)]
    assert voice_matches(ev, "ge2e") == []  # 0.62 is no GE2E match
    got = voice_matches(ev, "campplus")
    assert [e.start_s for e in got] == [10.0, 50.0]  # both within near-best of 0.62; 0.30 is another voice


def test_a_voice_not_in_the_recording_is_not_found():
    plan = Plan(intent="when", sets=[])
    absent = [_ev(10.0, CAM_MATCH - 0.05), _ev(30.0, CAM_MATCH - 0.2)]
    line, why, supported = settle(plan, absent, "When does this voice first speak?", "campplus")
    assert (line, supported) == ("No", False) and "matches the example voice" in why
    present = [_ev(30.0, CAM_MATCH + 0.2), _ev(10.0, CAM_MATCH + 0.15)]
    line, _, supported = settle(plan, present, "When does this voice first speak?", "campplus")
    assert supported and line == "00:10"


def test_asking_with_a_voice_from_elsewhere_answers_not_found(indexed):
    """End to end on CAM++ windows: a LibriSpeech reader is neither of the recording's two Flite voices."""
    lib, res = indexed
    a = lib.ask(res.sha256, "Is the person in this voice sample heard in the recording?",
                DATA / "speech_burst_librispeech_1.flac")
    assert a.answer.lower().startswith(("no", "not found")) and not a.supported
    b = lib.ask(res.sha256, "Is the person in this voice sample heard in the recording?", DATA / "speaker_b_2.flac")
    assert b.answer.lower().startswith("yes")
