"""Scores for one answered question against annotated truth: evidence HitRate,
answer correctness by answer kind, and citation validity."""

from __future__ import annotations

import re
from collections.abc import Callable

from harp_desktop.retrieval.localize import parse_clock

TIME_TOLERANCE_S = 3.0  # issue 5: a time answer is right within +/-3 s of the truth
# A label answer may use a synonym of the truth (emotions, cough character, speaker roles).
LABEL_SYNONYMS = {
    "angry": {"anger", "mad", "furious", "irritated", "annoyed", "frustrated"},
    "sad": {"sadness", "unhappy", "sorrowful", "upset", "down"},
    "happy": {"happiness", "joy", "joyful", "cheerful", "glad", "pleased"},
    "fearful": {"fear", "afraid", "scared", "frightened", "anxious", "nervous", "fearful", "worried"},
    "surprised": {"surprise", "astonished", "shocked", "amazed"},
    "disgust": {"disgusted", "disgusting", "revolted"},
    "calm": {"relaxed", "composed"},
    "neutral": {"flat", "even"},
    "dry": {"unproductive", "nonproductive", "tickly"},
    "wet": {"productive", "chesty", "mucus", "phlegm", "moist"},
    "doctor": {"clinician", "gp", "physician", "nurse"},
    "patient": {"patients"},
    # relations: the everyday word is the same person ("the mum" / "the patient's mother")
    "mother": {"mum", "mom", "mummy", "mam"},
    "father": {"dad", "daddy"},
    "grandmother": {"grandma", "nan", "nana", "granny", "gran"},
    "grandfather": {"grandad", "granddad", "grandpa"},
}
# Words of a many-word label that carry no identity ("the husband (Mark)", "her sister").
_LABEL_STOP = {"the", "a", "an", "her", "his", "their", "my", "of", "s", "patient's", "and", "both"}
_NEGATORS = {"not", "no", "never", "isn't", "wasn't"}
FreeTextJudge = Callable[[str, str, str], bool]  # (truth, answer line, rationale) -> correct


def hit_rate(truth_spans: list[tuple[float, float]], evidence: list[tuple[float, float]]) -> float | None:
    """Share of truth spans overlapped by any retrieved evidence span (None: no truth spans)."""
    if not truth_spans:
        return None
    hit = sum(1 for a, b in truth_spans if any(s < b and e > a for s, e in evidence))
    return hit / len(truth_spans)


_UNITS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                     "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if i > 1}
# The everyday word for a relation is the same person in a free-text answer ("Alfie's mum" / "the patient's mother").
_SAME_PERSON = {syn: head for head in ("mother", "father", "grandmother", "grandfather") for syn in LABEL_SYNONYMS[head]}
_SAME_PERSON.update({"gp": "doctor", "dr": "doctor", "physician": "doctor"})  # "the GP, Dr Pryce" / "the doctor"


def _numbers_as_digits(words: list[str]) -> list[str]:
    """"two hundred and forty" -> "240", "thirty eight" -> "38", and digits read one by one ("nine nine nine")
    -> "999": a number said in words is its digits."""
    out: list[str] = []
    i, run_end = 0, -1  # run_end: len(out) right after a digit read on its own
    while i < len(words):
        total, last, j = 0, None, i
        while j < len(words):
            x = words[j]
            if x in _UNITS and last in (None, "hundred", "and") or x in _UNITS and last == "tens" and _UNITS[x] < 10:
                total, last = total + _UNITS[x], "unit"
            elif x in _TENS and last in (None, "hundred", "and"):
                total, last = total + _TENS[x], "tens"
            elif x == "hundred" and last in ("unit", None):
                total, last = max(total, 1) * 100, "hundred"
            elif x == "and" and last == "hundred" and j + 1 < len(words) and (words[j + 1] in _UNITS or words[j + 1] in _TENS):
                last = "and"
            else:
                break
            j += 1
        if j == i:
            out.append(words[i])
            i, run_end = i + 1, -1
            continue
        if j + 1 < len(words) and words[j] == "point" and words[j + 1] in _UNITS and _UNITS[words[j + 1]] < 10:
            out.append(f"{total}.{_UNITS[words[j + 1]]}")  # "thirty six point eight" -> 36.8
            i, run_end = j + 2, -1
            continue
        digit = last == "unit" and total < 10 and j - i == 1
        if digit and run_end == len(out) and out:
            out[-1] += str(total)  # a digit read after a digit: one number
        else:
            out.append(str(total))
        run_end = len(out) if digit else -1
        i = j
    return out


def _tokens(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+(?:\.[0-9]+)?", text.lower())
    return [_SAME_PERSON.get(w, w) for w in _numbers_as_digits(words)]


def _soundex(word: str) -> str:
    """The Soundex key of a name: "Graham" and "Graeme" (the name as ASR heard it) share one."""
    codes = {**dict.fromkeys("bfpv", "1"), **dict.fromkeys("cgjkqsxz", "2"), **dict.fromkeys("dt", "3"), "l": "4",
             **dict.fromkeys("mn", "5"), "r": "6"}
    w = re.sub(r"[^a-z]", "", word.lower())
    if not w:
        return ""
    out, last = w[0], codes.get(w[0], "")
    for ch in w[1:]:
        code = codes.get(ch, "")
        if code and code != last:
            out += code
        if ch not in "hw":
            last = code
    return (out + "000")[:4]


# Words of a label that say what someone is (a role or relation), as against their name.
_ROLE_WORDS = {*LABEL_SYNONYMS, *(w for syn in LABEL_SYNONYMS.values() for w in syn),
               *"""husband wife partner son daughter brother sister child grandson granddaughter friend carer companion
               receptionist nurse doctor gp pharmacist midwife consultant registrar assistant healthcare counter reader
               presenter caller visitor neighbour interpreter paramedic practitioner clinician junior man woman boy girl
               aunt uncle cousin niece nephew relative""".split()}


def _named_label(truth: str, answer: str) -> bool | None:
    """A label of role and name ("her husband, Graham", "the mother, Kerry"): right when every role word is
    matched and the name is the answer's (as it sounds: ASR spells names its own way) or the answer names nobody.
    None when the truth is not of that form."""
    words = re.findall(r"[A-Za-z]+", truth)
    roles = [w.lower() for w in words if w.lower() in _ROLE_WORDS]
    names = [w for w in words if w[0].isupper() and w.lower() not in _ROLE_WORDS and w.lower() not in _LABEL_STOP]
    if not roles or not names:
        return None
    if not all(label_matches(r, answer) for r in roles):
        return False
    said = [(m.group(0), answer[:m.start()].lower().split()[-1:]) for m in re.finditer(r"\b[A-Z][a-z]{2,}\b", answer)]
    if any(prev and prev[0] in _NEGATORS for _, prev in said):
        return False  # "not Mark, her husband"
    return not said or any(_soundex(n) == _soundex(w) for n in names for w, _ in said)


def label_matches(truth: str, answer: str) -> bool:
    """The truth label or a synonym appears in the answer, not right after a negation."""
    # "the receptionist", "her sister": a label with its article or possessive is the same label
    want = re.sub(r"^(the|a|an|her|his|their|my)\s+", "", truth.lower().strip())
    names = {want, *LABEL_SYNONYMS.get(want, set())}
    for head, syn in LABEL_SYNONYMS.items():  # a truth written as a synonym ("disgusted", "frightened") is its group
        if want in syn:
            names |= {head, *syn}
    words = re.findall(r"[a-z']+", answer.lower())
    if any(w in names and (i == 0 or words[i - 1] not in _NEGATORS) for i, w in enumerate(words)):
        return True
    if " " in want and want in answer.lower():  # multi-word labels
        return True
    named = _named_label(truth, answer)
    if named is not None:
        return named
    # A label of several words ("her husband Mark", "the GP, Dr Pryce") is matched word by word, in any
    # order, each word by itself or its synonym group, none right after a negation ("Mark, her husband").
    parts = [w for w in re.findall(r"[a-z]+", want) if w not in _LABEL_STOP]
    return bool(parts) and (len(parts) > 1 or parts[0] != want) and all(label_matches(w, answer) for w in parts)


def text_overlap(truth: str, answer: str, rationale: str = "", need: float = 0.5) -> bool:
    """The deterministic free-text fallback: at least half (``need``) of the truth's content
    words (numbers as digits) appear in the answer line or its rationale. A truth that restates
    itself in brackets ("39.4 (thirty nine point four)", "the healthcare assistant (Callum)") is
    met by either form."""
    plain = re.sub(r"\([^)]*\)", " ", truth).strip()
    forms = [truth] + ([plain] if plain and plain != truth else []) + re.findall(r"\(([^)]+)\)", truth)
    return any(_overlap(t, answer, rationale, need) for t in forms)


def _overlap(truth: str, answer: str, rationale: str, need: float) -> bool:
    stop = {"the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "about", "at", "with", "her", "his", "she"}
    want = [t for t in _tokens(truth) if t not in stop]
    have = set(_tokens(answer + " " + rationale))
    return bool(want) and sum(t in have for t in want) / len(want) >= need


def answer_correct(kind: str, truth: str, answer: str, rationale: str = "",
                   judge: FreeTextJudge | None = None) -> bool:
    """Deterministic for yesno / time / count / label; free text by ``judge`` (the local LLM)
    when given, else by ``text_overlap``."""
    first = answer.strip().splitlines()[0] if answer.strip() else ""
    low = first.lower()
    if kind == "yesno":
        # The truth's own Yes or No decides: a writer's "Yes, a bruise on her knee" is a Yes (the
        # elaboration is for the reader; scoring it as text would fail every bare "Yes").
        polarity = re.match(r"\s*(yes|no)\b", truth.lower())
        return low.startswith(polarity.group(1) if polarity else truth.lower())
    if kind == "time":
        want = parse_clock(truth)
        got = re.search(r"\d{1,2}:\d{2}(?::\d{2})?", first)
        return want is not None and got is not None and abs((parse_clock(got.group(0)) or -99) - want) <= TIME_TOLERANCE_S
    if kind == "count":
        # the first number, as digits or a word ("seven"): _tokens maps number words to digits
        n = next((int(t) for t in _tokens(first) if t.isdigit()), None)
        want = next((int(t) for t in _tokens(truth) if t.isdigit()), None)
        return n is not None and n == want
    if kind == "label":
        return label_matches(truth, first)
    if judge is not None:
        return judge(truth, first, rationale)
    return text_overlap(truth, first, rationale)


def citation_validity(citations: list[tuple[float, float]], evidence: list[tuple[float, float]]) -> float | None:
    """Rationale faithfulness: share of cited spans inside retrieved evidence (1 s slack); None: no citations."""
    if not citations:
        return None
    ok = sum(1 for a, b in citations if any(a >= s - 1.0 and b <= e + 1.0 for s, e in evidence))
    return ok / len(citations)


def citation_precision(citations: list[tuple[float, float]], truth: list[tuple[float, float]]) -> float | None:
    """Share of cited moments that overlap an annotated truth span (1 s slack); None without
    citations or without truth (a negative question has nothing to overlap)."""
    if not citations or not truth:
        return None
    ok = sum(1 for a, b in citations if any(a < e + 1.0 and b > s - 1.0 for s, e in truth))
    return ok / len(citations)
