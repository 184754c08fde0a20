"""EChO's evidence chain: a compact, question-focused rendering of what was retrieved.

Raw tool output hurts a small reasoner; this gives it one line per moment (time range,
speaker, transcript, tags, scores), numbered, capped near 1k tokens.
"""

from __future__ import annotations

from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import Evidence

MAX_CHARS = 3600  # ~1k tokens for the Qwen tokenizer on English text
MAX_TEXT = 260


def span(ev: Evidence) -> str:
    a, b = format_clock(ev.start_s), format_clock(ev.end_s)
    return f"[{a}-{b}]" if b != a else f"[{a}]"


def render(evidence: list[Evidence], max_chars: int = MAX_CHARS) -> str:
    lines = []
    used = 0
    for i, ev in enumerate(evidence, 1):
        text = ev.text.strip()
        if len(text) > MAX_TEXT:
            text = text[: MAX_TEXT - 3] + "..."
        labels = [lab for lab in ev.labels if not lab.startswith(("emotion:neutral", "emotion:calm"))]  # noise
        tags = f" tags: {', '.join(labels[:4])}." if labels else ""
        scores = ", ".join(f"{k} {v:.2f}" for k, v in ev.scores.items() if k not in ("time", "fused"))
        who = ev.speaker or "unknown speaker"
        said = f' says: "{text}"' if text else " (no speech)"
        line = f"E{i} {span(ev)} {who}{said}{tags}" + (f" ({scores})" if scores else "")
        if used + len(line) > max_chars:
            lines.append(f"... {len(evidence) - i + 1} more moments omitted")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines) if lines else "(no evidence found)"
