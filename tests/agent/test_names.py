"""People named in a question resolved to the recording's voices (agent/names.py), on our own lines."""

from __future__ import annotations

from harp_desktop.agent.names import resolve, voices_by_name


def seg(start: float, label: str, text: str) -> dict:
    return {"start_s": start, "end_s": start + 3.0, "speaker": label, "text": text}


TURNS = [
    seg(0.0, "SPEAKER_9", "Mrs Patel? Priya Patel, the doctor will see you now."),
    seg(4.0, "SPEAKER_1", "Hello, come in. I'm Dr Okafor, have a seat."),
    seg(8.0, "SPEAKER_2", "Thanks. This is my son, Tom. He drove me here."),
    seg(12.0, "SPEAKER_3", "Hi doctor."),
    seg(16.0, "SPEAKER_1", "So what brings you in today, Priya?"),
    seg(20.0, "SPEAKER_2", "My chest has been tight for a week."),
    seg(24.0, "SPEAKER_3", "She's been coughing all night, to be honest."),
    seg(28.0, "SPEAKER_1", "Thank you, Tom. That's helpful."),
    seg(32.0, "SPEAKER_4", "Reception, Gemma speaking."),
]
ROLES = {"SPEAKER_1": "clinician", "SPEAKER_2": "patient", "SPEAKER_3": "other", "SPEAKER_4": "other"}


def label_of(s: dict) -> str:
    return s["speaker"]


def test_voices_answer_to_their_names():
    names = voices_by_name(TURNS, label_of)
    assert names["okafor"] == "SPEAKER_1"  # introduces himself
    assert names["priya"] == "SPEAKER_2"  # asked a question by name, and answers it
    assert names["tom"] == "SPEAKER_3"  # thanked by name after speaking; "This is my son, Tom" is no address
    assert names["gemma"] == "SPEAKER_4"  # "Gemma speaking"
    assert names["patel"] == "SPEAKER_2"  # the surname goes with the first name it was said with


def test_questions_name_the_voice_by_its_role_or_label():
    names = voices_by_name(TURNS, label_of)
    assert resolve("Has Priya had any chest pain?", names, ROLES) == "Has the patient had any chest pain?"
    assert resolve("What did Dr Okafor prescribe?", names, ROLES) == "What did the doctor prescribe?"
    assert resolve("Tom speaks how many times?", names, ROLES) == "SPEAKER_3 (Tom) speaks how many times?"
    assert resolve("Who thanks Tom, and why?", names, ROLES) == "Who thanks Tom, and why?"  # spoken to, not speaking
    assert resolve("What is Mrs Patel's main complaint?", names, ROLES) == "What is the patient's main complaint?"
    assert resolve("Did Dr Okefor examine her?", names, ROLES) == "Did the doctor examine her?"  # a typed slip


def test_names_no_voice_answers_to_stay_words():
    names = voices_by_name(TURNS, label_of)
    q = "Does Joshua have a rash, and did Dr Hughes see him?"
    assert resolve(q, names, ROLES) == q
    assert resolve("Right, does the patient cough?", names, ROLES) == "Right, does the patient cough?"


def test_a_name_beside_the_relation_it_names_is_not_the_one_spoken_to():
    """"His big sister, Ruby, had a sore throat" names the sister; the voice before it is not Ruby."""
    turns = [seg(0.0, "SPEAKER_1", "Anyone else at home been unwell?"),
             seg(4.0, "SPEAKER_2", "His big sister, Ruby, had a sore throat last week, she's fine now."),
             seg(8.0, "SPEAKER_1", "Okay, and my colleague, Sam, will take a swab."),
             seg(12.0, "SPEAKER_2", "Thanks, Dr Lowe.")]
    voices = voices_by_name(turns, label_of)
    assert "ruby" not in voices and "sam" not in voices
    assert voices.get("lowe") == "SPEAKER_1"


def test_words_inside_a_quote_are_never_resolved_as_people():
    from harp_desktop.agent.names import resolve

    names, roles = {"pia": "SPEAKER_2", "mark": "SPEAKER_3"}, {"SPEAKER_2": "other", "SPEAKER_3": "patient"}
    assert resolve("How often does Mark say 'Pia, come here'?", names, roles) == \
        "How often does the patient say 'Pia, come here'?"
