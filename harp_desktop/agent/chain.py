"""EChO's evidence chain: a compact, question-focused rendering of what was retrieved.

Raw tool output hurts a small reasoner; this gives it one line per moment (time range,
speaker, transcript, tags, scores), numbered, capped near 1k tokens.
"""

from __future__ import annotations

import re

from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

MAX_CHARS = 3600  # ~1k tokens for the Qwen tokenizer on English text
MAX_TEXT = 260
EMOTION_SHOWN = 0.6  # settle.EMOTION_MIN: the same bar for showing an emotion as for answering with it


def span(ev: Evidence) -> str:
    a, b = format_clock(ev.start_s), format_clock(ev.end_s)
    return f"[{a}-{b}]" if b != a else f"[{a}]"


def short_speaker(name: str | None) -> str:
    """"SPEAKER_11" -> "S11": each line of the chain names a speaker, and on 2 cores every prompt
    token costs ~15 ms. Names a user gave speakers are kept as they are."""
    if not name:
        return "unknown speaker"
    m = re.fullmatch(r"SPEAKER_(\d+)", name)
    return f"S{m.group(1)}" if m else name


def long_speaker(text: str) -> str:
    """The model's rationale speaks of "S11": give the reader the label the app shows."""
    return re.sub(r"\bS(\d{1,3})\b", r"SPEAKER_\1", text)


def noise(label: str) -> bool:
    """Neutral/calm say nothing, and an emotion below the answer threshold is a guess."""
    m = re.match(r"emotion:(\w+) \(([\d.]+)\)", label)
    return bool(m) and (m.group(1) in ("neutral", "calm") or float(m.group(2)) < EMOTION_SHOWN)


def _score(ev: Evidence) -> str:
    if "reply" in ev.scores and len(ev.scores) == 1:
        return " (reply)"
    tools = [v for k, v in ev.scores.items() if k not in ("time", "fused", "reply")]
    return f" (match {max(tools):.2f})" if tools else ""


def render(evidence: list[Evidence], max_chars: int = MAX_CHARS) -> str:
    """One line per moment: number, time range, speaker, words, tags, best tool score."""
    lines = []
    used = 0
    for i, ev in enumerate(evidence, 1):
        text = ev.text.strip()
        if len(text) > MAX_TEXT:
            text = text[: MAX_TEXT - 3] + "..."
        labels = [lab.replace(" (", " ").rstrip(")") for lab in ev.labels if not noise(lab)]
        tags = f" tags: {', '.join(labels[:4])}." if labels else ""
        said = f': "{text}"' if text else " (no speech)"
        line = f"E{i} {span(ev)} {short_speaker(ev.speaker)}{said}{tags}{_score(ev)}"
        if used + len(line) > max_chars:
            lines.append(f"... {len(evidence) - i + 1} more moments omitted")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines) if lines else "(no evidence found)"
