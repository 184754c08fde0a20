"""Whisper encoder states of training clips as the ASR pass sees speech (issue 18, "speed back", line A).

The ASR stage encodes 30 s windows of joined speech (our VAD regions, 0.8 s of silence between them;
harp_desktop/index/asr.py). A head that reads those states (zero extra encoder cost) must be trained on clips
heard the same way: each ser-train clip (canonical variant of train_emotion.clip_variants, cut to its speech
span +- CUT_PAD_S as a VAD region would be) is placed in a window with other regions around it. Neighbours:
other clips of the same actor and plain flite clips (never another RAVDESS actor, so a held-out actor's
audio never reaches a training row). Plain clips (the neutral rows) are encoded in windows of plain clips only.
A clip's vector is whisper_enc.EncoderStates.pool over its span's frames in its window.

    .venv/bin/python models/emotion/asr_context.py /work/shared/data/ser-train /tmp/plain-speech OUT.npz [--profile base]

Different --seed values give other neighbours and places in the window (context variants for training).
OUT.npz: WX (RAVDESS clips, the order of train_emotion.extract), PX (plain clips, extract_plain's order).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_emotion import PLAIN_CI0, clip_variants  # noqa: E402

from harp_desktop.index.whisper_enc import SR, encode  # noqa: E402

GAP_S = 0.8  # asr.GAP_S: digital silence between joined regions
CUT_PAD_S = 0.25  # a region is the speech span with a little of its surroundings
WINDOW_S = 30.0


def regions(files: list[Path], ci0: int = 0) -> list[tuple[np.ndarray, float, float]]:
    """(region signal, span start, span end within the region) of each clip's canonical variant."""
    out = []
    for _, _, _, sig, a, b in clip_variants(files, 0, 1, ci0):
        i0, i1 = max(0, int((a - CUT_PAD_S) * SR)), min(len(sig), int((b + CUT_PAD_S) * SR))
        out.append((sig[i0:i1], a - i0 / SR, b - i0 / SR))
    return out


def pack(items: list[tuple[int, bool]], sizes: dict, rng: np.random.Generator) -> list[list[tuple[int, bool]]]:
    """Group (index, is_target) items into windows of at most WINDOW_S of joined audio (gaps included)."""
    wins, cur, used = [], [], rng.uniform(0.0, 4.0)  # the window may start inside earlier speech: random lead
    for it in items:
        d = sizes[it] + GAP_S
        if cur and used + d > WINDOW_S:
            wins.append(cur)
            cur, used = [], rng.uniform(0.0, 4.0)
        cur.append(it)
        used += d
    return wins + ([cur] if cur else [])


def encode_windows(model, wins, regs: dict, rng: np.random.Generator) -> dict:
    """Pooled states of every target in wins, keyed by its index."""
    out = {}
    for w in wins:
        pieces, spans, pos = [], [], 0
        lead = regs[w[0]][0]  # a random tail of the first region's audio stands for speech before the window
        cut = int(rng.uniform(0.0, 0.5) * len(lead))
        for j, it in enumerate(w):
            sig, a, b = regs[it]
            if j == 0:
                sig, a, b = sig[cut:], a - cut / SR, b - cut / SR
            if it[1]:
                spans.append((it, pos / SR + max(0.0, a), pos / SR + b))
            pieces += [sig, np.zeros(int(GAP_S * SR), np.float32)]
            pos += len(sig) + int(GAP_S * SR)
        x = np.concatenate(pieces)[: int(WINDOW_S * SR)]
        st = encode(model, x)  # one 30 s window, zero-padded as faster-whisper pads the last window of a chunk
        for it, a, b in spans:
            out[it] = st.pool(a, min(b, WINDOW_S))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ser_dir", type=Path)
    ap.add_argument("plain_dir", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--profile", default="base")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=18, help="placement of clips and neighbours (a context variant)")
    args = ap.parse_args()
    from faster_whisper import WhisperModel

    from harp_desktop import weights

    model = WhisperModel(str(weights.model_path(weights.ASR_PROFILES[args.profile])), device="cpu",
                         compute_type="int8", cpu_threads=args.threads)
    files = sorted(args.ser_dir.glob("Actor_*/*.flac"))
    pfiles = sorted(args.plain_dir.glob("plain_*.flac"))
    rav, pl = regions(files), regions(pfiles, PLAIN_CI0)
    regs = {**{(i, True): r for i, r in enumerate(rav)}, **{(-1 - i, False): r for i, r in enumerate(pl)},
            **{(-1 - i, True): r for i, r in enumerate(pl)}}
    sizes = {k: len(v[0]) / SR for k, v in regs.items()}
    rng = np.random.default_rng(args.seed)
    actors = np.array([int(f.stem.split("-")[6]) for f in files])
    t0, WX = time.process_time(), {}
    for a in np.unique(actors):
        idx = rng.permutation(np.flatnonzero(actors == a))
        items = []
        for i in idx:  # target, then one or two plain neighbours (as doctor / patient turns)
            items.append((int(i), True))
            items += [(-1 - int(p), False) for p in rng.choice(len(pl), rng.integers(1, 3), replace=False)]
        WX.update(encode_windows(model, pack(items, sizes, rng), regs, rng))
        print(f"actor {a:02d}: {len(WX)} clips, {time.process_time() - t0:.0f} CPU-s", flush=True)
    pitems = [(-1 - int(p), True) for p in rng.permutation(len(pl))]
    PX = encode_windows(model, pack(pitems, sizes, rng), regs, rng)
    print(f"plain: {len(PX)} clips, {time.process_time() - t0:.0f} CPU-s", flush=True)
    np.savez(args.out, WX=np.array([WX[(i, True)] for i in range(len(rav))], np.float32),
             PX=np.array([PX[(-1 - i, True)] for i in range(len(pl))], np.float32), profile=np.array(args.profile))


if __name__ == "__main__":
    main()
