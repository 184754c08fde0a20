"""Paralinguistics against the truth: sound events, speech emotion, speakers.

    .venv/bin/python benchmarks/paraling_bench.py [--audio dev_long_01.flac] [--truth ...truth.json]
        [--library DIR] [--asr base] [--loao models/emotion/loao.json] [--coughs | --coughs-voices]

1. Events on the dev recording: for each truth kind (cough; throat clearing, laughter,
   crying where the truth has them) precision / recall of detected spans (one-to-one,
   0.25 s tolerance) and count accuracy, for the stored event tags and for what the
   `label` tool returns (bursts split), which is what the agent counts.
2. Emotion: leave-one-actor-out accuracy and confusion matrices (8 classes and the
   4 coarse groups, whose probability is the sum of their classes') from the training
   script's cached out-of-fold predictions; then the dev recording's emotional lines.
3. Speakers on the dev recording: count, segment purity, cluster purity / coverage and a
   DER-style figure (10 ms frames, 0.25 s collar, optimal one-to-one speaker mapping).

Indexing the dev file takes a few minutes; pass --library to reuse an indexed library.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import paraling_emotion  # noqa: E402  (issue 18's emotion sections)
from paraling import sections as paraling_sections  # noqa: E402  (issue 18's coughs and voices)

DEV = REPO.parent / "shared" / "data" / "dev"
EVENT_KINDS = {"cough": ("cough",), "throat_clearing": ("throat_clearing", "throat_clear"),
               "laughter": ("laughter", "laugh"), "crying": ("crying", "cry")}
SPEECH_KINDS = ("speech", "tts_speech", "emotion_speech")
GROUPS = {"neutral/calm": ("neutral", "calm"), "happy/surprised": ("happy", "surprised"),
          "sad/fearful": ("sad", "fearful"), "angry/disgust": ("angry", "disgust")}
TOL, FRAME, COLLAR = 0.25, 0.01, 0.25


def match(truth: list[tuple[float, float]], found: list[tuple[float, float]]) -> int:
    """One-to-one matches between spans that overlap (within TOL), maximising the count."""
    if not truth or not found:
        return 0
    ok = np.array([[f[0] < t[1] + TOL and f[1] > t[0] - TOL for f in found] for t in truth], float)
    rows, cols = linear_sum_assignment(-ok)
    return int(ok[rows, cols].sum())


def table(head: list[str], rows: list[list]) -> None:
    cells = [head] + [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in cells) for i in range(len(head))]
    for i, r in enumerate(cells):
        print("  " + "  ".join(c.ljust(w[j]) for j, c in enumerate(r)))
        if i == 0:
            print("  " + "  ".join("-" * x for x in w))


def events_section(lib, rec: dict, events: list[dict]) -> None:
    from harp_desktop.retrieval.tools import RecordingTools

    tools = RecordingTools(lib, rec)
    tags = lib.db.tags(rec["id"], "event")
    rows = []
    for label, kinds in EVENT_KINDS.items():
        truth = [(e["start_s"], e["end_s"]) for e in events if e.get("kind") in kinds]
        stored = [(t["start_s"], t["end_s"]) for t in tags if t["label"] == label]
        tool = [(e.start_s, e.end_s) for e in tools.label(label, 0.0, rec["duration_s"], "event")]
        for view, found in (("stored tags", stored), ("label tool", tool)):
            if not truth and not found:
                continue
            m = match(truth, found)
            p = m / len(found) if found else float("nan")
            r = m / len(truth) if truth else float("nan")
            count = max(0.0, 1 - abs(len(found) - len(truth)) / len(truth)) if truth else float("nan")
            rows.append([label, view, len(truth), len(found), m, p, r, count])
    print("\n## Sound events (dev recording; one-to-one, 0.25 s tolerance)\n")
    table(["event", "detections", "truth", "found", "matched", "precision", "recall", "count acc"], rows)
    cough = [r for r in rows if r[0] == "cough" and r[1] == "label tool"]
    if cough:
        ok = cough[0][6] >= 0.9 and cough[0][5] >= 0.8
        print(f"\n  target cough recall >= 0.9 with precision >= 0.8 (label tool): {'PASS' if ok else 'FAIL'}")


def confusion(truth: list[str], pred: list[str], names: list[str]) -> np.ndarray:
    cm = np.zeros((len(names), len(names)), int)
    for t, p in zip(truth, pred, strict=True):
        cm[names.index(t), names.index(p)] += 1
    return cm


def print_confusion(cm: np.ndarray, names: list[str]) -> None:
    short = [n[:9] for n in names]
    table(["truth \\ pred", *short, "recall"],
          [[n, *cm[i], cm[i, i] / max(1, cm[i].sum())] for i, n in enumerate(names)])


def coarse(labels: list[str], p: np.ndarray) -> np.ndarray:
    """(n, 4) group probabilities: the sum of each group's fine probabilities."""
    return np.stack([p[:, [labels.index(c) for c in cs if c in labels]].sum(1) for cs in GROUPS.values()], 1)


def group_of(label: str) -> str:
    return next(g for g, cs in GROUPS.items() if label in cs)


def emotion_section(loao: Path) -> None:
    print(f"\n## Speech emotion: leave-one-actor-out ({loao.relative_to(REPO) if loao.is_relative_to(REPO) else loao})\n")
    if not loao.exists():
        print("  no cached out-of-fold predictions; run models/emotion/train_emotion.py first")
        return
    d = json.loads(loao.read_text())
    labels, p = d["labels"], np.array([r["p"] for r in d["rows"]])
    truth, actors = [r["truth"] for r in d["rows"]], np.array([r["actor"] for r in d["rows"]])
    print(f"  {d['description']}\n")
    pred = [labels[i] for i in p.argmax(1)]
    fine = [t if t in labels else group_of(t) for t in truth]
    acc = float(np.mean([a == b for a, b in zip(fine, pred, strict=True)]))
    g = list(GROUPS)
    gp = [g[i] for i in coarse(labels, p).argmax(1)]
    gt = [group_of(t) for t in truth]
    gacc = float(np.mean([a == b for a, b in zip(gt, gp, strict=True)]))
    per = {int(a): float(np.mean([fine[i] == pred[i] for i in np.flatnonzero(actors == a)])) for a in np.unique(actors)}
    table(["label set", "clips", "accuracy", "uniform chance", "target", "result"],
          [[f"{len(labels)} classes", len(truth), acc, 1 / len(labels), ">= 0.5", "PASS" if acc >= 0.5 else "FAIL"],
           ["4 coarse groups", len(truth), gacc, 0.25, ">= 0.7", "PASS" if gacc >= 0.7 else "FAIL"]])
    print("\n  per held-out actor: " + ", ".join(f"{a:02d} {v:.2f}" for a, v in per.items()))
    print(f"\n  {len(labels)}-class confusion (rows = truth):\n")
    print_confusion(confusion(fine, pred, labels), labels)
    print("\n  coarse-group confusion (group probability = sum of its classes'):\n")
    print_confusion(confusion(gt, gp, g), g)


def dev_emotion(lib, rec: dict, events: list[dict]) -> None:
    got = lib.db.get_array(rec["id"], "emotion_probs")
    lines = [e for e in events if e.get("kind") == "emotion_speech" and e.get("emotion")]
    if got is None or not lines:
        return
    probs, meta = got
    labels = meta["labels"]
    segs = {s["id"]: s for s in lib.db.segments(rec["id"])}
    rows, fine_ok, group_ok = [], 0, 0
    for e in lines:
        best = max(((min(s["end_s"], e["end_s"]) - max(s["start_s"], e["start_s"]), i)
                    for i, sid in enumerate(meta["segment_ids"]) if (s := segs.get(sid))), default=(0.0, -1))
        if best[0] <= 0.3 * (e["end_s"] - e["start_s"]):
            rows.append([f"{e['start_s']:.1f}", e["emotion"], "-", "-", "no segment"])
            continue
        p = probs[best[1]]
        lab = labels[int(p.argmax())]
        gp = list(GROUPS)[int(coarse(labels, p[None])[0].argmax())]
        want = e["emotion"] if e["emotion"] in labels else group_of(e["emotion"])
        fine_ok += lab == want
        group_ok += gp == group_of(e["emotion"])
        rows.append([f"{e['start_s']:.1f}", e["emotion"], f"{lab} ({p.max():.2f})", gp,
                     "yes" if lab == want else ("group" if gp == group_of(e["emotion"]) else "no")])
    print("\n## Speech emotion on the dev recording's emotional lines (actors not in training)\n")
    table(["start s", "truth", "top label (p)", "coarse group", "right?"], rows)
    print(f"\n  fine label right on {fine_ok}/{len(lines)}, coarse group on {group_ok}/{len(lines)}")


def speakers_section(lib, rec: dict, events: list[dict], n_truth: int) -> None:
    n = int(np.ceil(rec["duration_s"] / FRAME)) + 1
    spk = sorted({s for e in events if e.get("kind") in SPEECH_KINDS and e.get("speaker")
                  for s in e["speaker"].split("+")})
    ref = np.zeros((len(spk), n), bool)
    scored = np.ones(n, bool)
    for e in events:
        if e.get("kind") in SPEECH_KINDS and e.get("speaker"):
            a, b = int(e["start_s"] / FRAME), int(e["end_s"] / FRAME)
            for s in e["speaker"].split("+"):
                ref[spk.index(s), a:b] = True
            c = int(COLLAR / FRAME)
            scored[max(0, a - c): a + c] = scored[max(0, b - c): b + c] = False
    segs = lib.db.segments(rec["id"])
    hyp_names = sorted({s["speaker_label"] for s in segs if s["speaker_label"]})
    hyp = np.zeros((len(hyp_names), n), bool)
    for s in segs:
        if s["speaker_label"]:
            hyp[hyp_names.index(s["speaker_label"]), int(s["start_s"] / FRAME): int(s["end_s"] / FRAME)] = True
    ref_s, hyp_s = ref[:, scored], hyp[:, scored]
    overlap = hyp_s.astype(np.int32) @ ref_s.T.astype(np.int32)  # (hyp, ref) frames in common
    rows_, cols = linear_sum_assignment(-overlap)
    mapped = np.zeros((len(hyp_names), len(spk)), bool)
    mapped[rows_, cols] = True
    r_any, h_any = ref_s.any(0), hyp_s.any(0)
    total = int(r_any.sum())
    miss = int((r_any & ~h_any).sum())
    fa = int((~r_any & h_any).sum())
    # Confusion: speech frames whose hypothesis speaker maps to none of the true speakers there.
    right = (mapped.astype(np.int32) @ ref_s.astype(np.int32) > 0) & hyp_s
    conf = int((r_any & h_any & ~right.any(0)).sum())
    purities, weights = [], []
    for s in segs:
        a, b = int(s["start_s"] / FRAME), int(s["end_s"] / FRAME)
        per = ref[:, a:b].sum(1)
        if per.sum():
            purities.append(per.max() / per.sum())
            weights.append(per.sum())
    cluster_purity = float(overlap.max(1).sum() / max(1, overlap.sum()))
    coverage = float(overlap.max(0).sum() / max(1, overlap.sum()))
    print("\n## Speakers on the dev recording\n")
    table(["measure", "value", "note"], [
        ["speakers found", len(hyp_names), f"truth {n_truth}: {'PASS (exact)' if len(hyp_names) == n_truth else 'FAIL'}"],
        ["segment purity", float(np.average(purities, weights=weights)) if purities else float("nan"),
         f"duration-weighted, {len(purities)} segments with truth speech"],
        ["segments >= 0.9 pure", float(np.mean(np.array(purities) >= 0.9)) if purities else float("nan"), ""],
        ["cluster purity", cluster_purity, "share of each found speaker's time that is its main true speaker"],
        ["speaker coverage", coverage, "share of each true speaker's time in its main found speaker"],
        ["DER-style error", (miss + fa + conf) / max(1, total), "(miss + false alarm + confusion) / truth speech"],
        ["  missed speech", miss / max(1, total), "truth speech outside every segment"],
        ["  false alarm", fa / max(1, total), "segment time with no truth speech"],
        ["  confusion", conf / max(1, total), "one-to-one speaker mapping (Hungarian), 0.25 s collar"],
    ])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--audio", type=Path, default=DEV / "dev_long_01.flac")
    ap.add_argument("--truth", type=Path, default=DEV / "dev_long_01.truth.json")
    ap.add_argument("--library", help="library folder to index into / reuse (default: a new temporary one)")
    ap.add_argument("--asr", default="base")
    ap.add_argument("--loao", type=Path, default=REPO / "models" / "emotion" / "loao.json")
    ap.add_argument("--emotion-only", action="store_true", help="only the leave-one-actor-out tables (no indexing)")
    ap.add_argument("--coughs", action="store_true",
                    help="only the cough tables: detection on every truth file, false alarms on cough-free speech, "
                         "and whose cough on --library (opened read-only)")
    ap.add_argument("--coughs-voices", action="store_true",
                    help="only the cough tables (every truth file) and voice EER / voice cues (on --library)")
    args = ap.parse_args()
    if args.coughs_voices or args.coughs:
        paraling_sections.coughs_section(args.library)
        if args.coughs_voices:
            paraling_sections.voices_section(args.library)
        return
    emotion_section(args.loao)
    paraling_emotion.dimensions_section(REPO / "models" / "emotion" / "dimensions_loao.json")  # issue 18
    paraling_emotion.cue_section(REPO / "models" / "emotion" / "cue_loao.json")
    if args.emotion_only:
        return
    from harp_desktop.api import IndexOptions, Library

    truth = json.loads(args.truth.read_text())
    events = truth.get("events") or truth.get("items")
    n_truth = len({s for e in events if e.get("kind") in SPEECH_KINDS and e.get("speaker")
                   for s in e["speaker"].split("+")})
    with Library(args.library or tempfile.mkdtemp(prefix="harp-paraling-")) as lib:
        res = lib.index(args.audio, IndexOptions(asr_profile=args.asr))
        rec = lib.recording(res.sha256)
        print(f"\nrecording {args.audio.name} ({rec['duration_s'] / 60:.1f} min), ASR {args.asr}, library {lib.folder}")
        dev_emotion(lib, rec, events)
        paraling_emotion.dev_dimensions(lib, rec, events)  # issue 18: arousal/valence, emotion by example
        paraling_emotion.dev_cue(lib, rec, events, REPO.parent / "shared" / "data" / "ser-train")
        events_section(lib, rec, events)
        speakers_section(lib, rec, events, n_truth)


if __name__ == "__main__":
    main()
