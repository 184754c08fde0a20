"""Speaker-embedding equal-error rate on a trial list built from the speech on disk.

    .venv/bin/python benchmarks/paraling/voices.py [--max-per-speaker 8]

Utterances: every single-speaker speech turn of the dev recording and the bank recordings
(speaker = the voice: a Flite voice is one speaker across recordings; RAVDESS / LibriSpeech
/ other real speakers by their source), plus ser-train clips of RAVDESS actors 01, 02, 05,
06, 24 (emotional speech). Conditions, each scored as its own trial list (every pair of
utterances of the list: same speaker = target):

* ``full``: the utterances as they are (cut from the recordings, bank phone turns band-limited);
* ``short``: the first 1.5 s of each;
* ``phone``: one side of every pair band-limited 300-3400 Hz (a phone-band cue).

Embedding variants (``harp_desktop.index.speakers``): ``ge2e`` (as indexed), ``ge2e+norm``
(minus the trial list's mean embedding, renormalised: per-recording normalisation), and
``ge2e+band`` (in ``phone``: both sides band-limited when one is phone-band, the
"band-limited enrolment" of issue 18), and ``ge2e+rec``, per-recording normalisation as the
app would score it: every ordered pair (cue i, turn j), both minus the mean speaker window
of j's recording (from ``--library`` when it holds the recording, else the mean of that
origin's utterances in the list), renormalised.

``--encoder campplus``: the same lists on CAM++ (its "+band" column: both sides heard through the
telephone band, ``CamPlusEncoder.embed_band``, as voice cues compare a voice across channels since stop 33).

With ``--library`` (GE2E), also "is the cue's voice in this recording?": each utterance as a cue
against every other indexed recording (not bank_rec_03, held out), best speaker-window
score of the recording, raw against recording-normalised: detection EER, how many present
voices each finds where it falsely finds as many absent ones as the raw 0.745
(settle.VOICE_MATCH) does, and both rates at the normalised threshold calibrated on dev.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np
import soundfile as sf

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
SHARED = REPO.parent / "shared" / "data"
SPEECH = ("speech", "tts_speech", "emotion_speech")


def voice_of(e: dict) -> str | None:
    if "+" in (e.get("speaker") or ""):
        return None
    if e.get("voice") or "Flite" in str(e.get("source")):
        v = e.get("voice") or re.search(r"cmu_us_(\w+)", str(e.get("source"))).group(1)
        return "flite_" + str(v).replace("flite_", "")
    m = re.search(r"Actor_(\d+)", str(e.get("source")))
    return f"ravdess_{int(m.group(1)):02d}" if m else e.get("speaker")


def utterances(max_per: int) -> list[tuple[str, str, np.ndarray]]:
    """(speaker, origin, 16 kHz audio) for the trial lists."""
    out: dict[str, list[tuple[str, np.ndarray]]] = {}
    truths = [SHARED / "dev" / "dev_long_01.truth.json", *sorted((REPO / "benchmarks/bank/audio").glob("*.truth.json"))]
    for t in truths:
        wav, _ = sf.read(t.with_name(t.name.replace(".truth.json", ".flac")), dtype="float32")
        for e in json.loads(t.read_text())["events"]:
            spk = voice_of(e) if e.get("kind") in SPEECH else None
            if spk and e["end_s"] - e["start_s"] >= 1.5 and "phone" not in str(e.get("section")):
                out.setdefault(spk, []).append((t.stem, wav[int(e["start_s"] * 16000): int(e["end_s"] * 16000)]))
    for actor in sorted((SHARED / "ser-train").glob("Actor_*")):
        for f in sorted(actor.glob("*.flac"))[::5]:
            out.setdefault(f"ravdess_{actor.name[-2:]}", []).append(("ser-train", sf.read(f, dtype="float32")[0]))
    rng = np.random.default_rng(0)
    picked = []
    for spk, utts in sorted(out.items()):
        if len(utts) < 2:
            continue
        for i in sorted(rng.permutation(len(utts))[:max_per]):
            picked.append((spk, utts[i][0], utts[i][1]))
    return picked


def eer(scores: np.ndarray, target: np.ndarray) -> float:
    order = np.argsort(-scores)
    t = target[order]
    fr = 1 - np.cumsum(t) / t.sum()  # targets below the threshold
    fa = np.cumsum(~t) / (~t).sum()  # non-targets above it
    i = int(np.argmin(np.abs(fr - fa)))
    return float((fr[i] + fa[i]) / 2)


def trial_eer(a: np.ndarray, b: np.ndarray, spk: list[str]) -> float:
    """EER over every pair (i < j); ``a`` embeds side i, ``b`` side j (may differ, e.g. band-limited)."""
    s = a @ b.T
    iu = np.triu_indices(len(spk), 1)
    same = np.array(spk)[:, None] == np.array(spk)[None, :]
    return eer(s[iu], same[iu])


def rec_trial_eer(a: np.ndarray, b: np.ndarray, spk: list[str], origin: list[str], means: dict) -> float:
    """EER over every ordered pair i != j, cue ``a[i]`` against turn ``b[j]``, as the app scores them:
    both normalised with the mean voice of j's recording."""
    s = np.zeros((len(spk), len(spk)), np.float32)
    for o in set(origin):
        cols = [j for j, x in enumerate(origin) if x == o]
        w, c = b[cols] - means[o], a - means[o]  # per-recording normalisation with j's recording mean
        w /= np.linalg.norm(w, axis=1, keepdims=True)
        s[:, cols] = (c / np.linalg.norm(c, axis=1, keepdims=True)) @ w.T
    off = ~np.eye(len(spk), dtype=bool)
    same = np.array(spk)[:, None] == np.array(spk)[None, :]
    return eer(s[off], same[off])


def recording_means(origin: list[str], full: np.ndarray, library: str | None) -> dict:
    """Mean speaker window per recording of ``library``, else the origin's utterances' mean."""
    means = {o: full[[x == o for x in origin]].mean(0) for o in set(origin)}
    if library:
        from harp_desktop.api import Library

        with Library(library) as lib:
            for r in lib.db.db.query("SELECT id, path FROM recordings"):
                got = lib.array(r["id"], "speaker_windows")
                key = Path(r["path"]).stem + ".truth"  # utterances() names origins by their truth file
                if key in means and got is not None and len(got[0]):
                    means[key] = np.asarray(got[0], np.float32).mean(0)
    return means


def run(max_per: int, library: str | None = None, encoder: str = "ge2e") -> list[list]:
    from harp_desktop import weights
    from harp_desktop.index.campplus import CamPlusEncoder
    from harp_desktop.index.speakers import PHONE_BAND_HZ, SpeakerEncoder, band_limit

    enc = SpeakerEncoder(weights.model_file("speaker", "pretrained.pt")) if encoder == "ge2e" else \
        CamPlusEncoder(weights.model_file("speaker-campplus", "campplus_cn_en_common.pt"))
    utts = utterances(max_per)
    spk = [u[0] for u in utts]

    def emb(xs: list[np.ndarray]) -> np.ndarray:
        return np.stack([enc.embed(x) for x in xs])

    def norm(m: np.ndarray, mean: np.ndarray) -> np.ndarray:
        m = m - mean
        return m / np.linalg.norm(m, axis=1, keepdims=True)

    full = emb([u[2] for u in utts])
    short = emb([u[2][:24000] for u in utts])
    phone = emb([band_limit(u[2]) for u in utts])
    if encoder == "campplus":  # "+band": both sides heard through the telephone band (embed_band, stop 33)
        def band(xs: list[np.ndarray]) -> np.ndarray:
            e = np.concatenate([enc.embed_band([x], PHONE_BAND_HZ) for x in xs])
            return e / np.linalg.norm(e, axis=1, keepdims=True)

        band_eer = trial_eer(band([band_limit(u[2]) for u in utts]), band([u[2] for u in utts]), spk)
    else:
        band_eer = trial_eer(phone, phone, spk)
    origin = [u[1] for u in utts]
    means = recording_means(origin, full, library)
    rows = [["full", len(utts), len(set(spk)), trial_eer(full, full, spk), trial_eer(norm(full, full.mean(0)),
             norm(full, full.mean(0)), spk), "-", rec_trial_eer(full, full, spk, origin, means)],
            ["short 1.5 s", len(utts), len(set(spk)), trial_eer(short, short, spk),
             trial_eer(norm(short, short.mean(0)), norm(short, short.mean(0)), spk), "-",
             rec_trial_eer(short, short, spk, origin, means)],
            ["phone-band cue", len(utts), len(set(spk)), trial_eer(phone, full, spk),
             trial_eer(norm(phone, phone.mean(0)), norm(full, full.mean(0)), spk), band_eer,
             rec_trial_eer(phone, full, spk, origin, means)]]
    if library and encoder == "ge2e":
        rows.append(presence(library, {"full": full, "short 1.5 s": short, "phone-band cue": phone}, utts))
    return rows


RAW_MATCH = 0.745  # settle.VOICE_MATCH (raw GE2E cosine)
# Normalised scores' threshold calibrated on the dev recording's segments (least false-reject +
# false-accept rate over its 7 cue clips, issue 18): found / falsely found there.
REC_MATCH = 0.46


def presence(library: str, embs: dict[str, np.ndarray], utts: list) -> list[list]:
    """Rows of the "is the cue's voice in this recording?" table (module docstring)."""
    from harp_desktop.api import Library

    recs = []
    with Library(library) as lib:
        for r in lib.db.db.query("SELECT id, path FROM recordings"):
            stem = Path(r["path"]).stem
            truth = SHARED / "dev" / f"{stem}.truth.json" if stem.startswith("dev") else \
                REPO / "benchmarks/bank/audio" / f"{stem}.truth.json"
            got = lib.array(r["id"], "speaker_windows")
            if stem == "bank_rec_03" or not truth.exists() or got is None:
                continue
            voices = {voice_of(e) for e in json.loads(truth.read_text())["events"] if e.get("kind") in SPEECH}
            recs.append((stem + ".truth", np.asarray(got[0], np.float32), voices))
    rows = []
    for cond, e in embs.items():
        out = {"raw": ([], []), "rec": ([], [])}
        for (spk, origin, _), v in zip(utts, e, strict=True):
            for key, w, voices in recs:
                if key == origin:
                    continue  # the cue's own recording holds the cue itself
                m = w.mean(0)
                wn, vn = w - m, v - m
                wn /= np.linalg.norm(wn, axis=1, keepdims=True)
                for name, best in (("raw", float((w @ v).max())), ("rec", float((wn @ (vn / np.linalg.norm(vn))).max()))):
                    out[name][0].append(best)
                    out[name][1].append(spk in voices)
        (raw, t), (rec, _) = (np.array(out["raw"][0]), np.array(out["raw"][1])), (np.array(out["rec"][0]), None)
        fa = float((raw[~t] >= RAW_MATCH).mean())
        th = float(np.quantile(rec[~t], 1 - fa))
        rows.append([cond, int(t.sum()), int((~t).sum()), eer(raw, t), eer(rec, t), fa,
                     float((raw[t] >= RAW_MATCH).mean()), float((rec[t] > th).mean()), th,
                     f"{(rec[t] >= REC_MATCH).mean():.2f} / {(rec[~t] >= REC_MATCH).mean():.2f}"])
    return rows


def print_presence(rows: list[list]) -> None:
    print("\n  is the cue's voice in this recording? (best window of the recording; cue from elsewhere)\n")
    head = ["cue", "present", "absent", "EER raw", "EER rec", "false found", "found raw", "found rec", "rec threshold",
            f"rec@{REC_MATCH} found / false"]
    _table(head, rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-per-speaker", type=int, default=8)
    ap.add_argument("--library", help="an indexed library holding the recordings (their mean voices)")
    ap.add_argument("--encoder", choices=("ge2e", "campplus"), default="ge2e",
                    help="campplus: CAM++, its band column both sides through the telephone band (no --library tables)")
    args = ap.parse_args()
    rows = run(args.max_per_speaker, None if args.encoder != "ge2e" else args.library, args.encoder)
    print_rows(rows[:3], args.encoder)
    if len(rows) > 3:
        print_presence(rows[3])


def print_rows(rows: list[list], encoder: str = "ge2e") -> None:
    _table(["condition", "utterances", "speakers", *(f"EER {encoder}{x}" for x in ("", "+norm", "+band", "+rec"))], rows)


def _table(head: list[str], rows: list[list]) -> None:
    cells = [head] + [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in cells) for i in range(len(head))]
    for i, r in enumerate(cells):
        print("  " + "  ".join(c.ljust(w[j]) for j, c in enumerate(r)))
        if i == 0:
            print("  " + "  ".join("-" * x for x in w))

if __name__ == "__main__":
    main()
