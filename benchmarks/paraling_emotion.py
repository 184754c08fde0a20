"""Issue 18's emotion figures for benchmarks/paraling_bench.py: arousal/valence and emotion by example.

- ``dimensions_section``: the arousal/valence head's nested leave-one-actor-out predictions
  (models/emotion/dimensions_loao.json) against the truth derived from the RAVDESS codes:
  Pearson / Spearman correlation, and accuracy of "which of two is higher" for pairs of one actor
  and pairs of two actors (truths at least 0.1 apart).
- ``cue_section``: models/emotion/cue_loao.json (models/emotion/eval_cue.py): for an example clip
  of one unseen actor, the same emotion among another unseen actor's clips at rank 1 / in the top 4.
- ``dev_dimensions``: the stored arousal/valence of the dev recording's emotional lines (truth from
  their RAVDESS code and intensity), then with the plain speech added as neutral.
- ``dev_cue``: ser-train clips as examples ("when does someone sound like this?"), every classified
  dev segment ranked by similarity: is the top one a line of the example's emotion?
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import scipy.stats

from harp_desktop.index.emotion_dims import AXES, derived_truth

MIN_DIFF = 0.1  # as models/emotion/train_dimensions.py
CUE_EMOTIONS = ("angry", "happy", "sad", "fearful", "surprised")  # the emotions the dev lines have, plain left out


def _table(head: list[str], rows: list[list]) -> None:
    cells = [head] + [[f"{c:.3f}" if isinstance(c, float) else str(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in cells) for i in range(len(head))]
    for i, r in enumerate(cells):
        print("  " + "  ".join(c.ljust(w[j]) for j, c in enumerate(r)))
        if i == 0:
            print("  " + "  ".join("-" * x for x in w))


def pairs(pred: np.ndarray, truth: np.ndarray, groups: np.ndarray | None = None, same: bool | None = None
          ) -> tuple[float, int]:
    """Accuracy of "which of two is higher" over pairs whose truths differ by >= MIN_DIFF (optionally only
    pairs within one group, or only across groups)."""
    i, j = np.triu_indices(len(pred), 1)
    keep = np.abs(truth[i] - truth[j]) >= MIN_DIFF
    if groups is not None and same is not None:
        keep &= (groups[i] == groups[j]) == same
    i, j = i[keep], j[keep]
    if not len(i):
        return float("nan"), 0
    return float(np.mean(np.sign(pred[i] - pred[j]) == np.sign(truth[i] - truth[j]))), int(len(i))


def dimensions_section(path: Path) -> None:
    print(f"\n## Arousal and valence: leave-one-actor-out ({path.name})\n")
    if not path.exists():
        print("  no held-out predictions; run models/emotion/train_dimensions.py first")
        return
    d = json.loads(path.read_text())
    print(f"  {d['description']}\n")
    rows = d["rows"]
    actors = np.array([r["actor"] for r in rows])
    out = []
    for k, ax in enumerate(d["axes"]):
        p, t = np.array([r["pred"][k] for r in rows]), np.array([r["truth"][k] for r in rows])
        w, nw = pairs(p, t, actors, True)
        a, na = pairs(p, t, actors, False)
        out.append([ax, len(rows), float(np.corrcoef(p, t)[0, 1]), float(scipy.stats.spearmanr(p, t)[0]),
                    f"{w:.3f} ({nw})", f"{a:.3f} ({na})"])
    _table(["axis", "clips", "Pearson r", "Spearman", "higher of two, same actor (pairs)",
            "higher of two, two actors (pairs)"], out)


def cue_section(path: Path) -> None:
    print(f"\n## Emotion by example: leave-two-actors-out ({path.name})\n")
    if not path.exists():
        print("  no figures; run models/emotion/eval_cue.py first")
        return
    d = json.loads(path.read_text())
    print(f"  {d['description']}\n")
    _table(["similarity", "same emotion at 1", "in top 4", "mean AP", "same group at 1"],
           [[n, *v] for n, v in d["methods"].items()])


def _line_of(seg: dict, lines: list[dict]) -> dict | None:
    """The emotional truth line a segment covers most of (at least 30% of the line), if any."""
    best = max(((min(seg["end_s"], e["end_s"]) - max(seg["start_s"], e["start_s"]), k) for k, e in enumerate(lines)),
               default=(0.0, -1))
    return lines[best[1]] if best[1] >= 0 and best[0] > 0.3 * (lines[best[1]]["end_s"] - lines[best[1]]["start_s"]) else None


def dev_dimensions(lib, rec: dict, events: list[dict]) -> None:
    # What `show --json` gives: the stored rows, or the same computed from the probabilities (older library).
    rows = {s["id"]: s["emotion"] for s in lib.transcript(rec["sha256"])["segments"] if s["emotion"]}
    lines = [e for e in events if e.get("kind") == "emotion_speech" and e.get("emotion")]
    print("\n## Arousal and valence on the dev recording (stored per segment)\n")
    if not rows or not any(r["arousal"] is not None for r in rows.values()):
        print("  no stored arousal/valence: re-run the emotion stage with the dimension head")
        return
    segs = {s["id"]: s for s in lib.db.segments(rec["id"])}
    speech = [e for e in events if e.get("kind") in ("speech", "tts_speech")]
    emo, plain = [], []
    for sid, r in rows.items():
        s = segs.get(sid)
        if s is None or r["arousal"] is None:
            continue
        line = _line_of(s, lines)
        if line is not None:
            emo.append((line, r, s))
        elif any(min(s["end_s"], e["end_s"]) - max(s["start_s"], e["start_s"]) > 0.5 * (s["end_s"] - s["start_s"])
                 for e in speech):
            plain.append(({"emotion": "neutral", "intensity": "normal", "start_s": s["start_s"]}, r, s))
    table = []
    for line, r, _ in sorted(emo, key=lambda x: x[0]["start_s"]):
        t = derived_truth(line["emotion"], line.get("intensity", "strong"))
        table.append([f"{line['start_s']:.1f}", f"{line['emotion']} ({line.get('intensity', '?')})",
                      f"{t[0]:.2f} / {t[1]:.2f}", f"{r['arousal']:.2f} / {r['valence']:.2f}", r["label"]])
    _table(["start s", "truth", "derived arousal / valence", "stored arousal / valence", "label"], table)
    out = []
    for name, items in (("emotional lines", emo), ("emotional lines + plain speech as neutral", emo + plain)):
        for ax in ("arousal", "valence"):
            k = AXES.index(ax)
            t = np.array([derived_truth(x[0]["emotion"], x[0].get("intensity", "strong"))[k] for x in items])
            p = np.array([x[1][ax] for x in items])
            acc, n = pairs(p, t)
            r = float(np.corrcoef(p, t)[0, 1]) if len(items) > 2 and t.std() > 0 else float("nan")
            out.append([name, ax, len(items), r, f"{acc:.3f} ({n})"])
    print()
    _table(["segments", "axis", "n", "Pearson r", "higher of two (pairs)"], out)


def dev_cue(lib, rec: dict, events: list[dict], ser_dir: Path) -> None:
    """Each example: a strong ser-train clip of one of CUE_EMOTIONS (every actor, statement 1, first
    repetition: 25 clips); every classified segment of the dev recording ranked by similarity to it."""
    import soundfile as sf

    from harp_desktop import weights
    from harp_desktop.index.emotion import EmotionModel
    from harp_desktop.index.emotion_dims import cue_score, cue_similarity

    got = lib.db.get_array(rec["id"], "emotion_probs")
    lines = [e for e in events if e.get("kind") == "emotion_speech" and e.get("emotion")]
    clips = sorted(ser_dir.glob("Actor_*/03-01-0[3-8]-02-01-01-*.flac"))
    if got is None or not lines or not clips:
        return
    probs, meta = got
    labels = meta["labels"]
    segs = {s["id"]: s for s in lib.db.segments(rec["id"])}
    truth = [(_line_of(segs[sid], lines) or {}).get("emotion") for sid in meta["segment_ids"]]
    model = EmotionModel(weights.model_file("emotion", "emotion_head.npz"), tagger=lib.models.yamnet())
    emotions = {"03": "happy", "04": "sad", "05": "angry", "06": "fearful", "08": "surprised"}
    scores: dict[str, list] = {"p(example's top label) (before)": [], "class probabilities, Bhattacharyya": [],
                               "cue_score (shipped)": []}
    for f in clips:
        emo = emotions.get(f.stem.split("-")[2])
        if emo not in CUE_EMOTIONS:
            continue
        x, _ = sf.read(f, dtype="float32")
        p = model.predict(x)
        q = np.array([p[lab] for lab in labels])
        hit = np.array([t == emo for t in truth])
        for name, sim in (("p(example's top label) (before)", probs[:, int(q.argmax())]),
                          ("class probabilities, Bhattacharyya", cue_similarity(q, probs)),
                          ("cue_score (shipped)", cue_score(q, probs))):
            order = np.argsort(-sim, kind="stable")
            first = int(np.flatnonzero(hit[order])[0]) + 1 if hit.any() else 0
            scores[name].append((float(hit[order[0]]), float(hit[order[:3]].any()), 1.0 / first if first else 0.0))
    print(f"\n## Emotion by example on the dev recording ({len(scores['class probabilities, Bhattacharyya'])} "
          f"ser-train examples of {', '.join(CUE_EMOTIONS)}; all {len(truth)} classified segments ranked)\n")
    _table(["similarity", "top segment is a line of that emotion", "one in the top 3", "mean reciprocal rank"],
           [[n, *[float(v) for v in np.mean(r, 0)]] for n, r in scores.items() if r])
