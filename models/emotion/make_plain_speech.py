"""Plain (not emotional) synthetic speech for the emotion head's training: neutral sentences read by flite.

    .venv/bin/python models/emotion/make_plain_speech.py /tmp/plain-speech

RAVDESS (ser-train) has plain speech from its five studio actors only, so a head that leans on the
recording domain hears other plain voices (TTS, phone, audiobooks) as emotional. These clips are added
to every training fold as "neutral" (train_emotion.py --plain DIR); they are never scored.

Voices: flite's kal and kal16 only. The project's test clips use rms and slt and the bundled sample
rms, slt and awb, so those are left out. Each sentence is read once, by a voice, speaking rate
(duration_stretch) and pitch (int_f0_target_mean) picked by a seeded generator; the 16 kHz mono FLACs
(plain_NNN.flac) are resampled from flite's output with scipy. flite is deterministic, so the same flite
build gives the same files (a manifest with sha256s is written beside them).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import tempfile
from math import gcd
from pathlib import Path

import numpy as np
import scipy.io.wavfile
import scipy.signal
import soundfile as sf

SR = 16000
VOICES = ("kal", "kal16")
STRETCH = (0.85, 1.0, 1.15, 1.3)
F0 = (85.0, 100.0, 115.0, 135.0, 160.0)

SENTENCES = """\
Please take a seat and I will be with you in a moment.
Can you tell me when the pain started?
I take one tablet in the morning and one at night.
The blood test results came back this week.
We will check your blood pressure again today.
Have you had any trouble sleeping recently?
The appointment is on Tuesday at half past ten.
I have been feeling about the same as last month.
Please breathe in slowly and then breathe out.
Your temperature is normal.
Do you have any allergies to medication?
I usually walk to work when the weather is dry.
The pharmacy closes at six in the evening.
Let me write that down in your notes.
How many cups of coffee do you drink a day?
The scan showed nothing unusual.
I would like to book a follow up visit.
We can reduce the dose if the headaches continue.
My knee hurts a little when I climb the stairs.
The nurse will take a sample before you leave.
Could you spell your surname for me please?
I moved house about two years ago.
The train was a few minutes late this morning.
We had soup and bread for lunch.
I need to pick up the children at three.
The meeting has been moved to the second floor.
Please fill in this form and hand it to reception.
The cough has been there for about a week.
I sleep around seven hours most nights.
Your next prescription will be ready on Friday.
Can you point to where it hurts?
I do some gardening at the weekend.
The results are within the normal range.
We will send a letter with the details.
I have not noticed any change in my weight.
Take this with food to avoid an upset stomach.
The bus stops just outside the clinic.
I work part time at the library.
Let us go through your medication list together.
The dressing should be changed every two days.
I had the flu jab in October.
My sister lives in the next town.
The waiting room is through the door on the left.
Please lie down on the couch for me.
How often do you exercise in a normal week?
I stopped smoking about five years ago.
The kettle is in the kitchen next to the sink.
We will review the plan in three months.
It is a small cut and it should heal on its own.
I usually have breakfast at around eight.
There is parking at the back of the building.
Your heart rate is regular.
Can you follow my finger with your eyes?
I am allergic to penicillin.
The report will be added to your file.
The store opens at nine on weekdays.
I have been taking the tablets as prescribed.
The physiotherapist will show you some exercises.
Please bring your glasses to the next visit.
I keep a diary of what I eat.
We need to repeat the test in six weeks.
The dog needs a walk before dinner.
My job involves a lot of sitting at a desk.
Let me check the dates in the calendar.
The swelling has gone down since Monday.
I drink about two litres of water a day.
You can collect the forms from the front desk.
The clinic is closed on public holidays.
I read the leaflet you gave me last time.
The dentist appointment is next Thursday.
Please roll up your sleeve.
I will ask the doctor to sign this.
We went to the market on Saturday.
The rash appeared on my arm two days ago.
Do you have any questions about the treatment?
The lift is out of order, so please use the stairs.
I cycle to the station most mornings.
The letter said to arrive ten minutes early.
Your weight is the same as last year.
There is a form to sign at the end.
I take vitamin D in the winter months.
The printer on this floor is working again.
We will call you if anything changes.
I usually go to bed at around eleven.
The ointment should be applied twice a day.
I have lived here for most of my life.
Can you stand up and walk to the window?
The reading is a little higher than last time.
My husband drove me here today.
We can talk about the options next week.
The shop on the corner sells fresh bread.
I have had this mole for many years.
Please remove your shoes and step on the scale.
The lab will process the sample tomorrow.
I would prefer a morning appointment if possible.
We have a new booking system this year.
The medicine comes in a small brown bottle.
I watch the news in the evening.
The referral has been sent to the hospital.
Your hearing test was fine.
I changed my diet a few months ago.
The door code is written on the card.
Please wait here until your name is called.
I have a mild headache most afternoons.
We will measure your height as well.
The weather forecast says rain tomorrow.
I use an inhaler when I go running.
The results should be ready by the end of the week.
My mother had the same condition.
The form asks for your date of birth.
We are running about ten minutes behind.
I am not taking any other medicines.
The chair can be raised with the lever.
Please let the nurse know if you feel dizzy.
I get a bit short of breath on hills.
The clinic moved to this building in the spring.
Your vaccination record is up to date.
I will see you again in four weeks.
The instructions are printed on the box.
I had a cold a couple of weeks ago.
The number to call is on the back of the card.
We will keep an eye on it for now.
I spend most evenings reading or cooking.
The x ray department is on the ground floor.
Please sit up straight and relax your shoulders.
I have no problems with my eyesight.
The tablets are white and quite small.
Thank you, that is everything for today.
"""


def sentences() -> list[str]:
    return [s.strip() for s in SENTENCES.splitlines() if s.strip()]


def synth(text: str, voice: str, stretch: float, f0: float) -> np.ndarray:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "x.wav"
        subprocess.run(["flite", "-voice", voice, "--setf", f"duration_stretch={stretch}",
                        "--setf", f"int_f0_target_mean={f0}", "-t", text, "-o", str(out)],
                       check=True, capture_output=True)
        sr, x = scipy.io.wavfile.read(out)
    x = x.astype(np.float64) / 32768.0
    g = gcd(sr, SR)
    y = scipy.signal.resample_poly(x, SR // g, sr // g) if sr != SR else x
    return np.clip(y, -1, 1).astype(np.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0, help="only the first N sentences (tests)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    texts = sentences()
    picks = [(VOICES[i % len(VOICES)], float(rng.choice(STRETCH)), float(rng.choice(F0))) for i in range(len(texts))]
    rows = []
    for i, (text, (voice, stretch, f0)) in enumerate(zip(texts, picks, strict=True)):
        if args.limit and i >= args.limit:
            break
        y = synth(text, voice, stretch, f0)
        f = args.out / f"plain_{i:03d}.flac"
        sf.write(f, y, SR, subtype="PCM_16", format="FLAC")
        rows.append({"file": f.name, "voice": voice, "duration_stretch": stretch, "f0_mean": f0,
                     "seconds": round(len(y) / SR, 2), "text": text,
                     "pcm_sha256": hashlib.sha256((np.round(y * 32767).astype(np.int16)).tobytes()).hexdigest()})
    (args.out / "manifest.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {len(rows)} clips to {args.out} ({sum(r['seconds'] for r in rows):.0f} s)")


if __name__ == "__main__":
    main()
