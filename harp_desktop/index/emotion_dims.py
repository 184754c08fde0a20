"""Arousal and valence per segment, and the emotion-by-example similarity (issue 18).

The scale (models/emotion/DIMENSIONS.md): a RAVDESS clip's category is placed on the circumplex
(``CIRCUMPLEX``: Russell 1980 and the NRC VAD lexicon's entries for the class words, on [0, 1]; the
same places the agent used before), and its intensity code scales the clip's distance from the
*neutral* place: strong = the category's place, normal = ``NORMAL_SCALE`` of the way there (the
circumplex reads intensity as distance from the neutral centre). ``derived_truth`` is that mapping.
models/emotion/train_dimensions.py validates two estimators against it leave-one-actor-out: a ridge
head over the class head's feature vector, and the class head's held-out probabilities placed on the
circumplex (``places``). The second was better on every axis, so the stage stores ``places`` of each
segment's probabilities (no extra model file).

Emotion by example: ``cue_score`` ranks segments against an example clip from their stored class
probabilities (models/emotion/eval_cue.py compares it with feature-space embeddings).
"""

from __future__ import annotations

import numpy as np

# (arousal, valence, dominance) on [0, 1]; see docs/decisions.md ("Arousal/valence/dominance").
CIRCUMPLEX = {
    "neutral": (0.25, 0.50, 0.45), "calm": (0.10, 0.70, 0.50), "happy": (0.75, 0.95, 0.75),
    "sad": (0.25, 0.10, 0.20), "angry": (0.90, 0.15, 0.80), "fearful": (0.80, 0.10, 0.25),
    "disgust": (0.60, 0.10, 0.55), "surprised": (0.85, 0.65, 0.50),
}
AXES = ("arousal", "valence", "dominance")
NORMAL_SCALE = 0.6  # normal intensity: this fraction of the strong clip's distance from neutral
INTENSITY = {1: "normal", 2: "strong"}


def derived_truth(emotion: str, intensity: str = "strong") -> tuple[float, float, float]:
    """(arousal, valence, dominance) of a RAVDESS code: the category's circumplex place, pulled
    towards the neutral place for normal intensity (neutral itself has only one)."""
    c, n = np.array(CIRCUMPLEX[emotion]), np.array(CIRCUMPLEX["neutral"])
    k = 1.0 if intensity == "strong" else NORMAL_SCALE
    return tuple(float(v) for v in n + k * (c - n))


def expected(p: dict[str, float] | np.ndarray, labels: list[str] | None = None, axis: str = "arousal") -> float:
    """The probability-weighted circumplex place of a class distribution (the fallback when a segment
    has no stored dimensions: read on demand, or a library indexed before the dimension head)."""
    if not isinstance(p, dict):
        p = dict(zip(labels or [], np.asarray(p, float), strict=False))
    i = AXES.index(axis)
    total = sum(p.values()) or 1.0
    return sum(v * CIRCUMPLEX.get(lab, (0.5, 0.5, 0.5))[i] for lab, v in p.items()) / total


def places(p: np.ndarray, labels: list[str], axes: list[str]) -> np.ndarray:
    """(n, len(axes)) probability-weighted circumplex places of (n, k) class probabilities: what the stage
    stores as a segment's arousal/valence (``expected`` for many rows at once)."""
    table = np.array([[CIRCUMPLEX.get(lab, (0.5, 0.5, 0.5))[AXES.index(ax)] for ax in axes] for lab in labels])
    p = np.atleast_2d(np.asarray(p, np.float64))
    return p @ table / np.maximum(p.sum(1, keepdims=True), 1e-12)


def cue_similarity(cue: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """Similarity of each row of segs (n, k) to the example clip's class probabilities cue (k,):
    the Bhattacharyya coefficient, 1 for the same distribution, 0 for disjoint ones. It rewards a
    segment that shares the example's second choice too (a fearful example that also leans sad)."""
    c = np.sqrt(np.clip(np.asarray(cue, np.float64), 0, None))
    s = np.sqrt(np.clip(np.atleast_2d(np.asarray(segs, np.float64)), 0, None))
    return s @ c / np.maximum(np.linalg.norm(s, axis=1) * np.linalg.norm(c), 1e-12)


def segment_rows(rid: int, ids: list[int], probs: list[np.ndarray], dims: np.ndarray, labels: list[str],
                 axes: list[str]) -> list[dict]:
    """segment_emotion rows: each classified segment's top label and score, and its arousal/valence."""
    out = []
    for sid, p, d in zip(ids, probs, dims, strict=True):
        k = int(np.argmax(p))
        row = {"segment_id": int(sid), "recording_id": rid, "label": labels[k], "score": round(float(p[k]), 4)}
        row.update({ax: round(float(v), 4) for ax, v in zip(axes, d, strict=True) if ax in ("arousal", "valence")})
        out.append(row)
    return out


def cue_score(cue: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """How much each segment sounds like the example: the mean of the segment's probability of the
    example's top label (what the locate used before) and ``cue_similarity``. Measured leave-two-actors-out
    (models/emotion/CUE.md) it is the best of the similarities tried, by a hair; embeddings of the features
    themselves (standardised, LDA) are worse: they also carry the speaker and the recording."""
    cue = np.asarray(cue, np.float64)
    segs = np.atleast_2d(np.asarray(segs, np.float64))
    return (segs[:, int(cue.argmax())] + cue_similarity(cue, segs)) / 2
