"""Whose cough is it: each sound event gets the speaker whose turn it falls in or is next to.

A sound inside a turn is that speaker's. With the turn's ASR words (``words``: (start,
end) pairs on a segment row) "inside" means words of the turn end before the sound and
others start after it: the speaker paused mid-turn to cough. A sound over a turn's first or
last word (someone coughs as another finishes or starts: one cannot talk and cough at
once) is next to the turn, not in it; so is a sound in the silent tail of a segment whose
words ended long before (segment bounds run on over pauses). Without words, a sound mostly
inside a segment is its speaker's.

A sound in a pause belongs to a speaker who talks within ``NEAR_S`` of it; when both
sides qualify, the nearer one. Inside a consultation, a symptom sound (cough, sneeze,
throat clearing, wheeze...) in a pause goes to the patient whenever the patient speaks
within ``NEAR_S`` -- and also when only the clinician does, or nobody (a silence of the examination): the clinician pausing around a
cough ("take a deep breath" -- cough -- "and once more") is examining the patient, who
coughs. So does a symptom sound between a clinician's sentences inside one of their turns (ASR joins "...will
ring you." -- cough -- "If you get chest pain..." into one turn): on every recording here such a cough was the
patient's, while the clinician spoke on. Outside a
consultation (a waiting room, a call) strangers talk and cough near each other: a sound
belongs to a speaker only when it is right against their speech (``NEAR_OUTSIDE_S``),
otherwise to nobody (on the bank recordings, bystanders' coughs 0.9-1.4 s from a
stranger's speech were given to that stranger).

A symptom sound that follows one of the same kind within ``BOUT_S``, nobody speaking between,
is the same person's bout (a double cough, a run of sneezes), however far it is from speech:
the second cough of a bout often falls just beyond ``NEAR_OUTSIDE_S`` of the turn the first
one touched.

A symptom sound still nobody's that someone remarks on at once ("There's that cough again, here, have a sip of
your water", "bless you") is the patient's: the remark is made to or of the person they came with.

Speaker embeddings of the cough audio are not used: a 0.3 s cough carries little of the
voice, and no recording here has a cougher's own coughs and speech to measure it on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harp_desktop.findings.model import Section
from harp_desktop.findings.sections import in_sections
from harp_desktop.index.ambient_labels import AMBIENT_LABELS

NEAR_S = 1.5  # in a consultation, a sound this close to a turn's edge belongs to that turn's speaker
NEAR_OUTSIDE_S = 0.75  # elsewhere, this close
INSIDE = 0.5  # without words: share of the sound inside a turn that makes it that turn's
WORD_TOL_S = 0.1  # a word ending / starting this far inside the sound still counts as before / after it
BOUT_S = 1.5  # a symptom sound this soon after one of its kind, with no speech between, continues its bout
SYMPTOM_SOUNDS = frozenset({"cough", "throat_clearing", "sneeze", "wheeze", "breathing", "gasp"})


@dataclass
class EventSpeaker:
    tag_id: int
    speaker: str | None  # label, None when nobody speaks within NEAR_S
    method: str  # "in_turn" | "next_to" | "patient_in_consultation" | "bout" | "remarked" | "none"
    distance_s: float | None  # from the sound to the chosen turn (0 inside)


def attribute_events(tags: list[dict], segments: list[dict], roles: dict[str, str],
                     sections: list[Section]) -> list[EventSpeaker]:
    """``tags``: event rows (id, label, start_s, end_s); ``segments``: rows with a speaker label
    in ``speaker`` and, when known, their ASR words' (start, end) in ``words``; ``roles``:
    label -> role."""
    turns = sorted((s for s in segments if s.get("speaker")), key=lambda s: s["start_s"])
    patients = {k for k, v in roles.items() if v == "patient"}
    clinicians = {k for k, v in roles.items() if v == "clinician"}
    # A phone ringing or music belongs to the room, not to whoever was speaking over it.
    sounds = [t for t in tags if t["label"] not in AMBIENT_LABELS]
    out = [_one(t, turns, patients, sections, clinicians) for t in sounds]
    order = sorted(range(len(sounds)), key=lambda i: sounds[i]["start_s"])
    _bouts([sounds[i] for i in order], [out[i] for i in order], turns)
    _remarked([sounds[i] for i in order], [out[i] for i in order], turns, patients)
    return out


# Someone remarks on the sound just heard, to or of the one who made it: "There's that cough again, here, have a sip
# of your water", "coughs no better, you tell them about that", "bless you".
REMARK = re.compile(r"\b(that|this|your|his|her|the) (cough|coughing|sneeze|sneezing)\b|\bbless (you|him|her)\b"
                    r"|\bcough\w*\b.{0,40}\b(you|your)\b", re.I)
REMARK_S = 6.0  # a remark this soon after the sound is about it


def _remarked(sounds: list[dict], out: list[EventSpeaker], turns: list[dict], patients: set[str]) -> None:
    """A symptom sound nobody's speech is next to (a waiting room) that someone remarks on at once is the patient's:
    the remark is made to or of the person they came with (see REMARK); the patient is who the recording is about."""
    if not patients:
        return
    patient = _the_patient(patients, turns)
    for tag, got in zip(sounds, out, strict=True):
        if got.speaker is not None or tag["label"] not in SYMPTOM_SOUNDS:
            continue
        said = [s for s in turns if tag["end_s"] - 0.2 <= s["start_s"] <= tag["end_s"] + REMARK_S]
        if said and REMARK.search(said[0].get("text") or ""):
            got.speaker, got.method = patient, "remarked"
            got.distance_s = round(said[0]["start_s"] - tag["end_s"], 3)


def _bouts(sounds: list[dict], out: list[EventSpeaker], turns: list[dict]) -> None:
    """Give an unattributed symptom sound the speaker of the same-kind sound just before it (see the
    module docstring), in order, so a bout of three carries through."""
    last: dict[str, tuple[dict, EventSpeaker]] = {}
    for tag, got in zip(sounds, out, strict=True):
        label = tag["label"]
        prev = last.get(label)
        if (got.speaker is None and label in SYMPTOM_SOUNDS and prev is not None and prev[1].speaker
                and tag["start_s"] - prev[0]["end_s"] <= BOUT_S
                and not any(_spoken(s)[0] < tag["start_s"] and _spoken(s)[1] > prev[0]["end_s"] for s in turns)):
            got.speaker, got.method = prev[1].speaker, "bout"
            got.distance_s = round(tag["start_s"] - prev[0]["end_s"], 3)
        last[label] = (tag, got)


def _spoken(s: dict) -> tuple[float, float]:
    """The turn's speech: its first word's start to its last word's end, else its bounds."""
    w = s.get("words")
    return (min(x[0] for x in w), max(x[1] for x in w)) if w else (s["start_s"], s["end_s"])


def _inside(a: float, b: float, s: dict) -> float:
    """How much of the sound a..b lies inside turn ``s`` (0 when it is not inside, see the docstring)."""
    lo, hi = _spoken(s)
    ov = min(b, hi) - max(a, lo)
    if ov <= 0:
        return 0.0
    w = s.get("words")
    if not w:
        return ov if ov >= INSIDE * max(b - a, 1e-3) else 0.0
    before = any(e <= a + WORD_TOL_S for _, e in w)
    after = any(st >= b - WORD_TOL_S for st, _ in w)
    # A word of the turn said over the sound (more than the timing's tolerance either side): the speaker was
    # talking then, and one cannot talk and cough at once.
    over = any(min(e, b) - max(st, a) > 2 * WORD_TOL_S for st, e in w)
    return ov if before and after and not over else 0.0


def _one(tag: dict, turns: list[dict], patients: set[str], sections: list[Section],
         clinicians: frozenset[str] | set[str] = frozenset()) -> EventSpeaker:
    a, b = tag["start_s"], tag["end_s"]
    consultation = in_sections(a, b, sections)
    reach = NEAR_S if consultation else NEAR_OUTSIDE_S
    best_in, best_ov = None, 0.0
    near: list[tuple[float, dict]] = []
    for s in turns:
        if s["start_s"] > b + reach + 1.0:  # words may start a little before their segment
            break
        ov = _inside(a, b, s)
        if ov > best_ov:
            best_in, best_ov = s, ov
        lo, hi = _spoken(s)
        gap = max(0.0, lo - b, a - hi)
        if gap <= reach:
            near.append((gap, s))
    if best_in is not None and best_in["speaker"] in clinicians and tag["label"] in SYMPTOM_SOUNDS and patients \
            and consultation:
        # The clinician talks on around it (see the module docstring): the one examined coughs.
        return EventSpeaker(tag["id"], _the_patient(patients, turns), "patient_in_consultation", None)
    if best_in is not None:
        return EventSpeaker(tag["id"], best_in["speaker"], "in_turn", 0.0)
    if not near and tag["label"] in SYMPTOM_SOUNDS and patients and consultation:
        # A symptom sound in a consultation's silence (the patient breathing in for the stethoscope, coughs):
        # the room holds the patient, the clinician and perhaps a companion, and the one who is ill coughs.
        patient = _the_patient(patients, turns)
        return EventSpeaker(tag["id"], patient, "patient_in_consultation", None)
    if not near:
        return EventSpeaker(tag["id"], None, "none", None)
    if tag["label"] in SYMPTOM_SOUNDS and patients and consultation:
        close_patients = [(g, s) for g, s in near if s["speaker"] in patients]
        if close_patients:
            gap, s = min(close_patients, key=lambda x: x[0])
            return EventSpeaker(tag["id"], s["speaker"], "next_to", round(gap, 3))
        # Only the clinician is near: the person examined coughs (see the module docstring).
        patient = _the_patient(patients, turns)
        return EventSpeaker(tag["id"], patient, "patient_in_consultation", None)
    gap, s = min(near, key=lambda x: x[0])
    return EventSpeaker(tag["id"], s["speaker"], "next_to", round(gap, 3))


def _the_patient(patients: set[str], turns: list[dict]) -> str:
    """The patient's voice: the one voice with that role, else the one of them that talks most."""
    return sorted(patients)[0] if len(patients) == 1 else _busiest(patients, turns)


def _busiest(labels: set[str], turns: list[dict]) -> str:
    talk = {k: sum(t["end_s"] - t["start_s"] for t in turns if t["speaker"] == k) for k in labels}
    return max(sorted(talk), key=lambda k: talk[k])
