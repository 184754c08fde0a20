"""The findings extractor: status table, question-answer pairs, values, drug names, roles, dedupe.

Speed is measured in benchmarks/assertion_eval.py, never timed here.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from harp_desktop.findings import vocab as vocab_mod
from harp_desktop.findings.extract import extract, mentioned_concepts
from harp_desktop.findings.model import CATEGORIES, KINDS, ROLES, STATUSES, Turn
from harp_desktop.findings.values import find_values
from harp_desktop.findings.vocab import load, tokenize

DATA = Path(__file__).parent / "data"
SPEAKER = {"clinician": "SPEAKER_0", "patient": "SPEAKER_1", "other": "SPEAKER_2"}


def turns_of(*pairs: tuple[str, str], gap: float = 0.5) -> list[Turn]:
    out, t = [], 10.0
    for i, (role, text) in enumerate(pairs):
        out.append(Turn(100 + i, t, t + 3.0, SPEAKER[role], role, text))
        t += 3.0 + gap
    return out


def statuses(findings, concept: str) -> str | None:
    return "|".join(sorted({f.status for f in findings if f.concept == concept})) or None


def cases(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


def predict(case: dict) -> str | None:
    return statuses(extract(turns_of(*[(t["role"], t["text"]) for t in case["turns"]])), case["concept"])


# ---- the status table

def test_table_covers_every_status():
    table = cases("assertion_cases.jsonl")
    counts = Counter(c["status"] for c in table)
    assert len(table) >= 80
    assert all(counts[s] >= 8 for s in STATUSES), counts
    assert counts[None] >= 3  # "no finding" cases: unanswered questions, a patient's "plan"


@pytest.mark.parametrize("name, threshold", [("assertion_cases.jsonl", 0.95), ("heldout_cases.jsonl", 0.9),
                                             ("r7_dev_cases.jsonl", 0.88), ("r7_heldout_cases.jsonl", 0.58),
                                             ("r8_dev_cases.jsonl", 0.73), ("r8_heldout_cases.jsonl", 0.58)])
def test_status_accuracy(name, threshold):
    # Measured 1.00 on the first two (heldout: 0.925 on its first, untuned run); the threshold leaves
    # room for a vocabulary edit, not for a class of error. r7 (stop 27, a blind helper's pharmacy,
    # relative and list-question talk): dev 0.562 -> 0.912 by classes, its held-out half 0.550 -> 0.613,
    # scored only (a floor against losing ground, not a target tuned to). r8 (a second blind helper:
    # parents, telephone triage, home visits, chronic reviews): dev 0.657 -> 0.757, held-out 0.600 -> 0.614.
    table = cases(name)
    wrong = [(c["id"], c["status"], predict(c)) for c in table if predict(c) != c["status"]]
    assert 1 - len(wrong) / len(table) >= threshold, wrong


HARD = ["neg-01", "neg-02", "neg-05", "neg-06", "neg-17", "neg-19", "neg-22", "neg-25", "aff-08", "aff-19", "aff-21",
        "aff-23", "his-01", "his-06", "his-11", "hyp-01", "hyp-02", "hyp-10", "fam-01", "fam-02", "fam-03", "fam-10",
        "fam-11", "unc-02", "unc-03", "none-01", "none-02", "none-03"]


@pytest.mark.parametrize("cid", HARD)
def test_hard_cases_exactly(cid):
    case = next(c for c in cases("assertion_cases.jsonl") if c["id"] == cid)
    assert predict(case) == case["status"], case


# ---- a question and its answer are one statement

def test_denial_in_an_answer_is_the_patients_and_spans_both_turns():
    ts = turns_of(("clinician", "Any blood in it?"), ("patient", "No, no blood at all."))
    [f] = [f for f in extract(ts) if f.concept == "haemoptysis"]
    assert (f.status, f.speaker, f.role) == ("negated", "SPEAKER_1", "patient")
    assert (f.start_s, f.end_s) == (ts[0].start_s, ts[1].end_s)
    assert "Any blood in it?" in f.text and "No, no blood at all." in f.text
    assert set(f.segment_ids) == {100, 101}


def test_a_question_nobody_answers_is_no_finding():
    ts = turns_of(("clinician", "Any chest pain?"), ("clinician", "Let me check your pulse."), gap=3.0)
    assert statuses(extract(ts), "chest pain") is None
    assert extract(turns_of(("clinician", "Do you get headaches?"))) == []


def test_not_really_is_no_and_a_bit_is_yes():
    no = extract(turns_of(("clinician", "Are you short of breath?"), ("patient", "Not really.")))
    yes = extract(turns_of(("clinician", "Any chest pain?"), ("patient", "A bit, yes.")))
    assert statuses(no, "dyspnoea") == "negated"
    assert statuses(yes, "chest pain") == "affirmed"


def test_the_no_goes_to_what_was_asked_not_to_what_the_question_mentions():
    fs = extract(turns_of(("clinician", "Are you bringing up any phlegm when you cough?"),
                          ("patient", "No, nothing comes up.")))
    assert statuses(fs, "productive cough") == "negated"
    assert statuses(fs, "cough") is None


def test_a_no_about_one_of_two_things_asked_leaves_the_other_unanswered():
    fs = extract(turns_of(("clinician", "Have you eaten anything unusual, or been abroad recently?"),
                          ("patient", "I haven't been abroad this year.")))
    assert statuses(fs, "travel") == "negated"
    assert statuses(fs, "food exposure") is None


def test_open_question_about_a_function_reads_how_it_is():
    poor = extract(turns_of(("clinician", "How is your appetite?"), ("patient", "I'm eating a bit less than normal.")))
    fine = extract(turns_of(("clinician", "How have you been sleeping?"), ("patient", "Fine, thanks.")))
    inverse = extract(turns_of(("clinician", "Are you sleeping okay?"), ("patient", "Not really.")))
    assert statuses(poor, "reduced appetite") == "affirmed"
    assert statuses(fine, "sleep disturbance") == "negated"
    assert statuses(inverse, "sleep disturbance") == "affirmed"


def test_allergy_question_answered_with_a_drug_name():
    fs = extract(turns_of(("clinician", "Any allergies to medicines?"), ("patient", "Amoxicillin. It gave me a rash.")))
    assert statuses(fs, "penicillin allergy") == "affirmed"
    assert statuses(fs, "amoxicillin") is None


def test_someone_else_with_an_infection_is_a_sick_contact():
    fs = extract(turns_of(("clinician", "Has anyone at home been unwell?"), ("patient", "My grandson has a cold.")))
    assert statuses(fs, "common cold") == "family"
    assert statuses(fs, "sick contacts") == "affirmed"


def test_a_companion_speaking_of_themselves_is_another_person():
    fs = extract(turns_of(("clinician", "And do you smoke?"), ("other", "I'm afraid I still do."),
                          ("other", "I hear her coughing most nights.")))
    assert statuses(fs, "smoking") == "family"
    assert statuses(fs, "cough") == "affirmed"  # about the patient, said by the companion


def test_a_parent_answering_for_a_child_keeps_her_own_complaints():
    # The voice taken as the patient speaks of "she" throughout (a carer, a parent): what it says
    # of itself alone is its own, not the patient's.
    fs = extract(turns_of(("clinician", "What's been going on?"),
                          ("patient", "She's been coughing for three days and she feels hot to touch."),
                          ("clinician", "Has she had diarrhoea?"), ("patient", "No, her tummy's been fine."),
                          ("clinician", "Any earache?"), ("patient", "Yes, she keeps pulling at her ear and it's sore."),
                          ("clinician", "Allergies?"), ("patient", "Not her. I've got hay fever and I'm allergic to penicillin myself.")))
    assert statuses(fs, "cough") == "affirmed"
    assert statuses(fs, "diarrhoea") == "negated"
    assert statuses(fs, "penicillin allergy") == "family"


def test_the_child_a_parent_answers_for_speaks_as_the_patient():
    fs = extract(turns_of(("clinician", "What's the problem today?"),
                          ("patient", "She's had a temperature since Sunday and she's been off her food."),
                          ("clinician", "Any diarrhoea?"), ("patient", "No, she's been fine that way."),
                          ("clinician", "Any cough?"), ("patient", "Yes, she's coughing at night."),
                          ("clinician", "Let me look in your throat."),
                          ("other", "I don't like it, my throat is really sore.")))
    sore = [f for f in fs if f.concept == "sore throat"]
    assert [(f.status, f.role) for f in sore] == [("affirmed", "patient")]


def test_a_patient_who_mentions_relatives_is_still_the_patient():
    fs = extract(turns_of(("clinician", "What's been going on?"),
                          ("patient", "I've had a cough for a week. My wife had a cold last week, she's fine now."),
                          ("clinician", "Allergies?"), ("patient", "I'm allergic to penicillin.")))
    assert statuses(fs, "penicillin allergy") == "affirmed"
    assert statuses(fs, "cough") == "affirmed"


def test_a_read_back_of_safety_net_advice_is_still_advice():
    fs = extract(turns_of(("clinician", "If she gets chest pain or her lips go blue, ring 999."),
                          ("other", "Right, chest pain or blue lips, we ring 999."),
                          ("patient", "I did have some chest pain on Monday.")))
    assert {f.status for f in fs if f.concept == "chest pain" and f.role == "other"} == {"hypothetical"}
    assert "historical" in statuses(fs, "chest pain") or "affirmed" in statuses(fs, "chest pain")


def test_a_patient_reporting_after_advice_without_an_action_is_a_report():
    fs = extract(turns_of(("clinician", "If you get a rash, come back."), ("patient", "Actually I've got a rash now.")))
    assert {f.status for f in fs if f.concept == "rash" and f.role == "patient"} == {"affirmed"}


# ---- roles: examinations and plans are the clinician's

def test_clinician_examination_and_plan():
    fs = extract(turns_of(("clinician", "Your chest sounds clear. I can hear a wheeze. I'll print you a sick note.")))
    kinds = {f.concept: (f.kind, f.role) for f in fs}
    assert kinds["chest clear"] == ("examination", "clinician")
    assert kinds["wheeze on auscultation"] == ("examination", "clinician")
    assert kinds["sick note"] == ("plan", "clinician")


def test_patient_words_are_not_plans_or_examinations_unless_asked():
    assert extract(turns_of(("patient", "I've been drinking plenty of water. My chest sounds clear to me."))) == []
    asked = extract(turns_of(("clinician", "Is it sore when I press here?"), ("patient", "Yes, right there.")))
    assert [(f.concept, f.kind, f.role) for f in asked] == [("tenderness", "examination", "patient")]


def test_safety_netting_is_a_plan_and_its_symptoms_are_hypothetical():
    fs = extract(turns_of(("clinician", "If you get chest pain, call us. If it gets worse, come back and see me.")))
    assert statuses(fs, "chest pain") == "hypothetical"
    assert statuses(fs, "safety-netting") == "affirmed"
    assert statuses(fs, "follow-up") is None


# ---- values

@pytest.mark.parametrize("text, kind, value", [
    ("The thermometer said thirty eight point two.", "temperature", "38.2"),
    ("it was 38.5 last night", "temperature", "38.5"),
    ("your blood pressure is one forty over ninety", "bp", "140/90"),
    ("a hundred and twenty over eighty", "bp", "120/80"),
    ("sats are ninety seven percent", "percent", "97%"),
    ("Paracetamol, one gram, about three times a day.", "dose", "1 g"),
    ("Paracetamol, one gram, about three times a day.", "frequency", "three times a day"),
    ("Fifty micrograms every morning.", "dose", "50 micrograms"),
    ("for about three days now", "duration", "3 days"),
    ("since yesterday morning", "duration", "since yesterday morning"),
    ("about ten a day, for fifteen years", "per_day", "10 a day"),
    ("I weigh seventy two kilos", "weight", "72 kg"),
    ("Her blood pressure is 152.94, a bit up.", "bp", "152/94"),  # ASR's "152 over 94"
])
def test_values(text, kind, value):
    assert (kind, value) in [(v.kind, v.text) for v in find_values(tokenize(text))]


def test_values_attach_to_their_findings():
    fs = extract(turns_of(("patient", "Paracetamol, one gram, about three times a day. And honey and lemon at night."),
                          ("patient", "Only levothyroxine for my thyroid. Fifty micrograms every morning."), gap=3.0))
    value = {f.concept: f.value for f in fs}
    assert value["paracetamol"] == "1 g three times a day"
    assert value["levothyroxine"] == "50 micrograms every morning"
    fever = extract(turns_of(("clinician", "Have you had a temperature?"),
                             ("patient", "I felt feverish. The thermometer said thirty eight point two.")))
    # the reading is the temperature's (a home thermometer's), the feverishness it confirms has none of its own
    assert [f.value for f in fever if f.concept == "body temperature"] == ["38.2"]
    assert [f.status for f in fever if f.concept == "fever"] == ["affirmed"]
    vital = extract(turns_of(("clinician", "Your temperature today is thirty seven point nine.")))
    assert [(f.concept, f.kind, f.value) for f in vital] == [("body temperature", "vital", "37.9")]


# ---- drug names as ASR writes them

@pytest.mark.parametrize("said, term", [
    ("levothyroxin", "levothyroxine"), ("amoxicilin", "amoxicillin"), ("para cetamol", "paracetamol"),
    ("parasetamol", "paracetamol"), ("ramapril", "ramipril"), ("salbutamal", "salbutamol"),
    ("meta formin", "metformin"), ("setirizine", "cetirizine"), ("amoxycillin", "amoxicillin"),
])
def test_misspelled_drug_names(said, term):
    fs = extract(turns_of(("patient", f"I take {said} every day.")))
    assert [f.concept for f in fs] == [term]


@pytest.mark.parametrize("word", ["station", "stating", "singular", "aspiring", "situation", "inhale", "portion"])
def test_english_words_are_not_drugs(word):
    assert extract(turns_of(("patient", f"It was the {word} again."))) == []


# ---- dedupe

def test_one_finding_per_fact_voice_and_exchange():
    near = extract(turns_of(("patient", "I've had a cough."), ("patient", "The cough is bad."), gap=3.0))
    assert [f.concept for f in near] == ["cough"]
    far = extract([Turn(1, 0, 3, "SPEAKER_1", "patient", "I've had a cough."),
                   Turn(2, 100, 103, "SPEAKER_1", "patient", "The cough is bad.")])
    assert len(far) == 2
    two = extract(turns_of(("patient", "I have a headache."), ("clinician", "Any headaches before?"),
                           ("patient", "I had a headache last year, it went away.")))
    assert {f.status for f in two if f.concept == "headache"} == {"affirmed", "historical"}


# ---- the vocabulary and the output's closed sets

def test_vocabulary_breadth_and_sources():
    data = json.loads(vocab_mod.VOCAB_PATH.read_text())
    v = load()
    assert "SNOMED" in data["_sources"] and len(v.concepts) >= 150
    kinds = Counter(c.kind for c in v.concepts.values())
    assert kinds["medication"] >= 60 and all(kinds[k] for k in KINDS)
    for c in v.concepts.values():
        assert c.kind in KINDS and c.category in CATEGORIES, c.term
        assert c.as_exam is None or v.get(c.as_exam).kind == "examination"
        assert all(a in v.concepts for a in c.allergens)
    for alts in v.senses.values():
        assert all(t in v.concepts for t in alts.values())


@pytest.mark.parametrize("phrase, term", [
    ("puffed out", "dyspnoea"), ("can't catch my breath", "dyspnoea"), ("bringing up phlegm", "productive cough"),
    ("green phlegm", "productive cough"), ("coughing up blood", "haemoptysis"), ("flu jab", "vaccination"),
    ("feel sick", "nausea"), ("being sick", "vomiting"), ("throwing up", "vomiting"), ("tummy ache", "abdominal pain"),
    ("E C G", "ECG"), ("lost any weight", "weight loss"), ("blood in the stool", "rectal bleeding"),
])
def test_lay_phrasing(phrase, term):
    assert mentioned_concepts(f"I have been {phrase}") == [term]


def test_findings_use_the_closed_sets():
    fs = []
    for c in cases("assertion_cases.jsonl"):
        fs += extract(turns_of(*[(t["role"], t["text"]) for t in c["turns"]]))
    assert fs
    for f in fs:
        assert f.status in STATUSES and f.role in ROLES and f.kind in KINDS and f.category in CATEGORIES
        assert f.start_s <= f.end_s and f.segment_ids


def test_dev_consultation_truth_is_met():
    """The dev consultation's script turns against the hand-made truth (benchmarks/findings_truth)."""
    truth_file = Path("/work/shared/data/dev/dev_long_01.truth.json")
    if not truth_file.exists():
        pytest.skip("shared dev data not here")
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from findings_bench import consultation_turns, score

    true = json.loads((Path(__file__).resolve().parents[2] / "benchmarks/findings_truth/dev_long_01.json").read_text())
    found = {(f.concept, f.status) for f in extract(consultation_turns(json.loads(truth_file.read_text())))}
    p, r = score(found, {(f["concept"], f["status"]) for f in true["findings"]})
    assert p >= 0.9 and r >= 0.9, (p, r)


# ---- ASR run-ons: the full stops and commas the script had are gone

def test_a_follow_up_with_or_sooner_if_is_still_a_follow_up():
    found = extract(turns_of(("clinician", "I'd like to see you again in one week or sooner if you're not improving.")))
    assert statuses(found, "follow-up") == "affirmed" and statuses(found, "safety-netting") == "affirmed"
    found = extract(turns_of(("clinician", "I'll give you a written asthma action plan, so you know what to do if it "
                                           "gets worse, and I'll see you again in four weeks.")))
    assert statuses(found, "follow-up") == "affirmed"
    found = extract(turns_of(("clinician", "Come back if the cough gets worse.")))  # this one is the safety net
    assert statuses(found, "follow-up") is None and statuses(found, "safety-netting") == "affirmed"


def test_a_denial_after_a_comma_is_the_next_clauses():
    found = extract(turns_of(("clinician", "I think this is most likely a viral chest infection, antibiotics won't "
                                           "help with a virus.")))
    assert statuses(found, "chest infection") == "uncertain" and statuses(found, "antibiotic") == "negated"


def test_a_complaint_of_their_own_in_the_clinicians_voice_is_not_the_patients():
    # The patient's husband diarised into the clinician's voice (bank_rec_02), or a clinician's aside.
    found = extract(turns_of(("clinician", "I have, I've been sneezing all week and I've got a sore throat and a "
                                           "runny nose.")))
    assert {statuses(found, c) for c in ("sneezing", "sore throat", "runny nose")} == {"family"}
    found = extract(turns_of(("clinician", "I've had a look at your throat. I think you've got tonsillitis."),
                             ("clinician", "I can feel a lump here.")))
    assert statuses(found, "tonsillitis") == "affirmed"


@pytest.mark.parametrize(("answer", "concept", "status"), [
    ("I had panic attacks last year, in the spring, what was it called?", "panic attacks", "historical"),
    ("I've been coughing at night, is that normal?", "cough", "affirmed"),
    ("I stopped the ibuprofen, should I restart it?", "ibuprofen", "historical"),
])
def test_a_question_tagged_on_to_a_statement_leaves_the_statement(answer, concept, status):
    """ASR puts one "?" at the end of a patient's statement and the question they add after a comma."""
    turns = [Turn(1, 0.0, 3.0, "SPEAKER_1", "clinician", "Have you had anything like this before?"),
             Turn(2, 3.5, 8.0, "SPEAKER_2", "patient", answer)]
    got = {(f.concept, f.status) for f in extract(turns)}
    assert (concept, status) in got


def test_a_no_describing_a_narrower_concept_is_that_ones():
    # ASR lost "any phlegm" from the question; the answer describes no phlegm: the cough itself is not denied.
    fs = extract(turns_of(("clinician", "And have you had a cough along with it?"),
                          ("patient", "Yes, a dry cough, it's mostly at night."),
                          ("clinician", "Are you bringing a penneful and one-you cough?"),
                          ("patient", "No, nothing comes up, it's completely dry.")))
    assert statuses(fs, "cough") == "affirmed" and statuses(fs, "productive cough") == "negated"
    # The narrower one said outright as well: both denied.
    both = extract(turns_of(("clinician", "Do you have a cough?"), ("patient", "No, and no productive cough either.")))
    assert statuses(both, "cough") == "negated"


def test_a_fact_said_twice_keeps_both_places():
    fs = extract(turns_of(("clinician", "And have you had a cough along with it?"),
                          ("patient", "Yes, a dry cough, it's mostly at night."),
                          ("clinician", "Are you bringing any phlegm up when you cough?"),
                          ("patient", "No, nothing comes up, it's completely dry.")))
    denial = [f for f in fs if f.concept == "productive cough"]
    assert len(denial) == 1 and {101, 103} <= set(denial[0].segment_ids), denial


def _statuses(*lines: str) -> dict[str, str]:
    roles = {"c": "clinician", "p": "patient", "o": "other"}
    turns = [Turn(i, 5.0 * i, 5.0 * i + 4, w.upper(), roles[w], t.strip())
             for i, (w, t) in enumerate(line.split(":", 1) for line in lines)]
    return {f.concept: f.status for f in extract(turns)}


def test_otherwise_meaning_apart_from_that_lists_what_is_there():
    got = _statuses("c: Any other health problems?", "p: Otherwise it's just my thyroid and the arthritis.")
    assert got["thyroid disorder"] == "affirmed" and got["osteoarthritis"] == "affirmed"
    # the conditional "otherwise" stays hypothetical
    assert _statuses("c: Keep using it, otherwise the wheeze will come back.")["wheeze"] == "hypothetical"


@pytest.mark.parametrize("reply, status", [
    ("Our mum did, she had it in her seventies.", "family"),
    ("His grandad has, and his uncle.", "family"),
    ("No, nobody.", "negated"),
])
def test_a_family_question_is_answered_by_a_relative_and_a_bare_auxiliary(reply, status):
    got = _statuses("c: Does anyone in the family have diabetes?", f"o: {reply}")
    assert got["type 2 diabetes"] == status


@pytest.mark.parametrize("reply, status", [
    ("Not much, a slice of toast and a cup of tea.", "affirmed"),  # how it is first, then what (tea names a concept)
    ("Fine, a big breakfast and two coffees.", "negated"),
])
def test_how_a_function_is_answers_it_before_what_the_reply_names(reply, status):
    assert _statuses("c: Have you been eating and drinking?", f"o: {reply}")["reduced appetite"] == status


def test_a_bare_yes_or_no_makes_the_clinicians_sentence_before_it_a_question():
    # ASR gave the question a full stop: the reply's No is still its answer
    got = _statuses("c: Right. And any burning when you pass water, or going more often.", "p: No, nothing like that.")
    assert got["urinary frequency"] == "negated"
    # advice acknowledged, or a function to watch, is no symptom confirmed
    assert "chest pain" not in {k for k, v in _statuses("c: If you get chest pain, ring 999.", "p: Yes, okay.").items()
                                if v == "affirmed"}
    assert "dyspnoea" not in _statuses("c: Keep an eye on your breathing.", "p: Yes.")


@pytest.mark.parametrize("question, reply, concept, status", [
    ("Has she been sick at all?", "She was, just the once, after tea.", "vomiting", "affirmed"),
    ("Any headaches?", "A couple of times last week.", "headache", "affirmed"),
    ("Any headaches?", "I haven't had one, not once.", "headache", "negated"),
])
def test_how_often_answers_a_yes_no_question(question, reply, concept, status):
    assert _statuses(f"c: {question}", f"p: {reply}").get(concept) == status


@pytest.mark.parametrize("line, concept", [
    ("Oh, and Ruby's fine now, her sore throat is completely gone.", "sore throat"),
    ("My mum was poorly too, she had a temperature on Monday.", "fever"),
])
def test_a_parent_speaking_of_he_is_not_speaking_of_the_patient_when_she_is_said(line, concept):
    found = extract(turns_of(("clinician", "What's been going on with him?"),
                             ("patient", "He's had a cough for four days and he's been off his food."),
                             ("patient", "He's tired and he's been pulling at his ear."),
                             ("clinician", "Anything else?"), ("patient", line)))
    assert statuses(found, concept) not in ("affirmed", "historical")


def test_a_parent_speaking_of_he_still_reports_his_symptoms():
    found = extract(turns_of(("clinician", "What's been going on with him?"),
                             ("patient", "He's had a cough for four days and he's been off his food."),
                             ("patient", "He's tired and he's been pulling at his ear."),
                             ("clinician", "Any temperature?"), ("patient", "Yes, he had a temperature on Monday.")))
    assert statuses(found, "fever") == "affirmed"


def test_a_hedged_answer_after_a_stance_still_answers_the_question():
    fs = extract(turns_of(("clinician", "Do you get more breathless than you used to?"),
                          ("patient", "I'd say maybe a little, on the hill to the shops.")))
    assert statuses(fs, "dyspnoea") == "uncertain"


def test_a_modifier_stacked_before_another_still_names_its_concept():
    """"a dry, tickly cough" is a dry cough (no phlegm) and a cough; "dry, and a cough" is two things."""
    fs = extract(turns_of(("clinician", "Tell me about the cough."),
                          ("patient", "It's a dry, tickly cough, mostly at night when he lies down.")))
    assert statuses(fs, "productive cough") == "negated" and statuses(fs, "cough") == "affirmed"
    fs = extract(turns_of(("patient", "My skin is dry, and the cough is worse at night.")))
    assert statuses(fs, "productive cough") is None


def test_a_decimal_is_a_decimal_away_from_a_blood_pressure():
    assert [v.kind for v in find_values(tokenize("She weighs 62.5 kilos and her temperature is 37.2"))] == \
        ["weight", "temperature"]


def test_the_number_right_after_the_pulse_is_its_reading_not_a_later_rate():
    fs = extract(turns_of(("other", "Blood pressure 130 over 80, pulse 88 and breathing 18 a minute.")))
    assert {f.concept: f.value for f in fs}.get("heart rate") == "88"
