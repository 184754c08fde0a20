"""Level-invariant voice-quality and spectral-shape statistics for the emotion head (features v3).

eGeMAPS-like, in numpy, pooled from the 10 ms tracks of ``emotion.tracks``: the shape of
the YAMNet log-mel spectrum (16 bands relative to the frame mean: mean and spread),
loudness percentiles relative to the p95, a harmonics-to-noise ratio from the YIN
aperiodicity, pitch percentiles relative to the median, voiced / unvoiced / pause
lengths, a shimmer proxy, spectral flux and loudness rise/fall slopes. They lift
held-out-actor accuracy on RAVDESS (see models/emotion/REPORT.md); none measures
absolute level, which separates RAVDESS emotions but not real recordings.
"""

from __future__ import annotations

import numpy as np

FRAME_S = 0.01
VOICE = ([f"band{i}_rel_mean" for i in range(16)] + [f"band{i}_rel_std" for i in range(16)]
         + ["loud_p20_rel", "loud_p50_rel", "loud_p80_rel", "hnr_mean_db", "hnr_std_db", "f0_p20_rel_st",
            "f0_p80_rel_st", "voiced_run_s", "voiced_run_std_s", "unvoiced_run_s", "voiced_runs_per_s", "pause_s",
            "shimmer_db", "flux_mean", "flux_std", "loud_rise_db", "loud_fall_db"])


def _runs(b: np.ndarray) -> np.ndarray:
    """Lengths (s) of the runs of True in b; [0] when there are none."""
    edges = np.diff(np.concatenate([[0], b.astype(np.int8), [0]]))
    lengths = np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)
    return (lengths if len(lengths) else np.array([0])) * FRAME_S


def pool_voice(t: dict[str, np.ndarray], lo: int = 0, hi: int | None = None) -> np.ndarray:
    """(len(VOICE),) float32 statistics of frames [lo, hi) of ``emotion.tracks()`` (which has a "mel" track)."""
    db, ap, f0, mel = t["db"][lo:hi], t["ap"][lo:hi], t["f0"][lo:hi], t["mel"][lo:hi]
    if not len(db) or not len(mel):
        return np.zeros(len(VOICE), np.float32)
    active = db > max(float(db.max()) - 35.0, -75.0)
    if not active.any():  # digital silence
        return np.zeros(len(VOICE), np.float32)
    voiced = active & (ap < 0.3)
    m = min(len(mel), len(active))
    lm, act = mel[:m], active[:m]
    spec = lm[act] if act.any() else lm
    rel = spec - spec.mean(1, keepdims=True)
    bands = rel.reshape(len(rel), 16, 4).mean(2)
    out = list(bands.mean(0)) + list(bands.std(0))
    p = np.percentile(db[active], [20, 50, 80, 95])
    out += [p[0] - p[3], p[1] - p[3], p[2] - p[3]]
    a = np.clip(ap[voiced], 1e-3, 1) if voiced.sum() >= 3 else np.array([0.5])
    hnr = 10 * np.log10((1 - a + 1e-3) / a)
    out += [hnr.mean(), hnr.std()]
    f = f0[voiced] if voiced.sum() >= 3 else np.zeros(3)
    q = np.percentile(f, [20, 50, 80])
    out += [q[0] - q[1], q[2] - q[1]]
    vr, ur, sil = _runs(voiced), _runs(active & ~voiced), _runs(~active)
    out += [vr.mean(), vr.std(), ur.mean(), len(vr) / (len(db) * FRAME_S), sil.mean()]
    both = voiced[1:] & voiced[:-1]
    out += [float(np.abs(np.diff(db))[both].mean()) if both.any() else 0.0]
    flux = np.sqrt((np.diff(spec, axis=0) ** 2).mean(1)) if len(spec) > 1 else np.zeros(1)
    out += [flux.mean(), flux.std()]
    pair = active[1:] & active[:-1]
    d = np.diff(db)[pair] if pair.any() else np.zeros(1)
    out += [d[d > 0].mean() if (d > 0).any() else 0, d[d < 0].mean() if (d < 0).any() else 0]
    return np.array(out, np.float32)
