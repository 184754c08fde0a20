"""Multi-speaker mixes for diarisation development (benchmarks/diar_eval.py scores them).

Written for the failure class bank_rec_03 showed without looking at it: many voices of one
synthesiser (eSpeak NG variants differ mostly in pitch and formants), a phone-band caller,
a quieter television voice, short replies ("Yes.", "Okay."), and short acted emotional lines
from the RAVDESS actors of shared/data/ser-train (01, 02, 05, 06, 24 only). Each mix is
written as FLAC + truth JSON (the bank's format: events with kind 'speech', speaker, times).

    .venv/bin/python benchmarks/diar/make_mixes.py [--out benchmarks/diar]

Needs ``flite`` and ``espeak-ng`` on PATH. Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf
import soxr

SR = 16000
RAVDESS = Path(__file__).resolve().parents[3] / "shared" / "data" / "ser-train"
SHORT = ["Yes.", "Okay.", "Right.", "No.", "Thank you.", "Mm, sure.", "I see."]


def _band(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / SR)
    return np.fft.irfft(spec * ((f >= lo) & (f <= hi)), len(x)).astype(np.float32)


def phone(x: np.ndarray) -> np.ndarray:
    """300-3400 Hz with a little soft clipping, as the bank's telephone()."""
    y = _band(x, 300.0, 3400.0)
    peak = float(np.max(np.abs(y))) + 1e-12
    return (np.tanh(1.5 * y / peak) * peak / np.tanh(1.5)).astype(np.float32)


def tv(x: np.ndarray) -> np.ndarray:
    """A small television speaker across the room: 150-6000 Hz and a short echo."""
    y = _band(x, 150.0, 6000.0)
    d = int(0.03 * SR)
    y[d:] += 0.35 * y[:-d]
    return y


def synth(voice: str, text: str, tmp: Path) -> np.ndarray:
    wav = tmp / "u.wav"
    if voice.startswith("flite:"):
        subprocess.run(["flite", "-voice", voice[6:], "-t", text, "-o", str(wav)], check=True)
    else:
        subprocess.run(["espeak-ng", "-v", voice[7:], "-s", "165", "-w", str(wav), text], check=True)
    x, sr = sf.read(wav, dtype="float32", always_2d=True)
    x = soxr.resample(x.mean(axis=1), sr, SR).astype(np.float32) if sr != SR else x.mean(axis=1)
    loud = np.flatnonzero(np.abs(x) > 0.01 * np.max(np.abs(x)))
    return x[loud[0]: loud[-1] + 1] if len(loud) else x


def ravdess(actor: int, emotion: str, statement: str, intensity: str = "02") -> tuple[np.ndarray, str]:
    path = RAVDESS / f"Actor_{actor:02d}" / f"03-01-{emotion}-{intensity}-{statement}-01-{actor:02d}.flac"
    x, sr = sf.read(path, dtype="float32", always_2d=True)
    x = x.mean(axis=1)
    x = soxr.resample(x, sr, SR).astype(np.float32) if sr != SR else x
    loud = np.flatnonzero(np.abs(x) > 0.05 * np.max(np.abs(x)))
    text = {"01": "Kids are talking by the door", "02": "Dogs are sitting by the door"}[statement]
    return x[loud[0]: loud[-1] + 1], text


# (speaker, voice, channel, level dBFS, description)
MIX_A = {
    "clinician": ("espeak:en-gb+m3", "room", -24, "eSpeak NG en-gb, variant m3"),
    "patient": ("espeak:en-us+f2", "room", -24, "eSpeak NG en-us, variant f2"),
    "daughter": ("espeak:en-us+f4", "room", -25, "eSpeak NG en-us, variant f4"),
    "receptionist": ("flite:kal16", "room", -26, "Flite kal16 (diphone)"),
    "tv_news": ("espeak:en-gb-x-rp+m1", "tv", -31, "eSpeak NG en-gb-x-rp, variant m1, television"),
    "caller": ("espeak:en-gb-scotland+m2", "phone", -25, "eSpeak NG en-gb-scotland, variant m2, telephone band"),
    "ravdess_actor05": ("ravdess:5", "room", -27, "RAVDESS actor 05 (male), acted"),
    "ravdess_actor24": ("ravdess:24", "room", -27, "RAVDESS actor 24 (female), acted"),
}
SCRIPT_A = [
    ("tv_news", "Good evening. Here is the news at six. Storms are expected across the north tonight."),
    ("tv_news", "The council has approved the new bypass after a long public inquiry."),
    ("ravdess_actor05", ("05", "01")),
    ("receptionist", "Mrs Clarke? The doctor will see you now, room three on the left."),
    ("patient", "Thank you."),
    ("tv_news", "In sport, the county side won their third match in a row."),
    ("clinician", "Come in and have a seat. What brings you in today?"),
    ("patient", "I've been getting headaches most mornings for about two weeks."),
    ("clinician", "Are they worse when you bend over or cough?"),
    ("patient", "No."),
    ("daughter", "She has been taking paracetamol every day though, sometimes twice."),
    ("clinician", "How much paracetamol in a day, roughly?"),
    ("patient", "Two tablets in the morning, two at night."),
    ("clinician", "Okay."),
    ("daughter", "And she isn't sleeping well, Mum, tell him about the nights."),
    ("patient", "I wake at three and can't get back to sleep, it's been weeks."),
    ("clinician", "Any problems with your eyesight, or weakness in your arms or legs?"),
    ("patient", "No, nothing like that."),
    ("clinician", "Let me check your blood pressure. Roll up your sleeve for me."),
    ("daughter", "Right."),
    ("clinician", "It's a little high, one fifty over ninety five."),
    ("patient", "Is that bad?"),
    ("clinician", "Not dangerous today, but we should measure it again next week."),
    ("caller", "Hello, is that the surgery? I'm ringing about my repeat prescription."),
    ("receptionist", "Yes, can I take your date of birth please?"),
    ("caller", "Fourth of March, nineteen fifty two."),
    ("receptionist", "Thank you. It will be ready on Thursday afternoon."),
    ("caller", "Lovely, thanks very much. Bye now."),
    ("ravdess_actor24", ("04", "02")),
    ("clinician", "I'd like you to cut the paracetamol down and keep a headache diary."),
    ("daughter", "I can help her with that."),
    ("patient", "Yes."),
    ("clinician", "Good. Come back in a week and we'll go through it together."),
    ("patient", "Thank you, doctor."),
    ("ravdess_actor05", ("05", "02")),
    ("tv_news", "And now the weather. Heavy rain will clear by the morning."),
    ("ravdess_actor24", ("03", "01")),
]
MIX_B = {
    "clinician": ("flite:slt", "room", -24, "Flite slt (US female)"),
    "patient": ("espeak:en+f3", "room", -24, "eSpeak NG en, variant f3"),
    "husband": ("flite:rms", "room", -25, "Flite rms (US male)"),
    "nurse": ("espeak:en-029+m4", "room", -25, "eSpeak NG en-029, variant m4"),
    "pharmacist": ("flite:awb", "phone", -25, "Flite awb, telephone band"),
    "visitor": ("espeak:en-us+m7", "room", -26, "eSpeak NG en-us, variant m7"),
    "ravdess_actor01": ("ravdess:1", "room", -27, "RAVDESS actor 01 (male), acted"),
    "ravdess_actor02": ("ravdess:2", "room", -27, "RAVDESS actor 02 (female), acted"),
    "ravdess_actor06": ("ravdess:6", "room", -27, "RAVDESS actor 06 (female), acted"),
}
SCRIPT_B = [
    ("ravdess_actor02", ("06", "01")),
    ("visitor", "Excuse me, is anyone sitting here?"),
    ("ravdess_actor06", ("05", "02")),
    ("visitor", "Sorry, I'll find another seat."),
    ("nurse", "Mr and Mrs Patel? Follow me please, the doctor is ready."),
    ("husband", "Come on, love."),
    ("clinician", "Hello both. How has the breathing been since the new inhaler?"),
    ("patient", "Better in the day, but I still wake up coughing at night."),
    ("husband", "She coughs for an hour some nights. I hear it through the wall."),
    ("clinician", "Is the cough dry, or do you bring anything up?"),
    ("patient", "Mostly dry."),
    ("clinician", "Okay. Do you use the brown inhaler every morning and evening?"),
    ("patient", "I forget the evening one sometimes."),
    ("husband", "Most times, to be honest."),
    ("clinician", "That would explain the nights. Let me listen to your chest."),
    ("clinician", "Deep breath in, and out. And again."),
    ("patient", "Yes."),
    ("clinician", "A little wheeze on the right, nothing worse."),
    ("nurse", "Doctor, the pharmacy is on line two about Mrs Patel's prescription."),
    ("clinician", "Put them through, thank you."),
    ("pharmacist", "Hello doctor, the spacer you asked for is out of stock until Monday."),
    ("clinician", "Monday is fine. Please text her when it arrives."),
    ("pharmacist", "Will do. Thanks, bye."),
    ("ravdess_actor01", ("08", "01")),
    ("clinician", "Use the brown inhaler twice a day, every day, even when you feel well."),
    ("patient", "Okay."),
    ("husband", "I'll put a reminder on her phone."),
    ("clinician", "Good idea. See you in four weeks."),
    ("patient", "Thank you."),
    ("ravdess_actor06", ("04", "01")),
    ("visitor", "Is this the queue for the blood tests?"),
    ("nurse", "Yes, take a ticket from the machine please."),
    ("ravdess_actor02", ("03", "02")),
]


def render(voices: dict, script: list, seed: int, tmp: Path) -> tuple[np.ndarray, list[dict]]:
    rng = np.random.default_rng(seed)
    parts, events, t = [np.zeros(int(1.5 * SR), np.float32)], [], 1.5
    for i, (spk, what) in enumerate(script):
        voice, channel, level, _ = voices[spk]
        if voice.startswith("ravdess:"):
            x, text = ravdess(int(voice[8:]), *what)
        else:
            x, text = synth(voice, what, tmp), what
        x = {"phone": phone, "tv": tv}.get(channel, lambda y: y)(x)
        rms = float(np.sqrt(np.mean(x.astype(np.float64) ** 2))) + 1e-9
        x = (x * 10 ** (level / 20) / rms).astype(np.float32)
        events.append({"id": f"e{i:03d}", "start_s": round(t, 3), "end_s": round(t + len(x) / SR, 3), "kind": "speech",
                       "speaker": spk, "text": text, "channel": channel, "voice": voice})
        gap = float(rng.uniform(0.25, 0.9)) if rng.random() < 0.8 else float(rng.uniform(1.5, 3.0))
        parts += [x, np.zeros(int(gap * SR), np.float32)]
        t += len(x) / SR + gap
    audio = np.concatenate(parts)
    noise = np.cumsum(rng.standard_normal(len(audio))).astype(np.float32)  # brown-ish room tone
    noise = _band(noise - np.convolve(noise, np.ones(800) / 800, "same"), 60, 7000)
    audio += noise * (10 ** (-58 / 20) / (float(np.sqrt(np.mean(noise**2))) + 1e-9))
    return audio, events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, voices, script, seed in (("diar_mix_a", MIX_A, SCRIPT_A, 11), ("diar_mix_b", MIX_B, SCRIPT_B, 12)):
            audio, events = render(voices, script, seed, Path(tmp))
            sf.write(args.out / f"{name}.flac", audio, SR, subtype="PCM_16")
            truth = {"recording": f"{name}.flac", "sample_rate": SR, "duration_s": round(len(audio) / SR, 3),
                     "generator": "benchmarks/diar/make_mixes.py",
                     "speakers": {k: {"voice": v[0], "channel": v[1], "description": v[3]} for k, v in voices.items()},
                     "events": events}
            (args.out / f"{name}.truth.json").write_text(json.dumps(truth, indent=1))
            print(f"{name}: {len(audio) / SR:.0f} s, {len(voices)} speakers, {len(events)} turns")


if __name__ == "__main__":
    main()
