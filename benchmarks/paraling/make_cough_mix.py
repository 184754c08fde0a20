"""Build the cough test recordings: real coughs under, next to and between synthetic speech.

    .venv/bin/python benchmarks/paraling/make_cough_mix.py [--out-dir benchmarks/paraling]

Two recordings, offline and deterministic (seeded), with a truth file beside each:

* ``cough_mix_01`` (tuning): the seven real coughs of the dev recording (BMC Cough 2006
  S1, S3, S6; CC BY 2.0), cut at its truth spans as ``benchmarks/bank/make_recordings.py``
  does, resampled 0.94-1.06x, at -20 to -34 dBFS.
* ``cough_mix_02`` (held out: never tuned on): a cougher absent from every other
  recording, BMC S5 (the dev cue clip ``cues/dev_cue_cough.flac``), resampled 0.9-1.1x,
  other voices, louder room tone.

Scenes in each: a cough alone in a pause; a cough over the last 0.15-0.4 s of a turn; a
cough fully under speech; a cough just before a turn; double and triple coughs (onsets
0.5-0.9 s apart); a quiet cough. Distractors with no cough: Flite saying "ha ha ha"
(kind ``laughter``, synthetic: a stand-in, not real laughter), plosive-heavy exclamations
and "ahem" spoken by Flite (kind ``speech``). Speech is Flite 2.2 (BSD-style) reading
text written here. Truth times are exact sample positions of the placed clips, the
cough clips trimmed to their first frame within 35 dB of their peak.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf
import soxr

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "resources" / "samples"))

from make_sample import fade, pink_noise, require_flite, set_rms, synthesise  # noqa: E402

SR = 16000
DEV = Path("/work/shared/data/dev")
SPEECH_DBFS = -23.0

LINES = [
    "Have you noticed the cough getting worse at night or in the morning?",
    "It is mostly in the morning, when I first get up and walk to the kitchen.",
    "Do you bring anything up when you cough, any phlegm or blood at all?",
    "No blood, just a little clear stuff now and then, nothing much.",
    "I will listen to your chest now, so please breathe in and out slowly.",
    "My husband says I kept him awake with it most of last week.",
    "We can try an inhaler for two weeks and see how you get on with it.",
    "Is there anyone at home who smokes, or any pets in the house?",
    "The weather has been so cold and damp that everybody seems to be ill.",
    "Please take a seat in the waiting room and the nurse will call you.",
    "I have been taking honey and lemon but it does not seem to help.",
    "Any fever, night sweats, or weight loss over the last month or so?",
    "The pharmacy on the corner closes at six on a Saturday, I think.",
    "Breathe in deeply for me and hold it, and now let it out slowly.",
    "The bus was late again this morning so I had to walk all the way here.",
    "You will get a letter with the results in about ten days.",
]
EXCLAIM = ["Pop! Pick it up, quick! Kick it back!", "Tap, tap, tap. Top it up!", "Ahem. Right then, shall we start?",
           "Pah! Typical. Cut it out!"]
LAUGH = ["Ha ha ha ha!", "Ha! Ha ha ha.", "Hee hee hee, ha ha!"]


def trim_onset(x: np.ndarray, below_db: float = 35.0) -> np.ndarray:
    """From the first 10 ms frame within ``below_db`` of the peak frame to the last such frame."""
    n = len(x) // 160
    db = 10 * np.log10((x[: n * 160].reshape(n, 160) ** 2).mean(1) + 1e-12)
    on = np.flatnonzero(db > db.max() - below_db)
    return x[on[0] * 160: (on[-1] + 1) * 160]


def dev_coughs() -> list[tuple[np.ndarray, str]]:
    x, sr = sf.read(DEV / "dev_long_01.flac", dtype="float32")
    truth = json.loads((DEV / "dev_long_01.truth.json").read_text())["events"]
    return [(trim_onset(x[round(e["start_s"] * sr): round(e["end_s"] * sr)].astype(np.float64)),
             f"{e['source']} via dev_long_01.flac {e['start_s']:.3f}-{e['end_s']:.3f} s")
            for e in truth if e["kind"] == "cough"]


def cue_cough() -> list[tuple[np.ndarray, str]]:
    x, _ = sf.read(DEV / "cues" / "dev_cue_cough.flac", dtype="float32")
    return [(trim_onset(x.astype(np.float64)), "coughs_bmc/S5.mp3 via dev cues/dev_cue_cough.flac")]


class Timeline:
    def __init__(self) -> None:
        self.parts: list[tuple[int, np.ndarray]] = []
        self.events: list[dict] = []
        self.t = 1.0  # seconds: the end of the last placed item

    def place(self, x: np.ndarray, at_s: float, event: dict) -> tuple[float, float]:
        a = round(at_s * SR)
        self.parts.append((a, x))
        start, end = a / SR, (a + len(x)) / SR
        self.events.append({**event, "start_s": round(start, 3), "end_s": round(end, 3)})
        self.t = max(self.t, end)
        return start, end

    def render(self, rng: np.random.Generator, bed_dbfs: float) -> np.ndarray:
        n = round((self.t + 1.5) * SR)
        out = pink_noise(n, rng, bed_dbfs)
        for a, x in self.parts:
            out[a: a + len(x)] += x
        peak = np.abs(out).max()
        return (out * (0.89 / peak if peak > 0.89 else 1.0)).astype(np.float32)


def build(name: str, coughs: list[tuple[np.ndarray, str]], voices: list[str], seed: int, bed_dbfs: float,
          speeds: tuple[float, float], tmp: Path) -> tuple[np.ndarray, dict]:
    rng = np.random.default_rng(seed)
    flite = require_flite()
    tl = Timeline()
    lines = list(LINES)
    rng.shuffle(lines)
    k = 0

    def say(text: str, voice: str, at_s: float, kind: str = "speech", level: float = SPEECH_DBFS) -> tuple[float, float]:
        x = fade(set_rms(synthesise(flite, voice, text, tmp).astype(np.float64), level), 0.005)
        return tl.place(x, at_s, {"kind": kind, "speaker": f"tts_{voice}", "voice": f"Flite 2.2 cmu_us_{voice}",
                                  "text": text, "synthetic": True})

    def line() -> tuple[str, str]:
        nonlocal k
        k += 1
        return lines[k % len(lines)], voices[k % len(voices)]

    def cough(at_s: float, level: float, tag: str) -> tuple[float, float]:
        src = coughs[int(rng.integers(len(coughs)))]
        speed = float(rng.uniform(*speeds))
        x = soxr.resample(src[0], SR * speed, SR) if abs(speed - 1) > 1e-3 else src[0]
        x = fade(set_rms(np.asarray(x, np.float64), level), 0.003)
        return tl.place(x, at_s, {"kind": "cough", "speaker": "cougher", "source": src[1], "synthetic": False,
                                  "tags": [tag], "instance": f"speed {speed:.3f}, {level:.1f} dBFS RMS"})

    def gap() -> float:
        return float(rng.uniform(0.6, 1.4))

    for rep in range(2):
        # alone in a pause
        _, e = say(*line(), tl.t + gap())
        _, e = cough(e + gap(), float(rng.uniform(-26, -20)), "alone")
        say(*line(), e + gap())
        # over the end of a turn
        _, e = say(*line(), tl.t + gap())
        _, e = cough(e - float(rng.uniform(0.15, 0.4)), float(rng.uniform(-25, -21)), "overlaps_speech_end")
        say(*line(), e + gap())
        # fully under speech
        text, voice = line()
        s, e = say(text, voice, tl.t + gap())
        cough(s + float(rng.uniform(0.3, 0.6)) * (e - s), float(rng.uniform(-24, -20)), "under_speech")
        # just before a turn
        _, e = cough(tl.t + gap(), float(rng.uniform(-26, -21)), "before_speech")
        say(*line(), e + float(rng.uniform(0.05, 0.2)))
        # a double cough, then a triple bout
        for n_c in (2, 3):
            at = tl.t + gap()
            for _ in range(n_c):
                _, e = cough(at, float(rng.uniform(-25, -21)), f"bout_of_{n_c}")
                at = tl.events[-1]["start_s"] + float(rng.uniform(0.5, 0.9))
            say(*line(), e + gap())
        # a quiet cough in a pause
        _, e = cough(tl.t + gap(), float(rng.uniform(-36, -32)), "quiet")
        # distractors: laughter stand-ins and plosive bursts, no cough
        say(LAUGH[rep], voices[rep % len(voices)], e + gap(), kind="laughter", level=-22.0)
        say(EXCLAIM[2 * rep], voices[(rep + 1) % len(voices)], tl.t + gap(), level=-21.0)
        say(LAUGH[(rep + 2) % 3], voices[(rep + 2) % len(voices)], tl.t + gap(), kind="laughter", level=-22.0)
        say(EXCLAIM[2 * rep + 1], voices[rep % len(voices)], tl.t + gap(), level=-21.0)
    wav = tl.render(rng, bed_dbfs)
    truth = {"recording": f"{name}.flac", "sample_rate": SR, "channels": 1, "duration_s": round(len(wav) / SR, 3),
             "seed": seed, "generator": "benchmarks/paraling/make_cough_mix.py", "room_tone": f"pink noise {bed_dbfs} dBFS",
             "events": sorted(tl.events, key=lambda e: e["start_s"])}
    for i, e in enumerate(truth["events"]):
        e["id"] = f"{name}_e{i:03d}"
    return wav, truth


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, default=HERE)
    args = ap.parse_args()
    specs = [("cough_mix_01", dev_coughs(), ["rms", "slt", "awb"], 1801, -52.0, (0.94, 1.06)),
             ("cough_mix_02", cue_cough(), ["kal16", "slt", "rms"], 2902, -44.0, (0.9, 1.1))]
    with tempfile.TemporaryDirectory() as tmp:
        for name, coughs, voices, seed, bed, speeds in specs:
            wav, truth = build(name, coughs, voices, seed, bed, speeds, Path(tmp))
            sf.write(args.out_dir / f"{name}.flac", wav, SR, subtype="PCM_16")
            (args.out_dir / f"{name}.truth.json").write_text(json.dumps(truth, indent=1) + "\n")
            kinds = {}
            for e in truth["events"]:
                kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
            print(f"{name}: {truth['duration_s']:.1f} s, {kinds}")


if __name__ == "__main__":
    main()
