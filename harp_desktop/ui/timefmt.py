"""Clock formatting and the [mm:ss] / [mm:ss-mm:ss] citations answers carry (no Qt)."""

from __future__ import annotations

import html
import math
import re

from harp_desktop.retrieval.localize import format_clock

_CLOCK = r"\d{1,2}(?::\d{2}){1,2}"
CITATION = re.compile(rf"\[({_CLOCK})(?:\s*-\s*({_CLOCK}))?\]")


def clock(t: float, tenths: bool = False) -> str:
    """65.4 -> "01:05" (or "01:05.4"); an hour or more -> "1:01:05"."""
    if not math.isfinite(t):
        return "--:--"
    t = max(0.0, t)
    if not tenths:
        return format_clock(t)
    h, rem = divmod(t, 3600)
    m, s = divmod(rem, 60)
    s = math.floor(s * 10) / 10
    return f"{int(h)}:{int(m):02d}:{s:04.1f}" if h >= 1 else f"{int(m):02d}:{s:04.1f}"


def parse_clock(text: str) -> float:
    """"01:05" -> 65.0; "1:01:05" -> 3665.0."""
    total = 0.0
    for part in text.strip().split(":"):
        total = total * 60 + float(part)
    return total


def span_text(start_s: float, end_s: float) -> str:
    a, b = clock(start_s), clock(end_s)
    return a if a == b else f"{a}-{b}"


def link_citations(text: str, exact: list[tuple[float, float]] | None = None) -> str:
    """HTML-escape ``text`` and turn each citation into an ``<a href="t:START-END">`` anchor.

    Citations are written to the second; when one matches a span the answer cites
    exactly (``exact``), the link carries the exact times, so a click lands on the
    evidence's real start rather than the rounded one.
    """
    by_label = {}
    for a, b in exact or []:
        by_label.setdefault((format_clock(a), format_clock(b)), (a, b))
        by_label.setdefault((format_clock(a), format_clock(a)), (a, b))
    out, last = [], 0
    for m in CITATION.finditer(text):
        out.append(html.escape(text[last:m.start()]))
        a_txt, b_txt = m.group(1), m.group(2) or m.group(1)
        start, end = by_label.get((a_txt, b_txt), (parse_clock(a_txt), parse_clock(b_txt)))
        out.append(f'<a href="t:{start:.3f}-{end:.3f}">{html.escape(m.group(0))}</a>')
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def parse_anchor(href: str) -> tuple[float, float] | None:
    """``t:12.300-15.000`` -> (12.3, 15.0); anything else -> None."""
    if not href.startswith("t:"):
        return None
    try:
        a, _, b = href[2:].partition("-")
        start = float(a)
        return start, float(b) if b else start
    except ValueError:
        return None
