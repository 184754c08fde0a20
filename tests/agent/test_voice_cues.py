"""Voice-cue thresholds per encoder: a CAM++ cosine is judged by CAM++'s thresholds, and a voice that is
not in the recording is answered as not found."""

from __future__ import annotations

import numpy as np

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


class _Tools:
    """RecordingTools.speaker over fixed segment scores, on one encoder's scale."""

    def __init__(self, encoder: str, scores: dict[int, float]) -> None:
        self.voice_encoder, self.scores = encoder, scores

    def speaker(self, wav, name, a, b, k=20):
        got = [Evidence(float(i), i + 1.0, i, None, "", [], {"speaker": s}) for i, s in self.scores.items() if a <= i < b]
        return sorted(got, key=lambda e: -e.scores["speaker"])[:k]


class _Ctx:
    def __init__(self, tools: _Tools) -> None:
        self.tools = tools
        self.segments = [{"id": i, "start_s": float(i), "end_s": i + 1.0, "text": "x"} for i in tools.scores]


def test_close_turns_mark_only_those_possibly_the_same_voice():
    """An acted line of the voice (CAM++ 0.35) is possibly the voice; another voice's turn (0.13) is not, though
    both are among the closest three in the window."""
    from harp_desktop.agent.answerers.voice_match import close_turns
    from harp_desktop.agent.settle import SAME_VOICE

    ctx = _Ctx(_Tools("campplus", {1: 0.70, 2: 0.35, 3: 0.13, 4: 0.05, 50: 0.9}))
    got = close_turns(ctx, None, [(0.0, 10.0)])
    assert [(s["id"], same) for _, s, same in got] == [(1, True), (2, True), (3, False)]
    assert SAME_VOICE["campplus"] < CAM_MATCH and SAME_VOICE["ge2e"] < VOICE_MATCH
    ge2e = close_turns(_Ctx(_Tools("ge2e", {1: 0.70, 2: 0.35})), None, [(0.0, 10.0)])
    assert [same for *_, same in ge2e] == [True, False]  # the same 0.35 on GE2E's scale is another voice


def _band(x: np.ndarray) -> np.ndarray:
    """``x`` through a brick-wall 300-3400 Hz band: a telephone line as findings.band.phone_band hears one."""
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / 16000)
    spec[(f < 300) | (f > 3400)] = 0
    return np.fft.irfft(spec, len(x)).astype(np.float32)


class _BandTools:
    """A recording of turns (start -> (score, label, audio)); ``band_embeddings`` gives each clip the unit vector
    its first sample selects, so a test says which turns match the clip through the band."""

    voice_encoder = "campplus"

    def __init__(self, turns: dict[int, tuple[float, str, np.ndarray]], same: set[int]) -> None:
        self.turns, self.same, self.embedded = turns, same, []

    def speaker(self, wav, name, a, b, k=20):
        got = [Evidence(float(i), i + 1.0, i, None, "", [], {"speaker": s}) for i, (s, _, _) in self.turns.items()]
        return sorted(got, key=lambda e: -e.scores["speaker"])[:k]

    def band_embeddings(self, clips):
        self.embedded.append(len(clips))
        return np.stack([np.eye(2)[0]] + [np.eye(2)[0] if c[0] == 1.0 else np.eye(2)[1] for c in clips[1:]])


def test_the_voices_phone_turns_are_found_through_the_telephone_band():
    """bank_rec_08: the patient's room clip scores his own phone turn "Hello, nurse." 0.15 on CAM++; diarisation has
    it as his, and through the telephone band on both sides it matches (0.63): it is his first phone turn. Another
    voice's phone turn, or a turn of his in the room, is not rescored."""
    from harp_desktop.agent.answerers.voice_match import cue_voice

    rng = np.random.default_rng(0)
    room = (rng.standard_normal(3 * 16000) * 0.1).astype(np.float32)
    phone = _band(room)
    mine, other = phone.copy(), phone.copy()
    mine[0] = 1.0  # band_embeddings: the same voice through the band
    turns = {0: (0.20, "A", room), 5: (0.12, "B", room), 10: (0.90, "A", room), 12: (0.85, "A", room),
             20: (0.15, "A", mine), 30: (0.40, "B", other), 40: (0.10, "C", room), 50: (0.30, "A", other)}
    tools = _BandTools(turns, {20})
    audio = {float(i): a for i, (_, _, a) in turns.items()}
    got = cue_voice(tools, room, 60.0, lambda e: turns[int(e.start_s)][1], lambda a, b: audio[a])
    assert [e.start_s for e in got] == [10.0, 12.0, 20.0]
    assert got[-1].scores["speaker_band"] == 1.0 and "speaker_band" not in got[0].scores
    assert tools.embedded == [3]  # the clip and A's two phone turns below the match; A's room turn 0 is not
    plain = cue_voice(tools, room, 60.0, lambda e: turns[int(e.start_s)][1])  # no audio: the stored windows only
    assert [e.start_s for e in plain] == [10.0, 12.0]
