"""Annotators' corrections laid over the automatic findings, at read time.

A re-index replaces every automatic finding (new ids, maybe shifted times), so a
correction is not tied to a row id: it remembers the automatic finding it was made on
(concept, speaker, start, end) and is re-applied to the automatic finding that matches
it now -- same concept, same speaker, overlapping times (``TOLERANCE_S`` either side). An
edit whose finding is no longer found stays what it always was: an annotator's finding.
"""

from __future__ import annotations

from dataclasses import replace

from harp_desktop.findings.model import Finding
from harp_desktop.findings.store import annotator_finding

TOLERANCE_S = 1.0  # re-segmentation moves turn edges by well under a second


def matches(edit: dict, f: Finding) -> float | None:
    """How well an edit's remembered finding fits ``f`` (higher is better), or None."""
    if (edit["match_concept"] or "").casefold() != f.concept.casefold():
        return None
    if edit["match_speaker"] and f.speaker and edit["match_speaker"] != f.speaker:
        return None
    a, b = edit["match_start_s"], edit["match_end_s"]
    overlap = min(b, f.end_s) - max(a, f.start_s)
    if overlap < -TOLERANCE_S:
        return None
    return overlap - abs(a - f.start_s) * 0.01  # ties: the nearer start


def apply_edits(auto: list[Finding], edits: list[dict]) -> list[Finding]:
    """The findings as the annotators left them: rejected ones flagged (kept, never dropped),
    edited ones replaced by the annotator's version, added ones included; by time."""
    out = [replace(f) for f in auto]
    claimed: dict[str, set[int]] = {"reject": set(), "edit": set()}  # a finding rejected, then edited: both hold
    superseded: set[int] = set()
    extra: list[Finding] = []
    for e in edits:
        if e["action"] in ("reject", "edit") and e["match_concept"] is not None:
            taken = claimed[e["action"]]
            scored = [(s, i) for i, f in enumerate(out) if i not in taken and (s := matches(e, f)) is not None]
            if scored:
                i = max(scored)[1]
                taken.add(i)
                if e["action"] == "reject":
                    out[i].rejected = True
                else:
                    superseded.add(i)
        if e["action"] in ("edit", "add"):
            extra.append(annotator_finding(e))
    kept = [f for i, f in enumerate(out) if i not in superseded]
    return sorted(kept + extra, key=lambda f: (f.start_s, f.end_s, f.concept))
