from harp_desktop.findings.attribution import NEAR_S, attribute_events
from harp_desktop.findings.model import Section
from tests.findings.helpers import seg

ROLES = {"DR": "clinician", "PT": "patient", "X": "other"}
CONSULT = [Section("consultation", 0.0, 60.0), Section("unrelated", 60.0, 200.0)]
TURNS = [seg(0.0, 4.0, "DR", "And how long have you had the cough?"),
         seg(4.5, 8.0, "PT", "About a week. It is a dry cough."),
         seg(9.0, 12.0, "PT", "Sorry. It is worse at night."),
         seg(20.0, 28.0, "DR", "I can hear a few crackles at the right base of your lung."),
         seg(29.5, 34.0, "DR", "I think this is most likely a chest infection."),
         seg(100.0, 110.0, "X", "He was not an ill disposed young man."),
         seg(112.0, 118.0, "X", "He might even have been made amiable himself.")]


def tag(i: int, a: float, b: float, label: str = "cough") -> dict:
    return {"id": i, "label": label, "start_s": a, "end_s": b}


def who(tags) -> list[tuple]:
    return [(e.speaker, e.method) for e in attribute_events(tags, TURNS, ROLES, CONSULT)]


def test_a_cough_inside_a_turn_is_that_speakers():
    assert who([tag(1, 5.0, 5.5)]) == [("PT", "in_turn")]
    assert who([tag(1, 101.0, 101.6)]) == [("X", "in_turn")]


def test_a_cough_in_a_pause_next_to_the_patient_is_the_patients():
    assert who([tag(1, 8.2, 8.7)]) == [("PT", "next_to")]  # between the patient's two turns
    assert who([tag(1, 4.05, 4.4)]) == [("PT", "next_to")]  # nearer the clinician, but the patient is near too


def test_a_cough_between_two_clinician_turns_in_a_consultation_is_the_patients():
    assert who([tag(1, 28.4, 28.9)]) == [("PT", "patient_in_consultation")]


def test_outside_a_consultation_the_nearest_speaker_and_nobody_when_far():
    assert who([tag(1, 110.5, 111.0)]) == [("X", "next_to")]
    assert who([tag(1, 150.0, 150.5)]) == [(None, "none")]
    assert who([tag(1, 34.0 + NEAR_S + 0.2, 34.0 + NEAR_S + 0.6)]) == [(None, "none")]


def test_laughter_next_to_the_clinician_stays_the_clinicians():
    assert who([tag(1, 28.2, 28.8, "laughter")]) == [("DR", "next_to")]


def test_how_many_times_does_the_patient_cough():
    tags = [tag(1, 5.0, 5.5), tag(2, 8.2, 8.7), tag(3, 28.4, 28.9), tag(4, 110.5, 111.0), tag(5, 150.0, 150.5)]
    got = attribute_events(tags, TURNS, ROLES, CONSULT)
    assert sum(ROLES.get(e.speaker) == "patient" for e in got) == 3
