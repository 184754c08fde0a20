"""Cough detection against truth files: one event per cough, onset error, false alarms.

Used by ``benchmarks/paraling_bench.py --coughs`` and by hand while tuning::

    .venv/bin/python benchmarks/paraling/coughs.py [TRUTH.json ...] [--spans] [--under-speech] [--negatives [-v]]
    .venv/bin/python benchmarks/paraling/coughs.py --library DIR   # an indexed library's stored events

A recording's YAMNet frame scores are cached (``/tmp/harp-cough-cache``, keyed by the
audio's size and mtime) so re-running the post-processing costs seconds. The detection
is exactly the index stage's: ``with_cough_onsets(detect_events(tagger.run(wav)), wav, tagger)``.

Scoring: a detection matches a truth cough when their spans overlap (0.25 s tolerance),
one-to-one (Hungarian, maximum count). Recall = matched / truth, precision = matched /
detections, onset error = |detected start - truth start| over matched pairs (median / 90th
percentile), and "recall@0.2" counts only matches whose onset is within 0.2 s. An unmatched
detection on a true cough that another detection matched tells that cough twice (a split
bout: "events/cough" above 1.00); any other is a false event, listed by what it lies on
(throat clearing, laughter, an emotional line such as RAVDESS', speech; else silence).
``--negatives``: cough events on the cough-free speech recordings
of ``make_cough_training.py`` (emotional acted speech, TTS exclamations and laughter
stand-ins; "_a" is a fitting set, "_b" held out), all of them false alarms. ``--under-speech``:
also make_cough_training.py's coughs under emotional and TTS speech (``_a`` fitting, ``_b`` held out).
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


# What a false event lies on: the truth kinds it overlaps, in this order of precedence.
FALSE_KINDS = (("throat clearing", ("throat_clearing", "throat_clear")), ("laughter", ("laughter", "laugh")),
               ("emotional line", ("emotion_speech",)), ("speech", ("speech", "tts_speech")))


@dataclass
class Score:
    name: str
    truth: int
    found: int
    matched: int
    onset_ok: int
    onset_errors: list[float]
    false_on: dict[str, int]  # unmatched detections by what they overlap (FALSE_KINDS, else "silence")
    missed: list[float]  # truth cough starts with no detection
    split: int = 0  # unmatched detections on a true cough already matched (a cough told twice)

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else float("nan")

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else float("nan")

    @property
    def per_cough(self) -> float:
        """Events per detected true cough: 1.0 when no cough is told twice."""
        return (self.matched + self.split) / self.matched if self.matched else float("nan")


def pair(truth: list[tuple[float, float]], found: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """(truth index, detection index) one-to-one: spans overlapping within TOL, maximum count,
    and among those the closest onsets."""
    if not truth or not found:
        return []
    ok = np.array([[f[0] < t[1] + TOL and f[1] > t[0] - TOL for f in found] for t in truth], float)
    cost = -ok * 1000 + ok * np.abs(np.subtract.outer([t[0] for t in truth], [f[0] for f in found]))
    rows, cols = linear_sum_assignment(cost)
    return [(r, c) for r, c in zip(rows, cols, strict=True) if ok[r, c]]


def false_kind(events: list[dict], a: float, b: float) -> str:
    """What an unmatched detection [a, b] lies on (FALSE_KINDS), or "silence" (room tone only)."""
    kinds = {e.get("kind") for e in events if e["start_s"] < b and e["end_s"] > a}
    return next((name for name, ks in FALSE_KINDS if kinds & set(ks)), "silence")


def score(name: str, events: list[dict], found: list[tuple[float, float]]) -> Score:
    truth = sorted((e["start_s"], e["end_s"]) for e in events if e.get("kind") == "cough")
    pairs = pair(truth, found)
    errs = [abs(found[c][0] - truth[r][0]) for r, c in pairs]
    used = {c for _, c in pairs}
    hit = {r for r, _ in pairs}
    false_on: dict[str, int] = {}
    split = 0
    for i, (a, b) in enumerate(found):
        if i in used:
            continue
        if any(a < tb and b > ta for r, (ta, tb) in enumerate(truth) if r in hit):
            split += 1
            continue
        k = false_kind(events, a, b)
        false_on[k] = false_on.get(k, 0) + 1
    return Score(name, len(truth), len(found), len(pairs), sum(e <= ONSET_OK for e in errs), errs, false_on,
                 [round(truth[r][0], 2) for r in range(len(truth)) if r not in hit], split)


def evaluate(paths: list[Path] | None = None) -> list[Score]:
    out = []
    for truth in paths or truth_files():
        events = events_of(truth)
        if not any(e.get("kind") == "cough" for e in events):
            continue
        tags = detect(audio_of(truth))
        out.append(score(truth.name.replace(".truth.json", ""), events, [(t.start_s, t.end_s) for t in tags]))
    return out


def evaluate_library(library: Path) -> list[Score]:
    """The stored cough events of an indexed library (opened read-only), for each of its recordings
    with a cough truth file beside its audio (or in this repository's truth folders)."""
    import sqlite3

    by_name = {t.name.replace(".truth.json", ""): t for t in truth_files()}
    conn = sqlite3.connect(f"file:{Path(library) / 'library.sqlite'}?mode=ro", uri=True)
    out = []
    for rid, path in conn.execute("SELECT id, path FROM recordings ORDER BY id"):
        stem = Path(path).stem
        truth = Path(path).with_name(stem + ".truth.json")
        truth = truth if truth.exists() else by_name.get(stem)
        if truth is None or not any(e.get("kind") == "cough" for e in events_of(truth)):
            continue
        found = conn.execute("SELECT start_s, end_s FROM tags WHERE recording_id = ? AND kind = 'event' "
                             "AND label = 'cough' ORDER BY start_s", [rid]).fetchall()
        out.append(score(stem, events_of(truth), [(a, b) for a, b in found]))
    conn.close()
    return out


def _errs(e: list[float]) -> str:
    return f"{np.median(e):.2f}/{np.percentile(e, 90):.2f}" if e else "-"


def print_table(scores: list[Score]) -> None:
    head = ["recording", "truth", "events", "matched", "recall", "precision", "events/cough", "recall@0.2s",
            "onset err med/p90 s", "false events on", "missed at"]
    rows = []
    for s in scores:
        rows.append([s.name, s.truth, s.found, s.matched, f"{s.recall:.2f}", f"{s.precision:.2f}", f"{s.per_cough:.2f}",
                     f"{s.onset_ok / s.truth:.2f}" if s.truth else "-", _errs(s.onset_errors),
                     ", ".join(f"{k} {v}" for k, v in sorted(s.false_on.items())) or "-",
                     " ".join(map(str, s.missed)) or "-"])
    t = sum(s.truth for s in scores)
    f = sum(s.found for s in scores)
    m = sum(s.matched for s in scores)
    sp = sum(s.split for s in scores)
    allerr = [x for s in scores for x in s.onset_errors]
    false_all: dict[str, int] = {}
    for s in scores:
        for k, v in s.false_on.items():
            false_all[k] = false_all.get(k, 0) + v
    rows.append(["ALL", t, f, m, f"{m / max(1, t):.2f}", f"{m / max(1, f):.2f}", f"{(m + sp) / max(1, m):.2f}",
                 f"{sum(s.onset_ok for s in scores) / max(1, t):.2f}", _errs(allerr),
                 ", ".join(f"{k} {v}" for k, v in sorted(false_all.items())) or "-", ""])
    cells = [head] + [[str(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in cells) for i in range(len(head))]
    for i, r in enumerate(cells):
        print("  " + "  ".join(c.ljust(w[j]) for j, c in enumerate(r)))
        if i == 0:
            print("  " + "  ".join("-" * x for x in w))


def under_speech() -> list[Path]:
    """make_cough_training.py's coughs under emotional and TTS speech (built on demand in /tmp):
    cough_under_speech_a (fitting voices and coughers), cough_under_speech_b (held out)."""
    import make_cough_training

    return [make_cough_training.ensure(name) for name in make_cough_training.UNDER_SPEECH]


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
    if "--library" in sys.argv:  # the stored events of an indexed library instead of this code's
        print_table(evaluate_library(Path(sys.argv[sys.argv.index("--library") + 1])))
        sys.exit(0)
    paths = [Path(p) for p in sys.argv[1:] if not p.startswith("-")] or None
    if "--under-speech" in sys.argv:
        paths = (paths or truth_files()) + under_speech()
    print_table(evaluate(paths))
    if "--negatives" in sys.argv:
        print()
        print_false_alarms(false_alarms(), "-v" in sys.argv)
