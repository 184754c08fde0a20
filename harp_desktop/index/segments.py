"""HARP's turn rules: speech regions split at speaker changes, same-speaker pieces
joined into turns, turns over ~15 s split evenly, turns under 0.6 s merged into a
neighbour. Cut points snap to pauses between words so no word is cut in half.
"""

from __future__ import annotations

import bisect
import math

import numpy as np

from harp_desktop.types import Region, Segment, Word

MAX_TURN_S = 15.0
# A turn shorter than this joins its nearer neighbour. 1.0 s while GE2E labelled the windows; CAM++
# labels a one-word reply ("Yes.", "No.") right more often than its neighbour's voice is (turns under
# 1.5 s right 0.67 -> 0.86 on the five dev recordings, same at 0.5-0.7 s, less from 0.8 s).
MIN_TURN_S = 0.6
JOIN_GAP_S = 1.0  # same speaker, pause shorter than this: still one turn
MERGE_GAP_S = 2.0  # a short turn further than this from any neighbour stays alone


def _smooth(labels: list[int]) -> list[int]:
    """Majority of each label and its two neighbours: one odd window is not a change."""
    if len(labels) < 3:
        return labels
    out = labels[:]
    for i in range(1, len(labels) - 1):
        if labels[i - 1] == labels[i + 1] != labels[i]:
            out[i] = labels[i - 1]
    return out


def _snap(t: float, word_gaps: list[float], lo: float, hi: float, reach: float) -> float:
    """Nearest pause between words to ``t`` within ``reach`` and inside (lo, hi)."""
    i = bisect.bisect_left(word_gaps, t)
    best = t
    for g in word_gaps[max(0, i - 2) : i + 2]:
        if lo < g < hi and abs(g - t) <= reach and abs(g - t) < abs(best - t) + (best == t) * reach:
            best = g
    return best


def _word_gaps(words: list[Word]) -> list[float]:
    return [(a.end_s + b.start_s) / 2 for a, b in zip(words, words[1:], strict=False)]


def speaker_pieces(
    regions: list[Region], centres: np.ndarray, labels: np.ndarray, words: list[Word]
) -> list[tuple[float, float, int | None]]:
    """Split each speech region where the window speaker label changes."""
    gaps = _word_gaps(words)
    pieces: list[tuple[float, float, int | None]] = []
    for r in regions:
        inside = [(float(c), int(lab)) for c, lab in zip(centres, labels, strict=False) if r.start_s <= c <= r.end_s]
        if not inside:
            pieces.append((r.start_s, r.end_s, None))
            continue
        smooth = _smooth([lab for _, lab in inside])
        start, current = r.start_s, smooth[0]
        for (c0, _), (c1, _), l0, l1 in zip(inside, inside[1:], smooth, smooth[1:], strict=False):
            if l1 != l0:
                cut = _snap((c0 + c1) / 2, gaps, start + 0.2, r.end_s - 0.2, reach=0.8)
                pieces.append((start, cut, current))
                start, current = cut, l1
        pieces.append((start, r.end_s, current))
    # Regions with no window (too short to embed) take the nearest labelled neighbour's speaker.
    labelled = [i for i, p in enumerate(pieces) if p[2] is not None]
    for i, (a, b, lab) in enumerate(pieces):
        if lab is None and labelled:
            j = min(labelled, key=lambda k: abs(k - i))
            pieces[i] = (a, b, pieces[j][2])
    return pieces


def build_turns(pieces: list[tuple[float, float, int | None]], words: list[Word]) -> list[Segment]:
    turns: list[list] = []
    for a, b, lab in pieces:
        if turns and turns[-1][2] == lab and a - turns[-1][1] <= JOIN_GAP_S:
            turns[-1][1] = b
        else:
            turns.append([a, b, lab])
    gaps = _word_gaps(words)
    split: list[list] = []
    for a, b, lab in turns:
        n = math.ceil((b - a) / MAX_TURN_S - 1e-9)
        if n <= 1:
            split.append([a, b, lab])
            continue
        cuts = [a] + [_snap(a + (b - a) * k / n, gaps, a + 1.0, b - 1.0, reach=2.0) for k in range(1, n)] + [b]
        split += [[x, y, lab] for x, y in zip(cuts, cuts[1:], strict=False)]
    merged = _merge_short(split)
    segments = [Segment(round(a, 3), round(b, 3), lab) for a, b, lab in merged]
    _assign_words(segments, words)
    return segments


def _merge_short(turns: list[list]) -> list[list]:
    turns = [t[:] for t in turns]
    changed = True
    while changed and len(turns) > 1:
        changed = False
        for i, (a, b, lab) in enumerate(turns):
            if b - a >= MIN_TURN_S:
                continue
            gap_prev = a - turns[i - 1][1] if i > 0 else math.inf
            gap_next = turns[i + 1][0] - b if i + 1 < len(turns) else math.inf
            # Prefer the same-speaker neighbour, then the closer one.
            cands = [(gap_prev + (turns[i - 1][2] != lab) * 0.5, i - 1)] if i > 0 else []
            if i + 1 < len(turns):
                cands.append((gap_next + (turns[i + 1][2] != lab) * 0.5, i + 1))
            _, j = min(cands)
            if min(gap_prev, gap_next) > MERGE_GAP_S:
                continue
            if j < i:  # the neighbour keeps its speaker: it holds most of the speech
                turns[j][1] = b
            else:
                turns[j][0] = a
            del turns[i]
            changed = True
            break
    return turns


def _move_sentence_tails(segments: list[Segment]) -> None:
    """Whisper often times the first word of a reply a little early, so it lands at the end
    of the previous turn ("...had the cough? About"). Words after the last sentence end of
    a turn move to the next turn when the speaker changes and at most 3 words would move."""
    for a, b in zip(segments, segments[1:], strict=False):
        if a.speaker == b.speaker or b.start_s - a.end_s > 1.5 or len(a.words) < 2:
            continue
        ends = [i for i, w in enumerate(a.words[:-1]) if w.text.strip().endswith((".", "?", "!"))]
        if ends and len(a.words) - ends[-1] - 1 <= 3:
            tail = a.words[ends[-1] + 1 :]
            a.words = a.words[: ends[-1] + 1]
            b.words = tail + b.words


def _assign_words(segments: list[Segment], words: list[Word]) -> None:
    if not segments:
        return
    starts = [s.start_s for s in segments]
    for w in words:
        mid = (w.start_s + w.end_s) / 2
        i = max(0, bisect.bisect_right(starts, mid) - 1)
        if i + 1 < len(segments) and mid > segments[i].end_s:
            # In a pause between segments: the nearer one takes the word.
            if segments[i + 1].start_s - mid < mid - segments[i].end_s:
                i += 1
        segments[i].words.append(w)
    _move_sentence_tails(segments)
