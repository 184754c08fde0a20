"""Assertion rules added for ASR text: a denial with its verb left out, a soft No taken back.
Own sentences (not the benchmark scripts')."""

from __future__ import annotations

import pytest

from harp_desktop.findings.assertion import answer_polarity, clause_ids, find_cues, status
from harp_desktop.findings.vocab import tokenize


def status_of(text: str, phrase: str) -> str:
    toks = tokenize(text)
    target = tokenize(phrase)
    a = next(i for i in range(len(toks)) if toks[i : i + len(target)] == target)
    span = (a, a + len(target))
    return status(toks, span, find_cues(toks, [span]), clause_ids(toks))


@pytest.mark.parametrize("text", [
    "Please don't, you have a temperature already.",     # the commas an ASR may drop
    "I'd prefer you didn't well you have a temperature",
    "Rather you didn't, I can see you have a temperature.",
])
def test_a_denial_with_its_verb_left_out_does_not_reach_the_next_clause(text):
    assert status_of(text, "temperature") == "affirmed"


@pytest.mark.parametrize("text", [
    "I don't think I have a temperature.",
    "I haven't had a temperature.",
    "No temperature at all.",
])
def test_ordinary_denials_still_deny(text):
    assert status_of(text, "temperature") == "negated"


@pytest.mark.parametrize("answer, polarity", [
    ("Not really, occasionally a bit of yellow stuff.", "affirmed"),
    ("Not really, but now and then I do.", "affirmed"),
    ("Not really, just a little bit in the mornings.", "affirmed"),
    ("Not really, no.", "negated"),
    ("Not really.", "negated"),
    ("No, never.", "negated"),
])
def test_a_soft_no_taken_back_at_once_is_a_yes(answer, polarity):
    assert answer_polarity(tokenize(answer)) == polarity


@pytest.mark.parametrize("text, phrase", [
    ("Honestly I'm not eating much at all these days.", "not eating much"),
    ("I've got no appetite at all.", "no appetite"),
    ("I can't sleep at all at the moment.", "can't sleep"),
    ("He's not hungry at all since Tuesday.", "not hungry"),
])
def test_at_all_after_a_negative_concept_strengthens_the_complaint(text, phrase):
    assert status_of(text, phrase) == "affirmed"


@pytest.mark.parametrize("text, phrase", [
    ("No, no appetite problems at all.", "appetite problems"),
    ("I haven't had any chest pain at all.", "chest pain"),
    ("Not breathless at all, no.", "breathless"),
])
def test_at_all_still_strengthens_a_denial(text, phrase):
    assert status_of(text, phrase) == "negated"


# ---- stop 27: time and conditionals in other words (data/r7_* holds the blind table)

@pytest.mark.parametrize("text, phrase, want", [
    ("I've had this tinnitus on and off for years", "tinnitus", "affirmed"),
    ("I smoked for years before the baby", "smoked", "historical"),
    ("I was on the pill until I was about thirty", "pill", "historical"),
    ("He had a stroke in 2016 and made a good recovery", "stroke", "historical"),
    ("I'd never had a headache until this last fortnight", "headache", "affirmed"),
    ("I didn't have any wheeze till last week", "wheeze", "affirmed"),
    ("Should she become confused, call us straight away", "confused", "hypothetical"),
    ("Any sign of a rash, bring her back", "rash", "hypothetical"),
    ("I'm wondering if this is reflux", "reflux", "uncertain"),
    ("I don't know if I'm pregnant", "pregnant", "uncertain"),
])
def test_time_and_conditionals(text, phrase, want):
    assert status_of(text, phrase) == want


@pytest.mark.parametrize("text, phrase, want", [
    ("I cough every morning, it's normally white, but this week it's gone yellowy green.", "cough", "affirmed"),
    ("The rash has gone red and itchy since Tuesday.", "rash", "affirmed"),
    ("My phlegm has gone thicker and darker.", "phlegm", "affirmed"),
    ("I had a cough last week but it's gone now.", "cough", "historical"),
    ("The headache has gone, thank goodness.", "headache", "historical"),
])
def test_gone_as_become_is_a_change_not_an_end(text, phrase, want):
    assert status_of(text, phrase) == want


@pytest.mark.parametrize("answer, polarity", [
    ("I think maybe a bit, when I'm climbing hills.", "uncertain"),
    ("I'd say yes, most mornings.", "affirmed"),
    ("I suppose a little, yeah.", "affirmed"),
    ("To be honest, not really.", "negated"),
    ("I reckon no, never had that.", "negated"),
    ("I think so.", "uncertain"),  # a stance and nothing after it stays the whole answer
    ("I think it's the damp in the flat.", None),  # an opinion, not an answer
    ("Still there a bit, but it's getting better.", "affirmed"),  # how it is now: still present
])
def test_a_stance_before_the_answer_is_read_through(answer, polarity):
    assert answer_polarity(tokenize(answer)) == polarity


@pytest.mark.parametrize("text, phrase", [
    ("I had a chest infection last month, the antibiotics sorted it.", "chest infection"),
    ("She had conjunctivitis the other week.", "conjunctivitis"),
])
def test_an_episode_told_as_had_a_few_weeks_ago_is_over(text, phrase):
    assert status_of(text, phrase) == "historical"


@pytest.mark.parametrize("text, phrase", [
    ("The rash started last week.", "rash"),            # its onset
    ("The headaches got worse last month.", "headaches"),  # a change in it
    ("I've had this rash since last week.", "rash"),
    ("I had a rash last week and it's still there.", "rash"),
])
def test_a_recent_time_that_dates_an_onset_or_a_change_leaves_it_current(text, phrase):
    assert status_of(text, phrase) == "affirmed"
