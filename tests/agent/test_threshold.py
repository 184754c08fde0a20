"""A reading against a threshold (agent/answerers/threshold.py): the value read out, not the words of the rule."""

from __future__ import annotations

import pytest

from harp_desktop.agent.answerers import threshold
from harp_desktop.agent.answerers.context import AnswerContext
from harp_desktop.agent.query import parse


def _ctx(lines: list[tuple[str, str]], question: str) -> AnswerContext:
    ctx = AnswerContext.__new__(AnswerContext)
    ctx.spec = parse(question, 600.0)
    segs = [{"id": i, "start_s": 10.0 * i, "end_s": 10.0 * i + 8, "speaker": who, "text": text}
            for i, (who, text) in enumerate(lines)]
    ctx.__dict__.update(segments=segs, roles={"DR": "clinician", "PT": "patient", "RN": "other"},
                        sections=[("consultation", 0.0, 10.0 * len(lines))], notes=[], rec={"duration_s": 600.0})

    class _Ev:
        def __init__(self, s):
            self.start_s, self.end_s, self.text, self.speaker = s["start_s"], s["end_s"], s["text"], s["speaker"]

    ctx.evidence = lambda s, how, score=None: _Ev(s)
    return ctx


WARD = [("RN", "Overnight his temperature was 38.4 and his oxygen saturation was 95% on air."),
        ("DR", "Good. Aim for sats between 94 and 98."),
        ("DR", "If his sats drop below 92 or he spikes over 39, call the registrar."),
        ("RN", "Below 92 or over 39, call the registrar, will do.")]


@pytest.mark.parametrize(("question", "want"), [
    ("Were his sats under 92%?", "No"),
    ("Is his oxygen saturation less than 96?", "Yes"),
    ("Did his temperature go above 38?", "Yes"),
    ("Was his temp higher than 39?", "No"),
])
def test_the_reading_is_compared_not_the_rule_for_acting(question, want):
    assert threshold.asks(question)
    got = threshold.answer(_ctx(WARD, question))
    assert got is not None and got.first == want, got and got.rationale


def test_a_number_out_of_the_measurements_range_is_not_its_reading():
    lines = [("DR", "If he's off the oxygen by tomorrow, three more days of tablets.")]
    assert threshold.answer(_ctx(lines, "Are his sats below 92?")) is None


@pytest.mark.parametrize("question", ["Was she over 65?", "Did he lose more than 5 kilos?", "Is the pain worse at night?"])
def test_a_question_without_a_measurement_threshold_is_not_one(question):
    assert not threshold.asks(question)
