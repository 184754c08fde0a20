import pytest

from harp_desktop.findings.model import Section
from harp_desktop.findings.roles import assign_roles, cue_scores
from harp_desktop.findings.sections import find_sections
from tests.findings.helpers import CONSULTATION, seg

CLINICIAN_LINES = [
    "What brings you in today?",
    "Take a deep breath in, and out.",
    "I'll prescribe you a course of antibiotics.",
    "Your oxygen level is ninety seven percent, and your pulse is eighty eight.",
    "If you become short of breath at rest, call an ambulance straight away.",
    "I think this is most likely a viral chest infection.",
    "Let me examine you.",
]
PATIENT_LINES = [
    "I've had this tight feeling in my chest for about three days.",
    "No, nothing comes up. It's completely dry.",
    "Should I keep taking my amlodipine?",
    "Is it anything serious?",
    "My son had a cold last week.",
    "Thank you, doctor.",
    "About a week.",
]


@pytest.mark.parametrize("line", CLINICIAN_LINES)
def test_clinician_lines(line):
    c, p = cue_scores(line)
    assert c > p, (line, c, p)


@pytest.mark.parametrize("line", PATIENT_LINES)
def test_patient_lines(line):
    c, p = cue_scores(line)
    assert p > c, (line, c, p)


def segments(turns=CONSULTATION) -> list[dict]:
    return [seg(*t) for t in turns]


def test_clinician_patient_and_a_receptionist():
    segs = segments()
    roles = assign_roles(segs, find_sections(segs))
    assert {k: g.role for k, g in roles.items()} == {"SPEAKER_1": "other", "SPEAKER_2": "clinician",
                                                     "SPEAKER_3": "patient"}
    assert roles["SPEAKER_2"].confidence >= 0.8 and roles["SPEAKER_3"].confidence >= 0.8
    assert all(g.source == "auto" for g in roles.values())


def test_the_patient_speaking_first_and_asking_questions_is_still_the_patient():
    turns = [
        (0.0, 3.0, "SPEAKER_1", "Hello doctor, I've had a headache for three days."),
        (4.0, 6.0, "SPEAKER_2", "I'm sorry to hear that. Where is the pain?"),
        (7.0, 9.0, "SPEAKER_1", "Behind my eyes. Is it anything serious?"),
        (10.0, 13.0, "SPEAKER_2", "It sounds like a tension headache. Drink plenty of water."),
        (14.0, 16.0, "SPEAKER_1", "Should I take paracetamol? Can I still go to work?"),
        (17.0, 20.0, "SPEAKER_2", "Yes, take two tablets up to four times a day. If it gets worse, come back."),
    ]
    segs = segments(turns)
    roles = assign_roles(segs, find_sections(segs))
    assert roles["SPEAKER_1"].role == "patient" and roles["SPEAKER_2"].role == "clinician"


def test_both_main_voices_never_get_the_same_role():
    turns = [(i * 3.0, i * 3.0 + 2.5, f"SPEAKER_{1 + i % 2}", t) for i, t in enumerate(
        ["The cough started on Monday.", "The cough is worse at night.", "I see, the chest hurts then.",
         "The pain is in the chest.", "The fever came back.", "The tablets help a bit."])]
    segs = segments(turns)
    roles = assign_roles(segs, [Section("consultation", 0.0, 20.0)])
    assert sorted(g.role for g in roles.values()) == ["clinician", "patient"]
    assert min(g.confidence for g in roles.values()) < 0.6  # the flipped one is a weak guess


def test_manual_role_wins_and_voices_outside_consultations_are_other():
    segs = segments() + [seg(100.0, 106.0, "SPEAKER_4", "And mister John Dashwood had then leisure to consider.")]
    roles = assign_roles(segs, find_sections(segs), manual={"SPEAKER_3": "clinician", "SPEAKER_9": "patient"})
    assert roles["SPEAKER_3"].role == "clinician" and roles["SPEAKER_3"].source == "manual"
    assert roles["SPEAKER_3"].confidence == 1.0
    assert roles["SPEAKER_4"].role == "other" and roles["SPEAKER_4"].turns == 0
    assert roles["SPEAKER_9"].role == "patient"  # a hand-set role for a voice not heard (yet) is kept
    assert assign_roles([], []) == {}


def test_a_caller_on_a_clinical_phone_call_is_the_patient_and_the_receptionist_other():
    consult = segments()
    call = [seg(60.0, 63.0, "SPEAKER_4", "Surgery, how can I help?"),
            seg(63.5, 67.0, "SPEAKER_5", "Hello, the doctor asked me to book a blood test."),
            seg(67.5, 70.0, "SPEAKER_4", "Yes, I can see it. And how are you feeling?"),
            seg(70.5, 74.0, "SPEAKER_5", "A bit better, but I've still got the cough. Can I bring the sample too?"),
            seg(74.5, 77.0, "SPEAKER_4", "Of course. Tuesday at nine then.")]
    calls = [Section("phone_call", 59.0, 78.0)]
    roles = assign_roles(consult + call, find_sections(consult) + calls, calls=calls)
    assert roles["SPEAKER_5"].role == "patient" and roles["SPEAKER_5"].confidence <= 0.7
    assert roles["SPEAKER_4"].role == "other"
    assert roles["SPEAKER_3"].role == "patient" and roles["SPEAKER_2"].role == "clinician"
    # The consultation's patient on the line (same label): nobody else on the call is the patient.
    same = [seg(s["start_s"], s["end_s"], "SPEAKER_3" if s["speaker"] == "SPEAKER_5" else s["speaker"], s["text"])
            for s in call]
    roles = assign_roles(consult + same, find_sections(consult) + calls, calls=calls)
    assert roles["SPEAKER_4"].role == "other" and roles["SPEAKER_3"].role == "patient"


def test_a_telephone_consultation_is_read_from_the_call():
    turns = [(s["start_s"], s["end_s"], s["speaker"], s["text"]) for s in segments()[1:]]
    calls = [Section("phone_call", 6.0, 46.0)]
    roles = assign_roles(segments(turns), calls, calls=calls)
    assert roles["SPEAKER_2"].role == "clinician" and roles["SPEAKER_3"].role == "patient"


def test_a_caller_asking_about_symptoms_by_name_is_the_calls_clinician():
    # A triage nurse rings back a parent already heard in the consultation: her questions name symptoms
    # (the receptionist's above never do), though her cue margin per turn is small, the parent talking too.
    consult = segments()
    call = [seg(60.0, 63.0, "SPEAKER_4", "Hello, it's the practice nurse calling back."),
            seg(63.5, 67.0, "SPEAKER_3", "Hello, thanks, it's about my little boy."),
            seg(67.5, 70.0, "SPEAKER_4", "Okay. Has he been sick at all?"),
            seg(70.5, 72.0, "SPEAKER_3", "Just once this morning."),
            seg(72.5, 75.0, "SPEAKER_4", "Right. And does he have a stiff neck?"),
            seg(75.5, 77.0, "SPEAKER_3", "No, he can look down fine."),
            seg(77.5, 80.0, "SPEAKER_4", "Thank you. Bring him in at four, we'll see him then.")]
    calls = [Section("phone_call", 59.0, 81.0)]
    roles = assign_roles(consult + call, find_sections(consult) + calls, calls=calls)
    assert roles["SPEAKER_4"].role == "clinician" and roles["SPEAKER_3"].role == "patient"
    # The same voice asking only about the booking stays someone else.
    booking = [seg(s["start_s"], s["end_s"], s["speaker"], s["text"].replace("Has he been sick at all?", "Is four okay?")
                   .replace("does he have a stiff neck?", "can you bring his red book?")) for s in call]
    roles = assign_roles(consult + booking, find_sections(consult) + calls, calls=calls)
    assert roles["SPEAKER_4"].role == "other"
