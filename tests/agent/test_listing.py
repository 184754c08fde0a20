"""Findings listed as the answer (agent/answerers/speech.py `listing`): several readings asked at once."""

from __future__ import annotations

from harp_desktop.agent.answerers.speech import listing
from tests.agent.test_people import _ctx, _Tools


def test_several_readings_asked_together_are_each_answered():
    ctx = _ctx(["DR: Thanks, how are his observations this morning?",
                "CO: Temperature 37.4, blood pressure 132 over 84, pulse 92 and breathing 18 a minute.",
                "DR: Good, and the heart sounds normal."], question="Blood pressure and pulse this morning?")
    ctx.tools, ctx.rec, ctx.notes = _Tools(ctx.segments), {"duration_s": 60.0, "sha256": "x", "id": 1}, []
    ctx.__dict__["findings"] = ctx._extract_now()
    got = listing(ctx)
    assert got is not None and "132/84" in got.first and "92" in got.first
    assert got.first.count("heart rate") == 1  # one reading per measurement (the heart sounds carry none)
