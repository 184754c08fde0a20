"""Code settles what code can: counts of events, first times, the best-scoring
emotion label, whether a voice matches the cue. Each function returns the first line
(checkable form) and a rationale that cites the evidence it used, or None when the
question needs the language model (or the extractive fallback).
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from harp_desktop.agent.chain import span
from harp_desktop.agent.plan import Plan
from harp_desktop.agent.rules import SOUND_QUALITIES, SPEAKER_COUNT, described_side
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

VOICE_MATCH = 0.745  # best-window cosine between the cue's voice and a segment's (GE2E), tuned on dev
VOICE_NEAR_BEST = 0.06
# CAM++ cosines (cue clip against the stored CAM++ windows), calibrated on the development recordings' turns
# (dev_long_01, bank_rec_01/02; benchmarks/paraling/voice_calibrate.py): the match threshold with the least
# false-accept + false-reject rate of "is this voice in the recording?" over full, 1.5 s and phone-band cues
# pooled (0.471: 0.07 + 0.06); near the best is GE2E's 0.06 scaled by how much more one voice's turns spread
# under CAM++ (median standard deviation 0.042 against 0.026).
CAM_MATCH = 0.47
CAM_NEAR_BEST = 0.10
# 85: "Dogs are sitting by the door" scores 82 against "Kids are talking by the door", as high as
# ASR's "They're talking by the door" (80) for the real thing; a miss is better than a false count.
QUOTE_MATCH = 85
EMOTION_MIN = 0.6  # calibrated probability for "someone sounds <emotion>"; 0.5 and 0.7 scored worse on dev
# The same two thresholds per encoder of the stored windows (RecordingTools.voice_encoder): cosines of
# different encoders are on different scales (docs/decisions.md, "Voice cues on CAM++, stop 28").
VOICE_THRESHOLDS: dict[str, tuple[float, float]] = {
    "ge2e": (VOICE_MATCH, VOICE_NEAR_BEST),
    "campplus": (CAM_MATCH, CAM_NEAR_BEST),
}


# One utterance against one turn: the equal-error threshold of each encoder on the trial list of
# benchmarks/diar/voices_eer.py (142 utterances of 26 voices, acted RAVDESS emotions among them;
# voice_calibrate.py --pairs). Looser than the match threshold, which must hold for the best of a
# whole recording's windows: it admits a voice's emotional line as "possibly the same voice".
SAME_VOICE: dict[str, float] = {"ge2e": 0.608, "campplus": 0.308}

# A turn of the cue's diarised voice heard through the other channel (a telephone line against the room) is
# compared through the telephone band on both sides (CamPlusEncoder.embed_band, as index/phone_link.py links
# the labels): one person's room cue against their phone turns 0.15-0.48 -> 0.60-0.90. The least false-accept +
# false-reject point of such cross-channel pairs (cue against turn, development recordings: EER 0.042).
CAM_BAND_SAME = 0.55


def voice_thresholds(encoder: str) -> tuple[float, float]:
    """(match, near best) for the cosines of ``encoder``; GE2E's for an unknown one (older libraries)."""
    return VOICE_THRESHOLDS.get(encoder, VOICE_THRESHOLDS["ge2e"])


def _cites(items: list[Evidence], limit: int = 8) -> str:
    shown = ", ".join(span(e) for e in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _label_items(evidence: list[Evidence], tool: str = "label") -> list[Evidence]:
    return sorted([e for e in evidence if tool in e.scores], key=lambda e: e.start_s)


def voice_matches(evidence: list[Evidence], encoder: str = "ge2e") -> list[Evidence]:
    """The evidence whose "speaker" score (a cosine of ``encoder``) matches the cue's voice."""
    match, near_best = voice_thresholds(encoder)
    scored = [e for e in evidence if "speaker" in e.scores]
    if not scored:
        return []
    best = max(e.scores["speaker"] for e in scored)
    if best < match:
        return []
    return sorted([e for e in scored if e.scores["speaker"] >= max(match, best - near_best)],
                  key=lambda e: e.start_s)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9' ]", " ", text.lower()).split())


def count_quote(quote: str, evidence: list[Evidence]) -> list[Evidence]:
    """The sentences that say the quote: the whole sentence, or a short phrase said inside one ("Next, please, is it a
    collection?" says "Next, please")."""
    hits = []
    want = _plain(quote)
    for e in sorted(evidence, key=lambda e: e.start_s):
        n = sum(1 for s in _sentences(e.text) if fuzz.ratio(_plain(s), want) >= QUOTE_MATCH
                or (len(want.split()) >= 2 and re.search(rf"(^| ){re.escape(want)}( |$)", _plain(s)) is not None))
        hits += [e] * n
    return hits


def settle(plan: Plan, evidence: list[Evidence], what: str, voice_encoder: str = "ge2e") -> tuple[str, str, bool] | None:
    """(answer line, rationale, supported) or None when code cannot decide; ``voice_encoder``: whose cosines
    the evidence's "speaker" scores are (RecordingTools.voice_encoder)."""
    if plan.quality and plan.target_event:
        return settle_quality(plan, evidence)
    if plan.intent == "speaker" or any("speaker" in e.scores for e in evidence) and plan.intent in ("when", "yesno"):
        matches = voice_matches(evidence, voice_encoder)
        if not matches:
            return "No", "No segment of the recording matches the example voice closely enough.", False
        first = matches[0]
        line = format_clock(first.start_s) if plan.intent != "yesno" else "Yes"
        return (line, f"The example voice matches {len(matches)} segment(s), first at {span(first)}"
                f" (voice similarity {first.scores['speaker']:.2f}); also {_cites(matches[1:])}.", True)
    if plan.target_event:
        items = _label_items(evidence)
        name = plan.target_event.replace("_", " ")
        if plan.intent == "count":
            if not items:
                return "0", f"No {name} events were found in the searched window.", False
            return str(len(items)), f"{len(items)} {name} event(s) were detected: {_cites(items, 12)}.", True
        if not items:
            return ("No" if plan.intent == "yesno" else "Not found",
                    f"No {name} events were found in the searched window.", False)
        if plan.intent == "yesno":
            return "Yes", f"{name.capitalize()} can be heard at {_cites(items)}.", True
        return (format_clock(items[0].start_s),
                f"The first {name} is at {span(items[0])}; later ones: {_cites(items[1:]) or 'none'}.", True)
    if plan.intent == "count" and plan.quote:
        hits = count_quote(plan.quote, evidence)
        if not hits:
            return "0", f"The sentence '{plan.quote}' was not found in the transcript.", False
        return str(len(hits)), f"'{plan.quote}' is spoken {len(hits)} time(s): {_cites(hits, 12)}.", True
    if plan.target_emotion and plan.intent in ("when", "yesno", "count"):
        items = [e for e in _label_items(evidence) if e.scores["label"] >= EMOTION_MIN]
        if plan.intent == "count":
            return str(len(items)), f"{len(items)} moment(s) sound {plan.target_emotion}: {_cites(items)}.", bool(items)
        if not items:
            return ("No" if plan.intent == "yesno" else "Not found",
                    f"No speech was classified as {plan.target_emotion} with enough confidence.", False)
        if plan.intent == "yesno":
            return "Yes", f"Speech classified as {plan.target_emotion} at {_cites(items)}.", True
        return (format_clock(items[0].start_s), f"The first {plan.target_emotion}-sounding speech is at "
                f"{span(items[0])} (p={items[0].scores['label']:.2f}); also {_cites(items[1:]) or 'none'}.", True)
    if plan.intent == "emotion":
        return settle_emotion_state(plan, evidence, what)
    if plan.intent == "count" and SPEAKER_COUNT.search(what):
        return count_voices(evidence)
    return None


MIN_VOICE_S = 1.0  # a diarized "speaker" with less speech than this is a fragment, not a person


def count_voices(evidence: list[Evidence]) -> tuple[str, str, bool]:
    said: dict[str, list[Evidence]] = {}
    for e in sorted(evidence, key=lambda e: e.start_s):
        if e.speaker and e.text.strip():
            said.setdefault(e.speaker, []).append(e)
    voices = {k: v for k, v in said.items() if sum(e.end_s - e.start_s for e in v) >= MIN_VOICE_S}
    if not voices:
        return "0", "No speech was found in the searched window.", False
    parts = "; ".join(f"{k} from {span(v[0])} ({len(v)} turn(s))" for k, v in voices.items())
    return str(len(voices)), f"{len(voices)} distinct voice(s) speak: {parts}.", True


WHO = re.compile(r"\bwho\b.*\b(the )?(doctor|clinician|nurse|gp)\b.*\bor\b.*\b(the )?patient\b"
                 r"|\bwho\b.*\b(the )?patient\b.*\bor\b.*\b(the )?(doctor|clinician|nurse|gp)\b", re.I)


def settle_who(question: str, evidence: list[Evidence], shares: dict[str, tuple[int, float]]):
    """"Who mentions X, the doctor or the patient?": the speaker of the best keyword hit, and
    their role from how often they ask questions (clinicians ask, patients answer)."""
    m = WHO.search(question)
    roles = {"doctor", "clinician", "nurse", "patient", "mentions", "mention", "says", "talks"}
    topic = [w for w in re.findall(r"[a-z]{5,}", question.lower()) if w not in roles]
    scored = [(max((fuzz.partial_ratio(w, e.text.lower().replace(" ", "")) for w in topic), default=0), e)
              for e in evidence if e.speaker]
    ranked = sorted(scored, key=lambda x: -x[0])
    hits = [e for s, e in ranked if s >= 80]
    if not hits and ranked and ranked[0][0] >= 65 and ranked[0][0] - (ranked[1][0] if len(ranked) > 1 else 0) >= 15:
        hits = [ranked[0][1]]  # a misheard name ("ear oxine"), far closer than anything else
    closest = ""
    if m and not hits:
        # Drug names are what ASR mishears most ("the peroxide"): fall back to the best-ranked
        # statement, and say that the word itself was not found.
        best = sorted((e for e in evidence if e.speaker and e.text.strip() and not e.text.rstrip().endswith("?")),
                      key=lambda e: -e.rank)
        hits = best[:1]
        closest = " The words asked about were not found verbatim; this is the closest-matching turn."
    if not m or not hits:
        return None
    clinician = next(w for w in ("doctor", "clinician", "nurse", "gp") if re.search(rf"\b{w}\b", question, re.I))
    n, share = shares.get(hits[0].speaker, (0, 0.0))
    if n < 3:
        return None
    role = clinician if share >= 0.3 else "patient"
    return (role, f"{hits[0].speaker} says it at {span(hits[0])}; {hits[0].speaker} asks questions in {share:.0%} "
                  f"of {n} turns (clinicians ask, patients answer), so is most likely the {role}.{closest}", True)


def settle_emotion_state(plan: Plan, evidence: list[Evidence], what: str = "") -> tuple[str, str, bool] | None:
    """The emotion label with the best calibrated score among tags near the anchor.

    A question about how a voice sounds at a moment that has no emotion tag nearby is not
    left to the model (it guessed from another speaker's tag 12 s away): code says so."""
    def gap(e: Evidence) -> float:  # seconds between the anchor and the evidence (0 inside it)
        return 0.0 if plan.anchor_s is None else max(0.0, e.start_s - plan.anchor_s, plan.anchor_s - e.end_s)

    best: tuple[float, str, Evidence] | None = None
    for e in evidence:
        dist = gap(e)
        for lab in e.labels:
            m = re.match(r"emotion:(\w+) \(([\d.]+)\)", lab)
            if m and dist <= 3.0:
                score = float(m.group(2)) - 0.05 * dist - (0.2 if m.group(1) in ("neutral", "calm") else 0.0)
                if best is None or score > best[0]:
                    best = (score, m.group(1), e)
    if best is None:
        if plan.anchor_s is None or not VOICE_WORDS.search(what):
            return None
        near = [e for e in evidence if e.text.strip() and gap(e) <= 3.0]
        if not near:
            return CANNOT_TELL, f"No speech was found near {format_clock(plan.anchor_s)}.", False
        ev = min(near, key=gap)
        return CANNOT_TELL, (f"The speech at {span(ev)} (\"{ev.text.strip()[:80]}\") is {ev.end_s - ev.start_s:.1f} s "
                             "long, too short for the emotion model to judge; no emotion is claimed."), False
    _, label, ev = best
    return label, f"The speech at {span(ev)} was classified as {label}.", True


VOICE_WORDS = re.compile(r"\b(voice|sound\w*|tone|heard|hear)\b", re.I)


CANNOT_TELL = "Cannot tell from the sound"


def settle_quality(plan: Plan, evidence: list[Evidence]) -> tuple[str, str, bool]:
    """What an event sounds like (wet or dry, inspiratory...): no model here measures it, so say so.

    The events heard are cited, and so is any speech that describes them; when that speech
    names one side only ("a dry cough"), the first line gives it, marked as what was said."""
    pattern = SOUND_QUALITIES[plan.quality][0]
    name = plan.target_event.replace("_", " ")
    heard = _label_items(evidence)
    said: list[tuple[str, Evidence]] = []
    for e in sorted(evidence, key=lambda e: e.start_s):
        if "label" in e.scores or not e.text.strip():
            continue
        said += [(s, e) for s in _sentences(e.text) if not s.endswith("?") and re.search(pattern, s.lower())]
    if heard:
        why = (f"{len(heard)} {name} event(s) can be heard ({_cites(heard)}), but HARP has no model that tells "
               f"whether a {name} is {plan.quality}, so the sound alone cannot settle this.")
    else:
        why = (f"No {name} was detected in the searched window, and HARP has no model that tells whether a {name} "
               f"is {plan.quality}.")
    if said:
        why += " What was said about it: " + "; ".join(f'"{s[:120]}" {span(e)}' for s, e in said[:3]) + "."
    side = described_side(plan.quality, [s for s, _ in said])
    first = CANNOT_TELL + (f" (described as {side})" if side else "")
    return first, why, False
