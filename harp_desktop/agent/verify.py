"""Check every citation against the retrieved evidence; drop (and report) the rest."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harp_desktop.retrieval.localize import parse_clock
from harp_desktop.types import Evidence

CITATION = re.compile(r"\[(\d{1,2}(?::\d{2}){1,2})(?:\s*[-–]\s*(\d{1,2}(?::\d{2}){1,2}))?\]")
TOLERANCE_S = 1.0


@dataclass
class Verdict:
    rationale: str
    citations: list[tuple[float, float]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)

    @property
    def validity(self) -> float:
        total = len(self.citations) + len(self.dropped)
        return len(self.citations) / total if total else 0.0


def supported_by(start: float, end: float, evidence: list[Evidence]) -> bool:
    return any(start >= ev.start_s - TOLERANCE_S and end <= ev.end_s + TOLERANCE_S for ev in evidence)


def check(rationale: str, evidence: list[Evidence]) -> Verdict:
    """Keep citations that fall inside an evidence span; strike out the others."""
    verdict = Verdict(rationale)
    out = []
    pos = 0
    for m in CITATION.finditer(rationale):
        a = parse_clock(m.group(1))
        b = parse_clock(m.group(2)) if m.group(2) else a
        out.append(rationale[pos : m.start()])
        if a is not None and b is not None and b >= a and supported_by(a, b, evidence):
            verdict.citations.append((a, b))
            out.append(m.group(0))
        else:
            verdict.dropped.append(m.group(0))
            out.append("[unsupported citation removed]")
        pos = m.end()
    out.append(rationale[pos:])
    verdict.rationale = "".join(out)
    return verdict
