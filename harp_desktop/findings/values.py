"""Values said with a concept: doses, frequencies, durations and measurements, spoken or written.

ASR writes numbers either way ("thirty eight point two", "38.2", "one forty over ninety"), so
number words are folded into numbers first and the patterns run over the folded sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_UNITS["oh"] = 0
_TENS = {w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"hundred": 100, "thousand": 1000}

_DOSE_UNITS = {
    "mg": "mg", "milligram": "mg", "milligrams": "mg", "milligramme": "mg", "milligrammes": "mg",
    "g": "g", "gram": "g", "grams": "g", "gramme": "g", "grammes": "g",
    "microgram": "micrograms", "micrograms": "micrograms", "mcg": "micrograms", "ug": "micrograms",
    "ml": "ml", "millilitre": "ml", "millilitres": "ml", "milliliter": "ml", "milliliters": "ml", "mls": "ml",
    "tablet": "tablets", "tablets": "tablets", "puff": "puffs", "puffs": "puffs", "capsule": "capsules",
    "capsules": "capsules", "drop": "drops", "drops": "drops", "sachet": "sachets", "sachets": "sachets",
    "spoonful": "spoonfuls", "spoonfuls": "spoonfuls", "teaspoon": "teaspoons", "teaspoons": "teaspoons",
}
_TIME_UNITS = r"(?:minutes?|hours?|days?|nights?|weeks?|months?|years?)"


@dataclass
class Value:
    kind: str  # dose | frequency | duration | temperature | bp | percent | rate | weight | per_day | ago
    text: str  # normalised: "1 g", "38.2", "140/90", "three times a day"
    start: int  # token positions in the sentence
    end: int


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def fold_numbers(tokens: list[str]) -> list[tuple[str, int, int]]:
    """Tokens with number words folded: ("38.2", i, j) for "thirty eight point two" at [i, j)."""
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(tokens):
        value, j = _read_number(tokens, i)
        if j > i:
            out.append((_fmt(value), i, j))
            i = j
        else:
            out.append((tokens[i], i, i + 1))
            i += 1
    return out


def _read_number(tokens: list[str], i: int) -> tuple[float, int]:
    total, current, j, last = 0.0, 0.0, i, None
    while j < len(tokens):
        t = tokens[j]
        if re.fullmatch(r"\d+(?:\.\d+)?", t) and last is None:
            current, last, j = float(t), "digits", j + 1
            break
        if t in _UNITS and last in (None, "tens", "scale", "and"):
            current += _UNITS[t]
            last = "unit"
        elif t in _TENS and last in (None, "scale", "and"):
            current += _TENS[t]
            last = "tens"
        elif t in _SCALES and last in ("unit", "tens", "a"):
            current = (current or 1) * _SCALES[t]
            if _SCALES[t] == 1000:
                total, current = total + current, 0.0
            last = "scale"
        elif t == "a" and last is None and j + 1 < len(tokens) and tokens[j + 1] in _SCALES:
            last = "a"
        elif t == "and" and last == "scale" and j + 1 < len(tokens) and (tokens[j + 1] in _UNITS or tokens[j + 1] in _TENS):
            last = "and"
        else:
            break
        j += 1
    if last in (None, "a", "and"):
        return 0.0, i
    number = total + current
    # "point two", "point five oh": digits after the point, one word each.
    if j + 1 < len(tokens) and tokens[j] == "point" and tokens[j + 1] in _UNITS and _UNITS[tokens[j + 1]] < 10:
        digits, k = "", j + 1
        while k < len(tokens) and tokens[k] in _UNITS and _UNITS[tokens[k]] < 10:
            digits += str(_UNITS[tokens[k]])
            k += 1
        return float(f"{int(number)}.{digits}"), k
    return number, j


_NUM = r"\d+(?:\.\d+)?"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # ASR writes "148 over 86" as "148.86": after the words "blood pressure", a decimal of two whole numbers is the pair.
    ("bp", re.compile(r"\b(?:blood pressure|bp)(?: (?:is|was|of|reading|reads|today|now|still))*(?: (?:about|around|up at))?"
                      r" (?P<a>(?:[7-9]\d|1\d\d|2[0-5]\d))\.(?P<b>(?:[3-9]\d|1[0-4]\d))\b")),
    ("bp", re.compile(rf"\b(?P<a>{_NUM})(?: (?P<a2>\d\d))? (?:over|/) (?P<b>{_NUM})\b")),
    ("temperature", re.compile(rf"\b(?P<n>(?:3[4-9]|4[0-3])\.\d)\b|\b(?P<d>{_NUM}) (?:degrees?|celsius|centigrade)\b")),
    ("percent", re.compile(rf"\b(?P<n>{_NUM}) (?:percent|per cent|%)")),
    ("rate", re.compile(rf"\b(?P<n>{_NUM}) (?:(?:beats|breaths)(?: (?:a|per) minute)?|(?:a|per) minute|bpm)\b")),
    ("weight", re.compile(rf"\b(?P<n>{_NUM}) (?P<u>kilos?|kilograms?|kg|kgs|stone|pounds|lbs?)\b")),
    ("dose", re.compile(rf"\b(?P<n>{_NUM}) (?P<u>{'|'.join(sorted(_DOSE_UNITS, key=len, reverse=True))})\b")),
    ("frequency", re.compile(
        rf"\b(?:(?:once|twice|{_NUM} times) (?:a|per|every) (?:day|week|night)|(?:once|twice) daily|"
        rf"every (?:morning|evening|night|day|other day|{_NUM} hours|four hours|few hours)|each (?:morning|night|evening)|"
        r"(?:at night|at bedtime|in the morning|in the evening)(?! (?:and|with))|as needed|when needed|as required|when required|"
        r"(?:once )?daily|weekly|bd|tds|qds|prn)\b")),
    ("per_day", re.compile(rf"\b(?P<n>{_NUM}) (?:a|per) day\b|\b(?P<u>{_NUM}) units? (?:a|per) week\b")),
    ("ago", re.compile(rf"\b(?P<n>{_NUM}|a few|a couple of) {_TIME_UNITS} ago\b")),
    ("duration", re.compile(
        rf"\b(?:for |over |past |last )?(?:about |around |nearly |almost |over )?(?P<n>{_NUM}|a few|a couple of|a) {_TIME_UNITS}\b"
        r"|\bsince (?:yesterday|last (?:night|week|month|year)|the weekend|monday|tuesday|wednesday|thursday|friday|"
        r"saturday|sunday|christmas|then)(?: (?:morning|afternoon|evening|night))?\b")),
]


def find_values(tokens: list[str]) -> list[Value]:
    """Every value in one sentence, in order, none overlapping (the first pattern listed wins)."""
    folded = fold_numbers(tokens)
    text, starts = "", []
    for word, _, _ in folded:
        starts.append(len(text))
        text += word + " "
    taken: list[tuple[int, int]] = []
    found: list[Value] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            a, b = m.span()
            if any(a < y and x < b for x, y in taken):
                continue
            if kind == "duration" and m.group(0).startswith(("a day", "a week", "a night")):
                continue  # "a day" is the tail of a frequency or a count, not a duration
            taken.append((a, b))
            i0 = max(k for k, s in enumerate(starts) if s <= a)
            i1 = max(k for k, s in enumerate(starts) if s < b)
            start, end = folded[i0][1], folded[i1][2]
            # A frequency reads best as said ("three times a day"); measurements as numbers.
            said = " ".join(tokens[start:end]) if kind == "frequency" else _normalise(kind, m)
            found.append(Value(kind, said, start, end))
    return sorted(found, key=lambda v: v.start)


def _normalise(kind: str, m: re.Match[str]) -> str:
    g = m.groupdict()
    if kind == "bp":
        a = float(g["a"])
        if g.get("a2"):  # "one forty over ninety" -> 1 and 40 -> 140
            a = a * 100 + float(g["a2"])
        return f"{_fmt(a)}/{g['b']}"
    if kind == "temperature":
        return g["n"] or g["d"]
    if kind == "percent":
        return f"{g['n']}%"
    if kind == "rate":
        return f"{g['n']}/min"
    if kind == "weight":
        unit = {"stone": "stone", "pounds": "lb", "lbs": "lb", "lb": "lb"}.get(g["u"], "kg")
        return f"{g['n']} {unit}"
    if kind == "dose":
        return f"{g['n']} {_DOSE_UNITS[g['u']]}"
    text = re.sub(r"^(?:for |over |past |last )?(?:about |around |nearly |almost |over )?", "", m.group(0).strip())
    return text


def describe(values: list[Value], kinds: tuple[str, ...]) -> str | None:
    """One value string from the values of the wanted kinds, in the order said."""
    parts = [v.text for v in values if v.kind in kinds]
    return " ".join(dict.fromkeys(parts)) or None
