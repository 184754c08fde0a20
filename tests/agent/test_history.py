"""History questions that name no condition (agent/answerers/history.py), on findings the real extractor reads."""

from types import SimpleNamespace

import pytest

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers import history
from harp_desktop.findings.extract import extract
from harp_desktop.findings.model import Turn
from harp_desktop.types import Evidence

ROLES = {"c": "clinician", "p": "patient", "o": "other"}


def _ctx(question: str, operation: str, turns: list[str]):
    segs, ts = [], []
    for i, line in enumerate(turns):
        who, text = line.split(":", 1)
        segs.append({"id": i, "start_s": 5.0 * i, "end_s": 5.0 * i + 4, "speaker": who.upper(), "text": text.strip()})
        ts.append(Turn(i, 5.0 * i, 5.0 * i + 4, who.upper(), ROLES[who], text.strip()))
    return SimpleNamespace(
        spec=SimpleNamespace(question=lx.normalise_shorthand(question),  # as the parser reads it
                            operation=operation, target="speech"),
        findings=extract(ts), segments=segs, label_of=lambda s: s["speaker"], in_window=lambda a, b: True,
        window_words=lambda: "in the recording",
        evidence=lambda s, tool="", score=1.0: Evidence(s["start_s"], s["end_s"], s["id"], s["speaker"], s["text"]))


CONSULT = ["c: Any problems with your health in the past?",
           "p: I had my appendix out as a teenager. Otherwise it's just my asthma.",
           "c: And does anything run in the family?",
           "p: My dad had a heart attack at sixty, and my sister has diabetes.",
           "c: Does anyone in the family have thyroid problems?",
           "o: Their mother did, she was on tablets for years."]


@pytest.mark.parametrize("question", ["FHx?", "Any family history?", "Is there anything that runs in the family?"])
def test_family_history_lists_what_relatives_have(question):
    got = history.answer(_ctx(question, "exists", CONSULT))
    assert got.first.startswith("Yes")
    assert "heart attack" in got.first and "thyroid disorder" in got.first
    assert "asthma" not in got.first  # the patient's own
    assert "heart attack (dad)" in got.first and "diabetes (sister)" in got.first  # each with its relative
    assert len({(e.start_s, e.end_s) for e in got.cited}) == len(got.cited)  # a turn is cited once


@pytest.mark.parametrize("question", ["PMH?", "What's her past medical history?", "Any ongoing medical problems?",
                                      "does he have any long-term conditions"])
def test_medical_history_lists_the_patients_conditions_not_the_familys(question):
    op = "what_said" if question.lower().startswith("what") else "exists"
    got = history.answer(_ctx(question, op, CONSULT))
    assert "asthma" in got.first
    assert "heart attack" not in got.first and "diabetes" not in got.first
    assert got.cited  # each item cites the turn that says it


def test_no_family_history_said_is_a_no_and_a_named_condition_is_not_this_answerers():
    quiet = ["c: How long has the cough been going?", "p: About a week, mostly at night."]
    got = history.answer(_ctx("Any family history?", "exists", quiet))
    assert got.first == "No" and got.cited == []
    # "family history of heart disease?" names a condition: the exists answerer reads that concept
    assert history.answer(_ctx("Any family history of heart disease?", "exists", CONSULT)) is None
    assert history.answer(_ctx("Does she smoke?", "exists", CONSULT)) is None


def test_a_condition_the_clinician_names_as_theirs_is_past_history():
    from harp_desktop.agent.answerers.history import _theirs
    from harp_desktop.findings.extract import extract
    from harp_desktop.findings.model import Turn

    def one(text: str):
        return next(f for f in extract([Turn(0, 0.0, 4.0, "DR", "clinician", text)]) if f.kind == "diagnosis")

    assert _theirs(one("Ibuprofen isn't safe for you, it can make your heart failure worse."))
    assert not _theirs(one("I think this is heart failure, so I'd like to start a water tablet."))
