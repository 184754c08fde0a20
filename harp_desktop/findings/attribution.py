"""Whose cough is it: each sound event gets the speaker whose turn it falls in or is next to.

A sound mostly inside a turn is that speaker's. A sound in a pause belongs to a speaker
who talks within ``NEAR_S`` of it; when both sides qualify, the nearer one. Inside a
consultation, a symptom sound (cough, sneeze, throat clearing, wheeze...) in a pause goes
to the patient whenever the patient speaks within ``NEAR_S`` -- and also when only the
clinician does: the clinician pausing around a cough ("take a deep breath" -- cough --
"and once more") is examining the patient, who coughs. A clinician's own cough mid-turn
still counts as the clinician's (it is inside their turn).
"""

from __future__ import annotations

from dataclasses import dataclass

from harp_desktop.findings.model import Section
from harp_desktop.findings.sections import in_sections

NEAR_S = 1.5  # a sound this close to a turn's edge belongs to that turn's speaker
INSIDE = 0.5  # share of the sound inside a turn that makes it that turn's
SYMPTOM_SOUNDS = frozenset({"cough", "throat_clearing", "sneeze", "wheeze", "breathing", "gasp"})


@dataclass
class EventSpeaker:
    tag_id: int
    speaker: str | None  # label, None when nobody speaks within NEAR_S
    method: str  # "in_turn" | "next_to" | "patient_in_consultation" | "none"
    distance_s: float | None  # from the sound to the chosen turn (0 inside)


def attribute_events(tags: list[dict], segments: list[dict], roles: dict[str, str],
                     sections: list[Section]) -> list[EventSpeaker]:
    """``tags``: event rows (id, label, start_s, end_s); ``segments``: rows with a speaker label
    in ``speaker``; ``roles``: label -> role."""
    turns = sorted((s for s in segments if s.get("speaker")), key=lambda s: s["start_s"])
    patients = {k for k, v in roles.items() if v == "patient"}
    return [_one(t, turns, patients, sections) for t in tags]


def _one(tag: dict, turns: list[dict], patients: set[str], sections: list[Section]) -> EventSpeaker:
    a, b = tag["start_s"], tag["end_s"]
    dur = max(b - a, 1e-3)
    best_in, best_ov = None, 0.0
    near: list[tuple[float, dict]] = []
    for s in turns:
        if s["start_s"] > b + NEAR_S:
            break
        ov = min(b, s["end_s"]) - max(a, s["start_s"])
        if ov > best_ov:
            best_in, best_ov = s, ov
        gap = max(0.0, s["start_s"] - b, a - s["end_s"])
        if gap <= NEAR_S:
            near.append((gap, s))
    if best_in is not None and best_ov >= INSIDE * dur:
        return EventSpeaker(tag["id"], best_in["speaker"], "in_turn", 0.0)
    if not near:
        return EventSpeaker(tag["id"], None, "none", None)
    if tag["label"] in SYMPTOM_SOUNDS and patients and in_sections(a, b, sections):
        close_patients = [(g, s) for g, s in near if s["speaker"] in patients]
        if close_patients:
            gap, s = min(close_patients, key=lambda x: x[0])
            return EventSpeaker(tag["id"], s["speaker"], "next_to", round(gap, 3))
        # Only the clinician is near: the person examined coughs (see the module docstring).
        patient = sorted(patients)[0] if len(patients) == 1 else _busiest(patients, turns)
        return EventSpeaker(tag["id"], patient, "patient_in_consultation", None)
    gap, s = min(near, key=lambda x: x[0])
    return EventSpeaker(tag["id"], s["speaker"], "next_to", round(gap, 3))


def _busiest(labels: set[str], turns: list[dict]) -> str:
    talk = {k: sum(t["end_s"] - t["start_s"] for t in turns if t["speaker"] == k) for k in labels}
    return max(sorted(talk), key=lambda k: talk[k])
