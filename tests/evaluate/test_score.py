import pytest

from harp_desktop.evaluate.score import (
    TIME_TOLERANCE_S,
    answer_correct,
    citation_validity,
    hit_rate,
    label_matches,
    text_overlap,
)


def test_hit_rate_counts_truth_spans_touched_by_evidence():
    truth = [(10.0, 12.0), (30.0, 31.0), (50.0, 55.0)]
    assert hit_rate(truth, [(11.5, 20.0), (54.0, 60.0)]) == 2 / 3
    assert hit_rate(truth, []) == 0.0
    assert hit_rate(truth, [(12.0, 30.0)]) == 0.0  # touching ends do not overlap
    assert hit_rate(truth, [(0.0, 100.0)]) == 1.0


def test_hit_rate_undefined_for_negative_questions():
    assert hit_rate([], [(1.0, 2.0)]) is None
    assert hit_rate([], []) is None


def test_yes_no():
    assert answer_correct("yesno", "Yes", "Yes\nbecause")
    assert not answer_correct("yesno", "Yes", "No")
    assert answer_correct("yesno", "No", "No")
    # a truth written with its reason is scored by its Yes or No
    assert answer_correct("yesno", "Yes, maybe a bit on the stairs", "Yes")
    assert not answer_correct("yesno", "No, the sister says it is no better", "Yes")
    assert not answer_correct("yesno", "Nothing", "No")
    assert answer_correct("yesno", "No", "Not found")  # nothing found is a No
    assert not answer_correct("yesno", "No", "")


def test_time_within_three_seconds():
    assert TIME_TOLERANCE_S == 3.0
    assert answer_correct("time", "00:46", "00:49")
    assert answer_correct("time", "00:46", "00:43.5")
    assert not answer_correct("time", "00:46", "00:50")
    assert not answer_correct("time", "00:46", "Not found")
    assert answer_correct("time", "06:16", "6:14")


def test_count_digits_and_words():
    assert answer_correct("count", "4", "4")
    assert answer_correct("count", "7", "seven coughs")
    assert not answer_correct("count", "7", "6")
    assert not answer_correct("count", "2", "Not found")


def test_labels_with_synonyms_and_negation():
    assert answer_correct("label", "fearful", "frightened")
    assert answer_correct("label", "angry", "She sounds annoyed")
    assert answer_correct("label", "happy", "happy")
    assert answer_correct("label", "patient", "the patient")
    assert answer_correct("label", "doctor", "the clinician")
    assert not answer_correct("label", "happy", "not happy")
    assert not answer_correct("label", "sad", "angry")
    assert not answer_correct("label", "dry", "wet, productive")
    assert label_matches("dry", "a dry cough")


def test_free_text_overlap_fallback_and_judge():
    assert text_overlap("about three days", "3 days")
    assert not text_overlap("about three days", "a week")
    assert answer_correct("text", "Chicago", "Not found", "She says she is from Chicago [00:12]")
    assert not answer_correct("text", "Diane and Sheila", "Mary")
    calls = []

    def judge(truth, answer, rationale):
        calls.append((truth, answer))
        return True

    assert answer_correct("text", "Diane and Sheila", "Mary", judge=judge)
    assert calls == [("Diane and Sheila", "Mary")]
    assert answer_correct("yesno", "Yes", "Yes", judge=lambda *a: False)  # the judge is for free text only


def test_citation_validity():
    ev = [(10.0, 20.0), (40.0, 45.0)]
    assert citation_validity([(11.0, 19.0), (40.5, 45.9)], ev) == 1.0  # 1 s slack
    assert citation_validity([(11.0, 19.0), (30.0, 31.0)], ev) == 0.5
    assert citation_validity([], ev) is None
    assert citation_validity([(1.0, 2.0)], []) == 0.0


def test_a_label_with_its_article_is_the_same_label():
    assert answer_correct("label", "the receptionist", "receptionist")
    assert answer_correct("label", "her sister", "the sister (other)")
    assert not answer_correct("label", "the receptionist", "the patient")


def test_a_label_truth_written_as_a_synonym_matches_its_group():
    assert answer_correct("label", "disgusted", "disgust")
    assert answer_correct("label", "frightened", "fearful (0.81)")
    assert not answer_correct("label", "disgusted", "not disgust, neutral")


@pytest.mark.parametrize(("truth", "answer"), [
    ("her husband Mark", "Mark, the patient's husband"),
    ("the receptionist, Marcus", "receptionist, Marcus"),
    ("the mum", "the patient's mother"),
    ("the mother's", "the patient's mother"),
    ("both Helen and Ravi", "Ravi and Helen"),
])
def test_a_label_of_several_words_matches_word_by_word_in_any_order(truth, answer):
    assert label_matches(truth, answer)


@pytest.mark.parametrize(("truth", "answer"), [
    ("her husband Mark", "Mark"),                 # the relation is part of the label
    ("her husband Mark", "not Mark, her husband"),  # negated
    ("both Helen and Ravi", "Ravi"),
    ("the receptionist, Marcus", "the patient's mother"),
])
def test_a_label_of_several_words_needs_every_word(truth, answer):
    assert not label_matches(truth, answer)


@pytest.mark.parametrize(("truth", "answer", "ok"), [
    ("240", "Two hundred and forty.", True),
    ("38.2", "thirty eight point two", True),  # a decimal said in words
    ("38.2", "thirty eight", False),
    ("36.8 (thirty six point eight)", "It was 36.8 this morning.", True),  # a truth restated in brackets: either form
    ("the healthcare assistant (Callum)", "the healthcare assistant", True),
    ("the healthcare assistant (Callum)", "the receptionist", False),
    ("999", "call nine nine nine", True),
    ("21", "twenty one", True),
    ("12", "twenty one", False),
    ("Alfie's mum (Kerry)", "the patient's mother", True),  # the everyday word for a relation is the same person
    ("his wife", "the patient's mother", False),
])
def test_free_text_reads_numbers_in_words_and_relations_by_either_word(truth, answer, ok):
    assert answer_correct("text", truth, answer) is ok


def test_the_gp_and_the_doctor_are_one_title_in_free_text():
    assert answer_correct("text", "the GP, Dr Pryce", "doctor (clinician), Price")
    assert not answer_correct("text", "the practice nurse", "doctor (clinician)")


@pytest.mark.parametrize(("truth", "answer", "right"), [
    ("her husband, Graham", "patient's husband, Graeme", True),  # the name as ASR spelt it, same sound
    ("the mother, Kerry", "patient's mother", True),             # the person by relation, no name given
    ("the mother, Kerry", "patient's mother, Sandra", False),    # another name is another person
    ("her husband, Graham", "patient's son, Graham", False),     # the relation must still be right
])
def test_a_label_of_role_and_name_is_met_by_the_role_and_a_name_that_sounds_the_same(truth, answer, right):
    assert label_matches(truth, answer) is right
