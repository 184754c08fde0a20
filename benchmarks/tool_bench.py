"""Tool-call latency on a synthetic library of many hours (default 100 x 1-hour recordings).

    .venv/bin/python benchmarks/tool_bench.py [--hours 100] [--calls 200] [--library DIR]

Builds (once) a library with the real schema, FTS5 index, hnswlib files and arrays, filled
with synthetic segments / tags / vectors at realistic density (one 8 s turn, one speaker
window per 0.8 s, one event frame per 0.48 s), then times each retrieval tool on random
recordings and windows. Prints median and p95 per tool.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harp_desktop.api import Library  # noqa: E402
from harp_desktop.index.stages_embed import unit_q8  # noqa: E402
from harp_desktop.retrieval.tools import RecordingTools  # noqa: E402

WORDS = ("chest pain tight cough fever breath sleep night morning doctor tablet paracetamol amlodipine "
         "blood pressure headache dizzy tired work home family week days stairs heart worry better worse "
         "water eat sick throat nose cold allergy smoke stopped years thank okay yes no maybe").split()
EVENTS = ["cough", "throat_clearing", "laughter", "sneeze", "sigh"]


def build(lib: Library, hours: int, rng: random.Random) -> list[dict]:
    nprng = np.random.default_rng(0)
    for h in range(hours):
        sha = f"{h:064x}"
        rid = lib.db.add_recording(sha, f"/synthetic/rec_{h:03d}.flac", {"duration_s": 3600.0})
        segs, t = [], 0.0
        while t < 3590:
            d = rng.uniform(2, 15)
            segs.append({"recording_id": rid, "idx": len(segs), "start_s": t, "end_s": min(3600, t + d),
                         "text": " ".join(rng.choice(WORDS) for _ in range(int(d * 2.5)))})
            t += d + rng.uniform(0.2, 1.5)
        with lib.db.transaction():
            lib.db.db["speakers"].insert_all({"recording_id": rid, "idx": i, "label": f"SPEAKER_{i + 1}"}
                                             for i in range(3))
            lib.db.db["segments"].insert_all(segs)
            lib.db.db["tags"].insert_all({"recording_id": rid, "kind": "event", "label": rng.choice(EVENTS),
                                          "start_s": s, "end_s": s + 0.6, "score": rng.random()}
                                         for s in sorted(rng.uniform(0, 3599) for _ in range(40)))
            nwin = int(3600 / 0.8)
            lib.db.put_array(rid, "speaker_windows", _unit(nprng.normal(size=(nwin, 256))).astype(np.float32))
            lib.db.put_array(rid, "speaker_window_times", np.arange(nwin, dtype=np.float32) * 0.8)
            nfr = int(3600 / 0.48)
            frames = nprng.normal(size=(nfr, 1024)).astype(np.float16)
            lib.db.put_array(rid, "event_embeddings", frames)
            lib.db.put_array(rid, "event_embeddings_q8", unit_q8(frames))
            lib.db.put_array(rid, "event_times", np.arange(nfr, dtype=np.float32) * 0.48)
        ids = np.array([r["id"] for r in lib.db.segments(rid)])
        for space, dim in (("text", 384), ("speaker", 256), ("audio", 1024)):
            lib.vectors.write(sha, space, ids, _unit(nprng.normal(size=(len(ids), dim))))
    return lib.db.recordings()


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hours", type=int, default=100)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--library")
    args = ap.parse_args()
    rng = random.Random(1)
    folder = Path(args.library or tempfile.mkdtemp(prefix="harp-tool-bench-"))
    lib = Library(folder)
    recs = lib.db.recordings()
    if len(recs) < args.hours:
        t0 = time.perf_counter()
        recs = build(lib, args.hours, rng)
        print(f"built {len(recs)} h synthetic library in {time.perf_counter() - t0:.0f} s at {folder}")
    n_segments = lib.db.db.execute("SELECT COUNT(*) FROM segments").fetchone()[0]
    text_vec = lib.models.text().embed(["chest pain at night"])[0]
    voice = _unit(np.random.default_rng(5).normal(size=(1, 256)))[0].astype(np.float32)
    sound = np.random.default_rng(6).normal(size=1024).astype(np.float32)
    sound /= np.linalg.norm(sound)
    timings: dict[str, list[float]] = {k: [] for k in
                                       ("open", "time", "keyword", "label", "text_emb", "speaker", "audio_emb")}
    for _ in range(args.calls):
        rec = rng.choice(recs)
        a = rng.uniform(0, 3000)
        b = a + rng.choice([60, 300, 600, 3600])
        t = time.perf_counter()
        tools = RecordingTools(lib, rec)
        timings["open"].append(time.perf_counter() - t)
        tools.lib.models.text().embed = lambda q, _v=text_vec: np.array([_v])  # query embedding timed apart
        tools.cue_embedding = lambda cue, space, _v=voice, _s=sound: _v if space == "speaker" else _s
        calls = {"time": (tools.time, ()), "keyword": (tools.keyword, (["chest", "pain", "amlodipine"],)),
                 "label": (tools.label, ("cough",)), "text_emb": (tools.text_emb, ("chest pain at night",)),
                 "speaker": (tools.speaker, (np.zeros(1), None)), "audio_emb": (tools.audio_emb, (np.zeros(1),))}
        for name, (fn, head) in calls.items():
            t = time.perf_counter()
            fn(*head, a, b)
            timings[name].append(time.perf_counter() - t)
    print(f"library: {len(recs)} recordings, {len(recs)} h, {n_segments} segments; {args.calls} calls per tool")
    print(f"{'tool':<11}{'median ms':>11}{'p95 ms':>9}")
    for k, v in timings.items():
        s = sorted(v)
        print(f"{k:<11}{statistics.median(v) * 1000:>11.1f}{s[int(0.95 * (len(s) - 1))] * 1000:>9.1f}")


if __name__ == "__main__":
    main()
