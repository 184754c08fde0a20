"""How findings are worded and coloured for people: the window's Findings panel and the PDF
report's cited summary say the same words (no Qt, no reportlab).

The stored statuses are the extractor's terms (``negated``, ``hypothetical``); a clinician
reads "denied" and "conditional advice". The colour always comes with the word, so the
status never depends on telling colours apart.
"""

from __future__ import annotations

from harp_desktop.findings.model import KINDS, Finding
from harp_desktop.retrieval.localize import format_clock

STATUS_WORDS = {"affirmed": "affirmed", "negated": "denied", "historical": "past",
                "hypothetical": "conditional advice", "family": "family/other", "uncertain": "uncertain"}
# Present findings stand out (red); denials are reassuring (green); the rest are muted hues.
STATUS_COLORS = {"affirmed": "#c62828", "negated": "#2e7d32", "historical": "#6d4c41",
                 "hypothetical": "#1565c0", "family": "#6a1b9a", "uncertain": "#ef6c00"}
REJECTED_COLOR = "#9e9e9e"
KIND_TITLES = {"symptom": "Symptoms", "medication": "Medications", "allergy": "Allergies", "vital": "Vital signs",
               "examination": "Examination", "diagnosis": "Diagnoses considered", "plan": "Plan",
               "history": "History"}


def status_word(status: str) -> str:
    return STATUS_WORDS.get(status, status)


def status_color(status: str) -> str:
    return STATUS_COLORS.get(status, "#546e7a")


def status_from_word(word: str) -> str:
    """The stored status for a word the panel shows (or the stored status itself)."""
    return next((k for k, v in STATUS_WORDS.items() if v == word), word)


def concept_text(f: Finding) -> str:
    """'paracetamol (1 g three times a day)'; the value only when one was said."""
    return f"{f.concept} ({f.value})" if f.value else f.concept


def said_by(f: Finding, names: dict[str, str] | None = None) -> str:
    """'patient (Mrs Patel)', 'clinician', or the speaker's name/label when no role is known."""
    name = (names or {}).get(f.speaker or "", f.speaker or "")
    if f.role:
        return f"{f.role} ({name})" if name and name != f.speaker else f.role
    return name or "unknown speaker"


def citation(f: Finding) -> str:
    return f"[{format_clock(f.start_s)}]"


def grouped(findings: list[Finding]) -> list[tuple[str, list[Finding]]]:
    """(kind, findings by time) for every kind that has any, in KINDS order (unknown kinds last)."""
    by: dict[str, list[Finding]] = {}
    for f in findings:
        by.setdefault(f.kind, []).append(f)
    order = [k for k in KINDS if k in by] + sorted(k for k in by if k not in KINDS)
    return [(k, sorted(by[k], key=lambda f: (f.start_s, f.end_s))) for k in order]
