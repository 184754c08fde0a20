"""Silences between turns (agent/answerers/silence.py), on a stand-in context with our own timings."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from harp_desktop.agent.answerers import silence
from harp_desktop.agent.query import parse

TURNS = [(0.0, 4.0), (5.0, 9.0), (9.5, 12.0), (40.0, 44.0), (45.0, 48.0), (60.0, 62.0), (62.5, 70.0)]


def ctx_for(question: str, windows=((0.0, 70.0),)) -> SimpleNamespace:
    segs = [{"start_s": a, "end_s": b, "text": "words"} for a, b in TURNS]
    return SimpleNamespace(spec=parse(question, 70.0), windows=list(windows), segments=segs,
                           window_words=lambda: "in the recording")


@pytest.mark.parametrize("question", [
    "When does the long silence start?",
    "At what point is there a lengthy pause in the conversation?",
    "Find the biggest gap in the talking.",
])
def test_the_long_silence_is_the_longest_gap_between_turns(question):
    got = silence.answer(ctx_for(question))
    assert silence.asks(question) and got.first == "00:12" and got.cited[0].end_s == 40.0


def test_how_long_how_many_and_whether():
    assert silence.answer(ctx_for("How long is the longest silence?")).first == "28 seconds"
    assert silence.answer(ctx_for("How many pauses longer than 10 seconds are there?")).first == "2"
    assert silence.answer(ctx_for("Is there a silence of more than 30 seconds?")).first == "No"
    assert silence.answer(ctx_for("Is there a long silence?", windows=[(40.0, 70.0)])).first == "Yes"


def test_short_pauses_between_turns_are_no_silence():
    got = silence.answer(ctx_for("Is there a long silence?", windows=[(0.0, 12.0)]))
    assert got.first == "No" and got.rationale.startswith("No —")


def test_a_silence_question_is_not_a_question_about_words():
    assert not silence.asks("Does she say she feels anxious when things go quiet at work?")


def test_something_dated_by_a_silence_is_not_the_silence():
    q = "What was her pulse after the silent minute-long count, roughly?"
    assert not silence.asks(q, parse(q, 70.0).operation)
    q = "After the long pause, what does the doctor say?"
    assert not silence.asks(q, parse(q, 70.0).operation)
