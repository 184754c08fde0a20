"""The report's cited summary (issue 17): the visit's findings in a few lines, each with the
moment it was said and its status, re-checked against the transcript (no reportlab).

Sections, in the order a clinical note reads: Reported, Denied, Medications, Allergies,
Examination, Diagnoses considered, Plan. A clinician's conditional advice ("if you get chest
pain, call us") is safety-netting, so it belongs to the plan, never to what was reported.
Rejected findings are left out (they are never answered from); edited ones are marked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harp_desktop.findings import display as fd
from harp_desktop.findings.model import Finding
from harp_desktop.retrieval.localize import format_clock

SECTIONS = ("Reported", "Denied", "Medications", "Allergies", "Examination", "Diagnoses considered", "Plan")
OVERLAP_SLACK_S = 0.5  # segment edges move a little between the findings stage and a re-segmentation
MIN_WORDS_FOUND = 0.6  # share of the finding's words that the cited speech must contain


@dataclass
class Cite:
    start_s: float
    end_s: float
    who: str  # the role, or the speaker's name when no role is known
    verified: bool  # the moment is transcribed speech of that speaker, carrying the finding's words


@dataclass
class SummaryLine:
    name: str  # the concept, e.g. "paracetamol"
    value: str | None  # as said, e.g. "1 g three times a day"
    status: str  # stored status, e.g. "negated"
    cites: list[Cite] = field(default_factory=list)
    edited: bool = False
    speakers: set[str | None] = field(default_factory=set)

    @property
    def concept(self) -> str:
        """'paracetamol (1 g three times a day)'."""
        return f"{self.name} ({self.value})" if self.value else self.name

    @property
    def status_word(self) -> str:
        return fd.status_word(self.status)

    def takes(self, f: Finding) -> bool:
        """The same fact said again: same concept, status and value. A mention without a value
        joins a line with one only when the same voice said both, so a clinician's "138/84"
        is never printed as said by the patient who mentioned "my blood pressure"."""
        if f.concept.casefold() != self.name.casefold() or f.status != self.status:
            return False
        if (f.value or "").casefold() == (self.value or "").casefold():
            return True
        return (not f.value or not self.value) and self.speakers == {f.speaker}

    def text(self) -> str:
        """'cough (a week) — affirmed — [00:11], [01:20] said by patient' (plain, for Markdown and tests)."""
        return f"{self.concept} \u2014 {self.status_word} \u2014 {cite_text(self.cites)}"


@dataclass
class Summary:
    sections: list[tuple[str, list[SummaryLine]]]
    note: str = ""  # why there is nothing to show, or ""
    rejected: int = 0

    def lines(self) -> list[SummaryLine]:
        return [ln for _, lines in self.sections for ln in lines]


def cite_text(cites: list[Cite]) -> str:
    """Citations grouped by who said them, in time order: '[00:11], [01:20] said by patient; [02:05] ...'."""
    groups: dict[str, list[Cite]] = {}
    for c in sorted(cites, key=lambda c: c.start_s):
        groups.setdefault(c.who, []).append(c)
    return "; ".join(", ".join(f"[{format_clock(c.start_s)}]" for c in cs) + f" said by {who}" for who, cs in groups.items())


def section_of(f: Finding) -> str:
    if f.kind == "medication":
        return "Medications"
    if f.kind == "allergy":
        return "Allergies"
    if f.kind in ("examination", "vital"):
        return "Examination"
    if f.kind == "plan" or f.status == "hypothetical":
        return "Plan"
    if f.status == "family":  # "my father had a heart attack": history the patient reports, whatever its kind
        return "Reported"
    if f.kind == "diagnosis":
        return "Diagnoses considered"
    return "Denied" if f.status == "negated" else "Reported"


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9']+", text.casefold()))


def verified(f: Finding, segments: list[dict]) -> bool:
    """The cited span is speech the transcript still holds: a segment of the finding's speaker
    overlapping it, and the finding's words in the overlapping speech (a re-index that moved
    or changed the words makes the line unverified rather than silently wrong)."""
    near = [s for s in segments if s["start_s"] < f.end_s + OVERLAP_SLACK_S and s["end_s"] > f.start_s - OVERLAP_SLACK_S]
    ids = set(f.segment_ids)
    if ids and ids <= {s["id"] for s in segments}:  # else re-segmented since (an annotator's finding): by time
        near = [s for s in near if s["id"] in ids]
    if not near or (f.speaker and f.speaker not in {s["speaker_label"] for s in near}):
        return False
    said = _words(f.text)
    if not said:  # added by hand with no words: the speaker's speech at that moment is the check
        return True
    heard = set().union(*(_words(s["text"] or "") for s in near))
    return len(said & heard) >= MIN_WORDS_FOUND * len(said)


def build(findings: list[Finding], segments: list[dict], names: dict[str, str] | None = None) -> Summary:
    names = names or {}
    kept = [f for f in findings if not f.rejected]
    if not kept:
        return Summary([], "No clinical findings were found in this recording.", len(findings) - len(kept))
    order: dict[str, list[SummaryLine]] = {s: [] for s in SECTIONS}
    for f in sorted(kept, key=lambda f: (f.start_s, f.end_s)):
        lines = order[section_of(f)]
        line = next((ln for ln in lines if ln.takes(f)), None)
        if line is None:
            line = SummaryLine(f.concept, f.value, f.status)
            lines.append(line)
        line.value = line.value or f.value
        line.speakers.add(f.speaker)
        who = f.role or names.get(f.speaker or "", f.speaker or "") or "unknown speaker"
        line.cites.append(Cite(f.start_s, f.end_s, who, verified(f, segments)))
        line.edited = line.edited or f.source == "annotator"
    return Summary([(s, lines) for s, lines in order.items() if lines], "", len(findings) - len(kept))


def gather(lib, rec: dict) -> Summary:
    """The summary of a recording in ``lib``, or one with a note saying why there is none."""
    reader = getattr(lib, "findings", None)
    if reader is None:
        return Summary([], "No findings: this version of HARP Desktop has no findings layer.")
    try:
        found = reader(rec["sha256"])
    except LookupError:
        return Summary([], "No findings: this recording was indexed before the findings stage; index it again "
                           "(only that stage runs) to add this summary.")
    rid = rec["id"]
    names = {s["label"]: s["name"] or s["label"] for s in lib.db.speakers(rid)}
    return build(found, lib.db.segments(rid), names)
