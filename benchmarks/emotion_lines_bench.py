"""Speech-emotion tags of the recordings' emotional lines, as the index stores them (issue 18).

    .venv/bin/python benchmarks/emotion_lines_bench.py --library DIR [--no-diagnose] [--json OUT]

Every line of the dev recording's and the bank recordings' truth files that carries an emotion
(RAVDESS clips; TTS lines have emotion null and are left out) is scored against the stored
emotion of the segment that covers most of it (at least 30% of the line, paraling_bench's rule):
the 8-class top label, and the coarse group whose summed probability is highest
(``paraling_bench.GROUPS``). Prints per-recording counts, both confusion matrices and each miss
with what may explain it:

- ``span``: the segment reaches beyond the line by this many seconds (other speech merged in);
- ``spk``: how many classified segments the line's diarized speaker has (<= 2: the per-speaker
  statistics are mostly the population prior and the line itself);
- ``line``: the head on the line's own span, with the recording's ASR states and the stage's speaker
  statistics (what the stage would say if the segment were exactly the line);
- ``alone``: the head on the line's audio heard alone (``EmotionModel.predict``, its own 30 s window:
  how training and ``harp ask``'s cue clips hear a clip), no speaker statistics.

``--stage`` re-runs the emotion stage's computation in this process (``emotion.span_features`` and
``emotion.segment_probs`` on the stored segments, YAMNet embeddings and ASR states; nothing is written) instead of
reading the stored rows, so a change to the stage can be measured without re-indexing; ``--head H.npz`` (implies
--stage) with a candidate head instead of the shipped one.

``--training-rows ROWS.npz`` (``models/emotion/compare_speaker_norm.py --rows-out``: the training rows of the
ser-train clips) adds, for every line cut from a ser-train clip, the head on that clip's training row and on the
line's row with one block (YAMNet, Whisper states, speech features) taken from the training row, all z-scored by
the actor's own training statistics: which block the recording changed.

The library is only read (copy it first if unsure; e.g. ``cp -a /work/lib12 /work/lib-emo``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from paraling_bench import GROUPS, confusion, group_of, print_confusion, table  # noqa: E402

TRUTHS = [REPO.parent / "shared" / "data" / "dev" / "dev_long_01.truth.json",
          *sorted((REPO / "benchmarks" / "bank" / "audio").glob("bank_rec_0*.truth.json"))]
COVER = 0.3  # a segment covers a line when it overlaps at least this share of it (paraling_bench.dev_emotion)
PLAIN = ("neutral", "calm")  # labels that do not mark speech as emotional (emotion.NON_EMOTIONAL)
MERGED_S = 0.75  # a segment reaching this far beyond its line holds other speech or pauses


@dataclass
class Line:
    rec: str
    start_s: float
    end_s: float
    emotion: str
    speaker: str
    seg: dict | None = None  # the covering segment (start_s, end_s, speaker, id)
    label: str = "-"
    group: str = "-"
    score: float = 0.0
    extra_s: float = 0.0
    spk_n: int = 0
    diag: dict = field(default_factory=dict)

    @property
    def fine_truth(self) -> str:
        return self.emotion

    @property
    def group_truth(self) -> str:
        return group_of(self.emotion)


def emotional_lines(truth: dict) -> list[dict]:
    events = truth.get("events") or truth.get("items") or []
    return [e for e in events if e.get("emotion")]


def group_label(labels: list[str], p: np.ndarray) -> str:
    names = list(GROUPS)
    return names[int(np.argmax([sum(p[labels.index(c)] for c in cs if c in labels) for cs in GROUPS.values()]))]


def covering(segs: list[dict], a: float, b: float) -> dict | None:
    best = max(((min(s["end_s"], b) - max(s["start_s"], a), k) for k, s in enumerate(segs)), default=(0.0, -1))
    return segs[best[1]] if best[1] >= 0 and best[0] > COVER * (b - a) else None


class StageView:
    """The emotion stage's inputs and intermediate rows for one indexed recording (read-only)."""

    def __init__(self, lib, rec: dict, model) -> None:
        from types import SimpleNamespace

        from harp_desktop.audio.decode import open_cache
        from harp_desktop.index import emotion
        from harp_desktop.index.context import IndexOptions
        from harp_desktop.index.emotion_states import asr_states

        self.lib, self.rec, self.model = lib, rec, model
        self.audio = open_cache(lib.folder / "audio" / f"{rec['sha256']}.f32")
        self.embs, _ = lib.db.get_array(rec["id"], "event_embeddings")
        self.times, _ = lib.db.get_array(rec["id"], "event_times")
        ctx = SimpleNamespace(db=lib.db, rid=rec["id"], audio=self.audio, options=IndexOptions(), models=lib.models,
                              check=lambda: None)
        self.states = asr_states(ctx)
        rows = lib.db.db.query("SELECT id, start_s, end_s, speaker_id FROM segments WHERE recording_id = ? ORDER BY idx",
                               [rec["id"]])
        self.segs = [dict(s) for s in rows if s["end_s"] - s["start_s"] >= emotion.MIN_SEGMENT_S]
        self._rows: dict[int, np.ndarray] = {}

    def span_rows(self, a: float, b: float, wins: list[tuple[float, float]] | None = None) -> np.ndarray:
        from harp_desktop.index.emotion import SR, span_features

        seg = np.asarray(self.audio[int(a * SR): int(b * SR)], np.float32)
        return span_features(seg, int(a * SR) / SR, wins or [(a, b)], self.times, self.embs, self.states)

    def whole(self, seg: dict) -> np.ndarray:
        if seg["id"] not in self._rows:
            self._rows[seg["id"]] = self.span_rows(seg["start_s"], seg["end_s"])[0]
        return self._rows[seg["id"]]

    def speaker_ref(self, speaker_id) -> np.ndarray:
        return np.array([self.whole(s) for s in self.segs if s["speaker_id"] == speaker_id])

    def proba(self, feats: np.ndarray, ref: np.ndarray) -> np.ndarray:
        return self.model.proba(self.model.speaker_normalise(feats, ref))[0]


def load_recordings(lib) -> list[tuple[Path, dict, dict]]:
    out = []
    for t in TRUTHS:
        truth = json.loads(t.read_text())
        name = t.name.replace(".truth.json", ".flac")
        rec = next((r for r in lib.db.recordings() if Path(r["path"]).name == name), None)
        if rec is None:
            print(f"  {name}: not in the library, skipped")
            continue
        out.append((t, truth, rec))
    return out


def measure(library: Path, diagnose: bool = True, stage: bool = False, head: Path | None = None,
            training_rows: Path | None = None) -> tuple[list[Line], dict[str, tuple[int, int]]]:
    """The emotional lines with their tags; per recording, (segments overlapping no emotional line, of those
    tagged with an emotion other than neutral/calm: false alarms)."""
    from harp_desktop import weights
    from harp_desktop.api import Library
    from harp_desktop.index.emotion import EmotionModel

    lines: list[Line] = []
    alarms: dict[str, tuple[int, int]] = {}
    with Library(library) as lib:
        model = EmotionModel(head or weights.model_file("emotion", "emotion_head.npz"), tagger=lib.models.yamnet()) \
            if (diagnose or stage) else None
        for _, truth, rec in load_recordings(lib):
            name = Path(rec["path"]).stem
            tr = lib.transcript(rec["sha256"])
            by_id = {s["id"]: s for s in tr["segments"]}
            got = lib.db.get_array(rec["id"], "emotion_probs")
            probs = dict(zip(got[1]["segment_ids"], got[0], strict=True)) if got else {}
            labels = got[1]["labels"] if got else []
            view = StageView(lib, rec, model) if (diagnose or stage) else None
            if stage:
                labels, probs = model.labels, stage_probs(view)
            classified = [s for s in tr["segments"] if s["id"] in probs]
            spk_count: dict = {}
            for s in classified:
                spk_count[s["speaker"]] = spk_count.get(s["speaker"], 0) + 1
            emo = emotional_lines(truth)
            plain = [s for s in classified if not any(min(s["end_s"], e["end_s"]) > max(s["start_s"], e["start_s"])
                                                      for e in emo)]
            alarms[name] = (len(plain), sum(labels[int(np.argmax(probs[s["id"]]))] not in PLAIN for s in plain))
            for e in emo:
                ln = Line(name, e["start_s"], e["end_s"], e["emotion"], e.get("speaker") or "")
                seg = covering(classified, ln.start_s, ln.end_s)
                lines.append(ln)
                if seg is None:
                    continue
                p = probs[seg["id"]]
                ln.seg = {k: by_id[seg["id"]][k] for k in ("id", "start_s", "end_s", "speaker")}
                k = int(np.argmax(p))
                ln.label, ln.score, ln.group = labels[k], float(p[k]), group_label(labels, p)
                ln.extra_s = (seg["end_s"] - seg["start_s"]) - (min(seg["end_s"], ln.end_s) - max(seg["start_s"], ln.start_s))
                ln.spk_n = spk_count[seg["speaker"]]
                if diagnose:
                    sid = next(s["speaker_id"] for s in view.segs if s["id"] == seg["id"])
                    ref = view.speaker_ref(sid)
                    own = view.span_rows(ln.start_s, ln.end_s)
                    for key, q in (("line", view.proba(own, ref)),
                                   ("line, prior only", view.proba(own, own)),
                                   ("segment, prior only", view.proba(view.whole(seg)[None], view.whole(seg)[None]))):
                        ln.diag[key] = model.labels[int(np.argmax(q))]
                        ln.diag[key + " group"] = group_label(model.labels, q)
                    from harp_desktop.index.emotion import SR
                    clip = np.asarray(view.audio[int(ln.start_s * SR): int(ln.end_s * SR)], np.float32)
                    alone = model.predict(clip)
                    q = np.array([alone[lab] for lab in model.labels])
                    ln.diag["alone"] = model.labels[int(np.argmax(q))]
                    ln.diag["alone group"] = group_label(model.labels, q)
                    if training_rows is not None:
                        swap_blocks(ln, e, own[0], model, training_rows)
    return lines, alarms


SWAPS = ("training row", "line, actor stats", "line + training YAMNet", "line + training Whisper",
         "line + training speech features")


def swap_blocks(ln: Line, e: dict, row: np.ndarray, model, path: Path) -> None:
    """ln.diag[SWAPS]: the head on the line's ser-train clip's training row, on the line's own row, and on the line's
    row with one block from the training row; all z-scored by the actor's training statistics."""
    with np.load(path) as z:
        names, X, actor, start = list(z["names"]), z["X"], z["actor"], int(z["start"])
    name = Path(e.get("source") or "").name
    if name not in names:
        return
    i = names.index(name)
    ref = X[actor == actor[i]]
    blocks = [slice(0, 2048), slice(2048, start), slice(start, None)]
    rows = [X[i], row]
    for b in blocks:
        r = row.copy()
        r[b] = X[i][b]
        rows.append(r)
    p = model.proba(model.speaker_normalise(np.array(rows), ref))
    for key, q in zip(SWAPS, p, strict=True):
        ln.diag[key] = model.labels[int(np.argmax(q))]
        ln.diag[key + " group"] = group_label(model.labels, q)


def stage_probs(view: StageView) -> dict[int, np.ndarray]:
    """The whole-segment probabilities the emotion stage computes (harp_desktop.index.emotion.segment_probs)."""
    from harp_desktop.index.emotion import segment_probs

    feats = [view.whole(s)[None] for s in view.segs]
    probs = segment_probs(view.model, [s["speaker_id"] for s in view.segs], feats)
    return {s["id"]: p[0] for s, p in zip(view.segs, probs, strict=True)}


def report(lines: list[Line], alarms: dict[str, tuple[int, int]], diagnose: bool) -> dict:
    scored = [ln for ln in lines if ln.seg is not None]
    print(f"\n## Emotional lines of {len({ln.rec for ln in lines} | set(alarms))} recordings: {len(lines)} lines, "
          f"{len(scored)} covered by a classified segment\n")
    per: dict[str, list] = {}
    for ln in lines:
        r = per.setdefault(ln.rec, [0, 0, 0, 0])
        r[0] += 1
        r[1] += ln.seg is not None
        r[2] += ln.label == ln.fine_truth
        r[3] += ln.group == ln.group_truth
    for k, v in per.items():
        v += alarms.get(k, (0, 0))
    for k in alarms:
        per.setdefault(k, [0, 0, 0, 0, *alarms[k]])
    table(["recording", "lines", "covered", "8-class right", "coarse right", "other segments", "emotional tags there"],
          [[k, *v] for k, v in per.items()] + [["all", *[sum(v[i] for v in per.values()) for i in range(6)]]])
    n = len(lines)
    fine = sum(ln.label == ln.fine_truth for ln in lines)
    grp = sum(ln.group == ln.group_truth for ln in lines)
    fa = sum(v[1] for v in alarms.values())
    print(f"\n  8-class {fine}/{n} = {fine / max(1, n):.3f}; coarse groups {grp}/{n} = {grp / max(1, n):.3f} "
          "(an uncovered line counts as wrong)")
    print(f"  false alarms: {fa} of {sum(v[0] for v in alarms.values())} segments overlapping no emotional line are "
          "tagged with an emotion (not neutral/calm)")
    labels = ["neutral", "calm", "happy", "sad", "angry", "fearful", "disgust", "surprised"]
    print("\n  8-class confusion (rows = truth, covered lines):\n")
    print_confusion(confusion([ln.fine_truth for ln in scored], [ln.label for ln in scored], labels), labels)
    print("\n  coarse-group confusion:\n")
    print_confusion(confusion([ln.group_truth for ln in scored], [ln.group for ln in scored], list(GROUPS)), list(GROUPS))
    misses = [ln for ln in lines if ln.label != ln.fine_truth]
    print(f"\n  misses ({len(misses)}; span = seconds the segment reaches beyond the line, spk = the speaker's "
          "classified segments)\n")
    head = ["recording", "line s", "truth", "tag (p)", "group ok", "span +s", "spk"]
    views = ["line", "line, prior only", "segment, prior only", "alone"] if diagnose else []
    rows = []
    for ln in misses:
        r = [ln.rec, f"{ln.start_s:.1f}-{ln.end_s:.1f}", ln.emotion, f"{ln.label} ({ln.score:.2f})" if ln.seg else "no segment",
             "yes" if ln.group == ln.group_truth else "no", f"{ln.extra_s:.1f}", ln.spk_n]
        for v in views:
            lab = ln.diag.get(v, "-")
            r.append(lab + (" ok" if lab == ln.fine_truth else (" g" if ln.diag.get(v + " group") == ln.group_truth else "")))
        rows.append(r)
    table(head + views, rows)
    if diagnose:
        print("\n  (ok: right label; g: right coarse group only)\n")
        out = []
        for v in views:
            out.append([v, sum(ln.diag.get(v) == ln.fine_truth for ln in scored),
                        sum(ln.diag.get(v + " group") == ln.group_truth for ln in scored), len(scored)])
        out.append(["stored tag", sum(ln.label == ln.fine_truth for ln in scored),
                    sum(ln.group == ln.group_truth for ln in scored), len(scored)])
        table(["the head on", "8-class right", "coarse right", "of covered"], out)
        swapped = [ln for ln in scored if SWAPS[0] in ln.diag]
        if swapped:
            print(f"\n  block swap ({len(swapped)} lines cut from ser-train clips; actor's training statistics):\n")
            table(["the head on", "8-class right", "coarse right"],
                  [[v, sum(_ok(ln, v) for ln in swapped), sum(_ok(ln, v, True) for ln in swapped)] for v in SWAPS])
        classes = {f"merged (span > {MERGED_S:.2f} s)": [ln for ln in scored if ln.extra_s > MERGED_S],
                   "speaker with <= 2 segments": [ln for ln in scored if ln.spk_n <= 2],
                   "tight and speaker > 2 segments": [ln for ln in scored if ln.extra_s <= MERGED_S and ln.spk_n > 2]}
        print("\n  by class (covered lines):\n")
        table(["class", "lines", "stored 8 / coarse", "line 8 / coarse", "alone 8 / coarse"],
              [[k, len(v), *[f"{sum(_ok(ln, w) for ln in v)} / {sum(_ok(ln, w, True) for ln in v)}"
                             for w in ("stored", "line", "alone")]] for k, v in classes.items()])
    return {"lines": n, "fine": fine, "group": grp, "false_alarms": fa}


def _ok(ln: Line, view: str, group: bool = False) -> bool:
    if view == "stored":
        return ln.group == ln.group_truth if group else ln.label == ln.fine_truth
    return ln.diag.get(view + (" group" if group else "")) == (ln.group_truth if group else ln.fine_truth)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--no-diagnose", action="store_true", help="only the stored tags (no features recomputed)")
    ap.add_argument("--stage", action="store_true", help="score the emotion stage's computation of this code, "
                    "run here on the stored inputs, instead of the stored rows")
    ap.add_argument("--head", type=Path, help="a candidate emotion head (npz) scored as --stage")
    ap.add_argument("--training-rows", type=Path, help="compare_speaker_norm.py --rows-out's file: the block swap")
    ap.add_argument("--json", type=Path, help="write the per-line rows here")
    args = ap.parse_args()
    lines, alarms = measure(args.library, not args.no_diagnose, args.stage or args.head is not None, args.head,
                            args.training_rows)
    summary = report(lines, alarms, not args.no_diagnose)
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "lines": [ln.__dict__ for ln in lines]}, indent=1))


if __name__ == "__main__":
    main()
