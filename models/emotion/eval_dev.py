"""Score the emotion stage of an indexed recording against its truth file.

    harp index /work/shared/data/dev/dev_long_01.flac --library /tmp/emolib
    .venv/bin/python models/emotion/eval_dev.py /tmp/emolib /work/shared/data/dev/dev_long_01.truth.json

For every truth span of kind "emotion_speech": the emotion tags overlapping it, the
label of the segment that covers most of it, and whether that label is right. Then the
non-neutral tags on speech that is not emotional (false alarms), per section, and the
stage's time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from harp_desktop.api import Library  # noqa: E402


def overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("library", type=Path)
    ap.add_argument("truth", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    truth = json.loads(args.truth.read_text(encoding="utf-8"))
    lib = Library(args.library)
    rec = next(r for r in lib.db.recordings() if Path(r["path"]).name == truth["recording"]
               or Path(r["path"]).stem == Path(truth["recording"]).stem)
    rid = rec["id"]
    tags = lib.db.tags(rid, "emotion")
    segs = {s["id"]: s for s in lib.db.segments(rid)}
    probs, meta = lib.db.get_array(rid, "emotion_probs")
    labels, seg_ids = meta["labels"], meta["segment_ids"]
    emo = [e for e in truth["events"] if e["kind"] == "emotion_speech"]
    rows, right = [], 0
    for e in emo:
        a, b = e["start_s"], e["end_s"]
        over = [t for t in tags if overlap(a, b, t["start_s"], t["end_s"]) > 0]
        cover = [(overlap(a, b, segs[i]["start_s"], segs[i]["end_s"]), j) for j, i in enumerate(seg_ids)]
        cov, j = max(cover) if cover else (0.0, -1)
        seg_label = labels[int(probs[j].argmax())] if cov > 0 else None
        p_true = float(probs[j][labels.index(e["emotion"])]) if cov > 0 and e["emotion"] in labels else None
        rank = int((probs[j] > probs[j][labels.index(e["emotion"])]).sum()) + 1 if p_true is not None else None
        ok = seg_label == e["emotion"]
        right += ok
        rows.append({"span": [round(a, 2), round(b, 2)], "truth": e["emotion"], "segment": [
            round(segs[seg_ids[j]]["start_s"], 2), round(segs[seg_ids[j]]["end_s"], 2)] if cov > 0 else None,
            "segment_label": seg_label, "correct": ok, "p_truth": p_true, "truth_rank": rank,
            "tags": [(t["label"], round(t["score"], 3), round(t["start_s"], 2), round(t["end_s"], 2)) for t in over]})
    emo_spans = [(e["start_s"], e["end_s"]) for e in emo]
    fa = {}
    for sec in truth["sections"]:
        s0, s1 = sec["start_s"], sec["end_s"]
        inside = [t for t in tags if overlap(s0, s1, t["start_s"], t["end_s"]) > 0.5 * (t["end_s"] - t["start_s"])]
        nonemo = [t for t in inside if not any(overlap(a, b, t["start_s"], t["end_s"]) > 0 for a, b in emo_spans)]
        fa[sec["name"]] = {"tags": len(nonemo), "non_neutral": sum(t["label"] != "neutral" for t in nonemo),
                           "labels": dict(sorted(
                               {lab: sum(t["label"] == lab for t in nonemo) for lab in labels}.items()))}
    stage = next((s for s in lib.db.stages(rid) if s["stage"] == "emotion"), None)
    out = {"emotion_spans": rows, "top_label_accuracy": f"{right}/{len(emo)}", "non_emotional_speech": fa,
           "stage_seconds": stage["seconds"] if stage else None, "duration_s": rec["duration_s"],
           "rtf": round(stage["seconds"] / rec["duration_s"], 5) if stage else None,
           "mean_p_truth": float(np.mean([r["p_truth"] for r in rows if r["p_truth"] is not None]))}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    for r in rows:
        print(f"{r['span'][0]:7.2f}-{r['span'][1]:7.2f} truth {r['truth']:9s} -> {r['segment_label'] or '-':9s} "
              f"{'OK ' if r['correct'] else 'no '} p(truth) {r['p_truth'] or 0:.2f} rank {r['truth_rank']} "
              f"seg {r['segment']} tags {r['tags']}")
    print(f"top label right: {out['top_label_accuracy']}; mean p(truth) {out['mean_p_truth']:.3f}")
    for name, v in fa.items():
        print(f"{name}: {v['tags']} tags on non-emotional speech, {v['non_neutral']} non-neutral {v['labels']}")
    print(f"stage {out['stage_seconds']} s for {out['duration_s']} s: RTF {out['rtf']}")
    lib.close()


if __name__ == "__main__":
    main()
