"""Candidate emotion heads on an indexed dev recording: only the emotion stage re-run per head, on a copy.

    .venv/bin/python benchmarks/emotion_head_dev.py LIBRARY HEAD.npz [HEAD.npz ...] [--truth T.json]

For each head: the emotional lines' top label and coarse group (paraling_bench.dev_emotion's rule), emotional
false alarms (tags, windows included, whose label is not neutral/calm, at score >= 0.5 / 0.6 / 0.7, outside every
emotional line), and the stage's wall and CPU seconds. The library is copied, never changed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DEV = Path("/work/shared/data/dev")


def run_head(library: Path, head: Path, events: list[dict]) -> dict:
    from paraling_bench import GROUPS, coarse, group_of

    from harp_desktop import weights
    from harp_desktop.api import IndexOptions, Library

    real = weights.model_file
    weights.model_file = lambda key, name: head if (key, name) == ("emotion", "emotion_head.npz") else real(key, name)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            lib_dir = Path(tmp) / "lib"
            shutil.copytree(library, lib_dir, ignore=shutil.ignore_patterns("locks"))
            with Library(lib_dir) as lib:
                rec = lib.db.recordings()[0]
                lib.db.db.execute("DELETE FROM stages WHERE recording_id = ? AND stage = 'emotion'", [rec["id"]])
                t0, c0 = time.perf_counter(), time.process_time()
                lib.index(rec["path"], IndexOptions())
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                probs, meta = lib.db.get_array(rec["id"], "emotion_probs")
                tags = lib.db.tags(rec["id"], "emotion")
                segs = {s["id"]: s for s in lib.db.segments(rec["id"])}
    finally:
        weights.model_file = real
    labels = meta["labels"]
    lines = [e for e in events if e.get("kind") == "emotion_speech" and e.get("emotion")]
    fine = group = 0
    rows = []
    for e in lines:
        best = max(((min(s["end_s"], e["end_s"]) - max(s["start_s"], e["start_s"]), i)
                    for i, sid in enumerate(meta["segment_ids"]) if (s := segs.get(sid))), default=(0.0, -1))
        if best[0] <= 0.3 * (e["end_s"] - e["start_s"]):
            rows.append((e["start_s"], e["emotion"], "-", "-"))
            continue
        p = probs[best[1]]
        lab, gp = labels[int(p.argmax())], list(GROUPS)[int(coarse(labels, p[None])[0].argmax())]
        fine += lab == (e["emotion"] if e["emotion"] in labels else group_of(e["emotion"]))
        group += gp == group_of(e["emotion"])
        rows.append((e["start_s"], e["emotion"], f"{lab} {p.max():.2f}", gp))
    emo = [(e["start_s"], e["end_s"]) for e in lines]
    plain = ("neutral", "calm")
    off = [t for t in tags if t["label"] not in plain
           and not any(min(b, t["end_s"]) - max(a, t["start_s"]) > 0 for a, b in emo)]
    fa = [sum(t["score"] >= thr for t in off) for thr in (0.5, 0.6, 0.7)]
    return {"head": str(head), "lines_fine": f"{fine}/{len(lines)}", "lines_group": f"{group}/{len(lines)}",
            "false_alarms_0.5/0.6/0.7": fa, "false_alarm_labels": sorted(t["label"] for t in off if t["score"] >= 0.5),
            "stage_wall_s": round(wall, 2), "stage_cpu_s": round(cpu, 2), "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library", type=Path)
    ap.add_argument("heads", type=Path, nargs="+")
    ap.add_argument("--truth", type=Path, default=DEV / "dev_long_01.truth.json")
    args = ap.parse_args()
    truth = json.loads(args.truth.read_text())
    events = truth.get("events") or truth.get("items")
    for head in args.heads:
        print(json.dumps(run_head(args.library, head.resolve(), events)), flush=True)


if __name__ == "__main__":
    main()
