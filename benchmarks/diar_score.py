"""Diarisation scores of found turns against a truth file's speech events.

Scored on 10 ms frames with a 0.25 s collar around every truth speech edge and an optimal
one-to-one mapping of found to true speakers (Hungarian), as paraling_bench.py always has:
DER-style error = (missed speech + false alarm + confusion) / truth speech. Purity is the share
of each found speaker's time that is its main true speaker (low: voices merged); coverage is
the share of each true speaker's time inside its main found speaker (low: a voice split).
Turn accuracy ("who said X"): the share of single-speaker truth turns whose main found
speaker is mapped to their speaker, for all turns and for those under 1.5 s.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

SPEECH_KINDS = ("speech", "tts_speech", "emotion_speech")
FRAME, COLLAR = 0.01, 0.25


def truth_speech(events: list[dict]) -> list[tuple[float, float, list[str]]]:
    """(start, end, speakers) of the truth's speech events; 'a+b' names two overlapping speakers."""
    return [(e["start_s"], e["end_s"], e["speaker"].split("+")) for e in events
            if e.get("kind") in SPEECH_KINDS and e.get("speaker")]


def score(events: list[dict], turns: list[tuple[float, float, str | None]], duration_s: float) -> dict:
    """Scores of ``turns`` ((start, end, found speaker)) against the truth ``events``."""
    speech = truth_speech(events)
    spk = sorted({s for _, _, names in speech for s in names})
    n = int(np.ceil(duration_s / FRAME)) + 1
    ref = np.zeros((len(spk), n), bool)
    scored = np.ones(n, bool)
    c = int(COLLAR / FRAME)
    for a_s, b_s, names in speech:
        a, b = int(a_s / FRAME), int(b_s / FRAME)
        for s in names:
            ref[spk.index(s), a:b] = True
        scored[max(0, a - c): a + c] = False
        scored[max(0, b - c): b + c] = False
    names = sorted({lab for _, _, lab in turns if lab is not None})
    hyp = np.zeros((len(names), n), bool)
    for a_s, b_s, lab in turns:
        if lab is not None:
            hyp[names.index(lab), int(a_s / FRAME): int(b_s / FRAME)] = True
    ref_s, hyp_s = ref[:, scored], hyp[:, scored]
    overlap = hyp_s.astype(np.int64) @ ref_s.T.astype(np.int64)
    rows, cols = linear_sum_assignment(-overlap) if overlap.size else (np.zeros(0, int), np.zeros(0, int))
    mapped = np.zeros(overlap.shape, bool)
    mapped[rows, cols] = True
    r_any, h_any = ref_s.any(0), hyp_s.any(0)
    total = max(1, int(r_any.sum()))
    right = (mapped.astype(np.int64) @ ref_s.astype(np.int64) > 0) & hyp_s
    miss = int((r_any & ~h_any).sum())
    fa = int((~r_any & h_any).sum())
    conf = int((r_any & h_any & ~right.any(0)).sum())
    both = max(1, int(overlap.sum()))
    # "Who said X": a truth turn is right when the found speaker covering most of it is the one
    # mapped to its speaker (no collar: a one-word reply is all edge). Short = under 1.5 s.
    to_ref = {names[r]: spk[c] for r, c in zip(rows, cols, strict=True)}
    right_turns = {True: [], False: []}
    for a_s, b_s, who in speech:
        if len(who) != 1:
            continue
        cover: dict[str, float] = {}
        for ta, tb, lab in turns:
            if lab is not None and min(tb, b_s) > max(ta, a_s):
                cover[lab] = cover.get(lab, 0.0) + min(tb, b_s) - max(ta, a_s)
        best = max(cover, key=cover.get) if cover else None
        right_turns[b_s - a_s < 1.5].append(best is not None and to_ref.get(best) == who[0])
    return {
        "found": len(names), "true": len(spk),
        "der": (miss + fa + conf) / total, "miss": miss / total, "fa": fa / total, "conf": conf / total,
        "turns_right": float(np.mean(right_turns[False] + right_turns[True])) if speech else 0.0,
        "short_right": float(np.mean(right_turns[True])) if right_turns[True] else float("nan"),
        "n_short": len(right_turns[True]),
        "purity": float(overlap.max(1).sum() / both) if overlap.size else 0.0,
        "coverage": float(overlap.max(0).sum() / both) if overlap.size else 0.0,
        # which found speaker holds most of each true one: the merges and splits, readably
        "map": {spk[j]: names[int(np.argmax(overlap[:, j]))] if len(names) else None for j in range(len(spk))},
    }
