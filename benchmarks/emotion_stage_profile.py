"""Where the emotion stage's time goes, per part, on a recording already indexed in a library (issue 18).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/emotion_stage_profile.py LIBRARY [--stem dev_long_01] [--threads 1]

Runs the stage's own computations for every classified segment (>= emotion.MIN_SEGMENT_S) of the
recording, one part at a time, and prints CPU seconds (process_time) and wall seconds per part:
the prosody/voice-quality tracks, pooling them and the YAMNet embeddings over the segment and its
3 s windows, the Whisper tiny.en encoder in each of emotion.ENCODINGS (30 s padded windows: head v7;
unpadded windows of at most SHORT_WINDOW_S: head v8), and the head. YAMNet itself is not run by the
stage: it reads the ``events`` stage's embeddings (its cost is in the events stage's seconds).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


class Clock:
    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.wall: dict[str, float] = {}

    def run(self, part: str, fn, *args):
        c0, w0 = time.process_time(), time.perf_counter()
        out = fn(*args)
        self.cpu[part] = self.cpu.get(part, 0.0) + time.process_time() - c0
        self.wall[part] = self.wall.get(part, 0.0) + time.perf_counter() - w0
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library", type=Path)
    ap.add_argument("--stem", default="dev_long_01")
    ap.add_argument("--threads", type=int, default=1, help="CTranslate2 threads for the encoder")
    args = ap.parse_args()

    from harp_desktop import weights
    from harp_desktop.api import Library
    from harp_desktop.audio.decode import open_cache
    from harp_desktop.index import emotion as E
    from harp_desktop.index.voice_quality import pool_voice

    clock = Clock()
    with Library(args.library) as lib:
        rec = next(r for r in lib.db.recordings() if Path(r["path"]).stem == args.stem)
        audio = np.asarray(open_cache(lib.folder / "audio" / f"{rec['sha256']}.f32"))
        embs, _ = clock.run("read YAMNet embeddings (events stage's)", lib.db.get_array, rec["id"], "event_embeddings")
        times, _ = lib.db.get_array(rec["id"], "event_times")
        segs = [s for s in lib.db.segments(rec["id"]) if s["end_s"] - s["start_s"] >= E.MIN_SEGMENT_S]
    whisper = E.load_whisper(args.threads)
    model = E.EmotionModel(weights.model_file("emotion", "emotion_head.npz"))
    E.segment_states(whisper, audio, 1.0, 3.0, E.ENCODINGS[E.FEATURE_V5])  # warm-up
    names = {E.FEATURE_V5: "Whisper encoder, 30 s padded window (v7)",
             E.FEATURE_V6: f"Whisper encoder, unpadded <= {E.SHORT_WINDOW_S:g} s (v8)"}
    feats = []
    for s in segs:
        a, b = s["start_s"], s["end_s"]
        seg = audio[int(a * E.SR): int(b * E.SR)]
        wins = E.spans(a, b)
        st = {v: clock.run(names[v], E.segment_states, whisper, audio, a, b, enc) for v, enc in E.ENCODINGS.items()}
        t = clock.run("prosody + voice-quality tracks", E.tracks, seg)

        def pool(t=t, wins=wins, a=a, seg=seg, st=st[model.feature_version]):  # as emotion.span_features
            out = []
            for wa, wb in wins:
                lo = max(0, int(round((wa - a) / E.FRAME_S)))
                hi = int(round((wb - a - 2 * E._W / E.SR) / E.FRAME_S)) + 1
                sl = (0, None) if wb - wa >= len(seg) / E.SR - 2 / E.SR else (lo, max(hi, lo + 1))
                sp = np.concatenate([E.pool_embeddings(embs[E.frames_in(times, wa, wb)]), E.pool_tracks(t, *sl),
                                     pool_voice(t, *sl)])
                out.append(E.combine(sp, st.pool(wa, wb)))
            return np.array(out)

        feats.append(clock.run("pooling (YAMNet, tracks, states) over segment + 3 s windows", pool))
    ref = np.array([f[0] for f in feats])
    for f in feats:
        clock.run("head (speaker z-score + softmax)", lambda f=f: model.proba(model.speaker_normalise(f, ref)))
    dur = sum(s["end_s"] - s["start_s"] for s in segs)
    print(f"{args.stem}: {len(segs)} segments, {dur:.0f} s of speech; encoder threads {args.threads}; "
          f"shipped head features {model.feature_version}")
    print("| part | CPU s | wall s | CPU ms / segment |\n|---|---|---|---|")
    for part in clock.cpu:
        print(f"| {part} | {clock.cpu[part]:.2f} | {clock.wall[part]:.2f} | {1000 * clock.cpu[part] / len(segs):.1f} |")


if __name__ == "__main__":
    main()
