"""AnswerContext: a parent answering for a child makes the child the question's patient."""

from __future__ import annotations

import pytest

from harp_desktop.agent.answerers.context import AnswerContext
from harp_desktop.agent.query import parse

PARENT = ["DR: What's been happening?", "MUM: He's had a cough for four days and he's been hot since yesterday.",
          "DR: Any vomiting?", "MUM: No, he hasn't been sick at all.",
          "DR: Is he eating?", "MUM: He's drinking well but he's off his food.",
          "MUM: The inhaler in my bag is mine, I've got asthma."]
PATIENT = ["DR: What's been happening?", "PT: I've had a cough for four days and I've been hot since yesterday.",
           "DR: Anyone ill at home?", "PT: My son has a cold, he's had it a week.",
           "DR: Any vomiting?", "PT: No, I haven't been sick."]


def _ctx(question: str, lines: list[str]) -> AnswerContext:
    ctx = AnswerContext.__new__(AnswerContext)
    ctx.spec = parse(question, 600.0)
    segs = [{"id": i, "start_s": 5.0 * i, "end_s": 5.0 * i + 4, "speaker": who, "text": text.strip()}
            for i, (who, text) in enumerate(line.split(":", 1) for line in lines)]
    # What the stored index would give: the segments, the roles, the consultation.
    ctx.__dict__.update(segments=segs, roles={"DR": "clinician", "MUM": "patient", "PT": "patient"},
                        sections=[("consultation", 0.0, 5.0 * len(lines))])
    return ctx


@pytest.mark.parametrize("question", ["How many times does the boy cough?", "Has the kid got a temperature?",
                                      "Is the little one eating?"])
def test_a_child_named_when_a_parent_answers_is_the_patient(question):
    assert _ctx(question, PARENT).child_is_patient()


def test_a_child_named_by_a_patient_speaking_for_themselves_is_someone_else():
    # The patient mentions her son's cold: "does the boy have a cold?" is about the son.
    assert not _ctx("Does the boy have a cold?", PATIENT).child_is_patient()
    assert _ctx("Does the boy have a cold?", PATIENT).proxies == set()


def test_a_sound_is_owned_by_its_own_kind_of_stored_event_not_one_spanning_it():
    """A "shout" event (nobody's) spans the patient's cough: the cough's owner is the cough row's."""
    ctx = _ctx("How many times does the patient cough?", PATIENT)
    ctx.__dict__["event_owners"] = [
        {"label": "shout", "start_s": 11.3, "end_s": 12.7, "speaker": None},
        {"label": "cough", "start_s": 12.3, "end_s": 12.6, "speaker": "PT"}]
    assert ctx.speaker_of_time(12.3, 12.6, "cough") == "PT"
