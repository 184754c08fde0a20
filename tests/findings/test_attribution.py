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


def test_a_cough_in_a_consultation_silence_with_nobody_near_is_the_patients():
    # (the examination's quiet: "take big breaths" ... cough ... "I can hear some crackles")
    assert who([tag(1, 34.0 + NEAR_S + 0.2, 34.0 + NEAR_S + 0.6)]) == [("PT", "patient_in_consultation")]
    # laughter is no symptom: nobody near stays nobody
    assert who([tag(1, 34.0 + NEAR_S + 0.2, 34.0 + NEAR_S + 0.6, "laughter")]) == [(None, "none")]


def test_laughter_next_to_the_clinician_stays_the_clinicians():
    assert who([tag(1, 28.2, 28.8, "laughter")]) == [("DR", "next_to")]


def test_how_many_times_does_the_patient_cough():
    tags = [tag(1, 5.0, 5.5), tag(2, 8.2, 8.7), tag(3, 28.4, 28.9), tag(4, 110.5, 111.0), tag(5, 150.0, 150.5)]
    got = attribute_events(tags, TURNS, ROLES, CONSULT)
    assert sum(ROLES.get(e.speaker) == "patient" for e in got) == 3


# With the turns' ASR words (what findings.service passes): the cases of the bank recordings.
def words_seg(start: float, end: float, label: str, words: list[tuple[float, float]]) -> dict:
    return {**seg(start, end, label, "..."), "words": words}


WORDED = [words_seg(0.0, 4.3, "DR", [(0.2, 1.0), (1.1, 2.0), (2.1, 3.1), (3.1, 3.9)]),  # "... and the last one."
          words_seg(6.0, 9.0, "PT", [(6.1, 7.0), (7.4, 8.9)]),
          words_seg(9.5, 15.0, "PT", [(9.6, 10.5), (11.2, 12.0)]),  # the segment runs on 3 s after the last word
          words_seg(20.0, 28.0, "DR", [(20.1, 23.0), (23.9, 27.8)]),
          words_seg(100.0, 104.0, "X", [(100.1, 103.8)]),
          words_seg(106.0, 110.0, "Y", [(106.2, 109.9)])]


def worded(tags) -> list[tuple]:
    return [(e.speaker, e.method) for e in attribute_events(tags, WORDED, ROLES, CONSULT)]


def test_a_cough_over_the_clinicians_last_word_is_the_patients():
    """bank_rec_02 411.7 s: the patient coughs as the clinician finishes "... and the last one"."""
    # not inside the clinician's turn (no word of it after the cough): a pause sound, and in a
    # consultation with only the clinician near (the patient speaks 2 s later) the patient's
    assert worded([tag(1, 3.7, 4.0)]) == [("PT", "patient_in_consultation")]
    assert worded([tag(1, 4.2, 4.5)]) == [("PT", "patient_in_consultation")]  # after it: the same


def test_a_cough_between_words_of_one_turn_is_that_speakers():
    assert worded([tag(1, 7.05, 7.35)]) == [("PT", "in_turn")]
    outside = [words_seg(100.0, 104.0, "X", [(100.1, 101.0), (101.6, 103.8)])]
    got = attribute_events([tag(1, 101.1, 101.4)], outside, ROLES, CONSULT)
    assert [(e.speaker, e.method) for e in got] == [("X", "in_turn")]  # outside a consultation: the talker's


def test_a_cough_between_a_clinicians_sentences_in_a_consultation_is_the_patients():
    """bank_rec_08 561 s: "... the stop smoking service will ring you." -- cough -- "If you get chest pain..."
    is one ASR turn of the clinician; the patient coughed while the clinician spoke on."""
    assert worded([tag(1, 23.1, 23.6)]) == [("PT", "patient_in_consultation")]
    # laughter is no symptom: the clinician's own, mid-turn
    assert worded([tag(1, 23.1, 23.6, "laughter")]) == [("DR", "in_turn")]


def test_a_cough_in_the_silent_tail_of_a_segment_is_not_inside_it():
    """bank_rec_02 56.5 s: the segment ran 2.8 s past the last word, over the cough."""
    got = attribute_events([tag(1, 104.6, 104.9)], [words_seg(100.0, 105.5, "X", [(100.1, 103.0)])], ROLES, CONSULT)
    assert [(e.speaker, e.method) for e in got] == [(None, "none")]


def test_outside_a_consultation_a_cough_belongs_only_to_a_speaker_right_against_it():
    assert worded([tag(1, 104.2, 104.5)]) == [("X", "next_to")]  # 0.4 s after X stops
    assert worded([tag(1, 104.8, 105.1)]) == [(None, "none")]  # a bystander: 1.0 s from X, 0.9 s before Y
    assert worded([tag(1, 105.6, 105.9)]) == [("Y", "next_to")]  # 0.3 s before Y starts


def test_the_stage_attributes_with_the_stored_words(library_dir):
    """findings.service hands attribution each segment's words: a cough in the silent tail of a
    stranger's segment (outside a consultation) is nobody's, not the stranger's."""
    from harp_desktop.api import Library
    from harp_desktop.findings import service
    from tests.findings.helpers import make_recording

    with Library(library_dir) as lib:
        rid = make_recording(lib.db, [(1.0, 6.0, "SPEAKER_1", "Kids are talking by the door.")], [("cough", 5.0, 5.3)])
        seg_id = lib.db.segments(rid)[0]["id"]
        for i, (a, b) in enumerate([(1.1, 1.5), (1.5, 2.0), (2.0, 2.6), (2.6, 3.0)]):
            lib.db.db["words"].insert({"segment_id": seg_id, "recording_id": rid, "start_s": a, "end_s": b,
                                       "text": f"w{i}", "prob": 0.9})
        got = service.analyse(lib.db, rid, None, lambda turns: []).events
    assert [(e.speaker, e.method) for e in got] == [(None, "none")]  # without words: SPEAKER_1, in_turn


def test_a_cough_right_after_an_attributed_one_continues_its_bout():
    # Outside a consultation a cough 1.0 s after the first (which touched X's turn) is still X's:
    # a double cough; one after someone else spoke between, or 3 s later, is not carried on.
    turns = [words_seg(10.0, 12.0, "X", [(10.0, 12.0)]), words_seg(16.0, 18.0, "Y", [(16.0, 18.0)])]
    tags = [tag(1, 12.1, 12.4), tag(2, 13.4, 13.7), tag(3, 18.1, 18.4), tag(4, 21.5, 21.8)]
    got = attribute_events(tags, turns, ROLES, [])
    assert [(e.speaker, e.method) for e in got] == [("X", "next_to"), ("X", "bout"), ("Y", "next_to"), (None, "none")]
    # a different kind of sound does not continue a cough's bout
    laugh = tag(5, 13.4, 13.7, "laughter")
    assert attribute_events([tag(1, 12.1, 12.4), laugh], turns, ROLES, [])[1].speaker is None


def test_a_waiting_room_cough_someone_remarks_on_is_the_patients():
    """Nobody speaks next to it, but the companion remarks on it at once ("There's that cough again, have a sip of
    your water"): the patient they came with coughed. A remark about something else leaves it nobody's."""
    turns = TURNS + [seg(152.5, 156.0, "Y", "There's that cough again, here, have a sip of your water."),
                     seg(171.0, 175.0, "Y", "Not long now, you're next after the lady with the pram.")]
    got = [(e.speaker, e.method) for e in attribute_events([tag(1, 150.0, 150.5), tag(2, 168.0, 168.5)], turns,
                                                          {**ROLES, "Y": "other"}, CONSULT)]
    assert got == [("PT", "remarked"), (None, "none")]


def test_a_cough_over_a_word_of_someones_turn_is_not_theirs():
    """bank_rec_08 161 s: the wife's "...whistling like a candle" goes on over the patient's cough; one cannot talk
    and cough at once, so the cough is not in her turn (and, in a consultation, it is the patient's)."""
    turns = [words_seg(40.0, 45.0, "X", [(40.1, 41.0), (41.0, 41.6), (42.2, 44.8)])]
    got = attribute_events([tag(1, 41.3, 41.7)], turns + [words_seg(50.0, 53.0, "PT", [(50.1, 52.9)])], ROLES, CONSULT)
    assert [(e.speaker, e.method) for e in got] == [("PT", "patient_in_consultation")]
    # a pause between her words is still hers to cough in
    got = attribute_events([tag(1, 41.65, 42.1)], turns, ROLES, CONSULT)
    assert [(e.speaker, e.method) for e in got] == [("X", "in_turn")]
