"""Speech features of the training clips heard through a room's noise floor (issue 18, "emotional lines").

benchmarks/emotion_lines_bench.py found the emotion head wrong on a third of the bank recordings' RAVDESS lines,
although every one of those clips is a training clip the head gets right (49/50 in-sample). Swapping feature blocks
between a line's row in the recording and its training row put the loss in the 99 speech features (prosody + voice
quality): with the training row's speech block the recording rows are right on 47/50, with its YAMNet or Whisper block
36 and 38. Training clips carry pink noise 41 dB under the speech (train_emotion.clip_variants: -60 dB against a p95
frame level of -19 dB); the recordings' rooms sit 20-35 dB under it (bank: -50 / -58 dBFS under lines at -26 dBFS
active RMS, line noise at -47 dBFS on the phone). That noise counts as active speech in pool_tracks (35 dB window
under the loudest frame), fills the quiet spectral bins (flatness +3 standard deviations) and flattens every
dynamics feature (band and MFCC stds, flux, pauses).

This script writes speech features (``emotion.speech_features``: YAMNet + prosody + voice quality, the head's blocks
other than Whisper) of the canonical variant of every clip with a room's noise floor added: a noise colour (white,
pink or brown: rooms differ) at a speech-to-noise ratio drawn uniformly from SNR_DB, measured against the clip's
active speech level as the bank's generator levels lines (frames within 30 dB of the loudest); the span reaches
0-0.3 s of room tone either side of the speech, as segments do. The same draw is used for the plain TTS clips, so
noise is not a cue for emotion. One file per variant seed; compare_speaker_norm.py --room-tone pairs them with the
context variants' Whisper states (asr_context.py), as rows of variants 1, 2, ...

    .venv/bin/python models/emotion/room_tone.py /work/shared/data/ser-train /tmp/plain-speech OUT.npz --seed S

ser-train actors 01, 02, 05, 06 and 24 only: the script reads no other audio.
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

from fitting import frame_db  # noqa: E402
from train_emotion import PLAIN_CI0, clip_variants  # noqa: E402

from harp_desktop import weights  # noqa: E402
from harp_desktop.index.emotion import SR, frames_in, speech_features  # noqa: E402
from harp_desktop.index.events import YamnetTagger  # noqa: E402
from harp_desktop.paths import data_dir, private_dir  # noqa: E402

SNR_DB = (15.0, 40.0)  # speech (active RMS) over the noise floor
COLOURS = ("white", "pink", "brown")
EDGE_S = (0.0, 0.3)  # room tone inside the span before and after the speech


def noise(n: int, colour: str, rng: np.random.Generator) -> np.ndarray:
    """Unit-RMS noise of a colour: white, pink (1/f power) or brown (1/f^2)."""
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(len(spec), dtype=np.float64)
    f[0] = 1.0
    spec *= {"white": 1.0, "pink": 1.0 / np.sqrt(f), "brown": 1.0 / f}[colour]
    spec[0] = 0.0
    x = np.fft.irfft(spec, n)
    return (x / (x.std() + 1e-12)).astype(np.float32)


def active_rms_db(x: np.ndarray) -> float:
    db = frame_db(x)
    return float(10 * np.log10(np.mean(10 ** (db[db > db.max() - 30.0] / 10))))


def in_room(sig: np.ndarray, a: float, b: float, rng: np.random.Generator) -> tuple[np.ndarray, float, float]:
    """sig with a noise floor added, and the span widened by some room tone (clipped to the signal)."""
    i0, i1 = int(a * SR), int(b * SR)
    snr, colour = rng.uniform(*SNR_DB), COLOURS[int(rng.integers(len(COLOURS)))]
    level = active_rms_db(sig[i0:i1]) - snr
    y = sig + noise(len(sig), colour, rng) * np.float32(10 ** (level / 20))
    pa, pb = rng.uniform(*EDGE_S, 2)
    return y.astype(np.float32), max(0.0, a - pa), min(len(sig) / SR, b + pb)


def features(files: list[Path], ci0: int, seed: int, tagger, label: str) -> np.ndarray:
    out, t0 = [], time.perf_counter()
    for ci, _, _, sig, a, b in clip_variants(files, 0, 1, ci0):
        y, a2, b2 = in_room(sig, a, b, np.random.default_rng([seed, ci]))
        fs = tagger.run(y, hop_s=0.48, dense_hop_s=None)
        out.append(speech_features(y[int(a2 * SR): int(b2 * SR)], fs.embeddings[frames_in(fs.times_s, a2, b2)]))
        if len(out) % 100 == 0:
            print(f"  {label} {len(out)}/{len(files)} ({time.perf_counter() - t0:.0f} s)", flush=True)
    return np.array(out, np.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ser_dir", type=Path)
    ap.add_argument("plain_dir", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=1, help="noise colour, level and span edges of each clip")
    args = ap.parse_args()
    tagger = YamnetTagger(weights.model_file("events", "YamNet_w8a8.onnx.zip"),
                          weights.model_file("events", "yamnet_class_map.csv"),
                          private_dir(data_dir() / "models" / "yamnet"))
    files = sorted(args.ser_dir.glob("Actor_*/*.flac"))
    pfiles = sorted(args.plain_dir.glob("plain_*.flac"))
    np.savez(args.out, SX=features(files, 0, args.seed, tagger, "RAVDESS"),
             PSX=features(pfiles, PLAIN_CI0, args.seed, tagger, "plain"), seed=np.array(args.seed),
             snr_db=np.array(SNR_DB))


if __name__ == "__main__":
    main()
