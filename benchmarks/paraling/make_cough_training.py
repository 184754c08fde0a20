"""Build training and test audio for the cough-onset models: cough-free speech and extra cough mixes.

    .venv/bin/python benchmarks/paraling/make_cough_training.py [--out-dir /tmp/harp-cough-negatives]

Offline and deterministic (seeded), each with a truth file beside it, written outside the
repository (rebuilt on demand by ``fit_cough_onsets.py`` and ``coughs.py --negatives``).

Cough-free speech (speech events, no coughs):

* ``speech_neg_a`` (fitting): RAVDESS acted emotional speech of actors 01, 02 and 05 (all
  eight emotions, normal and strong intensity: shouted anger, fearful and surprised lines,
  sobbing-like sad ones) from ``/work/shared/data/ser-train``, and eSpeak NG voices reading
  exclamations, plosive-heavy lines, "ha ha ha" laughter stand-ins and "ahem".
* ``speech_neg_b`` (held out: only counted, never fitted): RAVDESS actors 06 and 24 and
  Flite voices (awb, rms, slt, kal16) reading other lines of the same kinds.

Extra cough mixes for fitting, ``cough_train_1..3``: ``make_cough_mix.build``'s scenes (a cough
alone, over the end of a turn, under speech, just before a turn, bouts, a quiet one) with
the dev recording's real coughs only (BMC Cough 2006 S1, S3, S6; CC BY 2.0 -- never S5, the
held-out cough_mix_02's and bank_rec_03's patient's cougher), new seeds, Flite voices,
speeds 0.9-1.1 and room tone -56..-46 dBFS.

Coughs under speech, ``cough_under_speech_a`` (fitting) and ``_b`` (held out: only counted,
never fitted): coughs placed 30-70 % into a line of real emotional speech (RAVDESS, all emotions
and intensities) or a TTS line, the cough's RMS 8 dB below to 2 dB above the line's; a third of
them over a line's last 0.1-0.4 s instead; two-cough bouts (0.5-0.9 s apart) under longer lines;
and as many lines again with no cough (the distractors: shouts, sobs, scoffs, laughs of the acted
emotions). ``_a``: speech_neg_a's voices and the dev recording's coughers (S1, S3, S6); ``_b``:
speech_neg_b's voices and all four coughers (S5 from the dev cue clip too).

Speech clips are trimmed, levelled to -16..-32 dBFS (the loudest as loud as the bank recordings'
shouting), separated by 0.15-1.5 s over seeded pink room tone at -58 dBFS. RAVDESS: CC BY-NC-SA
4.0 (Livingstone & Russo 2018); eSpeak NG: GPL-3.0 program, output unrestricted; Flite:
BSD-style. No third-party audio is committed: only this script.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf
import soxr

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "resources" / "samples"))
sys.path.insert(0, str(HERE))

from make_sample import fade, pink_noise, require_flite, set_rms, synthesise, trim_silence  # noqa: E402

SR = 16000
SER = Path("/work/shared/data/ser-train")
OUT = Path("/tmp/harp-cough-negatives")
PLAN = {
    "speech_neg_a": {"actors": ["01", "02", "05"], "seed": 181,
                     "tts": [("espeak", v) for v in ("en-us", "en-gb", "en-gb-scotland", "en-029", "en-gb-x-rp")]},
    "speech_neg_b": {"actors": ["06", "24"], "seed": 182,
                     "tts": [("flite", v) for v in ("awb", "rms", "slt", "kal16")]},
}
LINES_A = ["Stop! Put that down right now!", "Hey! Get back here, quick!", "Pick it up, Pat, and pack the kit.",
           "Ha ha ha ha ha!", "Ha! Ha ha. Oh, that's too funny.", "Ahem. Excuse me, is anyone sitting here?",
           "Tsk, tsk. Typical. Cut it out, Ken!", "Shh! Shush, they're calling the next patient.",
           "Psst, is that the chemist's bag?", "Oh! Ouch! That stings a bit.", "Achoo. Sorry, it's the dust.",
           "Check the chart, the chest clinic closes at six.", "Whoa, careful with the kettle, Kate!",
           "Tut tut, the bus is late again.", "Huh? What? Speak up please!", "Hah! Told you so, Charlie."]
LINES_B = ["Quick, catch the cat before it gets out!", "Ha ha, stop it, you're tickling me!", "Ahem, ahem. Right then.",
           "Kick the ball, Ted, kick it hard!", "Oh, shush, the doctor's coming.", "Hey! Hey, you dropped your ticket!",
           "Hee hee hee, ha ha!", "Pop the top back on the pot, please.", "Tch. Fine, keep the change.",
           "Ouch! Careful, that's my foot!", "Sh, sh, it's all right, it's all right.", "Hah! Checkmate."]


def espeak(voice: str, text: str, work: Path, speed: int) -> np.ndarray:
    wav = work / "e.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(wav), text], check=True)
    x, sr = sf.read(wav, dtype="float32", always_2d=True)
    x = x.mean(axis=1)
    return trim_silence(soxr.resample(x, sr, SR).astype(np.float32) if sr != SR else x)


def clips(name: str, rng: np.random.Generator) -> list[tuple[np.ndarray, dict]]:
    plan = PLAN[name]
    out = []
    for actor in plan["actors"]:
        for f in sorted((SER / f"Actor_{actor}").glob("*.flac")):
            x = sf.read(f, dtype="float32", always_2d=True)[0].mean(axis=1)
            emo = int(f.stem.split("-")[2])
            out.append((trim_silence(x), {"kind": "emotion_speech", "speaker": f"ravdess_actor{actor}",
                                          "source": f"ravdess {f.name}", "emotion_code": emo}))
    lines = LINES_A if name.endswith("_a") else LINES_B
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        flite = require_flite() if any(k == "flite" for k, _ in plan["tts"]) else ""
        for engine, voice in plan["tts"]:
            for text in lines:
                x = espeak(voice, text, work, int(rng.integers(140, 190))) if engine == "espeak" else \
                    synthesise(flite, voice, text, work)
                kind = "laughter" if text.lower().startswith(("ha", "hee")) else "speech"
                out.append((x, {"kind": kind, "speaker": f"{engine}_{voice}", "source": f"{engine} {voice}",
                                "text": text}))
    return out


def build(name: str, out_dir: Path = OUT) -> Path:
    """Render ``name`` (a PLAN key) into ``out_dir``; returns the truth file's path."""
    rng = np.random.default_rng(PLAN[name]["seed"])
    items = clips(name, rng)
    order = rng.permutation(len(items))
    parts, events, t = [np.zeros(int(0.8 * SR), np.float32)], [], 0.8
    for i in order:
        x, meta = items[i]
        x = fade(set_rms(x.astype(np.float64), float(rng.uniform(-32.0, -16.0)))).astype(np.float32)
        events.append({"start_s": round(t, 3), "end_s": round(t + len(x) / SR, 3), **meta})
        gap = float(rng.uniform(0.15, 1.5))
        parts += [x, np.zeros(int(gap * SR), np.float32)]
        t += len(x) / SR + int(gap * SR) / SR
    y = np.concatenate(parts)
    y = np.clip(y + pink_noise(len(y), rng, -58.0).astype(np.float32), -1.0, 1.0)
    out_dir.mkdir(parents=True, exist_ok=True)
    sf.write(out_dir / f"{name}.flac", y, SR)
    truth = out_dir / f"{name}.truth.json"
    truth.write_text(json.dumps({"recording": f"{name}.flac", "sample_rate": SR, "duration_s": round(len(y) / SR, 3),
                                 "generator": "benchmarks/paraling/make_cough_training.py", "events": events}, indent=1))
    return truth


TRAIN_MIXES = {"cough_train_1": (["awb", "kal16", "slt"], 4101, -56.0), "cough_train_2": (["rms", "awb", "kal16"], 4102, -50.0),
               "cough_train_3": (["slt", "rms", "awb"], 4103, -46.0)}


def build_mix(name: str, out_dir: Path = OUT) -> Path:
    import make_cough_mix

    voices, seed, bed = TRAIN_MIXES[name]
    with tempfile.TemporaryDirectory() as tmp:
        wav, truth = make_cough_mix.build(name, make_cough_mix.dev_coughs(), voices, seed, bed, (0.9, 1.1), Path(tmp))
    out_dir.mkdir(parents=True, exist_ok=True)
    sf.write(out_dir / f"{name}.flac", wav, SR, subtype="PCM_16")
    truth["generator"] = "benchmarks/paraling/make_cough_training.py via make_cough_mix.build"
    (out_dir / f"{name}.truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return out_dir / f"{name}.truth.json"


UNDER_SPEECH = {"cough_under_speech_a": ("speech_neg_a", 5301), "cough_under_speech_b": ("speech_neg_b", 5303)}


def build_under_speech(name: str, out_dir: Path = OUT) -> Path:
    """Render ``name`` (an UNDER_SPEECH key; see the module doc) into ``out_dir``; returns the truth file's path."""
    import make_cough_mix

    voices, seed = UNDER_SPEECH[name]
    rng = np.random.default_rng(seed)
    coughs = make_cough_mix.dev_coughs() + (make_cough_mix.cue_cough() if name.endswith("_b") else [])
    lines = clips(voices, np.random.default_rng(PLAN[voices]["seed"]))
    rng.shuffle(lines)
    parts: list[tuple[int, np.ndarray]] = []
    events: list[dict] = []
    t = 1.0

    def put(x: np.ndarray, at_s: float, event: dict) -> float:
        a = round(at_s * SR)
        parts.append((a, x))
        events.append({**event, "start_s": round(a / SR, 3), "end_s": round((a + len(x)) / SR, 3)})
        return (a + len(x)) / SR

    def cough(at_s: float, level: float, tag: str, k: int) -> float:
        src = coughs[k % len(coughs)]
        speed = float(rng.uniform(0.94, 1.06))
        x = soxr.resample(src[0], SR * speed, SR).astype(np.float64)
        x = fade(set_rms(x, level), 0.003)
        put(x, at_s, {"kind": "cough", "speaker": "cougher", "source": src[1], "synthetic": False, "tags": [tag],
                      "instance": f"speed {speed:.3f}, {level:.1f} dBFS RMS"})
        return at_s + len(x) / SR

    n_cough = 0
    for i, (x, meta) in enumerate(lines[:96]):
        level = float(rng.uniform(-30.0, -20.0))
        x = fade(set_rms(x.astype(np.float64), level)).astype(np.float32)
        start, dur = t, len(x) / SR
        end = put(x, start, meta)
        if i % 2 == 0:  # a line with a cough; the odd ones are distractors
            rel = float(rng.uniform(-8.0, 2.0))
            scene = ("under_speech", "overlaps_speech_end", "bout_of_2")[(i // 2) % 3]
            if scene == "overlaps_speech_end":
                cough(end - float(rng.uniform(0.1, 0.4)), level + rel, scene, n_cough)
                n_cough += 1
            elif scene == "bout_of_2" and dur > 2.2:
                at = start + float(rng.uniform(0.2, 0.4)) * dur
                cough(at, level + rel, scene, n_cough)
                cough(at + float(rng.uniform(0.5, 0.9)), level + rel, scene, n_cough + 1)
                n_cough += 2
            else:
                cough(start + float(rng.uniform(0.3, 0.7)) * dur, level + rel, "under_speech", n_cough)
                n_cough += 1
        t = max(t, max(e["end_s"] for e in events)) + float(rng.uniform(0.4, 1.5))
    n = round((t + 1.0) * SR)
    y = pink_noise(n, rng, -52.0)
    for a, x in parts:
        y[a: a + len(x)] += x
    y = (y * (0.89 / np.abs(y).max() if np.abs(y).max() > 0.89 else 1.0)).astype(np.float32)
    out_dir.mkdir(parents=True, exist_ok=True)
    sf.write(out_dir / f"{name}.flac", y, SR, subtype="PCM_16")
    truth = out_dir / f"{name}.truth.json"
    events.sort(key=lambda e: e["start_s"])
    for k, e in enumerate(events):
        e["id"] = f"{name}_e{k:03d}"
    truth.write_text(json.dumps({"recording": f"{name}.flac", "sample_rate": SR, "duration_s": round(n / SR, 3),
                                 "seed": seed, "generator": "benchmarks/paraling/make_cough_training.py",
                                 "room_tone": "pink noise -52 dBFS", "events": events}, indent=1))
    return truth


def ensure(name: str, out_dir: Path = OUT) -> Path:
    truth = out_dir / f"{name}.truth.json"
    if truth.exists() and (out_dir / f"{name}.flac").exists():
        return truth
    if name in UNDER_SPEECH:
        return build_under_speech(name, out_dir)
    return build_mix(name, out_dir) if name in TRAIN_MIXES else build(name, out_dir)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out-dir", type=Path, default=OUT)
    args = ap.parse_args()
    for name in [*PLAN, *TRAIN_MIXES, *UNDER_SPEECH]:
        truth = build_mix(name, args.out_dir) if name in TRAIN_MIXES else build_under_speech(name, args.out_dir) \
            if name in UNDER_SPEECH else build(name, args.out_dir)
        d = json.loads(truth.read_text())
        print(f"{truth.with_suffix('').with_suffix('.flac')}: {d['duration_s'] / 60:.1f} min, {len(d['events'])} clips")


if __name__ == "__main__":
    main()
