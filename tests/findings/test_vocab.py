"""Matching added for ASR text: glued words, normal-finding phrases, a word read by its body
system, intensifiers inside a phrase. Own sentences (not the benchmark scripts')."""

from __future__ import annotations

import pytest

from harp_desktop.findings.extract import extract
from harp_desktop.findings.model import Turn
from harp_desktop.findings.vocab import load, tokenize


def concepts(text: str) -> list[tuple[str, str]]:
    return [(m.concept.term, m.how) for m in load().match(tokenize(text))]


@pytest.mark.parametrize("text, term", [
    ("I'll write you an asthmaction plan", "asthma action plan"),   # glued, misheard
    ("does the couhwake you up", "sleep disturbance"),
])
def test_a_misheard_word_glued_to_a_phrase_is_split(text, term):
    assert (term, "glued") in concepts(text)


@pytest.mark.parametrize("text", ["there were several crashes on the motorway", "a reaction to the news",
                                  "the transaction went through"])
def test_glue_needs_a_phrase_of_two_words(text):
    assert not any(how == "glued" for _, how in concepts(text))


def one(role: str, text: str):
    return {(f.concept, f.status) for f in extract([Turn(0, 0.0, 4.0, "SPEAKER_0", role, text)])}


@pytest.mark.parametrize("text, status", [
    ("Good air entry on both sides.", "negated"),
    ("The air is moving well at both bases.", "negated"),
    ("There isn't good air entry on the left.", "affirmed"),
])
def test_a_normal_finding_phrase_denies_the_abnormal_one(text, status):
    assert ("reduced air entry", status) in one("clinician", text)


def test_going_more_often_is_read_by_the_body_system_it_is_said_with():
    assert ("urinary frequency", "affirmed") in one("patient", "It stings when I pass water and I'm going more often.")
    assert ("change in bowel habit", "affirmed") in one("patient", "My bowels are loose and I'm going more often.")


def test_an_intensifier_inside_a_phrase_is_skipped():
    assert ("chest tightness", "affirmed") in one("patient", "My chest has felt very tight all day.")


@pytest.mark.parametrize("text, term", [
    ("she was put on a moxicillin last month", "amoxicillin"),      # the first vowel heard as "a"
    ("I was on a muxisling for my chest", "amoxicillin"),          # long code, an English -ing ending
    ("the nurse gave me metformine", "metformin"),
])
def test_misheard_drug_names(text, term):
    assert term in [t for t, _ in concepts(text)]


@pytest.mark.parametrize("text", ["the situation at the station", "we were singing and dancing",
                                  "a mixing bowl", "the ambulance was parked outside", "it is amazing"])
def test_english_words_are_not_drugs(text):
    assert not [t for t, how in concepts(text) if how in ("fuzzy", "phonetic")]


def test_a_word_before_a_dose_is_a_drug_asr_made_english():
    # "certainly 50 milligrams every morning" (sertraline): the dose says it is a medicine
    v = load()
    got = [m.concept.term for m in v.match(tokenize("and certainly 50 milligrams every morning"))]
    assert "sertraline" in got
    assert not [m for m in v.match(tokenize("I certainly feel better in the mornings")) if m.concept.kind == "medication"]
