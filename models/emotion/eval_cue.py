"""Emotion by example, speaker-independently: which similarity finds a clip's emotion in another voice.

    .venv/bin/python models/emotion/eval_cue.py /work/shared/data/ser-train --plain /tmp/plain-speech

For every pair of ser-train actors (A, B) a class head is trained on the three others (plus the
plain TTS clips; the shipped head's lambda/alpha/beta, temperature and deployment prior), so neither
the example's speaker nor the searched speaker was seen. Each canonical clip of A is the example;
B's 60 canonical clips are ranked by each similarity, and the other way round. Reported: precision
at 1 and at 4 of the same emotion (8 classes; B has 4 neutral clips and 8 of every other class),
mean average precision, and precision at 1 of the same coarse group. Writes models/emotion/CUE.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fitting import GROUPS, fit, standardise_w  # noqa: E402
from train_dimensions import VARIANTS, load  # noqa: E402
from train_emotion import PLAIN_RHO  # noqa: E402

from harp_desktop.index.emotion import N_WHISPER_TINY as N_WHISPER  # noqa: E402  (its caches: tiny.en features)
from harp_desktop.index.emotion import softmax  # noqa: E402
from harp_desktop.index.emotion_dims import cue_score, cue_similarity  # noqa: E402

LABELS = ["neutral", "calm", "happy", "sad", "angry", "fearful", "disgust", "surprised"]
LAM, ALPHA, BETA = 0.1, 0.15, 0.6  # the shipped head's (models/emotion/REPORT.md)
N_EMB = 2048


def cosine(q: np.ndarray, c: np.ndarray) -> np.ndarray:
    return c @ q / np.maximum(np.linalg.norm(c, axis=1) * np.linalg.norm(q), 1e-12)


def methods(head: dict) -> dict:
    """name -> sim(query index, candidate indices) over the rows embedded by one pair's head."""
    p, z, lg = head["p"], head["z"], head["logits"]
    cl = lg - lg.mean(1, keepdims=True)
    lab = p.argmax(1)
    return {
        "p(example's top label) (before)": lambda q, c: p[c, lab[q]],
        "class probabilities, Bhattacharyya": lambda q, c: cue_similarity(p[q], p[c]),
        "class probabilities, cosine": lambda q, c: cosine(p[q], p[c]),
        "class probabilities, dot (chance both say the same class)": lambda q, c: p[c] @ p[q],
        "mean of p(top label) and Bhattacharyya (shipped: cue_score)": lambda q, c: cue_score(p[q], p[c]),
        "centred logits, cosine": lambda q, c: cosine(cl[q], cl[c]),
        "standardised features, cosine": lambda q, c: cosine(z[q], z[c]),
        "LDA projection (7-d), cosine": lambda q, c: cosine(head["lda"][q], head["lda"][c]),
    }


def lda(Z: np.ndarray, y: np.ndarray, k: int, shrink: float = 1.0) -> np.ndarray:
    """Fisher discriminant directions (k - 1) of standardised Z, within-class scatter shrunk to the identity."""
    mu = Z.mean(0)
    Sw = np.zeros((Z.shape[1], Z.shape[1]))
    Mb = []
    for c in range(k):
        Zc = Z[y == c]
        Sw += (Zc - Zc.mean(0)).T @ (Zc - Zc.mean(0))
        Mb.append(np.sqrt(len(Zc)) * (Zc.mean(0) - mu))
    Sw /= len(Z)
    Sw += shrink * np.trace(Sw) / len(Sw) * np.eye(len(Sw))
    L = np.linalg.cholesky(Sw)
    Mb = np.linalg.solve(L, np.array(Mb).T)  # whitened between-class means
    U, _, _ = np.linalg.svd(Mb, full_matrices=False)
    return np.linalg.solve(L.T, U[:, : k - 1])


def pair_head(d: dict, train: np.ndarray, rows: np.ndarray, temperature: float, log_prior: np.ndarray) -> dict:
    y = np.array([LABELS.index(str(e)) for e in d["emo"]])
    mu, sd = standardise_w(d["X"][train], N_EMB, ALPHA, N_WHISPER, BETA)
    Ztr = (d["X"][train] - mu) / sd
    W, b = fit(Ztr, y[train], len(LABELS), LAM, d["extra"][train], PLAIN_RHO)
    Z = (d["X"][rows] - mu) / sd
    logits = Z @ W + b
    P = lda(Ztr[~d["extra"][train]], y[train][~d["extra"][train]], len(LABELS))
    return {"p": softmax(logits / temperature + log_prior), "logits": logits, "z": Z, "lda": Z @ P}


def rank_scores(sim: np.ndarray, same: np.ndarray) -> tuple[float, float, float]:
    order = np.argsort(-sim, kind="stable")
    hits = same[order]
    ap = float(np.mean(np.cumsum(hits)[hits] / (np.flatnonzero(hits) + 1))) if hits.any() else 0.0
    return float(hits[0]), float(hits[:4].mean()), ap


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ser_dir", type=Path)
    ap.add_argument("--plain", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/ser_features.1var.npz"))
    ap.add_argument("--variants", type=int, default=VARIANTS)
    ap.add_argument("--report", type=Path, default=Path(__file__).with_name("CUE.md"))
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("cue_loao.json"),
                    help="the figures, read by benchmarks/paraling_bench.py")
    args = ap.parse_args()
    d = load(args.ser_dir, args.cache, args.plain, 0, args.variants)
    with np.load(Path(__file__).with_name("emotion_head.npz")) as z:
        temperature, log_prior = float(z["temperature"]), z["log_prior"].astype(np.float64)
    canon = (d["variant"] == 0) & ~d["extra"]
    group = {c: g for g, cs in enumerate(GROUPS.values()) for c in cs}
    actors = [int(a) for a in np.unique(d["actor"][canon])]
    res: dict[str, list] = {}
    for a, b in itertools.combinations(actors, 2):
        train = (d["actor"] != a) & (d["actor"] != b)
        rows = np.flatnonzero(canon & np.isin(d["actor"], [a, b]))
        head = pair_head(d, train, rows, temperature, log_prior)
        emo, act = d["emo"][rows], d["actor"][rows]
        for name, sim in methods(head).items():
            for qa, cb in ((a, b), (b, a)):
                cands = np.flatnonzero(act == cb)
                for q in np.flatnonzero(act == qa):
                    s = sim(q, cands)
                    p1, p4, apr = rank_scores(s, emo[cands] == emo[q])
                    g1 = group[str(emo[cands[int(np.argmax(s))]])] == group[str(emo[q])]
                    res.setdefault(name, []).append((p1, p4, apr, float(g1)))
        print(f"  pair {a:02d}/{b:02d} done", flush=True)
    table = {n: [round(float(v), 4) for v in np.mean(r, 0)] for n, r in res.items()}
    print(json.dumps(table, indent=1))
    n_ex = len(next(iter(res.values())))
    args.out.write_text(json.dumps({
        "description": f"{n_ex} examples: every canonical clip of one ser-train actor against the 60 of another, the "
                       "head trained on the other three (+ plain TTS); columns: same emotion at 1, same emotion in "
                       "the top 4, mean average precision, same coarse group at 1", "methods": table}, indent=1) + "\n")
    w = ["# Emotion by example: leave-two-actors-out ranking\n",
         f"Generated by `models/emotion/eval_cue.py {args.ser_dir}{f' --plain {args.plain}' if args.plain else ''}`. "
         f"{len(next(iter(res.values())))} examples (every canonical clip of one actor against the 60 of another, "
         "both unseen by the head of that pair).\n",
         "| similarity | same emotion at 1 | same emotion in top 4 | mean average precision | same coarse group at 1 |",
         "|---|---|---|---|---|"]
    w += [f"| {n} | {v[0]:.3f} | {v[1]:.3f} | {v[2]:.3f} | {v[3]:.3f} |" for n, v in table.items()]
    w.append(f"\nChance: same emotion at 1 = {(4 * 4 + 7 * 8 * 8) / 60 / 60:.3f} (each class's share of the 60 "
             "candidates, averaged over the examples).\n")
    marker = "<!-- hand-written below: kept when the script re-runs -->"
    old = args.report.read_text(encoding="utf-8") if args.report.exists() else ""
    tail = old[old.index(marker):] if marker in old else marker + "\n"
    args.report.write_text("\n".join(w) + "\n" + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
