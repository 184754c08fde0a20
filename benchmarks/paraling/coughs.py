"""Cough detection against truth files: one event per cough, onset error, false alarms.

Used by ``benchmarks/paraling_bench.py --coughs`` and by hand while tuning::

    .venv/bin/python benchmarks/paraling/coughs.py [TRUTH.json ...] [--spans] [--negatives [-v]]

A recording's YAMNet frame scores are cached (``/tmp/harp-cough-cache``, keyed by the
audio's size and mtime) so re-running the post-processing costs seconds. The detection
is exactly the index stage's: ``split_cough_bursts(detect_events(tagger.run(wav)), wav)``.

Scoring: a detection matches a truth cough when their spans overlap (0.25 s tolerance),
one-to-one (Hungarian, maximum count). Recall = matched / truth, precision = matched /
detections, onset error = |detected start - truth start| over matched pairs, and
"recall@0.2" counts only matches whose onset is within 0.2 s. Detections that overlap
a truth span of another kind (speech, laughter, throat clearing...) are listed as
false alarms on that kind. ``--negatives``: cough events on the cough-free speech recordings
of ``make_cough_training.py`` (emotional acted speech, TTS exclamations and laughter
stand-ins; "_a" is a fitting set, "_b" held out), all of them false alarms.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.optimize import linear_sum_assignment

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
DEV_TRUTH = REPO.parent / "shared" / "data" / "dev" / "dev_long_01.truth.json"
CACHE = Path("/tmp/harp-cough-cache")
TOL, ONSET_OK = 0.25, 0.2
METHOD = "onsets"  # or "spans": the detection before issue 18


def truth_files() -> list[Path]:
    """Every recording with cough truth: dev, the bank recordings, this folder's recordings."""
    found = [DEV_TRUTH] if DEV_TRUTH.exists() else []
    found += sorted((REPO / "benchmarks" / "bank" / "audio").glob("*.truth.json"))
    found += sorted((REPO / "benchmarks" / "paraling").glob("*.truth.json"))
    return found


def audio_of(truth: Path) -> Path:
    return next(p for ext in (".flac", ".wav") if (p := truth.with_name(truth.name.replace(".truth.json", ext))).exists())


def events_of(truth: Path) -> list[dict]:
    d = json.loads(truth.read_text())
    return d.get("events") or d.get("items") or []


def load(path: Path) -> np.ndarray:
    x, sr = sf.read(path, dtype="float32", always_2d=True)
    if sr != 16000:
        raise ValueError(f"{path}: {sr} Hz (16 kHz expected)")
    return x.mean(axis=1)


_TAGGER = None


def tagger():
    global _TAGGER
    if _TAGGER is None:
        from harp_desktop import weights
        from harp_desktop.index.events import YamnetTagger

        _TAGGER = YamnetTagger(weights.model_file("events", "YamNet_w8a8.onnx.zip"),
                               weights.model_file("events", "yamnet_class_map.csv"), CACHE / "model")
    return _TAGGER


def frame_scores(audio: Path, wav: np.ndarray):
    from harp_desktop.index.events import FrameScores

    st = audio.stat()
    key = hashlib.sha1(f"{audio.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:16]
    f = CACHE / f"{key}.npz"
    if f.exists():
        z = np.load(f)
        return FrameScores(z["t"], float(z["hop"]), z["s"], None, float(z["dense"]) or None)
    fs = tagger().run(wav)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(f, t=fs.times_s, hop=fs.hop_s, s=fs.scores, dense=fs.dense_hop_s or 0.0)
    return fs


def detect(audio: Path) -> list:
    """Stored cough events of the index stage, for this audio."""
    from harp_desktop.index import events

    wav = load(audio)
    fs = frame_scores(audio, wav)
    tags = events.detect_events(fs, tagger().class_names)
    if METHOD == "spans":  # before issue 18: YAMNet spans, split on interior bursts
        return [t for t in events.split_cough_bursts(tags, wav) if t.label == "cough"]
    return [t for t in events.with_cough_onsets(tags, wav, tagger()) if t.label == "cough"]


@dataclass
class Score:
    name: str
    truth: int
    found: int
    matched: int
    onset_ok: int
    onset_errors: list[float]
    false_on: dict[str, int]  # detections not matched, by the truth kind they overlap ("none": nothing)
    missed: list[float]  # truth cough starts with no detection

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else float("nan")

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else float("nan")


def pair(truth: list[tuple[float, float]], found: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """(truth index, detection index) one-to-one: spans overlapping within TOL, maximum count,
    and among those the closest onsets."""
    if not truth or not found:
        return []
    ok = np.array([[f[0] < t[1] + TOL and f[1] > t[0] - TOL for f in found] for t in truth], float)
    cost = -ok * 1000 + ok * np.abs(np.subtract.outer([t[0] for t in truth], [f[0] for f in found]))
    rows, cols = linear_sum_assignment(cost)
    return [(r, c) for r, c in zip(rows, cols, strict=True) if ok[r, c]]


def score(name: str, events: list[dict], found: list[tuple[float, float]]) -> Score:
    truth = sorted((e["start_s"], e["end_s"]) for e in events if e.get("kind") == "cough")
    pairs = pair(truth, found)
    errs = [abs(found[c][0] - truth[r][0]) for r, c in pairs]
    used = {c for _, c in pairs}
    false_on: dict[str, int] = {}
    for i, (a, b) in enumerate(found):
        if i in used:
            continue
        kinds = [e.get("kind") for e in events if e.get("kind") != "cough" and e["start_s"] < b and e["end_s"] > a
                 and e.get("kind") != "silence"]
        k = kinds[0] if kinds else "none"
        false_on[k] = false_on.get(k, 0) + 1
    hit = {r for r, _ in pairs}
    return Score(name, len(truth), len(found), len(pairs), sum(e <= ONSET_OK for e in errs), errs, false_on,
                 [round(truth[r][0], 2) for r in range(len(truth)) if r not in hit])


def evaluate(paths: list[Path] | None = None) -> list[Score]:
    out = []
    for truth in paths or truth_files():
        events = events_of(truth)
        if not any(e.get("kind") == "cough" for e in events):
            continue
        tags = detect(audio_of(truth))
        out.append(score(truth.name.replace(".truth.json", ""), events, [(t.start_s, t.end_s) for t in tags]))
    return out


def print_table(scores: list[Score]) -> None:
    head = ["recording", "truth", "found", "matched", "recall", "precision", "recall@0.2s", "onset err med/max s",
            "false alarms on", "missed at"]
    rows = []
    for s in scores:
        e = s.onset_errors
        rows.append([s.name, s.truth, s.found, s.matched, f"{s.recall:.2f}", f"{s.precision:.2f}",
                     f"{s.onset_ok / s.truth:.2f}" if s.truth else "-",
                     f"{np.median(e):.2f}/{max(e):.2f}" if e else "-",
                     ", ".join(f"{k} {v}" for k, v in s.false_on.items()) or "-",
                     " ".join(map(str, s.missed)) or "-"])
    t = sum(s.truth for s in scores)
    f = sum(s.found for s in scores)
    m = sum(s.matched for s in scores)
    allerr = [x for s in scores for x in s.onset_errors]
    rows.append(["ALL", t, f, m, f"{m / max(1, t):.2f}", f"{m / max(1, f):.2f}",
                 f"{sum(s.onset_ok for s in scores) / max(1, t):.2f}",
                 f"{np.median(allerr):.2f}/{max(allerr):.2f}" if allerr else "-", "", ""])
    cells = [head] + [[str(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in cells) for i in range(len(head))]
    for i, r in enumerate(cells):
        print("  " + "  ".join(c.ljust(w[j]) for j, c in enumerate(r)))
        if i == 0:
            print("  " + "  ".join("-" * x for x in w))


def false_alarms(names: tuple[str, ...] = ("speech_neg_a", "speech_neg_b")) -> list[tuple[str, float, list[tuple]]]:
    """Cough events on the cough-free speech recordings of ``make_cough_training.py`` (built on
    demand): (name, minutes, [(start s, kind and speaker of the clip it falls in)])."""
    import make_cough_training

    out = []
    for name in names:
        truth = make_cough_training.ensure(name)
        events = events_of(truth)
        found = []
        for t in detect(audio_of(truth)):
            on = [e for e in events if e["start_s"] - 0.1 < t.end_s and t.start_s < e["end_s"] + 0.1]
            found.append((round(t.start_s, 2), f"{on[0]['kind']} {on[0].get('source', '')}" if on else "room tone"))
        out.append((name, json.loads(truth.read_text())["duration_s"] / 60, found))
    return out


def print_false_alarms(rows: list[tuple[str, float, list[tuple]]], verbose: bool = False) -> None:
    print("  recording     minutes  cough events (all false)  per minute  set")
    print("  ------------  -------  ------------------------  ----------  --------------------")
    for name, minutes, found in rows:
        print(f"  {name:12s}  {minutes:7.1f}  {len(found):24d}  {len(found) / minutes:10.2f}  "
              f"{'fitting' if name.endswith('_a') else 'held out'}")
        if verbose:
            for f in found:
                print(f"      {f[0]}  {f[1]}")


if __name__ == "__main__":
    if "--spans" in sys.argv:
        METHOD = "spans"
    paths = [Path(p) for p in sys.argv[1:] if not p.startswith("-")] or None
    print_table(evaluate(paths))
    if "--negatives" in sys.argv:
        print()
        print_false_alarms(false_alarms(), "-v" in sys.argv)
