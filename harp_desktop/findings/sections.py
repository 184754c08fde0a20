"""Which stretches of a recording are a consultation, a phone call, or unrelated speech.

Only the turn structure, the words and the bandwidth tell them apart. A consultation is a
back-and-forth between two voices about clinical things, with at least one question answered
by the other voice: a man reading a newspaper aloud to his neighbour ("fever grips the town",
"painful to watch") has the words but not the exchange, so it is unrelated. A phone call is a
two-voice exchange heard through a telephone band (``band.phone_like``), whatever its words
and whoever speaks: the patient ringing the surgery after the consultation is a phone call,
not more consultation. Without audio, a non-clinical exchange is taken for a call, with less
confidence. A dictation is one clinical voice alone, the clinician's letter or notes
(``_dictations``). Everything else that is speech (a waiting room, a radio, a reading) is unrelated.
Findings come from consultations and from clinical phone calls (``clinical_sections``).
``dialogue_span`` (the longest two-voice exchange) is what the agent used before sections
existed; ``agent/from_evidence.py`` still narrows its searches with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from harp_desktop.findings.band import band_measures, high_ceiling, phone_band, phone_like  # noqa: F401 (re-exported)
from harp_desktop.findings.companions import companions
from harp_desktop.findings.model import Section
from harp_desktop.findings.questions import asks
from harp_desktop.findings.vocab import load, tokenize

DIALOGUE = re.compile(r"\b(consultation|appointment|visit|examination|interview)\b", re.I)
MAX_GAP_S = 6.0  # a longer silence ends the exchange
# The patient called from the waiting room: "Mr Okafor, Dr Hughes is ready for you now, room four", "come on through".
CALL_IN = re.compile(r"\b(ready for you|come (on |straight )?through|(go|come) (on )?(in|through) to room|(in|to) room "
                     r"(\d+|one|two|three|four|five|six|seven|eight|nine))\b", re.I)
MIN_CHANGES = 4  # fewer turn changes is not a dialogue (for "the consultation" window)
EDGE_S = 2.0  # sounds just before or after the first / last turn belong to it (a cough after "thank you")
PHONE_MIN_CHANGES = 4  # a non-clinical exchange shorter than this is chatter, not a call
CLINICAL_SHARE = 0.2  # share of an exchange's turns with a clinical word that makes it a consultation
CLINICAL_MIN_TURNS = 2
ABSORB_S = 12.0  # an unrelated stretch this short between two parts of one consultation belongs to it
SHARE_GAP_S = 2.0  # a turn this close to a third voice's is also the first of that voice's exchange
SILENT_PAUSE_S = 90.0  # a consultation goes on through a silence this long (an examination)
REJOIN_MAX_S = 300.0  # two parts of a consultation this close, with its voices between them, are one
REJOIN_SHARE = 0.7  # ... when its two main voices speak this share of the speech between them
MONOLOGUE_SHARE = 0.8  # one voice with this share of an exchange's speech time is reading or telling
MONOLOGUE_MIN_QA = 2  # ... unless the other voice answers this many of its questions
TAIL_GAP_S = 4.0  # talk this long after a consultation voice's last words may be after the consultation
OPENING_S = 15.0  # the clinician's words this soon before the patient's first open the consultation
DICTATION_MIN_S = 20.0  # a clinician's letter or notes spoken alone lasts at least this
DICTATION_SHARE = 0.5  # ... with this share of its turns clinical (a newspaper's symptom words are fewer)
DICTATION = re.compile(r"\b(dictat\w*|letter|for the (notes|record|file)|dear (dr|doctor)|yours sincerely|"
                       r"presenting complaint|impression|end of (dictation|letter))\b", re.I)

# Words a consultation uses and small talk, a novel or a radio rarely does. Deliberately
# broad: one stray hit in a waiting room is absorbed by CLINICAL_SHARE and CLINICAL_MIN_TURNS.
CLINICAL = re.compile(
    r"\b(pain\w*|ache\w*|hurts?|sore|cough\w*|fever\w*|temperature|breath\w*|chest|blood|pressure|pulse|"
    r"medic\w+|tablets?|pills?|prescri\w+|doses?|milligrams?|micrograms?|mg|symptoms?|headaches?|nause\w+|"
    r"vomit\w*|diarrh\w+|dizz\w+|rash|swell\w*|swollen|throat|phlegm|sputum|allerg\w+|smok\w+|alcohol|"
    r"examin\w+|antibiotics?|infection|x-?ray|scan|tests?|appointment|pharmac\w+|paracetamol|ibuprofen|"
    r"inhaler|asthma|diabet\w+|heart|lungs?|stomach|tight\w*|doctor|nurse|clinic|surgery|hospital|"
    r"ambulance|thermometer|appetite|sick|unwell|ill|injur\w+|wound|dose|allergic|fracture|sprain|"
    r"thyroid|levothyroxine|amlodipine|metformin|salbutamol)\b", re.I)


@dataclass
class Run:
    """A stretch of turns between at most two voices; ``lo``/``hi`` index the sorted turns."""

    lo: int
    hi: int  # exclusive
    changes: int
    start_s: float
    end_s: float


def spoken_turns(segments: list[dict]) -> list[dict]:
    return sorted((s for s in segments if s.get("speaker") and s["text"].strip()), key=lambda s: s["start_s"])


def dialogue_runs(turns: list[dict], max_gap_s: float = MAX_GAP_S, channel: list | None = None) -> list[Run]:
    """Maximal two-voice runs over sorted turns, in time order (a third voice or a long
    silence ends a run; a third voice arriving within SHARE_GAP_S starts the next run with the
    last speaker: the patient's "Yes?" to the clinician who came to fetch them).
    ``channel``: per turn, what it was heard through (band-limited or not); a change ends a run,
    so a call right after a consultation, with the same patient, is a run of its own."""
    runs: list[Run] = []
    i = 0
    while i < len(turns):
        pair = {turns[i]["speaker"]}
        changes, j, third = 0, i + 1, False
        while (j < len(turns) and turns[j]["start_s"] - turns[j - 1]["end_s"] <= max_gap_s
               and (channel is None or channel[j] == channel[j - 1])):
            spk = turns[j]["speaker"]
            if spk not in pair and len(pair) == 2:
                third = True
                break
            pair.add(spk)
            changes += spk != turns[j - 1]["speaker"]
            j += 1
        runs.append(Run(i, j, changes, turns[i]["start_s"], turns[j - 1]["end_s"]))
        shared = third and turns[j]["start_s"] - turns[j - 1]["end_s"] <= SHARE_GAP_S
        i = max(i + 1, j - 1) if shared else max(i + 1, j)
    return runs


def dialogue_span(segments: list[dict]) -> tuple[float, float] | None:
    """Start and end of the two-speaker exchange with the most turn changes, or None."""
    best = None
    for run in dialogue_runs(spoken_turns(segments)):
        if run.changes >= MIN_CHANGES and (best is None or run.changes > best.changes):
            best = run
    return None if best is None else (max(0.0, best.start_s - EDGE_S), best.end_s + EDGE_S)


def clinical_turns(turns: list[dict]) -> int:
    return sum(clinical_text(t["text"]) for t in turns)


@lru_cache(maxsize=4096)
def clinical_text(text: str) -> bool:
    """A turn with a clinical word: the short list above, or any concept of the findings vocabulary
    ("my right knee... stiff first thing", "low mood", "can't get to sleep"): a consultation about a
    knee or about mood has few of the list's words, and the vocabulary grows with every topic."""
    if CLINICAL.search(text):
        return True
    return any(m.how != "probe" for m in load().match(tokenize(text)))


def channels(turns: list[dict], raw: list[bool | None]) -> list[bool]:
    """Per turn, whether it was heard through a telephone band, from each turn's own measure
    (True, False, None: too short to tell) and its neighbours' (within MAX_GAP_S). A call is
    a stretch of band-limited turns: a band-limited turn between two wideband ones is a
    wideband voice measured near the line (one clinician turn in a consultation), and a turn
    too short to tell inside a call is part of it."""
    out = []
    for i, flag in enumerate(raw):
        near = [raw[j] for j in (i - 1, i + 1) if 0 <= j < len(turns) and raw[j] is not None
                and max(turns[i]["start_s"], turns[j]["start_s"]) - min(turns[i]["end_s"], turns[j]["end_s"]) <= MAX_GAP_S]
        if flag is None:
            out.append(bool(near) and all(near))
        else:
            out.append(bool(flag) and (not near or any(near)))
    return out


def question_answers(turns: list[dict]) -> int:
    """Turns that ask a question (by "?" or by form) and are followed by the other voice."""
    return sum(1 for a, b in zip(turns, turns[1:], strict=False) if b["speaker"] != a["speaker"] and asks(a["text"]))


def monologue(turns: list[dict], qa: int) -> bool:
    """One voice does nearly all the talking and is hardly ever answered: a reading aloud, a
    story told, a radio -- even when full of symptom words."""
    talk: dict[str, float] = {}
    for t in turns:
        talk[t["speaker"]] = talk.get(t["speaker"], 0.0) + t["end_s"] - t["start_s"]
    total = sum(talk.values())
    return total > 0 and max(talk.values()) >= MONOLOGUE_SHARE * total and qa < MONOLOGUE_MIN_QA


def is_clinical(turns: list[dict]) -> bool:
    n_clin = clinical_turns(turns)
    return n_clin >= CLINICAL_MIN_TURNS and n_clin >= CLINICAL_SHARE * len(turns)


def find_sections(segments: list[dict], phone: Callable[[dict], bool] | None = None) -> list[Section]:
    """Sections tiling the recording's speech, in time order.

    ``phone(segment)`` says whether a turn sounds band-limited (``phone_like``); without it
    (no audio) a non-clinical exchange is still a phone call, with less confidence."""
    turns = spoken_turns(segments)
    flags = channels(turns, [phone(t) for t in turns]) if phone is not None else None
    if flags is not None:  # measured once per turn
        measured = {id(t): f for t, f in zip(turns, flags, strict=True)}
        phone = lambda t: measured[id(t)]  # noqa: E731
    covered = np.zeros(len(turns), bool)
    out: list[Section] = []
    for kind, lo, hi, conf in _exchanges(turns, flags, phone):
        out.append(Section(kind, turns[lo]["start_s"], max(t["end_s"] for t in turns[lo:hi]), conf))
        covered[lo:hi] = True
    out += _unrelated(turns, covered, phone)
    out = _dictations(_merge(_trim_heads(_trim_tails(_extend_heads(_merge(_rejoin(_merge(sorted(out, key=lambda s: s.start_s)),
                                                                                    turns)), turns), turns), turns)), turns)
    return [_pad(s, out, i) for i, s in enumerate(out)]


def _trim_tails(sections: list[Section], turns: list[dict]) -> list[Section]:
    """A consultation ends with the last words of the voice that leaves first (the clinician's "pop back
    to reception"): what the patient and her husband say to each other after it, with a voice of the
    consultation's two no longer in it, is the waiting room again."""
    out: list[Section] = []
    for sec in sections:
        inside, main = _two_voices(sec, turns)
        if not main:
            out.append(sec)
            continue
        last = {v: max(t["end_s"] for t in inside if t.get("speaker") == v) for v in main}
        gone = min(last, key=last.get)
        tail = [t for t in inside if t["start_s"] >= last[gone] + TAIL_GAP_S]
        # ... an exchange of its own (a companion's lone "thank you, doctor" still belongs to the consultation).
        if len({t.get("speaker") for t in tail}) >= 2 and any(t.get("speaker") not in main for t in tail):
            out.append(Section(sec.kind, sec.start_s, last[gone], sec.confidence))
            out.append(Section("unrelated", tail[0]["start_s"], sec.end_s, 0.7))
        else:
            out.append(sec)
    return out


def _extend_heads(sections: list[Section], turns: list[dict]) -> list[Section]:
    """A consultation of three voices (the patient, a companion, the clinician) opens in exchanges of two turns each
    ("Come in, both of you" / "Ron Fletcher, I'm 71" / "I'm his wife" / "how's your breathing?"), each too short to
    be told clinical, so its runs become a consultation only at its first two clinical turns in a row and its
    opening (who is there, what brings them) falls outside it. The turns before it, back to the first by a voice
    that takes no part in it, a pause or the call from the waiting room, are its start from the clinician's (the
    voice asking most) first words among them."""
    out = list(sections)
    for i, sec in enumerate(out):
        if sec.kind != "consultation" or i == 0 or out[i - 1].kind != "unrelated":
            continue
        party = _main_voices(turns, sec, 3)
        lead = _lead([t for t in turns if sec.start_s <= _mid(t) <= sec.end_s], party)
        before = [t for t in turns if out[i - 1].start_s <= _mid(t) < sec.start_s]
        start, opened = sec.start_s, sec.start_s
        for t in reversed(before):
            if t.get("speaker") not in party or start - t["end_s"] > MAX_GAP_S or CALL_IN.search(t["text"]):
                break  # (the call from the waiting room is where it was before the consultation began)
            start = t["start_s"]
            if t.get("speaker") == lead:
                opened = start  # it opens with the clinician's words ("Come in, both of you"), not a remark before
        start = opened
        if start < sec.start_s:
            prev = out[i - 1]
            out[i] = Section(sec.kind, start, sec.end_s, sec.confidence)
            left = [t for t in before if t["end_s"] <= start]
            out[i - 1] = Section(prev.kind, prev.start_s, left[-1]["end_s"], prev.confidence) if left else None
    return [s for s in out if s is not None]


def _lead(inside: list[dict], party: set) -> str | None:
    """The clinician of a consultation, by its words alone: of its main voices (``party``), the one asking most in
    its turns (``inside``)."""
    asked = {v: sum(asks(t["text"]) for t in inside if t.get("speaker") == v) for v in party}
    return max(asked, key=asked.get) if asked else None


def _two_voices(sec: Section, turns: list[dict]) -> tuple[list[dict], set]:
    """A consultation's turns and its two main voices (none when it is not a consultation of two voices): what
    ``_trim_tails`` and ``_trim_heads`` measure its edges by."""
    if sec.kind != "consultation":
        return [], set()
    main = _main_voices(turns, sec, 2)
    if len(main) < 2:
        return [], set()
    return [t for t in turns if sec.start_s <= _mid(t) <= sec.end_s], main


def _trim_heads(sections: list[Section], turns: list[dict]) -> list[Section]:
    """A consultation starts with the first words of the voice that joins last (the clinician calling the patient
    in): what the patient and her sister say to each other before it, with a voice of the consultation's two not yet
    in it, is the waiting room still (``_trim_tails`` the other way round)."""
    out: list[Section] = []
    for sec in sections:
        inside, main = _two_voices(sec, turns)
        if not main:
            out.append(sec)
            continue
        first = {v: min(t["start_s"] for t in inside if t.get("speaker") == v) for v in main}
        cut = max(first.values())
        # A patient who speaks last of the two still came in with the clinician's "Come in, both of you" just before.
        lead = _lead(inside, _main_voices(turns, sec, 3))
        opening = [t["start_s"] for t in inside if t.get("speaker") == lead and cut - OPENING_S <= t["start_s"] < cut
                   and not CALL_IN.search(t["text"])]
        cut = opening[0] if opening else cut
        head = [t for t in inside if t["end_s"] <= cut - TAIL_GAP_S]
        if len({t.get("speaker") for t in head}) >= 2 and any(t.get("speaker") not in main for t in head):
            out.append(Section("unrelated", sec.start_s, head[-1]["end_s"], 0.7))
            out.append(Section(sec.kind, cut, sec.end_s, sec.confidence))
        else:
            out.append(sec)
    return out


def _dictations(sections: list[Section], turns: list[dict]) -> list[Section]:
    """An unrelated stretch that is one voice speaking clinical words nearly throughout, by a voice
    that led a consultation here or naming itself ("dictation", "letter", "for the notes"), is a
    dictation: the clinician's letter or notes after the patient left. Unlike a newspaper read aloud,
    most of its turns are clinical."""
    clinicians = {k for sec in sections if sec.kind == "consultation" for k in _main_voices(turns, sec, 2)}
    out = []
    for sec in sections:
        inside = [t for t in turns if sec.start_s <= _mid(t) <= sec.end_s]
        voice = _main_voices(turns, sec, 1)
        if (sec.kind == "unrelated" and inside and sec.end_s - sec.start_s >= DICTATION_MIN_S
                and monologue(inside, question_answers(inside))
                and clinical_turns(inside) >= DICTATION_SHARE * len(inside)
                and (voice & clinicians or any(DICTATION.search(t["text"]) for t in inside))):
            # The clinician dictates alone: while the consultation's other voices still speak (her "when do I
            # come back?", "thank you, doctor") it is the consultation going on, and the letter starts after.
            party = {k for c in sections if c.kind == "consultation" for k in _main_voices(turns, c, 3)} - voice
            still = [t["end_s"] for t in inside if t.get("speaker") in party]
            # (the clinician's own goodbye right after theirs is still the consultation: the letter starts after a pause)
            own = [t for t in inside if t.get("speaker") in voice
                   and t["start_s"] >= (max(still) + TAIL_GAP_S if still else 0.0)]
            if not own or sec.end_s - own[0]["start_s"] < DICTATION_MIN_S:
                out.append(sec)
                continue
            if own[0]["start_s"] > sec.start_s:
                # Before it: the consultation's end when its voices speak there, else a remark from the corridor.
                before = "consultation" if still and out and out[-1].kind == "consultation" else "unrelated"
                out.append(Section(before, sec.start_s, own[0]["start_s"] - 0.01, sec.confidence))
            sec = Section("dictation", own[0]["start_s"], sec.end_s, 0.8)
        out.append(sec)
    return _merge(out) if any(s.kind == "dictation" for s in out) else out


def _main_voices(turns: list[dict], sec: Section, n: int) -> set:
    return {k for k, _ in sorted(_voice_time(turns, sec).items(), key=lambda kv: -kv[1])[:n]}


def _rejoin(sections: list[Section], turns: list[dict]) -> list[Section]:
    """A stretch between two parts of one consultation that the same voices go on speaking in is
    that consultation: an examination or a questionnaire leaves few words and long pauses (a blood
    pressure taken in silence, "bend it right up"), too thin to be told clinical on its own."""
    out = list(sections)
    for i in range(1, len(out) - 1):
        a, mid, b = out[i - 1], out[i], out[i + 1]
        if mid.kind != "unrelated" or a.kind != "consultation" or b.kind != "consultation" \
                or b.start_s - a.end_s > REJOIN_MAX_S:
            continue
        voices = _voice_time(turns, a) | _voice_time(turns, b)
        main = {k for k, _ in sorted(voices.items(), key=lambda kv: -kv[1])[:2]}
        inside = _voice_time(turns, mid)
        total = sum(inside.values())
        if total > 0 and sum(v for k, v in inside.items() if k in main) / total >= REJOIN_SHARE:
            out[i] = Section("consultation", mid.start_s, mid.end_s, min(a.confidence, b.confidence))
    return out


def _voice_time(turns: list[dict], sec: Section) -> dict:
    out: dict = {}
    for t in turns:
        if sec.start_s <= _mid(t) <= sec.end_s:
            out[t.get("speaker")] = out.get(t.get("speaker"), 0.0) + t["end_s"] - t["start_s"]
    return out


def _exchanges(turns: list[dict], flags: list[bool] | None, phone) -> list[tuple[str, int, int, float]]:
    """(kind, lo, hi, confidence) of the two-voice runs that are a consultation or a call.

    A clinical run that is no monologue is a candidate; candidates close together (a third
    voice or a pause splits a consultation into several runs) are one consultation if, together,
    at least one question of theirs was answered."""
    pieces: list[list] = []  # [kind, lo, hi, confidence, question-answers]
    rest: list[tuple[int, int]] = []  # runs that are neither: maybe a companion's part of a consultation
    claimed = np.zeros(len(turns), bool)
    for run in dialogue_runs(turns, channel=flags):
        if run.changes < 1:
            rest.append((run.lo, run.hi))
            continue
        lo = run.lo + 1 if claimed[run.lo] and run.hi - run.lo > 2 else run.lo  # shared with the run before
        chunk = turns[lo:run.hi]
        qa = question_answers(chunk)
        if flags is not None and _band_limited(chunk, phone):
            pieces.append(["phone_call", lo, run.hi, 0.9, qa])
        elif is_clinical(chunk) and not monologue(chunk, qa):
            # More turn changes and more clinical words: more certain (a 2-turn exchange is thin).
            share = clinical_turns(chunk) / len(chunk)
            conf = min(0.99, 0.5 + 0.1 * min(run.changes, 4) + 0.3 * min(1.0, share / 0.5))
            pieces.append(["consultation", lo, run.hi, round(conf, 2), qa])
        elif flags is None and run.changes >= PHONE_MIN_CHANGES and not monologue(chunk, qa):
            pieces.append(["phone_call", lo, run.hi, 0.6, qa])
        else:
            rest.append((lo, run.hi))
            continue
        claimed[lo:run.hi] = True
    pieces = sorted(pieces + companions(turns, pieces, rest, question_answers, MAX_GAP_S, ABSORB_S, SILENT_PAUSE_S),
                    key=lambda p: p[1])
    group: list[list] = []
    for piece in [*pieces, None]:
        gap = turns[piece[1]]["start_s"] - turns[group[-1][2] - 1]["end_s"] if piece is not None and group else 0.0
        near = (piece is not None and group and piece[0] == "consultation"
                and (gap <= MAX_GAP_S + ABSORB_S or (gap <= SILENT_PAUSE_S and piece[1] <= group[-1][2])))
        if group and not near:
            if sum(p[4] for p in group) < 1:  # clinical words but nobody asked anything: not a consultation
                pieces = [p for p in pieces if all(p is not g for g in group)]
            group = []
        if piece is not None and piece[0] == "consultation":
            group.append(piece)
    return [(k, lo, hi, conf) for k, lo, hi, conf, _ in pieces]


def clinical_sections(sections: list[Section], segments: list[dict]) -> list[Section]:
    """The sections findings come from: consultations, and phone calls about clinical things
    (the patient ringing the surgery about his blood test and his diarrhoea, not the call
    someone in the waiting room takes about the weekend)."""
    turns = spoken_turns(segments)
    out = []
    for s in sections:
        if s.kind == "consultation":
            out.append(s)
        elif s.kind == "phone_call" and is_clinical([t for t in turns if s.start_s <= _mid(t) <= s.end_s]):
            out.append(s)
    return out


def _mid(t: dict) -> float:
    return (t["start_s"] + t["end_s"]) / 2


def _band_limited(turns: list[dict], phone: Callable[[dict], bool] | None) -> bool:
    """Most of the turns (by time) sound like a telephone line."""
    if phone is None or not turns:
        return False
    limited = sum(t["end_s"] - t["start_s"] for t in turns if phone(t))
    return limited > 0.5 * sum(t["end_s"] - t["start_s"] for t in turns)


def _unrelated(turns: list[dict], covered: np.ndarray, phone: Callable[[dict], bool] | None) -> list[Section]:
    """Speech outside every exchange, grouped where it is contiguous (gaps <= MAX_GAP_S) and
    sounds alike: band-limited stretches are the one side of a phone call we hear (or a call
    diarised as one voice), the rest is unrelated."""
    out: list[Section] = []
    group: list[dict] = []
    limited = False
    for t, cov in [*zip(turns, covered, strict=True), (None, True)]:
        flag = bool(phone(t)) if t is not None and not cov and phone is not None else False
        if group and (cov or t["start_s"] - group[-1]["end_s"] > MAX_GAP_S or flag != limited):
            out.append(Section("phone_call" if limited else "unrelated", group[0]["start_s"],
                               max(g["end_s"] for g in group), 0.8 if limited else 0.7))
            group = []
        if t is not None and not cov:
            limited = flag if not group else limited
            group.append(t)
    return out


def _merge(sections: list[Section]) -> list[Section]:
    """Adjacent sections of one kind become one (unrelated ones whatever the silence between
    them: a waiting room with a pause is one waiting room; consultations across a silence of
    up to SILENT_PAUSE_S with no speech in it: a pulse counted for a full minute), and so do two of a kind around a short
    unrelated stretch (a receptionist's remark, or a few turns diarised as a third voice,
    inside a consultation)."""
    out: list[Section] = []
    for s in sections:
        if (len(out) >= 2 and out[-1].kind == "unrelated" and out[-2].kind == s.kind != "unrelated"
                and out[-1].end_s - out[-1].start_s <= ABSORB_S and s.start_s - out[-2].end_s <= ABSORB_S + MAX_GAP_S):
            out.pop()
        gap = s.start_s - out[-1].end_s if out else 0.0
        if out and out[-1].kind == s.kind and (s.kind == "unrelated" or gap <= MAX_GAP_S + ABSORB_S
                                               or (s.kind == "consultation" and gap <= SILENT_PAUSE_S)):
            prev = out[-1]
            out[-1] = Section(s.kind, prev.start_s, max(prev.end_s, s.end_s), max(prev.confidence, s.confidence))
        else:
            out.append(s)
    return out


def _pad(s: Section, all_: list[Section], i: int) -> Section:
    """Widen by EDGE_S (a cough just after "thank you" belongs to the consultation), never past
    the middle of the pause to a neighbour, so sections never overlap."""
    lo = max(0.0, s.start_s - EDGE_S, (all_[i - 1].end_s + s.start_s) / 2 if i else 0.0)
    hi = s.end_s + EDGE_S
    if i + 1 < len(all_):
        hi = min(hi, (s.end_s + all_[i + 1].start_s) / 2)
    return Section(s.kind, round(lo, 3), round(max(hi, s.end_s), 3), s.confidence)


def in_sections(start_s: float, end_s: float, sections: list[Section], kind: str = "consultation") -> bool:
    """Whether the middle of [start_s, end_s] lies in a section of ``kind``."""
    mid = (start_s + end_s) / 2
    return any(s.kind == kind and s.start_s <= mid <= s.end_s for s in sections)


RING_GAP_S = 8.0  # a ring this close before a call's first words is where the call starts


def rung_in(sections: list[Section], rings: list[tuple[float, float]]) -> list[Section]:
    """A telephone call starts with its ring (the "telephone" sound events, start and end): a call
    section whose first words follow a ring within RING_GAP_S starts at the ring, never before the
    section ahead of it ends."""
    out = []
    for i, s in enumerate(sections):
        if s.kind == "phone_call":
            floor = sections[i - 1].end_s if i else 0.0
            near = [a for a, b in rings if floor <= a < s.start_s + 1.0 and s.start_s - b <= RING_GAP_S]
            if near:
                s = Section(s.kind, round(min(near), 3), s.end_s, s.confidence)
        out.append(s)
    return out
