"""Fit the cough-onset logistic models of ``harp_desktop/index/events.py`` (ONSET_MODELS).

    .venv/bin/python benchmarks/paraling/fit_cough_onsets.py [--heldout cough_mix_02 bank_rec_03 speech_neg_b]

Every burst onset (``burst_onsets``) of the tuning recordings is a sample: positive when a
truth cough starts within 0.12 s of it. Tuning recordings: every recording with cough truth
(dev_long_01, bank_rec_01, bank_rec_02, cough_mix_01), ``make_cough_training.py``'s extra
mixes of the dev coughs under and between Flite speech (cough_train_1..3) and its
cough-free speech ``speech_neg_a`` (RAVDESS actors 01, 02, 05 and eSpeak NG: emotional,
shouted and plosive speech, laughter stand-ins), all of whose onsets are negatives. Held out, only evaluated: cough_mix_02 (another cougher), bank_rec_03 (the bank's
test recording) and speech_neg_b (RAVDESS actors 06, 24 and Flite voices). Two
L2-regularised logistic regressions, positives weighted up to balance the classes:
"acoustic" over the shape features and "full" with YAMNet's Cough and Speech logits on the
onset-aligned patch. Prints the ONSET_MODELS literal to paste, and the confusion per
recording at the shipped thresholds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, str(Path(__file__).resolve().parent))
import coughs as C  # noqa: E402
import make_cough_training  # noqa: E402

from harp_desktop.index import events as E  # noqa: E402

MATCH_S = 0.12
HELD_OUT = ("cough_mix_02", "bank_rec_03", "speech_neg_b")  # evaluated, never fitted
NEVER_FIT = ("bank_rec_03", "speech_neg_b")  # test recordings: refused even when asked for


def samples(truth: Path) -> tuple[np.ndarray, np.ndarray]:
    wav = C.load(C.audio_of(truth))
    starts = np.array([e["start_s"] for e in C.events_of(truth) if e.get("kind") == "cough"])
    rows, ys = [], []
    for o in E.burst_onsets(wav):
        o.feats.update(E.aligned_logits(C.tagger(), wav, o.t_s))
        rows.append([o.feats[n] for n in E.ONSET_FEATURES])
        ys.append(bool(len(starts)) and bool(np.abs(starts - o.t_s).min() <= MATCH_S))
    return np.array(rows), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 10.0) -> tuple[list[float], list[float], list[float], float]:
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mu) / sd
    pw = np.where(y, (~y).sum() / max(1, y.sum()) / 10, 1.0)  # positives ~10 % of the weight mass

    def loss(w: np.ndarray) -> float:
        s = z @ w[:-1] + w[-1]
        return float((pw * (np.logaddexp(0, s) - y * s)).sum() + 0.5 * l2 * (w[:-1] ** 2).sum())

    w = minimize(loss, np.zeros(z.shape[1] + 1), method="L-BFGS-B").x
    return [round(float(v), 4) for v in mu], [round(float(v), 4) for v in sd], [round(float(v), 4) for v in w[:-1]], \
        round(float(w[-1]), 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heldout", nargs="*", default=list(HELD_OUT))
    ap.add_argument("--negatives", nargs="*", default=["speech_neg_a"],
                    help="cough-free recordings of make_cough_training.py fitted on (speech_neg_b stays held out)")
    ap.add_argument("--l2", type=float, default=10.0,
                    help="ridge penalty (10 beat 1 in leave-one-recording-out runs over the tuning recordings)")
    args = ap.parse_args()
    data = {t.name.replace(".truth.json", ""): samples(t) for t in C.truth_files()
            if any(e.get("kind") == "cough" for e in C.events_of(t))}
    for name in ("speech_neg_a", "speech_neg_b", *make_cough_training.TRAIN_MIXES):
        data[name] = samples(make_cough_training.ensure(name))
    tune = [k for k in data if k not in args.heldout and (not k.startswith("speech_neg") or k in args.negatives)]
    if set(tune) & set(NEVER_FIT):
        raise SystemExit(f"refusing to fit on {sorted(set(tune) & set(NEVER_FIT))}")
    x = np.concatenate([data[k][0] for k in tune])
    y = np.concatenate([data[k][1] for k in tune])
    print(f"tuning on {tune}: {len(y)} onsets, {int(y.sum())} at a cough")
    n_acoustic = len(E.ONSET_FEATURES) - len(E.YAMNET_FEATURES)
    models = {"acoustic": fit(x[:, :n_acoustic], y, args.l2), "full": fit(x, y, args.l2)}
    print("ONSET_MODELS = {")
    for k, (mu, sd, w, b) in models.items():
        print(f'    "{k}": ({mu},\n        {sd},\n        {w}, {b}),')
    print("}")
    for name, (xs, ys) in data.items():
        za = ((xs[:, :n_acoustic] - models["acoustic"][0]) / models["acoustic"][1]) @ models["acoustic"][2] + \
            models["acoustic"][3]
        zf = ((xs - models["full"][0]) / models["full"][1]) @ models["full"][2] + models["full"][3]
        keep = (za >= E.ONSET_PRESCREEN) & (zf > E.ONSET_THRESHOLD)
        print(f"  {name:13s} {'held out' if name in args.heldout else 'tuning':8s} coughs {int(ys.sum()):2d}  "
              f"screen drops {int((ys & (za < E.ONSET_PRESCREEN)).sum())} of them, passes {int((za >= E.ONSET_PRESCREEN).sum())}"
              f"/{len(ys)} onsets; kept tp {int((keep & ys).sum())} fp {int((keep & ~ys).sum())}")


if __name__ == "__main__":
    main()
