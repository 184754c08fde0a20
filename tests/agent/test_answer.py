"""The extractive (no-LLM) answer on hand-made evidence."""

from harp_desktop.agent import answer as ans
from harp_desktop.agent.rules import rule_plan
from harp_desktop.types import Evidence

# SPEAKER_2 asks most of the time (the clinician), SPEAKER_3 answers (the patient).
SHARES = {"SPEAKER_2": (20, 0.6), "SPEAKER_3": (18, 0.05)}


def _ev(t: float, spk: str, text: str, kw: float) -> Evidence:
    return Evidence(t, t + 4, int(t), spk, text, [], {"keyword": kw, "fused": kw / 10})


def test_a_patient_question_cites_only_the_patients_words():
    evidence = [_ev(12, "SPEAKER_3", "I have had a tightness in my chest for three days.", 0.9),
                _ev(118, "SPEAKER_2", "If the chest tightness gets worse, call us at once.", 1.0)]
    q = "Does the patient report chest tightness?"
    first, why, ok = ans.extractive(rule_plan(q, 130, False), q, evidence, SHARES)
    assert (first, ok) == ("Yes", True)
    assert "[00:12-00:16]" in why and "01:58" not in why


def test_only_the_clinician_mentioning_it_is_a_no():
    evidence = [_ev(12, "SPEAKER_3", "It has been a hard week at work.", 0.0),
                _ev(118, "SPEAKER_2", "If the chest tightness gets worse, call us at once.", 1.0)]
    q = "Does the patient report chest tightness?"
    first, why, ok = ans.extractive(rule_plan(q, 130, False), q, evidence, SHARES)
    assert first == "No" and "Only the clinician" in why and "[01:58-02:02]" in why
