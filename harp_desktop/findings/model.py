"""The shared vocabulary of the findings layer: what a finding is and the closed sets of values.

Everything downstream (the answer layer, the report, the window, ``harp findings --json``)
reads these objects; the extractor and the store are the only writers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

KINDS = ("symptom", "medication", "allergy", "vital", "examination", "diagnosis", "plan", "history")
STATUSES = ("affirmed", "negated", "historical", "hypothetical", "family", "uncertain")
ROLES = ("patient", "clinician", "other")
CATEGORIES = ("respiratory", "cardiovascular", "gastrointestinal", "musculoskeletal", "ENT", "neurological",
              "general", "mental health", "skin", "genitourinary", "endocrine", "other")
SECTION_KINDS = ("consultation", "phone_call", "dictation", "unrelated")


@dataclass
class Finding:
    """One clinical statement. ``speaker`` is the voice whose words carry the fact (the patient's
    "No" to "Any blood in it?" makes ``speaker`` the patient, ``start_s``/``end_s`` span both turns)."""

    concept: str  # preferred term from the vocabulary, e.g. "haemoptysis"
    category: str  # one of CATEGORIES (body system)
    kind: str  # one of KINDS
    status: str  # one of STATUSES
    speaker: str | None  # speaker label as stored (SPEAKER_n), not the display name
    role: str | None  # one of ROLES, or None when unknown
    start_s: float
    end_s: float
    text: str  # the words it came from (both turns for a question-answer pair)
    value: str | None = None  # dose / frequency / measurement / duration as said ("38.2", "1 g three times a day")
    segment_ids: tuple[int, ...] = ()
    id: int | None = None  # row id once stored
    source: str = "auto"  # "auto" (the index) or "annotator" (edited or added by a person)
    rejected: bool = False  # an annotator rejected it: kept, shown struck through, never answered from

    def to_json(self) -> dict:
        d = asdict(self)
        d["start_s"], d["end_s"] = round(self.start_s, 3), round(self.end_s, 3)
        d["segment_ids"] = list(self.segment_ids)
        return d


@dataclass
class Section:
    kind: str  # one of SECTION_KINDS
    start_s: float
    end_s: float
    confidence: float = 1.0


@dataclass
class Turn:
    """What the extractor reads: one diarised segment with its speaker's role."""

    segment_id: int
    start_s: float
    end_s: float
    speaker: str | None
    role: str | None
    text: str
