"""Oracle evidence: given spans become the evidence, scored by the plan's own tools."""

from harp_desktop.agent.ask import Asker
from harp_desktop.agent.oracle import oracle_evidence
from harp_desktop.agent.rules import rule_plan
from harp_desktop.retrieval.tools import RecordingTools


def test_spans_become_evidence_with_text_tags_and_tool_scores(indexed):
    lib, res = indexed
    rec = lib.recording(res.sha256)
    tools = RecordingTools(lib, rec)
    events = [e for e in lib.transcript(res.sha256)["events"] if e["label"] == "cough"]
    plan = rule_plan("How many times can someone be heard coughing?", rec["duration_s"], False)
    spans = [(5.26, 8.47), (events[0]["start_s"], events[0]["end_s"])]
    ev, results = oracle_evidence(Asker(lib), tools, plan, list(reversed(spans)), None)
    assert [(e.start_s, e.end_s) for e in ev] == sorted(spans)  # exactly the given spans, in time order
    assert "chest pain" in ev[0].text.lower() and ev[0].speaker
    assert "label" not in ev[0].scores and ev[1].scores["label"] > 0  # the cough detector fires in the cough only
    assert any("cough" in lab for lab in ev[1].labels)
    assert results and all(r.error is None for r in results)


def test_no_spans_means_no_evidence(indexed):
    lib, res = indexed
    a = lib.ask(res.sha256, "Is anyone sneezing?", given_spans=[])
    assert a.evidence == [] and a.answer == "No"
    b = lib.ask(res.sha256, "Does the patient report chest pain?", given_spans=[(5.26, 8.47)])
    assert [(e.start_s, e.end_s) for e in b.evidence] == [(5.26, 8.47)] and b.answer == "Yes"
