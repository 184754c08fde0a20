"""bank_rec_13: an ambulance handover in an ED majors cubicle -> the ED doctor's assessment -> the call to cardiology.

Imported by ``make_recordings.py`` (``--only bank_rec_13``); it uses that module's ``Timeline``, bank_rec_12's RAVDESS
placing (``rec12._ravdess``, which trims with ``rec07._tighten``) and bank_rec_09's generated alarm (``rec09._alarm``).

* ``ambulance_handover``: a weekday morning in the majors area of the emergency department (ED) at Castlegate Royal
  Infirmary, cubicle six. The paramedic Dave (Flite ``rms``, role ``paramedic``) hands over to the ED nurse Jess (eSpeak
  NG ``en-us+f1``, a voice never used in the bank before; role ``nurse``) in ATMIST order: age (he says seventy one and
  the patient, Arthur Walker, 72 (Flite ``awb``), corrects him: seventy two, his birthday last Tuesday), time of onset
  (about seven this morning, at rest in his chair, two hours ago), the complaint (heavy central chest pain into the left
  arm, palpitations, sweating), illness (a heart attack in 2019 with a stent, type 2 diabetes, high blood pressure),
  signs read as numbers ("sats ninety four on air, resp rate twenty two, B P one sixty over ninety five, heart rate one
  ten, irregular, GCS fifteen, temp thirty seven point one, blood sugar six point two"), treatment (aspirin 300 mg
  chewed at 07:25, two sprays of GTN five minutes apart; pain eight out of ten down to five), the crew's ECG (fast and
  irregular, no ST elevation) and a green cannula in the left arm. The cubicle's cardiac monitor alarms as the nurse
  connects him (a lead off, not his rhythm: bank_rec_09's generated beep pattern, event kind ``alarm``); a tannoy
  announcement for the trauma team (a generated two-tone chime, event kind ``chime``, then eSpeak NG
  ``en-gb-x-rp+announcer`` through a public-address chain of band-limiting and a generated reverberation tail, event
  kind ``announcement``; not about the patient); his pain now four out of ten.
* ``ed_assessment``: the ED doctor, Doctor Mark Ellison (eSpeak NG ``en-gb-x-rp+edward``, a voice never used in the
  bank before; role ``clinician``), takes the history: heavy central pain at rest from seven o'clock, into the left arm
  to the elbow (not the jaw or back), eight out of ten at worst, three now; palpitations, sweating, nausea without
  vomiting, mild breathlessness, lightheaded at the start; a similar pain in bed last night (ten minutes by his
  account); denials (cough, fever, leg swelling, calf pain, blackout, previous irregular heart beat); a heart attack in
  2019 with a stent, type 2 diabetes, high blood pressure; his wife Brenda (Flite ``slt``, role ``relative``, relation
  ``wife``) arrives part-way with his tablets and answers some questions for him in the third person: aspirin 75 mg,
  bisoprolol 2.5 mg, ramipril 5 mg, metformin 500 mg twice a day; he adds atorvastatin 80 mg at night, which he
  stopped himself two months ago (aching legs; the GP not told, she says); a GTN spray not used for months; a
  trimethoprim allergy (a rash all over); an ex-smoker (twenty a day for thirty years, stopped ten years ago: 30
  pack-years), about ten units of alcohol a week; his brother's heart attack at 58, his father's stroke; she
  contradicts him on last night's pain (an hour at least, half eleven until gone half twelve, by her account; "ten
  minutes, fifteen at most" by his: both kept) and mentions her own health (waiting for a hip replacement, her own
  blood pressure tablets). The examination is read aloud after silent pauses (pulse about 110, irregularly irregular;
  heart sounds irregular, no murmur; chest clear; calves soft, not tender; no ankle swelling); the nurse brings the ECG
  and says the bloods are sent and the troponin is pending; the ECG read aloud ("atrial fibrillation, rate about one
  hundred and ten, some S T depression in the lateral leads, V five and V six, no S T elevation"); new atrial
  fibrillation and a possible small heart attack (NSTEMI); plan: referral and admission to cardiology, a blood thinner
  (enoxaparin), the troponin repeated at three hours, bisoprolol continued, and a conditional safety-net to the nurse
  (pain back, heart rate over 140 or systolic under 90: repeat ECG and call) read back. Five real coughs of the patient
  (BMC, slowed to 0.95-0.97x; one overlapping the end of the doctor's turn; his "dry throat"), one of a woman in the
  next cubicle (BMC S1, 4 dB quieter) and three RAVDESS lines from the next cubicle behind the curtain (actors 05, 02
  and 24; angry, fearful, sad; clips not used in bank_rec_02 to bank_rec_12; 4 dB quieter).
* ``phone_referral``: the ED doctor phones the on-call cardiology registrar, Doctor James Reid (Flite ``kal16``, role
  ``registrar``); both sides band-limited 300-3400 Hz, after a ring-back tone. He summarises in the third person with the
  numbers again and updates: the crew's observations, then in the department blood pressure 148/88 and heart rate about
  100, still in AF; the first troponin now back at 45 (upper limit 14), creatinine 95, potassium 4.2, haemoglobin 138;
  last night's pain "ten minutes or an hour, depending on who you ask"; weight 82 kg. The registrar accepts him under
  cardiology (an NSTEMI with new AF): ticagrelor 180 mg, enoxaparin 80 mg twice a day (1 mg/kg), atorvastatin 80 mg
  restarted, on the monitor, the cardiac ward this afternoon, seen within the hour; the doctor reads it back; the
  hospital number read out digit by digit; bleep 246 if more pain.
* ``plan_to_family``: the nurse tells the patient and his wife the plan; her worry ("I thought I'd lost him this
  morning": TTS, emotion null); his last cough.

Every sound event is real (coughs, RAVDESS) or honestly generated (the monitor alarm, the tannoy chime, the ring-back
tone); the tannoy announcement is TTS passed through a generated band-limit and reverberation, a stand-in for a real
public-address system.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from make_recordings import (
    SAMPLE_RATE,
    VOICES,
    CoughCut,
    Placed,
    Speaker,
    Timeline,
    active_rms_dbfs,
    bandpass,
    fade,
    set_rms,
    synthesise_espeak,
    voice_label,
)
from rec09 import _alarm
from rec12 import _ravdess

NEXT_CUBICLE_GAIN_DB = -4.0  # voices and a cough from the next cubicle, behind the curtain
PA_BAND_HZ = (300.0, 4000.0)  # the ceiling loudspeaker of the public-address system
PA_RT60_S = 1.1  # the reverberation of the corridor/majors area (generated tail)
PA_WET = 0.35  # the reverberation's level against the direct sound (RMS ratio)
PA_SEED = 1313  # the generated impulse response is seeded on its own (the timeline's gaps do not move with it)
ANNOUNCEMENT_DBFS = -29.0  # the tannoy voice, from a loudspeaker further off
CHIME_DBFS = -30.0  # the tannoy's two-tone chime
CHIME_HZ = (784.0, 659.0)  # 'ding' then 'dong'

EMOTIONS_13 = [
    "03-01-05-01-01-01-05.flac",  # actor 05 angry normal, kids (a man in the next cubicle)
    "03-01-06-02-01-01-02.flac",  # actor 02 fearful strong, kids (a woman in the next cubicle)
    "03-01-04-02-02-01-24.flac",  # actor 24 sad strong, dogs (a woman in the next cubicle)
]

SPEAKERS_13 = {
    "bank13_paramedic": Speaker(
        "paramedic",
        "Dave",
        "rms",
        "M",
        "the ambulance paramedic who brought the patient in; hands over to the ED nurse in ATMIST order, the patient "
        "correcting his age (synthetic)",
    ),
    "bank13_nurse": Speaker(
        "nurse",
        "Jess",
        "espeak:en-us+f1",
        "F",
        "the ED nurse in majors cubicle six: takes the handover, connects the monitor, brings the ECG and bloods, is "
        "given the safety-net and tells the patient and his wife the plan (synthetic)",
    ),
    "bank13_patient": Speaker(
        "patient",
        "Arthur Walker",
        "awb",
        "M",
        "patient, a 72-year-old man with chest pain and palpitations (new atrial fibrillation, possible NSTEMI) "
        "(synthetic voice; real coughs)",
    ),
    "bank13_clinician": Speaker(
        "clinician",
        "Doctor Mark Ellison",
        "espeak:en-gb-x-rp+edward",
        "M",
        "the emergency department doctor: assesses the patient and phones the cardiology registrar (synthetic)",
    ),
    "bank13_wife": Speaker(
        "relative",
        "Brenda Walker",
        "slt",
        "F",
        "the patient's wife, arriving part-way with his tablets: answers some questions for him in the third person, "
        "contradicts him once (how long last night's pain lasted) and mentions her own health (a hip replacement "
        "awaited, blood pressure tablets) (synthetic)",
        relation="wife",
    ),
    "bank13_registrar": Speaker(
        "registrar",
        "Doctor James Reid",
        "kal16",
        "M",
        "the on-call cardiology registrar, heard on the telephone: asks questions and accepts the patient (synthetic)",
    ),
    "bank13_tannoy": Speaker(
        "tannoy",
        None,
        "espeak:en-gb-x-rp+announcer",
        "M",
        "the emergency department's public-address system (tannoy): one announcement for the trauma team, not about "
        "the patient (synthetic speech through a generated loudspeaker band-limit and reverberation)",
    ),
    "bank13_next_cubicle": Speaker(
        "other_patient",
        None,
        None,
        "F",
        "a woman in the next cubicle, behind the curtain, who coughs (real BMC cough, source S1); not the patient",
    ),
    "ravdess_actor05": Speaker(
        "bystander",
        None,
        None,
        "M",
        "RAVDESS actor 05 (real acted speech): a man in the next cubicle, heard through the curtain",
    ),
    "ravdess_actor02": Speaker(
        "bystander",
        None,
        None,
        "F",
        "RAVDESS actor 02 (real acted speech): a woman in the next cubicle, heard through the curtain",
    ),
    "ravdess_actor24": Speaker(
        "bystander",
        None,
        None,
        "F",
        "RAVDESS actor 24 (real acted speech): a woman in the next cubicle, heard through the curtain",
    ),
}


def _reverb(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``x`` plus a generated reverberation tail (decaying noise, RT60 ``PA_RT60_S``), ``PA_RT60_S`` s longer."""
    sr = SAMPLE_RATE
    n_ir = round(PA_RT60_S * sr)
    t = np.arange(n_ir) / sr
    ir = rng.standard_normal(n_ir) * np.exp(-6.9 * t / PA_RT60_S)
    ir[: round(0.02 * sr)] = 0.0  # 20 ms before the first reflections
    n = len(x) + n_ir - 1
    size = 1 << (n - 1).bit_length()
    wet = np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(ir, size), size)[:n]
    wet *= PA_WET * np.sqrt(np.mean(x**2)) / (np.sqrt(np.mean(wet[: len(x)] ** 2)) + 1e-12)
    dry = np.concatenate([x, np.zeros(n - len(x))])
    return fade(dry + wet, 0.05)


def _public_address(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The tannoy's loudspeaker: band-limited to ``PA_BAND_HZ``, then the room's reverberation."""
    return _reverb(bandpass(np.asarray(x, dtype=np.float64), *PA_BAND_HZ), rng)


def _pa_chime() -> np.ndarray:
    """A two-tone public-address chime: 'ding' (784 Hz, 0.6 s) then 'dong' (659 Hz, 1.0 s), struck and decaying."""
    sr = SAMPLE_RATE
    parts = []
    for hz, dur, tau in ((CHIME_HZ[0], 0.6, 0.3), (CHIME_HZ[1], 1.0, 0.45)):
        t = np.arange(round(dur * sr)) / sr
        tone = np.sin(2 * np.pi * hz * t) + 0.25 * np.sin(2 * np.pi * 2 * hz * t)
        parts.append(fade(tone * np.exp(-t / tau), 0.005))
    return np.concatenate(parts)


def _tannoy(tl: Timeline, speaker: str, text: str, gap: float, tags: tuple[str, ...], notes: str) -> Placed:
    """A generated chime (kind ``chime``), then the announcement (kind ``announcement``: TTS through the PA chain)."""
    rng = np.random.default_rng(PA_SEED)
    chime = set_rms(_public_address(_pa_chime(), rng), CHIME_DBFS)
    c = tl._place(
        "chime",
        tl.cursor + round(gap * SAMPLE_RATE),
        chime,
        speaker=None,
        text=None,
        emotion=None,
        source=(
            "generated two-tone chime (784 Hz for 0.6 s then 659 Hz for 1.0 s, each with a second harmonic and an "
            f"exponential decay), through the generated public-address chain (band-limited {PA_BAND_HZ[0]:.0f}-"
            f"{PA_BAND_HZ[1]:.0f} Hz, a seeded reverberation tail, RT60 {PA_RT60_S} s)"
        ),
        synthetic=True,
        tags=["chime", "tannoy", "background"],
        notes="generated stand-in for the tannoy's chime before an announcement",
    )
    tl.cursor = c.end
    spk = tl.speakers[speaker]
    assert spk.voice is not None and spk.voice.startswith("espeak:")
    x = synthesise_espeak(spk.voice.split(":", 1)[1], text, tl.workdir).astype(np.float64)
    x = _public_address(x, rng)
    x = x * 10 ** ((ANNOUNCEMENT_DBFS - active_rms_dbfs(x)) / 20)
    p = tl._place(
        "announcement",
        tl.cursor + round(0.5 * SAMPLE_RATE),
        x,
        speaker=speaker,
        text=text,
        emotion=None,
        source=(
            f"TTS {VOICES[spk.voice]}, through the generated public-address chain (band-limited "
            f"{PA_BAND_HZ[0]:.0f}-{PA_BAND_HZ[1]:.0f} Hz, a seeded reverberation tail, RT60 {PA_RT60_S} s)"
        ),
        synthetic=True,
        voice=voice_label(spk.voice),
        tags=["tts", "announcement", "tannoy", "background", *tags],
        notes=notes,
    )
    tl.cursor = p.end
    return p


def build_rec13(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """ED majors: ambulance handover -> the ED doctor's assessment -> phone referral to cardiology -> the plan."""
    M, N, P = "bank13_paramedic", "bank13_nurse", "bank13_patient"
    C, W, R = "bank13_clinician", "bank13_wife", "bank13_registrar"
    T, X = "bank13_tannoy", "bank13_next_cubicle"
    say = tl.say
    tl.tts_name = (
        "Flite TTS (the paramedic, the patient, his wife, the cardiology registrar) and eSpeak NG TTS (the ED nurse, "
        "the ED doctor)"
    )
    tl.notes_extra = (
        "; a turn tagged reported_by:paramedic is the paramedic's ATMIST handover of the patient in the third person "
        "(its assertion tags are about the patient; the age he gives is corrected by the patient: corrected_by_patient); "
        "a turn tagged relative_report: is the wife speaking of the patient in the third person (its assertion tags are "
        "about the patient); contradicts: marks an account that differs from the other's (both are kept, neither is "
        "corrected); relative_symptom: is the wife's own complaint, not the patient's; an event of kind 'alarm' is "
        "bank_rec_09's generated beep pattern (here the cubicle's cardiac monitor, a lead off), of kind 'chime' a "
        "generated two-tone chime and of kind 'announcement' a tannoy announcement (eSpeak NG TTS through a generated "
        "band-limit and reverberation; its text is what was synthesised; not speech in the cubicle and not about the "
        "patient); next_cubicle marks sounds from behind the curtain (other people, not the patient); in the "
        "phone_referral section both sides are band-limited and the doctor presents the patient in the third person "
        "(presented_by:clinician), with updated figures (tag updated:); the examination pauses are silent"
    )
    ho = ("handover", "reported_by:paramedic")
    rr = "relative_report:"
    pc = "presented_by:clinician"

    def next_cubicle(name: str, gap: float) -> Placed:
        return _ravdess(
            tl,
            ravdess,
            name,
            gap,
            NEXT_CUBICLE_GAIN_DB,
            ["next_cubicle", "background"],
            "acted emotional line of a person in the next cubicle, heard through the curtain, 4 dB quieter; not the "
            "patient or his wife",
        )

    # ------------------------------------------------------------------ 1. ambulance handover
    tl.begin(
        "ambulance_handover",
        "A weekday morning in the emergency department's majors area, cubicle six: the paramedic hands a 72-year-old "
        "man with chest pain and palpitations over to the ED nurse in ATMIST order (age, time of onset, complaint, "
        "illness, signs read out as numbers, treatment given: aspirin 300 mg, GTN twice); the patient corrects his age; "
        "the cardiac monitor alarms as it is connected (a lead off); a tannoy announcement for the trauma team after a "
        "chime; his pain easing",
        "waiting",
    )
    tl.pause(1.0)
    say(N, "Hiya. Bring him through to cubicle six. I'm Jess, I'll be his nurse.", gap=0)
    say(M, "Thanks, Jess. This is Arthur Walker. Arthur, this is Jess, she's looking after you now.")
    say(P, "Hello, love.")
    say(N, "Let's get him across onto our trolley first. Ready, steady, slide.", ("instruction",))
    tl.pause(2.0)  # the patient is slid across from the ambulance stretcher
    say(N, "Lovely. Right, Dave, go ahead with the handover, please.", gap=0)
    say(
        M,
        "Right. This is Arthur, he's seventy one years old.",
        (*ho, "age:71", "corrected_by_patient"),
        notes="the paramedic's age is wrong; the patient corrects it next (he is 72)",
    )
    say(
        P,
        "Seventy two, son. It was my birthday last Tuesday.",
        ("correction", "corrects:paramedic_age_71", "age:72"),
        notes="the patient corrects the paramedic: his age is 72",
    )
    say(
        M,
        "Sorry, Arthur. Seventy two. Time of onset, about seven o'clock this morning, so two hours ago. He was sat "
        "in his chair watching the telly, at rest.",
        (*ho, "age:72", "onset:0700_at_rest", "onset:2_hours_ago"),
    )
    say(
        M,
        "Complaint is central chest pain. Heavy, like a tight band, going down his left arm. With palpitations, and "
        "he was sweating. His wife rang nine nine nine.",
        (
            *ho,
            "affirm:chest_pain",
            "character:heavy_tight_central",
            "radiation:left_arm",
            "affirm:palpitations",
            "affirm:sweating",
        ),
    )
    say(
        M,
        "Illness. He had a heart attack in twenty nineteen, and had a stent. He's a type two diabetic, and he's got "
        "high blood pressure.",
        (
            *ho,
            "history:myocardial_infarction_2019",
            "history:coronary_stent_2019",
            "history:type_2_diabetes",
            "history:hypertension",
        ),
    )
    say(
        M,
        "Signs. Sats ninety four on air. Resp rate twenty two. B P one sixty over ninety five. Heart rate one ten, "
        "irregular. GCS fifteen. Temp thirty seven point one. Blood sugar six point two.",
        (
            *ho,
            "vital:oxygen_saturation_94_on_air",
            "vital:respiratory_rate_22",
            "vital:blood_pressure_160_95",
            "vital:heart_rate_110_irregular",
            "score:gcs_15",
            "vital:temperature_37_1",
            "vital:blood_glucose_6_2",
        ),
    )
    say(
        M,
        "Treatment. Three hundred milligrams of aspirin, chewed, at seven twenty five. And two sprays of G T N under "
        "the tongue, five minutes apart. His pain came down from eight out of ten, to about five.",
        (
            *ho,
            "medication:aspirin_300mg_given_0725",
            "medication:gtn_spray_2_doses_given",
            "score:pain_8_of_10",
            "score:pain_5_of_10",
            "improving:chest_pain",
        ),
    )
    say(
        M,
        "Our twelve lead showed a fast, irregular rhythm, but no S T elevation, so no cath lab. He's got a green "
        "cannula in his left arm.",
        (*ho, "result:prehospital_ecg_fast_irregular", "result:prehospital_ecg_no_st_elevation", "cannula:left_arm"),
    )
    say(N, "Thanks, Dave. Now Arthur, I'll put you on our heart monitor.", ("instruction",))
    tl.pause(2.0)  # the nurse puts the leads on
    alarm = _alarm(
        tl,
        0.6,
        3,
        "monitor",
        "generated stand-in for the cubicle's cardiac monitor alarm as the nurse connects it: a lead off, not a change "
        "in the patient's rhythm",
    )
    alarm.fields["source"] = str(alarm.fields["source"]).replace("a ward equipment alarm", "a cardiac monitor alarm")
    say(P, "What's that racket?", gap=0.6)
    say(
        N,
        "It's only the monitor. One of the leads came off, it's not your heart. There, all fixed now.",
        ("alarm:lead_off",),
        notes="the alarm was a lead off the patient's monitor",
    )
    _tannoy(
        tl,
        T,
        "Attention, please. Would the trauma team go to resuscitation, bay two. Trauma team to resuscitation, bay two. "
        "Thank you.",
        1.2,
        ("not_about_patient",),
        "tannoy announcement for the trauma team, heard in the cubicle from a ceiling loudspeaker; not about the patient",
    )
    say(
        P,
        "The pain's easing off now, nurse. That spray helped.",
        ("improving:chest_pain",),
        gap=1.0,
    )
    say(N, "That's good. What would you give it now, out of ten?")
    say(P, "About four out of ten.", ("score:pain_4_of_10",))
    say(
        N,
        "I'll do a fresh E C G, and send some bloods, and the doctor will be in to see you shortly.",
        ("plan:ecg", "plan:bloods"),
    )
    say(
        M,
        "Cheers, Jess. Your paperwork's signed. Take care, Arthur. Your wife's following us in the car.",
        ("social:wife_following_by_car",),
    )
    say(P, "Thanks for everything, son.")
    tl.pause(2.0)

    # ------------------------------------------------------------------ 2. the ED doctor's assessment
    tl.begin(
        "ed_assessment",
        "The ED doctor's assessment in the cubicle: the history of the chest pain (at rest from seven o'clock, heavy, "
        "central, into the left arm, eight out of ten at worst, three now) with palpitations, sweating, nausea without "
        "vomiting, mild breathlessness; a similar pain last night; denials (cough, fever, leg swelling, calf pain, "
        "blackout); past heart attack with a stent, diabetes, high blood pressure; his wife arrives with his tablets and "
        "answers for him at times, contradicts him on how long last night's pain lasted and mentions her own health; "
        "medication (a statin he stopped himself), a trimethoprim allergy, smoking and alcohol, family history; the "
        "examination read aloud after silent pauses; the ECG (atrial fibrillation, lateral S T depression) and the "
        "troponin pending; new AF and a possible NSTEMI; plan (cardiology admission, anticoagulation, repeat troponin "
        "at three hours) and a conditional safety-net to the nurse; the patient's real coughs (one overlapping the end "
        "of a turn), a cough and acted emotional lines (RAVDESS) from the next cubicle",
        "consultation",
    )
    tl.pause(1.0)
    say(
        C,
        "Mister Walker? I'm Doctor Ellison, one of the emergency doctors. Is it alright if I call you Arthur?",
        gap=0,
    )
    say(P, "Arthur's fine, doctor.")
    say(C, "Tell me about this pain, Arthur. When did it start?")
    say(
        P,
        "About seven this morning. I was just sat in my chair with a cup of tea. So two hours ago now.",
        ("onset:0700_at_rest", "onset:2_hours_ago", "affirm:chest_pain"),
    )
    say(C, "And what does it feel like?")
    say(
        P,
        "Heavy. Like somebody sitting on my chest. Right in the middle.",
        ("character:heavy_central", "affirm:chest_pain"),
    )
    say(C, "Does the pain go anywhere else? Your arm, your jaw, or your back?")
    say(
        P,
        "Down my left arm, to the elbow. Not my jaw, and not my back.",
        ("radiation:left_arm", "deny:radiation_to_jaw", "deny:radiation_to_back"),
    )
    say(C, "How bad was it at its worst, out of ten? And how bad is it now?")
    say(
        P,
        "Eight, at its worst. Now it's about three.",
        ("score:pain_8_of_10_worst", "score:pain_3_of_10_now", "improving:chest_pain"),
    )
    say(C, "You told the paramedics about palpitations. What did that feel like?")
    say(
        P,
        "My heart was going like the clappers, and all over the place. It still is, a bit.",
        ("affirm:palpitations", "affirm:irregular_heartbeat"),
    )
    say(C, "Did you feel sweaty, or sick?")
    say(
        P,
        "I was sweating buckets. I felt sick, but I haven't been sick.",
        ("affirm:sweating", "affirm:nausea", "deny:vomiting"),
    )
    say(C, "Have you been short of breath?")
    say(
        P,
        "A bit. Just mild. Nothing like when I had my heart attack.",
        ("affirm:breathlessness_mild",),
    )
    say(C, "Have you had this pain before today?")
    say(
        P,
        "I had a twinge last night, in bed. It lasted about ten minutes, and went off on its own.",
        ("history:chest_pain_last_night", "duration:chest_pain_last_night_10_minutes"),
    )
    say(C, "Have you had a cough, or a fever?")
    say(P, "I've no cough, and no fever.", ("deny:cough", "deny:fever"))
    say(C, "Have you noticed any swelling in your legs, or any pain in your calves?")
    say(P, "No swelling, and no pain in my calves.", ("deny:leg_swelling", "deny:calf_pain"))
    say(C, "Have you blacked out at all?")
    say(
        P,
        "No, I've not blacked out. I felt a bit lightheaded at the start, that's all.",
        ("deny:blackout", "affirm:lightheaded_at_onset"),
    )
    next_cubicle(EMOTIONS_13[0], 1.2)
    say(C, "Sorry about the noise next door.", gap=0.9)
    say(C, "Tell me about your heart attack.")
    say(
        P,
        "That was in twenty nineteen. They put a stent in, at the Royal. I've had no pain since, until today.",
        ("history:myocardial_infarction_2019", "history:coronary_stent_2019"),
    )
    say(C, "Has anyone ever told you your heart beat was irregular?")
    say(P, "Never.", ("deny:previous_atrial_fibrillation",))
    say(C, "Do you have any other health problems?")
    say(
        P,
        "Type two diabetes, and high blood pressure.",
        ("history:type_2_diabetes", "history:hypertension"),
    )
    tl.cough(
        P,
        cuts["S3a"],
        gap=0.7,
        speed=0.95,
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient",
    )
    say(P, "Excuse me. My throat's dry, that's all.", ("explains:cough_dry_throat",), gap=0.6)
    say(C, "Do you know what tablets you take?")
    say(P, "I've got a list in my wallet, somewhere.")
    tl.pause(3.0)  # he looks for it; his wife comes in through the curtain
    say(
        W,
        "Arthur! Oh, thank God. Sorry, I couldn't find anywhere to park.",
        gap=0,
        notes="the patient's wife arrives",
    )
    say(C, "Hello. You must be Mrs Walker. I'm Doctor Ellison.")
    say(W, "Brenda. I've brought all his tablets in a bag.")
    say(
        W,
        "He takes an aspirin, seventy five milligrams, in the morning. Bisoprolol, two point five milligrams. Ramipril, "
        "five milligrams. And metformin, five hundred milligrams, twice a day.",
        (
            "medication:aspirin_75mg_morning",
            "medication:bisoprolol_2_5mg",
            "medication:ramipril_5mg",
            "medication:metformin_500mg_twice_daily",
            rr + "medication_list",
        ),
    )
    say(
        P,
        "And the atorvastatin, eighty milligrams at night. But I stopped that myself, about two months ago. It made my "
        "legs ache.",
        (
            "medication:atorvastatin_80mg_night",
            "medication:atorvastatin_stopped_by_patient_2_months_ago",
            "adherence:stopped_atorvastatin_himself",
            "side_effect:leg_aches_on_atorvastatin",
        ),
    )
    say(
        W,
        "He never told the doctor, either.",
        (rr + "statin_stopped_without_telling_gp", "adherence:gp_not_told_statin_stopped"),
    )
    say(
        C,
        "Thank you for telling me. We'll talk about that. Do you have a G T N spray at home?",
    )
    say(
        P,
        "I do, but I've not used it for months. The ambulance men gave me theirs.",
        ("medication:gtn_spray_as_needed", "history:gtn_not_used_for_months"),
    )
    say(C, "Are you allergic to any medicines?")
    say(
        P,
        "Trimethoprim. I came out in a rash all over, after a water infection.",
        ("allergy:trimethoprim", "allergy:trimethoprim_rash"),
    )
    say(W, "That's the only one.", (rr + "allergy_trimethoprim_only",))
    say(C, "Do you smoke, Arthur?")
    say(
        P,
        "Not now. I stopped ten years ago. Before that I smoked twenty a day, for thirty years.",
        ("social:ex_smoker_stopped_10_years_ago", "social:smoked_20_a_day_for_30_years", "social:30_pack_years"),
    )
    say(C, "And how much alcohol do you drink?")
    say(
        P,
        "A couple of pints on a Saturday, and the odd whisky. About ten units a week.",
        ("social:alcohol_10_units_week",),
    )
    say(C, "Brenda, Arthur said he had a twinge of pain last night, for about ten minutes.")
    say(
        W,
        "Ten minutes? It was an hour at least. He was sat on the edge of the bed from half eleven until gone half "
        "twelve, and he wouldn't let me ring anyone.",
        (
            "history:chest_pain_last_night",
            "duration:chest_pain_last_night_1_hour_per_wife",
            rr + "chest_pain_last_night_1_hour",
            "contradicts:patient_chest_pain_last_night_10_minutes",
        ),
        notes="the wife contradicts the patient (third person); both accounts are kept",
    )
    say(
        P,
        "It wasn't that long, Brenda. Ten minutes. Fifteen at the most.",
        (
            "duration:chest_pain_last_night_10_to_15_minutes",
            "contradicts:relative_chest_pain_last_night_1_hour",
        ),
        notes="the patient keeps to his account; both are kept",
    )
    say(C, "I'll write down what you both say.", ("documentation",))
    say(
        W,
        "And I'm no use at lifting him. I'm waiting for a new hip myself. And I'm on tablets for my own blood pressure.",
        (
            "relative_symptom:wife_hip_awaiting_replacement",
            "relative_symptom:wife_high_blood_pressure",
            "relative:wife_own_condition",
        ),
        notes="the wife's own health, not the patient's",
    )
    say(C, "Does anyone in your family have heart problems, Arthur?")
    say(
        P,
        "My brother had a heart attack at fifty eight. And my dad died of a stroke.",
        ("family_history:brother_myocardial_infarction_at_58", "family_history:father_died_of_stroke"),
    )
    say(C, "Right. I'd like to examine you now. Just lie back for me.", ("exam", "instruction"))
    tl.pause(7.0)  # the doctor feels the pulse
    say(
        C,
        "Pulse is about one hundred and ten, and irregularly irregular.",
        ("exam", "finding:pulse_110_irregularly_irregular"),
        gap=0,
    )
    say(C, "Breathe normally, while I listen to your heart.", ("exam", "instruction"))
    tl.pause(11.0)  # a silent listen to the heart
    say(
        C,
        "Heart sounds one and two, irregular. No murmur.",
        ("exam", "finding:heart_sounds_irregular", "finding:no_murmur"),
        gap=0,
    )
    say(C, "Now some deep breaths, in and out through your mouth.", ("exam", "instruction"))
    tl.pause(6.0)
    tl.cough(
        P,
        cuts["S6b"],
        gap=0,
        speed=0.96,
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient, during the chest "
        "examination",
    )
    tl.pause(5.0)
    say(C, "The chest is clear. No crackles, no wheeze.", ("exam", "finding:chest_clear"), gap=0)
    say(C, "And now your legs.", ("exam", "instruction"))
    tl.pause(6.0)
    say(
        C,
        "Both calves are soft, and not tender. No ankle swelling.",
        ("exam", "finding:calves_soft_non_tender", "finding:no_ankle_swelling"),
        gap=0,
    )
    next_cubicle(EMOTIONS_13[1], 1.3)
    tl.cough(
        X,
        cuts["S1a"],
        gap=1.0,
        gain_db=NEXT_CUBICLE_GAIN_DB,
        tags=("next_cubicle", "background"),
        notes="real cough (BMC Cough 2006) of a woman in the next cubicle, heard through the curtain, 4 dB quieter; "
        "not the patient",
    )
    say(
        N,
        "Doctor Ellison, here's Arthur's E C G. I've sent his bloods. The troponin's pending, it'll be about an hour.",
        ("result:troponin_pending", "plan:bloods_sent"),
        gap=1.4,
    )
    say(C, "Thanks, Jess. Let me have a look.")
    tl.pause(9.0)  # a silent read of the ECG
    say(
        C,
        "The E C G shows atrial fibrillation, rate about one hundred and ten. There's some S T depression in the "
        "lateral leads, V five and V six. No S T elevation.",
        (
            "result:ecg_atrial_fibrillation_rate_110",
            "result:ecg_st_depression_lateral_leads_v5_v6",
            "result:ecg_no_st_elevation",
        ),
        gap=0,
    )
    say(P, "Is that bad, doctor?", ("expressed:worried",))
    say(
        C,
        "Your heart is beating in an irregular rhythm, called atrial fibrillation. That's new for you. And the E C G "
        "shows some strain. With your pain, I'm worried your heart isn't getting enough blood, and this may be a small "
        "heart attack. The troponin blood test will help us tell.",
        (
            "diagnosis:new_atrial_fibrillation",
            "diagnosis:possible_nstemi",
            "diagnosis:acute_coronary_syndrome",
            "explanation",
        ),
    )
    tl.cough(
        P,
        cuts["S1b"],
        gap=0.5,
        speed=0.97,
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient",
    )
    say(W, "Will he have to stay in?", ("concern:admission",), gap=0.7)
    say(
        C,
        "Yes. I'm going to refer him to the cardiology team, and I expect he'll be admitted to the cardiac ward.",
        ("plan:refer_cardiology", "plan:admission_cardiology"),
    )
    say(
        C,
        "Arthur, I'll start a blood thinner, an injection called enoxaparin, for your heart and the irregular rhythm. "
        "We'll repeat the troponin at three hours. And keep taking your bisoprolol.",
        ("plan:anticoagulation_enoxaparin", "plan:repeat_troponin_3_hours", "plan:continue_bisoprolol"),
    )
    tl.cough(
        P,
        cuts["S6a"],
        overlap=0.3,
        speed=0.95,
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient; starts 0.30 s "
        "before the doctor's turn ends",
    )
    say(
        C,
        "Jess, if his pain comes back, or his heart rate goes over one hundred and forty, or his systolic drops below "
        "ninety, do a repeat E C G, and call me straight away.",
        ("instruction_to_nurse", "safety_net"),
        gap=0.8,
        notes="conditional safety-net advice to the nurse, not findings he has",
    )
    say(
        N,
        "Pain back, heart rate over one forty, or systolic under ninety, repeat E C G and call you.",
        ("safety_net", "read_back"),
    )
    next_cubicle(EMOTIONS_13[2], 1.2)
    say(C, "I'm going to phone the cardiology registrar now.", ("plan:phone_cardiology_registrar",), gap=1.0)
    tl.pause(2.0)

    # ------------------------------------------------------------------ 3. phone referral to cardiology
    tl.begin(
        "phone_referral",
        "The ED doctor phones the on-call cardiology registrar (band-limited 300-3400 Hz, both sides heard, after a "
        "ring-back tone) and refers the patient in the third person: the history, both accounts of last night's pain, "
        "the background and the statin he stopped; the crew's observations again and the department's updated ones; the "
        "ECG; the first troponin now back (45, upper limit 14) and other bloods; the registrar asks questions, accepts "
        "him under cardiology (NSTEMI with new AF: ticagrelor, treatment-dose enoxaparin by weight, the statin "
        "restarted, the cardiac ward this afternoon) and the doctor reads the plan back",
        "phone",
        phone=True,
    )
    tl.pause(1.0)
    tl.ring(gap=0)
    say(R, "Hello, this is Doctor Reid, the cardiology registrar.")
    say(
        C,
        "Hi, it's Mark Ellison, one of the doctors in the emergency department. I'd like to refer a patient to you.",
        ("referral",),
    )
    say(
        C,
        "Arthur Walker, seventy two. Heavy central chest pain at rest from seven o'clock this morning, going to his left "
        "arm, with palpitations, sweating, and nausea.",
        (
            pc,
            "referral",
            "age:72",
            "onset:0700_at_rest",
            "affirm:chest_pain",
            "radiation:left_arm",
            "affirm:palpitations",
            "affirm:sweating",
            "affirm:nausea",
        ),
    )
    say(
        C,
        "He had a similar pain last night, lasting somewhere between ten minutes and an hour, depending on who you ask.",
        (
            pc,
            "history:chest_pain_last_night",
            "duration:chest_pain_last_night_10_minutes",
            "duration:chest_pain_last_night_1_hour_per_wife",
        ),
    )
    say(R, "What's his background?")
    say(
        C,
        "He had a heart attack in twenty nineteen, with a stent. He has type two diabetes, and high blood pressure. He "
        "stopped his atorvastatin himself two months ago, because his legs ached. He's allergic to trimethoprim.",
        (
            pc,
            "history:myocardial_infarction_2019",
            "history:coronary_stent_2019",
            "history:type_2_diabetes",
            "history:hypertension",
            "medication:atorvastatin_stopped_by_patient_2_months_ago",
            "allergy:trimethoprim",
        ),
    )
    say(R, "And his observations?")
    say(
        C,
        "With the crew, sats ninety four on air, resp rate twenty two, B P one sixty over ninety five, heart rate one "
        "ten, irregular. Here, his B P is one forty eight over eighty eight, and his heart rate is about one hundred. "
        "Still in A F.",
        (
            pc,
            "vital:oxygen_saturation_94_on_air",
            "vital:respiratory_rate_22",
            "vital:blood_pressure_160_95",
            "vital:heart_rate_110_irregular",
            "vital:blood_pressure_148_88",
            "vital:heart_rate_100_irregular",
            "updated:blood_pressure_148_88",
            "updated:heart_rate_100",
        ),
        notes="the crew's observations again, then the department's newer readings (updated)",
    )
    say(R, "And what does his E C G show?")
    say(
        C,
        "A F, at about one hundred and ten, with S T depression in V five and V six. No S T elevation.",
        (
            pc,
            "result:ecg_atrial_fibrillation_rate_110",
            "result:ecg_st_depression_lateral_leads_v5_v6",
            "result:ecg_no_st_elevation",
        ),
    )
    say(R, "Have you got a troponin result yet?")
    say(
        C,
        "The first troponin has just come back. It's forty five. Our upper limit is fourteen. The repeat is due at "
        "twelve o'clock, three hours after the first.",
        (
            pc,
            "result:troponin_45",
            "result:troponin_upper_limit_14",
            "updated:troponin_45",
            "plan:repeat_troponin_1200",
        ),
        notes="the troponin, pending during the assessment, is now back",
    )
    say(R, "And his kidney function?")
    say(
        C,
        "His creatinine is ninety five, potassium four point two, and haemoglobin one hundred and thirty eight.",
        (pc, "result:creatinine_95", "result:potassium_4_2", "result:haemoglobin_138"),
    )
    say(R, "Any history of bleeding, or problems with blood thinners?")
    say(
        C,
        "No bleeding history. He's on aspirin seventy five, and the crew gave him three hundred this morning.",
        (pc, "deny:bleeding_history", "medication:aspirin_75mg_morning", "medication:aspirin_300mg_given_0725"),
    )
    say(
        R,
        "Okay. That sounds like an N STEMI, with new A F. I'm happy to accept him under cardiology.",
        ("diagnosis:nstemi", "diagnosis:new_atrial_fibrillation", "plan:accepted_by_cardiology"),
    )
    say(R, "What does he weigh?")
    say(C, "He weighs eighty two kilograms.", (pc, "weight:82kg"))
    say(
        R,
        "Then give him ticagrelor, one hundred and eighty milligrams, and enoxaparin, eighty milligrams twice a day. "
        "Restart his atorvastatin, eighty milligrams at night. Keep him on the monitor.",
        (
            "plan:ticagrelor_180mg_loading",
            "plan:enoxaparin_80mg_twice_daily",
            "plan:restart_atorvastatin_80mg_night",
            "plan:cardiac_monitoring",
        ),
    )
    say(
        R,
        "We'll get him up to the cardiac ward this afternoon, and I'll come down and see him within the hour.",
        ("plan:cardiac_ward_this_afternoon", "plan:registrar_review_within_1_hour"),
    )
    say(
        C,
        "So, ticagrelor one eighty, enoxaparin eighty twice a day, atorvastatin eighty restarted, repeat troponin at "
        "twelve, and on the monitor. And you'll see him within the hour.",
        ("read_back",),
    )
    say(R, "That's it. What's his hospital number?")
    say(C, "Four, seven, one, two, nine, three, eight.", ("hospital_number",))
    say(
        R,
        "Thanks. Bleep me on two four six if he gets more pain before then.",
        ("safety_net", "bleep_246"),
        notes="conditional advice, not a symptom he has",
    )
    say(C, "Will do. Thanks very much. Bye.")
    tl.pause(2.0)

    # ------------------------------------------------------------------ 4. the plan, told to the patient and his wife
    tl.begin(
        "plan_to_family",
        "Back in the cubicle the nurse tells the patient and his wife the plan (the cardiac ward this afternoon, a "
        "blood thinner and another tablet, the blood test repeated at twelve, the buzzer if the pain comes back); the "
        "wife's worry (TTS, emotion null); the patient's last cough",
        "consultation",
    )
    tl.pause(1.0)
    say(
        N,
        "Arthur, Brenda. Doctor Ellison has spoken to the heart doctors. They're going to admit you to the cardiac "
        "ward this afternoon.",
        ("plan:admission_cardiology", "plan:cardiac_ward_this_afternoon"),
        gap=0,
    )
    say(
        N,
        "Your first blood test shows some strain on the heart. They're giving you a blood thinner and another tablet, "
        "and we'll repeat the blood test at twelve.",
        (
            "result:troponin_raised",
            "plan:anticoagulation_enoxaparin",
            "plan:ticagrelor_180mg_loading",
            "plan:repeat_troponin_1200",
        ),
    )
    say(P, "So it's another heart attack, then?", ("expressed:worried",))
    say(
        N,
        "It may be a small one. The heart doctor will come down and explain. If the pain comes back, press the buzzer "
        "straight away.",
        ("explanation", "safety_net"),
        notes="conditional advice, not a symptom he has",
    )
    say(
        W,
        "I thought I'd lost him this morning. I can't go through all that again.",
        ("expressed:worried", "concern:husband"),
        notes="the wife's worry (TTS: the words carry it, the voice does not; emotion null)",
    )
    say(P, "Don't fret, love. I'm in the right place.", ("reassurance",))
    tl.cough(
        P,
        cuts["S5a"],
        gap=0.8,
        speed=0.97,
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient",
    )
    say(N, "I'll get you both a cup of tea.", gap=0.8)
    tl.pause(1.5)
