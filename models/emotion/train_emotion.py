"""Train the speech-emotion head (v6 and earlier; the shipped v7 is written by compare_speaker_norm.py --write-head, REPORT.md).

    .venv/bin/python models/emotion/make_plain_speech.py /tmp/plain-speech   # needs Debian's flite
    .venv/bin/python models/emotion/train_emotion.py /work/shared/data/ser-train --plain /tmp/plain-speech

The shipped head is trained with --plain: neutral sentences synthesised by flite (voices no test clip
uses), in every training fold and never scored, so plain speech outside RAVDESS's studio actors is
not heard as emotional.

--features picks the Whisper encoding of the clips (a key of emotion.ENCODINGS: 30 s padded windows, or the
unpadded <= 8 s windows of the v8 candidate); the head records it as its feature_version.

Reads the RAVDESS clips (03-01-EE-II-SS-RR-AA.flac under Actor_*/), builds features
exactly as the app does (harp_desktop.index.emotion.features: YAMNet frame embeddings,
Whisper encoder states of the clip encoded as one 30 s window, prosody and voice quality;
the two parts are cached separately and joined by emotion.combine), evaluates leave-one-actor-out, fits a temperature on the
held-out folds, trains on all actors and writes the head and REPORT.md.

Each clip is seen as the pipeline would see it: loudness-normalised (random level
around -19 dBFS frame-energy p95, the level of the dev recording's clips; RAVDESS levels
differ by emotion and would otherwise be learnt), placed after a random offset on
YAMNet's 0.48 s grid, -60 dBFS pink noise underneath, span = speech +- random padding.
Variant 0 of each clip is the canonical one (no randomness) and is what is evaluated.
Multinomial logistic regression with L2, fitted with scipy L-BFGS: no sklearn, no torch.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only contend

import numpy as np  # noqa: E402
import soundfile as sf  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from harp_desktop import weights  # noqa: E402
from harp_desktop.index.emotion import (  # noqa: E402
    ENCODINGS,
    FEATURE_V5,
    PROSODY,
    SPEECH_VERSION,
    SR,
    WHISPER_PROFILE,
    combine,
    frames_in,
    load_whisper,
    softmax,
    speech_features,
)
from harp_desktop.index.emotion import N_WHISPER_TINY as N_WHISPER  # noqa: E402  (this script: tiny.en features)
from harp_desktop.index.emotion import TINY_VERSION as FEATURE_VERSION  # noqa: E402
from harp_desktop.index.events import YamnetTagger  # noqa: E402
from harp_desktop.index.speaker_norm import N0, population_prior  # noqa: E402
from harp_desktop.index.voice_quality import VOICE  # noqa: E402
from harp_desktop.index.whisper_enc import encode  # noqa: E402
from harp_desktop.paths import data_dir, private_dir  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fitting import (  # noqa: E402
    GROUPS,
    ece,
    fit,
    fit_temperature,
    frame_db,
    group_confusion,
    loao_logits,
    nll,
    pink,
    save_npz,
    speaker_normalise,
    standardise_w,
    write_loao,
)

EMOTIONS = {1: "neutral", 2: "calm", 3: "happy", 4: "sad", 5: "angry", 6: "fearful", 7: "disgust", 8: "surprised"}
LABEL_SETS = {  # name -> mapping of the RAVDESS emotion to a training label (None: clip left out)
    "8-class": {e: e for e in EMOTIONS.values()},
    "7-class (calm->neutral)": {**{e: e for e in EMOTIONS.values()}, "calm": "neutral"},
    "5-class (calm->neutral, surprised->happy, disgust->angry)":
        {**{e: e for e in EMOTIONS.values()}, "calm": "neutral", "surprised": "happy", "disgust": "angry"},
    "4-class subset (neutral+calm, happy, sad, angry)":
        {"neutral": "neutral", "calm": "neutral", "happy": "happy", "sad": "sad", "angry": "angry"},
}
SHIP_LABELS = "8-class"
VARIANTS, LEVEL_DB = 6, -19.0
LAMBDAS = [0.1, 0.3, 1.0]
ALPHAS = [0.05, 0.15]  # weight of the 2048 embedding features relative to the 99 speech features
ALPHAS_SPK = [0.15, 0.3]  # with --speaker-norm (0.05 was never chosen; 0.3 helps once features are normalised)
BETAS = [0.3, 0.6]  # weight of the Whisper encoder block (chosen on canonical-only exploration, see REPORT.md)
GRID_BETA = 0.6  # in the comparison grid
SPK_START = 2048 + N_WHISPER  # speaker-normalised columns: the speech features after the pooled embeddings
STRESS_FRAC, STRESS_DRAWS = 1 / 12, 3  # plain-heavy reference for the held-out actor: plain + 4 of 48 emotional
N_EMB = 1024
PLAIN_VARIANTS, PLAIN_CI0 = 3, 100000  # plain TTS clips: canonical + 2 augmented; augmentation seed offset
PLAIN_RHO = 1.0  # all plain TTS rows together weigh as much in the loss as one class of RAVDESS rows
SHIPPED = f"YAMNet mean+std + Whisper {WHISPER_PROFILE} encoder mean+std + prosody/MFCC + voice quality (shipped)"
SHIPPED_RAW = f"YAMNet mean+std + Whisper {WHISPER_PROFILE} encoder mean+std + prosody/MFCC + voice quality, no speaker normalisation"
V3 = "YAMNet mean+std + prosody/MFCC + voice quality (head v3)"
# Label shift: RAVDESS is ~balanced, everyday speech is mostly plain. The head ships a log-prior shift that
# turns its (balanced-prior) probabilities into ones for a mix where half the speech is neutral or calm.
DEPLOY_NEUTRAL = 0.5  # shared evenly by the labels in PLAIN
PLAIN = ("neutral", "calm")  # not emotional: calm is soft neutral in RAVDESS


def clip_variants(files: list[Path], seed: int, variants: int, ci0: int = 0):
    """(clip index, RAVDESS code, variant, signal, span start s, span end s) for every variant of every clip.

    ci0 offsets the clip index that seeds the augmentation (the plain TTS clips use PLAIN_CI0)."""
    for ci, f in enumerate(files, ci0):
        code = [int(p) for p in f.stem.split("-")] if f.stem[:1].isdigit() else None
        x, sr = sf.read(f, dtype="float32")
        assert sr == SR and x.ndim == 1, f
        db = frame_db(x)
        on = np.flatnonzero(db > db.max() - 30.0)
        a0, b0 = on[0] * 0.01, on[-1] * 0.01 + 0.025  # speech span, s
        p95 = np.percentile(db, 95)
        rng = np.random.default_rng([seed, ci])
        for v in range(variants):
            if v == 0:
                off, level, pa, pb = 0.5, LEVEL_DB, 0.1, 0.1
            else:
                off, level = rng.uniform(0.0, 0.96), rng.uniform(LEVEL_DB - 10, LEVEL_DB + 6)
                pa, pb = rng.uniform(0.0, 0.3, 2)
            y = np.clip(x * 10 ** ((level - p95) / 20), -1, 1)
            lead, tail = int(off * SR), SR // 2
            sig = np.concatenate([np.zeros(lead, np.float32), y, np.zeros(tail, np.float32)])
            sig += pink(len(sig), np.random.default_rng([seed, ci, v]), -60.0)
            a, b = off + max(0.0, a0 - pa), off + min(len(x) / SR, b0 + pb)
            yield ci, code, v, sig, a, b


def _cached(cache: Path, key: str) -> dict | None:
    if cache.exists():
        z = np.load(cache, allow_pickle=False)
        if str(z["key"]) == key:
            return {k: z[k] for k in z.files}
    return None


def whisper_cache(cache: Path, version: str) -> Path:
    """Where the Whisper block of ``version`` is cached next to a speech-feature cache (v5: the old name)."""
    tag = WHISPER_PROFILE if version == FEATURE_V5 else version
    return cache.with_name(f"{cache.stem}.whisper-{tag}.npz")


def encode_clips(signals, version: str, label: str) -> np.ndarray:
    """(n, N_WHISPER) pooled Whisper states of (signal, span start, span end) triples, encoded as ``version`` says."""
    model = load_whisper(cpu_threads=1)  # one thread: the same numbers on every run
    WX, t0 = [], time.perf_counter()
    for i, (sig, a, b) in enumerate(signals):
        WX.append(encode(model, sig, *ENCODINGS[version]).pool(a, b))
        if i % 100 == 99:
            print(f"  Whisper encoder ({label}) {i + 1} ({time.perf_counter() - t0:.0f} s)", flush=True)
    return np.array(WX, np.float32)


def extract_plain(plain_dir: Path, cache: Path, seed: int, variants: int = PLAIN_VARIANTS,
                  version: str = FEATURE_VERSION) -> dict:
    """Features of the plain TTS clips (models/emotion/make_plain_speech.py), label neutral, pseudo-actor 0.

    Speech features in ``cache``, the Whisper block (``version``'s encoding) in whisper_cache(cache, version)."""
    files = sorted(plain_dir.glob("plain_*.flac"))
    names = [f.name for f in files]
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
    key = hashlib.sha256(f"{SPEECH_VERSION}|{seed}|{variants}|{names}|{digest}".encode()).hexdigest()[:16]
    wkey = hashlib.sha256(f"{version}|{key}".encode()).hexdigest()[:16]
    wc = whisper_cache(cache, version)
    if (out := _cached(cache, key)) is not None:
        if (w := _cached(wc, wkey)) is None:
            w = {"key": np.array(wkey), "WX": encode_clips(
                ((sig, a, b) for _, _, _, sig, a, b in clip_variants(files, seed, variants, PLAIN_CI0)), version,
                "plain")}
            np.savez(wc, **w)
        return {**out, "WX": w["WX"]}
    tagger = YamnetTagger(weights.model_file("events", "YamNet_w8a8.onnx.zip"),
                          weights.model_file("events", "yamnet_class_map.csv"),
                          private_dir(data_dir() / "models" / "yamnet"))
    model = load_whisper(cpu_threads=1)
    X, MX, WX, clip, variant = [], [], [], [], []
    t0 = time.perf_counter()
    for ci, _, v, sig, a, b in clip_variants(files, seed, variants, PLAIN_CI0):
        fs = tagger.run(sig, hop_s=0.48, dense_hop_s=None)
        emb = fs.embeddings[frames_in(fs.times_s, a, b)]
        X.append(speech_features(sig[int(a * SR): int(b * SR)], emb))
        MX.append(emb.astype(np.float32).max(0))
        WX.append(encode(model, sig, *ENCODINGS[version]).pool(a, b))
        clip.append(ci)
        variant.append(v)
        if v == variants - 1 and (ci - PLAIN_CI0) % 25 == 24:
            print(f"  plain clips {ci - PLAIN_CI0 + 1}/{len(files)} ({time.perf_counter() - t0:.0f} s)", flush=True)
    n = len(X)
    out = {"key": np.array(key), "X": np.array(X), "MX": np.array(MX),
           "clip": np.array(clip), "variant": np.array(variant), "emo": np.array(["neutral"] * n),
           "actor": np.zeros(n, int), "intensity": np.ones(n, int)}
    np.savez(cache, **out)
    np.savez(wc, key=np.array(wkey), WX=np.array(WX, np.float32))
    return {**out, "WX": np.array(WX, np.float32)}


def extract(ser_dir: Path, cache: Path, seed: int, variants: int = VARIANTS, version: str = FEATURE_VERSION) -> dict:
    """Features of every clip variant: emotion.combine(speech_features, pooled Whisper states), as the app.

    The YAMNet/prosody part (SPEECH_VERSION) and the Whisper part (``version``: a key of emotion.ENCODINGS,
    how the clip is cut for the encoder) are cached apart, so a change to one does not recompute the other."""
    files = sorted(ser_dir.glob("Actor_*/*.flac"))
    names = [f.name for f in files]
    key = hashlib.sha256(f"{SPEECH_VERSION}|{seed}|{variants}|{names}".encode()).hexdigest()[:16]
    if (out := _cached(cache, key)) is None:
        tagger = YamnetTagger(weights.model_file("events", "YamNet_w8a8.onnx.zip"),
                              weights.model_file("events", "yamnet_class_map.csv"),
                              private_dir(data_dir() / "models" / "yamnet"))
        X, MX, clip, variant, emo, actor, inten = [], [], [], [], [], [], []
        t0 = time.perf_counter()
        for ci, code, v, sig, a, b in clip_variants(files, seed, variants):
            fs = tagger.run(sig, hop_s=0.48, dense_hop_s=None)
            emb = fs.embeddings[frames_in(fs.times_s, a, b)]
            X.append(speech_features(sig[int(a * SR): int(b * SR)], emb))
            MX.append(emb.astype(np.float32).max(0))
            clip.append(ci)
            variant.append(v)
            emo.append(EMOTIONS[code[2]])
            actor.append(code[6])
            inten.append(code[3])
            if v == variants - 1 and ci % 50 == 49:
                print(f"  features {ci + 1}/{len(files)} ({time.perf_counter() - t0:.0f} s)", flush=True)
        out = {"key": np.array(key), "X": np.array(X), "MX": np.array(MX), "clip": np.array(clip),
               "variant": np.array(variant), "emo": np.array(emo), "actor": np.array(actor),
               "intensity": np.array(inten)}
        np.savez(cache, **out)
    wcache = whisper_cache(cache, version)
    wkey = hashlib.sha256(f"{version}|{seed}|{variants}|{names}".encode()).hexdigest()[:16]
    if (w := _cached(wcache, wkey)) is None:
        t0 = time.perf_counter()
        WX = encode_clips(((sig, a, b) for _, _, _, sig, a, b in clip_variants(files, seed, variants)), version,
                          "RAVDESS")
        w = {"key": np.array(wkey), "WX": WX, "seconds": np.array(time.perf_counter() - t0)}
        np.savez(wcache, **w)
    out["V3"] = out["X"]
    out["X"] = combine(out["V3"], w["WX"])
    return out


def design(data: dict, pooling: str) -> tuple[np.ndarray, int, int]:
    """Feature matrix for one pooling variant, how many leading columns are YAMNet embeddings and how many
    Whisper encoder columns follow them."""
    X, MX, v3 = data["X"], data["MX"], data["V3"]
    mean, speech, wx = v3[:, :N_EMB], v3[:, 2 * N_EMB:], X[:, 2 * N_EMB: 2 * N_EMB + N_WHISPER]
    return {SHIPPED: (X, 2 * N_EMB, N_WHISPER), SHIPPED_RAW: (X, 2 * N_EMB, N_WHISPER),
            V3: (v3, 2 * N_EMB, 0),
            f"Whisper {WHISPER_PROFILE} encoder mean+std + prosody/MFCC + voice quality": (np.hstack([wx, speech]), 0, N_WHISPER),
            f"Whisper {WHISPER_PROFILE} encoder mean+std only": (wx, 0, 0),
            f"Whisper {WHISPER_PROFILE} encoder mean only": (wx[:, :N_WHISPER // 2], 0, 0),
            "YAMNet mean+max + prosody/MFCC + voice quality": (np.hstack([mean, MX, speech]), 2 * N_EMB, 0),
            "YAMNet mean+std only": (v3[:, : 2 * N_EMB], 0, 0),
            "prosody/MFCC + voice quality (99)": (speech, 0, 0)}[pooling]


def labels_for(data: dict, label_set: str) -> tuple[np.ndarray, list[str], np.ndarray]:
    mapping = LABEL_SETS[label_set]
    names = list(dict.fromkeys(v for e in EMOTIONS.values() if (v := mapping.get(e))))
    keep = np.array([mapping.get(e) is not None for e in data["emo"]])
    y = np.array([names.index(mapping[e]) if mapping.get(e) else -1 for e in data["emo"]])
    return y, names, keep


def speaker_prep(data: dict, X: np.ndarray, seed: int, fracs=None):
    """prep(training-row mask) for fitting.loao_logits: speaker normalisation of X with the population prior
    taken from the training rows' actors only (canonical variants)."""
    canon, plain = data["variant"] == 0, np.isin(data["emo"], PLAIN)

    def prep(train_rows: np.ndarray) -> np.ndarray:
        r = train_rows & canon
        prior = population_prior(X[r, SPK_START:], data["actor"][r])
        extra = {"fracs": fracs} if fracs else {}
        return speaker_normalise(X, data["actor"], data["variant"], plain, SPK_START, prior, seed, **extra)
    return prep


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ser_dir", type=Path)
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("emotion_head.npz"))
    ap.add_argument("--report", type=Path, default=Path(__file__).with_name("REPORT.md"))
    ap.add_argument("--cache", type=Path, default=Path("/tmp/ser_features.npz"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--loao", type=Path, default=Path(__file__).with_name("loao.json"),
                    help="where to write the held-out-actor probabilities (read by benchmarks/paraling_bench.py)")
    ap.add_argument("--variants", type=int, default=VARIANTS, help="augmented variants per clip, canonical included")
    ap.add_argument("--quick", action="store_true", help="skip the comparison grid")
    ap.add_argument("--plain", type=Path, default=None,
                    help="folder of plain TTS clips from make_plain_speech.py: neutral, in every training fold, never scored")
    ap.add_argument("--features", choices=list(ENCODINGS), default=FEATURE_VERSION,
                    help="Whisper encoding of the clips (emotion.ENCODINGS): 30 s padded (v5) or unpadded (v6)")
    ap.add_argument("--speaker-norm", action="store_true",
                    help="z-score the speech features per actor (head v4 candidate; not shipped: worse on dev, see REPORT.md)")
    args = ap.parse_args()
    np.random.seed(args.seed)
    data = extract(args.ser_dir, args.cache, args.seed, args.variants, args.features)
    data["extra"] = np.zeros(len(data["X"]), bool)
    n_plain = 0
    if args.plain:
        pl = extract_plain(args.plain, args.cache.with_name(f"{args.cache.stem}.plain.npz"), args.seed,
                           version=args.features)
        pl["V3"], pl["X"] = pl["X"], combine(pl["X"], pl["WX"])
        n_plain = len(np.unique(pl["clip"]))
        data = {k_: np.concatenate([data[k_], np.ones(len(pl["X"]), bool) if k_ == "extra" else pl[k_]])
                for k_ in ("X", "V3", "MX", "clip", "variant", "emo", "actor", "intensity", "extra")}
    extra, rho = data["extra"], PLAIN_RHO
    ids = ", ".join(f"{a:02d}" for a in np.unique(data["actor"][~extra]))
    actors, canon = data["actor"], (data["variant"] == 0) & ~extra
    lines: list[str] = []

    # 1. Comparison grid (lambda picked per cell on the same folds: optimistic; the shipped row is nested).
    grid = []
    cells = [(ls, SHIPPED) for ls in LABEL_SETS] + [
        (SHIP_LABELS, p) for p in [
            V3, f"Whisper {WHISPER_PROFILE} encoder mean+std + prosody/MFCC + voice quality",
            f"Whisper {WHISPER_PROFILE} encoder mean+std only", f"Whisper {WHISPER_PROFILE} encoder mean only",
            "YAMNet mean+std only", "prosody/MFCC + voice quality (99)"]]
    if args.speaker_norm:
        cells.insert(len(LABEL_SETS), (SHIP_LABELS, SHIPPED_RAW))
    for ls, pooling in [] if args.quick else cells:
        y, names, keep = labels_for(data, ls)
        X, n_emb, n_w = design(data, pooling)
        alpha = 0.15 if n_emb and X.shape[1] > n_emb else 1.0
        beta = GRID_BETA if n_w and X.shape[1] > n_w else 1.0
        prep = speaker_prep(data, X, args.seed) if pooling == SHIPPED and args.speaker_norm else None
        res = {}
        for lam in (0.1, 0.3):
            lg = loao_logits(X, y, actors, keep, keep & canon, len(names), lam, n_emb, alpha, prep, n_w, beta,
                             extra, rho)
            t = keep & canon
            res[lam] = (float((lg[t].argmax(1) == y[t]).mean()), nll(lg[t], y[t]))
        best = max(res, key=lambda m: res[m][0])
        grid.append((ls, pooling, *res[best], best, len(names)))
        print(f"{ls:58s} {pooling:34s} acc {res[best][0]:.3f} nll {res[best][1]:.3f} (lam {best})", flush=True)

    # 2. Shipped configuration, nested: (lambda, alpha, beta) chosen on the 4 training actors by inner LOAO NLL.
    y, names, keep = labels_for(data, SHIP_LABELS)
    (X, n_emb, n_w), k = design(data, SHIPPED), len(names)
    test = keep & canon
    prep = speaker_prep(data, X, args.seed) if args.speaker_norm else None
    oof, stress = np.zeros((len(X), k)), np.zeros((STRESS_DRAWS, len(X), k))
    chosen = {}
    for a in np.unique(actors[test]):
        inner = keep & (actors != a)
        scores = {}
        for lam in LAMBDAS:
            for alpha in ALPHAS_SPK if prep else ALPHAS:
                for beta in BETAS:
                    lg = loao_logits(X, y, actors, inner, inner & canon, k, lam, n_emb, alpha, prep, n_w, beta,
                                     extra, rho)
                    scores[(lam, alpha, beta)] = nll(lg[inner & canon], y[inner & canon])
        lam, alpha, beta = min(scores, key=scores.get)
        chosen[int(a)] = (lam, alpha, beta)
        print(f"  outer fold actor {a:02d}: lambda {lam}, alpha {alpha}, beta {beta}", flush=True)
        tr, te = inner, test & (actors == a)
        Xn = prep(tr) if prep else X
        mu, sd = standardise_w(Xn[tr], n_emb, alpha, n_w, beta)
        W, b = fit((Xn[tr] - mu) / sd, y[tr], k, lam, extra[tr], rho)
        oof[te] = ((Xn[te] - mu) / sd) @ W + b
        for d_ in range(STRESS_DRAWS if prep else 0):  # same head, held-out actor normalised by a mostly plain reference
            Xs = speaker_prep(data, X, args.seed + 1 + d_, (STRESS_FRAC,))(tr)
            stress[d_, te] = ((Xs[te] - mu) / sd) @ W + b
    yt, lt, at = y[test], oof[test], actors[test]
    pred = lt.argmax(1)
    acc = float((pred == yt).mean())
    per_actor = {int(a): float((pred[at == a] == yt[at == a]).mean()) for a in np.unique(at)}
    gacc, gcm = group_confusion(softmax(lt), yt, names)
    st = stress[:, test]
    stress_acc = float(np.mean([(s_.argmax(1) == yt).mean() for s_ in st])) if prep else None
    stress_gacc = float(np.mean([group_confusion(softmax(s_), yt, names)[0] for s_ in st])) if prep else None
    write_loao(args.loao, names, at, yt, softmax(lt),
               f"{SHIP_LABELS} head, nested leave-one-actor-out over actors {ids} (lambda, alpha chosen inside each "
               f"fold), canonical variant of each clip, probabilities before temperature and deployment prior")
    # Calibration: temperature per held-out actor fitted on the other actors' held-out logits.
    p_raw, p_cal = softmax(lt), np.zeros_like(lt)
    for a in np.unique(at):
        t_a = fit_temperature(lt[at != a], yt[at != a])
        p_cal[at == a] = softmax(lt[at == a] / t_a)
    T = fit_temperature(lt, yt)
    cm = np.zeros((k, k), int)
    for t_, p_ in zip(yt, pred, strict=True):
        cm[t_, p_] += 1
    plain = np.array([n in PLAIN for n in names])
    nonneutral = ~plain[yt]
    # The class-balanced loss trains for equal priors, whatever the clip counts; the plain TTS rows add rho of a
    # class to neutral.
    pi_train = np.where(np.array(names) == "neutral", 1.0 + (rho if n_plain else 0.0), 1.0)
    pi_train = pi_train / pi_train.sum()
    pi_dep = np.where(plain, DEPLOY_NEUTRAL / plain.sum(), (1 - DEPLOY_NEUTRAL) / (k - plain.sum()))
    log_prior = np.log(pi_dep / pi_train)
    pred_dep = (lt / T + log_prior).argmax(1)
    dep = {"accuracy": float((pred_dep == yt).mean()),
           "recall": {n: float((pred_dep[yt == i] == i).mean()) for i, n in enumerate(names)},
           "neutral_called_emotional": float((~plain[pred_dep[~nonneutral]]).mean()),
           "emotional_called_neutral": float(plain[pred_dep[nonneutral]].mean())}
    # Final head: all actors, (lambda, alpha, beta) = the most often chosen triple (ties: the smallest).
    lam, alpha, beta = max(sorted(set(chosen.values())), key=list(chosen.values()).count)
    Xn = prep(keep) if prep else X
    spk_mean, spk_var = population_prior(X[keep & canon, SPK_START:], actors[keep & canon])
    spk = {"spk_start": np.array(SPK_START), "spk_mean": spk_mean.astype(np.float32),
           "spk_var": spk_var.astype(np.float32), "spk_n0": np.array(N0, np.float32)} if prep else {}
    mu, sd = standardise_w(Xn[keep], n_emb, alpha, n_w, beta)
    W, b = fit((Xn[keep] - mu) / sd, y[keep], k, lam, extra[keep], rho)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_npz(
        args.out, W=W.astype(np.float32), b=b.astype(np.float32), mean=mu.astype(np.float32),
        std=sd.astype(np.float32), labels=np.array(names), temperature=np.array(T, np.float32),
        log_prior=log_prior.astype(np.float32),
        neutral=np.array("neutral"), feature_version=np.array(args.features),
        **spk,
        prosody=np.array(PROSODY + VOICE), provenance=np.array(
            f"trained on RAVDESS actors {ids} (CC BY-NC-SA 4.0, non-commercial): derived from "
            f"non-commercial data; models/emotion/train_emotion.py seed {args.seed} lambda {lam} alpha {alpha} beta {beta}"))
    summary = {"accuracy": acc, "coarse_accuracy": gacc, "stress_accuracy": stress_acc,
               "stress_coarse_accuracy": stress_gacc, "per_actor": per_actor, "chosen_per_fold": chosen, "lambda": lam, "alpha": alpha, "beta": beta,
               "temperature": T, "deployment_prior": dep,
               "ece_raw": ece(p_raw, yt), "ece_cal": ece(p_cal, yt), "nll_raw": nll(lt, yt),
               "nll_cal": float(-np.log(p_cal[np.arange(len(yt)), yt]).mean())}
    print(json.dumps(summary, indent=1))

    w = lines.append
    w("# Speech emotion head: training report\n")
    w(f"Generated by `models/emotion/train_emotion.py {args.ser_dir} --seed {args.seed}"
      f"{f' --plain {args.plain}' if args.plain else ''}{' --speaker-norm' if args.speaker_norm else ''}"
      f"{f' --features {args.features}' if args.features != FEATURE_VERSION else ''}` (features "
      f"`{args.features}`). Data: {int(canon.sum())} RAVDESS clips, actors {ids} (CC BY-NC-SA 4.0 — the head is "
      f"derived from non-commercial data). Each clip in {args.variants} variants (canonical + random level/grid-offset/padding "
      "augmentations); training folds use all variants, scores are on the canonical variant of the held-out actor's "
      "clips only.\n")
    w(f"Plain speech from outside RAVDESS: {n_plain} neutral sentences read by flite's kal and kal16 voices "
      "(`models/emotion/make_plain_speech.py`, varied rate and pitch; not the voices of the test clips or the "
      f"bundled sample), each in {PLAIN_VARIANTS} variants, labelled neutral and added to every training fold, "
      f"never scored; together they weigh {rho:g} times one RAVDESS class in the class-balanced loss.\n") if n_plain else None
    w(f"## Shipped head: {SHIP_LABELS}, YAMNet mean+std + Whisper {WHISPER_PROFILE} encoder mean+std + {len(PROSODY)} "
      f"prosody/MFCC + {len(VOICE)} voice-quality features{' (speaker-normalised)' if prep else ''}, class-balanced "
      "loss\n")
    w(f"Speaker normalisation: the {len(PROSODY) + len(VOICE)} speech features are z-scored per speaker "
      f"(harp_desktop/index/speaker_norm.py; statistics shrunk towards the training population with {N0:g} "
      "pseudo-clips). The held-out actor is normalised by all its own clips, labels unused (the app: all of a "
      "diarized speaker's segments). Training actors' augmented variants are normalised by reference mixes from all "
      "their clips down to their plain clips plus 1/12 of the emotional ones, so the head also sees a mostly plain "
      "speaker. Stress test, same heads: the held-out actor normalised by its plain clips plus 4 of its 48 emotional "
      f"ones (75% plain, {STRESS_DRAWS} random draws): accuracy **{stress_acc:.3f}**, coarse **{stress_gacc:.3f}**.\n"
      ) if prep else None
    w("Leave-one-actor-out; L2 strength lambda, the YAMNet-block weight alpha and the Whisper-block weight beta "
      "chosen inside each fold by inner leave-one-actor-out NLL (chosen (lambda, alpha, beta) per held-out actor: "
      f"{chosen}; final head lambda {lam}, alpha {alpha}, beta {beta}).\n")
    w(f"**Held-out-actor accuracy: {acc:.3f}** ({int((pred == yt).sum())}/{len(yt)}; chance "
      f"{np.bincount(yt).max() / len(yt):.3f} majority, {1 / k:.3f} uniform). "
      f"Per actor: {', '.join(f'{a:02d}: {v:.2f}' for a, v in per_actor.items())}. "
      f"Plain (neutral/calm) vs emotional: {float((~plain[pred] == nonneutral).mean()):.3f}.\n")
    w(f"Coarse groups ({', '.join(GROUPS)}; a group's probability is the sum of its classes'): "
      f"**{gacc:.3f}** (chance 0.25).\n")
    w("| truth \\ pred | " + " | ".join(GROUPS) + " |")
    w("|---" * (len(GROUPS) + 1) + "|")
    for g, row in zip(GROUPS, gcm, strict=True):
        w(f"| {g} | " + " | ".join(str(v) for v in row) + " |")
    w("")
    w("Confusion matrix (rows = truth, columns = prediction):\n")
    w("| truth \\ pred | " + " | ".join(names) + " | recall |")
    w("|---" * (k + 2) + "|")
    for i, n in enumerate(names):
        w(f"| {n} | " + " | ".join(str(v) for v in cm[i]) + f" | {cm[i, i] / max(1, cm[i].sum()):.2f} |")
    w("")
    w(f"Calibration (10-bin ECE of the top label, held-out actors): raw {summary['ece_raw']:.3f}, "
      f"temperature-scaled {summary['ece_cal']:.3f} (temperature fitted on the other actors' held-out logits; "
      f"NLL {summary['nll_raw']:.3f} -> {summary['nll_cal']:.3f}). Shipped temperature (all held-out folds): "
      f"{T:.3f}.\n")
    w(f"Deployment prior: the head also carries a log-prior shift (label-shift correction from the class-balanced "
      f"training mix, {' '.join(f'{v:.3f}' for v in pi_train)}, to one where {DEPLOY_NEUTRAL:.0%} of speech is plain ({' or '.join(PLAIN)}, "
      "split evenly); the other labels share "
      f"the rest), applied after the temperature; `emotion_probs` and tag scores are these shifted probabilities. "
      f"On the held-out actors (balanced, so this costs recall) it gives accuracy {dep['accuracy']:.3f}; plain "
      f"clips called emotional {dep['neutral_called_emotional']:.2f}, emotional clips called plain "
      f"{dep['emotional_called_neutral']:.2f}; recall "
      + ", ".join(f"{n} {v:.2f}" for n, v in dep["recall"].items()) + ".\n")
    if grid:
        w("## Label sets and pooling\n")
        w("Held-out-actor accuracy and NLL (before temperature scaling); lambda in {0.1, 0.3} picked per cell on "
          "the same folds (a little optimistic), YAMNet block weight alpha 0.15 and Whisper block weight beta "
          f"{GRID_BETA} when combined with other features.\n")
        w("| label set | features | accuracy | NLL | uniform chance | lambda |")
        w("|---|---|---|---|---|---|")
        for ls, pooling, a_, nll_, lam_, kk in grid:
            w(f"| {ls} | {pooling} | {a_:.3f} | {nll_:.3f} | {1 / kk:.2f} | {lam_} |")
        w("")
    marker = "<!-- hand-written below: kept when the script re-runs -->"
    old = args.report.read_text(encoding="utf-8") if args.report.exists() else ""
    tail = old[old.index(marker):] if marker in old else marker + "\n"
    args.report.write_text("\n".join(lines) + "\n" + tail, encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes) and {args.report}")


if __name__ == "__main__":
    main()
