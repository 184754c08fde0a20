"""Make the ambient-sound test recordings: TTS consultations with telephones, knocks, a doorbell,
beeps / alarms, music and (crude) dog barks, between and under the speech, with a truth list.

    python benchmarks/sounds/make_ambient.py [--out benchmarks/sounds/audio]

Every sound is generated here from parameters written below (no recorded sound is used);
speech is Flite 2.2 (cmu_us_rms, cmu_us_slt, cmu_us_awb) and eSpeak NG. Deterministic
from the seed, except that another Flite / eSpeak NG build may say the lines differently.
Two recordings: ``ambient_mix_01`` (thresholds were chosen on it) and ``ambient_mix_02``
(other parameters, levels and voices; only scored).

Truth: one event per sound *sequence* (a phone ringing three times is one ``telephone``
event, three knocks are one ``knock`` event), [start, end] from its first onset to its last
offset, with ``under_speech`` when a TTS turn overlaps it and the level it was mixed at.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy.signal import butter, resample_poly, sosfilt

SR = 16000
HERE = Path(__file__).resolve().parent


# -- sounds ---------------------------------------------------------------------------------
def _t(sec: float) -> np.ndarray:
    return np.arange(int(round(sec * SR))) / SR


def _ramp(x: np.ndarray, ms: float = 8.0) -> np.ndarray:
    n = min(len(x) // 2, int(ms * SR / 1000))
    if n:
        w = np.linspace(0.0, 1.0, n)
        x = x.copy()
        x[:n] *= w
        x[-n:] *= w[::-1]
    return x


def _band(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return sosfilt(butter(4, [lo, hi], "bandpass", fs=SR, output="sos"), x)


def cadence_ring(freqs: tuple[float, ...], cadence: list[tuple[float, float]], cycles: int,
                 speaker: bool = True, trill_hz: float = 0.0) -> np.ndarray:
    """A tone ringer: the sum of ``freqs`` switched on/off by ``cadence`` [(on, off), ...] per cycle;
    ``speaker``: through a small loudspeaker (soft clipping, 300-4000 Hz); ``trill_hz``: on-off
    warble inside each burst (electronic ringers)."""
    out = []
    for c in range(cycles):
        for k, (on, off) in enumerate(cadence):
            t = _t(on)
            x = sum(np.sin(2 * np.pi * f * t) for f in freqs) / len(freqs)
            if trill_hz:
                x *= (np.sin(2 * np.pi * trill_hz * t) > 0).astype(float) * 0.8 + 0.2
            out.append(_ramp(x))
            last = c == cycles - 1 and k == len(cadence) - 1
            if not last:
                out.append(np.zeros(int(off * SR)))
    x = np.concatenate(out)
    if speaker:
        x = _band(np.tanh(2.5 * x), 300, 4000)
    return x


def bell_ring(f0: float, on: float, off: float, cycles: int, strike_hz: float = 20.0) -> np.ndarray:
    """An electromechanical bell: a clapper striking at ``strike_hz``; inharmonic partials decaying."""
    out = []
    for c in range(cycles):
        burst = np.zeros(int(on * SR) + int(0.3 * SR))
        for s in np.arange(0, on, 1 / strike_hz):
            t = _t(0.3)
            hit = sum(a * np.sin(2 * np.pi * f0 * r * t) * np.exp(-t / d)
                      for a, r, d in ((1.0, 1.0, 0.12), (0.6, 2.76, 0.06), (0.35, 5.4, 0.03), (0.2, 8.9, 0.02)))
            i = int(s * SR)
            burst[i:i + len(hit)] += hit
        out.append(burst)
        if c < cycles - 1:
            out.append(np.zeros(int((off - 0.3) * SR)))
    return np.concatenate(out)


def _note(f: float, dur: float, decay: float, partials=((1, 1.0), (2, 0.4), (3, 0.2), (4, 0.1))) -> np.ndarray:
    t = _t(dur)
    x = sum(a * np.sin(2 * np.pi * f * k * t) * np.exp(-t * k / decay) for k, a in partials)
    return _ramp(x, 3)


def ringtone(notes: list[float], note_s: float, repeats: int, gap_s: float) -> np.ndarray:
    """A mobile ringtone: a marimba-like melody, repeated with a pause, through a phone speaker."""
    phrase = np.concatenate([_note(f, note_s, 0.25, ((1, 1.0), (4, 0.3), (10, 0.05))) for f in notes])
    x = np.concatenate([np.concatenate([phrase, np.zeros(int(gap_s * SR))]) for _ in range(repeats)])[: -int(gap_s * SR) or None]
    return _band(np.tanh(2 * x), 400, 5000)


def knocks(times: list[float], rng: np.random.Generator, modes=((110, 0.06), (240, 0.04), (520, 0.02)),
           noise_band=(80.0, 3000.0), noise_decay=0.03, body=0.6) -> np.ndarray:
    """Knuckles on a wooden door: a band-limited noise impulse plus the door's low, damped modes, at ``times``."""
    out = np.zeros(int((times[-1] + 0.4) * SR))
    for s in times:
        t = _t(0.35)
        x = sum(np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi)) * np.exp(-t / d) for f, d in modes)
        n = _band(rng.normal(0, 1, len(t)), *noise_band) * np.exp(-t / noise_decay)
        x = body * x / np.abs(x).max() + n / np.abs(n).max()
        i = int(s * SR)
        out[i:i + len(x)] += x * rng.uniform(0.8, 1.0)
    return out


def beeps(freq: float, on: float, off: float, count: int, groups: int = 1, group_gap: float = 0.0) -> np.ndarray:
    """An electronic beeper: ``count`` beeps per group (``on``/``off`` seconds), ``groups`` groups."""
    one = np.concatenate([_ramp(np.sin(2 * np.pi * freq * _t(on)), 4), np.zeros(int(off * SR))])
    group = np.tile(one, count)[: -int(off * SR) or None]
    parts = []
    for g in range(groups):
        parts.append(group)
        if g < groups - 1:
            parts.append(np.zeros(int(group_gap * SR)))
    return np.concatenate(parts)


def doorbell(freqs=(659.3, 523.3)) -> np.ndarray:
    """Ding-dong: two struck bars, the second overlapping the first's ring."""
    ding = _note(freqs[0], 1.4, 0.6, ((1, 1.0), (3.9, 0.25), (2.0, 0.2)))
    dong = _note(freqs[1], 1.8, 0.7, ((1, 1.0), (3.9, 0.25), (2.0, 0.2)))
    x = np.zeros(int(2.4 * SR))
    x[: len(ding)] += ding
    x[int(0.6 * SR): int(0.6 * SR) + len(dong)] += dong
    return x


def music(seconds: float, rng: np.random.Generator, root: float = 261.6, bpm: float = 100) -> np.ndarray:
    """Background music: piano-like chords (I-vi-IV-V), a bass line and a melody."""
    beat = 60 / bpm
    prog = [(0, 4, 7), (9, 12, 16), (5, 9, 12), (7, 11, 14)]
    scale = [0, 2, 4, 5, 7, 9, 11, 12]
    x = np.zeros(int((seconds + 2) * SR))
    t, k = 0.0, 0
    while t < seconds:
        chord = prog[k % 4]
        for semi in chord:
            n = _note(root * 2 ** (semi / 12), 4 * beat, 0.8)
            i = int(t * SR)
            x[i:i + len(n)] += 0.25 * n
        b = _note(root / 2 * 2 ** (chord[0] / 12), 4 * beat, 1.0, ((1, 1.0), (2, 0.5)))
        x[int(t * SR): int(t * SR) + len(b)] += 0.4 * b
        for j in range(4):
            f = 2 * root * 2 ** (scale[int(rng.integers(0, len(scale)))] / 12)
            m = _note(f, beat, 0.3)
            i = int((t + j * beat) * SR)
            x[i:i + len(m)] += 0.3 * m
        t += 4 * beat
        k += 1
    x = x[: int(seconds * SR)]
    fade = min(len(x) // 4, SR)
    x[-fade:] *= np.linspace(1, 0, fade)
    x[:fade // 4] *= np.linspace(0, 1, fade // 4)
    return x


def barks(times: list[float], rng: np.random.Generator, f0: float = 550.0) -> np.ndarray:
    """A crude dog bark (a stand-in, not a recording): a harmonic burst with a falling pitch and
    breath noise through two formants, sharp onset. YAMNet may not hear it as a dog."""
    out = np.zeros(int((times[-1] + 0.4) * SR))
    for s in times:
        dur = rng.uniform(0.14, 0.2)
        t = _t(dur)
        f = f0 * (1.1 - 0.4 * t / dur)
        ph = 2 * np.pi * np.cumsum(f) / SR
        src = sum(np.sin(k * ph) / k for k in range(1, 12)) + 0.6 * rng.normal(0, 1, len(t))
        env = (1 - np.exp(-t / 0.008)) * np.exp(-t / (dur * 0.5))
        x = _band(src * env, 700, 1600) + 0.6 * _band(src * env, 2000, 3200)
        i = int(s * SR)
        out[i:i + len(x)] += x
    return out


def pink(n: int, rng: np.random.Generator) -> np.ndarray:
    spec = np.fft.rfft(rng.normal(0, 1, n))
    f = np.fft.rfftfreq(n, 1 / SR)
    spec[1:] /= np.sqrt(f[1:])
    spec[0] = 0
    x = np.fft.irfft(spec, n)
    return x / (np.sqrt(np.mean(x ** 2)) + 1e-12)


def _level(x: np.ndarray, dbfs: float, peak: bool = False) -> np.ndarray:
    ref = np.max(np.abs(x)) if peak else np.sqrt(np.mean(x[np.abs(x) > 1e-4] ** 2))
    return x * (10 ** (dbfs / 20) / (ref + 1e-12))


# -- speech ---------------------------------------------------------------------------------
def tts(text: str, voice: str) -> np.ndarray:
    with tempfile.TemporaryDirectory() as d:
        wav = Path(d) / "x.wav"
        if voice.startswith("espeak:"):
            subprocess.run(["espeak-ng", "-v", voice.split(":", 1)[1], "-s", "150", "-w", str(wav), text], check=True)
        else:
            subprocess.run(["flite", "-voice", voice, "-t", text, "-o", str(wav)], check=True)
        x, sr = sf.read(wav, dtype="float64")
    if x.ndim > 1:
        x = x.mean(1)
    if sr != SR:
        g = np.gcd(sr, SR)
        x = resample_poly(x, SR // g, sr // g)
    return _level(x, -20.0)


# Each scene item: ("say", voice, text) or ("sound", label, maker-name, level dBFS, peak?, under),
# where under=True starts the sound during the next spoken line instead of in a gap.
SCRIPTS: dict[str, dict] = {
    "ambient_mix_01": {
        "seed": 101,
        "voices": {"gp": "slt", "pt": "rms"},
        "scene": [
            ("say", "gp", "Good morning, come in and have a seat. What can I do for you today?"),
            ("say", "pt", "Morning doctor. I have had this pain in my lower back for about three weeks now."),
            ("sound", "telephone", "uk_ring", -24.0, False, False),
            ("say", "gp", "Sorry, let me just ignore that, reception will pick it up. Where exactly is the pain?"),
            ("say", "pt", "Just here, on the right side, and it goes down into my leg sometimes."),
            ("sound", "knock", "knock3", -10.0, True, False),
            ("say", "gp", "Come in. Ah, thank you, just leave the notes on the desk please."),
            ("say", "pt", "It gets worse when I sit for a long time, like at work."),
            ("sound", "music", "music_under", -33.0, False, True),
            ("say", "gp", "Does anything make it better, such as walking, or lying down flat?"),
            ("say", "pt", "Walking helps a bit. Lying down flat is fine, I sleep alright mostly."),
            ("say", "gp", "Any numbness or tingling in your feet, or problems passing water?"),
            ("say", "pt", "No, nothing like that at all."),
            ("sound", "alarm", "beep3", -26.0, False, False),
            ("say", "gp", "That's my timer for the next patient, don't worry. Let me have a look at your back."),
            ("sound", "telephone", "na_ring", -27.0, False, True),
            ("say", "gp", "Can you bend forward and try to touch your toes for me?"),
            ("say", "pt", "Ouch, that is about as far as I can go."),
            ("sound", "doorbell", "dingdong", -24.0, False, False),
            ("say", "gp", "And now lean back gently. Good. Now lift your right leg while lying down."),
            ("say", "pt", "That pulls a bit at the back of the thigh."),
            ("sound", "dog", "bark3", -16.0, True, False),
            ("say", "gp", "I think this is mechanical back pain with a little sciatica. It should settle."),
            ("say", "pt", "Should I stay off work?"),
            ("sound", "knock", "knock2_under", -10.0, True, True),
            ("say", "gp", "No, keeping active is the best thing. Take ibuprofen with food for a week."),
            ("say", "pt", "Alright. And if it does not get better?"),
            ("sound", "music", "music_gap", -28.0, False, False),
            ("say", "gp", "Come back in four weeks, or sooner if your leg goes numb. Take care."),
        ],
    },
    "ambient_mix_02": {
        "seed": 202,
        "voices": {"gp": "awb", "pt": "espeak:en-us+f3"},
        "scene": [
            ("say", "gp", "Hello there, please sit down. How have you been since the last visit?"),
            ("sound", "telephone", "mobile", -25.0, False, True),
            ("say", "pt", "Oh sorry, that's my phone, I'll switch it off. I've been coughing at night again."),
            ("say", "gp", "How long has the night time cough been going on?"),
            ("say", "pt", "About two weeks. My inhaler helps but I'm using it every day now."),
            ("sound", "alarm", "smoke_alarm", -28.0, False, False),
            ("say", "gp", "Goodness, that's the alarm next door, they test it on Tuesdays. Any wheeze or chest tightness?"),
            ("say", "pt", "A bit of tightness in the mornings, mostly when it is cold outside."),
            ("sound", "knock", "knock4", -12.0, True, False),
            ("say", "gp", "Just a minute. Yes? Thanks, I'll see to it after this. Sorry about that."),
            ("sound", "telephone", "bell", -26.0, False, False),
            ("say", "pt", "Do you want me to show you how I use my inhaler?"),
            ("say", "gp", "Yes please, show me the technique."),
            ("sound", "alarm", "monitor_beeps", -30.0, False, True),
            ("say", "pt", "I shake it, breathe out, then press and breathe in slowly."),
            ("sound", "dog", "bark2", -18.0, True, False),
            ("say", "gp", "That's good. I would like to add a preventer inhaler, twice a day."),
            ("sound", "music", "music_long", -34.0, False, True),
            ("say", "pt", "Will that have side effects? I don't like taking steroids."),
            ("say", "gp", "It is a low dose. Rinse your mouth after using it. Let's review in six weeks."),
            ("sound", "telephone", "uk_ring_line", -30.0, False, False),
            ("say", "pt", "Thank you doctor, see you then."),
        ],
    },
}


def make_sound(name: str, rng: np.random.Generator) -> np.ndarray:
    uk = [(0.4, 0.2), (0.4, 2.0)]
    return {
        "uk_ring": lambda: cadence_ring((400, 450), uk, 3),
        "uk_ring_line": lambda: _band(cadence_ring((400, 450), uk, 2, speaker=False), 300, 3400),
        "na_ring": lambda: cadence_ring((440, 480), [(2.0, 4.0)], 2),
        "mobile": lambda: ringtone([1318.5, 1174.7, 740.0, 830.6, 1108.7, 987.8, 587.3, 659.3, 987.8, 880.0, 554.4,
                                    659.3, 880.0], 0.16, 3, 0.6),
        "bell": lambda: bell_ring(700.0, 2.0, 4.0, 2, 25.0),
        "knock3": lambda: knocks([0.0, 0.22, 0.45], rng),
        "knock4": lambda: knocks([0.0, 0.25, 0.5, 0.75], rng, ((90, 0.08), (180, 0.05), (420, 0.03)), (60.0, 1500.0), 0.02),
        "knock2_under": lambda: knocks([0.0, 0.2, 0.4, 0.6], rng, ((100, 0.1), (230, 0.05)), (50.0, 800.0), 0.04, 1.0),
        "beep3": lambda: beeps(1000.0, 0.15, 0.15, 3, 2, 1.0),
        "smoke_alarm": lambda: beeps(3100.0, 0.5, 0.5, 3, 2, 1.5),
        "monitor_beeps": lambda: beeps(880.0, 0.1, 0.9, 5),
        "dingdong": lambda: doorbell(),
        "music_under": lambda: music(14.0, rng),
        "music_gap": lambda: music(8.0, rng, root=220.0, bpm=120),
        "music_long": lambda: music(20.0, rng, root=293.7, bpm=90),
        "bark3": lambda: barks([0.0, 0.4, 0.75], rng),
        "bark2": lambda: barks([0.0, 0.45], rng, f0=700.0),
    }[name]()


def build(name: str, spec: dict) -> tuple[np.ndarray, dict]:
    rng = np.random.default_rng(spec["seed"])
    voices = spec["voices"]
    pieces: list[tuple[float, np.ndarray]] = []  # (start, signal)
    truth: list[dict] = []
    t = 2.0
    busy = 0.0  # end of the last sound: a sound in a gap starts after it
    pending: tuple | None = None
    for item in spec["scene"]:
        if item[0] == "sound":
            _, label, maker, level, peak, under = item
            x = _level(make_sound(maker, rng), level, peak)
            if under:
                pending = (label, maker, level, x)
                continue
            t = max(t + 0.8, busy + 1.5)
            pieces.append((t, x))
            nz = np.flatnonzero(np.abs(x) > 1e-3 * np.abs(x).max())
            truth.append({"label": label, "start_s": round(t + nz[0] / SR, 3), "end_s": round(t + nz[-1] / SR, 3),
                          "source": maker, "level_dbfs": level, "level_is_peak": peak, "under_speech": False})
            t += len(x) / SR + 0.8
            busy = t
            continue
        _, who, text = item
        x = tts(text, voices[who])
        if pending is not None:  # the sound starts a second into this line
            label, maker, level, sx = pending
            s = t + 1.0
            pieces.append((s, sx))
            nz = np.flatnonzero(np.abs(sx) > 1e-3 * np.abs(sx).max())
            truth.append({"label": label, "start_s": round(s + nz[0] / SR, 3), "end_s": round(s + nz[-1] / SR, 3),
                          "source": maker, "level_dbfs": level, "level_is_peak": level_is_peak(maker),
                          "under_speech": True})
            busy = s + len(sx) / SR
            pending = None
        pieces.append((t, x))
        truth.append({"label": "speech", "start_s": round(t, 3), "end_s": round(t + len(x) / SR, 3), "speaker": who,
                      "voice": voices[who], "text": text})
        t += len(x) / SR + float(rng.uniform(0.5, 1.1))
    total = max(s + len(x) / SR for s, x in pieces) + 2.0
    out = _level(pink(int(total * SR), rng), -55.0)
    for s, x in pieces:
        i = int(s * SR)
        out[i:i + len(x)] += x
    sounds = [e for e in truth if e["label"] != "speech"]
    for e in sounds:  # a sound mixed "in a gap" may still run into the next line
        e["under_speech"] = e["under_speech"] or any(
            s["start_s"] < e["end_s"] and e["start_s"] < s["end_s"] for s in truth if s["label"] == "speech")
    meta = {"recording": f"{name}.flac", "sample_rate": SR, "duration_s": round(total, 3), "seed": spec["seed"],
            "generator": "benchmarks/sounds/make_ambient.py", "room_tone": "pink noise at -55 dBFS RMS",
            "notes": "one event per sound sequence; speech spans are TTS turns (text exactly as synthesised)",
            "events": sorted(truth, key=lambda e: e["start_s"])}
    return np.clip(out, -1, 1), meta


def level_is_peak(maker: str) -> bool:
    return maker.startswith(("knock", "bark"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE / "audio")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, spec in SCRIPTS.items():
        x, meta = build(name, spec)
        sf.write(args.out / f"{name}.flac", x.astype(np.float32), SR, subtype="PCM_16")
        (args.out / f"{name}.truth.json").write_text(json.dumps(meta, indent=1) + "\n")
        n = sum(e["label"] != "speech" for e in meta["events"])
        print(f"{name}: {meta['duration_s']:.1f} s, {n} sound events")


if __name__ == "__main__":
    main()
