"""Pain said of a body site in any word order (findings/sites.py), through the vocabulary."""

import pytest

from harp_desktop.findings.tokens import tokenize
from harp_desktop.findings.vocab import load


def _terms(text: str) -> list[str]:
    return [m.concept.term for m in load().match(tokenize(text))]


@pytest.mark.parametrize("text, term", [
    ("he's gone and hurt his wrist again", "wrist pain"),
    ("her ankle has been really throbbing since Sunday", "ankle pain"),
    ("is there any pain in your elbows", "elbow pain"),
    ("my left knee is killing me", "knee pain"),
    ("it aches around the shoulder", "shoulder pain"),
    ("does it hurt in your tummy after meals", "abdominal pain"),
    ("the sole of my foot is sore", "foot pain"),
    ("painful fingers in the cold", "hand pain"),
])
def test_pain_word_and_site_name_the_sites_pain(text: str, term: str) -> None:
    assert term in _terms(text)


@pytest.mark.parametrize("text", [
    "come back in the morning if it hurts",  # "back" is a site only right beside the pain word
    "she went to the head of the queue and it was painful to wait",
    "my wrist watch stopped",  # a site with no pain word
    "it hurts when the cuff goes round the top of the arm tight",  # too many content words between
])
def test_no_site_pain_without_a_pain_word_close_to_the_site(text: str) -> None:
    assert not any(t.endswith(" pain") and t != "pain on movement" for t in _terms(text))


def test_exact_phrases_keep_priority() -> None:
    # "back pain" and "chest pain" are listed phrases: the composition does not split or double them
    assert _terms("back pain and chest pain") == ["back pain", "chest pain"]


@pytest.mark.parametrize("text", [
    "honestly the car park here is a right headache",
    "the phones have been a pain in the neck since nine",
    "we're sick and tired of being passed around",
    "that's a real headache for the family",
])
def test_a_symptom_word_in_a_figure_of_speech_is_no_finding(text: str) -> None:
    assert _terms(text) == []


@pytest.mark.parametrize("text, term", [
    ("I've had a real headache since Tuesday", "headache"),
    ("it's a headache, mostly behind my eyes", "headache"),
    ("the pain in the neck is worse when I turn", "neck pain"),
    ("he's been sick three times", "vomiting"),
])
def test_the_same_words_said_of_the_body_stay_findings(text: str, term: str) -> None:
    assert term in _terms(text)


@pytest.mark.parametrize("text, term", [
    ("How bad is the wrist, if ten is the worst pain you can imagine?", "wrist pain"),
    ("On a scale of nought to ten, where ten's the worst, how is the knee pain today?", "knee pain"),
])
def test_a_pain_score_asked_of_a_site_names_its_pain(text: str, term: str) -> None:
    assert term in _terms(text)


def test_worst_without_a_pain_word_names_no_site_pain() -> None:
    assert not [t for t in _terms("My wrist, and the worst thing is the cough.") if t.endswith(" pain")]
