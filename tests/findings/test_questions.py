"""Questions by their form (ASR ends many with a full stop) and what their answers give.

The exchanges are written the way Whisper transcribes a consultation: "?" dropped, a remark
and a question run together, a word garbled.
"""

from __future__ import annotations

import pytest

from harp_desktop.findings.extract import extract
from harp_desktop.findings.questions import asks, question_start
from harp_desktop.findings.vocab import tokenize
from tests.findings.test_extract import statuses, turns_of


def words(text: str) -> list[str]:
    return [t for t in tokenize(text) if t[0] not in ".?!"]


@pytest.mark.parametrize("text", [
    "Do you have any allergies to medications.",
    "Any black or tarry stools or any mucus.",
    "Have you been sick at all.",
    "Is it there all the time or does it come and go.",
    "And is there any illness that runs in your family.",
    "Okay, have you eaten anything unusual or been abroad recently.",
    "Anything else, anything you buy over the counter.",
    "When did it start.",
    "How long have you had it.",
    "Which inhaler do you use.",
    "Can I take something for the diarrhoea.",  # the patient's question: the clinician answers it
])
def test_questions_without_a_question_mark(text):
    assert question_start(words(text), clinician=True) == 0, text


@pytest.mark.parametrize("text", [
    "Have a seat.",
    "Do take a seat.",
    "Could you lie back on the couch for me.",
    "Can you you show me where the pain is.",  # a request, with ASR's stutter
    "When I was a child I had asthma.",
    "What a relief.",
    "Should you notice any blood in your urine, let us know.",  # an inverted "if"
    "It is a dry cough.",
])
def test_statements_and_requests_are_not_questions(text):
    assert question_start(words(text), clinician=True) is None, text


def test_an_elliptic_any_asks_only_in_the_clinicians_mouth():
    assert question_start(words("Any blood in your stool."), clinician=True) == 0
    assert question_start(words("Any time I eat it gets worse."), clinician=True) is None
    assert question_start(words("Anything with dairy sets it off."), clinician=False) is None


def test_a_remark_then_a_question_in_one_sentence():
    toks = words("I'm glad she's doing well, anyone else in the family with bowel problems.")
    k = question_start(toks, clinician=True)
    assert toks[k] == "anyone"
    toks = words("I'm sorry to hear that when did it start.")
    assert toks[question_start(toks, clinician=True)] == "when"
    assert question_start(words("If you cough, does it hurt."), clinician=True) == 0  # the "if" belongs to it
    assert question_start(words("I'm glad she's doing well, anyone else."), clinician=False) is None


def test_asks_reads_a_whole_turn():
    assert asks("Thank you, that's helpful. Do you have any allergies to medications.")
    assert asks("What is it like?")
    assert not asks("Here, listen to this one. Cup fever grips the town as Rovers reach the final.")


# ---- what the pairs give (bank_rec_01's classes, in words of our own)

def test_the_answer_to_a_full_stop_question_is_the_patients_finding():
    found = extract(turns_of(("clinician", "Thank you, that's helpful. Do you have any allergies to medications."),
                             ("patient", "Yes, penicillin, my face swelled up when I was a teenager.")))
    got = {(f.concept, f.status, f.role) for f in found}
    assert ("penicillin allergy", "affirmed", "patient") in got
    assert not any(f.role == "clinician" for f in found)


def test_a_denied_full_stop_question_is_denied_by_the_patient():
    found = extract(turns_of(("clinician", "Any blood in your stool."), ("patient", "No, none at all."),
                             ("clinician", "Any black or terry stools or any mucus."),  # ASR: "tarry"
                             ("patient", "No, nothing like that, just watery.")))
    got = {(f.concept, f.status, f.role) for f in found}
    assert {("rectal bleeding", "negated", "patient"), ("mucus in stool", "negated", "patient")} <= got
    assert statuses(found, "productive cough") is None  # mucus said with stools is not phlegm


def test_a_remark_then_a_question_keeps_the_remark_and_asks_the_question():
    found = extract(turns_of(("clinician", "Well done for stopping, any allergies to medicines."),
                             ("patient", "Not that I know of.")))
    assert {(f.concept, f.status, f.role) for f in found} == {("drug allergy", "negated", "patient")}


def test_an_answer_about_something_not_asked_says_nothing_of_what_was():
    # "crashes" is ASR for "rashes": the answer's rash is not among the asked concepts, and its
    # "cleared up" is about the rash, not the headaches or the joint pains.
    found = extract(turns_of(("clinician", "Any other symptoms, any headaches, crashes or joint pains."),
                             ("patient", "I had a rash on my arms last week, but it's cleared up now.")))
    assert statuses(found, "rash") == "historical"
    assert statuses(found, "headache") is None and statuses(found, "joint pain") is None
    # A plain answer still answers: "Any headaches?" "I had one last week, it's gone now."
    found = extract(turns_of(("clinician", "Any headaches."), ("patient", "I had one last week, it's gone now.")))
    assert statuses(found, "headache") == "historical"


def test_an_unanswered_full_stop_question_is_nothing():
    found = extract(turns_of(("clinician", "Have you had a temperature."),
                             ("clinician", "And do you smoke or drink alcohol.")))
    assert found == []


@pytest.mark.parametrize("text, start", [
    ("Thanks, that helps, which tablets are you taking now", 5),
    ("I see, so which painkillers do you use", 3),
    ("That's fine, which is good news", None),
])
def test_a_wh_word_with_its_noun_after_a_comma_asks(text, start):
    assert question_start(tokenize(text), clinician=True) == start


@pytest.mark.parametrize(("asked", "answer", "status"), [
    ("Any change in your appetite?", "About the same, really. I'm not eating any less.", "negated"),
    ("How's your appetite?", "Much the same as always.", "negated"),
    ("Has your appetite changed at all?", "It's fine, I'm eating normally.", "negated"),
    ("Any change in your appetite?", "Not great, I'm eating a lot less.", "affirmed"),
])
def test_no_change_in_a_function_is_no_problem(asked, answer, status):
    found = extract(turns_of(("clinician", asked), ("patient", answer)))
    assert statuses(found, "reduced appetite") == status


@pytest.mark.parametrize(("pairs", "concept", "status"), [
    ((("clinician", "Has it ever locked or given way on you?"),
      ("patient", "It's never locked, it gave way once on the stairs.")), "joint instability", "affirmed"),
    ((("clinician", "Has it ever locked or given way on you?"),
      ("patient", "It's never locked, it gave way once on the stairs.")), "joint locking", "negated"),
    ((("clinician", "Does the knee ever lock?"), ("patient", "No, never.")), "joint locking", "negated"),
    ((("patient", "My knee buckled under me twice last week."),), "joint instability", "affirmed"),
    ((("patient", "I locked the door and gave way to the bus."),), "joint locking", None),
])
def test_a_joint_that_gives_way_or_locks(pairs, concept, status):
    assert statuses(extract(turns_of(*pairs)), concept) == status


def test_a_clinician_naming_the_next_topic_asks_about_it():
    """bank_rec_08 320 s: "And the allergies." then "Penicillin, I came out in hives": the reply is an allergy."""
    assert question_start(words("And the allergies."), clinician=True) == 0
    assert question_start(words("Your regular medicines."), clinician=True) == 0
    assert question_start(words("The chest sounds clear."), clinician=True) is None  # says something of it
    assert question_start(words("The allergies."), clinician=False) is None  # only the clinician leads the history
    fs = extract(turns_of(("clinician", "And your allergies."), ("patient", "Codeine, it made me really sick.")))
    assert statuses(fs, "opioid allergy") == "affirmed"  # (codeine is an opioid)
