"""Per-speaker normalisation of the emotion head's speech features (prosody + voice quality).

A voice's own pitch, brightness and tempo say as much about the speaker as about the
emotion; the head sees each speech feature as a z-score against *that speaker's*
statistics over the recording (the diarized speaker's segments, labels unknown), not
against the whole training population. The statistics are shrunk towards the training
population's (``n0`` pseudo-segments), so a speaker with one or two segments is scored
much as before and a single clip (``EmotionModel.predict``) stays usable.

Risk (see docs/decisions.md): RAVDESS actors speak every emotion equally often, a real
speaker is mostly plain, so the speaker mean sits nearer their plain voice. Training
therefore normalises each augmented variant against a different reference mix, from
all of an actor's clips down to mostly plain ones (``train_emotion.py``), and the report
gives held-out accuracy with a plain-heavy reference as well. Such a head (``--speaker-norm``)
scored a little higher on RAVDESS but worse on the dev recording and the shipped test clips
with head v3's features; with v6's (Whisper block, plain TTS clips) it is better on both, and v7
ships it (issue 18, models/emotion/REPORT.md).
"""

from __future__ import annotations

import numpy as np

N0 = 5.0  # pseudo-segments of the population prior in each speaker's statistics


def speaker_stats(ref: np.ndarray, prior_mean: np.ndarray, prior_var: np.ndarray,
                  n0: float = N0) -> tuple[np.ndarray, np.ndarray]:
    """(mean, std) of the rows of ref (one per segment of a speaker), shrunk towards the prior."""
    ref = np.asarray(ref, np.float64).reshape(-1, len(prior_mean))
    n = len(ref)
    if n == 0:
        return prior_mean.astype(np.float64), np.sqrt(prior_var).astype(np.float64)
    m, v = ref.mean(0), ref.var(0)
    mean = (n * m + n0 * prior_mean) / (n + n0)
    var = (n * v + n0 * prior_var) / (n + n0)
    return mean, np.sqrt(np.maximum(var, 1e-12))


def normalise(feats: np.ndarray, start: int, mean: np.ndarray, std: np.ndarray) -> np.ndarray:
    """Copy of feats with columns [start:] z-scored by (mean, std); columns before start unchanged."""
    out = np.array(feats, np.float32, copy=True, ndmin=2)
    out[:, start:] = (out[:, start:] - mean) / np.where(std > 1e-6, std, 1.0)
    return out


def population_prior(X: np.ndarray, groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The prior a speaker is shrunk towards: the mean of the per-speaker means, and the within-speaker
    variance plus the spread of the speaker means. A speaker heard once is thus scaled by the population's
    whole spread, voice differences included: smaller z-scores, less confident labels, rather than
    reading their voice as an emotion (dev: few-segment speakers gave most false alarms)."""
    ids = np.unique(groups)
    means = np.array([X[groups == g].mean(0) for g in ids])
    var = np.array([X[groups == g].var(0) for g in ids])
    return means.mean(0), var.mean(0) + means.var(0)
