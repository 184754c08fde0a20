"""bank_rec_06: urgent treatment centre waiting area -> consultation (fall, wrist, chest infection) -> handover.

Imported by ``make_recordings.py`` (``--only bank_rec_06``); it uses that module's ``Timeline``.

* ``utc_waiting_area``: an out-of-hours urgent treatment centre on a Saturday evening: the receptionist (Flite
  ``awb``, a receptionist for the first time) books the patient in (her sister answers for her), other people's
  acted emotional remarks (RAVDESS, actors 01/02/05/06/24 only, clips not used in bank_rec_02-05), a bystander's
  real coughs, the desk phone rings and he takes the call (only his side heard), a ~10 s quiet stretch; the
  patient (who coughs) and her sister chat while they wait.
* ``consultation``: an advanced clinical practitioner (eSpeak NG ``en-us-nyc``, a voice never used before) sees
  a 79-year-old woman (eSpeak NG RP ``+f2``) who tripped and fell on her outstretched right hand, with
  her younger sister (Flite ``slt``, a relative for the first time) answering for her at times: wrist pain,
  a week's chesty cough with a fever, "muddled since Thursday" (a normal four-question memory test), denials
  (no head injury, no blackout, no neck/back/hip pain, no numb fingers, no blood in the phlegm, no water
  infection symptoms), resolved past problems (a chest infection last winter, a broken ankle ten years ago),
  the sister's own cold, their mother's osteoporosis and hip fracture, medicines with doses, a plaster allergy
  and a codeine intolerance, observations read out after silent pauses (temperature, oxygen, pulse, blood
  pressure, a silent breathing count, chest examination, wrist examination), real coughs (two
  overlapping the end of speech), the diagnoses, the plan and a safety-net read back by the sister.
* ``handover``: an hour later in the staff base, the practitioner hands over to the night doctor (Flite ``rms``)
  in clinical shorthand: this patient (the X-ray result, the backslab, the chest infection, what to check before
  she goes) and a second, unrelated patient (a six-year-old boy with a glued cut on his forehead); a visitor's
  RAVDESS line is heard from the corridor.

No throat clearing and no door knock: no honestly licensed real recording is available offline, and sound
events other than the phone tones are never synthesised.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from make_recordings import SAMPLE_RATE, CoughCut, Placed, Speaker, Timeline, active_rms_dbfs, fade

CORRIDOR_GAIN_DB = -3.0  # RAVDESS visitor heard through the staff-base door (about -29 dBFS)

EMOTIONS_06 = [
    "03-01-05-02-01-02-24.flac",  # actor 24 angry strong, kids (waiting area)
    "03-01-04-02-01-01-05.flac",  # actor 05 sad strong, kids (waiting area)
    "03-01-08-01-02-01-02.flac",  # actor 02 surprised normal, dogs (waiting area)
    "03-01-06-01-01-01-01.flac",  # actor 01 fearful normal, kids (waiting area)
    "03-01-03-01-02-01-06.flac",  # actor 06 happy normal, dogs (waiting area)
    "03-01-07-01-02-01-24.flac",  # actor 24 disgust normal, dogs (corridor, heard in the handover)
]

SPEAKERS_06 = {
    "bank06_receptionist": Speaker(
        "receptionist",
        "Gordon",
        "awb",
        "M",
        "receptionist at the urgent treatment centre's front desk; books patients in and answers the desk phone "
        "(synthetic)",
    ),
    "bank06_clinician": Speaker(
        "clinician",
        "Daniel Mercer",
        "espeak:en-us-nyc",
        "M",
        "advanced clinical practitioner at the urgent treatment centre; sees the patient, later hands over to the "
        "night doctor (synthetic)",
    ),
    "bank06_patient": Speaker(
        "patient",
        "Dorothy Pickering",
        "espeak:en-gb-x-rp+f2",
        "F",
        "patient, a 79-year-old widow who lives alone; fell on her outstretched right hand; a week's chesty cough "
        "(synthetic speech, real coughs)",
    ),
    "bank06_sister": Speaker(
        "relative",
        "Pat Ellis",
        "slt",
        "F",
        "the patient's younger sister (75), who brought her in and answers for her at times; has a cold herself "
        "(synthetic)",
    ),
    "bank06_night_doctor": Speaker(
        "colleague",
        "Doctor Tom Fletcher",
        "rms",
        "M",
        "the night-shift doctor at the urgent treatment centre, taking the handover (synthetic)",
    ),
    "bank06_bystander_1": Speaker(
        "bystander",
        None,
        None,
        "F",
        "another person in the urgent treatment centre waiting area who coughs (real BMC coughs, source S3)",
    ),
}


def _tighten(tl: Timeline, p: Placed, below_db: float = 19.0) -> Placed:
    """Cut a RAVDESS clip's near-silent lead-in and tail (as in bank_rec_05), keeping the voice where it was."""
    frame = SAMPLE_RATE // 50  # 20 ms
    floor = active_rms_dbfs(p.audio) - below_db
    n = len(p.audio) // frame
    rms = [float(np.sqrt(np.mean(p.audio[i * frame : (i + 1) * frame] ** 2))) for i in range(n)]
    loud = [i for i, r in enumerate(rms) if 20 * np.log10(r + 1e-12) > floor]
    a = max(0, (loud[0] - 2) * frame)  # keep 40 ms before the first loud frame
    b = min(len(p.audio), (loud[-1] + 3) * frame)  # and 40 ms after the last one
    p.audio = fade(p.audio[a:b], 0.005)
    p.start += a
    tl.cursor = p.end
    return p


def _waiting(tl: Timeline, ravdess: Path, name: str, gap: float | None = None) -> Placed:
    """A RAVDESS remark of another person in the waiting area."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    p.fields["tags"] = [*p.fields["tags"], "waiting_area"]  # type: ignore[misc]
    p.fields["notes"] = (
        "acted emotional remark by another person in the urgent treatment centre waiting area (RAVDESS, "
        "CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared ser-train set"
    )
    return p


def _corridor(tl: Timeline, ravdess: Path, name: str, gap: float | None = None) -> Placed:
    """A RAVDESS line of a visitor in the corridor, heard through the staff-base door (quieter)."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    p.audio = p.audio * 10 ** (CORRIDOR_GAIN_DB / 20)
    p.fields["tags"] = [*p.fields["tags"], "background", "corridor"]  # type: ignore[misc]
    p.fields["notes"] = (
        "acted emotional line by a visitor in the corridor, heard through the staff-base door, not part of the "
        "handover (RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared "
        "ser-train set"
    )
    return p


def build_rec06(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """UTC waiting area -> consultation (fall, wrist, chest infection) with the sister -> handover."""
    Q, C, P, S = "bank06_receptionist", "bank06_clinician", "bank06_patient", "bank06_sister"
    N, B = "bank06_night_doctor", "bank06_bystander_1"
    say = tl.say
    tl.tts_name = "Flite TTS (receptionist, sister, night doctor) and eSpeak NG TTS (practitioner, patient)"
    for spk_id in ("ravdess_actor01", "ravdess_actor02", "ravdess_actor05", "ravdess_actor06", "ravdess_actor24"):
        actor = int(spk_id[-2:])
        tl.speakers[spk_id] = Speaker(
            "bystander",
            None,
            None,
            "M" if actor % 2 else "F",
            f"RAVDESS actor {actor:02d} (real acted speech), another person at the urgent treatment centre",
        )

    # ------------------------------------------------------------------ 1. waiting area
    tl.begin(
        "utc_waiting_area",
        "An out-of-hours urgent treatment centre on a Saturday evening: the receptionist books the patient in (her "
        "sister answers for her), other people's acted emotional remarks (RAVDESS), a bystander coughs, the desk "
        "phone rings and the receptionist takes the call (one side heard), a quiet stretch; the patient coughs and "
        "chats with her sister while they wait",
        "waiting",
    )
    tl.pause(1.0)
    say(Q, "Next, please. Hello there. Is it for yourself?", gap=0)
    say(
        S,
        "It's for my sister, Dorothy. She had a fall at home this afternoon, and she's hurt her wrist.",
        ("relative_report:fall_today", "relative_report:wrist_injury"),
    )
    say(Q, "Oh dear. Can I take her full name and date of birth?")
    say(P, "Dorothy Pickering. The fourteenth of May, nineteen forty seven.", ("identity",))
    say(Q, "Did she bang her head at all, or get knocked out?")
    say(
        S,
        "No, she didn't hit her head. She put her hand out to save herself.",
        ("deny:head_injury", "deny:loss_of_consciousness", "relative_report:fell_on_outstretched_hand"),
    )
    say(
        Q,
        "Right you are. Take a seat, please. The wait is about an hour and a half tonight, and the practitioner "
        "will call her name.",
    )
    _waiting(tl, ravdess, EMOTIONS_06[0], gap=1.4)
    say(
        Q,
        "I know, I'm sorry. There are only two clinicians on tonight. The queue has been a pain in the neck all "
        "evening.",
        ("nonclinical_symptom_word",),
        gap=1.0,
        notes="'a pain in the neck' is figurative (the queue), not a symptom",
    )
    tl.cough(B, cuts["S3a"], gap=1.6)
    tl.cough(B, cuts["S3b"], gap=0.35, tags=("double_cough",))
    tl.ring(gap=1.5, desk=True)
    say(
        Q,
        "Urgent treatment centre, Gordon speaking. No, we don't book appointments, you just come along, or ring "
        "one one one first. We're open until midnight. You're welcome. Bye now.",
        ("phone_one_side",),
        gap=0.6,
        notes="the receptionist answers the desk phone; only his side is heard",
    )
    _waiting(tl, ravdess, EMOTIONS_06[1], gap=2.0)
    tl.pause(9.0)  # nobody speaks
    say(
        P,
        "These seats are hard, Pat. My wrist is throbbing now.",
        ("affirm:wrist_pain_throbbing",),
        gap=0.0,
    )
    say(S, "Rest it on your handbag, Dot, and keep it up.", ("advice:elevate",))
    tl.cough(P, cuts["S6a"], gap=0.8)
    say(
        S,
        "That cough's no better, you know. You tell them about that as well.",
        ("relative_report:cough_not_improving",),
        gap=0.9,
    )
    say(P, "I'm not making a fuss about a cough. I came for my wrist.")
    _waiting(tl, ravdess, EMOTIONS_06[2], gap=1.8)
    say(S, "Did you feed the cat before we came out?", gap=1.5)
    say(
        P,
        "I think so. I can't remember now.",
        ("hedge",),
        notes="a hint of the forgetfulness the sister reports later",
    )
    _waiting(tl, ravdess, EMOTIONS_06[3], gap=2.0)
    _waiting(tl, ravdess, EMOTIONS_06[4], gap=2.5)
    say(C, "Dorothy Pickering? Come through to room four, please. Bring your sister with you if you like.", gap=3.0)
    say(S, "That's us. Come on, Dot. Mind the step.")
    tl.pause(4.0)  # they walk to the consulting room

    # ------------------------------------------------------------------ 2. consultation
    tl.begin(
        "consultation",
        "Consultation with an advanced clinical practitioner in the urgent treatment centre: a 79-year-old woman "
        "who tripped and fell on her outstretched right hand, with her sister answering for her at times; wrist "
        "pain, a week's chesty cough with fever, forgetfulness reported by the sister (normal memory test), "
        "denials, resolved past problems, the sister's own cold, family history, medicines, a plaster allergy and "
        "codeine intolerance, observations after silent pauses, chest and wrist examination, real coughs, "
        "diagnoses (suspected wrist fracture, chest infection), plan and safety-net read back by the sister",
        "consultation",
    )
    tl.pause(1.5)
    say(
        C,
        "Have a seat, both of you. I'm Daniel, one of the advanced practitioners here. So, Dorothy, what "
        "happened today?",
        gap=0.0,
    )
    say(
        P,
        "I caught my foot on the edge of the rug in the kitchen, about two o'clock. I went down forwards and "
        "landed on my right hand.",
        ("history:fall_trip_on_rug_1400", "history:fall_on_outstretched_right_hand"),
    )
    say(C, "Did you feel dizzy or faint before you went over, or did you just trip?")
    say(
        P,
        "No, I just caught my foot. I wasn't dizzy at all.",
        ("deny:dizziness_before_fall", "deny:faint", "history:mechanical_fall"),
    )
    say(C, "Did you bang your head, or black out?")
    say(
        S,
        "No. I was in the next room. I heard her shout, and she was sitting on the floor holding her arm. She knew "
        "exactly what had happened.",
        ("deny:head_injury", "deny:loss_of_consciousness", "relative_report:witnessed_just_after_fall"),
        notes="the sister answers for the patient",
    )
    say(C, "Any pain in your neck, your back, your hips, anywhere else?")
    say(
        P,
        "No, none of that. Just the wrist. My right knee's a bit sore where I landed, but it's only a bruise.",
        ("deny:neck_pain", "deny:back_pain", "deny:hip_pain", "affirm:right_knee_bruise"),
    )
    say(C, "How bad is the wrist, if ten is the worst pain you can imagine?")
    say(
        P,
        "About a seven. It's throbbing, and I can't turn the door handle.",
        ("affirm:wrist_pain_7_of_10", "affirm:wrist_pain_throbbing", "affirm:cannot_grip"),
    )
    say(C, "Any pins and needles, or numbness in your fingers?")
    say(P, "No, my fingers feel normal.", ("deny:pins_and_needles", "deny:finger_numbness"))
    say(
        S,
        "Can I just say, she's had this chesty cough all week. And last night she was burning up and shivering. "
        "That's partly why I brought her.",
        ("relative_report:cough_one_week", "relative_report:fever_last_night", "relative_report:shivering"),
    )
    tl.cough(P, cuts["S1a"], overlap=0.2)
    say(C, "Tell me about the cough, Dorothy. When did it start?", gap=0.9)
    say(
        P,
        "Monday. It's a loose, rattly cough. I'm bringing up green stuff, mostly in the mornings.",
        ("affirm:cough_since_monday", "affirm:productive_cough", "affirm:green_phlegm"),
    )
    say(C, "Any blood in it?")
    say(P, "No, no blood.", ("deny:haemoptysis",))
    say(C, "Are you more out of breath than usual?")
    say(
        P,
        "I think maybe a bit, going up the stairs. I'm not sure.",
        ("affirm:breathless_on_stairs", "hedge"),
        notes="hedged answer",
    )
    say(C, "Any pain in your chest?")
    say(
        P,
        "Only a little catch on the right side when I cough. Not otherwise.",
        ("affirm:right_sided_chest_pain_on_coughing", "deny:chest_pain_at_rest"),
    )
    say(C, "Any burning when you pass water, or needing to go more often?")
    say(P, "No, nothing like that.", ("deny:dysuria", "deny:urinary_frequency"))
    say(C, "Have you been eating and drinking?")
    say(
        S,
        "Not much. Half a sandwich today and a cup of tea. And she's been a bit muddled since Thursday. She put "
        "her purse in the fridge.",
        (
            "relative_report:poor_appetite",
            "relative_report:reduced_fluid_intake",
            "relative_report:muddled_since_thursday",
        ),
    )
    say(P, "I was tired, Pat. Everybody does that.", ("deny:confusion",), notes="the patient disputes it")
    say(
        C,
        "Would you mind if I ask you a few quick memory questions? I ask everybody your age.",
        ("memory_test",),
    )
    say(P, "Go on, then.")
    say(C, "How old are you?", ("memory_test",))
    say(P, "Seventy nine.", ("memory_test",))
    say(C, "What is your date of birth?", ("memory_test",))
    say(P, "The fourteenth of May, nineteen forty seven.", ("memory_test",))
    say(C, "Where are we now?", ("memory_test",))
    say(P, "The urgent treatment centre, at the hospital.", ("memory_test",))
    say(C, "And what year is it?", ("memory_test",))
    say(P, "Twenty twenty six.", ("memory_test",))
    say(
        C,
        "Perfect. Four out of four.",
        ("memory_test", "score:amt4_4_of_4", "finding:no_acute_confusion_on_testing"),
    )
    say(C, "Have you had any chest trouble before?")
    say(
        P,
        "I had a chest infection last winter, just after Christmas. The antibiotics cleared it up, and it's not "
        "been back since.",
        ("resolved:chest_infection_last_winter",),
    )
    say(
        P,
        "Otherwise it's my blood pressure and my thyroid. Oh, and I broke my left ankle about ten years ago, but "
        "it healed fine.",
        ("history:high_blood_pressure", "history:underactive_thyroid", "resolved:left_ankle_fracture_10_years_ago"),
    )
    say(C, "What tablets do you take?")
    say(
        S,
        "I've got a list here. Amlodipine, five milligrams in the morning, for the blood pressure. Levothyroxine, "
        "seventy five micrograms, first thing before breakfast. And atorvastatin, twenty milligrams at night.",
        (
            "medication:amlodipine_5mg_om",
            "medication:levothyroxine_75mcg_om",
            "medication:atorvastatin_20mg_on",
            "relative_report:medication_list",
        ),
    )
    say(
        P,
        "And two paracetamol for the cough, about eight o'clock this morning.",
        ("medication:paracetamol_1g_0800_today",),
    )
    say(C, "Any allergies to medicines, or anything else?")
    say(
        P,
        "Sticking plasters. They bring my skin up in blisters.",
        ("allergy:sticking_plasters_blisters",),
    )
    say(
        S,
        "And codeine makes her sick. She was vomiting all night with it after her ankle.",
        ("intolerance:codeine_vomiting", "relative_report:codeine_intolerance"),
    )
    tl.cough(P, cuts["S6b"], overlap=0.15, speed=1.02)
    say(C, "And penicillin is all right?", gap=0.9)
    say(P, "Yes, penicillin's fine.", ("deny:penicillin_allergy",))
    say(C, "Do you live on your own? Do you smoke?")
    say(
        P,
        "On my own, since my husband died. Pat's just round the corner. I gave up smoking thirty years ago.",
        ("social:lives_alone", "social:widowed", "resolved:ex_smoker_stopped_30_years_ago"),
    )
    say(C, "Does anyone in the family have thin bones, osteoporosis?")
    say(
        S,
        "Our mother did. She broke her hip at eighty two, and she got shorter and shorter.",
        ("family_history:mother_osteoporosis", "family_history:mother_hip_fracture_age_82"),
    )
    say(
        S,
        "I've got a cold myself this week, a sore throat and a runny nose. I hope it's not the same thing.",
        ("relative_symptom:sister_sore_throat", "relative_symptom:sister_runny_nose", "relative:sister_own_symptom"),
        notes="the sister's own symptoms, not the patient's",
    )
    say(
        C,
        "That sounds like an ordinary cold, Pat. If it goes to your chest, see your own doctor.",
        ("advice:relative_see_own_gp",),
    )
    say(
        C,
        "Now let me check your observations, Dorothy. This goes in your ear for your temperature.",
        ("exam", "instruction"),
    )
    tl.pause(5.0)
    say(
        C,
        "Thirty eight point one. So you do have a temperature.",
        ("exam", "vital:temperature_38_1"),
        gap=0.0,
    )
    say(C, "And this clip goes on your finger.", ("exam", "instruction"))
    tl.pause(7.0)
    say(
        C,
        "Your oxygen level is ninety four percent, and your pulse is ninety eight, and regular.",
        ("exam", "vital:oxygen_saturation_94", "vital:pulse_98_regular"),
        gap=0.0,
    )
    say(C, "Now your blood pressure, on the good arm.", ("exam", "instruction"))
    tl.pause(10.0)  # silent blood-pressure measurement
    say(
        C,
        "One hundred and thirty eight over eighty two. That's fine.",
        ("exam", "vital:bp_138_82"),
        gap=0.0,
    )
    say(
        C,
        "Now just sit quietly for a moment, and breathe normally.",
        ("exam", "instruction"),
        notes="he counts her breathing without telling her",
    )
    tl.pause(16.0)  # silent breathing count
    say(
        C,
        "Twenty two breaths a minute. That's a little faster than normal.",
        ("exam", "vital:respiratory_rate_22"),
        gap=0.0,
    )
    say(
        C,
        "Let me listen to your chest. Lean forward for me, and take big breaths in and out through your mouth.",
        ("exam", "instruction"),
    )
    tl.pause(6.0)  # listening
    tl.cough(P, cuts["S5a"], gap=0.0, notes="the patient coughs while the practitioner listens to her chest")
    tl.pause(4.0)  # still listening
    say(
        C,
        "I can hear some crackles at the bottom of the right lung. The left side sounds clear.",
        ("exam", "finding:crackles_right_lung_base", "finding:left_lung_clear"),
        gap=0.0,
    )
    say(
        C,
        "Now the wrist. Rest it on this pillow, and let me have a look.",
        ("exam", "instruction"),
    )
    tl.pause(8.0)  # inspecting the wrist
    say(
        C,
        "It's swollen just above the wrist, on the thumb side. Does it hurt when I press here?",
        ("exam", "finding:swelling_distal_radius_right"),
        gap=0.0,
    )
    say(P, "Ooh, yes. That's the spot.", ("affirm:tender_distal_radius",))
    say(
        C,
        "Wiggle your fingers for me. Can you feel me touching each one?",
        ("exam", "instruction"),
    )
    tl.pause(5.0)
    say(P, "Yes, all of them.", ("deny:finger_numbness",), gap=0.0)
    say(
        C,
        "Good. Your fingers are warm and pink, and the pulse at the wrist is strong. Your elbow and shoulder are "
        "fine. The knee has a small bruise, but it bends fully, and there's no swelling.",
        (
            "exam",
            "finding:neurovascular_intact_right_hand",
            "finding:elbow_shoulder_normal",
            "finding:right_knee_bruise_full_movement",
        ),
    )
    say(
        C,
        "So, there are two things going on. I think you've most likely broken your wrist, at the end of the "
        "radius bone. You'll need an X-ray tonight to be sure.",
        ("diagnosis:suspected_right_distal_radius_fracture", "plan:xray_right_wrist_tonight"),
    )
    say(
        C,
        "And the cough, with the temperature and the crackles, is a chest infection. A mild pneumonia, on the "
        "right side.",
        ("diagnosis:chest_infection_right_lower_lobe_pneumonia",),
    )
    say(
        C,
        "Your memory test was normal and your blood pressure is fine, so I'm happy for you to be treated at home, "
        "as long as you're not on your own tonight.",
        ("plan:treat_at_home_not_alone", "score:crb65_1"),
    )
    tl.cough(P, cuts["S1b"], gap=0.5, speed=0.97)
    say(
        S,
        "She can stay at mine. I've got the spare room made up.",
        ("plan:stays_with_sister",),
        gap=0.8,
    )
    say(P, "I'd rather be in my own bed, but all right.", ("reluctant",))
    say(
        C,
        "I'll start you on an antibiotic, amoxicillin, five hundred milligrams three times a day for five days. "
        "You'll have the first dose here, before you go.",
        ("plan:amoxicillin_500mg_tds_5_days", "plan:first_dose_in_centre"),
    )
    say(
        C,
        "For the pain and the temperature, two paracetamol, that's one gram, up to four times a day, at least "
        "four hours apart. You can have the next dose now. No codeine, as it makes you sick. And drink plenty, "
        "little and often.",
        ("plan:paracetamol_1g_qds", "plan:avoid_codeine", "plan:oral_fluids"),
    )
    say(
        C,
        "After the X-ray, the nurse will put a half cast on your wrist, held on with a bandage, not tape, because "
        "of your plaster allergy. Keep your hand raised on a pillow, and keep wiggling your fingers. The fracture "
        "clinic will see you on Monday morning.",
        ("plan:backslab_bandage_not_tape", "plan:elevate_hand", "plan:fracture_clinic_monday"),
    )
    say(
        C,
        "I'll write to your GP, Doctor Ahmed. Please see him on Tuesday, to check your chest. And ask him about a bone "
        "density scan, because of the fall, the broken wrist and your mother's hip.",
        ("plan:gp_letter", "plan:gp_chest_review_tuesday", "plan:bone_density_scan_via_gp"),
    )
    say(
        C,
        "If your breathing gets worse, your lips look blue, you can't finish a sentence, or you become drowsy or "
        "more muddled, call nine nine nine. If your fingers go numb, cold or white, or the pain in the wrist gets "
        "much worse, come straight back here or go to A and E. And if you're no better in two days, see the "
        "doctor sooner.",
        ("safety_net",),
    )
    say(
        S,
        "Worse breathing, blue lips, or more muddled, nine nine nine. Numb or cold fingers, come back. Got it.",
        ("safety_net", "read_back"),
    )
    say(P, "Thank you, Daniel. I'm sorry to be such a nuisance.", ("expressed:apology",))
    tl.cough(P, cuts["S5a"], gap=0.6, speed=1.04)
    say(
        C,
        "You're not a nuisance at all. Go round to X-ray now, and I'll see you afterwards.",
        ("plan:xray_now",),
        gap=0.8,
    )
    tl.pause(3.5)

    # ------------------------------------------------------------------ 3. handover
    tl.begin(
        "handover",
        "An hour later in the staff base: the practitioner hands over to the night doctor in clinical shorthand: "
        "this patient (X-ray result, backslab, chest infection, the first antibiotic dose, what to check before she "
        "goes home with her sister) and a second, unrelated patient (a six-year-old boy with a glued forehead cut); "
        "a visitor's emotional line from the corridor",
        "waiting",
    )
    tl.pause(1.5)
    say(C, "Right, Tom. Two to hand over before I go.", gap=0.0)
    say(N, "Go on, I'm ready.")
    say(
        C,
        "Bay three is Dorothy Pickering, seventy nine. Mechanical fall at home at fourteen hundred, tripped on a "
        "rug, fell on an outstretched right hand. No head injury, no loss of consciousness.",
        ("handover", "history:mechanical_fall", "deny:head_injury", "deny:loss_of_consciousness"),
    )
    say(
        C,
        "The X-ray shows a distal radius fracture, minimally displaced, so no manipulation. The nurses have put a "
        "backslab on with a crepe bandage only. She's allergic to plasters. Fracture clinic on Monday at nine "
        "thirty.",
        (
            "handover",
            "result:xray_right_distal_radius_fracture_minimally_displaced",
            "diagnosis:right_distal_radius_fracture",
            "plan:backslab_crepe_bandage",
            "allergy:sticking_plasters_blisters",
            "plan:fracture_clinic_monday_0930",
        ),
    )
    say(N, "Neurovascular status?", ("handover",))
    say(
        C,
        "Intact, before and after the backslab. Could you check her fingers once more before she leaves?",
        ("handover", "finding:neurovascular_intact_right_hand", "task:recheck_fingers_before_discharge"),
    )
    say(
        C,
        "Second problem, a right basal chest infection. Five days of productive cough, temp thirty eight point "
        "one, sats ninety four on air, resp rate twenty two, blood pressure fine. A M T four out of four, so her "
        "C R B sixty five is one, for her age.",
        (
            "handover",
            "diagnosis:chest_infection_right_lower_lobe_pneumonia",
            "vital:temperature_38_1",
            "vital:oxygen_saturation_94",
            "vital:respiratory_rate_22",
            "score:amt4_4_of_4",
            "score:crb65_1",
        ),
    )
    say(N, "Her sister said something about confusion?", ("handover",))
    say(
        C,
        "Muddled since Thursday, according to the sister, but she was fully orientated with me. Keep an eye on it.",
        ("handover", "relative_report:muddled_since_thursday", "finding:no_acute_confusion_on_testing"),
    )
    say(
        C,
        "First dose of amoxicillin five hundred given at nineteen forty, with a gram of paracetamol. Codeine makes "
        "her vomit, so don't offer it. She's going home to her sister's tonight.",
        (
            "handover",
            "medication:amoxicillin_500mg_given_1940",
            "medication:paracetamol_1g_given",
            "intolerance:codeine_vomiting",
            "plan:stays_with_sister",
        ),
    )
    say(N, "And the GP?", ("handover",))
    say(
        C,
        "Letter's done, asking for a chest review on Tuesday and a bone density scan.",
        ("handover", "plan:gp_chest_review_tuesday", "plan:bone_density_scan_via_gp"),
    )
    _corridor(tl, ravdess, EMOTIONS_06[5], gap=1.5)
    say(
        C,
        "Cubicle five is Leo Barnes, six years old. A two centimetre cut on his forehead, from the corner of the "
        "coffee table. Glued at twenty fifteen. No loss of consciousness, no vomiting, and he's running around "
        "the cubicle.",
        (
            "handover",
            "other_patient",
            "other_patient:forehead_laceration_2cm_glued",
            "other_patient:deny:loss_of_consciousness",
            "other_patient:deny:vomiting",
        ),
        gap=1.2,
        notes="a second, unrelated patient (a child), not the patient of this recording's consultation",
    )
    say(N, "Tetanus up to date?", ("handover", "other_patient"))
    say(
        C,
        "Yes, all his jabs are done. Mum has the head injury leaflet. He's ready to go.",
        ("handover", "other_patient", "other_patient:immunisations_up_to_date", "other_patient:ready_for_discharge"),
    )
    say(
        N,
        "So, Pickering in bay three, check her fingers, then home with her sister. Barnes in five, ready to go. Got it.",
        ("handover", "read_back"),
    )
    say(C, "Thanks, Tom. Have a quiet night.")
    tl.pause(3.0)
