"""The typed question: paraphrases of each class of question land on the same QuerySpec fields.

The failure classes of issue 16 are here in our own wording; tests/agent/test_query_bank.py
runs the same checks on the blind helper's development-half wordings."""

from __future__ import annotations

import pytest

from harp_desktop.agent.lexicon import normalise_shorthand
from harp_desktop.agent.query import parse

DUR = 900.0

CASES = [
    # (question, cues, operation, target, extra field checks)
    ("Find the first moment where someone sounds afraid.", {}, "when_first", "emotion", {"emotion": "fearful"}),
    ("Point me to where a speaker first comes across as scared", {}, "when_first", "emotion", {"emotion": "fearful"}),
    ("Between 120 and 160 seconds, when did someone sound sad?", {}, "when_first", "emotion",
     {"emotion": "sad", "window": (120.0, 160.0)}),
    ("Around 01:41 a speaker said 'I really cannot cope'; what emotion?", {}, "emotion_at", "emotion",
     {"quote": "I really cannot cope"}),
    ("Around 200 seconds, Speaker A was talking about the weather and mentioned 'it never stops raining'. "
     "What emotion(s) does Speaker A show?", {}, "emotion_at", "emotion", {}),
    ("From 100 to 180 seconds, how did the patient's arousal change while discussing sleep?", {}, "change", "arousal",
     {"window": (100.0, 180.0)}),
    ("From 30 to 90 seconds discussing the pain, which speaker had higher valence — the doctor or the patient?", {},
     "compare", "valence", {}),
    ("Did the patient report any respiratory symptoms during the consultation?", {}, "exists", "speech",
     {"category": "respiratory", "section": "consultation"}),
    ("Were respiratory symptoms exhibited during the consultation?", {}, "exists", "speech",
     {"category": "respiratory", "mode": "exhibited"}),
    ("Any gastrointestinal complaints?", {}, "exists", "speech", {"category": "gastrointestinal"}),
    ("Is she still getting headaches?", {}, "exists", "speech", {"tense": "current"}),
    ("How many times does the patient cough?", {}, "count", "event", {"event": "cough"}),
    ("Count the patient's coughs while she is with the nurse", {}, "count", "event", {"event": "cough"}),
    ("How many people talk on the phone call?", {}, "count", "speakers", {"section": "phone_call"}),
    ("Did the patient say how long she has had the cough?", {}, "exists", "speech", {}),
    ("Who mentions ibuprofen, the nurse or the patient?", {}, "who", "speech", {}),
    ("When does the voice in this clip first speak?", {"speaker": "x.flac"}, "when_first", "voice", {}),
    ("Speaker X: [clip]. Between 60 and 200 seconds, when did Speaker X show the same emotion as in [clip], and what "
     "were they saying?", {"speaker": "a.flac", "emotion": "b.flac"}, "when_first", "emotion", {"wants_quote": True}),
    ("Is anyone coughing between 4:10 and 5:00?", {}, "exists", "event", {"window": (250.0, 300.0)}),
    ("Can you hear the patient laughing?", {}, "exists", "event", {"event": "laughter"}),
    ("Did the patient say she was afraid of needles?", {}, "exists", "speech", {}),
    ("What did the doctor advise in the last two minutes?", {}, "what_said", "speech", {}),
    # A preposition before the wh-word is still a wh-question, never Yes/No.
    ("For how long has her sleep been poor?", {}, "what_said", "speech", {}),
    ("Since when has he had the rash?", {}, "what_said", "speech", {}),
    ("In which knee is the swelling?", {}, "what_said", "speech", {}),
    ("At what dose was the inhaler started?", {}, "what_said", "speech", {}),
    # A sound word inside another symptom's name asks about the symptom, not the sound.
    ("Is she bringing up any mucus when she coughs?", {}, "exists", "speech", {}),
    ("Does he ever cough up blood?", {}, "exists", "speech", {}),
    ("Is there any sputum when he coughs in the mornings?", {}, "exists", "speech", {}),
    ("Can you hear him coughing during the call?", {}, "exists", "event", {"event": "cough"}),
    # A particle is not an emotion ("keep food down"); a state predicated of someone is ("seems down").
    ("Is she managing to keep her food down?", {}, "exists", "speech", {"emotion": None}),
    ("Did the man seem a bit down when he spoke about work?", {}, "exists", "emotion", {"emotion": "sad"}),
    # A date still to come is something said, whatever the clause before it.
    ("So when is he due back for his review?", {}, "what_said", "speech", {}),
    ("After the tests, when does the GP want to see him again?", {}, "what_said", "speech", {}),
    # Clinicians' shorthand reads as its words (lexicon.normalise_shorthand, applied before parsing).
    ("D&V since the weekend?", {}, "exists", "speech", {}),
    ("HR?", {}, "what_said", "speech", {}),
    ("wt at the visit?", {}, "what_said", "speech", {}),
    ("Any GU sx?", {}, "exists", "speech", {"category": "genitourinary"}),
    ("Hx of UTIs?", {}, "exists", "speech", {}),
    ("obs checked by the nurse?", {}, "exists", "speech", {}),
    ("tally of coughs in the first 5 mins?", {}, "count", "event", {"event": "cough"}),
    ("Marked weight loss?", {}, "exists", "speech", {}),  # a symptom, though "weight" is also a reading
    ("How many units does he drink, and when did he cut down?", {}, "what_said", "speech", {}),  # told, with a time
    ("PMH - what conditions has she been treated for?", {}, "what_said", "speech", {}),  # a dash before the wh-word
    ("Once he's out of the appointment, does anyone cough?", {}, "exists", "event", {"section": "unrelated"}),
    # Windows anchored on something the recording locates, in several wordings.
    ("What's the first cough once the doctor begins examining her?", {}, "when_first", "event",
     {"relative": ("once", "the doctor begins examining her")}),
    ("How many times does she cough before the examination?", {}, "count", "event",
     {"relative": ("before", "the examination")}),
    ("After the phone call ends, does anybody laugh?", {}, "exists", "event",
     {"relative": ("after", "the phone call ends"), "section": None}),
    ("Did he say anything about his diet after the doctor mentioned cholesterol?", {}, "exists", "speech",
     {"relative": ("after", "the doctor mentioned cholesterol")}),
    # A medicine's timing is a time that was said, not a moment of the recording; a sound starting is a moment.
    ("between 600 and 700 s, when's the first dose of the new tablet to be taken?", {}, "what_said", "speech", {}),
    ("When should she take the tablets?", {}, "what_said", "speech", {}),
    ("When does the patient start coughing?", {}, "when_first", "event", {}),
    # Who makes a sound: the voice the sound belongs to.
    ("In the first two minutes, who coughs?", {}, "who", "event", {"window": (0.0, 120.0)}),
]


@pytest.mark.parametrize(("question", "cues", "op", "target", "extra"), CASES, ids=[c[0][:40] for c in CASES])
def test_paraphrases_land_on_their_operation(question, cues, op, target, extra) -> None:
    spec = parse(normalise_shorthand(question), DUR, cues)
    assert (spec.operation, spec.target) == (op, target), spec
    for key, want in extra.items():
        assert getattr(spec, key) == want, (key, getattr(spec, key))


def test_subjects_and_the_other_party() -> None:
    spec = parse("From 10 to 50 seconds, which speaker had higher arousal, the doctor or the patient?", DUR)
    assert spec.subject.kind == "clinician" and [o.kind for o in spec.others] == ["patient"]
    assert parse("How does the man speaking at 00:30 sound?", DUR).subject.at_s == 30.0
    assert parse("How many times does the patient cough?", DUR).subject.kind == "patient"
    assert parse("Does anyone sound happy?", DUR).subject.kind == "anyone"


@pytest.mark.parametrize("question", [
    "Including other people in the waiting room, how many coughs can be heard in total?",
    "Counting the folk in the waiting area as well, how many coughs are there?",
    "Not just during the consultation: how many times does she cough altogether?",
])
def test_a_part_named_to_widen_the_scope_does_not_narrow_it(question) -> None:
    assert parse(question, DUR).section is None


@pytest.mark.parametrize(("question", "op"), [
    ("When the doctor examined her, what did he find in the lungs?", "what_said"),
    ("When she coughs, does it hurt anywhere?", "exists"),
    ("When the nurse rang back, who answered the phone?", "who"),
    ("When did the cough start?", "when_first"),
])
def test_a_leading_when_clause_is_a_time_not_the_question(question, op) -> None:
    assert parse(question, DUR).operation == op


@pytest.mark.parametrize(("question", "op"), [
    ("For how many days should she take the steroids? How many days in total?", "what_said"),
    ("Prednisolone course - how many days?", "what_said"),
    ("How many puffs of the blue inhaler does he take?", "what_said"),
    ("Number of coughs during the exam?", "count"),
    ("How many times is the patient heard coughing?", "count"),
])
def test_how_many_of_a_unit_asks_for_a_number_said(question, op) -> None:
    # Not a yes/no (it used to fall through to "exists") and not a count of the recording's events.
    assert parse(question, DUR).operation == op


def test_a_part_named_as_the_scope_still_narrows_it() -> None:
    assert parse("How many coughs are there in the waiting room?", DUR).section == "unrelated"


@pytest.mark.parametrize(("question", "at_s"), [
    ("From 66 to 424 seconds, how did the valence of the man first heard at 01:06 change?", 66.0),
    ("How did the arousal of the woman who speaks at 00:41 change?", 41.0),
    ("What does the speaker talking around 02:10 sound like?", 130.0),
    ("Is the woman who is speaking at 3:05 the patient?", 185.0),
    ("Who sounded more aroused: the man in the corridor at 02:19 or the woman at 06:42?", 139.0),
])
def test_a_person_named_by_the_time_they_speak(question, at_s) -> None:
    subject = parse(question, DUR).subject
    assert subject.kind == "at_time" and subject.at_s == at_s


def test_a_possessive_is_not_a_quote() -> None:
    assert parse("Did the patient's cough get worse after the doctor's advice?", DUR).quote is None


def test_the_spec_is_logged_as_plain_data() -> None:
    d = parse("When is the first cough?", DUR, {"sound": "c.flac"}).to_dict()
    assert d["operation"] == "when_first" and d["cues"] == {"sound": "c.flac"} and d["subject"]["kind"] == "anyone"


@pytest.mark.parametrize(("typed", "read"), [
    ("pt c/o SOBOE, any CP?", "patient complains of short of breath on exertion, any chest pain?"),
    ("FHx of breast ca?", "family history of breast cancer?"),
    ("Does the patinet smoke?", "Does the patient smoke?"),  # a slip in a key word is mended
    ("Is the patent still valid?", "Is the patent still valid?"),  # a real word is never "mended"
    ("Any temp?", "Any temperature?"),
    ("any hx of asthma?", "any history of asthma?"),  # lower case, as typed in a hurry
    ("fhx of heart disease?", "family history of heart disease?"),
])
def test_shorthand_is_read_as_words(typed, read) -> None:
    assert normalise_shorthand(typed) == read


def test_a_stated_number_is_the_one_the_question_is_about() -> None:
    from harp_desktop.agent.lexicon import spoken_count

    said = "I gave up three years ago; before that it was twenty a day for ten years."
    assert spoken_count(said, "How many years did he smoke for?") == 10
    assert spoken_count(said, "How many did he smoke a day?") == 20
    assert spoken_count(said, "When did he give up?") == 3
    assert spoken_count("her sats were ninety six percent", "sats?") == 96


def test_the_model_cannot_make_a_wh_question_yes_no() -> None:
    from harp_desktop.agent.query import reconcile

    for q in ["Allergies? which ones, and what happens?", "Meds - what is he on?", "How many units a week?"]:
        spec = parse(q, DUR)
        assert reconcile(spec, "exists", None, "llm").operation != "exists", q



@pytest.mark.parametrize("question", [
    "Was wheeze heard when the doctor listened to her chest?",
    "Any crackles on auscultation?",
    "Did the GP hear a wheeze through the stethoscope?",
])
def test_a_sound_heard_on_examination_is_a_finding_not_a_sound_event(question) -> None:
    assert parse(question, DUR).target == "speech"


def test_a_sound_heard_in_the_room_is_still_a_sound_event() -> None:
    assert parse("Was any wheezing heard during the consultation?", DUR).target == "event"


@pytest.mark.parametrize(("question", "section"), [
    ("On the triage call, how many coughs can be heard?", "phone_call"),
    ("During the video consultation, does she mention a rash?", "phone_call"),
    ("What did the nurse say on the callback call about fluids?", "phone_call"),
    ("In the dictation, what does the GP give as the plan?", "dictation"),
    ("What blood pressure does the doctor dictate for the notes?", "dictation"),
    ("In his summary letter, is smoking recorded?", "dictation"),
])
def test_calls_of_any_kind_and_dictations_are_sections(question, section) -> None:
    spec = parse(question, DUR)
    assert spec.section == section
    if section == "dictation":  # where it was said is not what was said
        assert not {"dictation", "dictate", "letter", "notes", "summary"} & set(spec.terms)


@pytest.mark.parametrize("question", [
    "Are the panic attacks still happening?",
    "Has she had a panic attack since the spring?",
    "Any history of an anxiety disorder?",
])
def test_a_feeling_word_inside_a_clinical_term_is_a_condition_not_a_voice(question) -> None:
    assert parse(question, DUR).target == "speech"


def test_a_feeling_on_its_own_is_still_heard_in_the_voice() -> None:
    spec = parse("Does the man in the corridor sound panicky?", DUR)
    assert spec.target == "emotion" and spec.emotion == "fearful"


@pytest.mark.parametrize("question", [
    "The woman with this voice books the child in - for what time?",
    "What day is the blood test booked for?",
    "blood test appt - what day/time did they book on the call?",
    "For what date is her review arranged?",
])
def test_a_time_that_was_booked_is_something_said_not_a_moment(question) -> None:
    assert parse(question, DUR).operation == "what_said"


@pytest.mark.parametrize("question", [
    "What time does the first cough happen?",
    "At what time is the blood pressure mentioned?",
])
def test_what_time_in_the_recording_is_still_when(question) -> None:
    assert parse(question, DUR).operation == "when_first"


@pytest.mark.parametrize("question", [
    "Does the little boy have a stiff neck?",
    "Has her youngest been drinking less?",
    "Is the toddler floppy or drowsy?",
])
def test_a_child_talked_about_is_the_subject(question) -> None:
    assert parse(question, DUR).subject.kind == "other"


def test_a_person_described_by_the_clip_is_the_clip_voice() -> None:
    spec = parse("What does the man with this voice say about his back?", DUR, {"speaker": "x.flac"})
    assert spec.subject.kind == "cue"
    assert parse("The woman in this clip - what time does she book?", DUR, {"speaker": "x.flac"}).subject.kind == "cue"


@pytest.mark.parametrize("question", [
    "How many different strangers in the waiting room make remarks about dogs?",
    "How many other voices can be heard in the corridor?",
    "Count the speakers in the waiting-room part.",
])
def test_people_counted_are_voices(question) -> None:
    spec = parse(question, DUR)
    assert spec.operation == "count" and spec.target == "speakers"


@pytest.mark.parametrize("question", [
    "Count the speakers in the waiting-room part.",
    "In the waiting area, does anyone cough?",
    "Before Linda is called in, who is talking about the weather?",
])
def test_waiting_room_in_any_spelling_is_the_unrelated_speech(question) -> None:
    assert parse(question, DUR).section == "unrelated"


@pytest.mark.parametrize("question", [
    "bloke in the waiting room at 0:18 - how's he feeling?",
    "How's the woman at 02:10 feeling?",
])
def test_a_contracted_how_is_feeling_asks_for_the_emotion(question) -> None:
    spec = parse(normalise_shorthand(question), DUR)
    assert spec.operation == "emotion_at" and spec.target == "emotion"


def test_a_verb_call_is_no_phone_call() -> None:
    assert parse("When does the receptionist call him in?", DUR).section is None


def test_pronoun_contractions_are_grammar_not_topic() -> None:
    from harp_desktop.agent.lexicon import content_terms

    assert content_terms("By the end, does the patient say she's relieved?") == ["end", "relieved"]
    assert content_terms("Is he saying he's worse, or that they're better?") == ["saying", "worse", "better"]


@pytest.mark.parametrize(("question", "target"), [
    # A feeling word that is also a condition, asked yes/no with no word of perceiving: the condition.
    ("Is he currently depressed?", "speech"),
    ("Is the patient anxious at the moment?", "speech"),
    ("Is she feeling low these days?", "speech"),
    ("Has he been stressed lately?", "speech"),
    # ... heard in a voice, at a time or of a speaker: the emotion.
    ("Does she sound anxious?", "emotion"),
    ("Does the speaker seem depressed?", "emotion"),
    ("Is anyone heard sounding sad in the waiting room?", "emotion"),
    ("Between 60 and 90 seconds, is the woman anxious?", "emotion"),
])
def test_a_condition_asked_is_not_an_emotion_heard(question, target) -> None:
    assert parse(question, DUR).target == target, parse(question, DUR)


def test_the_course_of_an_illness_in_everyday_words_meets_better_and_worse() -> None:
    from harp_desktop.agent.lexicon import stems

    assert "better" in stems("the cramps are easing off") and "better" in stems("she's improving")
    assert stems("his breathing has deteriorated")[-1] == stems("worse")[0] and "better" not in stems("it is worse")


@pytest.mark.parametrize(("question", "emotion"), [
    ("During the consultation, how many emotional voices can be heard from the corridor?", "emotional"),
    ("Does anybody get emotional in the waiting area?", "emotional"),
    ("What is the emotional state of the man at 03:00?", None),  # a state asked of a time: whichever it is
])
def test_emotional_means_any_emotion(question, emotion) -> None:
    assert parse(question, DUR).emotion == emotion


def test_any_emotion_is_carried_by_any_emotion_tag() -> None:
    from harp_desktop.agent.support import carries
    from harp_desktop.types import Evidence

    e = Evidence(start_s=1.0, end_s=2.0, segment_id=7, speaker="A", text="Kids are talking by the door.")
    assert carries(e, {"kind": "emotion", "label": "emotional"}, [], {7: "fearful"})
    assert not carries(e, {"kind": "emotion", "label": "emotional"}, [], {7: "neutral"})


@pytest.mark.parametrize(("question", "target"), [
    ("Did he mention that he listens to music?", "speech"),
    ("Did the doctor say she heard a wheeze?", "speech"),
    ("Is music heard in the waiting room?", "event"),
    ("Can you hear anyone coughing while the doctor listens to her chest?", "event"),
])
def test_a_verb_of_saying_governs_the_hearing_word_after_it(question, target):
    assert parse(question, DUR).target == target


@pytest.mark.parametrize("question", [
    "According to her sister, is the patient's cough getting better?",
    "Going by his wife's account, has the patient's wheeze settled?",
    "As reported by the daughter, is the patient eating?",
])
def test_who_reports_it_is_the_source_not_the_subject(question):
    spec = parse(question, DUR)
    assert spec.subject.kind == "patient"
    assert not {"sister", "wife", "daughter", "according", "account", "reported"} & set(spec.terms)


@pytest.mark.parametrize("question, kind", [
    ("Was his knee swollen when the GP looked at it?", "anyone"),  # the GP says when, not whose knee
    ("Did it hurt while the nurse was taking the bloods?", "anyone"),
    ("Did the patient wince when the doctor pressed on her tummy?", "patient"),
    ("Near the end, when does the patient say the pain is easing?", "patient"),  # a fronted phrase, then the question
])
def test_a_person_in_a_when_clause_is_not_the_subject(question, kind):
    spec = parse(question, DUR)
    assert spec.subject.kind == kind
    assert all(o.kind != "clinician" for o in spec.others)


@pytest.mark.parametrize("question, section", [
    ("In the handover, what is the registrar asked to chase?", "dictation"),
    ("During the hand-over to the evening GP, which bloods are pending?", "dictation"),
    ("How many patients are handed over to the night team?", None),  # the act asked about, not where
])
def test_a_handover_is_the_notes_register_section(question, section):
    assert parse(question, DUR).section == section


@pytest.mark.parametrize("question", [
    "Has anybody she lives with been poorly lately?",
    "Is anyone in his household ill?",
    "Anyone else at home been unwell?",
    "Are any of his close contacts sick?",
])
def test_the_people_the_patient_lives_with_are_another_subject(question):
    assert parse(question, DUR).subject.kind == "other"


@pytest.mark.parametrize("question", [
    "After the doctor examines the chest, does the boy cough again before the consultation ends?",
    "Does the patient cough before the appointment is over?",
    "Before the visit finishes, does she bring up her knee again?",
])
def test_the_end_of_the_consultation_is_inside_it_not_the_waiting_room(question):
    spec = parse(question, 700.0)
    assert spec.section != "unrelated"
    assert spec.subject.kind != "clinician"  # the doctor in the after-clause says when, not who


@pytest.mark.parametrize("question", ["Does she cough before the consultation?",
                                      "What does he say after the appointment, back in the waiting room?"])
def test_before_or_after_the_consultation_is_still_outside_it(question):
    assert parse(question, 700.0).section == "unrelated"


@pytest.mark.parametrize("question", ["When does the phone first ring?", "when does the telephone start ringing?",
                                      "Who answers the phone in the waiting area?",
                                      "How many times does the desk phone ring?"])
def test_the_phone_as_a_device_is_not_the_phone_call(question):
    assert parse(question, 700.0).section != "phone_call"


@pytest.mark.parametrize("question", ["What does the nurse say on the phone?", "During the phone call, who picks up?",
                                      "What did the caller say on the telephone about her rash?"])
def test_the_phone_call_is_still_the_phone_call(question):
    assert parse(question, 700.0).section == "phone_call"


@pytest.mark.parametrize("question, term", [
    ("Has mum noticed any rash on him?", "rash"),
    ("Did his wife say he has been wheezy?", "wheezy"),
    ("Has the daughter mentioned Albert being confused?", "confused"),
    ("Did dad notice any vomiting in the little one?", "vomiting"),
])
def test_a_relative_reporting_of_the_patient_is_the_source_not_the_topic(question, term):
    spec = parse(question, 700.0)
    assert term in spec.terms
    assert not {"mum", "wife", "daughter", "dad", "noticed", "mentioned"} & set(spec.terms)


@pytest.mark.parametrize("question", ["Did the husband say he has a cold?", "Has mum mentioned her own asthma?"])
def test_a_relative_reporting_of_themself_stays_the_subject(question):
    spec = parse(question, 700.0)
    assert spec.subject.kind == "other" or {"husband", "mum"} & set(spec.terms)


@pytest.mark.parametrize("question", ["Is he still running a temperature when the GP rings three days later?",
                                      "When the nurse calls her back, is the rash still there?",
                                      "On the callback, has the diarrhoea stopped?"])
def test_a_clinician_ringing_back_later_is_the_phone_call(question):
    assert parse(question, 760.0).section == "phone_call"


def test_someone_promising_to_ring_back_is_not_the_phone_call():
    assert parse("Does the receptionist say she will ring him back?", 760.0).section != "phone_call"


@pytest.mark.parametrize("question", ["Which family member has high blood pressure?",
                                      "Which relative had lots of ear infections as a boy?",
                                      "What relative of hers has asthma?", "Which of his relatives had a stroke?"])
def test_which_relative_asks_who(question):
    assert parse(question, 700.0).operation == "who"


def test_what_family_history_is_not_a_who_question():
    assert parse("What family history does he have?", 700.0).operation != "who"


@pytest.mark.parametrize("question", ["Count the coughs Dorothy makes while she is in with the practitioner.",
                                      "Does he cough while he is seeing the GP?",
                                      "How many coughs does the patient give while in the consulting room?",
                                      "How many times does she cough with Dr Mehta?"])
def test_being_in_with_a_clinician_is_the_consultation(question):
    assert parse(question, 760.0).section == "consultation"


@pytest.mark.parametrize("question", ["Is the cough at around 0:18 hers?", "Was that cough at 01:05 his?",
                                      "Are those coughs in the waiting room his?"])
def test_whose_by_a_possessive_pronoun_is_the_patient(question) -> None:
    """"Is the cough at 0:18 hers?": with no one named before it, "hers" is the one the recording is about."""
    assert parse(question, 600.0).subject.kind == "patient"


@pytest.mark.parametrize(("question", "section"), [
    ("How many times does the patient cough during the COPD review?", "consultation"),
    ("During the medication review, does she mention dizziness?", "consultation"),
    ("When is her review booked for?", None),  # a review booked for later is not the one recorded
    ("Is a follow-up review arranged?", None),
])
def test_a_review_is_the_consultation_unless_it_is_booked_for_later(question, section) -> None:
    assert parse(question, 600.0).section == section


@pytest.mark.parametrize(("question", "narrated"), [
    ("How many times had mum given ibuprofen before the appointment?", True),  # the story's time, not the waiting room
    ("What had he taken for it before he came in?", True),
    ("Before the appointment, does anyone cough?", False),
    ("Had the patient been called in before the phone rang?", False),
])
def test_before_in_a_past_perfect_question_is_the_storys_time(question, narrated) -> None:
    spec = parse(question, 600.0)
    assert (spec.section != "unrelated" and spec.relative is None) == narrated


@pytest.mark.parametrize("question", ["dry or productive cough?", "Chesty cough or a dry one?",
                                      "Is the cough tickly or chesty?", "wet or dry cough?"])
def test_two_qualities_offered_ask_which(question) -> None:
    assert parse(question, DUR).operation == "describe"


@pytest.mark.parametrize("question", ["Anyone cough in the first 2 minutes of the recording?",
                                      "Anybody mention chest pain?", "Somebody laughing near the end?"])
def test_a_dropped_auxiliary_before_someone_unnamed_is_still_yes_no(question) -> None:
    assert parse(question, DUR).operation == "exists"


@pytest.mark.parametrize("question", ["What was his breathing rate?", "What resp rate did the nurse count?",
                                      "what were her sats?", "What temp did they get?",
                                      "Which observations were taken?", "what were his obs?"])
def test_a_vital_named_by_its_short_or_lay_name_asks_for_its_value(question) -> None:
    from harp_desktop.agent.lexicon import asked_kinds

    assert asked_kinds(question) == ["vital"]


@pytest.mark.parametrize("question", ["Time of Margaret's first cough?", "timing of the first sneeze?",
                                      "The moment of the patient's first laugh?"])
def test_a_noun_phrase_asking_for_a_time_is_a_when_question(question) -> None:
    assert parse(question, DUR).operation == "when_first"


@pytest.mark.parametrize("question", [
    "Night sweats: has she had any?",
    "The GP mentioned chest pain - does the patient actually have it?",
    "Hear this voice. Does he say he smokes?",
    "During the phone call did the son mention a rash?",
    "Standing up quickly makes him light-headed, right?",
    "Her ankles swell in the heat, is that right?",
])
def test_a_yes_no_question_after_a_lead_in_or_with_a_tag_is_yes_no(question) -> None:
    assert parse(question, DUR).operation == "exists"


def test_is_it_this_or_that_asks_which() -> None:
    assert parse("Her first cough: was it in the waiting room or during the consultation?", DUR).operation == "describe"


@pytest.mark.parametrize(("question", "op"), [
    ("What time was the first dose of amoxicillin given?", "what_said"),  # a clock time told
    ("At what time was the boy sick?", "what_said"),
    ("What time did she take her paracetamol this morning?", "what_said"),
    ("At what time was the first cough heard?", "when_first"),  # a moment of the recording
    ("At what time does the doctor start the examination?", "when_first"),
])
def test_the_time_of_something_told_is_said_not_heard(question, op) -> None:
    assert parse(question, DUR).operation == op


@pytest.mark.parametrize("question", [
    "How many times does she cough while she's waiting to be seen?",
    "While they wait to go in, does the boy cough?",
    "What did her husband say to her as they sat waiting?",
    "Who has the last word before they go through?",
    "Does Dorothy complain of anything before she gets called in?",
])
def test_waiting_told_as_an_act_is_the_time_before_the_consultation(question) -> None:
    spec = parse(question, DUR)
    assert spec.section == "unrelated" and spec.relative is None, spec
    assert not {"waiting", "wait", "through"} & set(spec.terms)


def test_waiting_for_a_result_is_not_the_waiting_room() -> None:
    assert parse("Does she cough while she waits for the result?", DUR).section is None


@pytest.mark.parametrize(("question", "kind"), [
    ("Who tells the nurse about his wheezing at night?", "anyone"),  # the nurse is told, not telling
    ("Who said to the doctor that the pain was worse?", "anyone"),
    ("Who asked the GP about the rash?", "anyone"),
    ("What did the patient tell the doctor about her sleep?", "patient"),
    ("What did the doctor ask the patient about?", "clinician"),
])
def test_the_person_told_or_asked_is_the_addressee_not_the_subject(question, kind) -> None:
    assert parse(question, DUR).subject.kind == kind


@pytest.mark.parametrize("question", [
    "Here's a clip of the child. What does he ask for at the end?",
    "A recording of her husband: what does he say about his back?",
])
def test_a_clip_of_someone_makes_the_clip_the_subject(question) -> None:
    assert parse(question, DUR, {"speaker": "x.flac"}).subject.kind == "cue"


@pytest.mark.parametrize(("question", "role"), [
    ("Between 7:00 and 9:00, when does anyone sound like this clip?", "emotion"),
    ("In the waiting room, does somebody sound the same as this example? When?", "emotion"),
    ("Who sounds like this?", "emotion"),
    ("When does the voice in this clip first speak?", "speaker"),  # which voice
    ("Does the woman in this clip sound like she did earlier?", "speaker"),
    ("When is a cough like this one heard?", "sound"),
])
def test_someone_sounding_like_a_clip_is_its_emotion_not_its_voice(question, role) -> None:
    from harp_desktop.agent.ask import Asker

    assert set(Asker.cue_roles(question, "x.flac", None, None)) == {role}


def test_an_emotion_clip_alone_makes_no_one_the_subject() -> None:
    assert parse("When does anyone sound like this clip?", DUR, {"emotion": "x.flac"}).subject.kind == "anyone"


def test_a_change_asked_of_a_long_description_is_still_a_change() -> None:
    q = "From 42 to 82 seconds, how did the valence of the other people's remarks in the waiting room change?"
    spec = parse(q, DUR)
    assert (spec.operation, spec.target) == ("change", "valence")


@pytest.mark.parametrize("question", [
    "Did he get short of breath at all during the ward round?",
    "What did the registrar examine on the post-take round?",
    "On this morning's round, was his temperature raised?",
])
def test_a_ward_round_is_the_consultation_and_its_words_are_not_the_topic(question) -> None:
    spec = parse(question, DUR)
    assert spec.section == "consultation"
    assert not {"ward", "round", "post-take"} & set(spec.terms)


@pytest.mark.parametrize("question", ["Before the ward round, who is the first to speak?",
                                      "After the round, what does the nurse tell the visitor?"])
def test_before_or_after_the_round_is_outside_it(question) -> None:
    assert parse(question, DUR).section == "unrelated"


def test_a_round_of_tablets_is_not_a_ward_round() -> None:
    assert parse("Did she finish the round of antibiotics?", DUR).section is None


@pytest.mark.parametrize(("typed", "op"), [("whos got the sore knee?", "who"), ("whats the plan for his tablets?", "what_said")])
def test_contractions_typed_without_an_apostrophe(typed, op) -> None:
    assert parse(normalise_shorthand(typed), DUR).operation == op


def test_a_device_alarming_is_the_alarm_sound() -> None:
    spec = parse("At what point does the monitor start alarming?", DUR)
    assert (spec.target, spec.event) == ("event", "alarm")
    assert parse("Is the weight loss alarming to him?", DUR).event is None


def test_coughs_from_people_rather_than_the_patient_exclude_the_patient() -> None:
    spec = parse("How many coughs in the waiting room come from other people rather than the patient?", DUR)
    assert spec.subject.kind == "other"


@pytest.mark.parametrize("question", [
    "How is the man in this clip related to her?",
    "[clip] How is this lady related to the patient?",
    "What relation is the caller to Mrs Jones?",
])
def test_how_someone_is_related_asks_who_they_are(question) -> None:
    assert parse(question, DUR).operation == "who"


def test_how_a_symptom_is_related_to_something_is_not_a_person() -> None:
    assert parse("How is the headache related to her periods?", DUR).operation != "who"


@pytest.mark.parametrize("question", [
    "When should she ring 111?",
    "When might the stitches come out, according to the nurse?",
    "When is he supposed to stop the antibiotics?",
])
def test_a_time_someone_tells_of_is_what_they_said_not_a_moment(question) -> None:
    assert parse(question, DUR).operation == "what_said"


@pytest.mark.parametrize("question", ["When can you hear the baby crying?", "When will she first cough?"])
def test_a_moment_of_the_recording_is_still_a_time(question) -> None:
    assert parse(question, DUR).operation == "when_first"


@pytest.mark.parametrize("question", [
    "Who examined the patient's chest?",
    "Which person handed the doctor the letter?",
    "Who first brought up the patient's weight loss?",
])
def test_the_person_a_who_question_acts_on_is_not_its_subject(question) -> None:
    assert parse(question, DUR).subject.kind == "anyone"


@pytest.mark.parametrize(("question", "kind"), [("Who is the patient's husband?", "other"),
                                                ("Who did the patient see first?", "patient")])
def test_the_person_a_who_question_asks_about_stays(question, kind) -> None:
    assert parse(question, DUR).subject.kind == kind


@pytest.mark.parametrize(("question", "op"), [
    ("asthma hx / on inhalers?", "exists"),
    ("fevers / night sweats?", "exists"),
    ("BP / pulse?", "what_said"),
])
def test_items_listed_with_a_slash_are_asked_as_each_would_be_alone(question, op):
    assert parse(normalise_shorthand(question), DUR).operation == op
