"""Does per-speaker normalisation raise the shipped head's held-out-actor accuracy? (issue 18, item 3)

    .venv/bin/python models/emotion/compare_speaker_norm.py /work/shared/data/ser-train --plain /tmp/plain-speech

Same features and caches as train_dimensions.py (3 variants per clip), the shipped head's lambda / alpha /
beta (not nested: every row uses the same fixed values, so the rows compare like with like), leave-one-
actor-out on the canonical clips. Rows: no normalisation (the shipped recipe); the 99 speech features
z-scored per speaker (the v4 candidate's ``fitting.speaker_normalise``, reference mixes REF_FRACS); the
same plus the Whisper block; the Whisper block centred per speaker. The held-out actor is normalised by
all its clips (balanced) and, as the stress line, by its plain clips plus 1/12 of its emotional ones.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fitting import GROUPS, fit, group_confusion, save_npz, speaker_normalise, standardise_w, write_loao  # noqa: E402
from train_dimensions import VARIANTS, load  # noqa: E402
from train_emotion import PLAIN, PLAIN_RHO  # noqa: E402

from harp_desktop.index.emotion import (  # noqa: E402
    ENCODINGS,
    FEATURE_V7,
    PROSODY,
    combine,
    softmax,
)
from harp_desktop.index.emotion import TINY_VERSION as FEATURE_VERSION  # noqa: E402  (the caches' tiny.en features)
from harp_desktop.index.speaker_norm import N0, population_prior  # noqa: E402
from harp_desktop.index.voice_quality import VOICE  # noqa: E402

LABELS = ["neutral", "calm", "happy", "sad", "angry", "fearful", "disgust", "surprised"]
LAM, ALPHA, BETA = 0.1, 0.15, 0.6
N_EMB = 2048
SPEECH = len(PROSODY) + len(VOICE)  # the speech features after the Whisper block


def n_whisper(d: dict) -> int:
    """Width of the Whisper block of d's rows (tiny.en: 2 x 384; the ASR profile's states, --states: base 2 x 512)."""
    return d["X"].shape[1] - N_EMB - SPEECH


def starts(d: dict) -> dict[str, int]:
    return {"speech features": N_EMB + n_whisper(d), "speech + Whisper": N_EMB}
SHIP_ROW = "z-score speech features, balanced reference"  # the recipe write_head writes (head v7, v8)


def normalised(d: dict, train: np.ndarray, start: int, fracs=None) -> np.ndarray:
    """X with columns [start:] z-scored per actor (the plain TTS rows, pseudo-actor 0, as one speaker)."""
    canon = d["variant"] == 0
    r = train & canon
    prior = population_prior(d["X"][r, start:], d["actor"][r])
    plain = np.isin(d["emo"], PLAIN)
    extra = {"fracs": fracs} if fracs else {}
    return speaker_normalise(d["X"], d["actor"], d["variant"], plain, start, prior, 0, clips=own_room(d), **extra)


def own_room(d: dict) -> np.ndarray | None:
    """Rows' clip ids when the variants are heard in rooms of their own (--room-tone): each variant is then
    normalised by its own rows (fitting.speaker_normalise's ``clips``); None otherwise."""
    return d["clip"] if "room_tone" in d else None


def stressed(d: dict, train: np.ndarray, start: int) -> np.ndarray:
    """Training actors as normalised(); the held-out actor against its plain clips + 1/12 of its emotional ones."""
    X = normalised(d, train, start)
    X[~train] = normalised(d, train, start, (1 / 12,))[~train]
    return X


def centred_whisper(d: dict) -> np.ndarray:
    X = d["X"].copy()
    sl = slice(N_EMB, N_EMB + n_whisper(d))
    for a in np.unique(d["actor"]):
        m = d["actor"] == a
        X[m, sl] -= X[m & (d["variant"] == 0), sl].mean(0)
    return X


def loao(d: dict, make, out: Path | None = None, room: Path | None = None) -> tuple[float, float, np.ndarray]:
    """Held-out-actor 8-class and coarse accuracy, coarse confusion; ``out``: also write the held-out
    probabilities (before temperature and deployment prior) in loao.json's layout; ``room``: a room_tone.py file
    (a seed no training row used) whose rows are scored too (``room_test``; printed with both confusions)."""
    y = np.array([LABELS.index(str(e)) for e in d["emo"]])
    canon = (d["variant"] == 0) & ~d["extra"]
    logits = np.zeros((len(y), len(LABELS)))
    noisy: dict[str, np.ndarray] = {}
    sx = np.load(room)["SX"] if room else None
    for a in np.unique(d["actor"][canon]):
        tr, te = d["actor"] != a, canon & (d["actor"] == a)
        X = make(tr)
        mu, sd = standardise_w(X[tr], N_EMB, ALPHA, n_whisper(d), BETA)
        W, b = fit((X[tr] - mu) / sd, y[tr], len(LABELS), LAM, d["extra"][tr], PLAIN_RHO)
        logits[te] = ((X[te] - mu) / sd) @ W + b
        if sx is not None:  # the canonical RAVDESS rows come first, in SX's order
            for k, z in room_test(d, tr, starts(d)["speech features"], W, b, mu, sd, te, sx[te[: len(sx)]]).items():
                noisy.setdefault(k, np.zeros((len(y), len(LABELS))))[te] = z
    acc = float((logits[canon].argmax(1) == y[canon]).mean())
    gacc, gcm = group_confusion(softmax(logits[canon]), y[canon], LABELS)
    for name, z in [("as recorded", logits), *((f"in a room, {k}", v) for k, v in noisy.items())]:
        pred = z[canon].argmax(1)
        cm = np.zeros((len(LABELS), len(LABELS)), int)
        np.add.at(cm, (y[canon], pred), 1)
        g, g_cm = group_confusion(softmax(z[canon]), y[canon], LABELS)
        print(f"  held-out actor, {name}: 8-class {float((pred == y[canon]).mean()):.3f} coarse {g:.3f}\n"
              f"  8-class confusion (rows truth {LABELS}):\n{cm}\n  coarse confusion ({list(GROUPS)}):\n{g_cm}",
              flush=True)
    if out:
        ids = ", ".join(f"{a:02d}" for a in np.unique(d["actor"][canon]))
        write_loao(out, LABELS, d["actor"][canon], y[canon], softmax(logits[canon]),
                   f"8-class head, speech features z-scored per speaker (balanced reference), leave-one-actor-out over "
                   f"actors {ids}, fixed lambda {LAM} alpha {ALPHA} beta {BETA} (compare_speaker_norm.py, not nested), "
                   "canonical variant of each clip, probabilities before temperature and deployment prior")
    return acc, gacc, gcm


def write_head(d: dict, path: Path, version: str = FEATURE_VERSION, temperature_from: Path | None = None,
               note: str = "") -> None:
    """The speaker-normalised candidate on all actors, in the npz layout EmotionModel reads (spk_* arrays);
    temperature and deployment prior copied from the shipped head (or ``temperature_from``); ``version``: the
    feature version (Whisper encoding) the rows of d were computed with."""
    start = starts(d)["speech features"]
    canon = (d["variant"] == 0) & ~d["extra"]
    prior = population_prior(d["X"][canon, start:], d["actor"][canon])
    X = speaker_normalise(d["X"], d["actor"], d["variant"], np.isin(d["emo"], PLAIN), start, prior, 0,
                          clips=own_room(d))
    y = np.array([LABELS.index(str(e)) for e in d["emo"]])
    mu, sd = standardise_w(X, N_EMB, ALPHA, n_whisper(d), BETA)
    W, b = fit((X - mu) / sd, y, len(LABELS), LAM, d["extra"], PLAIN_RHO)
    with np.load(temperature_from or Path(__file__).with_name("emotion_head.npz")) as z:
        temperature, log_prior = z["temperature"], z["log_prior"]
    save_npz(path, W=W.astype(np.float32), b=b.astype(np.float32), mean=mu.astype(np.float32),
             std=sd.astype(np.float32), labels=np.array(LABELS), temperature=temperature, log_prior=log_prior,
             neutral=np.array("neutral"), feature_version=np.array(version), spk_start=np.array(start),
             spk_mean=prior[0].astype(np.float32), spk_var=prior[1].astype(np.float32), spk_n0=np.array(N0, np.float32),
             prosody=np.array(PROSODY + VOICE), provenance=np.array(
                 "speaker-normalised candidate (issue 18), RAVDESS ser-train actors (CC BY-NC-SA 4.0, non-commercial) "
                 f"+ flite plain TTS; models/emotion/compare_speaker_norm.py lambda {LAM} alpha {ALPHA} beta {BETA}; "
                 f"features {version}{note}"))
    print(f"wrote {path}")


def with_states(d: dict, files: list[Path]) -> dict:
    """d with the Whisper block replaced by asr_context.py's states; files after the first add context variants
    (same speech features, other neighbours and window places) as training rows with variant 1, 2, ..."""
    assert not (d["variant"] > 0).any(), "states are of the canonical clips (--variants 1)"
    speech = np.concatenate([d["X"][:, :N_EMB], d["X"][:, N_EMB + n_whisper(d):]], axis=1)
    parts = []
    for v, f in enumerate(files):
        with np.load(f) as z:
            wx = np.concatenate([z["WX"], z["PX"]])
        assert len(wx) == len(speech)
        part = {k: np.asarray(val) for k, val in d.items()}
        part["X"], part["variant"] = combine(speech, wx), np.full(len(wx), v)
        parts.append(part)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def with_room_tone(d: dict, files: list[Path]) -> dict:
    """d (with_states' rows) with the speech blocks (YAMNet + speech features) of context variant 1, 2, ... replaced
    by room_tone.py's features of the same clips heard through a room's noise floor (file k for variant k): the
    canonical variant stays as recorded, the others keep their Whisper states and are heard in a room."""
    d = dict(d)
    X = d["X"].copy()
    nw = n_whisper(d)
    for v, f in enumerate(files, 1):
        with np.load(f) as z:
            sx = np.concatenate([z["SX"], z["PSX"]])
        rows = np.flatnonzero(d["variant"] == v)
        assert len(rows) == len(sx), (len(rows), len(sx))
        X[rows, :N_EMB] = sx[:, :N_EMB]
        X[rows, N_EMB + nw:] = sx[:, N_EMB:]
    d["X"], d["room_tone"] = X, np.array([str(f.name) for f in files])
    return d


def room_test(d: dict, train: np.ndarray, start: int, W: np.ndarray, b: np.ndarray, mu: np.ndarray, sd: np.ndarray,
              test: np.ndarray, sx: np.ndarray) -> dict[str, np.ndarray]:
    """Held-out logits of the canonical rows ``test`` with their speech blocks heard through a room (``sx``:
    room_tone.py's SX rows of those clips, a seed no training row used): z-scored by the held-out actor's own
    noisy rows ("actor stats"), and each row by itself, as a speaker heard once ("alone")."""
    nw = n_whisper(d)
    X = d["X"][test].copy()
    X[:, :N_EMB] = sx[:, :N_EMB]
    X[:, N_EMB + nw:] = sx[:, N_EMB:]
    r = train & (d["variant"] == 0) & ~d["extra"]
    prior = population_prior(d["X"][r, start:], d["actor"][r])
    whole = speaker_norm_rows(X, start, prior, X)
    alone = np.concatenate([speaker_norm_rows(X[i:i + 1], start, prior, X[i:i + 1]) for i in range(len(X))])
    return {"actor stats": ((whole - mu) / sd) @ W + b, "alone": ((alone - mu) / sd) @ W + b}


def speaker_norm_rows(X: np.ndarray, start: int, prior, ref: np.ndarray) -> np.ndarray:
    from harp_desktop.index.speaker_norm import normalise, speaker_stats

    return normalise(X, start, *speaker_stats(ref[:, start:], *prior))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ser_dir", type=Path)
    ap.add_argument("--plain", type=Path, default=None)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/ser_features.1var.npz"))
    ap.add_argument("--variants", type=int, default=VARIANTS)
    ap.add_argument("--write-head", type=Path, default=None,
                    help="also write the all-actor 'z-score speech features' head (the issue-18 candidate) here")
    ap.add_argument("--features", choices=list(ENCODINGS), default=FEATURE_VERSION,
                    help="Whisper encoding of the clips (emotion.ENCODINGS): 30 s padded (v5, head v7) or unpadded (v6, head v8)")
    ap.add_argument("--temperature-from", type=Path, default=None,
                    help="head whose temperature and deployment prior the written head copies (default: the shipped one)")
    ap.add_argument("--loao-out", type=Path, default=None,
                    help="write the 'z-score speech features, balanced reference' row's held-out probabilities here")
    ap.add_argument("--states", type=Path, nargs="+", default=None,
                    help="asr_context.py outputs: replace the Whisper block by the ASR model's states of each clip "
                         "heard in a joined 30 s window (the head v9 candidate); the first file's rows are scored, "
                         "each further file (another --seed) adds training rows as variants 1, 2, ... (needs --variants 1)")
    ap.add_argument("--room-tone", type=Path, nargs="+", default=None,
                    help="room_tone.py outputs, file k for context variant k (the k-th --states file after the "
                         "first): that variant's speech features heard through a room's noise floor, normalised per "
                         "speaker within their room")
    ap.add_argument("--room-test", type=Path, default=None,
                    help="a room_tone.py file of a seed no --room-tone file uses: the held-out actor's clips heard "
                         "through that room are scored too (ship row)")
    ap.add_argument("--rows-out", type=Path, default=None,
                    help="write the canonical RAVDESS rows (raw features, file names, actors) here: "
                         "benchmarks/emotion_lines_bench.py --training-rows swaps their blocks into recorded lines")
    ap.add_argument("--ship-row-only", action="store_true", help=f"only the '{SHIP_ROW}' row (the written head's recipe)")
    args = ap.parse_args()
    d = load(args.ser_dir, args.cache, args.plain, 0, args.variants, args.features)
    if args.states:
        d = with_states(d, args.states)
    if args.room_tone:
        assert args.states and len(args.room_tone) < len(args.states), "--room-tone k needs a k-th extra --states file"
        d = with_room_tone(d, args.room_tone)
    if args.rows_out:
        canon = (d["variant"] == 0) & ~d["extra"]
        files = sorted(args.ser_dir.glob("Actor_*/*.flac"))
        assert canon.sum() == len(files)
        np.savez(args.rows_out, X=d["X"][canon], actor=d["actor"][canon], names=np.array([f.name for f in files]),
                 start=np.array(starts(d)["speech features"]), whisper=np.array(n_whisper(d)))
    if args.write_head:
        note = (f"; Whisper block: the ASR model's states of each clip in joined 30 s windows (asr_context.py), "
                f"{len(args.states)} context variants: {', '.join(p.name for p in args.states)}") if args.states else ""
        if args.room_tone:
            note += (f"; speech features of variants 1-{len(args.room_tone)} heard through a room's noise floor "
                     f"(room_tone.py): {', '.join(p.name for p in args.room_tone)}")
        write_head(d, args.write_head, FEATURE_V7 if args.states else args.features, args.temperature_from, note)
    rows = {"none (shipped recipe)": lambda tr: d["X"]}
    for name, start in starts(d).items():
        rows[f"z-score {name}, balanced reference"] = lambda tr, s=start: normalised(d, tr, s)
        rows[f"z-score {name}, 75% plain reference (stress)"] = lambda tr, s=start: stressed(d, tr, s)
    xc = centred_whisper(d)
    rows["Whisper block centred per speaker"] = lambda tr: xc
    if args.ship_row_only:
        rows = {SHIP_ROW: rows[SHIP_ROW]}
    out = {}
    for name, make in rows.items():
        acc, gacc, gcm = loao(d, make, args.loao_out if name == SHIP_ROW else None,
                              args.room_test if name == SHIP_ROW else None)
        out[name] = {"8-class": acc, "coarse": gacc, "coarse_confusion": gcm.tolist()}
        print(f"{name:55s} 8-class {acc:.3f} coarse {gacc:.3f}", flush=True)
    print(json.dumps({"groups": list(GROUPS), **out}, indent=1))


if __name__ == "__main__":
    main()
