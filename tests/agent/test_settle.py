"""Acoustic questions that no model here can settle (wet or dry, inspiratory...) are said to be unsettled."""

import pytest

from harp_desktop.agent.rules import analyse, rule_plan
from harp_desktop.agent.settle import CANNOT_TELL, settle
from harp_desktop.types import Evidence


@pytest.mark.parametrize("q,quality,event", [
    ("Judging by the sound of the patient's coughs, are they wet (with mucus) or dry?", "wet or dry", "cough"),
    ("Is the cough productive?", "wet or dry", "cough"),
    ("Is the wheeze inspiratory or expiratory?", "inspiratory or expiratory", "wheeze"),
    ("Does the cough sound barking?", "barking, whooping or hoarse", "cough"),
    ("Is the wheezing high-pitched?", "high or low pitched", "wheeze"),
])
def test_sound_quality_questions_are_recognised(q, quality, event):
    a = analyse(q, has_cue=False)
    assert (a.quality, a.event) == (quality, event)
    plan = rule_plan(q, 600.0, False)
    assert plan.quality == quality and plan.target_event == event
    assert plan.sets[0].calls[0].tool == "label" and plan.sets[0].all_matches
    assert [c.tool for c in plan.sets[1].calls] == ["keyword", "text_emb"]


@pytest.mark.parametrize("q", ["Does the patient say whether the cough is dry?", "How many times does she cough?",
                               "Is the patient's mouth dry?", "When does the doctor mention a wet cough?"])
def test_other_questions_are_not_quality_questions(q):
    assert analyse(q, has_cue=False).quality is None


def _ev(a, b, text="", label=None, tool="keyword"):
    scores = {"label": label} if label is not None else {tool: 0.9}
    return Evidence(a, b, None if label is not None else 1, "SPEAKER_1", text, [], scores)


def test_unsettled_answer_cites_the_coughs_and_what_was_said():
    plan = rule_plan("Judging by the sound, is the cough wet or dry?", 600.0, False)
    evidence = [_ev(151.9, 154.0, "Yes, a dry cough. It's mostly at night."), _ev(155.1, 155.6, label=0.83),
                _ev(159.9, 162.0, "Are you bringing up any phlegm when you cough?"), _ev(194.4, 195.1, label=0.9)]
    first, why, supported = settle(plan, evidence, "")
    assert first == f"{CANNOT_TELL} (described as dry)" and not supported
    assert "2 cough event(s)" in why and "[02:35-02:36]" in why and "[03:14-03:15]" in why
    assert "whether a cough is wet or dry" in why and '"Yes, a dry cough." [02:32-02:34]' in why
    assert "phlegm" not in why  # the clinician's question describes nothing


def test_unsettled_answer_without_coughs_or_descriptions():
    plan = rule_plan("Is the cough productive?", 600.0, False)
    first, why, supported = settle(plan, [_ev(10, 12, "It is not dry at all, and not wet either.")], "")
    assert first == CANNOT_TELL and not supported  # both sides negated: nothing named
    assert why.startswith("No cough was detected")


def test_ask_says_it_cannot_tell_on_a_real_recording(indexed):
    lib, res = indexed
    a = lib.ask(res.sha256, "Judging by the sound, are the patient's coughs wet or dry?")
    assert a.answer.startswith(CANNOT_TELL) and not a.supported
    coughs = [e for e in lib.transcript(res.sha256)["events"] if e["label"] == "cough"]
    assert coughs and "cough event(s) can be heard" in a.rationale and a.citations
    assert all(any(s - 1 <= x and y <= e + 1 for s, e in [(v.start_s, v.end_s) for v in a.evidence])
               for x, y in a.citations)
    w = lib.ask(res.sha256, "Is the wheeze inspiratory?")
    assert w.answer.startswith(CANNOT_TELL) and "No wheeze was detected" in w.rationale


def test_a_voice_at_a_moment_without_an_emotion_tag_is_not_guessed():
    q = "What emotion does the woman's voice convey at 00:43?"
    plan = rule_plan(q, 600.0, False)
    assert plan.intent == "emotion" and plan.anchor_s == 43.0
    angry_elsewhere = Evidence(28.6, 31.4, 1, "SPEAKER_2", "Kids are talking by the door.", ["emotion:angry (0.71)"])
    short = Evidence(43.2, 43.7, 2, "SPEAKER_4", "The door!", [])
    first, why, ok = settle(plan, [angry_elsewhere, short], q)
    assert first == CANNOT_TELL and not ok and "[00:43-00:44]" in why and "0.5 s" in why
    # A tag near the moment settles it; a question about words (not the voice) is left to the model.
    near = Evidence(41.0, 44.0, 3, "SPEAKER_4", "Kids are talking by the door.", ["emotion:sad (0.65)"])
    assert settle(plan, [angry_elsewhere, near], q)[0] == "sad"
    words = "What emotion does the patient express at 00:43?"
    assert settle(rule_plan(words, 600.0, False), [angry_elsewhere, short], words) is None


def test_a_short_quote_said_inside_a_longer_sentence_counts():
    from harp_desktop.agent.settle import count_quote
    from harp_desktop.types import Evidence

    said = [Evidence(0.0, 5.0, text="Next, please, is it a collection?"),
            Evidence(9.0, 12.0, text="Who's next? Next please."),
            Evidence(20.0, 22.0, text="The next appointment, please, is Friday.")]
    assert [e.start_s for e in count_quote("Next, please", said)] == [0.0, 9.0]
