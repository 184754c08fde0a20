"""What every answerer reads: the recording's segments, tags, roles, sections and findings,
resolved once per question against the QuerySpec (who, where, when).

Roles, sections and findings come from the findings stage when the library has it; for a
library indexed before that stage, the same facts are derived here from the turns (the
question-asking share, the longest two-voice exchange), and the answer says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from harp_desktop.agent import lexicon as lx
from harp_desktop.agent import names as voice_naming
from harp_desktop.agent.answerers import people
from harp_desktop.agent.answerers.voice_match import gender_speakers, voice_segments
from harp_desktop.agent.chain import span
from harp_desktop.agent.query import QuerySpec, Subject
from harp_desktop.retrieval.localize import format_clock, is_vague_edge, vague_edge_s
from harp_desktop.retrieval.tools import RecordingTools
from harp_desktop.types import Evidence

# A receptionist's work, heard: calling a patient through to a room, answering the practice's phone.
RECEPTION = re.compile(r"\b(will see you now|is ready for you( now)?|can see you now|go (on )?through|room (\d+|one|two|three|four|five|six|"
                       r"seven|eight|nine|ten)\b.{0,30}\b(left|right|corridor)|"
                       r"(surgery|practice|centre|center|clinic|pharmacy|reception|department|unit),? \w+ speaking|"
                       r"how can i help|take a seat|(can|could|may) i (take|have) (your|her|his|their|the patient's) (full )?name)",
                       re.I)
# ("I go swimming with my friend" introduces nobody: only coming with someone does.)
INTRODUCES = re.compile(rf"\b(this is|it's|here's|i've brought|i brought|(?:came|come|i'm here|we're here) with) my "
                        rf"({lx.RELATIONS})\b", re.I)
# A companion saying whom they came for: "it's for my sister", "I'm his daughter", "I've brought my husband in".
SELF_RELATION = re.compile(rf"\b(?:(?:it's|it is|this is|we're here|i'm here|i've come|i came|i'm ringing|i'm calling|"
                           rf"ringing|calling) (?:for|about) my|i'm (?:her|his|their)|i am (?:her|his|their)|"
                           rf"i've brought my|i brought my) ({lx.RELATIONS})\b", re.I)
# A member of staff who is not a clinician says what they are: "I'm Calum, the health care assistant".
STAFF_SELF = re.compile(r"\b(?:i'm|i am|this is|it's|my name's)\s+(?:([a-z]{3,}),?\s+)?(?:the|a|an|one of the|your)\s+"
                        r"((?:health ?care|care|nursing|pharmacy|ward|clinic|practice) (?:assistant|support worker)|hca|"
                        r"receptionist|porter|phlebotomist|interpreter|translator|student nurse|medical student|ward clerk|"
                        r"social worker|volunteer|(?:x-ray |radiology )?technician|radiographer|dietitian|chaplain)s?\b", re.I)
# A voice naming itself: "I'm Sheila", "my name is Diane", "it's Kevin speaking", "this is Graham".
SELF_NAMED = re.compile(r"\b(I'm|I am|my name is|my name's|this is|it's|call me)\s+([A-Z][a-z]{2,})\b(?!\s+[A-Z])")
# A clinician who is not a doctor says so when answering ("you're speaking to the triage nurse", "I'm one of the
# pharmacists here"): "who asked...?" is then answered with that title, as the people in the room would say it.
TITLE = re.compile(r"\b(?:i'm|i am|this is|it's|you're speaking to|you are speaking to|speaking to|you're through to)\s+"
                   r"(?:the |a |one of the |your )?(?:practice |triage |duty |community |hospital |district |specialist "
                   r"|clinical |heart failure )?(nurse|pharmacist|physio\w*|midwife|paramedic|health visitor)s?\b", re.I)
NOT_NAMES = {"just", "fine", "sorry", "here", "not", "really", "very", "the", "okay", "doctor", "good", "going", "afraid",
             "glad", "worried", "sure", "looking", "calling", "ringing", "now", "still", "quite", "about", "that", "your"}
ATTRIBUTE_S = 1.5  # a sound this close to a turn belongs to that turn's speaker
CLINICIAN_SHARE = 0.3  # a voice asking questions in this share of its turns is the clinician (no stored roles)


@dataclass
class Result:
    """An answerer's output: the checkable first line, the rationale, and the moments it rests on.

    ``claims`` say what each cited moment must carry (``agent/support.py`` checks it)."""

    first: str
    rationale: str
    cited: list[Evidence] = field(default_factory=list)
    claim: dict = field(default_factory=dict)  # {"kind": "event"|"emotion"|"speech"|"voice"|"time", ...}
    supported: bool = True
    evidence: list[Evidence] = field(default_factory=list)  # what was looked at (cited or not)


def cites(items: list[Evidence], limit: int = 8) -> str:
    shown = ", ".join(span(e) for e in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


# Where a voice or a sound is, by the section holding it.
PLACE_PHRASE = {"unrelated": " in the waiting room", "phone_call": " on the phone", "consultation": " in the consultation",
                "dictation": " dictating"}


class AnswerContext:
    def __init__(self, library, rec: dict, spec: QuerySpec, tools: RecordingTools | None = None,
                 cue_wavs: dict | None = None) -> None:
        self.lib, self.rec, self.spec = library, rec, spec
        self.tools = tools or RecordingTools(library, rec)
        self.cue_wavs = cue_wavs or {}
        self.notes: list[str] = []

    # -- the recording --------------------------------------------------------------
    @cached_property
    def segments(self) -> list[dict]:
        return sorted(self.tools.segments_in(0.0, float("inf")), key=lambda s: s["start_s"])

    @cached_property
    def speakers(self) -> list[dict]:
        return self.lib.db.speakers(self.rec["id"])

    def label_of(self, seg: dict) -> str | None:
        return seg.get("speaker_label") or seg.get("speaker")

    @cached_property
    def roles(self) -> dict[str, str]:
        """speaker label -> patient | clinician | other."""
        getter = getattr(self.lib, "roles", None)
        if getter is not None:
            try:
                got = getter(self.rec["sha256"])
                if got:
                    return dict(got)
            except Exception as exc:  # noqa: BLE001 - an older library: fall back, and say so
                self.notes.append(f"stored roles unavailable ({str(exc)[:60]}); inferred from who asks questions")
        return self._inferred_roles()

    def _inferred_roles(self) -> dict[str, str]:
        lo, hi = self.consultation_span or (0.0, float("inf"))
        turns: dict[str, list[bool]] = {}
        for s in self.segments:
            if s["text"].strip() and s["end_s"] > lo and s["start_s"] < hi and self.label_of(s):
                turns.setdefault(self.label_of(s), []).append("?" in s["text"])
        ranked = sorted(((sum(v) / len(v), len(v), k) for k, v in turns.items() if len(v) >= 3), reverse=True)
        roles = {}
        if ranked and ranked[0][0] >= CLINICIAN_SHARE:
            roles[ranked[0][2]] = "clinician"
            for _, _, k in ranked[1:2]:
                roles[k] = "patient"
        return roles

    @cached_property
    def sections(self) -> list[tuple[str, float, float]]:
        getter = getattr(self.lib, "sections", None)
        if getter is not None:
            try:
                got = getter(self.rec["sha256"])
                if got:
                    return [(s.kind, s.start_s, s.end_s) for s in got]
            except Exception:  # noqa: BLE001 - older library: the dialogue span below stands in
                pass
        from harp_desktop.findings.sections import dialogue_span

        found = dialogue_span(self.segments)
        return [("consultation", *found)] if found else []

    @cached_property
    def consultation_span(self) -> tuple[float, float] | None:
        spans = [(a, b) for k, a, b in self.sections if k == "consultation"]
        return (min(a for a, _ in spans), max(b for _, b in spans)) if spans else None

    @cached_property
    def findings(self) -> list:
        getter = getattr(self.lib, "findings", None)
        if getter is not None:
            try:
                return [f for f in getter(self.rec["sha256"]) if not f.rejected]
            except Exception as exc:  # noqa: BLE001 - not indexed with findings: extract now
                self.notes.append(f"stored findings unavailable ({str(exc)[:60]}); extracted from the transcript now")
        return self._extract_now()

    def _extract_now(self) -> list:
        try:
            from harp_desktop.findings.extract import extract
            from harp_desktop.findings.model import Turn
        except ImportError:
            return []
        lo, hi = self.consultation_span or (0.0, float("inf"))
        turns = [Turn(s["id"], s["start_s"], s["end_s"], self.label_of(s), self.roles.get(self.label_of(s) or ""),
                      s["text"]) for s in self.segments if s["end_s"] > lo and s["start_s"] < hi]
        return extract(turns)

    def _utterances_of(self, keep) -> list:
        """The spoken turns ``keep`` accepts, as the findings layer reads them (its utterances)."""
        try:
            from harp_desktop.findings.model import Turn
            from harp_desktop.findings.vocab import load, utterances
        except ImportError:
            return []
        turns = [Turn(s["id"], s["start_s"], s["end_s"], self.label_of(s), self.roles.get(self.label_of(s) or ""),
                      s["text"]) for s in self.segments if s["text"].strip() and keep(s)]
        return utterances(turns, load()) if turns else []

    @cached_property
    def _consultation_utterances(self) -> list:
        """The consultation's turns as the findings layer reads them, once per question."""
        lo, hi = self.consultation_span or (0.0, float("inf"))
        return self._utterances_of(lambda s: s["end_s"] > lo and s["start_s"] < hi)

    @cached_property
    def proxies(self) -> set[str]:
        """Voices taken as the patient that speak of the patient as "he" / "she": a parent answering for a
        child (findings.extract.proxy_voices, on the consultation's turns)."""
        if not self._consultation_utterances:
            return set()
        from harp_desktop.findings.extract import proxy_voices

        # (a clinical phone call counts too: a mother answering the triage nurse about her toddler)
        return proxy_voices(self._consultation_utterances) | proxy_voices(self._call_utterances)

    @cached_property
    def _call_utterances(self) -> list:
        """The clinical phone calls' turns as the findings layer reads them."""
        calls = [(a, b) for k, a, b in self.sections if k == "phone_call"]
        return self._utterances_of(lambda s: any(a <= (s["start_s"] + s["end_s"]) / 2 <= b for a, b in calls))

    @cached_property
    def own_voices(self) -> set[str]:
        """When a parent answers for a child, the other voice of the consultation that speaks of itself with a
        complaint ("my ear hurts"): the child, the patient (findings.extract's reading of the same turns)."""
        if not self.proxies:
            return set()
        from harp_desktop.findings.extract import speaking_for_themselves

        return speaking_for_themselves(self._consultation_utterances)

    def child_is_patient(self) -> bool:
        """"Does the boy cough?" when the voice taken as the patient is a parent speaking of "he": the child
        the question names is the patient (the one the findings and the sounds are attributed to)."""
        sub = self.spec.subject
        return sub.kind == "other" and bool(lx.CHILD.search(sub.name or "")) and bool(self.proxies)

    # -- where and when -------------------------------------------------------------
    @cached_property
    def windows(self) -> list[tuple[float, float]]:
        """The spans the question is about: its time window within its section. A window relative
        to an edge ("near the end of the consultation") is measured from the section's edge."""
        dur = float(self.rec["duration_s"])
        spec = self.spec
        spans: list[tuple[float, float]] = []
        if spec.section:
            spans = [(a, b) for k, a, b in self.sections if k == spec.section]
            consult = self.consultation_span
            if spec.section == "unrelated" and consult:
                if lx.BEFORE_CONSULT.search(spec.question):
                    spans = [(a, min(b, consult[0])) for a, b in spans if a < consult[0]] or spans
                elif lx.AFTER_CONSULT.search(spec.question):
                    spans = [(max(a, consult[1]), b) for a, b in spans if b > consult[1]] or spans
            if spec.section == "consultation" and not spans and self.consultation_span:
                spans = [self.consultation_span]
            if not spans:
                self.notes.append(f"no {spec.section.replace('_', ' ')} was found; searched without it")
        vague = is_vague_edge(spec.window_text or "")
        if vague and not spans and spec.subject.kind in ("patient", "clinician") and spec.target == "speech":
            # "By the end, does the patient say...": the end of the part of the recording the patient
            # speaks in (the consultation, and a phone call after it), not the waiting room after that.
            who = self.speakers_for(spec.subject)
            theirs = [s for s in self.segments if who and self.label_of(s) in who and s["text"].strip()]
            if theirs:
                spans = [(theirs[0]["start_s"], theirs[-1]["end_s"])]
            elif self.consultation_span:
                spans = [self.consultation_span]
        if spans and spec.window:
            w0, w1 = spec.window
            text = (spec.window_text or "").lower()
            if vague:
                edge = vague_edge_s(spans[-1][1] - spans[0][0], "very" in text)
                w0, w1 = (spans[-1][1] - edge, spans[-1][1]) if "end" in text else (spans[0][0], spans[0][0] + edge)
            elif re.search(r"\b(end|last|final|closing)\b", text):
                w0, w1 = spans[-1][1] - (w1 - w0), spans[-1][1]
            elif re.search(r"\b(start|beginning|first|opening)\b", text) and not re.search(r"\d{1,2}:\d{2}", text):
                w0, w1 = spans[0][0], spans[0][0] + (w1 - w0)
            inter = [(max(a, w0), min(b, w1)) for a, b in spans if min(b, w1) > max(a, w0)]
            base = inter or [spec.window]
        elif spans:
            base = spans
        else:
            base = [spec.window] if spec.window else [(0.0, dur)]
        if self.relative is not None:
            r0, r1, _ = self.relative
            base = [(max(a, r0), min(b, r1)) for a, b in base if min(b, r1) > max(a, r0)] or [(r0, r1)]
        if spans:
            self.notes.append(f"'{(spec.section or 'consultation').replace('_', ' ')}' -> "
                              + ", ".join(f"{format_clock(a)}-{format_clock(b)}" for a, b in spans)
                              + (f"; searched {', '.join(f'{format_clock(a)}-{format_clock(b)}' for a, b in base)}"
                                 if spec.window else ""))
        return base

    @cached_property
    def relative(self) -> tuple[float, float, str] | None:
        """The window an anchor phrase bounds ("after the examination starts"), see answerers/anchor.py."""
        from harp_desktop.agent.answerers.anchor import resolve

        return resolve(self)

    def in_window(self, start_s: float, end_s: float) -> bool:
        return any(end_s > a and start_s < b for a, b in self.windows)

    def window_words(self) -> str:
        if self.relative is not None:
            return self.relative[2]
        if self.spec.window_text:
            return f"in '{self.spec.window_text}'"
        if self.spec.section and len(self.windows) and self.windows[0] != (0.0, float(self.rec["duration_s"])):
            return {"unrelated": "in the non-clinical speech (waiting room, reading, radio)",
                    "phone_call": "during the phone call"}.get(self.spec.section, f"during the {self.spec.section}")
        return "in the recording"

    # -- who ----------------------------------------------------------------------
    def speakers_for(self, subject: Subject, widen: bool = False) -> set[str] | None:
        """Speaker labels the subject stands for; None means anyone."""
        if subject.kind == "anyone":
            return None
        if subject.kind in ("patient", "clinician", "other"):
            got = {k for k, v in self.roles.items() if v == subject.kind}
            asked = {people.canonical(w) for w in re.findall(r"[a-z]+", (subject.name or "").lower())}
            named = {k for k, v in {**self.other_names, **self.relations}.items() if people.canonical(v) in asked}
            if subject.kind == "other" and named:
                return named  # "the receptionist", "her husband": the other voice the recording shows to be that
            if subject.kind == "other" and not got:
                return set()
            if subject.kind == "other" and self.consultation_span and lx.RELATION.search(subject.name or ""):
                # "Her husband" came with the patient: of the other voices, those heard in the consultation
                # (not a bystander in the waiting room), when there are any.
                lo, hi = self.consultation_span
                inside = {self.label_of(s) for s in self.segments if s["text"].strip() and lo <= s["start_s"] < hi}
                # None in the consultation: the other voices that talk with the patient elsewhere (the waiting
                # room), never a bystander who talks with nobody; none of those either: not heard at all.
                return (got & inside) or (got & self.patient_partners())
            return got
        if subject.kind == "named":
            want = (subject.name or "").lower()
            got = {s["label"] for s in self.speakers if want in {s["label"].lower(), (s["name"] or "").lower()}
                   or re.sub(r"^speaker[ _]", "", want) == re.sub(r"^speaker_", "", s["label"].lower())}
            if not got and self.cue_wavs.get("speaker") is not None:
                # "Speaker X: [clip]": a name the recording does not know is the voice of the speaker clip.
                return self.cue_speakers()
            return got
        if subject.kind == "at_time" and subject.at_s is not None:
            seg = self.segment_at(subject.at_s)
            if seg is None or not self.label_of(seg):
                return set()
            return {self.label_of(seg)} | (self.same_voice(seg) if widen else set())
        if subject.kind == "cue":
            return self.cue_speakers()
        if subject.kind == "gender":
            return gender_speakers(self, subject.name or "")
        return None

    def patient_partners(self) -> set[str]:
        """Voices with a turn right before or after one of the patient's (within 10 s): who talks with the patient."""
        turns = [t for t in sorted(self.segments, key=lambda t: t["start_s"]) if t["text"].strip()]
        out: set[str] = set()
        for p, q in zip(turns, turns[1:], strict=False):
            roles = {self.roles.get(self.label_of(p) or ""), self.roles.get(self.label_of(q) or "")}
            if "patient" in roles and q["start_s"] - p["end_s"] <= 10.0 and self.label_of(p) != self.label_of(q):
                out |= {self.label_of(p), self.label_of(q)} - {None}
        return {lab for lab in out if self.roles.get(lab) != "patient"}

    def cue_speakers(self) -> set[str]:
        wav = self.cue_wavs.get("speaker")
        if wav is None:
            return set()
        # only the voices: their turns heard through the other channel add none (voice_match.across_channel)
        return {e.speaker_label for e in voice_segments(self, wav, across_channel=False)
                if getattr(e, "speaker_label", None)}

    def audio(self, a: float, b: float):
        """The decoded recording between a and b (16 kHz float32), from the library's audio cache."""
        import numpy as np

        from harp_desktop.audio.decode import SAMPLE_RATE, open_cache

        cache = self.lib.folder / "audio" / f"{self.rec['sha256']}.f32"
        x = open_cache(cache)
        return np.asarray(x[int(a * SAMPLE_RATE): int(b * SAMPLE_RATE)], np.float32)

    def same_voice(self, seg: dict) -> set[str]:
        """Speaker labels whose speech matches this segment's voice: diarisation may split one person
        heard minutes apart into two labels, and "the man at 00:28" means the person, not the label."""
        try:
            wav = self.audio(seg["start_s"], seg["end_s"])
            return {e.speaker_label for e in voice_segments(self, wav, across_channel=False)
                    if getattr(e, "speaker_label", None)}
        except Exception:  # noqa: BLE001 - no audio cache (a moved library): the label alone
            return {self.label_of(seg)} if self.label_of(seg) else set()

    def segment_at(self, t: float, within: float = 3.0) -> dict | None:
        """The speech that contains ``t``; else the nearest within ``within`` seconds."""
        spoken = [s for s in self.segments if s["text"].strip()]
        inside = [s for s in spoken if s["start_s"] - 0.25 <= t <= s["end_s"] + 0.25]
        if inside:
            return min(inside, key=lambda s: s["end_s"] - s["start_s"])
        # "The woman at 00:41" names when she starts speaking: measure to the start of each turn.
        near = [(abs(t - s["start_s"]), s) for s in spoken]
        near = [x for x in near if x[0] <= within]
        return min(near, key=lambda x: x[0])[1] if near else None

    def evidence(self, seg: dict, tool: str = "answer", score: float = 1.0) -> Evidence:
        ev = self.tools.from_segment(seg, tool, score)
        ev.speaker_label = self.label_of(seg)  # type: ignore[attr-defined]
        return ev

    @cached_property
    def event_owners(self) -> list[dict]:
        """The findings stage's attribution of every sound event (empty for an older library)."""
        getter = getattr(self.lib, "event_speakers", None)
        try:
            return list(getter(self.rec["sha256"])) if getter is not None else []
        except Exception:  # noqa: BLE001 - older library: proximity below stands in
            return []

    def speaker_of_time(self, a: float, b: float, label: str | None = None) -> str | None:
        """Whose sound a..b is: the stored attribution of the event it lies in (of its own kind first: a "shout"
        spanning a cough is not the cough), else the turn it falls in or next to."""
        stored = [e for e in self.event_owners if e["start_s"] - 0.2 < b and a < e["end_s"] + 0.2]
        stored = [e for e in stored if e.get("label") == label] or stored
        if stored:
            return max(stored, key=lambda e: min(b, e["end_s"]) - max(a, e["start_s"]))["speaker"]
        best, gap = None, ATTRIBUTE_S
        for s in self.segments:
            if not self.label_of(s):
                continue
            d = max(0.0, s["start_s"] - b, a - s["end_s"])
            if d < gap or (d == 0.0 and best is None):
                best, gap = self.label_of(s), d
        return best

    @cached_property
    def other_names(self) -> dict[str, str]:
        """What the recording shows an "other" voice to be: a receptionist (calls a patient through to a
        room, answers the practice phone) or the companion the patient introduces ("this is my husband")."""
        others = {k for k, v in self.roles.items() if v == "other"}
        names: dict[str, str] = {}
        for s in self.segments:
            lab = self.label_of(s)
            if lab in others and RECEPTION.search(s["text"] or ""):
                names.setdefault(lab, "receptionist")
            m = STAFF_SELF.search(s["text"] or "") if lab in others else None
            if m:  # "Mr Fletcher, I'm Calum, the health care assistant": the staff role a voice gives itself
                names.setdefault(lab, re.sub(r"\s+", " ", m.group(2).lower()).replace("health care", "healthcare"))
        for lab, title in people.addressed_titles(self).items():  # "Nurse, that machine's beeping again"
            if lab in others:
                names.setdefault(lab, title)
        lo, hi = self.consultation_span or (0.0, float("inf"))
        turns: dict[str, int] = {}
        for s in self.segments:
            lab = self.label_of(s)
            if lab in others and lab not in names and s["text"].strip() and lo <= s["start_s"] < hi:
                turns[lab] = turns.get(lab, 0) + 1
        intro = [m.group(2).lower() for s in self.segments if self.roles.get(self.label_of(s) or "") == "patient"
                 and lo <= s["start_s"] < hi for m in [INTRODUCES.search(s["text"] or "")] if m]
        for s in self.segments:  # a companion who says whom they came for is that relation of the patient
            lab = self.label_of(s)
            m = SELF_RELATION.search(s["text"] or "") if lab in turns else None
            if m:
                names.setdefault(lab, m.group(1).lower())
        turns = {k: v for k, v in turns.items() if k not in names}
        ranked = sorted(turns.items(), key=lambda kv: -kv[1])
        # The companion takes part: the one other voice of the consultation, or the one with clearly the most
        # turns there (a visitor heard once through the door is not who the patient introduced).
        if ranked and len(set(intro)) == 1 and (len(ranked) == 1 or (ranked[0][1] >= 2 and ranked[0][1] > 2 * ranked[1][1])):
            names[ranked[0][0]] = intro[0]
        for lab, rel in self.relations.items():  # "I'm Kerry, his mum", addressed as "Mummy"
            if lab in others:
                names.setdefault(lab, rel)
        return names

    @cached_property
    def relations(self) -> dict[str, str]:
        """Speaker label -> what the voice is to the patient ("mother"), where the recording says it."""
        return people.relations(self)

    @cached_property
    def voice_names(self) -> dict[str, str]:
        """Speaker label -> the name the voice answers to, where the recording says it."""
        return voice_naming.voice_names(self.segments, self.label_of)

    def person(self, label: str | None, named: bool = True) -> str:
        """The voice named for a reader: relation and name where known ("the patient's mother")."""
        return people.person(self, label, named)

    @cached_property
    def readers(self) -> set[str]:
        """The voices that read aloud (a long stretch outside the consultation nobody answers)."""
        return {lab for lab in self.roles if "reading aloud" in (self.describe_voice(lab) or "")}

    def describe_voice(self, label: str) -> str | None:
        """What can be observed of a voice with no role: "the man in the waiting room (reading aloud)"."""
        from harp_desktop.agent.answerers.voice_match import MALE_MAX_HZ, voice_pitch

        mine = [s for s in self.segments if self.label_of(s) == label and s["text"].strip()]
        if not mine:
            return None
        try:
            f0 = voice_pitch(self, mine)
        except Exception:  # noqa: BLE001 - no audio cache: no pitch
            f0 = None
        who = ("man" if f0 < MALE_MAX_HZ else "woman") if f0 is not None else "person"
        where: dict[str, float] = {}
        for s in mine:
            mid = (s["start_s"] + s["end_s"]) / 2
            kind = next((k for k, a, b in self.sections if a <= mid <= b), None)
            where[kind or ""] = where.get(kind or "", 0.0) + s["end_s"] - s["start_s"]
        place = max(where, key=where.get) if where else ""
        phrase = PLACE_PHRASE
        talk = sum(s["end_s"] - s["start_s"] for s in mine)
        # A long stretch by one voice outside the consultation, with nobody answering: reading aloud (or a broadcast).
        # (A reader asks the odd question of the child listening -- "did you like that one?" -- not one per turn.)
        sentences = [x for s in mine for x in re.split(r"(?<=[.!?])\s+", s["text"].strip()) if x]
        asks = sum(x.endswith("?") for x in sentences)
        reading = place == "unrelated" and talk >= 30 and asks <= len(sentences) // 4
        named = next((m.group(2) for s in mine for m in [SELF_NAMED.search(s["text"])] if m
                      and m.group(2).lower() not in NOT_NAMES), None)
        desc = f"the {who}{phrase.get(place, '')}" + (" (reading aloud)" if reading else "")
        return f"{named}, {desc}" if named else desc

    def place_of(self, t: float) -> str:
        """Where a moment is, in words (" in the waiting room"), or "" when no section holds it."""
        kind = next((k for k, a, b in self.sections if a <= t <= b), None)
        return PLACE_PHRASE.get(kind or "", "")

    def title_of(self, label: str | None) -> str | None:
        """The title a voice gives itself (``TITLE``: "nurse", "pharmacist"), or None."""
        for s in self.segments:
            if label and self.label_of(s) == label:
                m = TITLE.search(s["text"])
                if m:
                    return m.group(1).lower()
        return None

    def role_name(self, label: str | None) -> str:
        role = self.roles.get(label or "")
        if role == "other" and label in self.other_names:
            return self.other_names[label]
        if role == "other" and label:
            seen = self.__dict__.setdefault("_described", {})
            if label not in seen:
                seen[label] = (self.describe_voice(label) or "other").replace("the ", "", 1)
            return seen[label]
        if role == "clinician":
            return next((s.name for s in [self.spec.subject, *self.spec.others] if s.kind == "clinician" and s.name),
                        None) or self.title_of(label) or "clinician"
        return role or (label or "an unidentified speaker")
