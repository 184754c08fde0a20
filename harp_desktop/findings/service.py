"""What the index stage and the Library call: analyse a recording (roles, sections, findings,
whose sounds), store it, and read or correct it. Library methods in api.py are one line each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from harp_desktop.findings import store
from harp_desktop.findings.attribution import EventSpeaker, attribute_events
from harp_desktop.findings.edits import apply_edits, rejection_of
from harp_desktop.findings.edits import matches as edit_fit
from harp_desktop.findings.model import CATEGORIES, KINDS, ROLES, STATUSES, Finding, Section, Turn
from harp_desktop.findings.roles import RoleGuess, assign_roles
from harp_desktop.findings.sections import clinical_sections, find_sections, phone_band, rung_in
from harp_desktop.store.db import LibraryDB

Extractor = Callable[[list[Turn]], list[Finding]]


@dataclass
class Analysis:
    roles: dict[str, RoleGuess]
    sections: list[Section]
    findings: list[Finding]
    events: list[EventSpeaker] = field(default_factory=list)
    extractor: bool = True  # False: no extractor installed yet, so no findings

    def info(self) -> dict:
        return {"roles": {k: g.role for k, g in sorted(self.roles.items())},
                "sections": [[s.kind, round(s.start_s, 1), round(s.end_s, 1)] for s in self.sections],
                "findings": len(self.findings), "events_attributed": sum(e.speaker is not None for e in self.events),
                "extractor": self.extractor}


def load_extractor() -> Extractor | None:
    """findings.extract.extract, or None while that module does not exist (its own import
    errors -- a missing dependency -- are real errors and propagate)."""
    try:
        from harp_desktop.findings.extract import extract
    except ModuleNotFoundError as exc:
        if exc.name != "harp_desktop.findings.extract":
            raise
        return None
    return extract


def _segments(db: LibraryDB, rid: int) -> list[dict]:
    # The label, not the display name: roles and findings are keyed by SPEAKER_n.
    return [{**s, "speaker": s["speaker_label"]} for s in db.segments(rid)]


def _with_words(db: LibraryDB, rid: int, segments: list[dict]) -> list[dict]:
    """Segment rows with their words' spans (``words``), for whose-sound attribution."""
    spans = store.word_spans(db, rid)
    return [{**s, "words": spans.get(s["id"], [])} for s in segments]


def clinical_turns(segments: list[dict], sections: list[Section], roles: dict[str, str]
                   ) -> list[tuple[Section, list[Turn]]]:
    """The extractor's input, one part per clinical section (a consultation, a clinical phone
    call): the turns whose middle lies in it, with their roles. Each is read on its own, so the
    consultation's last question is never paired with the call's first words."""
    ordered = sorted((s for s in segments if s["text"].strip()), key=lambda s: s["start_s"])
    out = []
    for sec in clinical_sections(sections, segments):
        turns = [Turn(s["id"], s["start_s"], s["end_s"], s["speaker"], roles.get(s["speaker"] or ""), s["text"])
                 for s in ordered if sec.start_s <= (s["start_s"] + s["end_s"]) / 2 <= sec.end_s]
        if turns:
            out.append((sec, turns))
    return out


def _extract(extractor: Extractor, parts: list[tuple[Section, list[Turn]]]) -> list[Finding]:
    """Findings of every part. On a phone call only the patient's and a clinician's words count:
    the third voice there is the surgery's staff booking a test, not a companion who knows the
    patient (whose words, in a consultation, do count)."""
    out = []
    for sec, turns in parts:
        found = extractor(turns)
        out += [f for f in found if sec.kind != "phone_call" or f.role in ("patient", "clinician")]
    return out


def analyse(db: LibraryDB, rid: int, audio: np.ndarray | None = None, extractor: Extractor | None = None
            ) -> Analysis:
    segs = _segments(db, rid)
    phone = (lambda s: phone_band(audio, s["start_s"], s["end_s"])) if audio is not None else None
    sections = rung_in(find_sections(segs, phone),
                       [(t["start_s"], t["end_s"]) for t in db.tags(rid, "event") if t["label"] == "telephone"])
    calls = [s for s in clinical_sections(sections, segs) if s.kind == "phone_call"]
    roles = assign_roles(segs, sections, store.manual_roles(db, rid), calls)
    extractor = extractor or load_extractor()
    plain = {k: g.role for k, g in roles.items()}
    found = _extract(extractor, clinical_turns(segs, sections, plain)) if extractor else []
    events = attribute_events(db.tags(rid, "event"), _with_words(db, rid, segs), plain, sections)
    return Analysis(roles, sections, found, events, extractor is not None)


def write_analysis(db: LibraryDB, rid: int, a: Analysis) -> None:
    """All of it; the caller holds the transaction (the stage's ctx.finish)."""
    store.write_roles(db, rid, a.roles)
    store.write_sections(db, rid, a.sections)
    store.write_findings(db, rid, a.findings)
    store.write_event_speakers(db, rid, a.events)


# -- reading --------------------------------------------------------------------------
def roles(db: LibraryDB, rid: int) -> dict[str, str]:
    return {k: v["role"] for k, v in store.stored_roles(db, rid).items() if v["role"]}


def findings(db: LibraryDB, rid: int) -> list[Finding]:
    """Automatic findings with annotators' edits applied; rejected ones kept, flagged. Roles
    follow the speakers' current roles (a role corrected by hand shows at once)."""
    current = roles(db, rid)
    out = apply_edits(store.auto_findings(db, rid), store.finding_edits(db, rid))
    return [replace(f, role=current.get(f.speaker, f.role)) if f.speaker else f for f in out]


def event_speakers(db: LibraryDB, rid: int) -> list[dict]:
    current = roles(db, rid)
    return [{**e, "role": current.get(e["speaker"]) if e["speaker"] else None} for e in store.event_speakers(db, rid)]


# -- corrections ----------------------------------------------------------------------
def set_role(db: LibraryDB, rid: int, speaker: str, role: str, annotator: str | None = None) -> dict[str, str]:
    """Set a voice's role by hand (it overrides the automatic one, also after a re-index);
    findings and sound attributions are recomputed with it, sections stay."""
    if role not in ROLES:
        raise ValueError(f"unknown role '{role}'; choose one of {', '.join(ROLES)}")
    rows = [s for s in db.speakers(rid) if speaker in (s["label"], str(s["id"]), s["name"])]
    if not rows:
        raise LookupError(f"no speaker '{speaker}' in this recording")
    label = rows[0]["label"]
    with db.transaction():
        store.set_manual_role(db, rid, label, role, annotator)
        segs, secs = _segments(db, rid), store.sections(db, rid)
        current = roles(db, rid)
        extractor = load_extractor()
        if extractor is not None:
            store.write_findings(db, rid, _extract(extractor, clinical_turns(segs, secs, current)))
        store.write_event_speakers(db, rid, attribute_events(db.tags(rid, "event"), _with_words(db, rid, segs),
                                                             current, secs))
    return roles(db, rid)


def _check(changes: dict) -> dict:
    bad = set(changes) - set(store.FINDING_FIELDS)
    if bad:
        raise ValueError(f"unknown finding field(s): {', '.join(sorted(bad))}")
    for key, allowed in (("kind", KINDS), ("status", STATUSES), ("category", CATEGORIES), ("role", ROLES)):
        if key in changes and changes[key] is not None and changes[key] not in allowed:
            raise ValueError(f"unknown {key} '{changes[key]}'; choose one of {', '.join(allowed)}")
    if "start_s" in changes or "end_s" in changes:
        a, b = changes.get("start_s", 0.0), changes.get("end_s", float("inf"))
        if a is None or b is None or a < 0 or b < a:
            raise ValueError("a finding's times must satisfy 0 <= start_s <= end_s")
    return changes


def _current(db: LibraryDB, rid: int, finding_id: int) -> Finding:
    for f in findings(db, rid):
        if f.id == finding_id:
            return f
    raise LookupError(f"no finding {finding_id} in this recording")


def edit_finding(db: LibraryDB, rid: int, finding_id: int, annotator: str | None = None, **changes) -> Finding:
    """Change a finding. An automatic one becomes an annotator's finding (new, negative id)
    that replaces it now and after every re-index; an annotator's one is updated in place."""
    _check(changes)
    f = _current(db, rid, finding_id)
    with db.transaction():
        if f.source == "auto":
            new_id = -store.add_edit(db, rid, "edit", f, replace(f, **changes, source="annotator"), annotator)
        else:
            store.update_edit(db, -finding_id, changes)
            new_id = finding_id
    return _current(db, rid, new_id)


def reject_finding(db: LibraryDB, rid: int, finding_id: int, annotator: str | None = None) -> Finding:
    """Mark a finding wrong: kept and shown as rejected, never answered from, also after a re-index."""
    f = _current(db, rid, finding_id)
    with db.transaction():
        if f.source == "auto":
            store.add_edit(db, rid, "reject", f, None, annotator)
        else:
            store.update_edit(db, -finding_id, {"rejected": True})
    return _current(db, rid, finding_id)


def add_finding(db: LibraryDB, rid: int, finding: Finding, annotator: str | None = None) -> Finding:
    _check({k: getattr(finding, k) for k in ("kind", "status", "category", "role", "start_s", "end_s")})
    with db.transaction():
        new_id = -store.add_edit(db, rid, "add", None, replace(finding, source="annotator", id=None), annotator)
    return _current(db, rid, new_id)


# -- taking a correction back (the Findings panel's undo) ----------------------------------
def restore_finding(db: LibraryDB, rid: int, finding_id: int) -> tuple[Finding, dict | None]:
    """Undo a rejection: the finding counts again. An automatic finding's rejection row is
    removed and returned (``reinstate_edit`` puts it back); an annotator's finding is flagged
    back in place (None)."""
    f = _current(db, rid, finding_id)
    if not f.rejected:
        raise ValueError(f"finding {finding_id} is not rejected")
    with db.transaction():
        if f.source == "annotator":
            store.update_edit(db, -finding_id, {"rejected": False})
            row = None
        else:
            held = rejection_of(store.auto_findings(db, rid), store.finding_edits(db, rid), finding_id)
            if held is None:
                raise LookupError(f"no rejection holds finding {finding_id}")
            row = store.delete_edit(db, rid, held["id"])
    return _current(db, rid, finding_id), row


def revert_edit(db: LibraryDB, rid: int, finding_id: int) -> tuple[Finding | None, dict]:
    """Undo an annotator's finding (an edit of an automatic one, or one added by hand): its row
    is removed and returned; the automatic finding it replaced shows again and is returned
    (None for an added one, or when the automatic finding is gone after a re-index)."""
    if finding_id >= 0:
        raise ValueError(f"finding {finding_id} is the index's own: there is no edit to revert")
    with db.transaction():
        row = store.delete_edit(db, rid, -finding_id)
    if row["action"] != "edit":
        return None, row
    return _auto_for(db, rid, row), row


def _auto_for(db: LibraryDB, rid: int, row: dict, rejected: bool = False) -> Finding | None:
    """The automatic finding (as shown now) that a correction row was made on."""
    scored = [(s, -i, f) for i, f in enumerate(findings(db, rid))
              if f.source == "auto" and f.rejected == rejected and (s := edit_fit(row, f)) is not None]
    return max(scored, key=lambda t: t[:2])[2] if scored else None


def reinstate_edit(db: LibraryDB, rid: int, row: dict) -> Finding | None:
    """Redo: put a row that ``restore_finding`` or ``revert_edit`` removed back, with its id.
    Returns the finding it makes (the annotator's finding, or the rejected automatic one)."""
    if row["recording_id"] != rid:
        raise ValueError("that correction belongs to another recording")
    with db.transaction():
        store.insert_edit_row(db, row)
    if row["action"] in ("edit", "add"):
        return _current(db, rid, -row["id"])
    return _auto_for(db, rid, row, rejected=True)
