"""Annotators' corrections laid over the automatic findings, at read time.

A re-index replaces every automatic finding (new ids, maybe shifted times), so a
correction is not tied to a row id: it remembers the automatic finding it was made on
(concept, speaker, start, end) and is re-applied to the automatic finding that matches
it now -- same concept, same speaker, overlapping times (``TOLERANCE_S`` either side). An
edit whose finding is no longer found stays what it always was: an annotator's finding.
Undoing a correction removes its row (``service.restore_finding`` / ``revert_edit``); redoing
puts the same row back with its id (``service.reinstate_edit``).
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


def claims(auto: list[Finding], edits: list[dict]) -> dict[int, int]:
    """edit row id -> index in ``auto`` of the automatic finding that rejection or edit holds
    (each automatic finding is claimed by at most one rejection and one edit, oldest first)."""
    claimed: dict[str, set[int]] = {"reject": set(), "edit": set()}  # a finding rejected, then edited: both hold
    out: dict[int, int] = {}
    for e in edits:
        if e["action"] in ("reject", "edit") and e["match_concept"] is not None:
            taken = claimed[e["action"]]
            scored = [(s, i) for i, f in enumerate(auto) if i not in taken and (s := matches(e, f)) is not None]
            if scored:
                i = max(scored)[1]
                taken.add(i)
                out[e["id"]] = i
    return out


def apply_edits(auto: list[Finding], edits: list[dict]) -> list[Finding]:
    """The findings as the annotators left them: rejected ones flagged (kept, never dropped),
    edited ones replaced by the annotator's version, added ones included; by time."""
    out = [replace(f) for f in auto]
    superseded: set[int] = set()
    held = claims(auto, edits)
    for e in edits:
        if e["id"] in held:
            if e["action"] == "reject":
                out[held[e["id"]]].rejected = True
            else:
                superseded.add(held[e["id"]])
    extra = [annotator_finding(e) for e in edits if e["action"] in ("edit", "add")]
    kept = [f for i, f in enumerate(out) if i not in superseded]
    return sorted(kept + extra, key=lambda f: (f.start_s, f.end_s, f.concept))


def rejection_of(auto: list[Finding], edits: list[dict], finding_id: int) -> dict | None:
    """The rejection row that holds the automatic finding ``finding_id`` (None: not rejected)."""
    index = next((i for i, f in enumerate(auto) if f.id == finding_id), None)
    held = claims(auto, edits)
    return next((e for e in edits if e["action"] == "reject" and held.get(e["id"]) == index), None) \
        if index is not None else None
