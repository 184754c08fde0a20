"""Generate the thirteen long question-bank test recordings (bank_rec_01, _02, ..., _12, _13).

All recordings are built entirely offline and deterministically (seeded) from
redistributable parts (see ``audio/LICENSES.md``):

* speech: Flite 2.2 text-to-speech (CMU ARCTIC voices ``slt``, ``rms``, ``awb``
  and the ``kal16`` diphone voice; bank_rec_03: eSpeak NG 1.51 voices; bank_rec_04 to _13: both; bank_rec_11 also
  eSpeak NG's Polish voice) reading scripts written for this bank; the truth text of every turn is exactly the
  text that was synthesised;
* coughs: real coughs (BMC "Cough" 2006, Smith et al., CC BY 2.0) cut from
  the shared development recording ``dev_long_01.flac`` at the cough spans
  listed in its truth file (the same source ``resources/samples/make_sample.py``
  uses), plus the shared cue cough ``dev/cues/dev_cue_cough.flac`` (BMC S5);
* emotional acted speech: RAVDESS clips (Livingstone & Russo 2018,
  CC BY-NC-SA 4.0, evaluation use only) of actors 01, 02, 05, 06 and 24 from
  ``/work/shared/data/ser-train/``;
* room tone / telephone line noise / ring-back and desk-phone ring / alarm beeps / a door chime / a tannoy chime and
  the tannoy's loudspeaker band-limit and reverberation: generated (seeded).

``bank_rec_01``: waiting room (a newspaper sports story read aloud, full of
symptom words used non-clinically; a bystander coughs), a GP consultation about
abdominal pain and diarrhoea (female clinician), then a telephone call
(band-limited to 300-3400 Hz) in which the receptionist books a blood test.

``bank_rec_02``: waiting room with emotional RAVDESS lines and a long silence,
an asthma / palpitations review with the patient's husband present (three
speakers; real coughs, some overlapping the end of speech; a silent minute of
pulse counting), then back in the waiting room.

``bank_rec_03``: waiting room with the TV news and weather (symptom words used
non-clinically) and RAVDESS lines, a type 2 diabetes review (numb, burning feet;
foot examination; diabetic neuropathy) with the patient's daughter answering
too, then the waiting room again, where the desk phone rings and the
receptionist takes a work call (one side heard) and books the nurse.

``bank_rec_04`` (built by ``rec04.py`` next to this file): a nurse triage
telephone call about a child with fever and a rash that does not fade, a GP
consultation of another (adult) patient about low mood, anxiety, insomnia and
knee pain with her husband present (real coughs, RAVDESS lines of a visitor in
the corridor, a ~20 s silence), then the GP's dictation of the letter.

``bank_rec_05`` (built by ``rec05.py``): a community pharmacy counter (customers' RAVDESS remarks, a
customer's cough), the pharmacist's structured medication review of an 81-year-old woman with heart
failure with her son answering too (real coughs of an ACE-inhibitor cough, weight, blood pressure sitting
and standing, oxygen saturation, silent pauses, the room's phone ringing), then the hospital heart-failure
pharmacist's telephone call to the son about the medicine change (ramipril to sacubitril/valsartan).

``bank_rec_06`` (built by ``rec06.py``): an out-of-hours urgent treatment centre's waiting area (reception,
other people's RAVDESS remarks, a bystander's coughs, the desk phone), an advanced clinical practitioner's
consultation of a 79-year-old woman after a fall on her outstretched hand (suspected wrist fracture) who also has
a chest infection, with her sister answering too (real coughs, observations after silent pauses), then the
practitioner's handover to the night doctor (this patient and an unrelated child).

``bank_rec_07`` (built by ``rec07.py``): a GP surgery waiting area (a picture book read aloud with symptom words
used non-clinically, the desk phone, other people's RAVDESS remarks, a bystander's coughs), a same-day GP
consultation of a six-year-old boy with his mother answering most questions for him (left acute otitis media;
her own asthma and penicillin allergy, his sister's sore throat, his grandfather's history; real coughs; a
back-up amoxicillin prescription and a safety-net), then the GP's telephone follow-up three days later (band-limited).

``bank_rec_08`` (built by ``rec08.py``): a hospital respiratory clinic waiting area (the television's news and
weather with symptom words used non-clinically, a healthcare assistant at the door, other people's RAVDESS remarks,
a bystander's cough), a respiratory nurse's COPD review of a 71-year-old man with his wife answering for him at
times and mentioning her own arthritis and cough (real coughs, one under the wife's speech; observations after
silent pauses; inhaler technique; a rescue pack), then the nurse's phone call three days later (band-limited: the
sputum result changes the rescue-pack antibiotic; a new sore mouth).

``bank_rec_09`` (built by ``rec09.py``): a hospital medical ward bay in the morning (the nurse and a healthcare
assistant doing another patient's observations, a confused man in the next bed calling out with symptom words used
figuratively, an infusion-pump alarm as a generated beep pattern, other people's RAVDESS remarks, a visitor's cough),
the consultant's ward round of a 68-year-old man with community-acquired pneumonia (the junior doctor presents him in
the third person and he corrects her once; the nurse reports observations; real coughs; examination; intravenous to
oral antibiotics; a safety-net to the nurse; his worry about his wife at home), then the junior doctor's phone update
to his daughter (band-limited).

``bank_rec_10`` (built by ``rec10.py``): a GP home visit: the hallway on arrival (a generated door chime, the son's own
bad knee and hay fever, the television in the front room, the daughter-in-law on her mobile about the patient's tablets,
the neighbour and the grandson as RAVDESS lines, the patient's and the son's coughs), the consultation of an
86-year-old woman with worsening heart failure and a fall in her front room (her daughter-in-law answers for her at
times and contradicts her; real coughs; the examination aloud; the diuretic increased; a safety-net), then the GP's
speakerphone call to the district nurses (only the far side band-limited).

``bank_rec_11`` (built by ``rec11.py``): a GP practice waiting room (the patient's grandson checks her in and declines
a telephone interpreter, another patient's father and four-year-old daughter, the practice nurse, other people's
RAVDESS remarks, a bystander's cough), an interpreted consultation of an 81-year-old Polish woman who speaks little
English, her grandson interpreting (Polish turns by eSpeak NG's Polish voice, relayed in the third person; her own
few English words; one mistranslation she corrects; black stools after a denial of blood: a suspected bleeding ulcer
on ibuprofen and aspirin; his own heartburn and opinion; real coughs; a safety-net), the GP's speakerphone call to the
hospital's acute medical registrar (only the far side band-limited), the goodbye and the corridor.

``bank_rec_12`` (built by ``rec12.py``): a maternity triage phone call the evening before (band-limited, both sides:
reduced fetal movements that came back, a headache, a safety-net), a community midwife's 34-week antenatal home visit
in the living room (the partner answers for her at times and contradicts her on the headaches, his own hay fever and
cough; their three-year-old; the television for a minute; a door chime, a delivery driver and the neighbour at the
door; the examination read out after silent pauses: raised blood pressure with protein, possible pre-eclampsia; the
maternity assessment unit today; a safety-net read back), then the midwife's voice memo in her car (clinical
shorthand, one spoken correction).

``bank_rec_13`` (built by ``rec13.py``): an emergency department majors cubicle: a paramedic's ATMIST handover of a
72-year-old man with chest pain and palpitations (the patient corrects his age; the observations read out as numbers;
aspirin and GTN given; the cardiac monitor alarms; a tannoy announcement after a chime), the ED doctor's assessment
(his wife arrives part-way, answers for him at times, contradicts him on how long last night's pain lasted and mentions
her own health; a statin he stopped himself; the examination and the ECG read aloud after silent pauses: new atrial
fibrillation with lateral S T depression, the troponin pending; real coughs; a cough and RAVDESS lines from the next
cubicle; a safety-net to the nurse), the doctor's phone referral to the cardiology registrar (band-limited, both sides:
the numbers again, the troponin now back; accepted), then the nurse telling the patient and his wife the plan.

Run from the repository root (needs ``flite``, and ``espeak-ng`` for bank_rec_03 to _13)::

    .venv/bin/python benchmarks/bank/make_recordings.py

Options: ``--seed`` (default 20250301), ``--out-dir`` (default
``benchmarks/bank/audio``), ``--only bank_rec_01|...|bank_rec_13``,
``--cough-source`` (default ``/work/shared/data/dev/dev_long_01.flac``; its
``.truth.json`` must sit beside it), ``--cue-cough`` (default
``/work/shared/data/dev/cues/dev_cue_cough.flac``), ``--ravdess-dir`` (default
``/work/shared/data/ser-train``). ``audio/LICENSES.md`` is rewritten only when
all thirteen recordings are built.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import soundfile as sf
import soxr

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
sys.path.insert(0, str(REPO_ROOT / "resources" / "samples"))

from make_sample import (  # noqa: E402  (reuse the bundled sample's building blocks)
    PEAK_CEILING_DBFS,
    SAMPLE_RATE,
    active_rms_dbfs,
    dbfs,
    fade,
    load_coughs,
    pink_noise,
    require_flite,
    set_rms,
    synthesise,
    trim_silence,
)

DEFAULT_SEED = 20250301
DEFAULT_COUGH_SOURCE = Path("/work/shared/data/dev/dev_long_01.flac")
DEFAULT_RAVDESS_DIR = Path("/work/shared/data/ser-train")
ALLOWED_RAVDESS_ACTORS = {1, 2, 5, 6, 24}

SPEECH_DBFS = -23.0  # active RMS of a TTS turn in the room
READER_DBFS = -25.0  # the waiting-room reader (a little further away)
PHONE_DBFS = -24.0  # telephone speech (after band-limiting)
EMOTION_DBFS = -26.0  # RAVDESS lines of other people in the waiting room
COUGH_DBFS = -24.0
RING_DBFS = -30.0
BED_DBFS = {"consultation": -58.0, "waiting": -50.0, "phone": -47.0}
MIN_SILENCE_S = 1.5  # gaps at least this long (no event at all) are listed as silence
TAIL_S = 2.0
PHONE_BAND_HZ = (300.0, 3400.0)

VOICES = {
    "slt": "Flite 2.2 cmu_us_slt (clustergen, US female)",
    "rms": "Flite 2.2 cmu_us_rms (clustergen, US male)",
    "awb": "Flite 2.2 cmu_us_awb (clustergen, Scottish-English male)",
    "kal16": "Flite 2.2 cmu_us_kal16 (diphone, US male)",
}
VOICE_GENDER = {"slt": "F", "rms": "M", "awb": "M", "kal16": "M"}

# bank_rec_03 uses eSpeak NG voices (none of the Flite voices above); key "espeak:<voice>+<variant>"
ESPEAK_RATE_WPM = {  # speaking rate per voice (words per minute)
    "en-gb-x-rp+f3": 168,
    "en-gb-x-gbclan": 160,
    "en-us+f2": 175,
    "en-gb-scotland": 175,
    "en-gb-x-rp+m3": 175,
    "en-us+f4": 170,  # bank_rec_04
    "en-gb-x-gbcwmd+f2": 160,  # bank_rec_04
    "en-gb-scotland+f5": 150,  # bank_rec_05 (an older woman, a little slower)
    "en-us+m3": 170,  # bank_rec_05
    "en-gb-x-rp+f4": 165,  # bank_rec_05
    "en-us-nyc": 165,  # bank_rec_06 (the practitioner)
    "en-gb-x-rp+f2": 150,  # bank_rec_06 (a woman of 79, a little slower)
    "en-gb-x-rp+m7": 160,  # bank_rec_07 (the GP)
    "en-gb-x-rp+f5@p90": 165,  # bank_rec_07 (a boy of six: pitch raised to 90)
    "en-us+f5": 155,  # bank_rec_08 (the respiratory nurse)
    "en-us+grandma@p30": 150,  # bank_rec_08 (the patient's wife: pitch lowered to 30)
    "en-us+m6": 160,  # bank_rec_08 (the healthcare assistant)
    "en-gb-x-rp+m1": 165,  # bank_rec_08 (the waiting-area television)
    "en-gb-x-rp+m2": 160,  # bank_rec_09 (the consultant)
    "en-us+f3": 165,  # bank_rec_09 (the ward nurse)
    "en-gb-x-gbclan+f4": 150,  # bank_rec_09 (another patient in the bay)
    "en-gb-scotland+m5": 145,  # bank_rec_09 (a confused elderly man in the next bed)
    "en-gb-x-rp+m8": 155,  # bank_rec_10 (the GP)
    "en-gb-scotland+f2": 145,  # bank_rec_10 (a woman of 86, a little slower)
    "en-us+m4": 165,  # bank_rec_10 (the television)
    "en-gb-x-rp+f1": 140,  # bank_rec_11 (a Polish woman of 81: her few English words, slowly)
    "pl+f1": 140,  # bank_rec_11 (the same woman in Polish: eSpeak NG's Polish voice, the same variant)
    "en-gb-x-rp+m6": 170,  # bank_rec_11 (her grandson, interpreting)
    "pl+m6": 155,  # bank_rec_11 (the grandson in Polish)
    "en-gb-x-rp+f3@p95": 165,  # bank_rec_11 (a girl of four: pitch raised to 95)
    "en-gb-x-gbclan+f2": 160,  # bank_rec_11 (the practice nurse)
    "en-us+Annie": 165,  # bank_rec_12 (the community midwife)
    "en-gb-x-gbclan+f5@p95": 160,  # bank_rec_12 (a boy of three: pitch raised to 95)
    "en-us+f2@p45": 160,  # bank_rec_12 (the triage midwife on the phone: pitch lowered a little, to 45)
    "en-gb-x-rp+edward": 150,  # bank_rec_13 (the ED doctor; 150 wpm: clearer through the telephone band)
    "en-us+f1": 165,  # bank_rec_13 (the ED nurse)
    "en-gb-x-rp+announcer": 150,  # bank_rec_13 (the tannoy, through a generated loudspeaker band-limit and reverb)
}
VOICES.update(
    {
        "espeak:en-gb-x-rp+f3": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant f3 (female)",
        "espeak:en-gb-x-gbclan": "eSpeak NG 1.51 en-gb-x-gbclan (Lancashire English, male)",
        "espeak:en-us+f2": "eSpeak NG 1.51 en-us (American English) with variant f2 (female)",
        "espeak:en-gb-scotland": "eSpeak NG 1.51 en-gb-scotland (Scottish English, male)",
        "espeak:en-gb-x-rp+m3": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant m3 (male)",
        "espeak:en-us+f4": "eSpeak NG 1.51 en-us (American English) with variant f4 (female)",
        "espeak:en-gb-x-gbcwmd+f2": "eSpeak NG 1.51 en-gb-x-gbcwmd (West Midlands English) with variant f2 (female)",
        "espeak:en-gb-scotland+f5": "eSpeak NG 1.51 en-gb-scotland (Scottish English) with variant f5 (female)",
        "espeak:en-us+m3": "eSpeak NG 1.51 en-us (American English) with variant m3 (male)",
        "espeak:en-gb-x-rp+f4": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant f4 (female)",
        "espeak:en-us-nyc": "eSpeak NG 1.51 en-us-nyc (American English, New York City; male)",
        "espeak:en-gb-x-rp+f2": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant f2 (female)",
        "espeak:en-gb-x-rp+m7": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant m7 (male)",
        "espeak:en-gb-x-rp+f5@p90": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant f5, pitch 90 "
        "(-p 90; a child's voice)",
        "espeak:en-us+f5": "eSpeak NG 1.51 en-us (American English) with variant f5 (female)",
        "espeak:en-us+grandma@p30": "eSpeak NG 1.51 en-us (American English) with variant grandma, pitch 30 (-p 30; "
        "an older woman)",
        "espeak:en-us+m6": "eSpeak NG 1.51 en-us (American English) with variant m6 (male)",
        "espeak:en-gb-x-rp+m1": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant m1 (male)",
        "espeak:en-gb-x-rp+m2": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant m2 (male)",
        "espeak:en-us+f3": "eSpeak NG 1.51 en-us (American English) with variant f3 (female)",
        "espeak:en-gb-x-gbclan+f4": "eSpeak NG 1.51 en-gb-x-gbclan (Lancashire English) with variant f4 (female)",
        "espeak:en-gb-scotland+m5": "eSpeak NG 1.51 en-gb-scotland (Scottish English) with variant m5 (male)",
        "espeak:en-gb-x-rp+m8": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant m8 (male)",
        "espeak:en-gb-scotland+f2": "eSpeak NG 1.51 en-gb-scotland (Scottish English) with variant f2 (female)",
        "espeak:en-us+m4": "eSpeak NG 1.51 en-us (American English) with variant m4 (male)",
        "espeak:en-gb-x-rp+f1": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant f1 (female)",
        "espeak:pl+f1": "eSpeak NG 1.51 pl (Polish) with variant f1 (female)",
        "espeak:en-gb-x-rp+m6": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant m6 (male)",
        "espeak:pl+m6": "eSpeak NG 1.51 pl (Polish) with variant m6 (male)",
        "espeak:en-gb-x-rp+f3@p95": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant f3, pitch 95 "
        "(-p 95; a child's voice)",
        "espeak:en-gb-x-gbclan+f2": "eSpeak NG 1.51 en-gb-x-gbclan (Lancashire English) with variant f2 (female)",
        "espeak:en-us+Annie": "eSpeak NG 1.51 en-us (American English) with variant Annie (female)",
        "espeak:en-gb-x-gbclan+f5@p95": "eSpeak NG 1.51 en-gb-x-gbclan (Lancashire English) with variant f5, pitch 95 "
        "(-p 95; a child's voice)",
        "espeak:en-us+f2@p45": "eSpeak NG 1.51 en-us (American English) with variant f2, pitch 45 (-p 45; female)",
        "espeak:en-gb-x-rp+edward": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant edward (male)",
        "espeak:en-us+f1": "eSpeak NG 1.51 en-us (American English) with variant f1 (female)",
        "espeak:en-gb-x-rp+announcer": "eSpeak NG 1.51 en-gb-x-rp (Received Pronunciation) with variant announcer "
        "(male)",
    }
)


def voice_label(voice: str) -> str:
    """Truth label of a TTS voice: ``flite_slt`` or ``espeak-ng_en-gb-x-rp+f3``."""
    if voice.startswith("espeak:"):
        return "espeak-ng_" + voice.split(":", 1)[1]
    return f"flite_{voice}"


def require_espeak() -> str:
    """Return the espeak-ng executable, or exit with a clear message (bank_rec_03 to _08 need it)."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        sys.exit("error: 'espeak-ng' was not found on PATH; bank_rec_03 to _08 need it (apt-get install espeak-ng)")
    return exe


def synthesise_espeak(voice: str, text: str, workdir: Path) -> np.ndarray:
    """Speak ``text`` with eSpeak NG ``voice`` at its ESPEAK_RATE_WPM; return float mono at 16 kHz.

    A key ``name@pNN`` speaks voice ``name`` with base pitch ``NN`` (``-p NN``; bank_rec_07's child, bank_rec_08's
    wife).
    """
    wav = workdir / "utt_espeak.wav"
    rate = ESPEAK_RATE_WPM[voice]
    name, _, pitch = voice.partition("@p")
    extra = ["-p", pitch] if pitch else []
    subprocess.run([require_espeak(), "-v", name, *extra, "-s", str(rate), "-w", str(wav), text], check=True)
    x, sr = sf.read(wav, dtype="float32", always_2d=True)
    x = x.mean(axis=1)
    if sr != SAMPLE_RATE:
        x = soxr.resample(x, sr, SAMPLE_RATE).astype(np.float32)
    return trim_silence(x)


EMOTIONS = {
    "01": "neutral",
    "02": "calm",
    "03": "happy",
    "04": "sad",
    "05": "angry",
    "06": "fearful",
    "07": "disgust",
    "08": "surprised",
}
INTENSITIES = {"01": "normal", "02": "strong"}
STATEMENTS = {"01": "Kids are talking by the door", "02": "Dogs are sitting by the door"}


def parse_ravdess(name: str) -> dict[str, object]:
    """Decode a RAVDESS file name ``MM-VV-EE-II-SS-RR-AA`` (extension ignored)."""
    parts = Path(name).stem.split("-")
    if len(parts) != 7:
        raise ValueError(f"not a RAVDESS file name: {name}")
    _modality, vocal, emo, inten, stmt, rep, actor = parts
    if vocal != "01":
        raise ValueError(f"{name}: not speech (vocal channel {vocal})")
    actor_no = int(actor)
    return {
        "emotion": EMOTIONS[emo],
        "intensity": INTENSITIES[inten],
        "statement": STATEMENTS[stmt],
        "repetition": int(rep),
        "actor": actor_no,
        "gender": "M" if actor_no % 2 else "F",
    }


def bandpass(x: np.ndarray, lo: float, hi: float, taper: float = 150.0) -> np.ndarray:
    """Zero-phase FFT band-pass with raised-cosine skirts ``taper`` Hz wide."""
    n = len(x)
    spec = np.fft.rfft(x, n)
    f = np.fft.rfftfreq(n, d=1 / SAMPLE_RATE)
    g = np.zeros_like(f)
    g[(f >= lo) & (f <= hi)] = 1.0
    low = (f > lo - taper) & (f < lo)
    g[low] = 0.5 - 0.5 * np.cos(np.pi * (f[low] - (lo - taper)) / taper)
    high = (f > hi) & (f < hi + taper)
    g[high] = 0.5 + 0.5 * np.cos(np.pi * (f[high] - hi) / taper)
    return np.fft.irfft(spec * g, n)


def telephone(x: np.ndarray) -> np.ndarray:
    """Band-limit to 300-3400 Hz and add a little soft clipping (handset colour)."""
    y = bandpass(x, *PHONE_BAND_HZ)
    peak = np.max(np.abs(y)) + 1e-12
    y = np.tanh(1.5 * y / peak) * peak / np.tanh(1.5)
    return y


def ringback(rng: np.random.Generator, cycles: int = 2) -> np.ndarray:
    """UK-style ring-back tone (400+450 Hz, 0.4 on / 0.2 off / 0.4 on / 2.0 off)."""
    sr = SAMPLE_RATE
    t = np.arange(int(0.4 * sr)) / sr
    burst = fade(0.5 * (np.sin(2 * np.pi * 400 * t) + np.sin(2 * np.pi * 450 * t)), 0.01)
    gap, rest = np.zeros(int(0.2 * sr)), np.zeros(int(2.0 * sr))
    one = np.concatenate([burst, gap, burst])
    parts = []
    for k in range(cycles):
        parts.append(one)
        if k < cycles - 1:
            parts.append(rest)
    return np.concatenate(parts)


# --------------------------------------------------------------------------- sources


@dataclass
class CoughCut:
    """A real cough cut from the cough source, with its metadata from the dev truth."""

    key: str
    audio: np.ndarray
    span: tuple[float, float]
    meta: dict[str, object]
    via: str | None = None  # where the cut came from, when not a dev_long_01.flac span


def load_cough_cuts(source: Path) -> dict[str, CoughCut]:
    """Every cough event of the source's truth file, cut out (keyed ``S1a`` etc.)."""
    truth_path = source.with_suffix(".truth.json")
    if not truth_path.exists():
        sys.exit(f"error: {truth_path} not found (the cough spans come from it)")
    truth = json.loads(truth_path.read_text())
    events = sorted((e for e in truth["events"] if e["kind"] == "cough"), key=lambda e: e["start_s"])
    spans = [(float(e["start_s"]), float(e["end_s"])) for e in events]
    audio = load_coughs(source, spans)
    cuts: dict[str, CoughCut] = {}
    seen: dict[str, int] = {}
    for ev, span, a in zip(events, spans, audio, strict=True):
        bmc = Path(str(ev["source"])).stem  # "S1"
        seen[bmc] = seen.get(bmc, 0) + 1
        key = f"{bmc}{'abcdefgh'[seen[bmc] - 1]}"
        meta = {
            "bmc_file": f"{bmc}.mp3",
            "source_speaker": ev.get("source_speaker"),
            "source_gender": ev.get("source_gender"),
            "source_diagnosis": ev.get("source_diagnosis"),
            "cough_wheeze": ev.get("cough_wheeze"),
            "cough_mucus": ev.get("cough_mucus"),
            "dev_instance": ev.get("instance"),
        }
        cuts[key] = CoughCut(key, a, span, meta)
    return cuts


def load_ravdess(ravdess_dir: Path, name: str) -> tuple[np.ndarray, dict[str, object], str]:
    """Load one RAVDESS clip (trimmed, 16 kHz mono) with its decoded labels."""
    info = parse_ravdess(name)
    if info["actor"] not in ALLOWED_RAVDESS_ACTORS:
        raise ValueError(f"{name}: actor {info['actor']} is not allowed here")
    rel = f"Actor_{int(info['actor']):02d}/{name}"
    path = ravdess_dir / rel
    if not path.exists():
        sys.exit(f"error: RAVDESS clip {path} not found (see --ravdess-dir)")
    x, sr = sf.read(path, dtype="float32", always_2d=True)
    x = x.mean(axis=1)
    if sr != SAMPLE_RATE:
        x = soxr.resample(x, sr, SAMPLE_RATE).astype(np.float32)
    x = trim_silence(x.astype(np.float64))
    return x, info, f"ser-train/{rel}"


# --------------------------------------------------------------------------- timeline


@dataclass
class Speaker:
    role: str
    name: str | None
    voice: str | None = None  # flite voice
    gender: str | None = None
    description: str = ""
    relation: str | None = None  # a relative's relation to the patient (bank_rec_10 on: "son", "grandson", ...)


@dataclass
class Placed:
    kind: str
    start: int  # samples
    audio: np.ndarray
    section: str
    fields: dict[str, object] = field(default_factory=dict)

    @property
    def end(self) -> int:
        return self.start + len(self.audio)


class Timeline:
    """Cursor-based placement of speech turns, coughs, clips and pauses."""

    def __init__(self, rec: str, seed: int, flite: str, workdir: Path, speakers: dict[str, Speaker]):
        self.rec = rec
        self.rng = np.random.default_rng(seed)
        self.flite = flite
        self.workdir = workdir
        self.speakers = speakers
        self.placed: list[Placed] = []
        self.sections: list[dict[str, object]] = []
        self.cursor = 0
        self.turn = 0
        self.tts_name = "flite TTS"
        self.notes_extra = ""  # appended to the truth's notes (bank_rec_08: coughs under speech)

    # -- helpers
    def _s(self, seconds: float) -> int:
        return round(seconds * SAMPLE_RATE)

    @property
    def section(self) -> dict[str, object]:
        return self.sections[-1]

    def _gap(self, gap: float | None, lo: float = 0.35, hi: float = 1.0) -> int:
        if gap is None:
            gap = float(self.rng.uniform(lo, hi))
        return self._s(gap)

    def _place(self, kind: str, start: int, audio: np.ndarray, **fields: object) -> Placed:
        if self.section.get("phone"):
            audio = telephone(audio)
            audio = audio * 10 ** ((PHONE_DBFS - active_rms_dbfs(audio)) / 20) if kind != "phone_ring" else audio
            tags = list(fields.get("tags") or [])
            fields["tags"] = tags if "telephone" in tags else [*tags, "telephone"]
            fields["notes"] = ((str(fields["notes"]) + "; ") if fields.get("notes") else "") + (
                "heard as telephone audio (band-limited 300-3400 Hz)"
            )
        p = Placed(kind, max(0, start), fade(audio, 0.005), str(self.section["name"]), fields)
        self.placed.append(p)
        return p

    # -- structure
    def begin(self, name: str, description: str, bed: str, phone: bool = False) -> None:
        """Start a new section at the cursor (the previous one ends here)."""
        if self.sections:
            self.sections[-1]["end"] = self.cursor
        self.sections.append(
            {"name": name, "description": description, "start": self.cursor, "bed": bed, "phone": phone}
        )

    def pause(self, seconds: float) -> None:
        """Advance the cursor (room tone only)."""
        self.cursor += self._s(seconds)

    # -- content
    def say(
        self,
        speaker: str,
        text: str,
        tags: tuple[str, ...] | list[str] = (),
        gap: float | None = None,
        level: float | None = None,
        notes: str | None = None,
    ) -> Placed:
        """Synthesise one turn with the speaker's flite voice and place it after a gap."""
        spk = self.speakers[speaker]
        assert spk.voice is not None
        if spk.voice.startswith("espeak:"):
            x = synthesise_espeak(spk.voice.split(":", 1)[1], text, self.workdir).astype(np.float64)
        else:
            x = synthesise(self.flite, spk.voice, text, self.workdir).astype(np.float64)
        target = level if level is not None else SPEECH_DBFS
        x = x * 10 ** ((target - active_rms_dbfs(x)) / 20)
        start = self.cursor + (self._gap(gap) if self.placed else 0)
        p = self._place(
            "speech",
            start,
            x,
            speaker=speaker,
            text=text,
            emotion=None,
            source=f"TTS {VOICES[spk.voice]}",
            synthetic=True,
            voice=voice_label(spk.voice),
            turn=self.turn,
            tags=["tts", *tags],
            notes=notes,
        )
        self.turn += 1
        self.cursor = p.end
        return p

    def cough(
        self,
        speaker: str,
        cut: CoughCut,
        gap: float | None = None,
        overlap: float | None = None,
        speed: float = 1.0,
        gain_db: float = 0.0,
        tags: tuple[str, ...] = (),
        notes: str | None = None,
    ) -> Placed:
        """Place a real cough after a gap, or ``overlap`` seconds before the cursor."""
        x = cut.audio
        instance = "cut as in the dev recording" if cut.via is None else f"as in {cut.via}, trimmed"
        if speed != 1.0:
            x = soxr.resample(x, SAMPLE_RATE * speed, SAMPLE_RATE)  # plays ``speed`` x faster
            instance = f"cut resampled to {speed:.2f}x speed (pitch shifts with it)"
        x = set_rms(x, COUGH_DBFS + gain_db)
        if overlap is not None:
            start = self.cursor - self._s(overlap)
        else:
            start = self.cursor + self._gap(gap, 0.3, 0.8)
        extra_tags = ["overlaps_speech_end"] if overlap is not None else []
        role = self.speakers[speaker].role
        default_note = (
            "real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient"
            if role == "patient"
            else "real cough (BMC Cough 2006) of a person in the waiting room, not the patient"
        )
        if overlap is not None:
            default_note += f"; starts {overlap:.2f} s before the preceding speech ends"
        p = self._place(
            "cough",
            start,
            x,
            speaker=speaker,
            text=None,
            emotion=None,
            source=(
                f"coughs_bmc/{cut.meta['bmc_file']} (Smith et al. 2006, CC BY 2.0) via "
                + (cut.via or f"dev_long_01.flac {cut.span[0]:.3f}-{cut.span[1]:.3f} s")
            ),
            synthetic=False,
            tags=[f"cough:{role}", *extra_tags, *tags],
            notes=notes or default_note,
            source_speaker=cut.meta["source_speaker"],
            source_gender=cut.meta["source_gender"],
            source_diagnosis=cut.meta["source_diagnosis"],
            cough_wheeze=cut.meta["cough_wheeze"],
            cough_mucus=cut.meta["cough_mucus"],
            instance=f"{instance}; dev instance: {cut.meta['dev_instance']}" if not cut.via else instance,
        )
        self.cursor = max(self.cursor, p.end)
        return p

    def emotion(self, ravdess_dir: Path, name: str, gap: float | None = None) -> Placed:
        """Place a RAVDESS emotional line (a waiting-room bystander)."""
        x, info, src = load_ravdess(ravdess_dir, name)
        x = x * 10 ** ((EMOTION_DBFS - active_rms_dbfs(x)) / 20)
        spk_id = f"ravdess_actor{int(info['actor']):02d}"
        if spk_id not in self.speakers:
            self.speakers[spk_id] = Speaker(
                "bystander",
                None,
                None,
                str(info["gender"]),
                f"RAVDESS actor {int(info['actor']):02d} (real acted speech), another person in the waiting room",
            )
        start = self.cursor + self._gap(gap, 1.0, 3.0)
        p = self._place(
            "emotion_speech",
            start,
            x,
            speaker=spk_id,
            text=info["statement"],
            emotion=info["emotion"],
            source=src,
            synthetic=False,
            tags=["ravdess", f"emotion:{info['emotion']}"],
            gender=info["gender"],
            intensity=info["intensity"],
            notes=(
                "acted emotional line by another person in the waiting room (RAVDESS, CC BY-NC-SA 4.0); "
                "the same clip is in the shared ser-train set"
            ),
        )
        self.cursor = p.end
        return p

    def ring(self, gap: float | None = None, desk: bool = False) -> Placed:
        """Place a generated ring-back tone (heard on the line), or with ``desk`` a desk phone ringing."""
        x = set_rms(ringback(self.rng), RING_DBFS)
        p = self._place(
            "phone_ring",
            self.cursor + self._gap(gap, 1.0, 1.5),
            x,
            speaker=None,
            text=None,
            emotion=None,
            source=(
                "generated desk-phone ring (400+450 Hz, UK cadence)"
                if desk
                else "generated ring-back tone (400+450 Hz, UK cadence)"
            ),
            synthetic=True,
            tags=["desk_phone"] if desk else ["telephone"],
            notes=(
                "two rings of the reception desk phone, heard in the room, before it is answered"
                if desk
                else "two ring-back cycles while the call connects"
            ),
        )
        self.cursor = p.end
        return p

    # -- output
    def render(self, seed: int) -> tuple[np.ndarray, dict[str, object]]:
        """Mix everything over the section beds; return audio and the truth dict."""
        total = max(p.end for p in self.placed) + self._s(TAIL_S)
        self.cursor = total
        self.sections[-1]["end"] = total
        rng = np.random.default_rng(seed + 7)
        mix = np.zeros(total)
        for sec in self.sections:
            a, b = int(sec["start"]), int(sec["end"])
            bed = pink_noise(b - a, rng, BED_DBFS[str(sec["bed"])])
            if sec["phone"]:
                bed = set_rms(bandpass(bed, *PHONE_BAND_HZ), BED_DBFS["phone"])
            mix[a:b] += fade(bed, 0.05)
        for p in self.placed:
            mix[p.start : p.end] += p.audio
        peak = float(np.max(np.abs(mix)))
        ceiling = 10 ** (PEAK_CEILING_DBFS / 20)
        if peak > ceiling:
            mix *= ceiling / peak
        return mix.astype(np.float32), self._truth(total, seed)

    def _section_at(self, sample: int) -> str:
        for sec in self.sections:
            if int(sec["start"]) <= sample < int(sec["end"]):
                return str(sec["name"])
        return str(self.sections[-1]["name"])

    def _truth(self, total: int, seed: int) -> dict[str, object]:
        sr = SAMPLE_RATE
        rows: list[dict[str, object]] = []
        for p in self.placed:
            f = dict(p.fields)
            spk = f.pop("speaker")
            row: dict[str, object] = {
                "start_s": round(p.start / sr, 3),
                "end_s": round(p.end / sr, 3),
                "kind": p.kind,
                "speaker": spk,
                "role": self.speakers[spk].role if spk else None,
                "text": f.pop("text"),
                "emotion": f.pop("emotion"),
                "source": f.pop("source"),
                "synthetic": f.pop("synthetic"),
                "section": p.section,
                "level": "clip",
            }
            row.update({k: v for k, v in f.items() if v is not None})
            rows.append(row)
        # silence: every gap >= MIN_SILENCE_S with no event at all, split at section boundaries
        spans = sorted((p.start, p.end) for p in self.placed)
        merged: list[list[int]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        gaps, prev = [], 0
        for a, b in merged:
            gaps.append((prev, a))
            prev = b
        gaps.append((prev, total))
        bounds = sorted({int(s["start"]) for s in self.sections} | {total})
        for a, b in gaps:
            if (b - a) / sr < MIN_SILENCE_S:
                continue
            cuts = [a] + [x for x in bounds if a < x < b] + [b]
            for s0, s1 in zip(cuts, cuts[1:], strict=False):
                if (s1 - s0) / sr < 0.25:
                    continue
                dur = (s1 - s0) / sr
                rows.append(
                    {
                        "start_s": round(s0 / sr, 3),
                        "end_s": round(s1 / sr, 3),
                        "kind": "silence",
                        "speaker": None,
                        "role": None,
                        "text": None,
                        "emotion": None,
                        "source": "room tone (generated pink noise)"
                        + (", telephone line" if self._section_is_phone(s0) else ""),
                        "synthetic": True,
                        "section": self._section_at(s0),
                        "level": None,
                        "notes": "no speech/cough/other sound; room tone only"
                        + ("; long silence gap" if dur >= 20 else ""),
                    }
                )
        rows.sort(key=lambda r: (r["start_s"], r["end_s"]))
        for n, r in enumerate(rows):
            r_id = {"id": f"{self.rec}_e{n:03d}"}
            rows[n] = {**r_id, **r}
        speakers: dict[str, dict[str, object]] = {}
        for sid, spk in self.speakers.items():
            mine = [r for r in rows if r["speaker"] == sid]
            if not mine:
                continue
            kinds = sorted({str(r["kind"]) for r in mine})
            synth = {bool(r["synthetic"]) for r in mine}
            speakers[sid] = {
                "kinds": kinds,
                "synthetic": synth.pop() if len(synth) == 1 else "mixed: synthetic speech + real coughs",
                "role": spk.role,
                "gender": spk.gender,
                "voice": voice_label(spk.voice) if spk.voice else None,
                "voice_description": VOICES.get(spk.voice or "", None),
                "name": spk.name,
                "description": spk.description,
                "n_events": len(mine),
                "total_s": round(sum(float(r["end_s"]) - float(r["start_s"]) for r in mine), 2),
            }
            if spk.relation:
                speakers[sid]["relation"] = spk.relation
        tts_s = sum(float(r["end_s"]) - float(r["start_s"]) for r in rows if r["synthetic"] and r["kind"] == "speech")
        return {
            "recording": f"{self.rec}.flac",
            "sample_rate": sr,
            "channels": 1,
            "duration_s": round(total / sr, 3),
            "seed": seed,
            "generator": "benchmarks/bank/make_recordings.py",
            "tts_speech_s": round(tts_s, 2),
            "tts_share_of_duration": round(tts_s / (total / sr), 3),
            "room_tone": "generated pink noise under the whole recording: about "
            f"{BED_DBFS['waiting']:.0f} dBFS in waiting-room sections, {BED_DBFS['consultation']:.0f} dBFS in "
            f"the consulting room, band-limited line noise at about {BED_DBFS['phone']:.0f} dBFS in a phone call",
            "sections": [
                {
                    "name": s["name"],
                    "start_s": round(int(s["start"]) / sr, 3),
                    "end_s": round(int(s["end"]) / sr, 3),
                    "description": s["description"],
                }
                for s in self.sections
            ],
            "speakers": speakers,
            "notes": (
                "times in seconds from the start of the file; level 'clip' = one placed item (one TTS turn, "
                "one cough, one RAVDESS clip); speech events with synthetic=true are "
                + self.tts_name
                + " and their text "
                "is exactly what was synthesised; coughs are real recordings of other people (BMC Cough 2006) "
                "attributed to a role; a cough tagged overlaps_speech_end starts before the preceding speech "
                "ends (no other events overlap); every gap of at least "
                f"{MIN_SILENCE_S} s with no event is listed as a silence event (split at section boundaries), "
                "shorter gaps between turns are not listed; 'tags' mark the clinical content of a turn "
                "(affirm:/deny:/resolved:/history:/family_history:/medication:/allergy:/vital:/exam/diagnosis/"
                "plan:/safety_net, nonclinical_symptom_word = a symptom word used in a non-clinical sense)"
                + self.notes_extra
            ),
            "events": rows,
        }

    def _section_is_phone(self, sample: int) -> bool:
        for sec in self.sections:
            if int(sec["start"]) <= sample < int(sec["end"]):
                return bool(sec["phone"])
        return False


# --------------------------------------------------------------------------- bank_rec_01


def build_rec01(tl: Timeline, cuts: dict[str, CoughCut]) -> None:
    """Waiting room (story read aloud) -> GP consultation (abdominal pain) -> phone call."""
    R, P, C, Q = "bank01_reader", "bank01_patient", "bank01_clinician", "bank01_receptionist"
    B = "bank01_bystander_1"
    ncw = ("nonclinical_symptom_word",)
    tl.begin(
        "waiting_room",
        "Surgery waiting room: a man reads a local newspaper sports story aloud (symptom words used "
        "non-clinically); the patient chats briefly; a bystander coughs; the receptionist calls the patient in",
        "waiting",
    )
    tl.pause(3.0)
    tl.say(R, "Here, listen to this one. It's in the Gazette this morning.", level=READER_DBFS)
    tl.say(R, "Cup fever grips the town, as Rovers reach the quarter final.", ncw, level=READER_DBFS)
    tl.say(
        R,
        "Supporters who were afraid the club would fold last winter packed the ground on Saturday, "
        "to watch Rovers beat City by three goals to one.",
        ncw,
        level=READER_DBFS,
    )
    tl.cough(B, cuts["S3a"], gap=1.4)
    tl.say(
        R,
        "Manager Tom Beckett admitted that the first half was painful to watch. We were sick of giving "
        "the ball away, he said. At half time I told the lads to stop coughing up easy chances.",
        ncw,
        gap=1.2,
        level=READER_DBFS,
    )
    tl.say(P, "My brother was at that match. He said the second half was brilliant.", ("smalltalk",))
    tl.say(
        R,
        "Sounds like it. Listen. Striker Jamal Reid, who has been on fire since January, scored twice. "
        "He said the pain of losing the final last season had stayed with the whole squad.",
        ncw,
        level=READER_DBFS,
    )
    tl.say(
        R,
        "The council coughed up two hundred thousand pounds last year to repair the main stand, after "
        "a storm left the groundsman with a real headache, and a hole in the roof.",
        ncw,
        level=READER_DBFS,
    )
    tl.say(
        R,
        "Ticket sales have been running hot, and the quarter final is expected to sell out within a day. "
        "Fans are told not to panic, and to book online from nine o'clock on Monday morning.",
        ncw,
        level=READER_DBFS,
    )
    tl.say(
        R,
        "And finally, the club's mascot, Rusty the Fox, is recovering at home after a nasty attack of "
        "stage fright at the half time show.",
        ncw,
        level=READER_DBFS,
    )
    tl.say(P, "Poor Rusty.", ("smalltalk",))
    tl.pause(9.0)
    tl.cough(B, cuts["S3b"], gap=0.0)
    tl.pause(5.0)
    tl.say(Q, "Mister Daniel Okafor? Doctor Hughes is ready for you now. Room four, at the end of the corridor.")
    tl.say(P, "Thank you.")
    tl.pause(4.0)

    tl.begin(
        "consultation",
        "GP consultation (synthetic TTS; female clinician, male patient): abdominal pain, diarrhoea and "
        "vomiting after a barbecue; history, examination, diagnosis and plan",
        "consultation",
    )
    tl.pause(1.0)
    say = tl.say
    say(C, "Hello, Mister Okafor. I'm Doctor Hughes. Come in and have a seat. What can I do for you today?", gap=0)
    say(
        P,
        "Hello, doctor. I've had a really bad tummy for the last few days. Pain, and I've got the runs.",
        ("affirm:abdominal_pain", "affirm:diarrhoea", "lay_term"),
    )
    say(C, "I'm sorry to hear that. When did it start?")
    say(
        P,
        "Thursday night. So about four days ago now. It came on quite suddenly, after dinner.",
        ("onset:abdominal_pain",),
    )
    say(C, "Can you show me where the pain is?")
    say(
        P,
        "It started around my belly button. Since this morning it's more down here, on the right side.",
        ("site:abdominal_pain",),
    )
    say(C, "What is the pain like? Is it there all the time, or does it come and go?")
    say(
        P,
        "It comes in waves. Cramping, like someone is wringing out my insides. Then it eases off for a bit.",
        ("character:abdominal_pain",),
    )
    say(C, "And out of ten, with ten being the worst pain you can imagine, how bad is it?")
    say(P, "At its worst, about a seven. Right now, maybe a four.", ("severity:abdominal_pain",))
    say(C, "Tell me about the diarrhea, the loose stools. How many times a day are you going?")
    say(
        P,
        "Six or seven times a day. It's very watery. I was up three times last night as well.",
        ("affirm:diarrhoea",),
    )
    say(C, "Any blood in your stool?")
    say(P, "No, none at all.", ("deny:blood_in_stool",))
    say(C, "Any black or tarry stools, or any mucus?")
    say(P, "No, nothing like that. Just watery.", ("deny:melaena", "deny:mucus_in_stool"))
    say(C, "Have you been sick at all?")
    say(
        P,
        "Yes, I was being sick on Friday. Three or four times. I haven't been sick since Saturday morning, "
        "but I still feel a bit queasy.",
        ("affirm:vomiting", "affirm:nausea", "lay_term"),
    )
    say(C, "Are you managing to keep fluids down?")
    say(P, "Mostly. Water, and a bit of flat lemonade. I can't face food.", ("affirm:reduced_appetite",))
    say(C, "Have you had a temperature?")
    say(
        P,
        "I've felt hot and shivery at night, but I haven't got a thermometer at home.",
        ("affirm:fever_subjective", "affirm:chills"),
    )
    say(C, "Have you lost any weight?")
    say(P, "Not really. Maybe a pound or two this week, because I'm not eating.", ("deny:weight_loss", "hedged"))
    say(C, "Any pain when you pass water, or needing to go more often?")
    say(P, "No. That's all normal.", ("deny:urinary_symptoms",))
    say(C, "Any other symptoms? Any headaches, rashes, or joint pains?")
    say(
        P,
        "I had a rash on my arms last week, but it's cleared up now. It was gone by Monday.",
        ("resolved:rash",),
    )
    say(C, "Was it itchy, or did it come with anything else?")
    say(
        P,
        "A bit itchy. I think it was a new washing powder. We've changed back now.",
        ("resolved:rash",),
    )
    say(C, "Okay. Have you eaten anything unusual, or been abroad recently?")
    say(
        P,
        "I haven't been abroad this year. We had a barbecue at my sister's on Thursday. The chicken was a "
        "bit pink in the middle, now I think about it.",
        ("deny:travel", "exposure:undercooked_chicken"),
    )
    say(C, "Is anyone else who was at the barbecue unwell?")
    say(
        P,
        "My wife had an upset stomach on Friday, but she was better after a day. My sister's fine.",
        ("contact:wife_upset_stomach_resolved",),
    )
    say(C, "Do you have any other medical problems?")
    say(
        P,
        "I've got reflux, and I had depression a few years ago. I'm well with it now.",
        ("history:reflux", "history:depression"),
    )
    say(C, "And what medication do you take?")
    say(
        P,
        "Omeprazole, twenty milligrams once a day, before breakfast. And sertraline, fifty milligrams every morning.",
        ("medication:omeprazole_20mg_od", "medication:sertraline_50mg_om"),
    )
    say(C, "Anything else? Anything you buy over the counter?")
    say(
        P,
        "I've been taking ibuprofen for my back. Four hundred milligrams, three times a day, for the last "
        "couple of weeks.",
        ("medication:ibuprofen_400mg_tds", "affirm:back_pain"),
    )
    say(C, "Thank you, that's helpful. Do you have any allergies to medicines?")
    say(
        P,
        "Yes, penicillin. My face swelled up when I was a teenager.",
        ("allergy:penicillin",),
    )
    say(C, "I'll make sure that's on your record. Is there any illness that runs in your family?")
    say(
        P,
        "My mum had bowel cancer. She was diagnosed when she was sixty two. She had an operation, and "
        "she's doing well now.",
        ("family_history:bowel_cancer",),
    )
    say(C, "I'm glad she's doing well. Anyone else in the family with bowel problems?")
    say(
        P,
        "My dad has high blood pressure, but no bowel problems that I know of.",
        ("family_history:hypertension",),
    )
    say(C, "Do you smoke, or drink alcohol?")
    say(
        P,
        "I don't smoke. I have a few beers at the weekend. Maybe six or eight units a week.",
        ("social:non_smoker", "social:alcohol_6_8_units"),
    )
    say(C, "And what do you do for work?")
    say(P, "I'm a chef. I work in a restaurant in town.", ("social:chef_food_handler",))
    say(
        P,
        "To be honest, I'm worried. With my mum's history, I keep thinking it could be something serious.",
        ("concern:cancer", "expressed:worried"),
    )
    say(
        C,
        "That's completely understandable, and I'm glad you told me. Let me examine you, and then we can "
        "talk it through.",
    )
    say(C, "First, I'll take your temperature and your blood pressure.", ("exam",))
    tl.pause(6.0)
    say(
        C,
        "Your temperature is thirty seven point eight, so you do have a mild fever. Your pulse is ninety "
        "six, and your blood pressure is one hundred and eighteen over seventy six.",
        ("exam", "vital:temperature_37.8", "vital:pulse_96", "vital:bp_118_76"),
    )
    say(
        C,
        "Could you lie back on the couch for me, and loosen your belt? I'm going to press on your tummy. "
        "Tell me if anything hurts.",
        ("exam",),
    )
    say(P, "Okay.")
    tl.pause(4.5)
    say(P, "Ow. Yes, that's sore, just there.", ("affirm:abdominal_tenderness",))
    say(
        C,
        "Sorry. Your tummy is a bit tender on the right, low down, but it's soft, and there's no guarding. "
        "Your bowel sounds are quite active, which fits with a tummy bug.",
        ("exam", "finding:right_lower_tenderness"),
    )
    say(C, "Does it hurt more when I let go quickly, like this?", ("exam",))
    say(P, "No, not really. It's about the same.", ("deny:rebound_tenderness",))
    say(C, "And does it hurt when you move, or walk about?", ("exam",))
    say(P, "A little bit, when I stand up.", ("affirm:pain_on_movement",))
    say(C, "You can sit up now. Your tongue is a bit dry, so you're slightly dehydrated.", ("exam", "finding:dehydration"))
    say(
        C,
        "So, I think the most likely explanation is gastroenteritis. That's an infection of the gut, "
        "probably from the chicken at the barbecue.",
        ("diagnosis:gastroenteritis",),
    )
    say(
        C,
        "Because the pain has moved to the right side, I do want to keep appendicitis in mind. At the "
        "moment I don't think it is appendicitis, but it's something we need to watch.",
        ("diagnosis:appendicitis_considered",),
    )
    say(P, "And what about cancer? Because of my mum.", ("concern:cancer",))
    say(
        C,
        "This sounds like an infection. It came on suddenly, and someone else who ate the same food was "
        "ill too. I'm not worried about bowel cancer today. But because of your mum, if your bowels haven't "
        "settled in three weeks, we'll look into it further.",
        ("diagnosis:cancer_not_suspected",),
    )
    say(P, "Okay. That's a relief.", ("expressed:relieved",))
    say(
        C,
        "Here's the plan. I'd like a stool sample, to check for an infection. And a blood test: a full "
        "blood count, your kidney function, and your inflammatory markers.",
        ("plan:stool_sample", "plan:blood_test"),
    )
    say(
        C,
        "Please stop the ibuprofen for now, because it can irritate the stomach, and the kidneys when "
        "you're dehydrated. You can take paracetamol instead, one gram up to four times a day.",
        ("plan:stop_ibuprofen", "plan:paracetamol_1g_qds"),
    )
    say(C, "Keep taking the omeprazole and the sertraline as usual.", ("plan:continue_medication",))
    say(
        C,
        "Sip fluids little and often. I'll give you some oral rehydration sachets. Take one sachet after "
        "every loose stool.",
        ("plan:oral_rehydration",),
    )
    say(P, "Can I take something to stop the diarrhea? I've got loperamide at home.")
    say(C, "I'd rather you didn't while you have a fever. Let the infection clear first.", ("plan:avoid_loperamide",))
    say(P, "What about work? I'm supposed to be on shift tomorrow.")
    say(
        C,
        "Because you handle food, you must stay off work until forty eight hours after your last episode "
        "of diarrhea or vomiting. I'll give you a sick note for one week.",
        ("plan:sick_note_1_week", "plan:off_work_48h"),
    )
    say(
        C,
        "I'd like to see you again in one week, or sooner if you're not improving. The receptionist will "
        "ring you to book the blood test.",
        ("plan:follow_up_1_week",),
    )
    say(
        C,
        "If you get a high temperature, or blood in your stool, ring us straight away. And if the pain on "
        "the right gets much worse, or you can't keep any fluids down, call one one one, or go to A and E.",
        ("safety_net",),
    )
    say(P, "I will. Thank you, doctor.")
    say(C, "You're welcome. I hope you feel better soon.")
    tl.pause(6.0)

    tl.begin(
        "phone_call",
        "Telephone call (band-limited 300-3400 Hz, both sides): the patient rings the surgery and the "
        "receptionist books his blood test; he reports partial improvement",
        "phone",
        phone=True,
    )
    tl.pause(1.0)
    tl.ring(gap=0)
    say(Q, "Good afternoon, Riverside Surgery, Kevin speaking. How can I help?")
    say(P, "Hello, it's Daniel Okafor. Doctor Hughes asked me to book a blood test.")
    say(Q, "Hello, Mister Okafor. Can I just check your date of birth?")
    say(P, "The third of March, nineteen eighty one.")
    say(
        Q,
        "Thank you. Yes, I can see the request from Doctor Hughes. I have Wednesday at eight forty in the "
        "morning, or Thursday at two fifteen in the afternoon.",
    )
    say(P, "Wednesday morning, please. The earlier the better.")
    say(
        Q,
        "That's booked for you. Wednesday at eight forty, with the phlebotomist in room two. You don't "
        "need to fast for this one.",
        ("plan:blood_test_booked_wednesday_0840",),
    )
    say(P, "Great. And can I hand in the stool sample at the same time?")
    say(
        Q,
        "Yes. Bring it in the sealed pot, in the bag we gave you, and hand it in at the front desk before eleven.",
        ("plan:stool_sample",),
    )
    say(Q, "And how are you feeling?")
    say(
        P,
        "A little better, thanks. The cramps are easing off, but I've still got the runs.",
        ("improving:abdominal_pain", "affirm:diarrhoea", "lay_term"),
    )
    say(Q, "Glad to hear it's easing. Remember what the doctor said, and ring us if it gets worse.", ("safety_net",))
    say(P, "I will. Thanks, Kevin. Bye.")
    say(Q, "Bye now.")


# --------------------------------------------------------------------------- bank_rec_02

EMOTIONS_BEFORE = [
    "03-01-05-02-01-01-01.flac",  # actor 01 angry strong, kids
    "03-01-04-02-02-01-02.flac",  # actor 02 sad strong, dogs
    "03-01-03-02-01-02-05.flac",  # actor 05 happy strong, kids
    "03-01-06-02-02-01-06.flac",  # actor 06 fearful strong, dogs
    "03-01-08-02-01-01-24.flac",  # actor 24 surprised strong, kids
    "03-01-01-01-02-01-05.flac",  # actor 05 neutral normal, dogs
]
EMOTIONS_AFTER = [
    "03-01-02-01-01-01-24.flac",  # actor 24 calm normal, kids
    "03-01-07-02-02-01-02.flac",  # actor 02 disgust strong, dogs
    "03-01-05-02-02-02-05.flac",  # actor 05 angry strong, dogs
    "03-01-03-02-02-01-06.flac",  # actor 06 happy strong, dogs
    "03-01-04-02-01-02-01.flac",  # actor 01 sad strong, kids
    "03-01-06-02-01-01-24.flac",  # actor 24 fearful strong, kids
]


def build_rec02(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Waiting room (emotions) -> asthma/palpitations review with husband -> waiting room."""
    C, P, H, Q = "bank02_clinician", "bank02_patient", "bank02_relative", "bank02_receptionist"
    B = "bank02_bystander_1"
    say = tl.say
    tl.begin(
        "waiting_room_a",
        "Waiting room before the consultation: other people's emotional remarks (RAVDESS), the patient and "
        "her husband talk briefly, a long silence, the patient coughs, the receptionist calls her in",
        "waiting",
    )
    tl.pause(2.0)
    tl.emotion(ravdess, EMOTIONS_BEFORE[0], gap=0)
    tl.emotion(ravdess, EMOTIONS_BEFORE[1])
    say(H, "Have you got your inhaler with you, love?", gap=2.0)
    say(P, "Yes, it's in my handbag. Stop fussing.")
    tl.emotion(ravdess, EMOTIONS_BEFORE[2])
    tl.emotion(ravdess, EMOTIONS_BEFORE[3])
    tl.pause(26.0)  # long silence gap
    tl.emotion(ravdess, EMOTIONS_BEFORE[4], gap=0)
    tl.cough(P, cuts["S6a"], gap=2.2)
    tl.emotion(ravdess, EMOTIONS_BEFORE[5])
    say(Q, "Missus Linda Marsh? Doctor Campbell will see you now, in room six.", gap=2.5)
    say(H, "Come on, then.")
    tl.pause(4.0)

    tl.begin(
        "consultation",
        "Asthma review and palpitations (synthetic TTS; male clinician, female patient, her husband also "
        "speaks); real coughs, a silent minute-long pulse check, chest examination and peak flow, plan",
        "consultation",
    )
    tl.pause(1.0)
    say(C, "Hello, come in, both of you. Take a seat. I'm Doctor Campbell.", gap=0)
    say(P, "Hello, doctor. This is my husband, Graham. I hope it's all right if he sits in.")
    say(H, "Hello. She asked me to come along. I notice things she doesn't.")
    say(
        C,
        "Of course, that's fine. So, Linda, this is your asthma review, and I see you've also mentioned "
        "palpitations. Shall we start with those?",
    )
    say(
        P,
        "Yes. For the last month or so, my heart sometimes races. It feels like a fluttering in my chest, "
        "usually in the evening.",
        ("affirm:palpitations", "onset:palpitations_1_month"),
    )
    say(C, "How long does it last when it happens?")
    say(P, "A few minutes. Five at the most. Then it settles down on its own.", ("duration:palpitations",))
    say(C, "Does it start suddenly, like a switch?")
    say(P, "It sort of builds up, and then it fades away.", ("character:palpitations",))
    say(C, "Do you get any chest pain with it?")
    say(P, "No chest pain, no.", ("deny:chest_pain",))
    say(C, "Any dizziness? Or have you blacked out?")
    say(
        P,
        "I felt a little light headed once, but I've never fainted.",
        ("affirm:light_headed_once", "deny:syncope"),
    )
    say(C, "Are you short of breath at the moment, sitting here?")
    say(P, "No, I'm not short of breath. I feel fine sitting down.", ("deny:breathless_at_rest",))
    say(C, "And how has your asthma been?")
    say(
        P,
        "Not great, to be honest. I've had more of a cough, and I'm wheezy in the mornings.",
        ("affirm:cough", "affirm:wheeze"),
    )
    tl.cough(P, cuts["S6b"], overlap=0.3)
    say(P, "Sorry. It's worse at night, and first thing when I get up.", ("affirm:nocturnal_cough",), gap=0.35)
    say(C, "Do you bring anything up when you cough?")
    say(
        P,
        "Not really. Sometimes a little bit of clear phlegm in the morning.",
        ("affirm:clear_sputum_sometimes", "hedged"),
    )
    say(C, "Does the asthma wake you up at night?")
    say(P, "Two or three nights a week, I'd say.", ("affirm:night_waking_2_3_per_week",))
    say(H, "It's more than that. I hear her coughing most nights.", ("relative_report:night_cough_most_nights",))
    say(C, "Thanks, Graham, that's useful. Which inhalers are you using at the moment, Linda?")
    say(
        P,
        "The brown one, beclometasone, two puffs twice a day, morning and night. And the blue one, two puffs "
        "of salbutamol when needed.",
        ("medication:beclometasone_2_puffs_bd", "medication:salbutamol_2_puffs_prn"),
    )
    say(C, "And how often are you needing the blue one?")
    say(P, "Most days at the moment. Maybe three or four times a day.", ("reliever_use:3_4_per_day",))
    say(H, "And in the night. I hear it go.", ("relative_report:night_reliever_use",))
    say(
        C,
        "Using the blue inhaler that often can make your heart race, so that may be part of it. Do you "
        "take any other medicines?",
    )
    say(
        P,
        "Levothyroxine, for my thyroid. One hundred micrograms every morning. They put the dose up in the spring.",
        ("medication:levothyroxine_100mcg_om", "history:hypothyroidism"),
    )
    say(C, "When did you last have a thyroid blood test?")
    say(P, "Not since they changed the dose, I don't think.")
    tl.cough(P, cuts["S1a"], gap=0.5)
    say(C, "Any allergies to medicines?", gap=0.6)
    say(
        P,
        "Aspirin makes my breathing worse, so I avoid it. And ibuprofen too.",
        ("allergy:aspirin", "allergy:ibuprofen"),
    )
    say(C, "That's important. I'll make sure it's on your record. Do you smoke?")
    say(
        P,
        "I gave up eight years ago. Before that I smoked about ten a day, for twenty years.",
        ("social:ex_smoker_10_per_day_20_years",),
    )
    say(C, "Well done for stopping. Graham, do you smoke?")
    say(
        H,
        "I'm afraid I still do. But only outside, in the garden.",
        ("relative:smoker", "nonclinical_symptom_word"),
    )
    say(C, "It's good that it's outside. Anything that seems to set your asthma off, Linda? Cold air, pets, dust?")
    say(
        P,
        "Cold air, definitely. And our daughter has just moved back home, with her cat.",
        ("trigger:cold_air", "trigger:cat"),
    )
    say(C, "Cats are a common trigger. Has anyone at home been unwell?")
    say(P, "My husband has a cold at the moment.", ("contact:husband_cold",))
    say(
        H,
        "I have. I've been sneezing all week, and I've got a sore throat and a runny nose. I hope she "
        "doesn't catch it.",
        ("relative_symptom:sneezing", "relative_symptom:sore_throat", "relative_symptom:runny_nose"),
    )
    say(C, "Linda, have you had a sore throat, or a temperature yourself?")
    say(P, "No, neither. Just the cough and the wheeze.", ("deny:sore_throat", "deny:fever"))
    say(C, "How much tea and coffee do you drink?")
    say(P, "Probably five cups of coffee a day. I know, it's too many.", ("social:coffee_5_per_day",))
    say(C, "Do you get breathless when you're walking about?")
    say(
        P,
        "Well, I do get a bit puffed out on the stairs. I have to stop halfway up.",
        ("affirm:exertional_breathlessness", "lay_term"),
    )
    say(H, "She does. She stops on the landing every night.", ("relative_report:exertional_breathlessness",))
    say(C, "Is that new, or has it been like that for a while?")
    say(
        P,
        "Since about Christmas. Before that, I could manage the stairs without stopping.",
        ("onset:exertional_breathlessness",),
    )
    say(C, "Thank you. Let's have a look at you. First, I'd like to count your pulse for a full minute.", ("exam",))
    tl.pause(32.0)  # silent pulse count (long silence gap)
    say(C, "Your pulse is eighty eight, and it's regular at the moment.", ("exam", "vital:pulse_88_regular"), gap=0)
    say(
        C,
        "Now I'd like to listen to your chest. Could you lift your top up at the back for me? Big breath "
        "in, through your mouth.",
        ("exam", "instruction"),
    )
    tl.pause(3.0)
    say(C, "And out. And another big breath in.", ("exam", "instruction"), gap=0)
    tl.pause(2.5)
    tl.cough(P, cuts["S1b"], gap=0.0, speed=1.03)
    say(C, "That's all right. Once more, big breath in, and out. Now breathe normally.", ("exam", "instruction"))
    tl.pause(3.0)
    say(
        C,
        "Thank you, you can put your top down. There's a faint wheeze on both sides when you breathe out, "
        "but the air is getting in well, all the way down. I can't hear any crackles.",
        ("exam", "finding:bilateral_expiratory_wheeze", "finding:no_crackles"),
        gap=0,
    )
    say(
        C,
        "Your oxygen level is ninety six percent, and your blood pressure is one hundred and thirty four "
        "over eighty two.",
        ("exam", "vital:spo2_96", "vital:bp_134_82"),
    )
    say(
        C,
        "Now let's do your peak flow. Stand up for me, take a deep breath in, seal your lips around the "
        "mouthpiece, and blow as hard and as fast as you can.",
        ("exam", "instruction", "peak_flow"),
    )
    tl.pause(3.0)
    say(
        C,
        "Good. That was three hundred and twenty. Let's do it twice more, and I'll take the best one.",
        ("exam", "peak_flow:320"),
        gap=0,
    )
    tl.pause(4.0)
    say(C, "Three hundred and forty. And the last one.", ("exam", "peak_flow:340"), gap=0)
    tl.cough(P, cuts["S6a"], overlap=0.25, speed=0.97)
    tl.pause(3.0)
    say(
        C,
        "Three hundred and thirty. So your best today is three hundred and forty. Your best last year was "
        "four hundred and fifty, so that's about three quarters of your best.",
        ("exam", "peak_flow:330", "peak_flow_best:340", "peak_flow_previous_best:450"),
        gap=0,
    )
    say(P, "Is that bad?")
    say(
        C,
        "It tells me your asthma isn't well controlled at the moment. The wheeze fits with that too.",
        ("diagnosis:poorly_controlled_asthma",),
    )
    say(
        C,
        "About the palpitations. I don't think this is your heart, but I want to be sure. Using the blue "
        "inhaler so often, the coffee, and a thyroid dose that might now be a bit high, can all make the "
        "heart race.",
        ("diagnosis:palpitations_likely_salbutamol_caffeine_thyroid",),
    )
    say(H, "So it's not her heart?")
    say(
        C,
        "I don't think so, but we'll check. I'd like an E C G, a tracing of the heart, today with the nurse. "
        "And a blood test for your thyroid, a full blood count, and your kidney function.",
        ("plan:ecg_today", "plan:blood_test_thyroid_fbc_renal"),
    )
    say(
        C,
        "For the asthma, I'm going to change your brown inhaler to a combination inhaler. That's two puffs, "
        "twice a day, every day, even when you feel well.",
        ("plan:switch_to_combination_inhaler_2_puffs_bd",),
    )
    say(
        C,
        "Keep the blue salbutamol inhaler for when you need it. If you find you need it more than three "
        "times a week once the new inhaler settles in, let us know.",
        ("plan:salbutamol_prn",),
    )
    say(
        C,
        "Try to cut down the coffee, to one or two cups a day. And if you can, keep the cat out of the bedroom.",
        ("plan:reduce_caffeine", "plan:trigger_avoidance"),
    )
    say(P, "I can do that. The cat can sleep downstairs.")
    say(
        C,
        "I'll give you a written asthma action plan, so you know what to do if it gets worse. And I'll see "
        "you again in four weeks, with your blood results.",
        ("plan:asthma_action_plan", "plan:follow_up_4_weeks"),
    )
    say(
        C,
        "If you get chest pain, if you faint, or if your blue inhaler isn't helping and you're too "
        "breathless to speak in full sentences, call nine nine nine straight away.",
        ("safety_net",),
    )
    say(H, "Should I keep away from her while I've got this cold?")
    say(
        C,
        "Wash your hands often, and don't share cups or towels. That's the most useful thing you can do.",
        ("advice:relative_hygiene",),
    )
    say(P, "Thank you, doctor. That's put my mind at rest.", ("expressed:relieved",))
    say(C, "You're welcome. Pop back to reception, and the nurse will do your E C G.")
    tl.pause(5.0)

    tl.begin(
        "waiting_room_b",
        "Back in the waiting room after the consultation: the couple talk, the patient coughs, other "
        "people's emotional remarks (RAVDESS), a long silence, the receptionist calls her for the ECG",
        "waiting",
    )
    tl.pause(1.0)
    say(H, "There. That wasn't so bad, was it?", gap=0)
    say(P, "No. I'm just relieved it's probably not my heart.", ("expressed:relieved",))
    tl.cough(P, cuts["S1a"], overlap=0.2, speed=0.98)
    tl.cough(P, cuts["S6b"], gap=0.45, speed=1.02, tags=("double_cough",))
    tl.emotion(ravdess, EMOTIONS_AFTER[0], gap=3.0)
    tl.emotion(ravdess, EMOTIONS_AFTER[1])
    tl.cough(B, cuts["S3c"], gap=1.5)
    tl.emotion(ravdess, EMOTIONS_AFTER[2])
    tl.pause(41.0)  # long silence gap
    tl.emotion(ravdess, EMOTIONS_AFTER[3], gap=0)
    tl.emotion(ravdess, EMOTIONS_AFTER[4])
    say(Q, "Missus Linda Marsh? The nurse can do your E C G now. Room two, on the right.", gap=2.5)
    say(P, "That's us. Come on, Graham.")
    tl.emotion(ravdess, EMOTIONS_AFTER[5], gap=4.0)


# --------------------------------------------------------------------------- bank_rec_03

DEFAULT_CUE_COUGH = Path("/work/shared/data/dev/cues/dev_cue_cough.flac")

EMOTIONS_03 = [
    "03-01-05-01-02-01-24.flac",  # actor 24 angry normal, dogs
    "03-01-04-01-01-01-06.flac",  # actor 06 sad normal, kids
    "03-01-08-02-02-01-01.flac",  # actor 01 surprised strong, dogs
    "03-01-03-01-01-01-02.flac",  # actor 02 happy normal, kids
    "03-01-06-01-02-02-05.flac",  # actor 05 fearful normal, dogs
]


def load_cue_cough(path: Path) -> CoughCut:
    """The dev cue cough (BMC S5, a cougher not in dev_long_01.flac), trimmed."""
    if not path.exists():
        sys.exit(f"error: cue cough {path} not found (see --cue-cough)")
    x, sr = sf.read(path, dtype="float32", always_2d=True)
    x = x.mean(axis=1).astype(np.float64)
    if sr != SAMPLE_RATE:
        x = soxr.resample(x, sr, SAMPLE_RATE)
    meta = {
        "bmc_file": "S5.mp3",
        "source_speaker": "bmc_S5",
        "source_gender": "F",
        "source_diagnosis": None,
        "cough_wheeze": False,
        "cough_mucus": False,
        "dev_instance": None,
    }
    return CoughCut("S5a", trim_silence(x), (0.0, len(x) / SAMPLE_RATE), meta, via="dev cues/dev_cue_cough.flac")


def build_rec03(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Waiting room (TV news + weather) -> diabetes review with daughter -> waiting room (desk phone)."""
    C, P, D, Q = "bank03_clinician", "bank03_patient", "bank03_relative", "bank03_receptionist"
    T, B = "bank03_tv", "bank03_bystander_1"
    ncw = ("nonclinical_symptom_word",)
    say = tl.say
    tl.tts_name = "eSpeak NG TTS"

    tl.begin(
        "waiting_room_a",
        "Surgery waiting room: the television reads the lunchtime news and weather (symptom words used "
        "non-clinically); the patient and his daughter chat; a bystander coughs; other people's emotional "
        "remarks (RAVDESS); a silence; the receptionist calls the patient in",
        "waiting",
    )
    tl.pause(2.0)
    say(T, "Good afternoon. This is Lakeside Today, with the news at one o'clock.", ("tv",), gap=0, level=READER_DBFS)
    say(
        T,
        "Traders had a nervous morning in the City, as the pound caught a cold against the dollar, and "
        "shares in the big banks took a painful knock.",
        ("tv", *ncw),
        level=READER_DBFS,
    )
    say(
        T,
        "The council's new parking charges are giving shop owners a headache. One cafe owner said the plans "
        "made her sick to her stomach, and that trade had been bleeding away since the spring.",
        ("tv", *ncw),
        level=READER_DBFS,
    )
    tl.cough(B, cuts["S3a"], gap=1.3)
    say(
        T,
        "In sport, United's defence still has a soft spot at the back, and the manager says the fans are "
        "sick and tired of late goals. He wants a cure for the problem before Saturday.",
        ("tv", *ncw),
        gap=1.0,
        level=READER_DBFS,
    )
    say(D, "Dad, did you bring your sugar diary?", ("smalltalk",), gap=1.5)
    say(P, "It's in my coat pocket. Stop fretting, love.", ("smalltalk",))
    tl.emotion(ravdess, EMOTIONS_03[0])
    tl.emotion(ravdess, EMOTIONS_03[1])
    say(T, "And now, the weather.", ("tv",), gap=2.0, level=READER_DBFS)
    say(
        T,
        "After a week of fever pitch temperatures, a cold front arrives tonight, bringing a sharp chill, "
        "and a numbing wind off the hills.",
        ("tv", *ncw),
        level=READER_DBFS,
    )
    say(
        T,
        "Tomorrow starts grey and shaky, with showers that will sting in the wind. Drivers should expect "
        "a throbbing headache of a rush hour on the ring road, so allow plenty of time.",
        ("tv", *ncw),
        level=READER_DBFS,
    )
    say(
        T,
        "By the weekend the worst should have passed, and the town will feel a lot less under the weather.",
        ("tv", *ncw),
        level=READER_DBFS,
    )
    tl.pause(12.0)  # silence in the waiting room
    tl.emotion(ravdess, EMOTIONS_03[2], gap=0)
    say(Q, "Mister Harold Bennett, please? Doctor Fraser is ready for you in room three.", gap=2.5)
    say(P, "That's me. Come on, Susan.")
    tl.pause(4.0)

    tl.begin(
        "consultation",
        "Type 2 diabetes review with numb, burning feet (synthetic TTS; female clinician, older male patient, "
        "his daughter also answers); real coughs by the patient; history, blood pressure, foot examination "
        "with monofilament and tuning fork (silent pauses), diagnosis of diabetic neuropathy and plan",
        "consultation",
    )
    tl.pause(1.0)
    say(C, "Hello, Mister Bennett. Come and sit down. And you've brought someone with you today.", gap=0)
    say(P, "This is my daughter, Susan. She's over from Boston for a fortnight, so she's keeping an eye on me.")
    say(D, "Hi. I hope it's okay if I chip in. He doesn't always tell the whole story.")
    say(
        C,
        "Of course, that's really helpful. So this is your diabetes review, and I see from the note that "
        "you've had some trouble with your feet.",
    )
    say(
        P,
        "Aye, that's it. My feet have gone numb, doctor. Both of them. It's like walking on cotton wool.",
        ("affirm:foot_numbness", "lay_term"),
    )
    say(C, "When did you first notice it?")
    say(
        P,
        "Back end of the summer, so about three months now. It started in my toes, and it's crept up a bit.",
        ("onset:foot_numbness_3_months",),
    )
    say(C, "Any tingling, or pins and needles?")
    say(
        P,
        "Pins and needles, yes, mostly at night. And sometimes a burning, like my feet are in hot sand.",
        ("affirm:pins_and_needles_feet", "affirm:burning_feet_at_night", "lay_term"),
    )
    say(C, "Does the burning keep you awake?")
    say(
        P,
        "Some nights. I end up sleeping with my feet out of the covers.",
        ("affirm:sleep_disturbed_by_foot_pain",),
    )
    say(
        D,
        "He's been walking a bit funny, too. He stumbled on the back step last week.",
        ("relative_report:unsteady_gait", "relative_report:stumble"),
    )
    say(P, "I didn't fall, mind. I just caught my foot.", ("deny:fall",))
    say(C, "Do you get any pain in your calves when you walk, that makes you stop and rest?")
    say(
        P,
        "No, nothing like that. I can walk to the paper shop and back, no bother.",
        ("deny:claudication",),
    )
    say(C, "Have you had any sores, blisters or cuts on your feet that were slow to heal?")
    say(
        P,
        "I had a blister on my big toe in July, from new shoes. The nurse dressed it, and it healed up in a "
        "couple of weeks. It's been fine since.",
        ("resolved:blister_big_toe",),
    )
    say(C, "Good. Any change in the colour of your feet? Do they feel cold?")
    say(P, "No, they look the same as ever. Just numb.", ("deny:foot_colour_change", "deny:cold_feet"))
    say(C, "How have you been in yourself? Any tiredness?")
    say(
        P,
        "I'm a bit washed out, to be honest. And I've been off my food this last fortnight.",
        ("affirm:tiredness", "affirm:reduced_appetite", "lay_term"),
    )
    say(C, "And how about your waterworks? Are you passing water more than usual?")
    say(
        P,
        "My waterworks are a nuisance. I'm up three times a night to spend a penny.",
        ("affirm:nocturia", "lay_term"),
    )
    say(D, "It's more like four. I hear the floorboards.", ("relative_report:nocturia_4_per_night",))
    say(C, "Any burning or stinging when you pass water?")
    say(
        P,
        "Not now. I had a water infection last month, but the tablets cleared it up.",
        ("resolved:urinary_tract_infection", "deny:dysuria", "lay_term"),
    )
    say(C, "Are you more thirsty than usual?")
    say(P, "Yes. I'm forever drinking. I keep a jug of water by the bed.", ("affirm:thirst",))
    say(C, "Any blurred vision, or trouble with your eyes?")
    say(
        P,
        "My eyes go a bit blurry when I'm reading, but I'm due new glasses anyway.",
        ("affirm:blurred_vision", "hedged"),
    )
    say(C, "Do you ever feel dizzy, or light headed?")
    say(
        P,
        "I get a bit woozy when I stand up quick, first thing in the morning. It passes after a few seconds.",
        ("affirm:postural_dizziness", "lay_term"),
    )
    say(C, "Have you had any hypos? Any shakes, sweats, or feeling muddled before a meal?")
    say(P, "No, none of that.", ("deny:hypoglycaemia", "deny:tremor", "deny:sweating", "deny:confusion"))
    say(C, "Any chest pain, or getting short of breath, or swelling of your ankles?")
    say(
        P,
        "No. No chest pain. My breathing's all right, and my ankles are fine.",
        ("deny:chest_pain", "deny:breathlessness", "deny:ankle_swelling"),
    )
    say(
        D,
        "His ankles used to swell up in the summer, but that stopped when they changed his blood pressure tablet.",
        ("resolved:ankle_swelling", "relative_report:ankle_swelling_resolved"),
    )
    tl.cough(P, cuts["S5a"], gap=0.6)
    tl.cough(P, cuts["S5a"], gap=0.35, speed=0.95, tags=("double_cough",))
    say(C, "That cough. How long have you had that?", gap=0.8)
    say(
        P,
        "Just a tickle, since I had a cold last week. I'm not bringing anything up.",
        ("affirm:cough", "deny:sputum"),
    )
    say(C, "Any temperature with it?")
    say(P, "No, I've not had a temperature.", ("deny:fever",))
    say(
        D,
        "I think he caught that cold from me. I've had a streaming nose and a sore throat since I landed.",
        ("relative_symptom:runny_nose", "relative_symptom:sore_throat", "lay_term"),
    )
    say(C, "Now, can you tell me which tablets you take?")
    say(P, "Susan's written them down. She's better at it than me.")
    say(
        D,
        "Okay, so. Metformin, five hundred milligrams, two tablets twice a day with meals. Gliclazide, "
        "eighty milligrams every morning. Ramipril, five milligrams once a day. And atorvastatin, twenty "
        "milligrams at night.",
        (
            "medication:metformin_1g_bd",
            "medication:gliclazide_80mg_om",
            "medication:ramipril_5mg_od",
            "medication:atorvastatin_20mg_on",
            "relative_report:medication_list",
        ),
    )
    say(C, "Thank you, that's very clear. Do you take them all, Mister Bennett? It's fine to be honest.")
    say(
        P,
        "Mostly. I forget the evening metformin now and then. Maybe twice a week.",
        ("adherence:missed_evening_metformin_2_per_week",),
    )
    say(C, "And anything from the chemist? Any painkillers?")
    say(
        P,
        "Paracetamol, two tablets, when my feet are bad at night. Not every night.",
        ("medication:paracetamol_1g_prn",),
    )
    say(C, "Any allergies to medicines?")
    say(
        P,
        "Trimethoprim. I came out in a rash all over, the last time I had it. So they gave me something "
        "else for the water infection.",
        ("allergy:trimethoprim",),
    )
    say(D, "And sticking plasters. His skin goes red and blistered under them.", ("allergy:adhesive_plasters",))
    say(C, "I'll make sure both of those are on your record. Does diabetes run in the family?")
    say(
        P,
        "My brother Ken had sugar diabetes. He lost his leg below the knee in the end, from an ulcer that "
        "went bad. That's why I'm worried about my feet.",
        (
            "family_history:diabetes",
            "family_history:below_knee_amputation",
            "concern:amputation",
            "expressed:worried",
            "lay_term",
        ),
    )
    say(C, "I'm sorry about your brother. That's a very understandable worry. Anyone else in the family?")
    say(
        P,
        "My mother had a stroke in her seventies. And my father had a bad heart.",
        ("family_history:stroke", "family_history:heart_disease"),
    )
    say(
        D,
        "I get pins and needles in my hands myself, at night. My doctor back home says it's carpal tunnel.",
        ("relative_symptom:pins_and_needles_hands", "relative_history:carpal_tunnel"),
    )
    say(
        C,
        "That's a different thing from your dad's, but do get it checked if it gets worse. Mister Bennett, "
        "do you smoke, or drink?",
    )
    say(
        P,
        "I stopped smoking twenty years ago. A pint on a Sunday, that's all.",
        ("social:ex_smoker", "social:alcohol_minimal"),
    )
    tl.cough(P, cuts["S5a"], gap=0.5, speed=1.04)
    say(
        C,
        "Your blood test two weeks ago showed your H b A one c, the long term sugar test, was sixty eight. "
        "Last time it was fifty eight, so it's gone up.",
        ("result:hba1c_68", "result:hba1c_previous_58"),
        gap=0.9,
    )
    say(P, "I've been having a few too many biscuits, I'll admit.", ("diet:biscuits",))
    say(C, "Let me check your blood pressure first. Rest your arm on the desk for me.", ("exam",))
    tl.pause(8.0)  # silent blood pressure measurement
    say(
        C,
        "Your blood pressure is one hundred and forty eight over eighty six. That's a little higher than "
        "we'd like for you.",
        ("exam", "vital:bp_148_86"),
        gap=0,
    )
    say(
        C,
        "Now, could you take your shoes and socks off for me, and pop your feet up on the stool? I'm going "
        "to check your feet.",
        ("exam", "instruction"),
    )
    say(P, "Righto. These laces are double knotted.")
    tl.pause(6.0)  # silence while he takes his shoes off
    say(
        C,
        "Your skin is a bit dry, and there's some hard skin on the ball of your right foot. There are no "
        "ulcers, and no sign of infection.",
        ("exam", "finding:dry_skin", "finding:callus_right_forefoot", "finding:no_ulcer"),
        gap=0,
    )
    say(C, "I'm going to feel for the pulses in your feet.", ("exam",))
    tl.pause(4.0)
    say(
        C,
        "The pulses are there on both sides, which is good. Your circulation seems fine.",
        ("exam", "finding:foot_pulses_present"),
        gap=0,
    )
    say(
        C,
        "Now close your eyes. I'll touch your feet with this thin nylon thread. Say yes each time you feel it.",
        ("exam", "instruction", "monofilament"),
    )
    tl.pause(2.0)
    say(P, "Yes.", ("exam_response",), gap=0)
    tl.pause(2.5)
    say(P, "Yes.", ("exam_response",), gap=0)
    tl.pause(6.5)  # he does not feel the next touches
    say(C, "Did you feel that one?", ("exam",), gap=0)
    say(P, "No. Nothing at all.", ("exam_response", "affirm:reduced_sensation"))
    tl.pause(3.0)
    say(P, "Yes, that one.", ("exam_response",), gap=0)
    say(C, "And now the tuning fork, on your big toe. Tell me when the buzzing stops.", ("exam", "instruction"))
    tl.pause(4.0)
    say(
        P,
        "I can't really feel it buzzing on my toes at all. I can feel it on my ankle.",
        ("exam_response", "affirm:reduced_vibration_sense"),
        gap=0,
    )
    say(C, "Okay. You can put your socks back on.")
    say(
        C,
        "So, you can't feel the thread on four of the ten spots, mostly on your toes and the ball of your "
        "foot, on both sides. And the vibration sense is reduced at your toes.",
        ("exam", "finding:monofilament_4_of_10_absent", "finding:reduced_vibration_toes"),
    )
    say(
        C,
        "I think this is diabetic neuropathy. That means the sugar has damaged the nerves in your feet. It's "
        "common, and it's why your feet feel numb, and burn at night.",
        ("diagnosis:diabetic_peripheral_neuropathy",),
    )
    say(
        C,
        "It also means your diabetes isn't as well controlled as it was, and your feet are at increased risk. "
        "The good news is that your circulation is fine.",
        ("diagnosis:suboptimal_glycaemic_control", "diagnosis:foot_risk_increased"),
    )
    say(
        C,
        "Metformin can sometimes lower your vitamin B twelve, and that can cause numbness too, so I want to "
        "check that as well.",
        ("diagnosis:b12_deficiency_considered",),
    )
    say(P, "Will I end up like our Ken?", ("concern:amputation", "expressed:worried"))
    say(
        C,
        "Not if we look after your feet. Ken's problem was an ulcer that got infected. We're going to make "
        "sure that doesn't happen to you.",
        ("reassurance",),
    )
    say(
        C,
        "Here's the plan. I'm referring you to the podiatrist, the foot specialist, to deal with the hard "
        "skin and to check your feet regularly.",
        ("plan:podiatry_referral",),
    )
    say(
        C,
        "I'd like some blood tests: vitamin B twelve and your kidneys, and a urine test for protein.",
        ("plan:blood_test_b12_renal", "plan:urine_acr"),
    )
    say(
        C,
        "For the burning at night, I'll start amitriptyline, ten milligrams, one tablet two hours before "
        "bed. It can make you a bit drowsy, so that's the right time to take it.",
        ("plan:amitriptyline_10mg_on",),
    )
    say(
        C,
        "And I'm adding a new diabetes tablet, sitagliptin, one hundred milligrams once a day. Keep the "
        "metformin and the gliclazide the same, and try a pill box, so you don't miss the evening dose.",
        ("plan:sitagliptin_100mg_od", "plan:continue_metformin_gliclazide", "plan:pill_organiser"),
    )
    say(D, "I can sort out a pill box for him before I fly home.", ("relative:support",))
    say(
        C,
        "Check your feet every day. Susan can help while she's here. Wear shoes or slippers indoors, never "
        "walk barefoot, and don't put a hot water bottle on your feet, because you might not feel a burn.",
        ("plan:daily_foot_checks", "advice:footwear", "advice:no_hot_water_bottle"),
    )
    say(
        C,
        "Your eye screening is due next month, so please keep that appointment.",
        ("plan:retinal_screening",),
    )
    say(
        C,
        "If you notice a cut, a blister, or any redness, heat or swelling in your foot, ring us the same "
        "day. If part of your foot turns black or blue, or you get a fever with a red, hot foot, go to A "
        "and E.",
        ("safety_net",),
    )
    say(
        C,
        "And if you ever get chest pain, or sudden weakness in your face or your arm, call nine nine nine "
        "straight away.",
        ("safety_net",),
    )
    say(P, "Right you are. I'll remember that.")
    say(
        C,
        "The nurse will see you in four weeks to check your blood pressure again, and I'll see you in three "
        "months, with a new blood test.",
        ("plan:nurse_bp_check_4_weeks", "plan:follow_up_3_months"),
    )
    say(D, "Thank you so much, doctor. That's a weight off my mind.", ("expressed:relieved",))
    tl.cough(P, cuts["S5a"], overlap=0.12, speed=0.97)
    say(P, "Aye. Thanks, doctor.", gap=0.5)
    tl.pause(4.0)

    tl.begin(
        "waiting_room_b",
        "Back in the waiting room: the desk phone rings and the receptionist takes a work call (only his side "
        "is heard; symptom words used non-clinically), a bystander coughs, emotional remarks (RAVDESS), the "
        "nurse appointment is booked, a silence",
        "waiting",
    )
    tl.pause(1.5)
    one_side = ("phone_call_one_side", *ncw)
    tl.ring(gap=0, desk=True)
    say(Q, "Lakeside Surgery, Callum speaking.", ("phone_call_one_side",), gap=0.6)
    say(
        Q,
        "Oh, hi Dave. Yes, the printer's been coughing and spluttering all morning. It keeps chewing up the paper.",
        one_side,
    )
    say(Q, "I know, it's a real pain. Every time I fix it, it has another funny turn.", one_side, gap=1.6)
    say(
        Q,
        "The new booking system? Don't talk to me about it. It makes my head spin.",
        one_side,
        gap=1.8,
    )
    say(
        Q,
        "No, the engineer can't come until Thursday. It's sickening. Right, I'll give it a kick, and see if "
        "it recovers. Cheers, Dave.",
        one_side,
        gap=1.5,
    )
    tl.cough(B, cuts["S3b"], gap=1.6)
    tl.emotion(ravdess, EMOTIONS_03[3])
    say(D, "Hello. We need to book a nurse appointment for four weeks' time, for his blood pressure.", gap=2.0)
    say(Q, "I can do that for you. Tuesday the ninth, at ten past ten?", ("plan:nurse_appointment_booked",))
    say(P, "That'll do nicely.")
    say(Q, "Lovely. Here's your card.")
    tl.pause(9.0)  # silence
    tl.cough("bank03_bystander_2", cuts["S6a"], gap=0, speed=1.02)
    tl.emotion(ravdess, EMOTIONS_03[4])
    say(D, "Come on, Dad. Let's get that pill box from the chemist.", ("smalltalk",), gap=2.5)
    say(P, "Go on, then. And no more biscuits.", ("smalltalk",))


SPEAKERS_03 = {
    "bank03_clinician": Speaker("clinician", "Doctor Fraser", "espeak:en-gb-x-rp+f3", "F", "GP (synthetic)"),
    "bank03_patient": Speaker(
        "patient",
        "Harold Bennett",
        "espeak:en-gb-x-gbclan",
        "M",
        "patient, a retired bus driver with type 2 diabetes (synthetic speech, real coughs)",
    ),
    "bank03_relative": Speaker(
        "relative",
        "Susan Bennett",
        "espeak:en-us+f2",
        "F",
        "the patient's daughter, visiting from the USA; she also answers questions (synthetic)",
    ),
    "bank03_receptionist": Speaker(
        "receptionist",
        "Callum",
        "espeak:en-gb-scotland",
        "M",
        "surgery receptionist; calls the patient in and takes a work phone call at the desk (synthetic)",
    ),
    "bank03_tv": Speaker(
        "tv",
        None,
        "espeak:en-gb-x-rp+m3",
        "M",
        "television in the waiting room: lunchtime news and weather presenter (synthetic)",
    ),
    "bank03_bystander_1": Speaker(
        "bystander", None, None, "F", "a person in the waiting room who coughs (real BMC coughs, source S3)"
    ),
    "bank03_bystander_2": Speaker(
        "bystander", None, None, "F", "another person in the waiting room who coughs (real BMC cough, source S6)"
    ),
}


# --------------------------------------------------------------------------- main

SPEAKERS_01 = {
    "bank01_clinician": Speaker("clinician", "Doctor Hughes", "slt", "F", "GP (synthetic)"),
    "bank01_patient": Speaker("patient", "Daniel Okafor", "rms", "M", "patient, a chef (synthetic)"),
    "bank01_reader": Speaker(
        "reader", None, "awb", "M", "another man in the waiting room reading a newspaper aloud (synthetic)"
    ),
    "bank01_receptionist": Speaker(
        "receptionist",
        "Kevin",
        "kal16",
        "M",
        "surgery receptionist; calls the patient in and takes his phone call (synthetic)",
    ),
    "bank01_bystander_1": Speaker(
        "bystander", None, None, "F", "a person in the waiting room who coughs (real BMC coughs, source S3)"
    ),
}

SPEAKERS_02 = {
    "bank02_clinician": Speaker("clinician", "Doctor Campbell", "awb", "M", "GP (synthetic)"),
    "bank02_patient": Speaker(
        "patient", "Linda Marsh", "slt", "F", "patient with asthma and palpitations (synthetic speech, real coughs)"
    ),
    "bank02_relative": Speaker(
        "relative", "Graham Marsh", "rms", "M", "the patient's husband, who has a cold (synthetic)"
    ),
    "bank02_receptionist": Speaker("receptionist", None, "kal16", "M", "surgery receptionist (synthetic)"),
    "bank02_bystander_1": Speaker(
        "bystander", None, None, "F", "a person in the waiting room who coughs (real BMC cough, source S3)"
    ),
}


def write(audio: np.ndarray, truth: dict[str, object], out_dir: Path, rec: str) -> None:
    """Write ``rec.flac`` and ``rec.truth.json``."""
    flac = out_dir / f"{rec}.flac"
    sf.write(flac, audio, SAMPLE_RATE, format="FLAC", subtype="PCM_16", compression_level=1.0)
    (out_dir / f"{rec}.truth.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    events = truth["events"]
    assert isinstance(events, list)
    counts: dict[str, int] = {}
    for e in events:
        counts[e["kind"]] = counts.get(e["kind"], 0) + 1
    print(
        f"wrote {flac} ({truth['duration_s']:.1f} s, {flac.stat().st_size / 1e6:.2f} MB, "
        f"peak {dbfs(np.array([np.max(np.abs(audio))])):.1f} dBFS): {counts}"
    )


LICENSES_HEAD = """# Bank recordings: provenance and licences of every clip

Files in this folder (made by `benchmarks/bank/make_recordings.py`, offline and
deterministically from a seed):

| file | what |
| --- | --- |
| `bank_rec_01.flac` + `.truth.json` | waiting room (newspaper story read aloud), GP consultation about abdominal pain and diarrhoea, phone call booking a blood test |
| `bank_rec_02.flac` + `.truth.json` | waiting room with emotional RAVDESS lines, asthma / palpitations review with the patient's husband, waiting room |
| `bank_rec_03.flac` + `.truth.json` | waiting room with TV news and weather, type 2 diabetes review (numb feet) with the patient's daughter, waiting room with a desk-phone call (eSpeak NG voices) |
| `bank_rec_04.flac` + `.truth.json` | nurse triage phone call about a child with fever and a non-blanching rash, GP consultation of another patient (low mood, anxiety, insomnia, knee pain) with her husband and a visitor's emotional lines from the corridor, the GP's dictation (Flite and eSpeak NG voices) |
| `bank_rec_05.flac` + `.truth.json` | community pharmacy counter with customers' emotional remarks, the pharmacist's structured medication review of an older woman with heart failure (ACE-inhibitor cough, over-the-counter ibuprofen, weight, sitting and standing blood pressure) with her son, the hospital pharmacist's phone call to the son about switching ramipril to sacubitril/valsartan (Flite and eSpeak NG voices) |
| `bank_rec_06.flac` + `.truth.json` | out-of-hours urgent treatment centre waiting area with other people's emotional remarks and the desk phone, an advanced practitioner's consultation of an older woman after a fall on her outstretched hand (suspected wrist fracture) who also has a chest infection, with her sister, then the practitioner's handover to the night doctor (Flite and eSpeak NG voices) |
| `bank_rec_07.flac` + `.truth.json` | GP surgery waiting area (a picture book read aloud, the desk phone, other people's emotional remarks), a same-day GP consultation of a six-year-old boy with a left ear infection, his mother answering most questions for him, then the GP's telephone follow-up three days later (Flite and eSpeak NG voices; a child's voice) |
| `bank_rec_08.flac` + `.truth.json` | hospital respiratory clinic waiting area (the television, a healthcare assistant at the door, other people's emotional remarks), a respiratory nurse's COPD review of an older man with his wife answering for him at times and mentioning her own complaints, then the nurse's phone call three days later about the sputum result (Flite and eSpeak NG voices) |
| `bank_rec_09.flac` + `.truth.json` | hospital medical ward bay (another patient's observations, a confused man in the next bed, an infusion-pump alarm, other people's emotional remarks), the consultant's ward round of an older man with pneumonia (the junior doctor presents him, the nurse reports observations, he corrects the presentation once), then the junior doctor's phone update to his daughter (Flite and eSpeak NG voices) |
| `bank_rec_10.flac` + `.truth.json` | a GP home visit: the hallway on arrival (a door chime, the son's own bad knee and hay fever, the television, the daughter-in-law on her mobile about the patient's tablets, the neighbour and the grandson), the GP's consultation of an 86-year-old woman with worsening heart failure and a fall in her front room (her daughter-in-law answering for her at times and contradicting her), then the GP's speakerphone call to the district nurses (Flite and eSpeak NG voices) |
| `bank_rec_11.flac` + `.truth.json` | a GP practice waiting room (the patient's grandson checks her in, another patient's father and little daughter, the practice nurse, other people's emotional remarks, a bystander's cough), an interpreted consultation of an 81-year-old Polish woman with black stools and stomach pain on ibuprofen and aspirin, her grandson interpreting (Polish and English; his own heartburn), the GP's speakerphone call to the hospital's acute medical registrar, the goodbye and the corridor (Flite and eSpeak NG voices, English and Polish) |
| `bank_rec_12.flac` + `.truth.json` | a maternity triage phone call the evening before (reduced fetal movements that came back, a headache), a community midwife's 34-week antenatal home visit in the living room with the woman's partner (answering for her at times and contradicting her; his own hay fever and cough) and their three-year-old, the television for a minute, the neighbour at the door (raised blood pressure with protein: possible pre-eclampsia, sent to the maternity assessment unit), then the midwife's voice memo in her car (Flite and eSpeak NG voices; a child's voice) |
| `bank_rec_13.flac` + `.truth.json` | an emergency department majors cubicle: a paramedic's handover of a 72-year-old man with chest pain and palpitations (the cardiac monitor alarming, a tannoy announcement), the ED doctor's assessment with his wife arriving part-way (answering for him at times and contradicting him; her own health), the examination and the ECG read aloud (new atrial fibrillation, possible NSTEMI), coughs and other people's emotional lines from the next cubicle, the doctor's phone referral to the cardiology registrar, then the nurse telling the patient and his wife the plan (Flite and eSpeak NG voices) |

All people, names and consultations are fiction. 16 kHz mono 16-bit FLAC.

## Overall licence and use

* `bank_rec_01.flac` contains synthetic speech, generated sounds and two real
  coughs (BMC, CC BY 2.0): distribute under **CC BY 2.0** with the attribution below.
* `bank_rec_02.flac` to `bank_rec_13.flac` also contain RAVDESS clips, so they
  are under **CC BY-NC-SA 4.0** (non-commercial, share-alike; attribution to
  RAVDESS and to the BMC coughs): **evaluation / research use only**.
* The truth files and scripts: written by the HARP Desktop project (same terms
  as the recordings they describe).

Required attributions:

> Coughs from Smith JA, Ashurst HL, Jack S, Woodcock AA, Earis JE (2006).
> "The description of cough sounds by healthcare professionals". *Cough* 2:1,
> BioMed Central (PMID 16436200). Supplementary audio, CC BY 2.0,
> https://creativecommons.org/licenses/by/2.0/.
>
> Livingstone SR, Russo FA (2018). The Ryerson Audio-Visual Database of
> Emotional Speech and Song (RAVDESS). PLoS ONE 13(5): e0196391. Zenodo,
> doi:10.5281/zenodo.1188976. CC BY-NC-SA 4.0,
> https://creativecommons.org/licenses/by-nc-sa/4.0/.
>
> Synthetic speech made with Flite (Carnegie Mellon University) and the CMU
> ARCTIC / kal voices (bank_rec_01, bank_rec_02, bank_rec_04 to bank_rec_13) and with
> eSpeak NG (bank_rec_03 to bank_rec_13).

## Components

### Speech (synthetic)

- Engine: Flite 2.2 (Debian package `flite`), Carnegie Mellon University;
  BSD-style licence (free to use and distribute, keep the copyright notice; see
  `/usr/share/doc/libflite1/copyright`).
- Voices: `cmu_us_slt` (US female), `cmu_us_rms` (US male), `cmu_us_awb`
  (Scottish-English male) built from the CMU ARCTIC databases (Kominek & Black,
  CMU; free for any use under the same BSD-style terms), and `cmu_us_kal16`
  (US male diphone voice shipped with Flite, same terms).
- bank_rec_03 uses eSpeak NG 1.51 instead (Debian package `espeak-ng`;
  the program is GPL-3.0-or-later, see `/usr/share/doc/espeak-ng-data/copyright`)
  with its built-in formant voices `en-gb-x-rp` (+ variants `f3`, `m3`),
  `en-gb-x-gbclan`, `en-us` (+ `f2`) and `en-gb-scotland`. The recording
  holds only the program's output (no part of the program or its data), which
  the GPL does not restrict.
- bank_rec_04 mixes both engines: Flite `cmu_us_slt` (the triage nurse),
  `cmu_us_rms` (the GP) and `cmu_us_awb` (the husband); eSpeak NG `en-us` +
  variant `f4` (the mother on the phone) and `en-gb-x-gbcwmd` (West Midlands)
  + variant `f2` (the patient).
- bank_rec_05 mixes both engines too: Flite `cmu_us_slt` (the pharmacy counter
  assistant) and `cmu_us_kal16` (the community pharmacist); eSpeak NG
  `en-gb-scotland` + variant `f5` (the patient), `en-us` + variant `m3` (her son)
  and `en-gb-x-rp` + variant `f4` (the hospital pharmacist on the phone).
- bank_rec_06 mixes both engines: Flite `cmu_us_awb` (the receptionist), `cmu_us_slt`
  (the patient's sister) and `cmu_us_rms` (the night doctor); eSpeak NG `en-us-nyc`
  (New York City English, male; the advanced practitioner) and `en-gb-x-rp` + variant `f2`
  (the patient).
- bank_rec_07 mixes both engines: Flite `cmu_us_kal16` (the receptionist), `cmu_us_awb` (the grandfather
  reading the picture book) and `cmu_us_slt` (the mother); eSpeak NG `en-gb-x-rp` + variant `m7` (the GP)
  and `en-gb-x-rp` + variant `f5` with the base pitch raised to 90 (`-p 90`; the six-year-old boy).
- bank_rec_08 mixes both engines: Flite `cmu_us_rms` (the patient); eSpeak NG `en-us` + variant `f5` (the
  respiratory nurse), `en-us` + variant `grandma` with the base pitch lowered to 30 (`-p 30`; the patient's
  wife), `en-us` + variant `m6` (the healthcare assistant) and `en-gb-x-rp` + variant `m1` (the television).
- bank_rec_09 mixes both engines: Flite `cmu_us_awb` (the patient), `cmu_us_slt` (the junior doctor) and
  `cmu_us_kal16` (the healthcare assistant); eSpeak NG `en-gb-x-rp` + variant `m2` (the consultant), `en-us` +
  variant `f3` (the ward nurse), `en-gb-x-gbclan` + variant `f4` (another patient in the bay), `en-gb-scotland` +
  variant `m5` (the confused man in the next bed) and `en-gb-x-rp` + variant `f2` (the daughter on the phone, as bank_rec_06's
  patient).
- bank_rec_10 mixes both engines: Flite `cmu_us_rms` (the patient's son), `cmu_us_slt` (the daughter-in-law) and
  `cmu_us_kal16` (the district nurse, heard through the GP's speakerphone); eSpeak NG `en-gb-x-rp` + variant `m8` (the
  GP), `en-gb-scotland` + variant `f2` (the patient) and `en-us` + variant `m4` (the television).
- bank_rec_11 mixes both engines: Flite `cmu_us_slt` (the GP), `cmu_us_awb` (the receptionist), `cmu_us_rms` (another
  patient's father) and `cmu_us_kal16` (the hospital registrar, heard through the GP's speakerphone); eSpeak NG
  `en-gb-x-rp` + variant `f1` (the patient's few English words) and eSpeak NG's Polish voice `pl` + the same variant
  `f1` (her Polish), `en-gb-x-rp` + variant `m6` (her grandson) and `pl` + `m6` (his Polish), `en-gb-x-rp` + variant
  `f3` with the base pitch raised to 95 (`-p 95`; a four-year-old girl) and `en-gb-x-gbclan` + variant `f2` (the
  practice nurse). The Polish turns' truth text is the Polish that was synthesised, with an English translation.
- bank_rec_12 mixes both engines: Flite `cmu_us_slt` (the pregnant woman, on the phone and at home), `cmu_us_rms` (her
  partner) and `cmu_us_kal16` (the television); eSpeak NG `en-us` + variant `Annie` (the community midwife, a voice
  never used before), `en-us` + variant `f2` with the base pitch lowered a little to 45 (`-p 45`; the triage midwife
  on the phone) and `en-gb-x-gbclan` + variant `f5` with the base pitch raised to 95 (`-p 95`; a three-year-old boy).
- bank_rec_13 mixes both engines: Flite `cmu_us_rms` (the paramedic), `cmu_us_awb` (the patient), `cmu_us_slt` (his
  wife) and `cmu_us_kal16` (the cardiology registrar on the phone); eSpeak NG `en-gb-x-rp` + variant `edward` (the ED
  doctor, a voice never used before), `en-us` + variant `f1` (the ED nurse, a voice never used before) and `en-gb-x-rp`
  + variant `announcer` (the tannoy announcement, passed through a generated loudspeaker band-limit of 300-4000 Hz
  and a seeded reverberation tail).
- Text: the scripts in `make_recordings.py`, `rec04.py`, `rec05.py`, `rec06.py`, `rec07.py`, `rec08.py`, `rec09.py`,
  `rec10.py`, `rec11.py`, `rec12.py` and `rec13.py`, written by the HARP Desktop project for this bank. The newspaper story in bank_rec_01, the TV news
  and weather in bank_rec_03 and bank_rec_08, the picture book in bank_rec_07, the television programmes in
  bank_rec_10 and bank_rec_12 and the tannoy announcement in bank_rec_13 are invented (no third-party text).
- Processing: leading/trailing silence trimmed, level set per turn (about -23
  dBFS active RMS; the reader -25 dBFS; telephone speech -24 dBFS after
  band-limiting to 300-3400 Hz with light soft clipping), 5 ms fades.

### Coughs (real recordings of other people)

- Source: Smith et al. (2006), *Cough* 2:1, supplementary audio S1, S3, S5, S6
  (open access, CC BY 2.0; licence as recorded in the project's data
  provenance, not re-checked offline).
- How they got here: S1, S3 and S6 are cut from the shared development
  recording `/work/shared/data/dev/dev_long_01.flac` at the cough spans listed
  in its truth file (the same cuts `resources/samples/make_sample.py` uses);
  the S5 cough of bank_rec_03 to bank_rec_13 is the shared cue clip
  `/work/shared/data/dev/cues/dev_cue_cough.flac`, trimmed. Some are
  resampled by 0.95-1.04x (speed and pitch), levels set to about -24 dBFS RMS,
  5 ms fades, and attributed to a fictional patient or bystander.
- The coughers are real people (all four women) unrelated to the fictional
  consultations; in bank_rec_03 the male patient's coughs are S5's, and in bank_rec_07 a six-year-old
  boy's coughs are these women's (S1, S5, S6), and in bank_rec_08 a 71-year-old man's coughs are these women's
  (S1, S3, S5, S6; S3 is a COPD patient's), and in bank_rec_09 a 68-year-old man's coughs are these women's
  (S1, S3, S5, S6), and in bank_rec_10 an 86-year-old woman's coughs and one of her son's are these women's
  (S1, S3, S5, S6), and in bank_rec_11 an 81-year-old woman's coughs (S1, S3, S5, S6) and a bystander's (S1) are
  these women's, and in bank_rec_12 a man's coughs (the partner's: S1, S3, S6, each slowed to 0.95-0.96x) and a
  pregnant woman's (S1, S5) are these women's, and in bank_rec_13 a 72-year-old man's coughs (S1, S3, S5, S6, each
  slowed to 0.95-0.97x) and a woman's in the next cubicle (S1, 4 dB quieter) are these women's. No throat
  clearing is included in any recording (no honestly licensed real clip was
  available offline; sound events are never synthesised).

### Emotional speech (RAVDESS, bank_rec_02 to bank_rec_13)

- Source: RAVDESS speech audio, actors 01, 02, 05, 06 and 24 only, taken from
  the shared set `/work/shared/data/ser-train/` (16 kHz mono FLAC).
  CC BY-NC-SA 4.0. File name code `03-01-EE-II-SS-RR-AA` gives emotion,
  intensity, statement, repetition and actor; these labels are copied to the truth.
- Processing: trimmed, level set to about -26 dBFS active RMS, 5 ms fades;
  placed as other people in the waiting room; in bank_rec_04 as a visitor in
  the corridor heard through the consulting-room door (3 dB quieter, about -29 dBFS); in
  bank_rec_05 as other customers at a pharmacy counter, one heard from the shop floor through the
  consultation-room door (3 dB quieter), and with each clip's quiet lead-in and tail cut (a 20 ms frame
  more than 19 dB below the clip's active level), so the truth span starts and ends with the voice; in
  bank_rec_06 as other people in an urgent treatment centre's waiting area, and one visitor heard from the
  corridor through the staff-base door (3 dB quieter), lead-in and tail cut as in bank_rec_05; in
  bank_rec_07 as other people in a GP surgery waiting area, and one parent heard from the corridor
  through the consulting-room door (3 dB quieter), lead-in and tail cut as in bank_rec_05; in
  bank_rec_08 as other people in a hospital clinic waiting area, and two visitors heard from the corridor
  through the clinic-room door (3 dB quieter), lead-in and tail cut as in bank_rec_05; in
  bank_rec_09 as visitors and other patients in a hospital ward bay, one heard during the ward round at another
  bed (3 dB quieter), lead-in and tail cut as in bank_rec_05; in
  bank_rec_10 as the patient's next-door neighbour (actor 24) and her grandson (actor 05) in the hallway of her house
  (the grandson from upstairs 2 dB quieter), and heard from the hallway through the front-room door during the
  consultation (3 dB quieter), lead-in and tail cut as in bank_rec_05; in
  bank_rec_11 as other people in a GP practice waiting room and corridor (clips not used in bank_rec_02 to
  bank_rec_10), and one man heard from the corridor through the consulting-room door (3 dB quieter), lead-in and
  tail cut as in bank_rec_05; in
  bank_rec_12 (clips not used in bank_rec_02 to bank_rec_11) as a man on the living-room television (actor 01, 4 dB
  quieter), the next-door neighbour at the front door (actor 06, 2 dB quieter) and a woman across the road heard
  through the living-room window (actor 24, 3 dB quieter), lead-in and tail cut as in bank_rec_05; in
  bank_rec_13 (clips not used in bank_rec_02 to bank_rec_12) as people in the next cubicle of an emergency
  department, heard through the curtain (actors 05, 02 and 24; 4 dB quieter), lead-in and tail cut as in bank_rec_05.
- Caution: these exact clips are also in the emotion training set, so emotion
  results on bank_rec_02 to bank_rec_13 are not speaker-independent.

### Generated sounds (no third-party material)

- Room tone: seeded pink noise (about -50 dBFS in waiting rooms, -58 dBFS in
  the consulting room); telephone line noise: the same, band-limited, about -47 dBFS.
- Ring-back tone in the bank_rec_01, bank_rec_04, bank_rec_05, bank_rec_07 and bank_rec_08 phone calls, the desk phone ringing
  in the bank_rec_03, bank_rec_06 and bank_rec_07 waiting rooms and the phone ringing in bank_rec_05's consultation
  room: 400+450 Hz,
  UK cadence; the ring-back tone of the bank_rec_09 phone update is the same.
- Alarms in bank_rec_09 (event kind `alarm`): an infusion-pump alarm in the ward bay and a monitor alarm at
  another bed during the ward round, each a pure-tone beep pattern (groups of three 0.25 s beeps at 960 Hz,
  0.15 s apart, 0.9 s between groups; about -30 dBFS RMS); a generated stand-in, no real equipment recorded.
- Doorbell in bank_rec_10 (event kind `doorbell`): a two-tone door chime (659 Hz for 0.7 s then 523 Hz for 1.3 s,
  each with a second harmonic and an exponential decay; about -28 dBFS RMS); a generated stand-in, no real doorbell
  recorded. The ring-back tone of its phone call is the same 400+450 Hz UK cadence, band-limited to 300-3400 Hz
  with the far side of the call (heard from the GP's speakerphone).
- The ring-back tone of bank_rec_11's phone call is the same, band-limited with the registrar's side of the call (heard
  from the consulting-room speakerphone).
- bank_rec_12: the ring-back tone of its triage phone call is the same, band-limited with the call (both sides heard as
  telephone audio), and its doorbell is bank_rec_10's generated door chime (event kind `doorbell`). The doppler
  listen during the examination is a silent pause: no fetal-heart sound is synthesised.
- bank_rec_13: the cubicle's cardiac monitor alarm is bank_rec_09's beep pattern (event kind `alarm`, three groups);
  the tannoy's chime (event kind `chime`) is a generated two-tone chime (784 Hz for 0.6 s then 659 Hz for 1.0 s, each
  with a second harmonic and an exponential decay; about -30 dBFS RMS), and the announcement after it (event kind
  `announcement`) is eSpeak NG speech; both pass through a generated public-address chain (band-limited 300-4000 Hz,
  then a seeded reverberation tail: decaying noise, RT60 1.1 s, about -9 dB against the direct sound); no real
  public-address system recorded. The ring-back tone of its phone referral is the same 400+450 Hz UK cadence,
  band-limited with the call (both sides heard as telephone audio). The examination pauses are silent.

## Every clip, in order

"""


def write_licenses(out_dir: Path, truths: dict[str, dict[str, object]]) -> None:
    """Write ``LICENSES.md``: the fixed text plus a table of every placed clip."""
    lines = [LICENSES_HEAD]
    for rec, truth in truths.items():
        lines.append(f"### {rec}.flac ({truth['duration_s']} s)\n")
        lines.append("| event | time (s) | kind | speaker (role) | source | licence |")
        lines.append("| --- | --- | --- | --- | --- | --- |")
        events = truth["events"]
        assert isinstance(events, list)
        for e in events:
            if e["kind"] == "silence":
                continue
            kind = e["kind"]
            if kind == "cough":
                licence = "CC BY 2.0"
            elif kind == "emotion_speech":
                licence = "CC BY-NC-SA 4.0"
            elif kind in ("speech", "announcement") and str(e.get("voice", "")).startswith("espeak-ng"):
                licence = "eSpeak NG output (synthetic)"
            elif kind == "speech":
                licence = "Flite BSD-style (synthetic)"
            else:
                licence = "generated, no third-party content"
            src = str(e["source"]).replace("|", "/")
            lines.append(
                f"| {e['id']} | {e['start_s']:.3f}-{e['end_s']:.3f} | {kind} | {e['speaker']} ({e['role']}) "
                f"| {src} | {licence} |"
            )
        lines.append("")
    lines.append("Silence events and the room tone under everything are generated pink noise (no third-party content).\n")
    (out_dir / "LICENSES.md").write_text("\n".join(lines))


def validate(out_dir: Path, rec: str) -> list[str]:
    """Check one written recording against its truth file; return a list of problems."""
    problems: list[str] = []
    flac = out_dir / f"{rec}.flac"
    truth = json.loads((out_dir / f"{rec}.truth.json").read_text())
    audio, sr = sf.read(flac, dtype="float64")
    if sr != SAMPLE_RATE or audio.ndim != 1:
        problems.append(f"{rec}: expected 16 kHz mono, got {sr} Hz, shape {audio.shape}")
    dur = len(audio) / sr
    if abs(dur - truth["duration_s"]) > 0.002:
        problems.append(f"{rec}: duration {dur:.3f} s != truth {truth['duration_s']}")
    if not 480 <= dur <= 840:
        problems.append(f"{rec}: duration {dur:.1f} s outside 8-14 min")
    size_mb = flac.stat().st_size / 1e6
    if size_mb > 15:
        problems.append(f"{rec}: FLAC is {size_mb:.1f} MB (> 15 MB)")
    secs = truth["sections"]
    if secs[0]["start_s"] != 0 or abs(secs[-1]["end_s"] - truth["duration_s"]) > 1e-6:
        problems.append(f"{rec}: sections do not cover the file")
    for a, b in zip(secs, secs[1:], strict=False):
        if a["end_s"] != b["start_s"]:
            problems.append(f"{rec}: sections {a['name']} / {b['name']} do not tile")
    ev = truth["events"]
    if [(e["start_s"], e["end_s"]) for e in ev] != sorted((e["start_s"], e["end_s"]) for e in ev):
        problems.append(f"{rec}: events not sorted")
    if len({e["id"] for e in ev}) != len(ev):
        problems.append(f"{rec}: duplicate ids")
    for e in ev:
        if not 0 <= e["start_s"] < e["end_s"] <= truth["duration_s"]:
            problems.append(f"{e['id']}: bad span {e['start_s']}-{e['end_s']}")
        if e["kind"] in ("speech", "emotion_speech") and not (e["text"] or "").strip():
            problems.append(f"{e['id']}: {e['kind']} without text")
        if e["kind"] == "emotion_speech" and not e["emotion"]:
            problems.append(f"{e['id']}: emotion_speech without emotion label")
        if e["speaker"] is not None and e["speaker"] not in truth["speakers"]:
            problems.append(f"{e['id']}: unknown speaker {e['speaker']}")
        sec = next(s for s in secs if s["start_s"] <= e["start_s"] < s["end_s"])
        if sec["name"] != e["section"]:
            problems.append(f"{e['id']}: section {e['section']} but starts in {sec['name']}")
        if e["kind"] != "silence" and e["end_s"] > sec["end_s"] + 1e-6:
            problems.append(f"{e['id']}: crosses the end of section {sec['name']}")
    # overlaps: only a cough tagged overlaps_speech_end may overlap (the end of) a speech event
    for i, a in enumerate(ev):
        for b in ev[i + 1 :]:
            if b["start_s"] >= a["end_s"]:
                break
            pair = {a["kind"], b["kind"]}
            cough = a if a["kind"] == "cough" else b if b["kind"] == "cough" else None
            other = b if cough is a else a
            tags = (cough.get("tags") or []) if cough is not None else []
            ok = (
                cough is not None
                and pair == {"cough", "speech"}
                and (
                    (
                        "overlaps_speech_end" in tags
                        and other["start_s"] < cough["start_s"] < other["end_s"] <= cough["end_s"]
                    )
                    or (
                        "under_speech" in tags and other["start_s"] < cough["start_s"] < cough["end_s"] < other["end_s"]
                    )
                )
            )
            if not ok:
                problems.append(f"{rec}: {a['id']} ({a['kind']}) overlaps {b['id']} ({b['kind']})")
    # silence spans really are quiet; every placed event is audible above the bed
    for e in ev:
        seg = audio[round(e["start_s"] * sr) : round(e["end_s"] * sr)]
        level = dbfs(seg)
        if e["kind"] == "silence" and level > -44:
            problems.append(f"{e['id']}: silence at {level:.1f} dBFS")
        if e["kind"] != "silence" and level < -40:
            problems.append(f"{e['id']}: {e['kind']} only {level:.1f} dBFS")
    # RAVDESS lines: only the allowed ser-train actors, labels as in the file name
    for e in ev:
        if e["kind"] != "emotion_speech":
            continue
        info = parse_ravdess(Path(str(e["source"])).name)
        if info["actor"] not in ALLOWED_RAVDESS_ACTORS:
            problems.append(f"{e['id']}: RAVDESS actor {info['actor']} not allowed")
        if info["emotion"] != e["emotion"] or info["statement"] != e["text"]:
            problems.append(f"{e['id']}: emotion/text do not match {e['source']}")
    # telephone audio really is band-limited (little energy above the 3400 Hz band edge)
    for e in ev:
        if e["kind"] == "silence" or "telephone" not in (e.get("tags") or []):
            continue
        seg = audio[round(e["start_s"] * sr) : round(e["end_s"] * sr)]
        power = np.abs(np.fft.rfft(seg)) ** 2
        freqs = np.fft.rfftfreq(len(seg), d=1 / sr)
        hf = float(power[freqs > PHONE_BAND_HZ[1] + 300].sum() / (power.sum() + 1e-20))
        if hf > 0.0025:  # unfiltered speech or coughs typically carry 0.1-10 %, the phone turns < 0.1 %
            problems.append(f"{e['id']}: telephone audio has {100 * hf:.1f}% of its energy above 3.7 kHz")
    for sid, spk in truth["speakers"].items():
        missing = [k for k in ("role", "gender", "voice", "total_s") if k not in spk]
        if missing:
            problems.append(f"{sid}: speaker entry lacks {missing}")
        tot = sum(e["end_s"] - e["start_s"] for e in ev if e["speaker"] == sid)
        if abs(tot - spk["total_s"]) > 0.02:
            problems.append(f"{sid}: total_s {spk['total_s']} != {tot:.2f}")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed (default: %(default)s)")
    parser.add_argument("--out-dir", type=Path, default=HERE / "audio", help="output folder (default: %(default)s)")
    parser.add_argument(
        "--only",
        choices=[
            "bank_rec_01",
            "bank_rec_02",
            "bank_rec_03",
            "bank_rec_04",
            "bank_rec_05",
            "bank_rec_06",
            "bank_rec_07",
            "bank_rec_08",
            "bank_rec_09",
            "bank_rec_10",
            "bank_rec_11",
            "bank_rec_12",
            "bank_rec_13",
        ],
        help="build one recording only",
    )
    parser.add_argument("--cough-source", type=Path, default=DEFAULT_COUGH_SOURCE)
    parser.add_argument("--cue-cough", type=Path, default=DEFAULT_CUE_COUGH, help="BMC S5 cough (bank_rec_03 to _08)")
    parser.add_argument("--ravdess-dir", type=Path, default=DEFAULT_RAVDESS_DIR)
    args = parser.parse_args(argv)

    t0 = time.monotonic()
    flite = require_flite()
    cuts = load_cough_cuts(args.cough_source)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    truths: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "bank_rec_01"):
            seed = args.seed + 1
            tl = Timeline("bank_rec_01", seed, flite, Path(tmp), dict(SPEAKERS_01))
            build_rec01(tl, cuts)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_01")
            truths["bank_rec_01"] = truth
        if args.only in (None, "bank_rec_02"):
            seed = args.seed + 2
            tl = Timeline("bank_rec_02", seed, flite, Path(tmp), dict(SPEAKERS_02))
            build_rec02(tl, cuts, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_02")
            truths["bank_rec_02"] = truth
        if args.only in (None, "bank_rec_03"):
            require_espeak()
            seed = args.seed + 3
            tl = Timeline("bank_rec_03", seed, flite, Path(tmp), dict(SPEAKERS_03))
            build_rec03(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_03")
            truths["bank_rec_03"] = truth
        if args.only in (None, "bank_rec_04"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec04 imports this module
            sys.path.insert(0, str(HERE))
            from rec04 import SPEAKERS_04, build_rec04

            seed = args.seed + 4
            tl = Timeline("bank_rec_04", seed, flite, Path(tmp), dict(SPEAKERS_04))
            build_rec04(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_04")
            truths["bank_rec_04"] = truth
        if args.only in (None, "bank_rec_05"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec05 imports this module
            sys.path.insert(0, str(HERE))
            from rec05 import SPEAKERS_05, build_rec05

            seed = args.seed + 5
            tl = Timeline("bank_rec_05", seed, flite, Path(tmp), dict(SPEAKERS_05))
            build_rec05(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_05")
            truths["bank_rec_05"] = truth
        if args.only in (None, "bank_rec_06"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec06 imports this module
            sys.path.insert(0, str(HERE))
            from rec06 import SPEAKERS_06, build_rec06

            seed = args.seed + 6
            tl = Timeline("bank_rec_06", seed, flite, Path(tmp), dict(SPEAKERS_06))
            build_rec06(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_06")
            truths["bank_rec_06"] = truth
        if args.only in (None, "bank_rec_07"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec07 imports this module
            sys.path.insert(0, str(HERE))
            from rec07 import SPEAKERS_07, build_rec07

            seed = args.seed + 7
            tl = Timeline("bank_rec_07", seed, flite, Path(tmp), dict(SPEAKERS_07))
            build_rec07(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_07")
            truths["bank_rec_07"] = truth
        if args.only in (None, "bank_rec_08"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec08 imports this module
            sys.path.insert(0, str(HERE))
            from rec08 import SPEAKERS_08, build_rec08

            seed = args.seed + 8
            tl = Timeline("bank_rec_08", seed, flite, Path(tmp), dict(SPEAKERS_08))
            build_rec08(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_08")
            truths["bank_rec_08"] = truth
        if args.only in (None, "bank_rec_09"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec09 imports this module
            sys.path.insert(0, str(HERE))
            from rec09 import SPEAKERS_09, build_rec09

            seed = args.seed + 9
            tl = Timeline("bank_rec_09", seed, flite, Path(tmp), dict(SPEAKERS_09))
            build_rec09(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_09")
            truths["bank_rec_09"] = truth
        if args.only in (None, "bank_rec_10"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec10 imports this module
            sys.path.insert(0, str(HERE))
            from rec10 import SPEAKERS_10, build_rec10

            seed = args.seed + 10
            tl = Timeline("bank_rec_10", seed, flite, Path(tmp), dict(SPEAKERS_10))
            build_rec10(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_10")
            truths["bank_rec_10"] = truth
        if args.only in (None, "bank_rec_11"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec11 imports this module
            sys.path.insert(0, str(HERE))
            from rec11 import SPEAKERS_11, build_rec11

            seed = args.seed + 11
            tl = Timeline("bank_rec_11", seed, flite, Path(tmp), dict(SPEAKERS_11))
            build_rec11(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_11")
            truths["bank_rec_11"] = truth
        if args.only in (None, "bank_rec_12"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec12 imports this module
            sys.path.insert(0, str(HERE))
            from rec12 import SPEAKERS_12, build_rec12

            seed = args.seed + 12
            tl = Timeline("bank_rec_12", seed, flite, Path(tmp), dict(SPEAKERS_12))
            build_rec12(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_12")
            truths["bank_rec_12"] = truth
        if args.only in (None, "bank_rec_13"):
            require_espeak()
            sys.modules.setdefault("make_recordings", sys.modules[__name__])  # rec13 imports this module
            sys.path.insert(0, str(HERE))
            from rec13 import SPEAKERS_13, build_rec13

            seed = args.seed + 13
            tl = Timeline("bank_rec_13", seed, flite, Path(tmp), dict(SPEAKERS_13))
            build_rec13(tl, {**cuts, "S5a": load_cue_cough(args.cue_cough)}, args.ravdess_dir)
            audio, truth = tl.render(seed)
            write(audio, truth, args.out_dir, "bank_rec_13")
            truths["bank_rec_13"] = truth
    if len(truths) == 13:
        write_licenses(args.out_dir, truths)
    bad = [p for rec in truths for p in validate(args.out_dir, rec)]
    for p in bad:
        print("PROBLEM:", p)
    print(f"validated {', '.join(truths)}: {'OK' if not bad else f'{len(bad)} problem(s)'}")
    print(f"done in {time.monotonic() - t0:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
