import pytest

from harp_desktop.agent.plan import EvidenceSet, Plan, PlanError, ToolCall, validate
from harp_desktop.agent.rules import analyse, rule_plan


def plan_with(*calls, start=0.0, end=60.0, intent="text"):
    return Plan(intent, [EvidenceSet(start, end, list(calls))])


@pytest.mark.parametrize("plan,needle", [
    (plan_with(ToolCall("shell", {"cmd": "rm -rf /"})), "unknown tool"),
    (plan_with(ToolCall("keyword", {"terms": []})), "at least one term"),
    (plan_with(ToolCall("audio_emb", {"cue": True})), "needs an example clip"),
    (plan_with(ToolCall("label", {"label": "explosion"})), "unknown label"),
    (plan_with(ToolCall("time"), start=50, end=10), "empty time window"),
    (Plan("text", []), "no evidence sets"),
    (plan_with(ToolCall("time"), intent="hack"), "unknown intent"),
])
def test_invalid_plans_are_rejected_with_reason(plan, needle):
    with pytest.raises(PlanError, match=needle):
        validate(plan, duration_s=100.0, has_cue=False)


def test_windows_are_clamped_to_the_recording():
    p = validate(plan_with(ToolCall("time"), start=-5, end=500), 100.0, False)
    assert (p.sets[0].start_s, p.sets[0].end_s) == (0.0, 100.0)


@pytest.mark.parametrize("q,intent,event,emotion", [
    ("Can the patient be heard coughing during the consultation?", "yesno", "cough", None),
    ("How long has he had the cough?", "text", None, None),
    ("How many times does the patient cough?", "count", "cough", None),
    ("When is the first audible cough in the recording?", "when", "cough", None),
    ("When does someone sound angry?", "when", None, "angry"),
    ("How does the man speaking at 00:30 sound?", "emotion", None, None),
    ("Does anyone sound disgusted at any point?", "yesno", None, "disgust"),
    ("Does the patient report any chest tightness?", "yesno", None, None),
    ("What did the patient say about medication between minute 3 and minute 4?", "text", None, None),
])
def test_question_analysis(q, intent, event, emotion):
    a = analyse(q, has_cue=False)
    assert (a.intent, a.event, a.emotion) == (intent, event, emotion)


def test_rule_plan_uses_localized_window_and_adaptive_k():
    p = rule_plan("Is anyone coughing between minute 6 and minute 7?", 600.0, False)
    assert (p.sets[0].start_s, p.sets[0].end_s) == (360.0, 420.0)
    assert p.sets[0].all_matches and p.sets[0].calls[0].tool == "label"
    p = rule_plan("Is the person in this voice sample heard in the recording?", 600.0, True)
    assert p.intent == "speaker" and p.sets[0].calls[0].tool == "speaker"



@pytest.mark.parametrize("label", ["telephone", "knock", "alarm", "music", "dog"])
def test_a_plan_may_ask_for_the_rooms_sounds(label):
    plan = Plan("when", [EvidenceSet(0.0, 60.0, [ToolCall("label", {"label": label})])], target_event=label)
    assert validate(plan, 600.0, False).target_event == label
