"""Helpers for train_emotion.py: augmentation, L2 softmax regression, leave-one-actor-out, calibration.

scipy L-BFGS only (no sklearn, no torch); every step is deterministic for a given input.
"""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import scipy.optimize

from harp_desktop.index.emotion import softmax
from harp_desktop.index.speaker_norm import normalise, speaker_stats


def frame_db(x: np.ndarray) -> np.ndarray:
    fr = np.lib.stride_tricks.sliding_window_view(x, 400)[::160]
    return 10 * np.log10((fr.astype(np.float64) ** 2).mean(1) + 1e-12)


def pink(n: int, rng: np.random.Generator, db: float) -> np.ndarray:
    spec = np.fft.rfft(rng.standard_normal(n))
    spec[1:] /= np.sqrt(np.arange(1, len(spec)))
    x = np.fft.irfft(spec, n)
    return (x / (x.std() + 1e-12) * 10 ** (db / 20)).astype(np.float32)


def standardise(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mu, sd = X.mean(0), X.std(0)
    return mu, np.where(sd > 1e-6, sd, 1.0)


def standardise_w(X: np.ndarray, n_emb: int, alpha: float, n_w: int = 0, beta: float = 1.0
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Standardise, with the first n_emb (YAMNet) columns scaled down by alpha and the next n_w (Whisper
    encoder) columns by beta: a stronger L2 on those blocks."""
    mu, sd = standardise(X)
    sd = sd.copy()
    sd[:n_emb] /= alpha
    sd[n_emb:n_emb + n_w] /= beta
    return mu, sd


def fit(X: np.ndarray, y: np.ndarray, k: int, lam: float, extra: np.ndarray | None = None, rho: float = 0.0
        ) -> tuple[np.ndarray, np.ndarray]:
    """L2-regularised softmax regression on standardised X: class-balanced mean NLL + lam/2 |W|^2.

    Each class weighs the same in the loss: RAVDESS has half as many neutral clips as
    others (no strong-intensity neutral), and unweighted the head almost never said neutral.
    Rows marked extra (the plain TTS clips) are left out of the balancing and together weigh rho
    of one class."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    n, d = X.shape
    Y = np.eye(k)[y]
    extra = np.zeros(n, bool) if extra is None else extra
    w = np.zeros(n)
    w[~extra] = 1.0 / np.bincount(y[~extra], minlength=k)[y[~extra]]
    if extra.any():
        w[extra] = rho / extra.sum()
    w = (w * n / w.sum())[:, None]  # mean 1: the loss keeps the scale lam was chosen for

    def f(theta: np.ndarray) -> tuple[float, np.ndarray]:
        W, b = theta[: d * k].reshape(d, k), theta[d * k:]
        Z = X @ W + b
        Z -= Z.max(1, keepdims=True)
        logp = Z - np.log(np.exp(Z).sum(1, keepdims=True))
        G = (np.exp(logp) - Y) * w / n
        loss = -(w * Y * logp).sum() / n + 0.5 * lam * (W * W).sum()
        return loss, np.concatenate([(X.T @ G + lam * W).ravel(), G.sum(0)])

    res = scipy.optimize.minimize(f, np.zeros(d * k + k), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return res.x[: d * k].reshape(d, k), res.x[d * k:]


def loao_logits(X, y, actors, train_rows, test_rows, k, lam, n_emb=0, alpha=1.0, prep=None, n_w=0, beta=1.0,
                extra=None, rho=0.0) -> np.ndarray:
    """Held-out-actor logits for test_rows (one fold per actor that has test rows; training uses all variants,
    and the extra rows, never tested, are in every fold's training with weight rho: see fit).

    prep(training-row mask) -> the matrix to use in that fold (speaker normalisation whose
    population prior may only come from the training actors); None: X as is."""
    out = np.zeros((len(X), k))
    for a in np.unique(actors[test_rows]):
        tr, te = train_rows & (actors != a), test_rows & (actors == a)
        Xf = prep(tr) if prep else X
        mu, sd = standardise_w(Xf[tr], n_emb, alpha, n_w, beta)
        W, b = fit((Xf[tr] - mu) / sd, y[tr], k, lam, None if extra is None else extra[tr], rho)
        out[te] = ((Xf[te] - mu) / sd) @ W + b
    return out


# Reference mix per augmented variant: all of an actor's plain clips plus this fraction of its emotional
# ones. Variant 0 (the evaluated one) sees every clip, as the app sees every segment of a speaker; the
# others teach the head that a speaker's statistics may come from mostly plain speech.
REF_FRACS = (1.0, 1.0, 0.5, 0.25, 0.125, 1 / 12)


def speaker_normalise(X: np.ndarray, actors: np.ndarray, variant: np.ndarray, plain: np.ndarray, start: int,
                      prior: tuple[np.ndarray, np.ndarray], seed: int, fracs=REF_FRACS,
                      clips: np.ndarray | None = None) -> np.ndarray:
    """X with columns [start:] z-scored per (actor, variant) against a reference mix of that actor's canonical
    clips (REF_FRACS), shrunk towards prior (harp_desktop.index.speaker_norm, as in the app).

    ``clips`` (each row's clip id; variants repeat the canonical rows' clips): the reference is taken from the
    same clips *of the row's own variant*, as the app takes a speaker's statistics from segments heard in the
    same room (room_tone.py's variants); None: from the canonical rows."""
    out = X.astype(np.float32, copy=True)
    canon = variant == 0
    row_of = None
    if clips is not None:
        row_of = {(int(v), int(c)): i for i, (v, c) in enumerate(zip(variant, clips, strict=True))}
    for a in np.unique(actors):
        own = canon & (actors == a)
        emo_rows = np.flatnonzero(own & ~plain)
        for v in np.unique(variant):
            frac = fracs[min(int(v), len(fracs) - 1)]
            ref = own & plain
            n = int(round(frac * len(emo_rows)))
            if n >= len(emo_rows):
                ref = own
            elif n > 0:
                ref = ref.copy()
                ref[np.random.default_rng([seed, int(a), int(v)]).choice(emo_rows, n, replace=False)] = True
            rows_ref = np.flatnonzero(ref)
            if row_of is not None:
                rows_ref = np.array([row_of[(int(v), int(clips[i]))] for i in rows_ref])
            mean, std = speaker_stats(X[rows_ref, start:], *prior)
            rows = (actors == a) & (variant == v)
            out[rows] = normalise(X[rows], start, mean, std)
    return out


def nll(logits: np.ndarray, y: np.ndarray, t: float = 1.0) -> float:
    p = softmax(logits / t)
    return float(-np.log(p[np.arange(len(y)), y] + 1e-12).mean())


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    r = scipy.optimize.minimize_scalar(lambda lt: nll(logits, y, float(np.exp(lt))), bounds=(-3, 3), method="bounded")
    return float(np.exp(r.x))


def ece(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    conf, pred = p.max(1), p.argmax(1)
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            total += m.mean() * abs((pred[m] == y[m]).mean() - conf[m].mean())
    return float(total)


GROUPS = {"neutral/calm": ("neutral", "calm"), "happy/surprised": ("happy", "surprised"),
          "sad/fearful": ("sad", "fearful"), "angry/disgust": ("angry", "disgust")}


def group_confusion(p: np.ndarray, y: np.ndarray, names: list[str]) -> tuple[float, np.ndarray]:
    """Accuracy and confusion over the 4 coarse GROUPS; a group's probability is the sum of its classes'."""
    of = np.array([next(g for g, cs in enumerate(GROUPS.values()) if n in cs) for n in names])
    gp = np.stack([p[:, of == g].sum(1) for g in range(len(GROUPS))], 1)
    cm = np.zeros((len(GROUPS), len(GROUPS)), int)
    for t, q in zip(of[y], gp.argmax(1), strict=True):
        cm[t, q] += 1
    return float(np.trace(cm) / max(1, cm.sum())), cm


def save_npz(path, **arrays: np.ndarray) -> None:
    """np.savez_compressed with a fixed zip timestamp, so two runs write identical bytes."""
    tmp = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asanyarray(arr), allow_pickle=False)
            zf.writestr(info, buf.getvalue())
    tmp.replace(path)


def write_loao(path, names: list[str], actors: np.ndarray, y: np.ndarray, p: np.ndarray, description: str) -> None:
    """Held-out-actor probabilities of every evaluated clip: what benchmarks/paraling_bench.py scores."""
    rows = [json.dumps({"actor": int(a), "truth": names[t], "p": [round(float(v), 4) for v in q]})
            for a, t, q in zip(actors, y, p, strict=True)]
    head = json.dumps({"description": description, "labels": names})[:-1]
    path.write_text(head + ', "rows": [\n' + ",\n".join(rows) + "\n]}\n", encoding="utf-8")
