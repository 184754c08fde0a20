"""Equal-error rate of the speaker encoders on utterances cut from the development recordings.

    .venv/bin/python benchmarks/diar/voices_eer.py [--max-per-speaker 8]

Like benchmarks/paraling/voices.py, but without bank_rec_03 (held out) and with the
diarisation mixes of this folder (eSpeak NG voices, phone band, television): every single-
speaker speech turn >= 1.5 s of dev_long_01, bank_rec_01/02 and benchmarks/diar/*.flac (a
synthetic voice is one speaker across recordings) plus ser-train clips of RAVDESS actors 01,
02, 05, 06, 24. Conditions: ``full``; ``short`` (first 1.5 s); ``phone`` (one side of each
pair band-limited 300-3400 Hz; for CAM++ also with both sides heard through the telephone band,
``embed_band``); ``same engine`` (only pairs of two eSpeak NG utterances: different variants of one
synthesiser, the voices GE2E merged).
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
    v = str(e.get("voice") or "")
    if v.startswith(("flite:", "espeak:")):
        return v.replace("flite:", "flite_")
    if v.startswith("ravdess:"):
        return f"ravdess_{int(v[8:]):02d}"
    if v or "Flite" in str(e.get("source")):
        return "flite_" + (v or re.search(r"cmu_us_(\w+)", str(e.get("source"))).group(1)).replace("flite_", "")
    m = re.search(r"Actor_(\d+)", str(e.get("source")))
    return f"ravdess_{int(m.group(1)):02d}" if m else e.get("speaker")


def utterances(max_per: int) -> list[tuple[str, np.ndarray]]:
    out: dict[str, list[np.ndarray]] = {}
    truths = [SHARED / "dev" / "dev_long_01.truth.json",
              *(REPO / "benchmarks/bank/audio" / f"bank_rec_0{i}.truth.json" for i in (1, 2)),
              *sorted((REPO / "benchmarks/diar").glob("*.truth.json"))]
    for t in truths:
        wav, _ = sf.read(t.with_name(t.name.replace(".truth.json", ".flac")), dtype="float32")
        for e in json.loads(t.read_text())["events"]:
            spk = voice_of(e) if e.get("kind") in SPEECH else None
            phone = "phone" in str(e.get("section")) or e.get("channel") in ("phone", "tv")
            if spk and e["end_s"] - e["start_s"] >= 1.5 and not phone:
                out.setdefault(spk, []).append(wav[int(e["start_s"] * 16000): int(e["end_s"] * 16000)])
    for actor in sorted((SHARED / "ser-train").glob("Actor_*")):
        for f in sorted(actor.glob("*.flac"))[::5]:
            out.setdefault(f"ravdess_{actor.name[-2:]}", []).append(sf.read(f, dtype="float32")[0])
    rng = np.random.default_rng(0)
    return [(spk, utts[i]) for spk, utts in sorted(out.items()) if len(utts) >= 2
            for i in sorted(rng.permutation(len(utts))[:max_per])]


def eer(scores: np.ndarray, target: np.ndarray) -> float:
    order = np.argsort(-scores)
    t = target[order]
    fr, fa = 1 - np.cumsum(t) / t.sum(), np.cumsum(~t) / (~t).sum()
    i = int(np.argmin(np.abs(fr - fa)))
    return float((fr[i] + fa[i]) / 2)


def trial_eer(a: np.ndarray, b: np.ndarray, spk: list[str], only: np.ndarray | None = None) -> float:
    iu = np.triu_indices(len(spk), 1)
    same = (np.array(spk)[:, None] == np.array(spk)[None, :])[iu]
    keep = np.ones(len(same), bool) if only is None else (only[:, None] & only[None, :])[iu]
    return eer((a @ b.T)[iu][keep], same[keep])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-per-speaker", type=int, default=8)
    args = ap.parse_args()
    from harp_desktop import weights
    from harp_desktop.index.campplus import CamPlusEncoder
    from harp_desktop.index.speakers import PHONE_BAND_HZ, SpeakerEncoder, band_limit

    utts = utterances(args.max_per_speaker)
    spk = [s for s, _ in utts]
    espeak = np.array([s.startswith("espeak") for s in spk])
    print(f"{len(utts)} utterances, {len(set(spk))} speakers ({len(set(np.array(spk)[espeak]))} eSpeak NG voices)")
    print("| encoder | full | short 1.5 s | phone-band cue | same engine (eSpeak NG) |\n| --- | --- | --- | --- | --- |")
    for name, enc in (("GE2E", SpeakerEncoder(weights.model_file("speaker", "pretrained.pt"))),
                      ("CAM++", CamPlusEncoder(weights.model_file("speaker-campplus", "campplus_cn_en_common.pt")))):
        full = np.stack([enc.embed(x) for _, x in utts])
        short = np.stack([enc.embed(x[:24000]) for _, x in utts])
        phone = np.stack([enc.embed(band_limit(x)) for _, x in utts])
        print(f"| {name} | {trial_eer(full, full, spk):.3f} | {trial_eer(short, short, spk):.3f} | "
              f"{trial_eer(phone, full, spk):.3f} | {trial_eer(full, full, spk, espeak):.3f} |", flush=True)
        if hasattr(enc, "embed_band"):
            # stop 33: a phone-band cue against full-band speech, both sides heard through the telephone band
            # (CamPlusEncoder.embed_band, as voice_match.across_channel compares a voice across channels)
            def band(xs: list[np.ndarray], enc=enc) -> np.ndarray:
                e = np.concatenate([enc.embed_band([x], PHONE_BAND_HZ) for x in xs])
                return e / np.linalg.norm(e, axis=1, keepdims=True)

            b_phone, b_full = band([band_limit(x) for _, x in utts]), band([x for _, x in utts])
            print(f"| {name}, both sides through the band | - | - | {trial_eer(b_phone, b_full, spk):.3f} | - |")


if __name__ == "__main__":
    main()
