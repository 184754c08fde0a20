"""bank_rec_12: a maternity triage phone call -> a community midwife's antenatal home visit -> her voice memo.

Imported by ``make_recordings.py`` (``--only bank_rec_12``); it uses that module's ``Timeline``, bank_rec_07's RAVDESS
trimming (``rec07._tighten``) and bank_rec_10's generated door chime (``rec10._chime``).

* ``phone_triage``: the evening before, Sophie Harris, 34, in her second pregnancy at 33 weeks and 6 days (Flite
  ``slt``), rings the maternity triage line at Northgate General; the triage midwife Priya (eSpeak NG ``en-us+f2``
  with the base pitch lowered to 45, ``-p 45``; role ``nurse``) answers. Both sides are heard band-limited
  300-3400 Hz, after a ring-back tone. Reduced fetal movements since about two o'clock that came back after a cold
  drink and lying on her left side; no pain, no tightenings, no bleeding, no fluid leaking; a headache that day (two
  paracetamol at lunchtime, eased), no visual disturbance, her fingers a bit puffy; the community midwife visits
  tomorrow (a note for her blood pressure and urine to be checked); not needed in tonight; come in if the movements
  reduce again (no home doppler); a safety-net (bleeding, fluid leaking, a severe headache with flashing lights: come
  in straight away or call 999).
* ``home_visit``: the next morning the community midwife, Fiona Grant (eSpeak NG ``en-us+Annie``, a voice never
  used in the bank before), sees her at home in the living room for her 34-week check, with her partner Dan (Flite
  ``rms``; his own hay fever and two-week cough, four real coughs, one overlapping the end of the midwife's turn; he
  answers some questions for her in the third person and contradicts her on the headaches: three this week by his
  account, "just the one" by hers) and their three-year-old son Charlie (eSpeak NG ``en-gb-x-gbclan+f5`` with the base
  pitch raised, ``-p 95``; role ``child``; his own hungry tummy and sore knee). The television is on for the first
  minute (a home-makeover programme, Flite ``kal16``, role ``tv``: "a real headache", "sick and tired", "a pain in the
  neck", "nearly gave them a heart attack" used figuratively; one RAVDESS line of a surprised man on the programme,
  actor 01) until Dan switches it off. Content: movements normal today; headaches; no blurred vision or flashing
  lights, no pain under the ribs (denials); swelling of the hands and ankles (present; the wedding ring off on
  Sunday); heartburn (present; Gaviscon two spoonfuls after meals and at bedtime); pelvic girdle pain (present; a
  physio referral); no bleeding, no fluid leaking, no tightenings, no urinary symptoms (denials); a urine infection at
  20 weeks treated with nitrofurantoin (resolved); gestational diabetes in the previous pregnancy (metformin at the
  end; gone after the birth; this pregnancy's sugar test normal); folic acid stopped at 12 weeks, a pregnancy vitamin
  with vitamin D every morning, aspirin 150 mg every night since 12 weeks for pre-eclampsia risk (he: "she's never
  missed one"); a penicillin allergy (hives, lip swelling); her mother's pre-eclampsia (induced at 36 weeks), her
  sister's twins, her father's high blood pressure (the partner's report); never smoked, no alcohol; the partner
  smokes outside only (a stop-smoking referral); mood low at times, sleeping badly, tearful in the evenings (the
  partner), EPDS-type questions (no thoughts of self-harm); she sounds fine (TTS). A door chime (generated) and the
  next-door neighbour Janet at the front door (RAVDESS actor 06, happy, 2 dB quieter); a quiet stretch of about 9 s
  while the midwife writes. The examination read out after silent pauses: blood pressure 142/92 (booking 118/74), a
  silent 15 s pause, repeat 138/90; urine dipstick protein 1+ after a silent 12 s wait (nothing else); a urine
  protein:creatinine ratio sent; symphysis-fundal height 35 cm, cephalic; fetal heart rate 140 by doppler after a
  silent 10 s listen; pitting oedema of both ankles, puffy fingers, no facial swelling. A woman across the road
  shouting at her dog (RAVDESS actor 24, angry, through the window, 3 dB quieter). Impression: raised blood pressure
  with protein, possible pre-eclampsia; her worry for the baby (TTS, emotion null); plan: the maternity assessment
  unit this morning (the midwife rings ahead), blood pressure rechecked, bloods for pre-eclampsia (kidneys, liver,
  platelets), the baby monitored, bring the handheld notes and a bag, Dan drives her (she must not drive), his mum
  has Charlie, aspirin continued, a call this afternoon; a conditional safety-net read back by the partner. Two real
  coughs of the woman (a sip of water going down the wrong way; getting up at the end).
* ``voice_memo``: in her car afterwards the midwife records a voice memo in handover shorthand ("thirty four over
  forty, G two, P one", "B P one forty two over ninety two", "P C R sent", "P E T bloods at M A U", "M A U aware"),
  with one spoken correction of the repeat blood pressure (ninety eight, correction, ninety).

Every sound event is real (coughs, RAVDESS) or honestly generated (the door chime, the ring-back tone); the doppler
listen is silent (no fetal-heart sound is synthesised).
"""

from __future__ import annotations

from pathlib import Path

from make_recordings import SAMPLE_RATE, CoughCut, Placed, Speaker, Timeline, set_rms
from rec07 import CORRIDOR_GAIN_DB, _tighten
from rec10 import DOORBELL_DBFS, _chime

TV_DBFS = -30.0  # the television in the corner of the living room
TV_RAVDESS_GAIN_DB = -4.0  # the RAVDESS line on the television, brought to about the TV's level
FRONT_DOOR_GAIN_DB = -2.0  # voices at the front door, heard from the living room
CHILD_DBFS = -24.0  # the three-year-old, playing on the floor a little further away

EMOTIONS_12 = [
    "03-01-08-02-01-01-01.flac",  # actor 01 surprised strong, kids (a man on the television programme)
    "03-01-03-01-02-02-06.flac",  # actor 06 happy normal, dogs (the next-door neighbour at the front door)
    "03-01-05-01-02-02-24.flac",  # actor 24 angry normal, dogs (a neighbour outside, heard through the window)
]

SPEAKERS_12 = {
    "bank12_triage_midwife": Speaker(
        "nurse",
        "Priya",
        "espeak:en-us+f2@p45",
        "F",
        "a midwife on the maternity triage line at Northgate General Hospital, heard on the telephone (role nurse; "
        "synthetic)",
    ),
    "bank12_clinician": Speaker(
        "clinician",
        "Fiona Grant",
        "espeak:en-us+Annie",
        "F",
        "the community midwife (Fiona Grant) on an antenatal home visit; records a voice memo in her car afterwards "
        "(synthetic)",
    ),
    "bank12_patient": Speaker(
        "patient",
        "Sophie Harris",
        "slt",
        "F",
        "patient, a 34-year-old woman in her second pregnancy (34 weeks at the visit); rings the triage line the "
        "evening before (synthetic voice; real coughs)",
    ),
    "bank12_partner": Speaker(
        "relative",
        "Dan Harris",
        "rms",
        "M",
        "the patient's partner: answers some questions for her in the third person and contradicts her once (the "
        "headaches); has hay fever and a cough of his own and smokes outside (synthetic speech, real coughs)",
        relation="partner",
    ),
    "bank12_child": Speaker(
        "child",
        "Charlie Harris",
        "espeak:en-gb-x-gbclan+f5@p95",
        "M",
        "the couple's three-year-old son, playing in the living room; his complaints (a hungry tummy, a sore knee) are "
        "his own, not the patient's (synthetic; a child's voice)",
        relation="son",
    ),
    "bank12_tv": Speaker(
        "tv",
        None,
        "kal16",
        "M",
        "the television in the living room: a daytime home-makeover programme, on for the first minute of the visit "
        "(synthetic)",
    ),
    "ravdess_actor01": Speaker(
        "tv",
        None,
        None,
        "M",
        "RAVDESS actor 01 (real acted speech): a man on the television programme",
    ),
    "ravdess_actor06": Speaker(
        "neighbour",
        "Janet",
        None,
        "F",
        "RAVDESS actor 06 (real acted speech): Janet, the next-door neighbour, at the front door",
    ),
    "ravdess_actor24": Speaker(
        "neighbour",
        None,
        None,
        "F",
        "RAVDESS actor 24 (real acted speech): a woman across the road shouting at her dog, heard through the window",
    ),
}

_RAV = "RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut; the same clip is in the shared ser-train set"


def _ravdess(tl: Timeline, ravdess: Path, name: str, gap: float, gain_db: float, tags: list[str], note: str) -> Placed:
    """A RAVDESS line (trimmed), ``gain_db`` relative to the usual level, with extra tags and a note."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    p.audio = p.audio * 10 ** (gain_db / 20)
    p.fields["tags"] = [*p.fields["tags"], *tags]  # type: ignore[misc]
    p.fields["notes"] = f"{note} ({_RAV})"
    return p


def _doorbell(tl: Timeline, gap: float) -> Placed:
    """The generated two-tone door chime (bank_rec_10's), its own event kind ``doorbell``."""
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
        notes="generated stand-in for the front doorbell: the next-door neighbour calls during the visit",
    )
    tl.cursor = p.end
    return p


def build_rec12(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Maternity triage call (the evening before) -> antenatal home visit -> the midwife's voice memo."""
    N, C, P = "bank12_triage_midwife", "bank12_clinician", "bank12_patient"
    D, Y, T = "bank12_partner", "bank12_child", "bank12_tv"
    say = tl.say
    tl.tts_name = (
        "Flite TTS (the patient, her partner, the television) and eSpeak NG TTS (the triage midwife, the community "
        "midwife, the child)"
    )
    tl.notes_extra = (
        "; a turn tagged relative_report: is the partner speaking of the patient in the third person (its assertion "
        "tags are about the patient); contradicts: marks an account that differs from the other's (both are kept, "
        "neither is corrected); relative_symptom: is a family member's own complaint (the partner's, or the child's: "
        "role child), not the patient's; an event of kind 'doorbell' is a generated two-tone chime, not speech; "
        "the phone_triage section is the evening before the visit, both sides band-limited; in the voice_memo the "
        "midwife speaks clinical shorthand and corrects one figure (tag correction: the corrected value is the one "
        "tagged); the doppler listen is a silent pause (no fetal-heart sound)"
    )
    ncw = ("nonclinical_symptom_word",)
    rr = "relative_report:"

    def tv(text: str, note: str, gap: float) -> Placed:
        return say(T, text, (*ncw, "tv", "background"), gap=gap, level=TV_DBFS, notes=note)

    def child(text: str, tags: tuple[str, ...] = (), gap: float | None = None, notes: str | None = None) -> Placed:
        return say(Y, text, ("child", *tags), gap=gap, level=CHILD_DBFS, notes=notes)

    # ------------------------------------------------------------------ 1. phone triage (the evening before)
    tl.begin(
        "phone_triage",
        "The evening before the visit: the patient rings the maternity triage line (band-limited 300-3400 Hz, both "
        "sides heard) at 33 weeks and 6 days: reduced fetal movements since the afternoon that came back after a cold "
        "drink and lying on her left side; a headache that day (paracetamol), no visual disturbance, slightly swollen "
        "fingers; denials (pain, tightenings, bleeding, fluid); not needed in tonight as the movements are back; a note "
        "for the community midwife's visit tomorrow; come in if the movements reduce again; a safety-net (bleeding, "
        "fluid, severe headache with flashing lights: come straight in or call 999)",
        "phone",
        phone=True,
    )
    tl.pause(1.0)
    tl.ring(gap=0)
    say(N, "Hello, this is the maternity triage line at Northgate General. My name's Priya, I'm one of the midwives.")
    say(
        P,
        "Hi. My name's Sophie Harris. I'm thirty three weeks and six days, with my second baby. The baby hasn't been "
        "moving as much today.",
        ("gestation:33_weeks_6_days", "affirm:reduced_fetal_movements", "history:second_pregnancy"),
    )
    say(N, "You've done the right thing calling us, Sophie. When did you first notice the change?")
    say(
        P,
        "From about two o'clock this afternoon. He's usually kicking all evening, but I hardly felt anything.",
        ("onset:reduced_fetal_movements_1400", "affirm:reduced_fetal_movements"),
    )
    say(N, "And how are the movements now?")
    say(
        P,
        "Better. I had a cold drink and lay down on my left side, like the leaflet says, and he started kicking again. "
        "About ten kicks in the last half hour.",
        ("affirm:fetal_movements_returned", "improving:fetal_movements", "history:cold_drink_left_side"),
    )
    say(N, "That's good. Have you had any tummy pain, or any tightenings?")
    say(P, "No pain, and no tightenings.", ("deny:abdominal_pain", "deny:tightenings"))
    say(N, "Have you had any bleeding, or any fluid leaking?")
    say(P, "No, nothing like that.", ("deny:vaginal_bleeding", "deny:fluid_leak"))
    say(N, "And how have you been feeling in yourself?")
    say(
        P,
        "I've had a headache today. I took two paracetamol at lunchtime, and it's eased off a bit.",
        ("affirm:headache", "medication:paracetamol_2_tablets_lunchtime", "improving:headache"),
    )
    say(N, "Have you had any problems with your eyes, like blurred vision, or flashing lights?")
    say(P, "No, my eyes are fine.", ("deny:visual_disturbance", "deny:blurred_vision", "deny:flashing_lights"))
    say(N, "And have you noticed any swelling?")
    say(P, "My fingers are a bit puffy. My rings are tight.", ("affirm:finger_swelling",))
    say(
        P,
        "My midwife, Fiona, is coming to the house tomorrow morning, for my thirty four week check.",
        ("plan:community_midwife_home_visit_tomorrow",),
    )
    say(
        N,
        "Good. As the movements are back to normal, you don't need to come in tonight. I'll leave a note for Fiona to "
        "check your blood pressure and your urine, because of the headache and the swelling.",
        ("plan:not_needed_in_tonight", "plan:bp_and_urine_check_tomorrow"),
    )
    say(
        N,
        "But if the movements reduce again, don't wait until the morning, and don't use a home doppler. Come straight "
        "in to be monitored, day or night.",
        ("safety_net", "plan:come_in_if_movements_reduce_again"),
        notes="conditional advice, not a symptom she has now",
    )
    say(
        N,
        "And if you have any bleeding, any fluid leaking, or a severe headache with flashing lights, come in straight "
        "away, or call nine nine nine.",
        ("safety_net",),
        notes="conditional safety-net advice, not symptoms she has",
    )
    say(P, "Okay. If he goes quiet again, I'll come straight in. Thank you.", ("safety_net", "acknowledged"))
    say(N, "You're welcome. Try to get some rest. Bye now.")
    tl.pause(2.0)

    # ------------------------------------------------------------------ 2. home visit
    tl.begin(
        "home_visit",
        "The next morning the community midwife's 34-week antenatal home visit in the living room, with the partner "
        "and their three-year-old son; the television on for the first minute (symptom words used figuratively); "
        "movements normal; headaches (one by her account, three by her partner's), no visual disturbance; swelling of "
        "hands and ankles, heartburn, pelvic girdle pain; denials (bleeding, fluid, tightenings, urinary symptoms); a "
        "resolved urine infection; past gestational diabetes; medication, allergy, family and social history; mood and "
        "EPDS-type questions; a door chime and the neighbour at the door (RAVDESS); a quiet stretch; the examination "
        "read out after silent pauses (blood pressure twice, urine dipstick, fundal height, fetal heart by doppler, "
        "ankles); possible pre-eclampsia; plan (maternity assessment unit today) and a conditional safety-net read back "
        "by the partner; the partner's real coughs (one overlapping the end of a turn) and two of the patient's",
        "consultation",
    )
    tl.pause(1.2)
    tv(
        "Welcome back to Kitchen Rescue. This poky little kitchen has been a real headache for the Patel family.",
        "the television in the living room; 'a real headache' is a figure of speech",
        gap=0,
    )
    say(C, "Morning, Sophie. Morning, Dan. Thanks for letting me in.", gap=1.0)
    say(P, "Come in, Fiona. Sorry about the mess. Charlie's had every toy out this morning.")
    tv(
        "Mum is sick and tired of cooking in a cupboard, and Dad says the old boiler is a pain in the neck.",
        "the television; 'sick and tired' and 'a pain in the neck' are figures of speech",
        gap=1.0,
    )
    _ravdess(
        tl,
        ravdess,
        EMOTIONS_12[0],
        0.8,
        TV_RAVDESS_GAIN_DB,
        ["tv", "background"],
        "acted emotional line of a man on the television programme, about 4 dB quieter than a room voice",
    )
    tv(
        "And when they saw the builder's quote, it nearly gave them a heart attack. Stay with us, after the break.",
        "the television; 'nearly gave them a heart attack' is a figure of speech",
        gap=0.8,
    )
    child("Hello. I'm Charlie. I'm three.", gap=0.9)
    say(C, "Hello, Charlie. Is the baby in Mummy's tummy?")
    child("Yes. The baby is kicking.")
    say(D, "Let me turn that telly off, so we can hear ourselves think.", notes="the television is switched off here")
    tl.pause(1.5)
    say(
        D,
        "And ignore my eyes, they're streaming. It's my hay fever, it's terrible this week.",
        (
            "relative_symptom:partner_hay_fever",
            "relative_symptom:partner_streaming_eyes",
            "relative:partner_own_condition",
        ),
        gap=0,
        notes="the partner's own complaint, not the patient's",
    )
    tl.cough(
        D,
        cuts["S3c"],
        gap=0.6,
        speed=0.96,
        notes="real cough (BMC Cough 2006) attributed to the partner (his own cough), not the patient",
    )
    say(
        D,
        "Sorry. I've had this cough for a fortnight. It's mine, not hers.",
        ("relative_symptom:partner_cough_2_weeks", "relative:partner_own_condition"),
        gap=0.7,
        notes="the partner's own cough, not the patient's",
    )
    say(
        C,
        "Right, Sophie. I saw the note from triage. You rang last night about the baby's movements.",
        ("history:triage_call_last_night", "history:reduced_fetal_movements_yesterday"),
    )
    say(
        P,
        "Yes. He went really quiet, but after a cold drink and lying on my left side, he started kicking again.",
        ("resolved:reduced_fetal_movements", "history:cold_drink_left_side"),
    )
    say(C, "And how are the movements today?")
    say(
        P,
        "Normal. He's been kicking all morning, the same pattern as usual.",
        ("affirm:fetal_movements_normal",),
    )
    say(C, "Good. If his pattern changes, ring triage straight away.", ("advice:monitor_fetal_movements",))
    say(C, "Triage said you had a headache yesterday. Have you had any other headaches this week?")
    say(
        P,
        "Just the one, yesterday afternoon. Two paracetamol sorted it out.",
        ("affirm:headache", "count:headache_1_this_week_per_patient", "medication:paracetamol_as_needed"),
    )
    say(
        D,
        "That's not right, Soph. She's had three this week, Monday, Wednesday and yesterday.",
        (
            "affirm:headache",
            rr + "headache_3_this_week",
            "count:headache_3_this_week_per_partner",
            "contradicts:patient_headache_once",
        ),
        notes="the partner contradicts the patient (third person); both accounts are kept",
    )
    say(
        P,
        "It was just the one proper headache, Dan. He worries too much.",
        ("count:headache_1_this_week_per_patient", "contradicts:relative_headache_3_this_week"),
        notes="the patient keeps to her account; both are kept",
    )
    say(C, "I'll write down what you both say. Any blurred vision, or flashing lights?")
    say(
        P,
        "No, my eyes are fine. No flashing lights.",
        ("deny:visual_disturbance", "deny:blurred_vision", "deny:flashing_lights"),
    )
    say(C, "Any pain under your ribs, or at the top of your tummy?")
    say(
        P,
        "No pain there. Just heartburn after tea, and when I lie down. Two spoonfuls of Gaviscon after meals and at "
        "bedtime settles it.",
        (
            "deny:right_upper_quadrant_pain",
            "deny:epigastric_pain",
            "affirm:heartburn",
            "medication:gaviscon_10ml_after_meals_and_bedtime",
        ),
    )
    say(D, "She gets through a bottle of it every week.", (rr + "gaviscon_a_bottle_a_week",))
    say(C, "And have you had any swelling?")
    say(
        P,
        "My hands and my ankles. I had to take my wedding ring off on Sunday, it was too tight.",
        ("affirm:hand_swelling", "affirm:ankle_swelling", "history:wedding_ring_off_sunday"),
    )
    say(
        D,
        "Her ankles are like balloons by teatime.",
        ("affirm:ankle_swelling", rr + "ankle_swelling"),
    )
    child("Mummy, my tummy hurts.", ("relative_symptom:son_tummy_ache",), notes="the child's own complaint")
    say(P, "Is it a hungry tummy, sweetheart?")
    child("It's a hungry tummy. Can I have a biscuit?", ("relative_symptom:son_hungry",))
    say(D, "Come on, mate. Biscuit time.")
    say(C, "Any pain in your pelvis, or your hips?", gap=1.0)
    say(
        P,
        "Yes. At the front, over my pubic bone, and round into my hips. It's worst turning over in bed.",
        ("affirm:pelvic_girdle_pain", "affirm:pubic_pain", "affirm:hip_pain"),
    )
    say(
        C,
        "That sounds like pelvic girdle pain. I'll refer you to the physio.",
        ("diagnosis:pelvic_girdle_pain", "plan:physiotherapy_referral"),
    )
    say(C, "Have you had any bleeding, any fluid leaking, or any tightenings?")
    say(
        P,
        "No bleeding, no fluid, and no tightenings.",
        ("deny:vaginal_bleeding", "deny:fluid_leak", "deny:tightenings"),
    )
    say(C, "Do you get any stinging when you pass urine, or any blood in it?")
    say(P, "No stinging, no blood, nothing like that.", ("deny:dysuria", "deny:haematuria", "deny:urinary_symptoms"))
    say(C, "And what about the urine infection you had at twenty weeks?")
    say(
        P,
        "The nitrofurantoin cleared it, and the repeat sample was clear. It hasn't come back.",
        ("resolved:urinary_tract_infection_20_weeks", "history:nitrofurantoin_course"),
    )
    tl.cough(
        P,
        cuts["S5a"],
        gap=0.8,
        speed=0.98,
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient: a sip of water "
        "went down the wrong way",
    )
    say(P, "Sorry. My water went down the wrong way.", gap=0.6)
    say(C, "When you were expecting Charlie, you had diabetes in pregnancy, didn't you?", gap=0.8)
    say(
        P,
        "Gestational diabetes, yes. I was on metformin at the end, and it went away after he was born. This time my "
        "sugar test was normal.",
        (
            "history:gestational_diabetes_previous_pregnancy",
            "history:metformin_previous_pregnancy",
            "resolved:gestational_diabetes_after_delivery",
            "result:glucose_tolerance_test_normal",
        ),
    )
    say(C, "What are you taking at the moment?")
    say(
        P,
        "I stopped the folic acid at twelve weeks. Now a pregnancy vitamin, with vitamin D, every morning.",
        ("medication:folic_acid_stopped_12_weeks", "medication:pregnancy_multivitamin_vitamin_d_daily"),
    )
    say(
        D,
        "And the aspirin at night. She's never missed one.",
        ("medication:aspirin_night", rr + "aspirin_never_missed", "adherence:aspirin_never_missed"),
    )
    say(
        P,
        "Aspirin, one hundred and fifty milligrams every night, since twelve weeks. Because of the diabetes last time, "
        "and my mum's pre eclampsia.",
        ("medication:aspirin_150mg_night_since_12_weeks", "indication:aspirin_pre_eclampsia_risk"),
    )
    say(
        C,
        "That's right, it lowers the risk of pre eclampsia. Keep taking it until thirty six weeks. Any allergies?",
        ("plan:continue_aspirin_until_36_weeks",),
    )
    say(
        P,
        "Penicillin. I came out in hives, and my lips swelled up.",
        ("allergy:penicillin", "allergy:penicillin_hives_lip_swelling"),
    )
    say(C, "And your mum had pre eclampsia?")
    say(
        P,
        "With me. She was induced at thirty six weeks. And my sister had twins.",
        ("family_history:mother_pre_eclampsia_induced_36_weeks", "family_history:sister_twins"),
    )
    say(
        D,
        "And your dad's on tablets for his blood pressure.",
        ("family_history:father_hypertension", rr + "family_history"),
    )
    say(C, "Do you smoke at all, Sophie?")
    say(
        P,
        "I've never smoked. And I don't drink, not since I found out I was pregnant.",
        ("social:never_smoked", "social:alcohol_none_in_pregnancy"),
    )
    say(
        D,
        "I smoke, but only outside in the garden, never in the house.",
        ("social:partner_smokes_outside_only", "relative:partner_smoker"),
    )
    say(
        C,
        "I'll refer you to the stop smoking service, Dan. It's free.",
        ("plan:partner_stop_smoking_referral",),
    )
    _doorbell(tl, 1.2)
    say(D, "That'll be Janet from next door. I'll get it.", gap=0.8)
    tl.pause(2.5)  # he goes to the front door
    _ravdess(
        tl,
        ravdess,
        EMOTIONS_12[1],
        0.0,
        FRONT_DOOR_GAIN_DB,
        ["front_door", "neighbour"],
        "acted emotional line of the next-door neighbour at the front door, heard from the living room, 2 dB quieter",
    )
    say(
        D,
        "Thanks, Janet. Sophie's got the midwife here. I'll tell her you said hello.",
        ("social:neighbour",),
        gap=0.7,
        level=-25.0,
        notes="at the front door",
    )
    tl.pause(2.0)  # he comes back in
    say(C, "How has your mood been, Sophie?", gap=0)
    say(
        P,
        "Low at times, to be honest. And I'm sleeping badly. I just can't get comfortable.",
        ("affirm:low_mood_at_times", "affirm:poor_sleep"),
    )
    say(D, "She's been a bit tearful in the evenings.", ("affirm:tearful", rr + "tearful_evenings"))
    say(
        C,
        "A few questions we ask everyone. In the past week, have you been able to laugh, and see the funny side of "
        "things?",
        ("questionnaire:epds",),
    )
    say(P, "Yes, as much as I always could.", ("questionnaire:epds", "deny:anhedonia"))
    say(C, "Have you blamed yourself unnecessarily when things went wrong?", ("questionnaire:epds",))
    say(P, "Sometimes. Maybe a bit more than usual.", ("questionnaire:epds", "affirm:self_blame_sometimes", "hedge"))
    say(C, "Have you felt anxious or worried for no good reason?", ("questionnaire:epds",))
    say(
        P,
        "A little, since last night. I was frightened when he stopped moving.",
        ("questionnaire:epds", "affirm:anxiety_since_reduced_movements"),
    )
    say(C, "Have you had any thoughts of harming yourself?", ("questionnaire:epds",))
    say(P, "No. Never.", ("questionnaire:epds", "deny:thoughts_of_self_harm"))
    say(
        C,
        "Thank you. If your mood gets worse, tell me or your GP. Let me just write that down.",
        ("plan:mood_review", "safety_net:mood"),
    )
    tl.pause(9.0)  # a quiet stretch: the midwife writes in the handheld notes
    tl.cough(
        D,
        cuts["S1b"],
        gap=0,
        speed=0.95,
        notes="real cough (BMC Cough 2006) attributed to the partner, not the patient",
    )
    say(
        C,
        "Now, blood pressure. Sit back, and rest your arm on the cushion.",
        ("exam", "instruction"),
        gap=1.2,
    )
    tl.pause(9.0)  # the cuff inflates and deflates
    say(
        C,
        "One hundred and forty two over ninety two. That's higher than your booking blood pressure, which was one "
        "hundred and eighteen over seventy four.",
        ("exam", "vital:blood_pressure_142_92", "history:booking_blood_pressure_118_74"),
        gap=0,
    )
    say(C, "I'll repeat it in a minute. Just relax.", ("exam", "instruction"))
    tl.pause(15.0)  # a silent 15 s pause before the repeat reading
    say(
        C,
        "Second reading, one hundred and thirty eight over ninety. Still raised.",
        ("exam", "vital:blood_pressure_138_90"),
        gap=0,
    )
    say(C, "Now let's test your urine sample. I'll dip it.", ("exam", "urine_dipstick"))
    tl.pause(12.0)  # a silent wait for the dipstick
    say(
        C,
        "Protein, one plus. No blood, no leukocytes, no nitrites, and no glucose.",
        (
            "exam",
            "finding:urine_protein_1_plus",
            "finding:urine_no_blood",
            "finding:urine_no_leukocytes",
            "finding:urine_no_nitrites",
            "finding:urine_no_glucose",
        ),
        gap=0,
    )
    say(
        C,
        "I'll send the rest off for a protein creatinine ratio.",
        ("plan:urine_protein_creatinine_ratio_sent",),
    )
    say(C, "Lie back for me, and I'll measure your bump.", ("exam", "instruction"))
    tl.pause(6.0)
    say(
        C,
        "Symphysis fundal height, thirty five centimetres. Just right for thirty four weeks. And baby's head down.",
        ("exam", "finding:symphysis_fundal_height_35cm", "finding:cephalic"),
        gap=0,
    )
    child("What's that?", gap=0.8)
    say(C, "A little microphone, Charlie, to hear the baby's heart.", ("exam",))
    tl.pause(10.0)  # a silent doppler listen
    say(
        C, "Fetal heart rate, one hundred and forty. Lovely and regular.", ("exam", "vital:fetal_heart_rate_140"), gap=0
    )
    child("Is the baby saying hello?")
    say(P, "He is, sweetheart.")
    say(C, "Now your hands, and your ankles.", ("exam", "instruction"))
    tl.pause(4.0)
    say(
        C,
        "There's pitting edema of both ankles, and your fingers are puffy. No swelling of your face.",
        ("exam", "finding:pitting_oedema_both_ankles", "finding:finger_swelling", "finding:no_facial_swelling"),
        gap=0,
    )
    _ravdess(
        tl,
        ravdess,
        EMOTIONS_12[2],
        1.2,
        CORRIDOR_GAIN_DB,
        ["outside", "background", "neighbour"],
        "acted emotional line of a woman across the road shouting at her dog, heard through the living-room window, 3 dB "
        "quieter",
    )
    say(D, "That's across the road, shouting at her dog again.", gap=0.8)
    say(
        C,
        "Sophie, your blood pressure is raised, and there's protein in your urine. With the headaches and the "
        "swelling, I'm worried this could be the start of pre eclampsia.",
        ("diagnosis:raised_blood_pressure", "diagnosis:proteinuria", "diagnosis:possible_pre_eclampsia", "explanation"),
        gap=1.0,
    )
    say(
        P,
        "Oh no. Is the baby alright?",
        ("expressed:worried", "concern:baby"),
        notes="the patient's worry (TTS: the words carry it, the voice does not; emotion null)",
    )
    say(C, "His heartbeat is good, and he's moving well. But we need to check you both today.", ("reassurance",))
    say(
        C,
        "I'd like you to go to the maternity assessment unit at Northgate this morning. I'll ring them from the car.",
        ("plan:same_day_maternity_assessment_unit", "plan:midwife_to_phone_mau"),
    )
    say(
        C,
        "They'll recheck your blood pressure, take bloods for pre eclampsia, kidneys, liver and platelets, and monitor "
        "the baby.",
        ("plan:repeat_blood_pressure", "plan:pre_eclampsia_bloods", "plan:ctg"),
    )
    say(
        C,
        "Bring your handheld notes, and pack a bag, in case they keep you in.",
        ("plan:bring_handheld_notes", "plan:pack_overnight_bag"),
    )
    say(
        D,
        "I'll drive her in. My mum can have Charlie.",
        ("plan:partner_to_drive", "social:grandmother_childcare"),
    )
    say(C, "Good. Sophie, please don't drive yourself today.", ("advice:patient_not_to_drive",))
    tl.cough(
        D,
        cuts["S6b"],
        overlap=0.25,
        speed=0.96,
        notes="real cough (BMC Cough 2006) attributed to the partner, not the patient; starts 0.25 s before the "
        "midwife's turn ends",
    )
    say(
        C,
        "If on the way she gets a severe headache, flashing lights or blurred vision, pain under her ribs, any "
        "bleeding, or the baby moves less, call nine nine nine.",
        ("safety_net",),
        gap=0.7,
        notes="conditional safety-net advice, not symptoms she has",
    )
    say(
        D,
        "So a bad headache, flashing lights, blurred vision, pain under the ribs, bleeding, or less movement, we ring "
        "nine nine nine. Otherwise straight to the assessment unit, with her notes.",
        ("safety_net", "read_back"),
    )
    say(C, "That's it exactly. And keep taking the aspirin tonight.", ("plan:continue_aspirin",))
    child(
        "My knee hurts. I fell over at nursery.", ("relative_symptom:son_knee_pain",), notes="the child's own complaint"
    )
    say(D, "Come on, soldier. Shoes on. You're going to Nanny's.")
    tl.cough(
        D,
        cuts["S3a"],
        gap=0.6,
        speed=0.95,
        notes="real cough (BMC Cough 2006) attributed to the partner, not the patient",
    )
    tl.cough(
        P,
        cuts["S1a"],
        gap=1.2,
        speed=1.03,
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient, as she gets up",
    )
    say(P, "Thank you, Fiona. I'm glad you came today.", gap=0.8)
    say(C, "You're welcome. I'll phone you this afternoon.", ("plan:midwife_phone_call_this_afternoon",))
    tl.pause(2.5)

    # ------------------------------------------------------------------ 3. voice memo
    tl.begin(
        "voice_memo",
        "The community midwife alone in her car after the visit records a voice memo in clinical shorthand (34/40, "
        "G2P1, BP 142/92 then 138/90, urine protein 1+, PCR sent, PET bloods, MAU aware), with one spoken correction "
        "of the repeat blood pressure",
        "consultation",
    )
    tl.pause(1.0)
    say(
        C,
        "Voice memo. Thursday, eleven twenty, in the car after the home visit to Sophie Harris.",
        ("dictation",),
        gap=0,
    )
    say(
        C,
        "Thirty four over forty. G two, P one. Previous pregnancy, gestational diabetes on metformin. Aspirin one fifty "
        "nocte since twelve weeks, for P E T risk. Mum had P E T.",
        (
            "dictation",
            "gestation:34_weeks",
            "history:g2p1",
            "history:gestational_diabetes_previous_pregnancy",
            "medication:aspirin_150mg_night_since_12_weeks",
            "family_history:mother_pre_eclampsia",
        ),
    )
    say(
        C,
        "Rang triage last night with reduced fetal movements, resolved. Movements normal today.",
        ("dictation", "resolved:reduced_fetal_movements", "affirm:fetal_movements_normal"),
    )
    say(
        C,
        "Headaches this week, one by her account, three according to her partner. No visual disturbance. No "
        "epigastric pain. "
        "Swelling of hands and ankles. Heartburn on Gaviscon. Pelvic girdle pain, physio referral.",
        (
            "dictation",
            "affirm:headache",
            "count:headache_1_this_week_per_patient",
            "count:headache_3_this_week_per_partner",
            "deny:visual_disturbance",
            "deny:epigastric_pain",
            "affirm:hand_swelling",
            "affirm:ankle_swelling",
            "affirm:heartburn",
            "affirm:pelvic_girdle_pain",
            "plan:physiotherapy_referral",
        ),
    )
    say(
        C,
        "B P one forty two over ninety two, repeat one thirty eight over ninety eight. Correction, one thirty eight over "
        "ninety.",
        ("dictation", "vital:blood_pressure_142_92", "vital:blood_pressure_138_90", "correction"),
        notes="the midwife corrects herself: the repeat reading was 138/90, not 138/98",
    )
    say(
        C,
        "Urine, protein one plus, nil else. S F H thirty five centimetres, cephalic. Fetal heart one forty. Pitting "
        "edema both ankles.",
        (
            "dictation",
            "finding:urine_protein_1_plus",
            "finding:symphysis_fundal_height_35cm",
            "finding:cephalic",
            "vital:fetal_heart_rate_140",
            "finding:pitting_oedema_both_ankles",
        ),
    )
    tl.pause(3.0)  # she checks the notes
    say(
        C,
        "Impression, raised B P with proteinuria, query P E T. P C R sent. P E T bloods at M A U. M A U aware, spoke to "
        "the coordinator, expecting her by twelve thirty. Partner driving.",
        (
            "dictation",
            "diagnosis:possible_pre_eclampsia",
            "plan:urine_protein_creatinine_ratio_sent",
            "plan:pre_eclampsia_bloods",
            "plan:same_day_maternity_assessment_unit",
            "plan:mau_aware_expecting_1230",
            "plan:partner_to_drive",
        ),
    )
    say(
        C,
        "Mood low at times, E P D S questions asked, no thoughts of self harm. Review mood next visit. Partner smokes "
        "outside only, referred to stop smoking.",
        (
            "dictation",
            "affirm:low_mood_at_times",
            "deny:thoughts_of_self_harm",
            "plan:mood_review",
            "social:partner_smokes_outside_only",
            "plan:partner_stop_smoking_referral",
        ),
    )
    say(
        C,
        "Phone her this afternoon for the outcome. End of memo.",
        ("dictation", "plan:midwife_phone_call_this_afternoon"),
    )
    tl.pause(1.5)
