"""Find the part of a recording a question is about from the time expressions in it.

Times are parsed here, in code, never by the LLM (a small model turned 4:52 into 44:52).
Every regex is a keyword or number followed by bounded, non-nested pieces, so matching is
linear in the input length even for hostile text.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

AROUND_S = 30.0  # "around 5 minutes" -> anchor +/- this
AT_S = 15.0  # "at 04:07" / "30 seconds in" -> anchor +/- this
EDGE_S = 60.0  # "at the very start" / "at the very end" -> this much
# "at the end" / "towards the start" without a length is vague: a share of what it is the end of
# (the recording, or the section it names), at least EDGE_S and at most EDGE_MAX_S. A fixed minute
# was too narrow on 10-minute recordings ("by the end, does she say she's relieved?" is answered
# two minutes before the end).
EDGE_SHARE, EDGE_MAX_S = 0.2, 300.0
MAX_CHARS = 50_000  # longer questions are cut here (the tail is ignored)


@dataclass(frozen=True)
class Window:
    """A span of the recording in seconds; anchor_s is the point the question names, if any."""

    start_s: float
    end_s: float
    anchor_s: float | None = None
    text: str = ""  # the phrase that produced it


def _alt(words: list[str]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


_ONES = "one two three four five six seven eight nine".split()
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "twenty thirty forty fifty sixty".split()
_WORDS = {w: i for i, w in enumerate(["zero", *_ONES, *_TEENS])} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_ORD_SMALL = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
              "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth").split()
_ORD_TENS = "twentieth thirtieth fortieth fiftieth sixtieth".split()
_ORDS = {w: i + 1 for i, w in enumerate(_ORD_SMALL)} | {w: 20 + 10 * i for i, w in enumerate(_ORD_TENS)}
_UNIT_S = {"h": 3600.0, "m": 60.0, "s": 1.0}  # keyed by the unit's first letter

_NUM = (rf"(?:(?<![\w.:])\d{{1,5}}(?:\.\d{{1,3}})?(?![\d:]|\.\d)"
        rf"|\b(?:(?:{_alt(_TENS)})(?:[- ](?:{_alt(_ONES)}))?|{_alt(_TEENS)}|zero|{_alt(_ONES)})\b)")
_ORD = (rf"(?:\d{{1,3}}(?:st|nd|rd|th)|(?:{_alt(_TENS)})[- ](?:{_alt(_ORD_SMALL[:9])})"
        rf"|{_alt(_ORD_SMALL + _ORD_TENS)})\b")
_UNIT = r"(?:hours?|hrs?|h|minutes?|mins?|seconds?|secs?|s)\b"  # ("23 s": a time written with its SI symbol)
_QTY = rf"(?:{_NUM}(?:\sand\sa\shalf\b)?|\bhalf\san?\b|\ban?\shalf\b|\bhalf\b|\ban?\b)"
_DUR = rf"{_QTY}\s?-?\s?{_UNIT}(?:\sand\sa\shalf\b|,?\s(?:and\s)?{_NUM}\s?{_UNIT})?"
_CLOCK = r"(?<![\d:.])\d{1,3}(?::\d{2}){1,2}(?![\d:]|\.\d|\s?[ap]\.?m\b)"
_POINT = rf"(?:{_CLOCK}|minute\s{_NUM}|{_DUR})(?:\smark\b)?"
_END = rf"(?:(?:minute|min|second|sec|hour)s?\s{_NUM}|{_CLOCK}|{_NUM}(?:\s?-?\s?{_UNIT})?)(?:\smark\b)?"
_CONN = r"(?:\s(?:and|to|until|till|through|thru)\s|\s?[-\u2013\u2014]\s?)"
_REC = r"(?:recording|audio|clip|conversation|interview|call|file|tape|session|meeting|video|consultation|track)"
_IN_TAIL = rf"\s(?:into\b|in(?=\s?[,.?!;:)]|\s?$|\s(?:the\s|this\s)?{_REC}\b))"
_OF_REC = rf"(?!\sof\s(?!(?:the\s|this\s)?{_REC}\b))"  # "at the end of the recording", not "...of the day"
_APPROX = r"(?:about|around|approximately|approx\.?|roughly|near|circa)"

_FLAGS = re.IGNORECASE | re.ASCII
# Most specific first; a later pattern may not reuse text an earlier one matched.
_PATTERNS = [(kind, re.compile(rx, _FLAGS)) for kind, rx in [
    ("range", rf"\b(?:between|from)\s(?:the\s)?(?P<a>{_END}){_CONN}(?:the\s)?(?P<b>{_END})"),
    ("range", rf"(?P<a>{_CLOCK}){_CONN}(?P<b>{_CLOCK})"),
    ("edge", rf"(?<!ty[- ])\b(?P<k>first|opening|initial|last|final|closing)\s(?:(?P<q>{_QTY})\s?-?\s?)?(?P<u>{_UNIT})"),
    ("nth", rf"\b(?P<o>{_ORD})\s(?P<u>minute|hour)\b"),
    ("nth", rf"\b(?:in|during|within|throughout)\s(?:the\s)?(?P<u>minute|hour)\s(?P<o>{_NUM})"),
    ("side", rf"\b(?P<k>after|later\sthan|before|until|till|prior\sto|earlier\sthan|from)\s(?:{_APPROX}\s)?"
             rf"(?:the\s)?(?P<p>{_POINT})(?P<on>\s(?:on|onwards?|forwards?)\b)?"),
    ("around", rf"(?:\b(?P<k>{_APPROX})\s|~\s?)(?:the\s)?(?P<p>{_POINT})(?P<t>{_IN_TAIL})?"),
    ("at", rf"(?:\bat\s|@\s?)(?:the\s)?(?:(?:exactly|precisely|just)\s)?(?P<p>{_POINT})"),
    ("at", rf"(?P<p>{_DUR}){_IN_TAIL}"),
    ("start", rf"\b(?:at|in|near|towards?|around|from)\s(?:the\s)?(?:very\s)?(?:start|beginning|outset)\b{_OF_REC}"),
    ("end", rf"\b(?:at|near|towards?|around|by)\s(?:the\s)?(?:very\s)?end\b{_OF_REC}"),
    ("at", rf"(?P<p>{_CLOCK})"),
]]
_CLOCK_RE = re.compile(_CLOCK, _FLAGS)
_PART_RE = re.compile(rf"({_QTY})\s?-?\s?({_UNIT})(\sand\sa\shalf\b)?", _FLAGS)
_MINUTE_N_RE = re.compile(rf"minute\s({_NUM})", _FLAGS)
_UNIT_FIRST_RE = re.compile(rf"(minute|min|second|sec|hour)s?\s({_NUM})", _FLAGS)
_HAS_UNIT_RE = re.compile(_UNIT, _FLAGS)
_A_SECOND_RE = re.compile(r"an?\ssecond\b", _FLAGS)  # "a second opinion" is not a time
_DURATION_CTX_RE = re.compile(r"\b(?:for|lasts?|lasted|lasting|took|takes|taking|spent|every|per|within)\s$", _FLAGS)
_CLOCK_FULL_RE = re.compile(r"(\d{1,3}):(\d{2})(?::(\d{2}))?(?:\.(\d{1,3}))?", re.ASCII)


def _normalize(s: str) -> str:
    """NFKC, any Unicode decimal digit -> ASCII, whitespace runs -> one space."""
    s = unicodedata.normalize("NFKC", s)
    s = "".join(str(unicodedata.decimal(c, c)) if not c.isascii() and c.isdecimal() else c for c in s)
    return re.sub(r"\s+", " ", s).strip()


def parse_clock(s: str) -> float | None:
    """Parse "04:07" -> 247.0, "52:30" -> 3150.0 (mm:ss), "1:02:03" -> 3723.0 (h:mm:ss); else None."""
    if not isinstance(s, str) or len(s) > 40:
        return None
    m = _CLOCK_FULL_RE.fullmatch(_normalize(s))
    if not m:
        return None
    a, b, c, frac = m.groups()
    hours, mins, secs = (0, int(a), int(b)) if c is None else (int(a), int(b), int(c))
    if secs >= 60 or (c is not None and mins >= 60):
        return None
    return hours * 3600.0 + mins * 60.0 + secs + (float("0." + frac) if frac else 0.0)


def format_clock(t: float) -> str:
    """247.0 -> "04:07"; one hour or more -> "1:02:03" (rounded to the second)."""
    if not math.isfinite(t):
        return "--:--"
    h, rem = divmod(max(0, round(t)), 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def _num(s: str) -> float:
    s = s.lower().strip()
    extra = 0.0
    if s.endswith(" and a half"):
        s, extra = s[: -len(" and a half")], 0.5
    if s in ("a", "an"):
        return 1.0 + extra
    if "half" in s:
        return 0.5 + extra
    if s[:1].isdigit():
        return float(s) + extra
    return sum(_WORDS.get(w, 0) for w in re.split(r"[- ]", s)) + extra


def _ordinal(s: str) -> float:
    s = s.lower().strip()
    if s[:1].isdigit():
        return float(s.rstrip("stndrh"))
    if s in _ORDS or "-" in s or " " in s:
        return sum(_ORDS.get(w, _WORDS.get(w, 0)) for w in re.split(r"[- ]", s))
    return _num(s)


def _dur(s: str) -> float | None:
    if _A_SECOND_RE.match(s):
        return None
    parts = [(_num(q) + (0.5 if half else 0.0)) * _UNIT_S[u[0].lower()] for q, u, half in _PART_RE.findall(s)]
    return sum(parts) if parts else None


def _point(s: str) -> float | None:
    if c := _CLOCK_RE.search(s):
        return parse_clock(c.group())
    if m := _MINUTE_N_RE.match(s):
        return _num(m[1]) * 60.0
    return _dur(s)


def _range_end(s: str) -> tuple[float | None, float | None]:
    """(seconds or bare number, unit multiplier or None); a bare number takes the other end's unit."""
    s = re.sub(r"\smark$", "", s, flags=_FLAGS)
    if _CLOCK_RE.search(s):
        return _point(s), None
    if m := _UNIT_FIRST_RE.match(s):
        mult = _UNIT_S[m[1][0].lower()]
        return _num(m[2]) * mult, mult
    if units := _HAS_UNIT_RE.findall(s):
        return _dur(s), _UNIT_S[units[-1][0].lower()]
    return _num(s), 0.0  # 0.0 marks "bare number, unit still to come"


def _span(kind: str, m: re.Match[str], text: str, dur: float | None) -> tuple[float, float, float | None] | None:
    g = m.groupdict()
    if kind == "range":
        (a, ma), (b, mb) = _range_end(g["a"]), _range_end(g["b"])
        if a is None or b is None:
            return None
        if ma == 0.0 or mb == 0.0:  # a bare number borrows the other end's unit ("between 2 and 3 minutes")
            other = mb if ma == 0.0 else ma
            if not other:  # both bare ("from 2 to 3 times"), or a clock ("between 52:30 and 53")
                return None
            a, b = (a * other, b) if ma == 0.0 else (a, b * other)
        return min(a, b), max(a, b), None
    if kind == "edge":
        length = _num(g["q"]) if g["q"] else 1.0
        if g["q"] and _A_SECOND_RE.fullmatch(f"{g['q']} {g['u']}"):
            return None
        length *= _UNIT_S[g["u"][0].lower()]
        if g["k"].lower() in ("first", "opening", "initial"):
            return 0.0, length, None
        return None if dur is None else (dur - length, dur, None)
    if kind == "nth":
        n, unit = _ordinal(g["o"]), _UNIT_S[g["u"][0].lower()]
        return ((n - 1) * unit, n * unit, None) if n >= 1 and n == int(n) else None
    very = bool(re.search(r"\bvery\b", m.group(), _FLAGS))
    if kind == "start":
        return 0.0, vague_edge_s(dur if dur is not None else 0.0, very), None
    if kind == "end":
        return None if dur is None else (dur - vague_edge_s(dur, very), dur, None)
    p = _point(g["p"])
    if p is None:
        return None
    if kind == "side":
        k = g["k"].lower()
        if k.startswith(("after", "later")) or (k == "from" and g["on"]):
            return p, (math.inf if dur is None else dur), None
        return None if k == "from" else (0.0, p, None)
    if kind == "around":
        if _DURATION_CTX_RE.search(text[max(0, m.start() - 12): m.start()]):
            return None  # "for about 5 minutes" is a length, not a position
        if (g["k"] or "").lower() == "about" and not (g["t"] or re.search(r"mark|:|^minute", g["p"], _FLAGS)):
            return None  # "about 5 minutes" alone is usually a length; "about 5 minutes in" is a position
        return p - AROUND_S, p + AROUND_S, p
    return p - AT_S, p + AT_S, p


def vague_edge_s(span_s: float, very: bool = False) -> float:
    """How much of a span of ``span_s`` seconds "at the start" / "at the end" covers."""
    return EDGE_S if very else max(EDGE_S, min(EDGE_MAX_S, EDGE_SHARE * span_s))


def is_vague_edge(text: str) -> bool:
    """The window phrase is a bare "at the start/end" (no length, no clock time)."""
    return bool(re.fullmatch(r"(?:at|in|near|towards?|around|from|by)\s(?:the\s)?(?:very\s)?"
                             r"(?:start|beginning|outset|end)", text.strip(), _FLAGS))


_VAGUE = re.compile(r"\b(start|beginning|end|middle|early|late|towards?|near|final|last|first)\b", re.I)


def localize(question: str, duration_s: float | None = None) -> Window | None:
    """The window of the recording the question points at, or None when it names no time.

    With several time expressions, the earliest in the question wins; where expressions overlap,
    the more specific pattern (ranges, then first/last, then nth minute, ...) claims the text.
    """
    if not isinstance(question, str) or not question:
        return None
    ok = isinstance(duration_s, int | float) and math.isfinite(duration_s) and duration_s >= 0
    dur = float(duration_s) if ok else None
    text = _normalize(question[:MAX_CHARS])
    claimed = bytearray(len(text))
    best: tuple[int, Window] | None = None
    anchored: list[Window] = []
    for kind, rx in _PATTERNS:
        for m in rx.finditer(text):
            s, e = m.span()
            if any(claimed[s:e]):
                continue
            claimed[s:e] = b"\x01" * (e - s)
            try:
                span = _span(kind, m, text, dur)
            except (ValueError, KeyError, ArithmeticError):
                span = None
            if span is None:
                continue
            start, end, anchor = span
            start, end = max(0.0, start), (end if dur is None else min(dur, end))
            if start < end and (anchor is None or dur is None or anchor <= dur):
                found = Window(start, end, anchor, m.group().strip())
                anchored.append(found)
                if best is None or s < best[0]:
                    best = (s, found)
    # "Right at the end of the consultation (about 10:00)": a time to the second says more than a
    # vague stretch named before it.
    if best is not None and best[1].anchor_s is None and anchored and _VAGUE.search(best[1].text):
        timed = [w for w in anchored if w.anchor_s is not None]
        if timed:
            return timed[0]
    return best[1] if best else None
