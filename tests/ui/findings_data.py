"""A synthetic consultation with findings of every kind and status, written straight into a
library (no audio, no models) for the Findings panel and the report's cited summary. No Qt."""

from __future__ import annotations

from harp_desktop.findings.model import Finding, Turn
from tests.findings.helpers import CONSULTATION, make_recording, run_stage

SHA = "cd" * 32
TURNS = [*CONSULTATION,
         (46.0, 50.0, "SPEAKER_2", "If you get any chest pain or feel short of breath, call us straight away."),
         (51.0, 54.0, "SPEAKER_3", "My father had asthma."),
         (55.0, 58.0, "SPEAKER_3", "I had a headache last week but it is gone now."),
         (59.0, 62.0, "SPEAKER_3", "I am not sure, maybe a bit dizzy."),
         (63.0, 66.0, "SPEAKER_3", "I am allergic to penicillin."),
         (67.0, 70.0, "SPEAKER_2", "I will send a request for a chest X-ray.")]

# (word in the turn, concept, category, kind, status, value, with the turn before: a question-answer pair)
RULES = [
    ("cough for", "cough", "respiratory", "symptom", "affirmed", "about a week", False),
    ("nothing comes up", "sputum", "respiratory", "symptom", "negated", None, True),
    ("thirty eight", "fever", "general", "symptom", "affirmed", None, True),
    ("thirty eight", "temperature", "general", "vital", "affirmed", "38.2", False),
    ("listen to your chest", "chest auscultation", "respiratory", "examination", "affirmed", None, False),
    ("viral chest infection", "viral chest infection", "respiratory", "diagnosis", "uncertain", None, False),
    ("paracetamol", "paracetamol", "general", "medication", "affirmed", None, False),
    ("chest pain", "chest pain", "cardiovascular", "symptom", "hypothetical", None, False),
    ("father had", "asthma", "respiratory", "history", "family", None, False),
    ("headache", "headache", "neurological", "symptom", "historical", "last week", False),
    ("dizzy", "dizziness", "neurological", "symptom", "uncertain", None, False),
    ("allergic", "penicillin", "general", "allergy", "affirmed", None, False),
    ("x-ray", "chest X-ray", "respiratory", "plan", "affirmed", None, False),
]


def rich_extract(turns: list[Turn]) -> list[Finding]:
    """A stand-in for findings.extract: one finding per rule whose words a turn contains."""
    out = []
    for i, t in enumerate(turns):
        for word, concept, cat, kind, status, value, pair in RULES:
            if word not in t.text.lower():
                continue
            first = turns[i - 1] if pair and i else t
            text = f"{first.text} {t.text}" if first is not t else t.text
            ids = (first.segment_id, t.segment_id) if first is not t else (t.segment_id,)
            out.append(Finding(concept, cat, kind, status, t.speaker, t.role, first.start_s, t.end_s, text, value,
                               ids))
    return out


def make_consultation(lib) -> str:
    """The consultation in ``lib`` with the findings stage run; returns its sha256."""
    rid = make_recording(lib.db, TURNS, sha=SHA)
    run_stage(lib.db, rid, rich_extract)
    return SHA
