"""bank_rec_09: a medical ward bay in the morning -> the consultant's ward round -> the junior doctor's phone update.

Imported by ``make_recordings.py`` (``--only bank_rec_09``); it uses that module's ``Timeline`` and bank_rec_07's
RAVDESS trimming (``rec07._tighten``).

* ``ward_bay``: a bay of a hospital medical ward (Elm Ward) early on a weekday morning: the ward nurse (eSpeak NG
  ``en-us+f3``) and a healthcare assistant (Flite ``kal16``) do the morning observations of another patient, Mrs
  Hale in bed three (her own stomach ache, vomiting, temperature, blood pressure, pulse and NEWS2 score: tagged
  ``other_patient``, not our patient's); a confused elderly man in the next bed, Mr Price (eSpeak NG
  ``en-gb-scotland+m5``), calls out (symptom words used figuratively: "dying for a cup of tea", "this queue is
  killing me", "sick to death of this jelly"); our patient's infusion pump alarms (a generated pure-tone beep
  pattern, event kind ``alarm``) and the nurse takes his finished drip down; four RAVDESS remarks of visitors and other
  patients (actors 24/05/02/01, clips not used in bank_rec_02-08); a bystander's real cough; a quiet stretch of
  about 8 s; the healthcare assistant says the round has started.
* ``ward_round``: the consultant physician (eSpeak NG RP ``+m2``, a voice never used as a clinician before), the
  foundation-year-one junior doctor (Flite ``slt``, role ``junior_doctor``) who presents the patient in the third
  person, the ward nurse (role ``nurse``) reporting observations, NEWS2 and fluid balance, and the patient, Mr Samuel
  Okafor, 68 (Flite ``awb``), admitted two days ago with right lower lobe community-acquired pneumonia: right-sided
  pleuritic chest pain, fever, cough and breathlessness on admission, confusion on admission (resolved); the junior
  says "no sputum" and the patient corrects it (rusty brown phlegm since yesterday: the patient's word holds); he adds
  a sore, red arm where the old drip was (nobody asked; phlebitis); denials (blood in the phlegm, calf pain or
  swelling, headache, diarrhoea), a hedge (night sweats "maybe, I'm not sure"), a penicillin allergy (rash, tight
  throat), past history (type 2 diabetes, high blood pressure, a left knee replacement), family history (his
  brother's stroke, his mother's diabetes), his wife's Parkinson's disease (he is her carer: his worry about going
  home to her is the emotional moment; TTS, emotion null); the consultant's examination spoken aloud; IV
  clarithromycin changed to oral for three more days, ramipril held, regular paracetamol; a conditional safety-net to
  the nurse ("if his sats drop below ninety two, call the registrar"), the plan and a discharge estimate (Friday).
  Six real coughs of the patient (one overlapping the end of a turn, one after a deep breath during the examination);
  a second alarm (another bed's monitor); one RAVDESS visitor in the bay (calm).
* ``relative_phone_update``: after the round the junior doctor phones the patient's daughter (eSpeak NG RP ``+f2``;
  band-limited 300-3400 Hz, both sides): she reports her father's symptoms before admission in the third person
  (shivering, off his food, muddled on Sunday) and her own unrelated back pain, asks whether it is catching and when
  he can come home, and reads the plan back.

The alarm is synthesised honestly as what it is, a pure-tone beep pattern (3 x 0.25 s at 960 Hz, repeated): no
real recording of an infusion pump or monitor is available offline, and no other sound event is synthesised.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from make_recordings import SAMPLE_RATE, CoughCut, Placed, Speaker, Timeline, fade, set_rms
from rec07 import _tighten

ALARM_DBFS = -30.0  # the infusion pump / monitor beeps (RMS over the whole pattern)
ALARM_HZ = 960.0
ALARM_BEEP_S = 0.25
ALARM_GAP_S = 0.15  # between the beeps of a group
ALARM_REST_S = 0.9  # between groups
FAR_DBFS = -26.0  # the confused man in the next bed, and the other patient, a little further away

EMOTIONS_09 = [
    "03-01-03-01-02-01-24.flac",  # actor 24 happy normal, dogs (ward bay: a visitor)
    "03-01-04-01-01-01-05.flac",  # actor 05 sad normal, kids (ward bay: another patient)
    "03-01-05-01-01-01-02.flac",  # actor 02 angry normal, kids (ward bay: a visitor)
    "03-01-08-01-01-01-01.flac",  # actor 01 surprised normal, kids (ward bay: a visitor)
    "03-01-02-02-01-01-06.flac",  # actor 06 calm strong, kids (a visitor in the bay, heard during the round)
]

SPEAKERS_09 = {
    "bank09_nurse": Speaker(
        "nurse",
        "Grace",
        "espeak:en-us+f3",
        "F",
        "the ward nurse on Elm Ward: does the morning observations, reports the patient's observations, NEWS2 and "
        "fluid balance on the ward round (synthetic)",
    ),
    "bank09_hca": Speaker(
        "healthcare_assistant",
        "Tom",
        "kal16",
        "M",
        "healthcare assistant on Elm Ward, doing the morning observations with the nurse (synthetic)",
    ),
    "bank09_other_patient": Speaker(
        "other_patient",
        "Mrs Hale",
        "espeak:en-gb-x-gbclan+f4",
        "F",
        "another patient in the bay (bed three) having her morning observations; her complaints and values are hers, "
        "not the patient's (synthetic)",
    ),
    "bank09_confused_patient": Speaker(
        "other_patient",
        "Albert Price",
        "espeak:en-gb-scotland+m5",
        "M",
        "a confused elderly man in the next bed who calls out; his symptom words are figurative (synthetic)",
    ),
    "bank09_clinician": Speaker(
        "clinician",
        "Doctor Harding",
        "espeak:en-gb-x-rp+m2",
        "M",
        "the consultant physician leading the ward round; examines the patient and decides the plan (synthetic)",
    ),
    "bank09_junior": Speaker(
        "junior_doctor",
        "Doctor Lucy Evans",
        "slt",
        "F",
        "the foundation-year-one (FY1) junior doctor: presents the patient on the round in the third person and phones "
        "his daughter afterwards (synthetic)",
    ),
    "bank09_patient": Speaker(
        "patient",
        "Samuel Okafor",
        "awb",
        "M",
        "patient, a 68-year-old man admitted two days ago with community-acquired pneumonia (synthetic voice; real "
        "coughs)",
    ),
    "bank09_daughter": Speaker(
        "relative",
        "Joy Okafor",
        "espeak:en-gb-x-rp+f2",
        "F",
        "the patient's daughter, on the telephone; has back pain of her own (synthetic)",
    ),
    "bank09_bystander_1": Speaker(
        "bystander",
        None,
        None,
        "F",
        "a visitor in the ward bay who coughs (real BMC cough, source S1)",
    ),
}

_BAY_NOTE = (
    "acted emotional remark by a visitor or another patient in the ward bay, not the patient (RAVDESS, CC BY-NC-SA 4.0; "
    "quiet lead-in and tail cut); the same clip is in the shared ser-train set"
)
_ROUND_NOTE = (
    "acted emotional line by a visitor at another bed in the bay, heard during the ward round, not the patient "
    "(RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut; 3 dB quieter); the same clip is in the shared ser-train set"
)
_CORRECTED = (
    "the junior doctor's presentation; the patient corrects the sputum later in the round: he IS coughing up rusty "
    "brown phlegm, so deny:sputum here does not hold (the patient's affirm:rusty_sputum does)"
)


def _other_person(tl: Timeline, ravdess: Path, name: str, gap: float | None, background: bool) -> Placed:
    """A RAVDESS line of a visitor or another patient in the bay (``background``: during the round, 3 dB quieter)."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    extra = ["ward_bay"]
    if background:
        p.audio = p.audio * 10 ** (-3.0 / 20)
        extra = ["ward_bay", "background"]
    p.fields["tags"] = [*p.fields["tags"], *extra]  # type: ignore[misc]
    p.fields["notes"] = _ROUND_NOTE if background else _BAY_NOTE
    return p


def _alarm_tone(groups: int) -> np.ndarray:
    """``groups`` groups of three 0.25 s beeps at 960 Hz (0.15 s apart), 0.9 s between groups."""
    sr = SAMPLE_RATE
    t = np.arange(round(ALARM_BEEP_S * sr)) / sr
    beep = fade(np.sin(2 * np.pi * ALARM_HZ * t), 0.01)
    gap, rest = np.zeros(round(ALARM_GAP_S * sr)), np.zeros(round(ALARM_REST_S * sr))
    group = np.concatenate([beep, gap, beep, gap, beep])
    parts: list[np.ndarray] = []
    for k in range(groups):
        parts.append(group)
        if k < groups - 1:
            parts.append(rest)
    return np.concatenate(parts)


def _alarm(tl: Timeline, gap: float, groups: int, what: str, notes: str) -> Placed:
    """Place a generated alarm (its own event kind, ``alarm``)."""
    x = set_rms(_alarm_tone(groups), ALARM_DBFS)
    p = tl._place(
        "alarm",
        tl.cursor + round(gap * SAMPLE_RATE),
        x,
        speaker=None,
        text=None,
        emotion=None,
        source=(
            f"generated pure-tone beep pattern ({groups} x three 0.25 s beeps at 960 Hz, 0.15 s apart, 0.9 s between "
            "groups); a stand-in for a ward equipment alarm"
        ),
        synthetic=True,
        tags=["alarm", what],
        notes=notes,
    )
    tl.cursor = p.end
    return p


def build_rec09(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Ward bay -> consultant ward round with the junior doctor and the nurse -> phone update to the daughter."""
    N, H, M, X = "bank09_nurse", "bank09_hca", "bank09_other_patient", "bank09_confused_patient"
    C, J, P, D = "bank09_clinician", "bank09_junior", "bank09_patient", "bank09_daughter"
    B = "bank09_bystander_1"
    say = tl.say
    tl.tts_name = (
        "Flite TTS (the patient, the junior doctor, the healthcare assistant) and eSpeak NG TTS (the consultant, the "
        "nurse, the other patients, the daughter)"
    )
    tl.notes_extra = (
        "; an event of kind 'alarm' is a generated pure-tone beep pattern (an infusion pump or monitor alarm), not "
        "speech; a turn tagged presented_by:junior is the junior doctor presenting the patient in the third person "
        "(its assertion tags are about the patient, as she reported them; a later correction by the patient is noted)"
    )
    for actor in (1, 2, 5, 6, 24):
        tl.speakers[f"ravdess_actor{actor:02d}"] = Speaker(
            "bystander",
            None,
            None,
            "M" if actor % 2 else "F",
            f"RAVDESS actor {actor:02d} (real acted speech), a visitor or another patient in the ward bay",
        )
    ncw = ("nonclinical_symptom_word",)
    oth = "other_patient"
    pj = "presented_by:junior"

    # ------------------------------------------------------------------ 1. ward bay
    tl.begin(
        "ward_bay",
        "A bay of Elm Ward, a hospital medical ward, early in the morning: the ward nurse and a healthcare assistant do "
        "the morning observations of another patient, Mrs Hale (her own stomach ache, vomiting, temperature, blood "
        "pressure, pulse and NEWS2 score: not the patient's); a confused elderly man in the next bed calls out "
        "(symptom words used figuratively); the patient's infusion pump alarms and the nurse takes his finished drip "
        "down; visitors' and other patients' acted emotional remarks (RAVDESS); a visitor's cough; a quiet stretch; "
        "the round begins",
        "waiting",
    )
    tl.pause(1.0)
    say(N, "Morning, Mrs Hale. Just your observations before the doctors come round.", gap=0)
    say(
        M,
        "Morning, love. My stomach's been aching all night, and I've been sick twice.",
        (oth, "other_patient:abdominal_pain", "other_patient:vomiting_twice"),
        level=FAR_DBFS,
        notes="another patient (bed three): her own complaints, not the patient's",
    )
    say(
        H,
        "Temperature thirty seven point nine. Blood pressure one hundred and ten over sixty.",
        (oth, "other_patient:temperature_37_9", "other_patient:blood_pressure_110_60"),
        notes="Mrs Hale's observations, not the patient's",
    )
    say(
        N,
        "And her pulse is one hundred and six. That makes her NEWS score five. I'll tell the doctors, and get her "
        "something for the sickness.",
        (oth, "other_patient:pulse_106", "other_patient:news2_5", "other_patient:antiemetic"),
        notes="Mrs Hale's pulse and early warning score, not the patient's",
    )
    say(
        X,
        "Nurse! Nurse! Has the bus gone? I'm dying for a cup of tea, and this queue is killing me.",
        (oth, *ncw),
        gap=1.4,
        level=FAR_DBFS,
        notes="the confused man in the next bed; 'dying' and 'killing me' are figures of speech, not symptoms",
    )
    say(H, "It's alright, Albert. There's no bus today. I'll bring you a cup of tea in a minute.")
    _other_person(tl, ravdess, EMOTIONS_09[0], 1.5, background=False)
    _alarm(
        tl,
        1.2,
        4,
        "infusion_pump",
        "generated stand-in for the patient's infusion pump alarm: his intravenous antibiotic has finished",
    )
    say(P, "Nurse, that machine's beeping again.", gap=0.8)
    say(
        N,
        "I know, Mister Okafor. Your drip's finished. I'll take it down for you now.",
        ("iv_antibiotic_finished",),
        notes="the alarm was the patient's infusion pump",
    )
    say(
        X,
        "I'm sick to death of this jelly. Sick to death of it! Where's my wife got to?",
        (oth, *ncw),
        gap=1.2,
        level=FAR_DBFS,
        notes="the confused man in the next bed; 'sick to death' is a figure of speech, not a symptom",
    )
    tl.cough(B, cuts["S1a"], gap=1.5, notes="real cough (BMC Cough 2006) of a visitor in the ward bay, not the patient")
    _other_person(tl, ravdess, EMOTIONS_09[1], 1.6, background=False)
    say(H, "Here's your tea, Albert. Mind, it's hot.", gap=1.5)
    _other_person(tl, ravdess, EMOTIONS_09[2], 1.8, background=False)
    tl.pause(8.0)  # nobody speaks
    _other_person(tl, ravdess, EMOTIONS_09[3], 0.6, background=False)
    say(H, "Grace, the consultant's started the round. They're at bed one.", gap=1.8)
    say(N, "Right. Mister Okafor is next, then Mrs Hale.")
    tl.pause(2.5)  # the round comes to the bed

    # ------------------------------------------------------------------ 2. ward round
    tl.begin(
        "ward_round",
        "The consultant's ward round at the patient's bed: the junior doctor (FY1) presents Mr Samuel Okafor, 68, "
        "admitted two days ago with right lower lobe community-acquired pneumonia, in the third person (the patient "
        "later corrects her 'no sputum': he coughs up rusty brown phlegm); the ward nurse reports observations, "
        "NEWS2 and fluid balance; the consultant questions the patient (denials, a hedge, a resolved confusion, "
        "allergy, past, family and social history, an unasked-about sore arm where the drip was), examines him aloud; "
        "the patient worries about his wife at home; intravenous to oral antibiotics, ramipril held, a conditional "
        "safety-net to the nurse, the plan and a discharge estimate; real coughs; a monitor alarm at another bed; a "
        "visitor's remark",
        "consultation",
    )
    tl.pause(1.0)
    say(C, "Good morning, Mister Okafor. I'm Doctor Harding, the consultant. Lucy, tell me about him.", gap=0)
    say(
        J,
        "This is Mister Samuel Okafor, a sixty eight year old man admitted two days ago with community acquired "
        "pneumonia.",
        (pj, "age:68", "diagnosis:community_acquired_pneumonia", "history:admitted_2_days_ago"),
    )
    say(
        J,
        "He came in with a three day history of fever, cough and shortness of breath. He's been complaining of "
        "right sided pleuritic chest pain.",
        (
            pj,
            "affirm:fever",
            "affirm:cough",
            "affirm:shortness_of_breath",
            "history:3_days_before_admission",
            "affirm:right_sided_pleuritic_chest_pain",
        ),
    )
    say(
        J,
        "No hemoptysis, and no sputum.",
        (pj, "deny:haemoptysis", "deny:sputum", "corrected_by_patient"),
        notes=_CORRECTED,
    )
    say(
        J,
        "He was confused on admission, so his CURB sixty five score was two. The confusion had settled by the next "
        "morning.",
        (pj, "resolved:confusion_on_admission", "score:curb65_2"),
    )
    say(
        J,
        "His chest X-ray showed right lower lobe consolidation. His CRP was one hundred and eighty on admission and "
        "ninety five yesterday. He's on IV clarithromycin, because of a penicillin allergy.",
        (
            pj,
            "result:chest_xray_right_lower_lobe_consolidation",
            "result:crp_180_on_admission",
            "result:crp_95_yesterday",
            "improving:crp",
            "medication:iv_clarithromycin",
            "allergy:penicillin",
        ),
    )
    say(
        J,
        "His creatinine was one hundred and forty on admission, from a baseline of ninety. Yesterday it was one "
        "hundred and ten. He's on enoxaparin, forty milligrams once a day, to prevent clots.",
        (
            pj,
            "result:creatinine_140_on_admission",
            "result:creatinine_baseline_90",
            "result:creatinine_110_yesterday",
            "diagnosis:acute_kidney_injury_improving",
            "medication:enoxaparin_40mg_once_daily",
        ),
    )
    say(
        J,
        "Socially, he lives with his wife, who has Parkinson's disease, and he's her main carer. He's a non smoker.",
        (
            pj,
            "social:lives_with_wife",
            "social:carer_for_wife",
            "relative_symptom:wife_parkinsons_disease",
            "social:never_smoked",
        ),
    )
    tl.cough(P, cuts["S6a"], overlap=0.3)
    say(C, "Thank you. Grace, how are his observations?", gap=0.7)
    say(
        N,
        "This morning his temperature was thirty seven point six, and his oxygen saturation was ninety three percent "
        "on two litres of oxygen.",
        ("vital:temperature_37_6", "vital:oxygen_saturation_93_on_2_litres_oxygen", "reported_by:nurse"),
    )
    say(
        N,
        "Blood pressure one hundred and twenty eight over seventy six, pulse ninety four, and breathing twenty a "
        "minute. His NEWS two score is three.",
        (
            "vital:blood_pressure_128_76",
            "vital:pulse_94",
            "vital:respiratory_rate_20",
            "score:news2_3",
            "reported_by:nurse",
        ),
    )
    say(
        N,
        "He's drunk about one point two litres since midnight, and passed six hundred millilitres of urine. He's "
        "eating a little.",
        ("fluid_balance:intake_1_2_litres_since_midnight", "fluid_balance:urine_600_ml", "reported_by:nurse"),
    )
    say(
        N,
        "His blood sugars have been running high, between twelve and fifteen. And he walked to the bathroom with the "
        "physio yesterday.",
        (
            "result:blood_glucose_12_to_15",
            "finding:hyperglycaemia",
            "reported_by:nurse",
            "social:mobilising_with_physio",
        ),
    )
    say(
        N,
        "He didn't sleep well last night. He was up coughing.",
        ("affirm:poor_sleep", "affirm:night_cough", "reported_by:nurse"),
    )
    say(C, "Good. Mister Okafor, how are you feeling today?")
    say(
        P,
        "Better than when I came in, doctor. But this pain on the right still catches me when I breathe in.",
        ("affirm:right_sided_pleuritic_chest_pain", "improving:general"),
    )
    say(C, "How bad is that pain, out of ten?")
    say(
        P,
        "About five out of ten, worse when I cough. It was eight when I came in.",
        ("score:pain_5_of_10", "history:pain_8_of_10_on_admission", "improving:chest_pain"),
    )
    say(C, "And your breathing, compared with Sunday?")
    say(
        P,
        "Easier. On Sunday I couldn't walk to the toilet without stopping. Now I can get there and back.",
        ("improving:shortness_of_breath", "history:breathless_walking_to_toilet_on_sunday"),
    )
    say(C, "And the cough? Are you bringing anything up?")
    say(
        P,
        "Yes, I am. Excuse me, but I am coughing up phlegm. It's a rusty brown colour, since yesterday.",
        ("affirm:sputum", "affirm:rusty_sputum", "correction", "corrects:junior_deny_sputum"),
        notes="the patient corrects the junior doctor's 'no sputum'; his account holds",
    )
    tl.cough(P, cuts["S3a"], gap=0.4, notes="the patient coughs after describing his phlegm")
    say(
        C,
        "Rusty sputum, then. Lucy, let's send a sample. Any blood in it?",
        ("affirm:rusty_sputum", "plan:sputum_culture"),
        gap=0.8,
    )
    say(P, "No blood. No, none at all.", ("deny:haemoptysis",))
    say(C, "Any pain or swelling in your calves?")
    say(P, "No, my legs are fine.", ("deny:calf_pain", "deny:calf_swelling"))
    say(C, "Headache? Diarrhoea from the antibiotics?")
    say(P, "No headache. And no diarrhoea.", ("deny:headache", "deny:diarrhoea"))
    say(C, "Any dizziness when you stand up? Any pain passing water?")
    say(P, "No dizziness. And the water's fine.", ("deny:dizziness_on_standing", "deny:dysuria"))
    say(C, "Have you had any night sweats?")
    say(
        P,
        "Maybe. I'm not sure. It's very hot on this ward.",
        ("uncertain:night_sweats", "hedge"),
    )
    say(C, "Do you remember much about the night you came in?")
    say(
        P,
        "Not a thing. My daughter says I didn't know where I was. But my head's clear now.",
        ("resolved:confusion_on_admission", "relative_report:confusion_on_admission"),
    )
    say(
        P,
        "There's something else, doctor. My left arm is sore and red, where the old drip was.",
        ("affirm:sore_red_left_arm_at_old_cannula_site", "new_symptom:sore_arm_at_old_cannula_site", "unprompted"),
        notes="a symptom nobody asked about",
    )
    _alarm(
        tl,
        1.0,
        2,
        "monitor",
        "generated stand-in for a monitor alarm at another bed in the bay; not the patient's",
    )
    say(N, "That's bed six's monitor. I'll check it after.", gap=0.7)
    say(C, "Lucy, is the penicillin allergy on his drug chart?", gap=0.8)
    say(J, "Yes. It's on the chart, and on his red wristband.", ("allergy:penicillin", "allergy_documented"))
    say(C, "Mister Okafor, what happened with the penicillin?")
    say(
        P,
        "I came out in a rash all over, and my throat felt tight. That was years ago.",
        ("allergy:penicillin_rash_tight_throat",),
    )
    say(C, "Any other health problems?")
    say(
        P,
        "Type two diabetes, and high blood pressure. And a new left knee, four years ago.",
        ("history:type_2_diabetes", "history:hypertension", "history:left_knee_replacement_4_years_ago"),
    )
    say(C, "What tablets do you take at home?")
    say(
        P,
        "Metformin, five hundred milligrams twice a day. And ramipril, five milligrams in the morning.",
        ("medication:metformin_500mg_twice_daily", "medication:ramipril_5mg_morning"),
    )
    say(C, "Anything in the family?")
    say(
        P,
        "My brother died of a stroke at sixty. And my mother had diabetes.",
        ("family_history:brother_stroke_died_at_60", "family_history:mother_diabetes"),
    )
    _other_person(tl, ravdess, EMOTIONS_09[4], 1.0, background=True)
    say(C, "Do you smoke?", gap=0.9)
    say(
        P,
        "Never. I was a bus driver for thirty years. I don't drink much either.",
        ("social:never_smoked", "social:retired_bus_driver"),
    )
    say(C, "Have you had the flu jab this year, and the pneumonia jab?")
    say(
        P,
        "The flu jab, yes, in October. The pneumonia one, I don't think so. I can't remember.",
        ("history:flu_vaccine_october", "history:pneumococcal_vaccine_unknown"),
    )
    say(C, "Let me examine you. Sit forward for me, and let me listen to your back.", ("exam", "instruction"))
    tl.pause(3.0)  # he sits forward
    say(C, "Take a deep breath in, through your mouth.", ("exam", "instruction"), gap=0.0)
    tl.pause(2.5)  # a deep breath in
    tl.cough(P, cuts["S1b"], gap=0.0, speed=0.97, notes="the patient coughs after a deep breath during the examination")
    tl.pause(4.0)  # listening
    say(
        C,
        "There's bronchial breathing and coarse crackles at the right base, and it's dull to percussion there. The "
        "left side is clear.",
        (
            "exam",
            "finding:bronchial_breathing_right_base",
            "finding:coarse_crackles_right_base",
            "finding:dull_percussion_right_base",
            "finding:left_lung_clear",
        ),
        gap=0.0,
    )
    tl.pause(3.5)  # listening to the heart
    say(
        C,
        "Heart sounds are normal. His calves are soft and not tender.",
        ("exam", "finding:heart_sounds_normal", "finding:calves_soft_non_tender"),
        gap=0.0,
    )
    say(C, "Let me feel your pulse, and look at your tongue.", ("exam", "instruction"))
    tl.pause(5.0)  # feeling the pulse
    say(
        C,
        "Pulse is regular. His tongue is a bit dry, so keep him drinking, Grace.",
        ("exam", "finding:pulse_regular", "finding:dry_tongue", "plan:encourage_oral_fluids"),
        gap=0.0,
    )
    say(C, "Lie back now. Any pain in your tummy?", ("exam", "instruction"))
    say(P, "No, no pain there.", ("deny:abdominal_pain",))
    tl.pause(4.0)  # feeling the abdomen
    say(C, "His tummy is soft and not tender.", ("exam", "finding:abdomen_soft_non_tender"), gap=0.0)
    say(C, "Now let me see that arm.", ("exam", "instruction"))
    tl.pause(3.0)  # looking at the arm
    say(
        C,
        "The old cannula site is red and a little warm. That's a mild phlebitis. A warm compress, and we'll mark the "
        "redness with a pen.",
        ("exam", "finding:mild_phlebitis_left_arm", "diagnosis:phlebitis", "plan:warm_compress", "plan:mark_redness"),
        gap=0.0,
    )
    tl.cough(P, cuts["S6b"], gap=0.8, speed=1.03)
    say(P, "Doctor, when can I go home?", gap=0.8)
    say(
        P,
        "My wife has Parkinson's, and I do everything for her. The neighbour's with her now, but she gets frightened "
        "on her own. I'm worried sick about her.",
        (
            "relative_symptom:wife_parkinsons_disease",
            "social:carer_for_wife",
            "expressed:worried",
            "concern:wife_at_home",
        ),
        notes="the patient's worry about his wife (TTS: the words carry it, the voice does not; emotion null); "
        "'worried sick' is not a symptom",
    )
    say(
        C,
        "I understand. We'll get you home as soon as it's safe, and the social worker can arrange some help for her "
        "while you get your strength back.",
        ("reassurance", "plan:social_worker_referral"),
    )
    say(P, "Thank you. That would be a weight off my mind.")
    say(C, "Do you have stairs at home?")
    say(
        P,
        "Two steps at the front door. We moved the bed downstairs last year, for my wife.",
        ("social:two_steps_at_front_door", "social:bedroom_downstairs"),
    )
    say(
        C,
        "So, Lucy. Right lower lobe pneumonia, improving, and a mild phlebitis. Stop the I V clarithromycin, and "
        "switch to oral clarithromycin, five hundred milligrams twice a day, for three more days. That makes five days "
        "in total.",
        (
            "diagnosis:right_lower_lobe_pneumonia_improving",
            "plan:stop_iv_clarithromycin",
            "plan:oral_clarithromycin_500mg_twice_daily_3_more_days",
            "plan:antibiotics_5_days_total",
        ),
    )
    tl.cough(P, cuts["S3b"], overlap=0.25)
    say(
        C,
        "Hold the ramipril until his kidney function is back to normal. Regular paracetamol, one gram four times a "
        "day, for the pain.",
        ("plan:hold_ramipril", "plan:paracetamol_1g_four_times_a_day"),
        gap=0.6,
    )
    say(
        C,
        "Wean the oxygen, aiming for saturations between ninety two and ninety six. Repeat bloods tomorrow, and a chest "
        "X-ray in six weeks.",
        ("plan:wean_oxygen_target_92_to_96", "plan:repeat_bloods_tomorrow", "plan:chest_xray_in_6_weeks"),
    )
    say(
        C,
        "Keep the metformin going, and check his sugars four times a day. Physio to see him again today.",
        ("plan:continue_metformin", "plan:blood_glucose_four_times_a_day", "plan:physiotherapy_today"),
    )
    say(
        C,
        "Send a urine test for legionella and pneumococcus with the sputum sample, and give him the pneumonia jab "
        "before he goes.",
        (
            "plan:urine_antigen_legionella_pneumococcus",
            "plan:sputum_culture",
            "plan:pneumococcal_vaccine_before_discharge",
        ),
    )
    say(
        J,
        "So that's clarithromycin tablets, five hundred milligrams twice a day, for three more days. And hold the "
        "ramipril.",
        ("read_back",),
    )
    say(
        C,
        "Mister Okafor, you have a pneumonia at the bottom of your right lung. It's getting better, so we can change "
        "the drip to tablets now.",
        ("diagnosis:right_lower_lobe_pneumonia_improving", "explanation"),
    )
    say(P, "Will the tablets upset my stomach?")
    say(
        C,
        "They can a little, and they can leave a funny taste. Take them with food, and tell the nurses if you get "
        "diarrhoea.",
        ("advice:take_with_food", "advice:side_effects_taste_diarrhoea"),
    )
    say(
        C,
        "Grace, if his sats drop below ninety two, or his NEWS goes above five, call the registrar.",
        ("safety_net", "instruction_to_nurse"),
        notes="conditional escalation advice to the nurse, not a symptom he has",
    )
    say(N, "Below ninety two, or NEWS above five, call the registrar. Will do.", ("safety_net", "read_back"))
    say(
        C,
        "If he's off the oxygen by tomorrow, he can go home on Friday. Possibly Thursday.",
        ("plan:discharge_friday_possibly_thursday", "plan:discharge_if_off_oxygen"),
    )
    say(P, "Friday. I'll hold you to that, doctor.")
    say(C, "Any questions for us before we move on?")
    say(P, "No. You've explained it all very well. Thank you.")
    tl.cough(P, cuts["S5a"], gap=0.6, speed=0.97)
    say(C, "Lucy, will you ring his daughter and update her?", gap=0.9)
    say(J, "I'll do it straight after the round.")
    tl.pause(2.5)

    # ------------------------------------------------------------------ 3. phone update
    tl.begin(
        "relative_phone_update",
        "After the round the junior doctor phones the patient's daughter (band-limited 300-3400 Hz, both sides): she "
        "reports her father's symptoms before admission in the third person (shivering, off his food, muddled on "
        "Sunday), mentions her own back pain, asks whether it is catching and when he can come home; the junior "
        "explains the switch to tablets and the plan, and the daughter reads the plan back",
        "phone",
        phone=True,
    )
    tl.pause(1.0)
    tl.ring(gap=0)
    say(D, "Hello, this is Joy.")
    say(
        J,
        "Hello, is that Joy Okafor? It's Doctor Lucy Evans, the junior doctor on Elm Ward. Your father asked me to "
        "ring you.",
    )
    say(D, "Oh, hello, doctor. Is my dad alright?")
    say(
        J,
        "He's doing better. The antibiotics are working, and we've changed them to tablets today.",
        ("improving:general", "plan:oral_antibiotics"),
    )
    say(
        D,
        "Thank goodness. He wasn't himself at all last week. He was shivering under three blankets, and he went off "
        "his food.",
        ("affirm:rigors", "affirm:poor_appetite", "relative_report:rigors", "relative_report:poor_appetite"),
        notes="the daughter reports her father's symptoms before admission (third person)",
    )
    say(
        D,
        "And on Sunday he didn't know what day it was. That's when I called the ambulance.",
        (
            "resolved:confusion_on_admission",
            "relative_report:confusion_sunday",
            "history:ambulance_called_sunday",
        ),
        notes="the daughter reports her father's confusion before admission (now resolved)",
    )
    say(J, "He's not confused now. He's quite clear, and he's been asking about your mum.", ("resolved:confusion",))
    say(
        D,
        "I go round to see Mum every day, but I've got a bad back myself, so I can't do any lifting.",
        ("relative_symptom:daughter_back_pain", "relative:daughter_own_condition"),
        notes="the daughter's own complaint, not the patient's",
    )
    say(
        J,
        "He's also got a sore arm where his old drip was. It's a mild inflammation of the vein, nothing serious.",
        ("diagnosis:phlebitis", "reassurance"),
    )
    say(D, "Is he still in pain?")
    say(
        J,
        "Less. He says it's about five out of ten now, and it was eight when he came in.",
        ("score:pain_5_of_10", "improving:chest_pain"),
    )
    say(D, "He did say something about his arm. Should I bring in his diabetes tablets?")
    say(J, "No need, we give him all his tablets here. Just some clean pyjamas would help.")
    say(D, "Is it catching, what he's got? My mum is not very strong.")
    say(
        J,
        "Pneumonia like his isn't usually passed on to family. Just the usual hand washing.",
        ("advice:not_usually_contagious",),
    )
    say(D, "When can he come home?")
    say(
        J,
        "If he's off the oxygen by tomorrow, possibly Friday. He'll take clarithromycin tablets, five hundred "
        "milligrams twice a day, for three more days. And he'll need a chest X-ray in six weeks.",
        (
            "plan:discharge_friday_possibly",
            "plan:oral_clarithromycin_500mg_twice_daily_3_more_days",
            "plan:chest_xray_in_6_weeks",
        ),
    )
    say(
        J,
        "His blood pressure tablet, the ramipril, is on hold for now. And the social worker will talk to you about "
        "help for your mum.",
        ("plan:hold_ramipril", "plan:social_worker_referral"),
    )
    say(
        D,
        "So, tablets twice a day for three more days, no ramipril for now, home Friday if he's off the oxygen, and an "
        "X-ray in six weeks.",
        ("read_back",),
    )
    say(J, "That's exactly right.")
    say(D, "Thank you, doctor. Tell him I'll visit tonight.")
    say(J, "I will. Bye now.")
    tl.pause(1.5)
