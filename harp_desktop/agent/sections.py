"""Named parts of a recording that only the turn structure reveals.

"During the consultation" names no time, but a consultation is the longest back-and-forth
between two voices; a recording may hold other material around it (a dictated note, a
phone call, a waiting room). The window is found from the diarized turns, and the answer
says which window was used.
"""

from __future__ import annotations

import re

DIALOGUE = re.compile(r"\b(consultation|appointment|visit|examination|interview)\b", re.I)
MAX_GAP_S = 6.0  # a longer silence ends the exchange
MIN_CHANGES = 4  # fewer turn changes is not a dialogue
EDGE_S = 2.0  # sounds just before or after the first / last turn belong to it (a cough after "thank you")


def dialogue_span(segments: list[dict]) -> tuple[float, float] | None:
    """Start and end of the two-speaker exchange with the most turn changes, or None."""
    turns = sorted((s for s in segments if s["speaker"] and s["text"].strip()), key=lambda s: s["start_s"])
    best: tuple[int, float, float] | None = None
    i = 0
    while i < len(turns):
        pair = {turns[i]["speaker"]}
        changes, j, third = 0, i + 1, False
        while j < len(turns) and turns[j]["start_s"] - turns[j - 1]["end_s"] <= MAX_GAP_S:
            spk = turns[j]["speaker"]
            if spk not in pair and len(pair) == 2:
                third = True
                break
            pair.add(spk)
            changes += spk != turns[j - 1]["speaker"]
            j += 1
        if changes >= MIN_CHANGES and (best is None or changes > best[0]):
            best = (changes, turns[i]["start_s"], turns[j - 1]["end_s"])
        # A third voice ends this pair's run, but its last speaker may start the next one.
        i = max(i + 1, j - 1) if third else max(i + 1, j)
    return None if best is None else (max(0.0, best[1] - EDGE_S), best[2] + EDGE_S)
