"""Speak a text-only consultation script (benchmarks/findings_truth/*.script.json) with flite, so
its findings can be measured on ASR text too.

    .venv/bin/python benchmarks/findings_tts.py benchmarks/findings_truth/new_rash_01.script.json --out /tmp/tts
    .venv/bin/harp index --library /tmp/ttslib --asr base /tmp/tts/new_rash_01.flac
    .venv/bin/python benchmarks/findings_bench.py --library /tmp/ttslib /tmp/tts/new_rash_01.flac

Writes ``<name>.flac`` (16 kHz mono, a quiet pink-noise room) and ``<name>.truth.json`` beside it:
the script's turns re-timed to the synthetic speech, in the truth-file layout findings_bench reads
(``sections``, ``events``); the clinician and the patient get different flite voices. The hand-made
true findings stay in benchmarks/findings_truth/<name>.json. Needs flite (installer/setup.sh).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "resources" / "samples"))

from make_sample import pink_noise, require_flite, set_rms, synthesise, trim_silence  # noqa: E402

SR = 16000
VOICES = {"clinician": "slt", "patient": "rms", "other": "awb"}
GAP_S = 0.6


def speak(script: Path, out: Path, seed: int = 7) -> Path:
    d = json.loads(script.read_text())
    name = Path(d["recording"]).stem
    flite, rng = require_flite(), np.random.default_rng(seed)
    pieces, events, t = [], [], 1.0
    with tempfile.TemporaryDirectory() as tmp:
        for e in d["events"]:
            role = e.get("role") or "other"
            x = set_rms(trim_silence(synthesise(flite, VOICES.get(role, "awb"), e["text"], Path(tmp)).astype(np.float64)),
                        -24.0)
            events.append({**e, "kind": "speech", "start_s": round(t, 3), "end_s": round(t + len(x) / SR, 3),
                           "synthetic": True, "voice": VOICES.get(role, "awb")})
            pieces.append((int(t * SR), x))
            t += len(x) / SR + GAP_S
    total = int((t + 1.0) * SR)
    audio = pink_noise(total, rng, -60.0)
    for start, x in pieces:
        audio[start : start + len(x)] += x
    out.mkdir(parents=True, exist_ok=True)
    flac = out / f"{name}.flac"
    sf.write(flac, np.clip(audio, -1, 1).astype(np.float32), SR, subtype="PCM_16")
    truth = {"recording": flac.name, "sections": [{"name": "consultation", "start_s": 0.0, "end_s": round(t + 1.0, 3)}],
             "events": events, "notes": f"spoken from {script.name} by benchmarks/findings_tts.py (flite)"}
    (out / f"{name}.truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return flac


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("script", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "findings_tts")
    args = ap.parse_args()
    for s in args.script:
        print(speak(s, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
