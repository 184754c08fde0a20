"""Derive and validate the per-segment arousal/valence scale (issue 18): models/emotion/DIMENSIONS.md.

    .venv/bin/python models/emotion/make_plain_speech.py /tmp/plain-speech
    .venv/bin/python models/emotion/train_dimensions.py /work/shared/data/ser-train --plain /tmp/plain-speech

Truth: each RAVDESS clip's code (category, intensity) mapped to (arousal, valence, dominance) by
``harp_desktop.index.emotion_dims.derived_truth`` (circumplex place of the category, normal intensity
pulled NORMAL_SCALE of the way from the neutral place). The plain TTS clips of make_plain_speech.py
are neutral, normal intensity, in every training fold, never scored.

Features: exactly the class head's (``emotion.features`` via train_emotion.extract, the same caches),
so the stage computes both heads from one vector. Model: ridge regression, one output per axis, on
the features standardised as the class head's (YAMNet block weight alpha, Whisper block weight beta),
rows weighted so every emotion class (and the plain TTS rows together) weighs the same. lambda,
alpha and beta are chosen inside each leave-one-actor-out fold by inner leave-one-actor-out error;
the held-out actor is scored on its canonical clips. Reported: Pearson/Spearman correlation with the
derived truth, accuracy of "which of two is higher" (pairs of the same actor, of two different
actors), the strong-vs-normal check, and the same figures for the class head's probability-weighted
places (``emotion_dims.expected`` over models/emotion/loao.json with the shipped temperature and
deployment prior, i.e. what the stage stores and what the agent read before). The app
stores whichever measured better: the class-head places (``emotion_dims.places``) won on every axis, so
no ridge head ships (``--save-ridge PATH`` writes one).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import scipy.stats  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fitting import save_npz, standardise_w  # noqa: E402
from train_emotion import PLAIN_RHO, combine, extract, extract_plain  # noqa: E402

from harp_desktop.index.emotion import N_WHISPER_TINY as N_WHISPER  # noqa: E402  (tiny.en features)
from harp_desktop.index.emotion import TINY_VERSION as FEATURE_VERSION  # noqa: E402
from harp_desktop.index.emotion import softmax  # noqa: E402
from harp_desktop.index.emotion_dims import AXES, CIRCUMPLEX, INTENSITY, NORMAL_SCALE, derived_truth, expected  # noqa: E402

VARIANTS = 1  # canonical clips only (the class head's variant 0: same seeds); more variants cost Whisper time
LAMBDAS = [100.0, 300.0, 1000.0, 3000.0]
ALPHAS = [0.05, 0.15]
BETAS = [0.3, 0.6]
RIDGE_AXES = ("arousal", "valence")  # what --save-ridge writes; dominance is reported, not stored (DIMENSIONS.md)
MIN_DIFF = 0.1  # a pair counts for "which is higher" when the derived truths differ by at least this
N_EMB = 2048


def load(ser_dir: Path, cache: Path, plain: Path | None, seed: int, variants: int,
         version: str = FEATURE_VERSION) -> dict:
    """RAVDESS (and plain TTS) features; ``version``: which Whisper encoding (emotion.ENCODINGS)."""
    data = extract(ser_dir, cache, seed, variants, version)
    keys = ("X", "clip", "variant", "emo", "actor", "intensity")
    data = {k: data[k] for k in keys}
    data["extra"] = np.zeros(len(data["X"]), bool)
    if plain:
        pl = extract_plain(plain, cache.with_name(f"{cache.stem}.plain.npz"), seed, variants, version)
        pl["X"] = combine(pl["X"], pl["WX"])
        pl["extra"] = np.ones(len(pl["X"]), bool)
        data = {k: np.concatenate([data[k], pl[k]]) for k in (*keys, "extra")}
    data["Y"] = np.array([derived_truth(str(e), INTENSITY[int(i)]) for e, i in zip(data["emo"], data["intensity"],
                                                                                   strict=True)])
    return data


def row_weights(emo: np.ndarray, extra: np.ndarray, rho: float = PLAIN_RHO) -> np.ndarray:
    """Every RAVDESS class weighs the same; the extra (plain TTS) rows together weigh rho of a class."""
    w = np.zeros(len(emo))
    names, inv = np.unique(emo[~extra], return_inverse=True)
    w[~extra] = 1.0 / np.bincount(inv)[inv]
    if extra.any():
        w[extra] = rho / extra.sum()
    return w * len(w) / w.sum()


def ridge(X: np.ndarray, Y: np.ndarray, w: np.ndarray, lams: list[float]) -> dict[float, tuple[np.ndarray, np.ndarray]]:
    """Weighted ridge (sum w (y - x W - b)^2 + lam |W|^2) for several lambdas from one SVD."""
    sw = np.sqrt(w)[:, None]
    xm, ym = (w @ X) / w.sum(), (w @ Y) / w.sum()
    U, s, Vt = np.linalg.svd((X - xm) * sw, full_matrices=False)
    UtY = U.T @ ((Y - ym) * sw)
    out = {}
    for lam in lams:
        W = Vt.T @ ((s / (s * s + lam))[:, None] * UtY)
        out[lam] = (W, ym - xm @ W)
    return out


def fold_fit(d: dict, tr: np.ndarray, lams, alpha: float, beta: float):
    mu, sd = standardise_w(d["X"][tr], N_EMB, alpha, N_WHISPER, beta)
    fits = ridge((d["X"][tr] - mu) / sd, d["Y"][tr], row_weights(d["emo"][tr], d["extra"][tr]), lams)
    return mu, sd, fits


def loao(d: dict, rows: np.ndarray, test: np.ndarray, lams, alpha, beta) -> dict[float, np.ndarray]:
    """Held-out-actor predictions on test rows, one fold per actor of the test rows, for each lambda."""
    out = {lam: np.zeros_like(d["Y"]) for lam in lams}
    for a in np.unique(d["actor"][test]):
        tr, te = rows & (d["actor"] != a), test & (d["actor"] == a)
        mu, sd, fits = fold_fit(d, tr, lams, alpha, beta)
        for lam, (W, b) in fits.items():
            out[lam][te] = ((d["X"][te] - mu) / sd) @ W + b
    return out


def pair_accuracy(pred: np.ndarray, truth: np.ndarray, groups: np.ndarray, same: bool) -> tuple[float, int]:
    """Share of pairs (truths at least MIN_DIFF apart) ordered as the truth; same: pairs within a group
    (one speaker over time), else pairs across groups (which of two speakers is higher)."""
    i, j = np.triu_indices(len(pred), 1)
    keep = (np.abs(truth[i] - truth[j]) >= MIN_DIFF) & ((groups[i] == groups[j]) == same)
    i, j = i[keep], j[keep]
    ok = np.sign(pred[i] - pred[j]) == np.sign(truth[i] - truth[j])
    return float(ok.mean()) if len(i) else float("nan"), int(len(i))


def intensity_check(pred: np.ndarray, d: dict, rows: np.ndarray) -> float:
    """Share of (strong, normal) clip pairs of one actor, category and statement whose predicted places are
    ordered as the derived truth on the axis where intensity moves the category most."""
    ok = []
    for r in np.flatnonzero(rows & (d["intensity"] == 2)):
        emo = str(d["emo"][r])
        ax = int(np.argmax(np.abs(np.array(CIRCUMPLEX[emo]) - np.array(CIRCUMPLEX["neutral"]))[:2]))
        sign = np.sign(CIRCUMPLEX[emo][ax] - CIRCUMPLEX["neutral"][ax])
        for q in np.flatnonzero(rows & (d["intensity"] == 1) & (d["emo"] == emo) & (d["actor"] == d["actor"][r])):
            ok.append(np.sign(pred[r, ax] - pred[q, ax]) == sign)
    return float(np.mean(ok)) if ok else float("nan")


def scores(pred: np.ndarray, d: dict, rows: np.ndarray) -> dict:
    out = {}
    for k, ax in enumerate(AXES):
        p, t, g = pred[rows, k], d["Y"][rows, k], d["actor"][rows]
        within, n_w = pair_accuracy(p, t, g, True)
        across, n_a = pair_accuracy(p, t, g, False)
        out[ax] = {"pearson": float(np.corrcoef(p, t)[0, 1]), "spearman": float(scipy.stats.spearmanr(p, t)[0]),
                   "mae": float(np.abs(p - t).mean()), "pairs_within_actor": within, "n_within": n_w,
                   "pairs_across_actors": across, "n_across": n_a,
                   "per_actor_pearson": {int(a): float(np.corrcoef(p[g == a], t[g == a])[0, 1]) for a in np.unique(g)}}
    out["intensity_check"] = intensity_check(pred, d, rows)
    return out


def class_head_places(d: dict, test: np.ndarray, loao_json: Path) -> np.ndarray | None:
    """The class head's held-out probabilities (loao.json, canonical clips in file order) placed on the
    circumplex: what the agent computed before this head."""
    if not loao_json.exists():
        return None
    j = json.loads(loao_json.read_text())
    rows = np.flatnonzero(test)
    if len(j["rows"]) != len(rows) or any(r["truth"] != d["emo"][i] for r, i in zip(j["rows"], rows, strict=True)):
        return None
    # As the app stores them: the shipped head's temperature and deployment prior applied to the held-out
    # probabilities (log p equals the logits up to a constant per clip).
    with np.load(Path(__file__).with_name("emotion_head.npz")) as z:
        temperature, log_prior = float(z["temperature"]), z["log_prior"].astype(np.float64)
    out = np.zeros_like(d["Y"])
    for r, i in zip(j["rows"], rows, strict=True):
        p = softmax(np.log(np.maximum(np.array(r["p"]), 1e-12)) / temperature + log_prior)
        out[i] = [expected(p, j["labels"], ax) for ax in AXES]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ser_dir", type=Path)
    ap.add_argument("--plain", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/ser_features.1var.npz"))
    ap.add_argument("--variants", type=int, default=VARIANTS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save-ridge", type=Path, default=None, help="also write the all-actor ridge head here")
    ap.add_argument("--loao-out", type=Path, default=Path(__file__).with_name("dimensions_loao.json"))
    ap.add_argument("--report", type=Path, default=Path(__file__).with_name("DIMENSIONS.md"))
    args = ap.parse_args()
    d = load(args.ser_dir, args.cache, args.plain, args.seed, args.variants)
    canon = (d["variant"] == 0) & ~d["extra"]
    allrows = np.ones(len(d["X"]), bool)
    grid = [(a, b) for a in ALPHAS for b in BETAS]
    oof, chosen = np.zeros_like(d["Y"]), {}
    for a in np.unique(d["actor"][canon]):
        inner = allrows & (d["actor"] != a)
        err = {}
        for alpha, beta in grid:
            preds = loao(d, inner, inner & canon, LAMBDAS, alpha, beta)
            m = inner & canon
            for lam, p in preds.items():
                err[(lam, alpha, beta)] = float(((p[m, :2] - d["Y"][m, :2]) ** 2).mean())
        lam, alpha, beta = min(err, key=err.get)
        chosen[int(a)] = (lam, alpha, beta)
        print(f"  outer fold actor {a:02d}: lambda {lam}, alpha {alpha}, beta {beta}", flush=True)
        te = canon & (d["actor"] == a)
        mu, sd, fits = fold_fit(d, inner, [lam], alpha, beta)
        W, b = fits[lam]
        oof[te] = ((d["X"][te] - mu) / sd) @ W + b
    oof = np.clip(oof, 0, 1)
    res = {"ridge": scores(oof, d, canon)}
    base = class_head_places(d, canon, Path(__file__).with_name("loao.json"))
    if base is not None:
        res["class_head_places"] = scores(base, d, canon)
        res["mean_of_both"] = scores((oof + base) / 2, d, canon)
    lam, alpha, beta = max(sorted(set(chosen.values())), key=list(chosen.values()).count)
    mu, sd, fits = fold_fit(d, allrows, [lam], alpha, beta)
    W, b = fits[lam]
    keep = [AXES.index(a) for a in RIDGE_AXES]
    if args.save_ridge:
        save_npz(args.save_ridge, W=W[:, keep].astype(np.float32), b=b[keep].astype(np.float32),
                 mean=mu.astype(np.float32), std=sd.astype(np.float32), axes=np.array(RIDGE_AXES),
                 feature_version=np.array(FEATURE_VERSION), normal_scale=np.array(NORMAL_SCALE, np.float32),
                 provenance=np.array(
                     f"trained on RAVDESS actors {', '.join(f'{a:02d}' for a in np.unique(d['actor'][canon]))} "
                     "(CC BY-NC-SA 4.0, non-commercial) and flite plain TTS: derived from non-commercial data; "
                     f"models/emotion/train_dimensions.py seed {args.seed} variants {args.variants} lambda {lam} "
                     f"alpha {alpha} beta {beta}"))
    shipped = base if base is not None else oof
    rows = np.flatnonzero(canon)
    args.loao_out.write_text(json.dumps({
        "description": "arousal/valence/dominance of the held-out actors' canonical clips: pred = what the app stores "
                       "(the class head's leave-one-actor-out probabilities placed on the circumplex), ridge = the "
                       "nested ridge head on the same features (not shipped); truth derived from the RAVDESS code "
                       f"(emotion_dims.derived_truth, normal intensity scale {NORMAL_SCALE})",
        "axes": list(AXES), "rows": [{"actor": int(d["actor"][i]), "emotion": str(d["emo"][i]),
                                      "intensity": INTENSITY[int(d["intensity"][i])],
                                      "truth": [round(float(v), 4) for v in d["Y"][i]],
                                      "pred": [round(float(v), 4) for v in shipped[i]],
                                      "ridge": [round(float(v), 4) for v in oof[i]]} for i in rows]}) + "\n")
    summary = {"chosen_per_fold": chosen, "final": {"lambda": lam, "alpha": alpha, "beta": beta}, **res}
    print(json.dumps(summary, indent=1))
    write_report(args, summary)


def write_report(args, s: dict) -> None:
    w = []
    w.append("# Arousal and valence head: training report\n")
    w.append(f"Generated by `models/emotion/train_dimensions.py {args.ser_dir}"
             f"{f' --plain {args.plain}' if args.plain else ''} --variants {args.variants}` (features "
             f"`{FEATURE_VERSION}`, the class head's). Nested leave-one-actor-out over the ser-train actors "
             f"(lambda, alpha, beta chosen per fold: {s['chosen_per_fold']}; final {s['final']}). Scored on the "
             "canonical variant of the held-out actor's 60 clips (300 in all).\n")
    w.append(f"Truth from the RAVDESS code: category place on the circumplex (emotion_dims.CIRCUMPLEX), normal "
             f"intensity at {NORMAL_SCALE} of the strong clip's distance from the neutral place. Pairs count for "
             f"\"which of two is higher\" when their truths differ by >= {MIN_DIFF}.\n")
    w.append("| method | axis | Pearson r | Spearman | MAE | higher of two, same actor (pairs) | higher of two, "
             "different actors (pairs) | per-actor r |")
    w.append("|---|---|---|---|---|---|---|---|")
    for name, r in s.items():
        if not isinstance(r, dict) or "arousal" not in r:
            continue
        for ax in AXES:
            x = r[ax]
            w.append(f"| {name} | {ax} | {x['pearson']:.3f} | {x['spearman']:.3f} | {x['mae']:.3f} | "
                     f"{x['pairs_within_actor']:.3f} ({x['n_within']}) | {x['pairs_across_actors']:.3f} "
                     f"({x['n_across']}) | " + " ".join(f"{a:02d}:{v:.2f}" for a, v in x["per_actor_pearson"].items())
                     + " |")
    w.append("")
    w.append("Strong above normal (same actor and category, on the axis intensity moves most): "
             + ", ".join(f"{n} {r['intensity_check']:.3f}" for n, r in s.items() if isinstance(r, dict)
                         and "intensity_check" in r) + ".\n")
    marker = "<!-- hand-written below: kept when the script re-runs -->"
    old = args.report.read_text(encoding="utf-8") if args.report.exists() else ""
    tail = old[old.index(marker):] if marker in old else marker + "\n"
    args.report.write_text("\n".join(w) + "\n" + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
