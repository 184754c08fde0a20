"""bank_rec_10: a GP home visit -> the consultation in the front room -> the GP's phone call to the district nurses.

Imported by ``make_recordings.py`` (``--only bank_rec_10``); it uses that module's ``Timeline`` and bank_rec_07's
RAVDESS trimming (``rec07._tighten``).

* ``hallway``: the GP (eSpeak NG RP ``+m8``, a voice never used before) arrives at an 86-year-old woman's house on a
  weekday morning. The doorbell rings (a generated two-tone chime, event kind ``doorbell``); her son Martin (Flite
  ``rms``) lets him in, limping on his own bad knee and with streaming eyes from his own hay fever (someone else's
  symptoms: ``relative_symptom:son_...``); a daytime antiques programme murmurs on the television in the front room
  (eSpeak NG ``en-us+m4``, role ``tv``; symptom words used figuratively: "a real headache", "sick to the back teeth", "a real
  pain in the neck");
  the patient coughs in the front room and the son says she has been coughing all week; the son coughs too (his own
  cough, attributed to him); the daughter-in-law Julie (Flite ``slt``) is on her mobile (only her side heard) talking
  to her sister-in-law about the patient's tablets (the water tablet skipped on Sundays, a wrong bisoprolol strength
  from the chemist, blister packs); the neighbour Pat drops in with a casserole and the grandson Liam shouts from
  upstairs (RAVDESS actors 24 and 05: happy, surprised, angry; clips not used in bank_rec_02-09); a quiet stretch of
  about 8 s; Julie comes off the phone and goes in with the GP.
* ``consultation``: in the front room the GP sees Mrs Edith Whitfield, 86 (eSpeak NG ``en-gb-scotland+f2``): worse
  breathlessness over two weeks, swollen ankles, three pillows at night and waking gasping, a dry night cough, a fall
  in the bathroom last Tuesday (no head injury, no blackout, a bruised left hip); denials (chest pain, palpitations,
  blood in the urine, burning, fever, calf pain); a hedge (dizzy on standing "maybe ... I'm not really sure"); a
  resolved urinary tract infection last month (nitrofurantoin finished); Julie answers for her at times in the third
  person and contradicts her twice (breathless sitting still: the patient says no, Julie says yes; the water tablet:
  the patient says every day, Julie says not on Sundays), and on how long she lay on the floor (the patient twenty
  minutes, Julie an hour); past history (heart attack eight years ago, heart failure, atrial fibrillation), family
  history (her mother's "dropsy", her brother's heart attack at seventy), a medication list with doses read from the
  box by Julie (furosemide 40 mg mornings, bisoprolol 2.5 mg, apixaban 2.5 mg twice a day, atorvastatin 20 mg at
  night, lansoprazole 15 mg), an aspirin allergy (wheezy chest, swollen lips); the GP examines aloud after silent
  pauses (bilateral basal crackles, an irregular pulse of 96 after a silent 15 s count, blood pressure 142/88,
  oxygen saturation 91 % on air, temperature 36.8, raised neck veins, pitting edema to both knees, the bruised hip
  moving well); worsening heart failure; plan: furosemide up to 80 mg in the morning from tomorrow, bloods today
  (kidneys and potassium), the district nurse to weigh her daily from tomorrow, a falls referral, blister packs,
  review on Friday; a conditional safety-net ("if she gets chest pain, or can't breathe lying down, call nine nine
  nine") read back by Julie; her worry about going into hospital (TTS, emotion null). Six real coughs of the patient
  in all (one in the hallway section, heard from the front room; one after she describes her cough; one overlapping the
  end of Julie's turn; one after a deep breath during the examination; a double cough near the end) and one of the son. Two RAVDESS lines heard
  from the hallway (the grandson, sad; the neighbour, fearful).
* ``phone_call``: afterwards, in his car outside, the GP phones the district nursing team on the speakerphone: his
  own side is heard as room speech, the district nurse's side (Flite ``kal16``) and the ring-back tone come from the
  phone's loudspeaker, band-limited 300-3400 Hz (the far side only, unlike earlier recordings' calls). He hands over
  the dose change (furosemide 40 to 80 mg from tomorrow), asks for a visit tomorrow (nine to eleven), daily weights
  and a falls assessment, and gives his direct line (zero one six one, four nine six, zero three eight two); the nurse
  reads it back.

The doorbell is synthesised honestly as what it is, a two-tone chime (a decaying 659 Hz then 523 Hz tone with a
second harmonic): no real recording of a doorbell, a knock or a television is available offline, and no other sound
event is synthesised. The television is TTS reading invented text.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from make_recordings import (
    PHONE_BAND_HZ,
    PHONE_DBFS,
    SAMPLE_RATE,
    CoughCut,
    Placed,
    Speaker,
    Timeline,
    active_rms_dbfs,
    bandpass,
    fade,
    set_rms,
    telephone,
)
from rec07 import CORRIDOR_GAIN_DB, _tighten

DOORBELL_DBFS = -28.0  # the chime in the hallway (RMS over the whole chime)
DING_HZ, DONG_HZ = 659.25, 523.25  # E5 then C5
TV_DBFS = -30.0  # the television murmuring in the front room, heard from the hallway
FRONT_ROOM_GAIN_DB = -3.0  # the patient's cough heard from the front room while the GP is in the hallway
UPSTAIRS_GAIN_DB = -2.0  # the grandson shouting from upstairs

EMOTIONS_10 = [
    "03-01-03-01-01-01-24.flac",  # actor 24 happy normal, kids (hallway: the neighbour Pat drops in)
    "03-01-05-02-01-01-05.flac",  # actor 05 angry strong, kids (hallway: the grandson Liam, upstairs)
    "03-01-08-01-02-01-24.flac",  # actor 24 surprised normal, dogs (hallway: Pat meets the doctor)
    "03-01-04-01-02-01-05.flac",  # actor 05 sad normal, dogs (the grandson in the hallway, heard in the consultation)
    "03-01-06-01-02-02-24.flac",  # actor 24 fearful normal, dogs (Pat in the hallway, heard in the consultation)
]

SPEAKERS_10 = {
    "bank10_clinician": Speaker(
        "clinician",
        "Doctor Morgan",
        "espeak:en-gb-x-rp+m8",
        "M",
        "the GP (Doctor Owen Morgan of Elmwood Surgery) on a home visit; phones the district nurses afterwards "
        "(synthetic)",
    ),
    "bank10_patient": Speaker(
        "patient",
        "Edith Whitfield",
        "espeak:en-gb-scotland+f2",
        "F",
        "patient, an 86-year-old widow with heart failure, seen at home (synthetic voice; real coughs)",
    ),
    "bank10_son": Speaker(
        "relative",
        "Martin Whitfield",
        "rms",
        "M",
        "the patient's son: lets the GP in; has a bad knee and hay fever of his own; coughs once (synthetic speech, a "
        "real cough)",
        relation="son",
    ),
    "bank10_daughter_in_law": Speaker(
        "relative",
        "Julie Whitfield",
        "slt",
        "F",
        "the patient's daughter-in-law (Martin's wife): on her mobile in the hallway, then answers for the patient at "
        "times and sometimes contradicts her; manages her tablets (synthetic)",
        relation="daughter_in_law",
    ),
    "bank10_tv": Speaker(
        "tv",
        None,
        "espeak:en-us+m4",
        "M",
        "the television in the front room: a daytime antiques programme, heard from the hallway (synthetic)",
    ),
    "bank10_district_nurse": Speaker(
        "district_nurse",
        "Steve",
        "kal16",
        "M",
        "a community (district) nurse answering the district nursing team's phone; heard only through the GP's "
        "speakerphone (synthetic)",
    ),
    "ravdess_actor24": Speaker(
        "neighbour",
        "Pat",
        None,
        "F",
        "RAVDESS actor 24 (real acted speech): Pat, the next-door neighbour, who drops in with a casserole",
    ),
    "ravdess_actor05": Speaker(
        "relative",
        "Liam",
        None,
        "M",
        "RAVDESS actor 05 (real acted speech): Liam, the patient's teenage grandson (Martin and Julie's son), upstairs "
        "and in the hallway",
        relation="grandson",
    ),
}

_HALL_NOTE = (
    "acted emotional line (RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared "
    "ser-train set"
)
_THROUGH_DOOR = (
    "acted emotional line heard from the hallway through the front-room door during the consultation, 3 dB quieter "
    "(RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared ser-train set"
)


def _ravdess(tl: Timeline, ravdess: Path, name: str, gap: float, who: str, through_door: bool) -> Placed:
    """A RAVDESS line of the neighbour or the grandson (``through_door``: heard in the consultation, 3 dB quieter)."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    extra = [who]
    if through_door:
        p.audio = p.audio * 10 ** (CORRIDOR_GAIN_DB / 20)
        extra = [who, "background", "hallway"]
    p.fields["tags"] = [*p.fields["tags"], *extra]  # type: ignore[misc]
    p.fields["notes"] = _THROUGH_DOOR if through_door else _HALL_NOTE
    return p


def _chime() -> np.ndarray:
    """A two-tone door chime: 'ding' (659 Hz, 0.7 s) then 'dong' (523 Hz, 1.3 s), each struck and decaying."""
    sr = SAMPLE_RATE
    parts = []
    for hz, dur, tau in ((DING_HZ, 0.7, 0.35), (DONG_HZ, 1.3, 0.5)):
        t = np.arange(round(dur * sr)) / sr
        tone = np.sin(2 * np.pi * hz * t) + 0.3 * np.sin(2 * np.pi * 2 * hz * t)
        parts.append(fade(tone * np.exp(-t / tau), 0.005))
    return np.concatenate(parts)


def _doorbell(tl: Timeline, gap: float) -> Placed:
    """Place the generated door chime (its own event kind, ``doorbell``)."""
    x = set_rms(_chime(), DOORBELL_DBFS)
    p = tl._place(
        "doorbell",
        tl.cursor + round(gap * SAMPLE_RATE),
        x,
        speaker=None,
        text=None,
        emotion=None,
        source=(
            "generated two-tone door chime (659 Hz for 0.7 s then 523 Hz for 1.3 s, each with a second harmonic and an "
            "exponential decay); a stand-in for a doorbell"
        ),
        synthetic=True,
        tags=["doorbell", "front_door"],
        notes="generated stand-in for the front doorbell: the GP arriving",
    )
    tl.cursor = p.end
    return p


def _far(tl: Timeline, speaker: str, text: str, tags: tuple[str, ...] = (), gap: float | None = None) -> Placed:
    """A turn of the far side of the GP's call, heard from his phone's loudspeaker (band-limited 300-3400 Hz)."""
    p = tl.say(speaker, text, ("phone_call", *tags), gap=gap)
    y = telephone(p.audio)
    p.audio = fade(y * 10 ** ((PHONE_DBFS - active_rms_dbfs(y)) / 20), 0.005)
    p.fields["tags"] = [*p.fields["tags"], "telephone"]  # type: ignore[misc]
    p.fields["notes"] = (
        "the far side of the call, heard from the GP's speakerphone as telephone audio (band-limited 300-3400 Hz)"
    )
    return p


def _ringback(tl: Timeline) -> Placed:
    """The ring-back tone from the GP's speakerphone (band-limited like the far side)."""
    p = tl.ring(gap=0)
    p.audio = fade(bandpass(p.audio, *PHONE_BAND_HZ), 0.005)
    p.fields["notes"] = "two ring-back cycles from the GP's speakerphone while the call connects"
    return p


def build_rec10(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Hallway (arrival) -> home-visit consultation with the daughter-in-law -> the GP's call to the district nurses."""
    C, P, S, J = "bank10_clinician", "bank10_patient", "bank10_son", "bank10_daughter_in_law"
    T, N = "bank10_tv", "bank10_district_nurse"
    say = tl.say
    tl.tts_name = (
        "Flite TTS (the son, the daughter-in-law, the district nurse) and eSpeak NG TTS (the GP, the patient, the "
        "television)"
    )
    tl.notes_extra = (
        "; an event of kind 'doorbell' is a generated two-tone chime, not speech; a turn tagged relative_report: is the "
        "daughter-in-law or the son speaking of the patient in the third person (its assertion tags are about the "
        "patient); contradicts: marks a relative's account that differs from the patient's (both are kept, neither is "
        "corrected); relative_symptom: is a relative's own complaint, not the patient's; phone_call_one_side = only the "
        "daughter-in-law's side of her mobile call is heard; in the phone_call section only the district nurse's side "
        "and the ring-back (tagged telephone) are band-limited: the GP is heard in his car"
    )
    ncw = ("nonclinical_symptom_word",)
    rr = "relative_report:"
    one_side = ("phone_call_one_side",)

    # ------------------------------------------------------------------ 1. hallway
    tl.begin(
        "hallway",
        "Arrival for a GP home visit: the doorbell (a generated chime), the patient's son lets the GP in (his own bad "
        "knee and hay fever: not the patient's), the television murmurs in the front room (symptom words used "
        "figuratively), the patient coughs in the front room and the son once in the hallway, the daughter-in-law on "
        "her mobile (one side heard) about the patient's tablets, the neighbour drops in and the grandson shouts from "
        "upstairs (RAVDESS), a quiet stretch; the daughter-in-law comes off the phone and goes in with the GP",
        "waiting",
    )
    tl.pause(1.5)
    _doorbell(tl, 0)
    say(
        T,
        "Welcome back to Bargain Hunt Live. Our blue team have a real headache with this old carriage clock.",
        (*ncw, "background"),
        gap=0.8,
        level=TV_DBFS,
        notes="the television in the front room; 'a real headache' is a figure of speech",
    )
    say(S, "Coming! Hang on a minute.", gap=0.6)
    tl.pause(2.5)  # he comes to the door and opens it
    say(S, "Oh, hello. You must be the doctor. Come in, come in.", gap=0)
    say(
        C,
        "Good morning. I'm Doctor Morgan, from Elmwood Surgery. You must be Martin. You rang this morning about your "
        "mum.",
    )
    say(S, "That's right. Thanks for coming out. Mind the step there.")
    say(
        S,
        "Excuse me limping. It's my own knee, not Mum's. I hurt it playing football years ago, and it's been playing "
        "up again all week.",
        ("relative_symptom:son_knee_pain", "relative:son_own_condition"),
        notes="the son's own complaint, not the patient's",
    )
    say(
        C,
        "I'm sorry to hear that. Do get your own doctor to look at it, if it doesn't settle.",
        ("advice:son_see_own_gp",),
    )
    say(
        S,
        "I will. And ignore my eyes, they're streaming. It's my hay fever, it's terrible this week. It's not a cold.",
        ("relative_symptom:son_hay_fever", "relative_symptom:son_streaming_eyes", "relative:son_own_condition"),
        notes="the son's own hay fever, not the patient's",
    )
    tl.cough(
        P,
        cuts["S5a"],
        gap=1.0,
        speed=0.98,
        gain_db=FRONT_ROOM_GAIN_DB,
        tags=("front_room",),
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient, heard from the "
        "front room while the GP is in the hallway",
    )
    say(
        S,
        "That's Mum. She's been coughing on and off all week, mostly at night.",
        ("affirm:cough", "affirm:night_cough", rr + "cough"),
        gap=0.7,
        notes="the son reports his mother's cough (third person)",
    )
    say(
        T,
        "And our red team are sick to the back teeth of losing, so let's see what they paid for this little teapot.",
        (*ncw, "background"),
        gap=1.0,
        level=TV_DBFS,
        notes="the television in the front room; 'sick to the back teeth' is a figure of speech",
    )
    say(
        T,
        "Coming up after the break: will the blue team's gamble pay off, or will it be a real pain in the neck?",
        (*ncw, "background"),
        gap=1.2,
        level=TV_DBFS,
        notes="the television in the front room; 'a real pain in the neck' is a figure of speech",
    )
    say(J, "Sue, hang on a minute, the doctor has just arrived.", one_side, gap=1.2)
    say(
        J,
        "No, I've got all her tablets here in the bag. The water tablet, the furosemide, she has one in the morning.",
        (*one_side, "medication:furosemide_morning", rr + "medication"),
        gap=1.4,
        notes="the daughter-in-law on her mobile to her sister-in-law, about the patient's tablets",
    )
    say(
        J,
        "But she doesn't take it on a Sunday, because she doesn't want to be running to the toilet in church.",
        (*one_side, "adherence:furosemide_missed_on_sundays", rr + "adherence"),
        gap=1.6,
        notes="the daughter-in-law reports the patient's missed doses (third person)",
    )
    say(
        J,
        "And the chemist gave her the wrong strength of bisoprolol last month. I had to take the whole box back.",
        (*one_side, "medication:bisoprolol", "dispensing_error:bisoprolol_wrong_strength_last_month"),
        gap=1.5,
    )
    tl.cough(
        S, cuts["S6b"], gap=1.0, speed=1.02, notes="real cough (BMC Cough 2006) attributed to the son, not the patient"
    )
    say(S, "Sorry. That's the pollen, it gets on my chest.", ("relative_symptom:son_cough_from_pollen",), gap=0.6)
    say(S, "It's open, Pat, come on in!", gap=0.9)
    _ravdess(tl, ravdess, EMOTIONS_10[0], 1.0, "neighbour", through_door=False)
    say(
        S,
        "That's Pat from next door. She's brought Mum a casserole again. Pat, this is the doctor.",
        ("social:neighbour_helps",),
        gap=0.8,
    )
    _ravdess(tl, ravdess, EMOTIONS_10[2], 0.9, "neighbour", through_door=False)
    p = _ravdess(tl, ravdess, EMOTIONS_10[1], 1.6, "grandson", through_door=False)
    p.audio = p.audio * 10 ** (UPSTAIRS_GAIN_DB / 20)
    p.fields["tags"] = [*p.fields["tags"], "upstairs"]  # type: ignore[misc]
    p.fields["notes"] = "the grandson shouting from upstairs, 2 dB quieter; " + _HALL_NOTE
    say(J, "Liam! Please stop shouting, the doctor is here.", gap=0.8)
    say(
        J,
        "Sue, I'll ask the doctor about putting her tablets in blister packs. I'll ring you back. Love you, bye.",
        (*one_side, "request:blister_packs"),
        gap=1.2,
    )
    tl.pause(8.0)  # a quiet stretch: nobody speaks
    say(S, "Mum's in the front room, on the settee. She won't go up to bed.", gap=0)
    say(
        J,
        "Hello, doctor. I'm Julie, Martin's wife. I do most of her tablets. I'll come in with you, she doesn't always "
        "remember things.",
        ("social:daughter_in_law_manages_medication",),
    )
    say(C, "Of course. Lead the way.")
    tl.pause(2.5)  # they go through

    # ------------------------------------------------------------------ 2. consultation
    tl.begin(
        "consultation",
        "The GP sees Mrs Edith Whitfield, 86, on the settee in her front room, with her daughter-in-law Julie (and the "
        "son coming in once): worse breathlessness over two weeks, swollen ankles, three pillows, waking gasping, a dry "
        "night cough, a fall last Tuesday without a head injury; denials, a hedge, a resolved water infection; Julie "
        "answers for her in the third person and contradicts her (breathless sitting still, the water tablet on "
        "Sundays, how long she lay on the floor); past, family and medication history, an aspirin allergy; the "
        "examination aloud after silent pauses (a 15 s pulse count); worsening heart failure; the plan (furosemide "
        "increased, bloods, the district nurse, review on Friday) and a conditional safety-net read back; real coughs; "
        "two RAVDESS lines heard from the hallway",
        "consultation",
    )
    tl.pause(1.0)
    say(
        C,
        "Hello, Mrs Whitfield. I'm Doctor Morgan. Martin tells me you've been more short of breath.",
        gap=0,
    )
    say(
        P,
        "Hello, doctor. I get puffed out just walking to the kitchen. It's been getting worse these last two weeks.",
        ("affirm:shortness_of_breath", "affirm:breathless_on_exertion", "duration:2_weeks", "worsened:2_weeks"),
    )
    say(C, "How far can you walk now, before you have to stop?")
    say(
        P,
        "To the kitchen and back. Last month I could still get to the corner shop.",
        ("affirm:reduced_exercise_tolerance", "history:walked_to_corner_shop_last_month"),
    )
    say(C, "Are you more tired than usual?")
    say(P, "I'm very tired, doctor. I fall asleep in my chair every afternoon.", ("affirm:fatigue",))
    say(C, "Are you breathless sitting still, like now?")
    say(P, "No, not when I'm sat here. I'm fine sitting.", ("deny:breathless_at_rest",))
    say(
        J,
        "You are, Mum. She was puffing on the settee last night, doctor, just watching the telly.",
        ("affirm:breathless_at_rest", rr + "breathless_at_rest", "contradicts:patient_deny_breathless_at_rest"),
        notes="the daughter-in-law contradicts the patient (third person); both accounts are kept",
    )
    say(C, "How many pillows do you sleep on at night?")
    say(
        P,
        "Three pillows now. If I lie flat, I can't get my breath.",
        ("affirm:orthopnoea", "affirm:sleeps_on_3_pillows"),
    )
    say(C, "Do you ever wake up in the night, gasping for breath?")
    say(
        P,
        "Twice this week. I had to sit up on the side of the bed till it passed.",
        ("affirm:paroxysmal_nocturnal_dyspnoea",),
    )
    say(C, "And your ankles? Are they more swollen than usual?")
    say(
        P,
        "They're like balloons by the evening. My slippers don't fit any more.",
        ("affirm:ankle_swelling", "worsened:ankle_swelling"),
    )
    say(
        J,
        "And her weight's gone up, doctor. Her skirts won't do up, and she's hardly eating.",
        ("affirm:weight_gain", "affirm:poor_appetite", rr + "weight_gain", rr + "poor_appetite"),
    )
    say(C, "That can be fluid. Are you up in the night to pass water?")
    say(P, "Three times, some nights. It's the water tablet, I expect.", ("affirm:nocturia",))
    say(C, "Any chest pain at all?")
    say(P, "No, no chest pain.", ("deny:chest_pain",))
    say(C, "Any palpitations? Your heart racing or pounding?")
    say(P, "No, nothing like that.", ("deny:palpitations",))
    say(C, "Martin says you've had a cough.")
    say(
        P,
        "I've got a dry cough. It's worse at night, and nothing comes up.",
        ("affirm:dry_cough", "affirm:night_cough", "deny:sputum"),
    )
    tl.cough(P, cuts["S3a"], gap=0.5, notes="the patient coughs after describing her cough")
    say(C, "Any temperature, or shivers?", gap=0.8)
    say(P, "No. If anything, I'm cold all the time.", ("deny:fever", "deny:rigors"))
    say(C, "Now, Martin said you had a fall last week. What happened?")
    say(
        P,
        "Last Tuesday, in the bathroom. I slipped on the mat, and down I went. I didn't bang my head.",
        ("affirm:fall_last_week", "history:fall_last_tuesday_bathroom", "deny:head_injury"),
    )
    say(C, "Did you black out, or feel dizzy before you fell?")
    say(P, "No, I didn't black out. I just slipped.", ("deny:loss_of_consciousness", "deny:dizziness_before_fall"))
    say(
        J,
        "She was on the floor for an hour before I found her, doctor. She couldn't get up on her own.",
        ("history:long_lie_1_hour", rr + "long_lie_1_hour", "contradicts:patient_long_lie_20_minutes"),
        notes="the daughter-in-law's account; the patient says twenty minutes at most (next turn)",
    )
    say(
        P,
        "Not an hour, Julie. Twenty minutes at most.",
        ("history:long_lie_20_minutes", "contradicts:relative_long_lie_1_hour"),
        notes="the patient contradicts her daughter-in-law; both accounts are kept",
    )
    say(C, "Did you hurt yourself anywhere?")
    say(P, "Just a bruise on my left hip. It's a bit sore, but I can walk on it.", ("affirm:bruise_left_hip",))
    say(C, "Do you ever feel dizzy, or light headed, when you stand up?")
    say(
        P,
        "Maybe a little, when I get up too quickly. I'm not really sure.",
        ("uncertain:dizziness_on_standing", "hedge"),
    )
    say(C, "Any blood in your water, or stinging when you pass water?")
    say(
        P,
        "No blood, and it doesn't burn any more. I had a water infection last month, but that's cleared up.",
        ("deny:haematuria", "deny:dysuria", "resolved:urinary_tract_infection_last_month"),
    )
    say(
        J,
        "The surgery gave her nitrofurantoin for five days, and she finished the course.",
        ("resolved:urinary_tract_infection_last_month", "history:nitrofurantoin_5_days_finished", rr + "uti_treated"),
    )
    say(C, "Good. Any pain or swelling in your calves?")
    say(P, "No, just the ankles.", ("deny:calf_pain",))
    say(
        C,
        "Your notes say you had a heart attack eight years ago, and that left your heart a bit weak. Heart failure, and "
        "an irregular heartbeat, atrial fibrillation.",
        (
            "history:myocardial_infarction_8_years_ago",
            "history:heart_failure",
            "history:atrial_fibrillation",
        ),
    )
    say(P, "Yes, that's right. I've been on all these tablets ever since.")
    say(C, "Julie, could you read me what's in the bag?")
    say(
        J,
        "Furosemide, forty milligrams in the morning. That's the water tablet. Bisoprolol, two point five milligrams "
        "once a day.",
        ("medication:furosemide_40mg_morning", "medication:bisoprolol_2_5mg_once_daily", rr + "medication"),
    )
    say(
        J,
        "Apixaban, two point five milligrams, twice a day. Atorvastatin, twenty milligrams at night. And lansoprazole, "
        "fifteen milligrams, for her stomach.",
        (
            "medication:apixaban_2_5mg_twice_daily",
            "medication:atorvastatin_20mg_night",
            "medication:lansoprazole_15mg",
            rr + "medication",
        ),
    )
    tl.cough(P, cuts["S6a"], overlap=0.3)
    say(C, "Mrs Whitfield, do you take the water tablet every day?", gap=0.7)
    say(P, "Every day, doctor. I never miss it.", ("adherence:furosemide_every_day_per_patient",))
    say(
        J,
        "Not on Sundays, Mum. You skip it when we take you to church.",
        (
            "adherence:furosemide_missed_on_sundays",
            rr + "adherence",
            "contradicts:patient_adherence_every_day",
        ),
        notes="the daughter-in-law contradicts the patient; both accounts are kept",
    )
    say(P, "Well, just on Sundays. I can't be running out in the middle of the service.")
    say(
        C,
        "I understand. But it's important, especially now. Are you allergic to any medicines?",
        ("advice:take_furosemide_daily",),
    )
    say(
        P,
        "Aspirin. It gives me a wheezy chest, and my lips swell up.",
        ("allergy:aspirin", "allergy:aspirin_wheeze_lip_swelling"),
    )
    say(C, "Do you smoke, or drink at all?")
    say(
        P,
        "I've never smoked. A small sherry at Christmas, that's all.",
        ("social:never_smoked", "social:alcohol_minimal"),
    )
    say(C, "Does anyone in the family have heart trouble?")
    say(
        P,
        "My mother had dropsy, they called it. Her legs were full of water. And my brother had a heart attack at "
        "seventy.",
        ("family_history:mother_heart_failure_dropsy", "family_history:brother_heart_attack_at_70"),
    )
    say(C, "Do you live here on your own?")
    say(
        P,
        "Since my husband died, yes. Martin and Julie come round every day, and so does Pat from next door.",
        ("social:lives_alone", "social:widowed", "social:family_visit_daily"),
    )
    say(
        S,
        "Would you like a cup of tea, doctor? I've just put the kettle on.",
        gap=1.0,
        notes="the son puts his head round the door",
    )
    say(C, "I'm fine, thank you, Martin.")
    _ravdess(tl, ravdess, EMOTIONS_10[3], 1.2, "grandson", through_door=True)
    say(
        C,
        "Mrs Whitfield, let me examine you. Could you sit forward, so I can listen to your chest?",
        ("exam", "instruction"),
        gap=1.0,
    )
    tl.pause(3.0)  # she sits forward
    say(C, "Big deep breaths, in and out, through your mouth.", ("exam", "instruction"), gap=0)
    tl.pause(3.0)  # a deep breath in
    tl.cough(P, cuts["S1b"], gap=0, speed=0.97, notes="the patient coughs after a deep breath during the examination")
    tl.pause(4.0)  # listening
    say(
        C,
        "There are crackles at both bases, a bit more on the right. The heart sounds are irregular.",
        ("exam", "finding:bibasal_crackles", "finding:crackles_worse_right", "finding:heart_sounds_irregular"),
        gap=0,
    )
    say(C, "Now let me feel your pulse.", ("exam", "instruction"))
    tl.pause(15.0)  # a silent 15 s pulse count
    say(C, "Her pulse is ninety six, and irregular.", ("exam", "vital:pulse_96_irregular"), gap=0)
    say(C, "And your blood pressure. Rest your arm on the cushion for me.", ("exam", "instruction"))
    tl.pause(10.0)  # the cuff inflates and deflates
    say(
        C,
        "One hundred and forty two over eighty eight. That's fine.",
        ("exam", "vital:blood_pressure_142_88"),
        gap=0,
    )
    say(C, "I'll pop this on your finger, to check your oxygen, and this in your ear for your temperature.", ("exam",))
    tl.pause(6.0)
    say(
        C,
        "Oxygen is ninety one percent on air. That's lower than I'd like. Temperature is thirty six point eight, "
        "normal.",
        ("exam", "vital:oxygen_saturation_91_on_air", "vital:temperature_36_8"),
        gap=0,
    )
    say(C, "The veins in her neck are raised, too.", ("exam", "finding:raised_jvp"))
    say(C, "Now your ankles. I'll press here for a few seconds.", ("exam", "instruction"))
    tl.pause(4.0)
    say(
        C,
        "That leaves a dent. That's pitting edema, and it goes right up to her knees, on both sides.",
        ("exam", "finding:pitting_oedema_to_knees_bilateral"),
        gap=0,
    )
    say(C, "And let me look at that hip.", ("exam", "instruction"))
    tl.pause(4.0)
    say(
        C,
        "There's a bruise on the left hip, but the hip moves well, and she can stand on it. No sign of any injury to her "
        "head.",
        ("exam", "finding:bruise_left_hip", "finding:hip_moves_well", "finding:no_head_injury"),
        gap=0,
    )
    _ravdess(tl, ravdess, EMOTIONS_10[4], 1.0, "neighbour", through_door=True)
    say(
        C,
        "Mrs Whitfield, I think your heart failure has got worse. Fluid is building up on your lungs, and in your legs. "
        "That's why you're breathless, and why your ankles are swollen.",
        ("diagnosis:worsening_heart_failure", "diagnosis:fluid_overload", "explanation"),
        gap=1.0,
    )
    say(
        P,
        "I don't want to go into hospital, doctor. I was in there after my heart attack, and I hated it.",
        ("expressed:worried", "concern:hospital_admission"),
        notes="the patient's worry (TTS: the words carry it, the voice does not; emotion null)",
    )
    say(
        C,
        "I don't think you need to go in today. We'll try to get the fluid off here at home.",
        ("reassurance", "plan:manage_at_home"),
    )
    say(
        C,
        "I'm going to increase the water tablet. The furosemide goes up from forty milligrams to eighty milligrams, "
        "every morning, starting tomorrow.",
        ("plan:increase_furosemide_40_to_80mg_morning", "plan:start_tomorrow"),
    )
    say(
        C,
        "I'll take some blood now, to check your kidneys and your potassium, and we'll repeat it next week.",
        ("plan:bloods_today_kidney_function_potassium", "plan:repeat_bloods_next_week"),
    )
    tl.pause(5.0)  # the tourniquet goes on
    say(C, "Sharp scratch.", ("procedure:blood_test",), gap=0)
    say(P, "Ooh. That wasn't too bad.")
    say(
        C,
        "I'll ask the district nurses to come tomorrow, and weigh you every day. And I'll refer you to the falls team, "
        "and ask the pharmacy about blister packs.",
        ("plan:district_nurse_visit_tomorrow", "plan:daily_weights", "plan:falls_referral", "plan:blister_packs"),
    )
    say(J, "Oh, that would help. I was going to ask about blister packs.")
    say(C, "And I'll come back and see you on Friday.", ("plan:review_friday",))
    say(
        C,
        "But if she gets chest pain, or can't breathe lying down, or her lips turn blue, call nine nine nine straight "
        "away.",
        ("safety_net",),
        notes="conditional safety-net advice, not a symptom she has",
    )
    say(
        J,
        "Chest pain, can't breathe lying down, or blue lips, call nine nine nine. And you're back on Friday.",
        ("safety_net", "read_back"),
    )
    tl.cough(P, cuts["S3b"], gap=0.5)
    tl.cough(P, cuts["S3c"], gap=0.25, notes="the second cough of a double cough")
    say(P, "Thank you, doctor. You've been very kind.", gap=0.8)
    say(C, "Look after yourself, Mrs Whitfield. See you on Friday.")
    tl.pause(3.0)

    # ------------------------------------------------------------------ 3. phone call
    tl.begin(
        "phone_call",
        "Afterwards, in his car outside, the GP phones the district nursing team on the speakerphone (his side heard as "
        "room speech; the nurse's side and the ring-back band-limited 300-3400 Hz): the dose change (furosemide 40 to "
        "80 mg in the morning from tomorrow), a visit tomorrow with daily weights, a falls assessment, and his direct "
        "line, read back",
        "consultation",
    )
    tl.pause(1.5)
    _ringback(tl)
    _far(tl, N, "District nursing team, this is Steve.", gap=0.8)
    say(
        C,
        "Hi Steve, it's Doctor Morgan from Elmwood Surgery. I've just seen Mrs Whitfield, Edith Whitfield, at number "
        "twelve, Mill Lane.",
        ("phone_call",),
    )
    _far(tl, N, "Oh yes, we know her. We gave her the flu jab at home in October.")
    say(
        C,
        "Her heart failure is worse. She's got fluid on her lungs, and swollen legs up to the knees, and her oxygen is "
        "ninety one percent.",
        (
            "phone_call",
            "diagnosis:worsening_heart_failure",
            "finding:pitting_oedema_to_knees_bilateral",
            "vital:oxygen_saturation_91_on_air",
        ),
    )
    say(
        C,
        "I've increased her furosemide, from forty milligrams to eighty milligrams in the morning, starting tomorrow.",
        ("phone_call", "plan:increase_furosemide_40_to_80mg_morning"),
    )
    _far(
        tl,
        N,
        "So that's furosemide eighty milligrams every morning, from tomorrow. Got it.",
        ("read_back",),
    )
    say(
        C,
        "Could someone visit tomorrow, weigh her, and check her ankles and her breathing? And then weigh her every day "
        "this week.",
        ("phone_call", "plan:district_nurse_visit_tomorrow", "plan:daily_weights"),
    )
    _far(tl, N, "We can fit her in tomorrow morning, between nine and eleven. Is anything else changing?")
    say(
        C,
        "No, everything else stays the same. I took bloods today, for her kidneys and potassium. She also had a fall "
        "last week, with no head injury.",
        (
            "phone_call",
            "plan:other_medicines_unchanged",
            "plan:bloods_today_kidney_function_potassium",
            "history:fall_last_week",
            "deny:head_injury",
        ),
    )
    _far(tl, N, "Then I'll do a falls risk assessment while I'm there.", ("plan:falls_risk_assessment",))
    _far(tl, N, "Is there a key safe, or will someone let us in?")
    say(
        C,
        "Her family will be there. Her daughter in law, Julie, sorts out her tablets.",
        ("phone_call", "social:daughter_in_law_manages_medication"),
    )
    _far(tl, N, "That's fine. And when will the blood results be back?")
    say(
        C,
        "Tomorrow afternoon. I'll ring you if her kidneys or her potassium mean we need to change the dose.",
        ("phone_call", "plan:blood_results_tomorrow_afternoon"),
    )
    say(
        C,
        "Thanks. If her weight goes up by more than two kilos, or she's more breathless, ring me on my direct line.",
        ("phone_call", "safety_net"),
    )
    say(C, "That's zero one six one, four nine six, zero three eight two.", ("phone_call", "phone_number"))
    _far(
        tl,
        N,
        "Zero one six one, four nine six, zero three eight two. I'll put it in her notes.",
        ("read_back", "phone_number"),
    )
    say(C, "Perfect. I'll see her again on Friday.", ("phone_call", "plan:review_friday"))
    _far(tl, N, "Lovely. I'll let you know how she is tomorrow. Bye now.")
    say(C, "Thanks, Steve. Bye.", ("phone_call",))
    tl.pause(1.5)
