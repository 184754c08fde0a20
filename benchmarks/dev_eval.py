"""Index quality on a recording with a truth file (e.g. ../shared/data/dev):
word error rate on the truth spans that have text, speakers found vs truth with the
diarisation error and turn accuracy (benchmarks/diar_score.py), cough events found vs the
truth's cough spans.

    .venv/bin/python benchmarks/dev_eval.py AUDIO TRUTH.json [--library DIR] [--asr base]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

from rapidfuzz.distance import Levenshtein

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

_NUM = {"0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
        "8": "eight", "9": "nine", "10": "ten"}


def norm(text: str) -> list[str]:
    text = text.lower().replace("%", " percent")
    words = re.sub(r"[^a-z0-9' ]+", " ", text).split()
    return [_NUM.get(w, w) for w in words]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("audio")
    ap.add_argument("truth")
    ap.add_argument("--library")
    ap.add_argument("--asr", default="base")
    ap.add_argument("--chunk-s", type=float, help="IndexOptions.asr_chunk_s (joined audio per ASR chunk) for this run")
    args = ap.parse_args()
    from harp_desktop.api import IndexOptions, Library

    truth = json.loads(Path(args.truth).read_text())
    lib_dir = args.library or tempfile.mkdtemp(prefix="harp-eval-")
    with Library(lib_dir) as lib:
        opts = IndexOptions(asr_profile=args.asr)
        if args.chunk_s:
            opts.asr_chunk_s = args.chunk_s
        res = lib.index(args.audio, opts)
        rid = res.recording_id
        words = list(lib.db.db.query("SELECT start_s, end_s, text FROM words WHERE recording_id = ?", [rid]))
        data = lib.transcript(res.sha256)
    events = truth.get("events") or truth.get("items")
    spans = [e for e in events if e.get("text") and e.get("kind") in ("speech", "tts_speech", "emotion_speech")]
    # Utterance-level annotations inside a clip would double count: keep the finest level.
    spans = [e for e in spans if not any(o is not e and o.get("text") and o["start_s"] >= e["start_s"]
                                         and o["end_s"] <= e["end_s"] and o.get("level") != e.get("level")
                                         for o in spans)]
    errors = ref_words = 0
    for e in spans:
        hyp = " ".join(w["text"] for w in words if e["start_s"] - 0.3 <= (w["start_s"] + w["end_s"]) / 2 <= e["end_s"] + 0.3)
        ref, h = norm(e["text"]), norm(hyp)
        errors += Levenshtein.distance(ref, h)
        ref_words += len(ref)
    truth_speakers = {s for e in events if e.get("speaker") and e.get("kind", "").endswith("speech")
                      for s in e["speaker"].split("+")}
    coughs = [e for e in events if e.get("kind") == "cough"]
    found = [e for e in data["events"] if e["label"] == "cough"]
    hit = [c for c in coughs if any(f["start_s"] < c["end_s"] + 0.25 and f["end_s"] > c["start_s"] - 0.25
                                    for f in found)]
    false = [f for f in found if not any(f["start_s"] < c["end_s"] + 0.25 and f["end_s"] > c["start_s"] - 0.25
                                         for c in coughs)]
    print(f"recording            {Path(args.audio).name} ({res.duration_s / 60:.1f} min), ASR {args.asr}, "
          f"chunks of <= {opts.asr_chunk_s:g} s joined audio; asr stage {res.seconds.get('asr', 0):.1f} s, "
          f"{res.cpu_seconds.get('asr', 0):.1f} CPU-s")
    print(f"WER on text spans    {errors / max(ref_words, 1):.3f}  ({errors} errors / {ref_words} words, {len(spans)} spans)")
    print(f"speakers found       {len(data['speakers'])}  (truth: {len(truth_speakers)})")
    from diar_score import score

    d = score(events, [(s["start_s"], s["end_s"], s.get("speaker_label") or s.get("speaker")) for s in data["segments"]],
              res.duration_s)
    print(f"diarisation          DER-style {d['der']:.3f} (confusion {d['conf']:.3f}), turns right {d['turns_right']:.3f}")
    print(f"cough events         {len(hit)}/{len(coughs)} truth coughs found, {len(false)} cough events elsewhere")
    print(f"segments             {len(data['segments'])}")


if __name__ == "__main__":
    main()
