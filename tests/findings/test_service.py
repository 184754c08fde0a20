"""The whole analysis on a recording shaped like bank_rec_01 (our own words): a man reads a
newspaper aloud in the waiting room, then the consultation, then the patient rings the surgery
through a telephone band. Real extractor, synthetic audio for the band."""

from __future__ import annotations

import pytest

from harp_desktop.api import Library
from harp_desktop.findings import service
from tests.findings.helpers import make_recording, speech_like_audio
from tests.findings.test_sections import CALL, NEWSPAPER, asr_consultation


def turns() -> list[tuple]:
    consult = [(s["start_s"], s["end_s"], s["speaker"], s["text"]) for s in asr_consultation(60.0)]
    call = [(110.0 + 4 * i, 113.5 + 4 * i, spk, text) for i, (spk, text) in enumerate(CALL)]
    return list(NEWSPAPER) + consult + call


COUGHS = [("cough", 11.1, 11.4),  # between two of the reader's sentences
          ("cough", 34.0, 34.4),  # inside the reader's turn
          ("cough", 69.1, 69.5)]  # in the consultation, next to the patient


@pytest.fixture
def analysis(library_dir):
    with Library(library_dir) as lib:
        rid = make_recording(lib.db, turns(), COUGHS)
        yield service.analyse(lib.db, rid, speech_like_audio(140.0, [(110.0, 134.0)]))


def test_sections_roles_and_the_callers_role(analysis):
    assert [s.kind for s in analysis.sections] == ["unrelated", "consultation", "phone_call"]
    assert {k: g.role for k, g in analysis.roles.items()} == {
        "SPEAKER_1": "other", "SPEAKER_2": "patient", "SPEAKER_3": "other", "SPEAKER_4": "clinician",
        "SPEAKER_5": "patient"}  # the patient through the phone line, a new label
    assert analysis.roles["SPEAKER_5"].confidence <= 0.7


def test_findings_come_only_from_the_consultation_and_the_clinical_call(analysis):
    found = analysis.findings
    assert found and all(f.start_s >= 56.0 for f in found)  # not the reader's "fever", "painful", "headache"
    assert ("diarrhoea", "affirmed", "SPEAKER_5") in {(f.concept, f.status, f.speaker) for f in found}
    assert not any(f.speaker == "SPEAKER_3" for f in found)  # the receptionist books; she reports nothing
    assert ("rectal bleeding", "negated", "patient") in {(f.concept, f.status, f.role) for f in found}


def test_waiting_room_coughs_are_not_the_patients(analysis):
    by_time = {e.tag_id: (e.speaker, e.method) for e in analysis.events}
    assert by_time[1] == ("SPEAKER_1", "next_to") and by_time[2] == ("SPEAKER_1", "in_turn")
    assert by_time[3][0] == "SPEAKER_2"
    patient = {k for k, g in analysis.roles.items() if g.role == "patient"}
    assert sum(e.speaker in patient for e in analysis.events) == 1
