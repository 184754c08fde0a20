from harp_desktop.agent.verify import check
from harp_desktop.types import Evidence

EVIDENCE = [Evidence(65.0, 70.0, 1, "SPEAKER_1", "I have chest pain"), Evidence(125.0, 126.0, None)]


def test_citations_inside_evidence_are_kept():
    v = check("She reports chest pain [01:05-01:10] and coughs [02:05].", EVIDENCE)
    assert v.citations == [(65.0, 70.0), (125.0, 125.0)] and not v.dropped and v.validity == 1.0


def test_citations_outside_evidence_are_removed():
    v = check("Also at [03:00] and [01:00-01:30].", EVIDENCE)
    assert v.citations == [] and len(v.dropped) == 2
    assert "[03:00]" not in v.rationale and "unsupported citation removed" in v.rationale


def test_malformed_and_reversed_citations():
    v = check("Bad [99:99] and reversed [01:10-01:05] and none.", EVIDENCE)
    assert v.citations == [] and v.validity == 0.0
    assert check("No citations at all.", EVIDENCE).validity == 0.0
