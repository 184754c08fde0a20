"""Question -> reply pairing: in a consultation the answer to "do you smoke?" is the next
turn, which shares no words with the question asked of the recording ("what smoking
history does the patient give?"). Retrieval finds the clinician's question; this adds the
other speaker's reply that follows it, marked with the ``reply`` score so it is clear why
it is there (and so fusion scores are not invented for it).
"""

from __future__ import annotations

import re

from harp_desktop.types import Evidence

REPLY_GAP_S = 4.0  # a reply starts within this many seconds of the question's end
MAX_REPLIES = 3
REPLY_WEIGHT = 0.9


def asks(text: str) -> bool:
    """The turn ends in a question (its last sentence), as transcribed."""
    last = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s][-1:] or [""]
    return last[0].rstrip().endswith("?")


def reply_to(segments: list[dict], seg_id: int) -> dict | None:
    """The next turn by another speaker, if it starts soon after ``seg_id`` ends."""
    ordered = sorted(segments, key=lambda s: s["start_s"])
    pos = next((i for i, s in enumerate(ordered) if s["id"] == seg_id), None)
    if pos is None:
        return None
    asked = ordered[pos]
    for nxt in ordered[pos + 1 : pos + 3]:
        if nxt["start_s"] - asked["end_s"] > REPLY_GAP_S:
            return None
        if nxt["text"].strip() and nxt["speaker"] != asked["speaker"]:
            return nxt
    return None


def add_replies(evidence: list[Evidence], segments: list[dict], make) -> list[Evidence]:
    """``evidence`` plus the replies to its questions (best-ranked questions first).

    ``make(segment, score)`` builds an Evidence item (RecordingTools.from_segment's shape).
    """
    have = {e.segment_id for e in evidence}
    ranked = sorted(evidence, key=lambda e: -e.rank)
    added: list[Evidence] = []
    for e in ranked:
        if len(added) >= MAX_REPLIES:
            break
        if e.segment_id is None or not asks(e.text):
            continue
        seg = reply_to(segments, e.segment_id)
        if seg is None or seg["id"] in have:
            continue
        # Just below its question: a reply found only through its question must not outrank a direct hit.
        item = make(seg, REPLY_WEIGHT * e.scores.get("fused", 0.0))
        added.append(item)
        have.add(seg["id"])
    return sorted(evidence + added, key=lambda e: e.start_s)
