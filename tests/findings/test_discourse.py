"""Cross-turn rules: a property question, "the pain", "it's soft", a question pointing back at a
past episode, a patient asking leave to take a medicine, a doubted diagnosis kept open, a known
fact re-mentioned with a hedge. Sentences are this file's own, not the benchmark scripts'."""

from __future__ import annotations

import pytest

from harp_desktop.findings.extract import extract
from harp_desktop.findings.model import Turn

SPEAKER = {"clinician": "SPEAKER_0", "patient": "SPEAKER_1", "other": "SPEAKER_2"}
C, P, R = "clinician", "patient", "other"  # R: a relative or carer


def run(*pairs: tuple[str, str]) -> set[tuple[str, str]]:
    turns, t = [], 10.0
    for i, (role, text) in enumerate(pairs):
        turns.append(Turn(i, t, t + 3.0, SPEAKER[role], role, text))
        t += 3.5
    return {(f.concept, f.status) for f in extract(turns)}


# ---- a No to a question about a property leaves the concept as it was

@pytest.mark.parametrize("said, asked, answer, concept", [
    ("My chest has felt really tight since the weekend.", "Does the tightness spread to your arm?", "No.",
     "chest tightness"),
    ("I've had a pounding headache for days.", "Is the headache there when you wake up?", "No, it builds in the afternoon.",
     "headache"),
    ("This cough just won't shift.", "Is the cough any worse lying flat?", "Not really.", "cough"),
    ("I've come out in a blotchy rash.", "Has the rash gone onto your legs?", "Nope, only my back.", "rash"),
    ("I have put my back out, the back pain is awful.", "Does the back pain travel down to your foot?", "No, it stays in my back.", "back pain"),
    ("I keep getting a sore throat.", "Is the sore throat worse when you swallow?", "No, it's the same all day.",
     "sore throat"),
])
def test_a_no_about_a_property_does_not_deny_the_concept(said, asked, answer, concept):
    found = run((P, said), (C, asked), (P, answer))
    assert (concept, "affirmed") in found
    assert (concept, "negated") not in found


@pytest.mark.parametrize("asked, answer, concept", [
    ("Any tightness in your chest?", "No.", "chest tightness"),
    ("Does your back hurt?", "No, not at all.", "back pain"),
    ("Do you still have the rash?", "No.", "rash"),
    ("Is the pain in your chest?", "No, lower down.", "chest pain"),
])
def test_a_no_about_whether_it_is_there_still_denies_it(asked, answer, concept):
    assert (concept, "negated") in run((C, asked), (P, answer))


def test_a_concept_named_beside_the_asked_one_is_context():
    found = run((P, "I've been coughing a lot."), (C, "Any wheezing with the cough?"), (P, "No."))
    assert ("wheeze", "negated") in found and ("cough", "negated") not in found


def test_the_radiation_itself_is_denied():
    found = run((P, "I get a tight chest on the stairs."), (C, "Does it spread to your jaw?"), (P, "No."))
    assert ("radiating pain", "negated") in found and ("chest tightness", "negated") not in found


# ---- "the pain", "it's soft"

def test_the_pain_is_the_pain_talked_about_most():
    found = run((P, "My stomach pain is dreadful, I've had tummy ache since Friday."),
                (P, "I take naproxen for my knee pain."),
                (C, "If the pain gets a lot worse overnight, ring the out of hours service."))
    assert ("abdominal pain", "hypothetical") in found
    assert ("knee pain", "hypothetical") not in found


def test_a_bare_pain_without_a_definite_word_names_nothing_new():
    assert run((C, "Any pain anywhere else?"), (P, "No.")) == set()


def test_it_in_an_examination_is_the_body_part_just_named():
    found = run((C, "Your belly is tender in the middle but it's soft."))
    assert ("soft abdomen", "affirmed") in found and ("tenderness", "affirmed") in found


# ---- a question pointing back at an episode that is over

@pytest.mark.parametrize("asked, answer, concept", [
    ("Was it itchy at all?", "Yes, very itchy.", "itching"),
    ("Did it make you feel sick?", "A little bit sick, yes.", "nausea"),
])
def test_a_follow_up_about_a_resolved_episode_is_historical(asked, answer, concept):
    found = run((P, "I had hives on my legs a fortnight ago, but they've cleared up now."), (C, asked), (P, answer))
    assert (concept, "historical") in found and (concept, "affirmed") not in found


def test_a_follow_up_about_a_current_complaint_stays_current():
    found = run((P, "I've got hives on my legs."), (C, "Is it itchy?"), (P, "Yes, very itchy."))
    assert ("itching", "affirmed") in found


# ---- a patient asking leave to take a medicine

@pytest.mark.parametrize("reply, status", [
    ("I'd rather you didn't, it can make the bleeding worse.", "negated"),
    ("Best not for now, let's see how you go.", "negated"),
    ("Yes, that's fine, one tablet twice a day.", "affirmed"),
])
def test_the_clinicians_reply_decides_a_requested_medicine(reply, status):
    turns = [Turn(0, 0.0, 3.0, "SPEAKER_1", "patient", "Could I take some naproxen? There's a packet in the cupboard."),
             Turn(1, 3.5, 6.0, "SPEAKER_0", "clinician", reply)]
    found = [f for f in extract(turns) if f.concept == "naproxen"]
    assert [(f.status, f.role) for f in found] == [(status, "clinician")]
    assert (found[0].start_s, found[0].end_s) == (0.0, 6.0)


def test_a_request_without_a_yes_or_no_is_left_as_said():
    found = run((P, "Should I keep taking the omeprazole?"), (C, "Let's talk about that after I've examined you."))
    assert not any(c == "omeprazole" for c, _ in found)


# ---- a doubted diagnosis kept open, a known fact re-mentioned with a hedge

@pytest.mark.parametrize("text, status", [
    ("I don't think it's a clot, but we should keep an eye on it.", "uncertain"),
    ("It's probably not a clot but I want to rule it out with a scan.", "uncertain"),
    ("It isn't a clot, your scan was normal.", "negated"),
])
def test_a_doubted_diagnosis_still_watched_is_uncertain(text, status):
    assert ("deep vein thrombosis", status) in run((C, text.replace("a clot", "a DVT")))


def test_a_hedged_re_mention_of_a_known_medicine_or_habit_adds_nothing():
    found = run((P, "I drink about six coffees a day and I use my salbutamol inhaler most days."),
                (C, "The coffee and the salbutamol might both be making your heart race."),
                (C, "If the salbutamol isn't helping, come back."))
    assert ("caffeine intake", "uncertain") not in found and ("salbutamol", "uncertain") not in found
    assert ("salbutamol", "hypothetical") not in found
    assert ("caffeine intake", "affirmed") in found and ("salbutamol", "affirmed") in found


def test_a_hedged_new_diagnosis_is_still_uncertain():
    assert ("migraine", "uncertain") in run((P, "I've had a headache."), (C, "This might be a migraine."))


# ---- stop 27: classes from a blind table of pharmacy, relative and list-question talk (data/r7_*)

@pytest.mark.parametrize("pairs, concept, want", [
    # a concept the clinician names as known, first named in the question, is there ...
    (((C, "How's the back pain been this week?"), (P, "Not too bad today, bit stiff first thing.")), "back pain", "affirmed"),
    (((C, "How often are you using the salbutamol?"), (P, "Most days, twice some days.")), "salbutamol", "affirmed"),
    (((C, "Any trouble remembering the metformin?"), (P, "I miss the evening one now and then.")), "metformin", "affirmed"),
    # ... unless the answer says it has gone
    (((C, "And the rash you had, how is that?"), (P, "Oh that went weeks ago. Cleared up completely.")), "rash", "historical"),
])
def test_a_concept_named_as_known_is_there_unless_the_answer_says_it_went(pairs, concept, want):
    assert (concept, want) in run(*pairs)


def test_a_no_to_a_wh_question_about_a_named_concept_denies_it():
    assert ("chest pain", "negated") in run((C, "What about the chest pain, any of that?"), (P, "No, none of that."))


def test_a_patient_asking_about_a_named_medicine_is_not_presupposed():
    assert not any(c == "omeprazole" for c, _ in run((P, "How long do I take the omeprazole for?"),
                                                       (C, "Let's see how you get on.")))


@pytest.mark.parametrize("answer", ["Just the headaches. The rest no.", "Headaches, yeah, none of the others.",
                                    "the headaches, nothing else"])
def test_a_list_answer_denies_what_it_did_not_name(answer):
    found = run((C, "Any headaches, nosebleeds or blurred vision?"), (P, answer))
    assert ("headache", "affirmed") in found and ("nosebleed", "negated") in found


@pytest.mark.parametrize("answer", ["Twice a day, yeah.", "Morning and night, yes."])
def test_a_yes_after_what_was_asked_is_a_yes(answer):
    assert ("apixaban", "affirmed") in run((C, "Are you still on the apixaban twice daily?"), (P, answer))


def test_an_absent_phrase_answered_yes_is_both_concepts():
    found = run((C, "Is it more of a dry cough?"), (P, "Yes."))
    assert ("productive cough", "negated") in found and ("cough", "affirmed") in found


@pytest.mark.parametrize("text", ["So if he gets chest pain it's 999, yeah, got it.",
                                  "Right, if she gets chest pain, straight to the hospital."])
def test_a_relative_reading_back_the_safety_net_reports_nothing(text):
    found = run((C, "If she gets chest pain, call 999."), (R, text))
    assert ("chest pain", "affirmed") not in found


def test_a_companion_of_their_own_in_a_clause_about_the_patient_is_family():
    assert ("asthma", "family") in run((R, "I've got asthma myself, and he's wheezing worse than I ever do."))


@pytest.mark.parametrize("text, concept, want", [
    ("She's had this rash, what, four days now?", "rash", "affirmed"),  # a statement with a "?" tagged on
    ("He's got a pain in his chest, it came on at lunch", "chest pain", "affirmed"),  # whose chest: the patient's
    ("If it doesn't settle in a week, we could try amitriptyline", "amitriptyline", "hypothetical"),
])
def test_a_relative_or_clinician_statement(text, concept, want):
    role = C if text.startswith("If") else R
    assert (concept, want) in run((role, text))


def test_a_yes_dated_in_the_past_is_historical():
    assert ("chickenpox", "historical") in run((C, "Has she had chickenpox?"), (R, "Yes, at nursery, about two years ago."))
    assert ("asthma", "affirmed") in run((C, "Do you have asthma?"), (P, "Yes, it started a few years ago."))


# ---- a list the clinician reads out, answered "none of those": a question whatever punctuation ASR gave it

@pytest.mark.parametrize("asked, answer, concepts", [
    ("Any headaches, or a rash, or a stiff neck.", "No, none of those.", {"rash", "neck stiffness"}),
    ("Nosebleeds or a rash at all.", "Neither, no.", {"rash"}),
])
def test_a_list_denied_as_a_whole_is_denied_item_by_item(asked, answer, concepts):
    got = run((C, asked), (P, answer))
    assert {(c, "negated") for c in concepts} <= got
    assert not {(c, "affirmed") for c in concepts} & got


def test_a_clinician_stating_a_symptom_and_corrected_is_not_a_denial():
    # "No, three weeks" corrects the duration: the cough is not denied.
    got = run((C, "So the cough started two weeks ago."), (P, "No, three weeks."))
    assert ("cough", "negated") not in got


def test_a_parent_answering_for_a_child_answers_a_question_asked_in_the_third_person():
    # Without a "?" the statement form would be a statement; the parent's plain No answers it.
    turns = [(C, "What's been happening with him?"), (P, "He's had a cough for three days and he's been hot."),
             (P, "He's off his food and he's been crying a lot."), (P, "He's been tugging at his ear."),
             (C, "And he's had a rash."), (P, "No, he hasn't.")]
    assert ("rash", "negated") in run(*turns)


@pytest.mark.parametrize("sentence, concept", [
    ("Your blood pressure isn't where I'd like it, the headaches fit with that.", "headache"),
    ("The inhaler isn't doing enough, the wheeze tells me that.", "wheeze"),
])
def test_a_denial_ends_where_a_new_subject_starts_after_a_comma(sentence, concept):
    assert (concept, "negated") not in run((C, sentence))


def test_a_denied_list_still_runs_across_its_commas():
    got = run((P, "I haven't had any cough, fever or chills."))
    assert {("cough", "negated"), ("fever", "negated"), ("chills", "negated")} <= got
