import numpy as np

from harp_desktop.findings.band import PHONE_MAX_CEILING_DB, high_ceiling, phone_band
from harp_desktop.findings.sections import (
    EDGE_S,
    band_measures,
    channels,
    clinical_sections,
    dialogue_span,
    find_sections,
    in_sections,
    phone_like,
)
from tests.findings.helpers import CONSULTATION, seg, speech_like_audio


def consultation(t0: float = 0.0) -> list[dict]:
    return [seg(a + t0, b + t0, s, text) for a, b, s, text in CONSULTATION[1:]]


def chat(t0: float, n: int = 6) -> list[dict]:
    lines = ["Hello?", "Oh, hello. I didn't know you were there.", "This is Diane in New Jersey.",
             "And I'm Sheila in Texas, originally from Chicago.", "Oh, I'm from Chicago also.", "Well, there you go."]
    return [seg(t0 + 3 * i, t0 + 3 * i + 2.5, "SPEAKER_8" if i % 2 == 0 else "SPEAKER_9", lines[i % 6])
            for i in range(n)]


def reading(t0: float, label: str = "SPEAKER_7", n: int = 4) -> list[dict]:
    return [seg(t0 + 7 * i, t0 + 7 * i + 6.5, label, "He was not an ill disposed young man, unless to be rather "
                "cold hearted is to be ill disposed.") for i in range(n)]


def kinds(sections) -> list[str]:
    return [s.kind for s in sections]


def test_dialogue_span_is_the_longest_two_voice_exchange_with_its_edges():
    a, b = dialogue_span(consultation(100.0))
    assert a == 107.0 - EDGE_S and b == 145.0 + EDGE_S


def test_reading_consultation_and_chat_are_told_apart():
    segs = reading(0.0) + consultation(40.0) + chat(100.0)
    found = find_sections(segs)
    assert kinds(found) == ["unrelated", "consultation", "phone_call"]
    cons = found[1]
    assert 45.0 <= cons.start_s <= 47.0 and 85.0 <= cons.end_s <= 87.0 and cons.confidence >= 0.8
    assert found[2].confidence == 0.6  # not clinical, two voices; without audio no bandwidth check
    assert found[0].end_s <= cons.start_s and cons.end_s <= found[2].start_s  # they never overlap


def test_band_limited_chat_is_a_confident_phone_call_and_so_is_one_side_of_it():
    segs = chat(0.0) + reading(60.0, n=2)
    found = find_sections(segs, phone=lambda s: True)
    assert kinds(found) == ["phone_call", "phone_call"] and found[0].confidence == 0.9
    assert kinds(find_sections(reading(0.0), phone=lambda s: False)) == ["unrelated"]


def test_a_waiting_room_of_many_voices_is_unrelated():
    lines = ["Kids are talking by the door.", "The child almost hurt the small dog.", "A thin stripe runs down it.",
             "Dogs are sitting by the door.", "At that high level the air is pure."]
    segs = [seg(3.0 * i, 3.0 * i + 2.0, f"SPEAKER_{i + 1}", t) for i, t in enumerate(lines)]
    assert kinds(find_sections(segs)) == ["unrelated"]


def test_a_third_voice_inside_a_consultation_does_not_split_it():
    segs = consultation(0.0)
    segs.insert(5, seg(31.0, 31.8, "SPEAKER_6", "Sorry to interrupt, the printer is jammed."))
    segs = sorted(segs, key=lambda s: s["start_s"])
    found = find_sections(segs)
    assert kinds(found) == ["consultation"]
    assert in_sections(31.0, 31.8, found)


def test_a_short_clinical_question_and_answer_is_a_consultation():
    segs = [seg(0.5, 4.7, "SPEAKER_1", "Have you had any chest pain or shortness of breath since the weekend?"),
            seg(5.3, 8.5, "SPEAKER_2", "Some chest pain when I cough, but I can breathe normally.")]
    assert kinds(find_sections(segs)) == ["consultation"]
    assert find_sections([]) == []


def test_telephone_band_is_told_from_wideband_speech():
    rng = np.random.default_rng(0)
    t = np.arange(16000 * 3) / 16000
    envelope = (np.sin(2 * np.pi * 3 * t) > 0).astype(np.float32)  # syllables and pauses
    wide = (rng.standard_normal(len(t)) * envelope * 0.1).astype(np.float32)
    spec = np.fft.rfft(wide)
    spec[np.fft.rfftfreq(len(wide), 1 / 16000) > 3500] = 0  # what a telephone line passes
    floor = rng.standard_normal(len(t)).astype(np.float32) * 1e-4  # room tone
    phone = np.fft.irfft(spec, len(wide)).astype(np.float32) + floor
    spread, drop = band_measures(wide + floor, 0.0, 3.0)
    assert spread > 10.0 and drop < 10.0 and not phone_like(wide + floor, 0.0, 3.0)
    spread, drop = band_measures(phone, 0.0, 3.0)
    assert spread < 6.0 and drop > 30.0 and phone_like(phone, 0.0, 3.0)
    assert not phone_like(phone, 0.0, 0.05)  # too short to tell
    assert high_ceiling(wide + floor, 0.0, 3.0) > PHONE_MAX_CEILING_DB + 10
    assert high_ceiling(phone, 0.0, 3.0) < PHONE_MAX_CEILING_DB - 10
    assert phone_band(phone, 0.0, 0.05) is None


def test_a_filtered_call_with_no_room_floor_is_still_a_telephone_band():
    # bank_rec_01's call: a 300-3400 Hz filter and nothing under it, so the band above swings with
    # what leaks through (the first measure, a steady high band, called that wideband).
    audio = speech_like_audio(6.0, [(0.0, 6.0)])
    bare = speech_like_audio(6.0, [(0.0, 6.0)], floor=0.0)
    assert band_measures(bare, 0.5, 5.5)[0] > 6.0  # not steady: the old rule said wideband
    assert phone_like(bare, 0.5, 5.5) and phone_like(audio, 0.5, 5.5)
    assert not phone_like(speech_like_audio(6.0), 0.5, 5.5)


# ---- the classes found on the real recordings (bank_rec_01: a reading, then a consultation, then a call)

NEWSPAPER = [  # a man reading a sports story aloud to the patient: symptom words, no exchange
    (3.0, 11.0, "SPEAKER_1", "Here, listen to this one. Cup fever grips the town as Rovers reach the quarter final."),
    (11.5, 19.0, "SPEAKER_1", "The manager admitted the first half was painful to watch, they kept coughing up chances."),
    (19.5, 23.0, "SPEAKER_2", "My brother was at that match."),
    (24.0, 38.0, "SPEAKER_1", "Their striker has been on fire since January. He said the pain of losing the final had "
                              "stayed with the squad, and the storm left the groundsmen with a real headache."),
    (38.5, 52.0, "SPEAKER_1", "Fans are told not to panic. The mascot is recovering at home after a nasty attack of "
                              "stage fright, and the doctor says he will be fine for Saturday."),
    (52.5, 54.0, "SPEAKER_2", "Poor fox."),
]


def asr_consultation(t0: float) -> list[dict]:
    """A GP and the same patient (SPEAKER_2), questions transcribed with full stops."""
    lines = [("SPEAKER_4", "Hello, come in and have a seat, what can I do for you today."),
             ("SPEAKER_2", "I've had a really bad tummy pain for a few days and I've got diarrhoea."),
             ("SPEAKER_4", "Any blood in your stool."),
             ("SPEAKER_2", "No, none at all."),
             ("SPEAKER_4", "Have you been sick at all."),
             ("SPEAKER_2", "Yes, on Friday, but not since."),
             ("SPEAKER_4", "I think this is gastroenteritis. Drink plenty of fluids and I'll give you a sick note."),
             ("SPEAKER_2", "Thank you, doctor.")]
    return [seg(t0 + 5 * i, t0 + 5 * i + 4, spk, text) for i, (spk, text) in enumerate(lines)]


CALL = [  # the patient rings the surgery afterwards (a new label through the phone line)
    ("SPEAKER_3", "Surgery, how can I help?"),
    ("SPEAKER_5", "Hello, the doctor asked me to book a blood test and bring in a stool sample."),
    ("SPEAKER_3", "Yes, I can see the request. And how are you feeling?"),
    ("SPEAKER_5", "A little better, the cramps are easing off, but I've still got diarrhoea."),
    ("SPEAKER_3", "Glad to hear it. Tuesday at nine then."),
    ("SPEAKER_5", "Great, thank you."),
]


def call(t0: float) -> list[dict]:
    return [seg(t0 + 4 * i, t0 + 4 * i + 3.5, spk, text) for i, (spk, text) in enumerate(CALL)]


def test_a_reading_aloud_full_of_symptom_words_is_not_a_consultation():
    segs = [seg(*t) for t in NEWSPAPER]
    assert kinds(find_sections(segs)) == ["unrelated"]
    segs += asr_consultation(60.0)
    found = find_sections(segs)
    assert kinds(found) == ["unrelated", "consultation"]
    assert found[1].start_s >= 56.0 and not in_sections(3.0, 11.0, found)


def test_one_voice_telling_and_being_answered_now_and_then_is_no_consultation():
    # Two questions in a story, each answered with a word: still one voice's monologue.
    segs = [seg(0.0, 14.0, "SPEAKER_1", "Did you hear the doctor's news? The hospital is closing its fever clinic."),
            seg(14.5, 15.5, "SPEAKER_2", "No."),
            seg(16.0, 30.0, "SPEAKER_1", "They say the pain of it will be felt for years, the whole town is sick about it.")]
    assert "consultation" not in kinds(find_sections(segs))


def test_a_band_limited_call_right_after_the_consultation_is_a_phone_call():
    segs = asr_consultation(0.0) + call(42.0)  # 2 s after "Thank you, doctor"
    audio = speech_like_audio(70.0, [(42.0, 66.0)])
    found = find_sections(segs, phone=lambda s: phone_band(audio, s["start_s"], s["end_s"]))
    assert kinds(found) == ["consultation", "phone_call"]
    assert found[0].end_s <= 42.0 <= found[1].start_s + EDGE_S and found[1].confidence == 0.9
    # Without audio the call is not told from wideband talk, but it is no more consultation either: the
    # doctor's voice has left, and two other voices talk on.
    no_audio = find_sections(segs)
    assert kinds(no_audio) == ["consultation", "unrelated"] and no_audio[0].end_s <= 42.0


def test_the_couple_talking_after_the_doctor_has_finished_is_the_waiting_room_again():
    segs = asr_consultation(0.0) + [seg(45.0, 47.5, "SPEAKER_6", "There, that wasn't so bad, was it?"),
                                    seg(48.0, 50.5, "SPEAKER_2", "No, I'm just relieved it's nothing worse.")]
    found = find_sections(segs)
    assert kinds(found) == ["consultation", "unrelated"] and found[0].end_s < 45.0 <= found[1].end_s
    # One voice going on alone after the doctor's last words is no exchange of its own: not cut.
    segs = asr_consultation(0.0) + [seg(38.5, 41.0, "SPEAKER_2", "And thanks again for seeing me so quickly.")]
    assert kinds(find_sections(segs)) == ["consultation"]


def test_one_wideband_turn_measured_near_the_line_does_not_make_a_call():
    assert channels([seg(0, 3, "A", "x"), seg(4, 7, "B", "x"), seg(8, 11, "A", "x")], [False, True, False]) == [
        False, False, False]
    # ... but a call diarised as one voice, and a turn too short to measure inside a call, are the call.
    assert channels([seg(0, 9, "A", "x"), seg(10, 20, "A", "x")], [True, True]) == [True, True]
    assert channels([seg(0, 3, "A", "x"), seg(3.5, 3.8, "B", "Yes."), seg(4, 7, "A", "x")], [True, None, True]) == [
        True, True, True]
    assert channels([seg(0, 3, "A", "x")], [True]) == [True]


def test_a_consultation_goes_on_through_a_minute_of_silence():
    segs = asr_consultation(0.0)
    segs = segs[:5] + [seg(s["start_s"] + 60, s["end_s"] + 60, s["speaker"], s["text"]) for s in segs[5:]]
    assert kinds(find_sections(segs)) == ["consultation"]


def test_findings_come_from_consultations_and_clinical_calls_only():
    chatter = [seg(200.0 + 3 * i, 202.5 + 3 * i, ("SPEAKER_8", "SPEAKER_9")[i % 2], text) for i, text in enumerate(
        ["Hello?", "Oh hello, it's Diane.", "How was New Jersey?", "Cold, but we had fun.", "Talk soon then.", "Bye."])]
    segs = [seg(*t) for t in NEWSPAPER] + asr_consultation(60.0) + call(110.0) + chatter
    audio = speech_like_audio(230.0, [(110.0, 134.0), (200.0, 218.0)])
    found = find_sections(segs, phone=lambda s: phone_band(audio, s["start_s"], s["end_s"]))
    assert kinds(found) == ["unrelated", "consultation", "phone_call", "phone_call"]
    assert [s.kind for s in clinical_sections(found, segs)] == ["consultation", "phone_call"]
    assert clinical_sections(found, segs)[1].start_s < 115.0


def test_a_companion_who_talks_a_while_stays_inside_the_consultation():
    """The patient's husband as a voice of his own (diarisation no longer folds him into the
    clinician): his exchanges with the clinician and the patient, non-clinical and between two
    clinical stretches, are part of the consultation, and so is the greeting before them; the
    receptionist who called the patient in is not."""
    gp, pt, hus, rec = "SPEAKER_2", "SPEAKER_3", "SPEAKER_4", "SPEAKER_1"
    lines = [(0.0, 3.0, rec, "Mrs Marsh? Dr Campbell will see you now."), (3.5, 4.5, pt, "Thank you."),
             (9.0, 11.0, gp, "Hello, come in, both of you."), (11.5, 13.0, pt, "This is my husband."),
             (13.5, 15.0, hus, "Hello, she asked me to come along."), (15.5, 17.0, gp, "Of course, that's fine.")]
    t = 17.5
    clinical = [(gp, "How long have you had the palpitations?"), (pt, "About a month, and I get chest pain."),
                (gp, "Does the pain come with the cough?"), (pt, "Yes, and I am short of breath.")]
    for who, text in clinical:
        lines.append((t, t + 2.0, who, text))
        t += 2.5
    for who, text in [(hus, "She never sits down, you know."), (gp, "Is that right?"), (hus, "Never, all day."),
                      (pt, "Oh, stop it."), (hus, "Well it's true."), (gp, "Well, well.")]:
        lines.append((t, t + 2.0, who, text))
        t += 2.5
    for who, text in clinical:
        lines.append((t, t + 2.0, who, text))
        t += 2.5
    found = find_sections([seg(a, b, s, x) for a, b, s, x in lines])
    assert kinds(found) == ["unrelated", "consultation"]
    assert in_sections(9.0, 11.0, found) and in_sections(t - 20, t - 18, found)
    assert not in_sections(0.0, 3.0, found)


def knee_consultation(t0: float) -> list[dict]:
    """Our own lines: a consultation about a knee and sleep, which the short clinical word list misses."""
    lines = [("SPEAKER_1", "Now, you mentioned your knee, tell me about that."),
             ("SPEAKER_2", "It's my left knee, it's been aching since I was gardening, worst on the stairs."),
             ("SPEAKER_1", "Has it ever locked or given way on you?"),
             ("SPEAKER_2", "It gave way once going down the steps, but it's never locked."),
             ("SPEAKER_1", "And how have you been sleeping lately?"),
             ("SPEAKER_2", "Badly, I can't get off to sleep and I wake at four.")]
    return [seg(t0 + 5 * i, t0 + 5 * i + 4.5, s, text) for i, (s, text) in enumerate(lines)]


def dictation(t0: float, label: str = "SPEAKER_1") -> list[dict]:
    lines = ["Letter for the notes. Forty-two year old man, six weeks of left knee pain after gardening.",
             "Examination: mild effusion, medial joint line tenderness, ligaments stable, full range of movement.",
             "Impression: probable early osteoarthritis of the left knee. Plan: physiotherapy and paracetamol.",
             "Insomnia discussed, sleep hygiene advice given. Review in four weeks."]
    return [seg(t0 + 8 * i, t0 + 8 * i + 7.5, label, text) for i, text in enumerate(lines)]


def test_a_consultation_in_words_of_the_findings_vocabulary_is_a_consultation():
    # "knee", "locked", "given way", "sleeping" are none of the short list's words.
    assert kinds(find_sections(knee_consultation(0.0))) == ["consultation"]


def test_the_clinician_alone_dictating_after_the_consultation_is_a_dictation():
    found = find_sections(knee_consultation(0.0) + dictation(40.0))
    assert kinds(found) == ["consultation", "dictation"]
    assert found[1].start_s >= 35.0 and not in_sections(45.0, 47.0, found)
    assert in_sections(45.0, 47.0, found, "dictation")


def test_a_stranger_reading_symptom_words_aloud_is_no_dictation():
    segs = [seg(*t) for t in NEWSPAPER]
    assert kinds(find_sections(segs)) == ["unrelated"]
    # ... and a clinical monologue by a voice that took no part in the consultation, with no words of a
    # letter ("letter for the notes", "impression"), neither: a health programme on the radio.
    other = [s for s in dictation(40.0, "SPEAKER_7") if not ("Letter" in s["text"] or "Impression" in s["text"])]
    other += dictation(72.0, "SPEAKER_7")[1:2]
    assert kinds(find_sections(knee_consultation(0.0) + other))[-1] == "unrelated"


def test_the_letter_starts_after_the_patient_last_speaks_not_with_the_plan():
    """The doctor's long plan, answered once ("when do I come back?"), then goodbye, then the letter:
    one voice nearly throughout, but the consultation's other voice still speaks in the first part."""
    plan = [seg(40.0, 52.0, "SPEAKER_1", "So the plan, physiotherapy for the knee and paracetamol for the pain."),
            seg(52.5, 64.0, "SPEAKER_1", "And for sleep keep the same bedtime and no screens before bed."),
            seg(64.5, 66.0, "SPEAKER_2", "When do I come back?"),
            seg(66.5, 70.0, "SPEAKER_1", "In two weeks. Take care."),
            seg(70.5, 72.0, "SPEAKER_2", "Thank you, doctor.")]
    found = find_sections(knee_consultation(0.0) + plan + dictation(80.0))
    assert kinds(found) == ["consultation", "dictation"]
    assert found[0].end_s >= 72.0 and 78.0 <= found[1].start_s <= 80.0


def test_a_call_starts_with_its_ring():
    from harp_desktop.findings.model import Section
    from harp_desktop.findings.sections import rung_in

    secs = [Section("consultation", 10.0, 500.0), Section("phone_call", 563.0, 630.0)]
    got = rung_in(secs, [(556.0, 561.0)])
    assert got[1].start_s == 556.0 and got[0] == secs[0]
    assert rung_in(secs, [(520.0, 530.0)])[1].start_s == 563.0  # a ring half a minute before is another matter
    assert rung_in(secs, [(450.0, 455.0)])[1].start_s == 563.0  # never into the section ahead


def test_a_patient_chatting_with_her_sister_before_she_is_called_in_is_still_the_waiting_room():
    """The patient and her sister talk in the waiting room (a stranger too) before the clinician's first words
    call her in: the consultation starts with those words, not with the sisters' chat."""
    gp, pt, sis, other = "SPEAKER_2", "SPEAKER_3", "SPEAKER_4", "SPEAKER_5"
    lines = [(0.0, 3.0, pt, "My wrist is really throbbing now."), (3.5, 6.0, sis, "Rest it on your bag, love."),
             (7.0, 9.0, sis, "And tell them about your chest while you're in there."),
             (9.5, 12.0, pt, "I'm not making a fuss about a cough."), (13.0, 15.0, other, "Is this the queue for X-ray?"),
             (16.0, 18.0, sis, "Did you feed the cat before we came out?"), (18.5, 20.0, pt, "I think so.")]
    t = 26.0
    for who, text in [(gp, "Maureen Ellis, come through to room four, and bring your sister if you like."),
                      (gp, "So what happened today?"), (pt, "I tripped on the kerb and landed on my wrist."),
                      (gp, "Any pain anywhere else, your head or your hips?"), (pt, "No, just the wrist and my knee."),
                      (gp, "Did you hit your head or black out?"), (pt, "No, I remember all of it."),
                      (gp, "Any chest pain or shortness of breath?"), (pt, "No, just this cough I've had all week.")]:
        lines.append((t, t + 3.0, who, text))
        t += 3.5
    found = find_sections([seg(a, b, s, x) for a, b, s, x in lines])
    cons = [s for s in found if s.kind == "consultation"]
    assert cons and cons[0].start_s > 20.0  # (the section is padded by EDGE_S before the first words)
    assert not in_sections(3.5, 6.0, found)


def test_a_three_voice_consultation_starts_with_its_opening_not_its_first_clinical_pair():
    """Nurse, patient and wife take turns two by two ("Come in, both of you" / "Ron Fletcher, I'm 71" / "I'm his
    wife" / "how's your breathing?"): no pair alone is clinical, but they open the consultation; the call from
    the waiting room and the remarks before it do not. (The turns as ASR and diarisation left them on
    bank_rec_08, the project's own recording: the opening came out as waiting room, the consultation starting at
    "Stopping after a hundred yards".)"""
    lines = [(68.4, 70.4, "SPEAKER_6", "Kids are talking by the door?"),
             (78.9, 87.1, "SPEAKER_1", "And the weather, more heavy rain this afternoon, I'm afraid, with floods right across the county."),
             (88.5, 90.4, "SPEAKER_6", "Dogs are sitting by the door."),
             (92.3, 97.7, "SPEAKER_7", "Ronald Fletcher, I'm ready for you now. Room 4, just along here."),
             (98.1, 100.9, "SPEAKER_2", "Come on, man, up you get."),
             (105.2, 110.2, "SPEAKER_7", "Come in, both on you. I'm Helen Marsh, one of the respiratory nurses."),
             (110.8, 113.3, "SPEAKER_3", "Ron Fletcher, I'm 71."),
             (113.9, 117.9, "SPEAKER_2", "I'm worried, his wife. I come to keep him honest."),
             (118.1, 123.5, "SPEAKER_7", "So this is your yearly cop from you, Ron. How's your reading been since April?"),
             (124.1, 131.4, "SPEAKER_3", "Worse, I have got breathless walking to the paper shop. It's about 100 yards, and I have to stop on the way."),
             (131.7, 136.4, "SPEAKER_2", "And he get stuffed out on the stairs. He does to stop halfway up."),
             (137.0, 145.8, "SPEAKER_7", "Stopping after a hundred yards on the flat is grade 4 on the MRC breathlessness scale. In April you were grade 3."),
             (146.2, 155.4, "SPEAKER_3", "And your cough? I cough every morning and I bring up the g- it's normally white, but this last week it's gone yellowy green, and there's more of it."),
             (155.9, 164.0, "SPEAKER_2", "It is green, I've seen the tissues, and it's way too tight, whistling like a candle. I can hear him from the landing."),
             (164.2, 168.3, "SPEAKER_7", "How many flare-ups needing steroid tablets have you had this year?"),
             (168.7, 175.1, "SPEAKER_3", "To February and June, the GP gave me Prednis alone for five days, both times."),
             (175.4, 179.9, "SPEAKER_2", "And until my audit in June, he wasn't in hospital."),
             (180.8, 186.9, "SPEAKER_3", "Oh! I had a chest infection last winter as well, before Christmas it cleared up with antibiotics."),
             (186.9, 188.6, "SPEAKER_7", "Any chest pain?"), (189.1, 190.9, "SPEAKER_3", "No, no chest pain."),
             (191.5, 193.3, "SPEAKER_7", "Have you coughed up any blood?"), (193.7, 195.5, "SPEAKER_3", "No, no blood at all."),
             (196.0, 197.9, "SPEAKER_7", "Any swelling on your ankles?"),
             (198.4, 202.5, "SPEAKER_2", "No, ankles are fine. I check them every night.")]
    found = find_sections([seg(a, b, s, x) for a, b, s, x in lines])
    cons = [s for s in found if s.kind == "consultation"]
    assert cons and 101.0 <= cons[0].start_s <= 105.2, found  # "Come in, both of you" (EDGE_S pad before it)
