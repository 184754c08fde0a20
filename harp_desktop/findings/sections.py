"""Which stretches of a recording are a consultation, a phone call, or unrelated speech.

Only the turn structure, the words and the bandwidth tell them apart: a consultation is a
back-and-forth between two voices about clinical things; a phone call is a two-voice
exchange that is not clinical (often band-limited: nothing above ~3.6 kHz); everything
else that is speech (a waiting room, a radio, someone reading aloud: long monologues,
many voices, no clinical words) is unrelated. Findings are extracted from consultations
only. ``dialogue_span`` (the longest two-voice exchange) is what the agent used before
sections existed; ``agent/sections.py`` re-exports it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from harp_desktop.findings.model import Section

DIALOGUE = re.compile(r"\b(consultation|appointment|visit|examination|interview)\b", re.I)
MAX_GAP_S = 6.0  # a longer silence ends the exchange
MIN_CHANGES = 4  # fewer turn changes is not a dialogue (for "the consultation" window)
EDGE_S = 2.0  # sounds just before or after the first / last turn belong to it (a cough after "thank you")
PHONE_MIN_CHANGES = 4  # a non-clinical exchange shorter than this is chatter, not a call
CLINICAL_SHARE = 0.2  # share of an exchange's turns with a clinical word that makes it a consultation
CLINICAL_MIN_TURNS = 2
ABSORB_S = 12.0  # an unrelated stretch this short between two parts of one consultation belongs to it
# Telephone band (see band_measures). Measured: the dev recording's call 2.0-2.2 dB spread,
# 48-50 dB drop; every wideband turn of the sample and dev >= 10 dB spread.
PHONE_MAX_SPREAD_DB, PHONE_MIN_DROP_DB = 6.0, 30.0

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


def dialogue_runs(turns: list[dict], max_gap_s: float = MAX_GAP_S) -> list[Run]:
    """Maximal two-voice runs over sorted turns, in time order (a third voice or a long
    silence ends a run; a third voice's arrival may start the next run with the last speaker)."""
    runs: list[Run] = []
    i = 0
    while i < len(turns):
        pair = {turns[i]["speaker"]}
        changes, j, third = 0, i + 1, False
        while j < len(turns) and turns[j]["start_s"] - turns[j - 1]["end_s"] <= max_gap_s:
            spk = turns[j]["speaker"]
            if spk not in pair and len(pair) == 2:
                third = True
                break
            pair.add(spk)
            changes += spk != turns[j - 1]["speaker"]
            j += 1
        runs.append(Run(i, j, changes, turns[i]["start_s"], turns[j - 1]["end_s"]))
        i = max(i + 1, j - 1) if third else max(i + 1, j)
    return runs


def dialogue_span(segments: list[dict]) -> tuple[float, float] | None:
    """Start and end of the two-speaker exchange with the most turn changes, or None."""
    best = None
    for run in dialogue_runs(spoken_turns(segments)):
        if run.changes >= MIN_CHANGES and (best is None or run.changes > best.changes):
            best = run
    return None if best is None else (max(0.0, best.start_s - EDGE_S), best.end_s + EDGE_S)


def band_measures(audio: np.ndarray, start_s: float, end_s: float, sr: int = 16000, max_s: float = 3.0
                  ) -> tuple[float, float]:
    """(high-band range dB, speech-to-high-band drop dB) over at most ``max_s`` from the middle of a turn.

    Range: the spread (95th - 5th percentile) of 4.5-7.5 kHz frame levels. Wideband speech
    swings there by 10 dB or more (fricatives vs vowels and pauses); over a telephone line
    nothing above ~3.6 kHz passes, so that band is the room's steady noise floor (~2 dB).
    Drop: 300-1000 Hz vs 4.5-7.5 kHz level in the louder half of the frames (~50 dB on a
    phone line; 10-36 dB for wideband voices, synthetic ones included)."""
    mid = (start_s + end_s) / 2
    half = min(max_s, end_s - start_s) / 2
    x = np.asarray(audio[int(max(0.0, mid - half) * sr): int((mid + half) * sr)], np.float32)
    n = 512
    if len(x) < 4 * n:
        return float("inf"), 0.0  # too short to tell: wideband, i.e. not a phone
    frames = x[: len(x) // n * n].reshape(-1, n) * np.hanning(n).astype(np.float32)
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    freqs = np.fft.rfftfreq(n, 1 / sr)
    high = power[:, (freqs >= 4500) & (freqs < 7500)].mean(1) + 1e-12
    low = power[:, (freqs >= 300) & (freqs < 1000)].mean(1) + 1e-12
    level = 10 * np.log10(high)
    loud = power.sum(1) >= np.percentile(power.sum(1), 50)
    spread = float(np.percentile(level, 95) - np.percentile(level, 5))
    return spread, float(10 * np.log10(low[loud].mean() / high[loud].mean()))


def phone_like(audio: np.ndarray, start_s: float, end_s: float) -> bool:
    spread, drop = band_measures(audio, start_s, end_s)
    return spread <= PHONE_MAX_SPREAD_DB and drop >= PHONE_MIN_DROP_DB


def clinical_turns(turns: list[dict]) -> int:
    return sum(bool(CLINICAL.search(t["text"])) for t in turns)


def find_sections(segments: list[dict], phone: Callable[[dict], bool] | None = None) -> list[Section]:
    """Sections tiling the recording's speech, in time order.

    ``phone(segment)`` says whether a turn sounds band-limited (``phone_like``); without it
    (no audio) a non-clinical exchange is still a phone call, with less confidence."""
    turns = spoken_turns(segments)
    out: list[Section] = []
    covered = np.zeros(len(turns), bool)
    for run in dialogue_runs(turns):
        if run.changes < 1:
            continue
        lo = run.lo + 1 if covered[run.lo] and run.hi - run.lo > 2 else run.lo  # shared with the run before
        chunk = turns[lo:run.hi]
        start_s = chunk[0]["start_s"]
        n_clin = clinical_turns(chunk)
        share = n_clin / len(chunk)
        if n_clin >= CLINICAL_MIN_TURNS and share >= CLINICAL_SHARE:
            # More turn changes and more clinical words: more certain (a 2-turn exchange is thin).
            conf = min(0.99, 0.5 + 0.1 * min(run.changes, 4) + 0.3 * min(1.0, share / 0.5))
            out.append(Section("consultation", start_s, run.end_s, round(conf, 2)))
        elif run.changes >= PHONE_MIN_CHANGES:
            out.append(Section("phone_call", start_s, run.end_s, 0.9 if _band_limited(chunk, phone) else 0.6))
        else:
            continue
        covered[lo:run.hi] = True
    out += _unrelated(turns, covered, phone)
    out = _merge(sorted(out, key=lambda s: s.start_s))
    return [_pad(s, out, i) for i, s in enumerate(out)]


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
    """Adjacent sections of one kind become one, and so do two of a kind around a short
    unrelated stretch (a receptionist's remark, or a few turns diarised as a third voice,
    inside a consultation)."""
    out: list[Section] = []
    for s in sections:
        if (len(out) >= 2 and out[-1].kind == "unrelated" and out[-2].kind == s.kind != "unrelated"
                and out[-1].end_s - out[-1].start_s <= ABSORB_S and s.start_s - out[-2].end_s <= ABSORB_S + MAX_GAP_S):
            out.pop()
        if out and out[-1].kind == s.kind and s.start_s - out[-1].end_s <= MAX_GAP_S + (
                ABSORB_S if s.kind != "unrelated" else 0.0):
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
