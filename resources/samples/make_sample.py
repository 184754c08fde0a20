"""Synthesise HARP Desktop's bundled sample recording (a GP consultation).

The sample is built entirely offline and is redistributable (see LICENSE.md
beside this file):

* speech: Debian's ``flite`` text-to-speech (CMU ARCTIC voices ``rms`` for the
  doctor, ``slt`` for the patient, ``awb`` for the receptionist), reading a
  script written by the project (``SCRIPT`` below);
* coughs: real coughs cut from a recording whose cough spans come from the
  BMC "Cough" 2006 supplementary audio (Smith et al., CC BY 2.0);
* room tone: seeded pink noise at a low level under the whole recording.

Every placed item (speech turn, cough, silence gap) is written to a truth file
``consultation.truth.json`` next to ``consultation.flac``.

Run from the repository root (needs ``apt-get install flite``)::

    .venv/bin/python resources/samples/make_sample.py

Options: ``--cough-source PATH`` (the recording the coughs are cut from),
``--cough-spans "46.261-46.741,155.092-155.632,..."`` (seconds in that file,
used in the given order, one per cough slot in the script), ``--seed``,
``--out-dir``. The output is deterministic for a given seed and inputs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf
import soxr

SAMPLE_RATE = 16_000
HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
DEFAULT_COUGH_SOURCE = Path("/work/shared/data/dev/dev_long_01.flac")
# Truth spans of real BMC "Cough" (2006) coughs in the default cough source.
# Order matters: cough slot k of the script uses span k (cycling).
DEFAULT_COUGH_SPANS = "155.092-155.632,194.455-195.085,46.261-46.741,286.093-286.653,416.565-417.065,418.09-418.55"

VOICES = {"doctor": "rms", "patient": "slt", "receptionist": "awb"}
VOICE_NAMES = {
    "rms": "Flite 2.2 cmu_us_rms (US male)",
    "slt": "Flite 2.2 cmu_us_slt (US female)",
    "awb": "Flite 2.2 cmu_us_awb (Scottish-English male)",
}

SPEECH_DBFS = -23.0  # RMS of the active part of every speech turn
COUGH_DBFS = -24.0  # RMS of every cough cut
ROOM_TONE_DBFS = -58.0  # RMS of the pink-noise room tone
PEAK_CEILING_DBFS = -1.0
LEAD_IN_S = 1.0
TAIL_S = 1.5
GAP_RANGE_S = (0.4, 1.2)
LONG_PAUSE_S = 4.0

# (kind, speaker, text). kind: "speech", "cough" or "pause" (the ~4 s pause).
# Numbers are spelt out so that the truth text is exactly what is spoken.
SCRIPT: list[tuple[str, str | None, str | None]] = [
    (
        "speech",
        "receptionist",
        ("Good morning. Missus Patel? The doctor is ready for you now. Room three, just on the left."),
    ),
    ("speech", "doctor", "Hello, come in and take a seat. What brings you in today?"),
    ("speech", "patient", "Hello doctor. I have had a tightness in my chest for about three days now."),
    ("speech", "doctor", "I am sorry to hear that. Does the tightness spread to your arm or your jaw?"),
    ("speech", "patient", "No, it stays in the middle of my chest. It feels worse when I cough."),
    ("speech", "doctor", "And how long have you had the cough?"),
    ("speech", "patient", "About a week. It is a dry cough, nothing comes up."),
    ("cough", "patient", None),
    ("speech", "patient", "Sorry. It is worse at night."),
    ("speech", "doctor", "Have you had a fever?"),
    ("speech", "patient", "Yes. I took my temperature at home, and it was thirty eight point four."),
    ("speech", "doctor", "Are you short of breath at all?"),
    ("speech", "patient", "Not when I am resting. Only a little on the stairs."),
    ("speech", "doctor", "Do you take any regular medication?"),
    ("speech", "patient", "Just amlodipine for my blood pressure. Five milligrams every morning."),
    ("cough", "patient", None),
    (
        "speech",
        "patient",
        (
            "To be honest, I am quite anxious about it. My father had a heart attack, "
            "and I keep worrying that this is my heart."
        ),
    ),
    ("speech", "doctor", ("That is completely understandable. Let me examine you. Take some deep breaths for me.")),
    ("pause", None, None),
    (
        "speech",
        "doctor",
        (
            "Your oxygen level is ninety seven percent, and your pulse is eighty eight. "
            "Your blood pressure is one thirty eight over eighty four."
        ),
    ),
    ("speech", "patient", "Is that bad?"),
    (
        "speech",
        "doctor",
        (
            "No, those are reassuring. I can hear a few crackles at the right base "
            "of your lung. Your temperature here is thirty eight point one."
        ),
    ),
    ("cough", "patient", None),
    (
        "speech",
        "doctor",
        (
            "I think this is most likely a chest infection, and the tightness is strain "
            "from the coughing. I will prescribe a course of antibiotics."
        ),
    ),
    ("speech", "patient", "Okay. Should I keep taking my amlodipine?"),
    ("speech", "doctor", "Yes, keep taking it as usual."),
    ("cough", "patient", None),
    (
        "speech",
        "doctor",
        ("If you become short of breath at rest, or the chest pain gets worse, call an ambulance straight away."),
    ),
    ("speech", "patient", "I will. Thank you, doctor."),
]


@dataclass
class Item:
    """One placed item of the timeline (speech, cough or silence)."""

    kind: str
    speaker: str | None
    text: str | None
    audio: np.ndarray | None  # None for silence
    duration_s: float
    source: str


def dbfs(x: np.ndarray) -> float:
    """RMS level of ``x`` in dBFS (-inf guarded)."""
    return float(20 * np.log10(np.sqrt(np.mean(np.square(x))) + 1e-12))


def set_rms(x: np.ndarray, target_dbfs: float) -> np.ndarray:
    """Scale ``x`` so that its RMS is ``target_dbfs``."""
    return x * 10 ** ((target_dbfs - dbfs(x)) / 20)


def active_rms_dbfs(x: np.ndarray, frame: int = 320) -> float:
    """RMS of the frames within 35 dB of the loudest frame (speech level)."""
    n = len(x) // frame
    frames = x[: n * frame].reshape(n, frame)
    levels = 10 * np.log10(np.mean(frames**2, axis=1) + 1e-12)
    active = frames[levels > levels.max() - 35]
    return dbfs(active.ravel())


def trim_silence(x: np.ndarray, frame: int = 160, margin_s: float = 0.03) -> np.ndarray:
    """Drop leading/trailing frames quieter than 45 dB below the loudest frame."""
    n = len(x) // frame
    levels = 10 * np.log10(np.mean(x[: n * frame].reshape(n, frame) ** 2, axis=1) + 1e-12)
    loud = np.flatnonzero(levels > levels.max() - 45)
    margin = int(margin_s * SAMPLE_RATE)
    start = max(0, loud[0] * frame - margin)
    end = min(len(x), (loud[-1] + 1) * frame + margin)
    return x[start:end]


def fade(x: np.ndarray, fade_s: float = 0.01) -> np.ndarray:
    """Apply short raised-cosine fades in and out (avoids clicks)."""
    n = min(int(fade_s * SAMPLE_RATE), len(x) // 2)
    if n == 0:
        return x
    ramp = 0.5 - 0.5 * np.cos(np.linspace(0, np.pi, n))
    y = x.copy()
    y[:n] *= ramp
    y[-n:] *= ramp[::-1]
    return y


def require_flite() -> str:
    """Return the flite executable, or exit with a clear message."""
    exe = shutil.which("flite")
    if exe is None:
        sys.exit(
            "error: 'flite' was not found on PATH. It synthesises the voices of "
            "the sample. Install it (Debian/Ubuntu: 'apt-get install flite') "
            "and run this script again."
        )
    return exe


def synthesise(flite: str, voice: str, text: str, workdir: Path) -> np.ndarray:
    """Speak ``text`` with flite ``voice``; return float32 mono at 16 kHz."""
    wav = workdir / "utt.wav"
    subprocess.run([flite, "-voice", voice, "-t", text, "-o", str(wav)], check=True)
    x, sr = sf.read(wav, dtype="float32", always_2d=True)
    x = x.mean(axis=1)
    if sr != SAMPLE_RATE:
        x = soxr.resample(x, sr, SAMPLE_RATE).astype(np.float32)
    return trim_silence(x)


def parse_spans(text: str) -> list[tuple[float, float]]:
    """Parse ``"a-b,c-d"`` (seconds) into a list of (start, end) pairs."""
    spans = []
    for part in text.split(","):
        start, end = (float(v) for v in part.strip().split("-"))
        if end <= start:
            raise argparse.ArgumentTypeError(f"bad cough span {part!r}")
        spans.append((start, end))
    if not spans:
        raise argparse.ArgumentTypeError("no cough spans given")
    return spans


def load_coughs(path: Path, spans: list[tuple[float, float]]) -> list[np.ndarray]:
    """Cut the cough spans out of ``path`` (any rate; mixed down to mono 16 kHz)."""
    if not path.exists():
        sys.exit(f"error: cough source {path} not found (see --cough-source)")
    x, sr = sf.read(path, dtype="float32", always_2d=True)
    x = x.mean(axis=1)
    if sr != SAMPLE_RATE:
        x = soxr.resample(x, sr, SAMPLE_RATE).astype(np.float32)
    coughs = []
    for start, end in spans:
        cut = x[round(start * SAMPLE_RATE) : round(end * SAMPLE_RATE)]
        coughs.append(fade(set_rms(cut.astype(np.float64), COUGH_DBFS), 0.005))
    return coughs


def pink_noise(n: int, rng: np.random.Generator, level_dbfs: float) -> np.ndarray:
    """Seeded pink (1/f power, above 40 Hz) noise of ``n`` samples at RMS ``level_dbfs``."""
    spectrum = np.fft.rfft(rng.standard_normal(n))
    freqs = np.fft.rfftfreq(n, d=1 / SAMPLE_RATE)
    gain = np.where(freqs >= 40.0, 1 / np.sqrt(np.maximum(freqs, 40.0)), 0.0)  # no rumble
    noise = np.fft.irfft(spectrum * gain, n)
    return set_rms(noise, level_dbfs)


def build_items(args: argparse.Namespace) -> list[Item]:
    """Synthesise the turns and interleave gaps, coughs and the long pause."""
    flite = require_flite()
    spans = parse_spans(args.cough_spans)
    coughs = load_coughs(args.cough_source, spans)
    rng = np.random.default_rng(args.seed)
    room = "room tone (generated pink noise)"
    items = [Item("silence", None, None, None, LEAD_IN_S, room)]
    cough_no = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, (kind, speaker, text) in enumerate(SCRIPT):
            if kind == "pause":
                items.append(Item("silence", None, None, None, LONG_PAUSE_S, room))
                continue
            if k > 0 and items[-1].kind != "silence":
                gap = float(np.round(rng.uniform(*GAP_RANGE_S), 3))
                if speaker == "patient" and SCRIPT[k - 1][0] == "cough":
                    gap = float(np.round(rng.uniform(0.3, 0.5), 3))  # "just before"
                items.append(Item("silence", None, None, None, gap, room))
            if kind == "cough":
                span = spans[cough_no % len(spans)]
                audio = coughs[cough_no % len(spans)]
                cough_no += 1
                source = (
                    f"BMC Cough 2006 (Smith et al., CC BY 2.0) via "
                    f"{args.cough_source.name} {span[0]:.3f}-{span[1]:.3f} s"
                )
                items.append(Item("cough", speaker, None, audio, len(audio) / SAMPLE_RATE, source))
                continue
            assert speaker is not None and text is not None
            voice = VOICES[speaker]
            x = synthesise(flite, voice, text, Path(tmp)).astype(np.float64)
            x = x * 10 ** ((SPEECH_DBFS - active_rms_dbfs(x)) / 20)
            x = fade(x, 0.005)
            items.append(Item("speech", speaker, text, x, len(x) / SAMPLE_RATE, VOICE_NAMES[voice]))
    items.append(Item("silence", None, None, None, TAIL_S, room))
    return items


def render(items: list[Item], seed: int) -> tuple[np.ndarray, list[dict[str, object]]]:
    """Lay the items on one timeline over room tone; return audio and truth rows."""
    lengths = [len(it.audio) if it.audio is not None else round(it.duration_s * SAMPLE_RATE) for it in items]
    total = sum(lengths)
    rng = np.random.default_rng(seed + 1)
    mix = pink_noise(total, rng, ROOM_TONE_DBFS)
    rows: list[dict[str, object]] = []
    pos = 0
    for n, (it, length) in enumerate(zip(items, lengths, strict=True)):
        if it.audio is not None:
            mix[pos : pos + length] += it.audio
        rows.append(
            {
                "id": f"consultation_{n:03d}",
                "start_s": round(pos / SAMPLE_RATE, 3),
                "end_s": round((pos + length) / SAMPLE_RATE, 3),
                "kind": it.kind,
                "speaker": it.speaker,
                "text": it.text,
                "source": it.source,
                "synthetic": it.kind != "cough",
            }
        )
        pos += length
    peak = float(np.max(np.abs(mix)))
    ceiling = 10 ** (PEAK_CEILING_DBFS / 20)
    if peak > ceiling:
        mix *= ceiling / peak
    return mix.astype(np.float32), rows


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--cough-source",
        type=Path,
        default=DEFAULT_COUGH_SOURCE,
        help="recording to cut the real coughs from (default: %(default)s)",
    )
    parser.add_argument(
        "--cough-spans",
        default=DEFAULT_COUGH_SPANS,
        help="comma-separated START-END seconds of coughs in the source, used in order (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=20240611, help="random seed")
    parser.add_argument("--out-dir", type=Path, default=HERE, help="output folder")
    args = parser.parse_args(argv)

    items = build_items(args)
    audio, rows = render(items, args.seed)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    flac = args.out_dir / "consultation.flac"
    sf.write(flac, audio, SAMPLE_RATE, format="FLAC", subtype="PCM_16", compression_level=1.0)
    duration = len(audio) / SAMPLE_RATE
    truth = {
        "recording": flac.name,
        "sample_rate": SAMPLE_RATE,
        "channels": 1,
        "duration_s": round(duration, 3),
        "seed": args.seed,
        "room_tone": f"pink noise at about {ROOM_TONE_DBFS:.0f} dBFS under the whole recording",
        "notes": "times in seconds from the start of the file; every placed item is "
        "listed and the items tile the timeline; speech is synthetic (flite); "
        "coughs are real recordings of other people (BMC Cough 2006) "
        "attributed to the patient; silence = room tone only",
        "speakers": {role: VOICE_NAMES[voice] for role, voice in VOICES.items()},
        "items": rows,
    }
    truth_path = args.out_dir / "consultation.truth.json"
    truth_path.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    counts = {k: sum(r["kind"] == k for r in rows) for k in ("speech", "cough", "silence")}
    print(f"wrote {flac} ({duration:.1f} s, {flac.stat().st_size / 1e6:.2f} MB) and {truth_path.name}: {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
