"""bank_rec_08: respiratory clinic waiting area -> a respiratory nurse's COPD review -> her phone call three days later.

Imported by ``make_recordings.py`` (``--only bank_rec_08``); it uses that module's ``Timeline`` and bank_rec_07's
RAVDESS trimming (``rec07._tighten``).

* ``clinic_waiting_area``: the waiting area of a hospital respiratory outpatient clinic on a wet Tuesday morning: a
  television on the wall (eSpeak NG RP ``+m1``; local news and weather with symptom words used
  non-clinically: the ring road "a real headache", commuters "sick and tired of the roadworks", "a pain in the
  neck", gardeners "feeling the pain"), the patient's wife (eSpeak NG ``en-us+grandma`` with the base pitch lowered
  to 30) "sick of this rain", a healthcare assistant (eSpeak NG ``en-us+m6``) at the door (the nurse is running late;
  the car park "one big headache"), four RAVDESS remarks of other people (actors 01/02/05/24, clips not used in
  bank_rec_02-07), a bystander's real cough, the patient's cough, an 8 s quiet stretch (8.8 s with the gap).
* ``copd_review``: a respiratory nurse specialist (eSpeak NG ``en-us+f5``, a voice never used before) reviews a
  71-year-old man with COPD (Flite ``rms``) and his wife, who answers for him at times in the third person ("he
  gets puffed out on the stairs") and mentions her own arthritis and her own dry cough: breathlessness (MRC grade
  4, grade 3 in April), a morning productive cough with sputum turned from white to yellowy green this last week,
  night wheeze, two exacerbations this year (February, June) with prednisolone, a chest infection last winter
  (cleared), a current smoker cutting down (ten a day from twenty, since fifteen: about 55 pack-years), Spiriva
  Respimat and salbutamol with poor metered-dose inhaler technique corrected (spacer), other medicines, a
  penicillin allergy and a theophylline intolerance, past history (hypertension, a heart attack with a stent, a
  right hernia repair), family history (father's emphysema and lung cancer, brother's asthma), social history,
  denials, a hedged tiredness, a sore throat last week (gone), the granddaughter's cold; weight, oxygen
  saturation, pulse, respiratory rate (a silent 18 s count), temperature and three peak flows read out after
  silent pauses; chest examination; the plan (Trelegy Ellipta instead of Spiriva, a rescue pack of prednisolone and
  doxycycline, a sputum sample, pulmonary rehabilitation, the stop smoking service, a follow-up date) and a
  conditional safety-net read back by the wife. Seven real coughs of the patient in all (one in the waiting area;
  two overlapping the end of a turn, one wholly under the wife's speech, one after the peak flow, one during the
  chest examination); two RAVDESS lines of visitors in the corridor (sad, fearful).
* ``phone_call``: three days later the nurse rings the patient at home (band-limited 300-3400 Hz, both sides; the
  wife answers and passes the phone to him): the sputum grew Haemophilus influenzae resistant to doxycycline, so the
  rescue-pack antibiotic changes to clarithromycin and the prednisolone starts today; new symptoms (a temperature of
  37.9 last night, a sore mouth with white patches: oral thrush, nystatin); peak flow 240; the pulmonary
  rehabilitation assessment date; a safety-net read back.

No throat clearing, no door knock and no inhaler or spirometer sound: no honestly licensed real recording is
available offline, and sound events other than the phone tones are never synthesised.
"""

from __future__ import annotations

from pathlib import Path

from make_recordings import CoughCut, Placed, Speaker, Timeline
from rec07 import CORRIDOR_GAIN_DB, _tighten

TV_DBFS = -28.0  # the waiting-area television, across the room

EMOTIONS_08 = [
    "03-01-05-02-02-01-05.flac",  # actor 05 angry strong, dogs (waiting area)
    "03-01-04-01-01-02-24.flac",  # actor 24 sad normal, kids (waiting area)
    "03-01-08-02-01-01-02.flac",  # actor 02 surprised strong, kids (waiting area)
    "03-01-02-01-02-01-01.flac",  # actor 01 calm normal, dogs (waiting area)
    "03-01-04-02-02-01-06.flac",  # actor 06 sad strong, dogs (corridor, heard in the review)
    "03-01-06-02-01-01-01.flac",  # actor 01 fearful strong, kids (corridor, heard in the review)
]

SPEAKERS_08 = {
    "bank08_tv": Speaker(
        "tv",
        None,
        "espeak:en-gb-x-rp+m1",
        "M",
        "the television in the clinic waiting area (local news and weather; synthetic)",
    ),
    "bank08_hca": Speaker(
        "healthcare_assistant",
        "Callum",
        "espeak:en-us+m6",
        "M",
        "healthcare assistant of the respiratory outpatient clinic, at the waiting-area door (synthetic)",
    ),
    "bank08_clinician": Speaker(
        "clinician",
        "Helen Marsh",
        "espeak:en-us+f5",
        "F",
        "respiratory nurse specialist at Westgate General Hospital; does the COPD review and rings the patient "
        "three days later (synthetic)",
    ),
    "bank08_patient": Speaker(
        "patient",
        "Ron (Ronald) Fletcher",
        "rms",
        "M",
        "patient, a 71-year-old man with COPD, a current smoker (synthetic voice; real coughs)",
    ),
    "bank08_wife": Speaker(
        "relative",
        "Maureen Fletcher",
        "espeak:en-us+grandma@p30",
        "F",
        "the patient's wife, who answers for him at times; has arthritis and a dry cough of her own (synthetic)",
    ),
    "bank08_bystander_1": Speaker(
        "bystander",
        None,
        None,
        "F",
        "another person in the clinic waiting area who coughs (real BMC cough, source S1)",
    ),
}

_WAITING_NOTE = (
    "acted emotional remark by another person in the respiratory clinic waiting area (RAVDESS, CC BY-NC-SA 4.0; "
    "quiet lead-in and tail cut); the same clip is in the shared ser-train set"
)
_CORRIDOR_NOTE = (
    "acted emotional line by a visitor in the hospital corridor, heard through the clinic-room door, not the patient "
    "or his wife (RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared ser-train set"
)


def _other_person(tl: Timeline, ravdess: Path, name: str, gap: float | None, corridor: bool) -> Placed:
    """A RAVDESS line of another person: in the waiting area, or (``corridor``) through the door, 3 dB quieter."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    extra = ["waiting_area"]
    if corridor:
        p.audio = p.audio * 10 ** (CORRIDOR_GAIN_DB / 20)
        extra = ["background", "corridor"]
    p.fields["tags"] = [*p.fields["tags"], *extra]  # type: ignore[misc]
    p.fields["notes"] = _CORRIDOR_NOTE if corridor else _WAITING_NOTE
    return p


def _cough_under(tl: Timeline, speaker: str, cut: CoughCut, before_end: float, notes: str) -> Placed:
    """A real cough placed wholly inside the preceding turn (it starts ``before_end`` s before that turn ends)."""
    p = tl.cough(speaker, cut, overlap=before_end, notes=notes)
    tags = [t for t in p.fields["tags"] if t != "overlaps_speech_end"]  # type: ignore[union-attr]
    p.fields["tags"] = [*tags, "under_speech"]
    return p


def build_rec08(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Clinic waiting area -> COPD review by a respiratory nurse with the patient's wife -> phone call."""
    T, H, C, P, W = "bank08_tv", "bank08_hca", "bank08_clinician", "bank08_patient", "bank08_wife"
    B = "bank08_bystander_1"
    say = tl.say
    tl.tts_name = "Flite TTS (the patient) and eSpeak NG TTS (the nurse, the wife, the healthcare assistant, the TV)"
    tl.notes_extra = (
        "; a cough tagged under_speech lies wholly inside the turn before it (the speaker talks on over it)"
    )
    for actor in (1, 2, 5, 6, 24):
        tl.speakers[f"ravdess_actor{actor:02d}"] = Speaker(
            "bystander",
            None,
            None,
            "M" if actor % 2 else "F",
            f"RAVDESS actor {actor:02d} (real acted speech), another person at the hospital clinic",
        )
    ncw = ("nonclinical_symptom_word",)
    tv = "the waiting-area television; symptom words used figuratively, not about anyone present"

    # ------------------------------------------------------------------ 1. waiting area
    tl.begin(
        "clinic_waiting_area",
        "The waiting area of a hospital respiratory outpatient clinic on a wet morning: the television (local news "
        "and weather, symptom words used non-clinically), the patient and his wife waiting (she is 'sick of this "
        "rain'), other people's acted emotional remarks (RAVDESS), a healthcare assistant at the door saying the "
        "nurse is running late (the car park 'one big headache'), a bystander's cough and the patient's cough, a "
        "quiet stretch; the nurse calls him in",
        "waiting",
    )
    tl.pause(1.0)
    say(
        T,
        "Good morning. Here's the local news. On the roads, the ring road is a real headache this morning, with "
        "long queues back to the hospital roundabout.",
        ("tv", *ncw),
        gap=0,
        level=TV_DBFS,
        notes=tv,
    )
    say(
        W,
        "Honestly, I'm sick of this rain, Ron. It's not stopped since Saturday.",
        ncw,
        gap=1.2,
        notes="the wife is fed up with the weather; 'sick' is not a symptom",
    )
    say(P, "Did you bring my inhalers, love?")
    say(W, "They're in my bag. Both of them, and your list of tablets.")
    _other_person(tl, ravdess, EMOTIONS_08[0], 1.8, corridor=False)
    say(
        T,
        "Commuters say they are sick and tired of the roadworks, and one bus driver told us the new traffic lights "
        "are a pain in the neck.",
        ("tv", *ncw),
        gap=1.5,
        level=TV_DBFS,
        notes=tv,
    )
    tl.cough(P, cuts["S3a"], gap=1.6, notes="the patient coughs in the waiting area")
    _other_person(tl, ravdess, EMOTIONS_08[1], 2.0, corridor=False)
    say(
        H,
        "Mister Fletcher? I'm Callum, the healthcare assistant. Sorry, the nurse is running about ten minutes behind.",
        gap=1.7,
        notes="the healthcare assistant at the waiting-area door",
    )
    say(P, "No bother, son. We're in no rush.")
    say(
        H,
        "The car park's been murder this morning. The whole clinic's been one big headache.",
        ncw,
        notes="the healthcare assistant's figure of speech about the busy morning; not a symptom",
    )
    say(W, "Tell me about it. We went round three times for a space.")
    tl.cough(B, cuts["S1a"], gap=2.0)
    _other_person(tl, ravdess, EMOTIONS_08[2], 1.6, corridor=False)
    tl.pause(8.0)  # nobody speaks
    say(
        T,
        "And the weather. More heavy rain this afternoon, I'm afraid. Gardeners are feeling the pain, with lawns "
        "under water right across the county.",
        ("tv", *ncw),
        gap=0.8,
        level=TV_DBFS,
        notes=tv,
    )
    _other_person(tl, ravdess, EMOTIONS_08[3], 1.5, corridor=False)
    say(C, "Ronald Fletcher? I'm ready for you now. Room four, just along here.", gap=2.2)
    say(W, "Come on, then. Up you get.")
    tl.pause(3.0)  # they walk to the clinic room

    # ------------------------------------------------------------------ 2. COPD review
    tl.begin(
        "copd_review",
        "Annual COPD review by a respiratory nurse specialist of a 71-year-old man, his wife answering for him at "
        "times and mentioning her own arthritis and cough: breathlessness (MRC grade 4), a productive cough with "
        "sputum turned green this last week, night wheeze, two exacerbations this year with steroids, a chest "
        "infection last winter (cleared), current smoking (about 55 pack-years, cutting down), inhalers and a "
        "corrected inhaler technique, other medicines, a penicillin allergy and a theophylline intolerance, past, "
        "family and social history, denials, a hedged tiredness, a sore throat last week (gone), the "
        "granddaughter's cold; weight, oxygen saturation, pulse, respiratory rate, temperature and peak flow after "
        "silent pauses; chest examination; real coughs; new inhaler, a rescue pack, sputum sample, pulmonary "
        "rehabilitation, stop smoking service, follow-up date and a safety-net read back by the wife",
        "consultation",
    )
    tl.pause(1.5)
    say(C, "Come in, both of you. I'm Helen Marsh, one of the respiratory nurses.", gap=0.0)
    say(P, "Ron Fletcher. I'm seventy one.", ("identity", "age:71"))
    say(W, "I'm Maureen, his wife. I've come to keep him honest.", ("identity",))
    say(C, "So this is your yearly COPD review, Ron. How's your breathing been since April?", ("history:copd",))
    say(
        P,
        "Worse. I get breathless walking to the paper shop. It's about a hundred yards, and I have to stop on the way.",
        ("affirm:breathlessness", "affirm:breathless_after_100_yards_on_the_flat", "worsened:breathlessness"),
    )
    say(
        W,
        "And he gets puffed out on the stairs. He has to stop halfway up.",
        ("affirm:breathless_on_stairs", "relative_report:breathless_on_stairs"),
        notes="the wife reports her husband's symptom (third person)",
    )
    say(
        C,
        "Stopping after a hundred yards on the flat is grade four on the MRC breathlessness scale. In April you "
        "were grade three.",
        ("score:mrc_4", "history:mrc_3_in_april", "worsened:breathlessness"),
    )
    say(C, "And your cough?")
    say(
        P,
        "I cough every morning, and I bring up phlegm. It's normally white, but this last week it's gone yellowy "
        "green, and there's more of it.",
        (
            "affirm:cough",
            "affirm:productive_cough",
            "affirm:morning_cough",
            "affirm:sputum_colour_change_white_to_green",
            "affirm:sputum_increased",
            "new_symptom:green_sputum",
        ),
    )
    tl.cough(P, cuts["S6a"], overlap=0.25)
    say(
        W,
        "It is green, I've seen the tissues. And he's wheezy at night, whistling like a kettle. I can hear him from "
        "the landing.",
        (
            "affirm:green_sputum",
            "affirm:wheeze",
            "affirm:night_wheeze",
            "relative_report:green_sputum",
            "relative_report:wheeze_at_night",
        ),
        gap=0.5,
        notes="the wife reports her husband's symptoms (third person); he coughs while she is speaking",
    )
    _cough_under(
        tl,
        P,
        cuts["S3b"],
        2.6,
        "real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient; he coughs while his "
        "wife is speaking and she talks on over it (wholly inside her turn)",
    )
    say(C, "How many flare-ups needing steroid tablets have you had this year?")
    say(
        P,
        "Two. February and June. The GP gave me prednisolone for five days, both times.",
        (
            "history:exacerbations_2_this_year",
            "history:exacerbation_february",
            "history:exacerbation_june",
            "medication:prednisolone_5_day_course_x2",
        ),
    )
    say(
        W,
        "And antibiotics in June. He wasn't in hospital, though.",
        ("history:antibiotics_june_exacerbation", "deny:hospital_admission", "relative_report:no_hospital_admission"),
    )
    say(
        P,
        "I had a chest infection last winter as well, before Christmas. It cleared up with antibiotics.",
        ("resolved:chest_infection_last_winter",),
    )
    say(C, "Any chest pain?")
    say(P, "No. No chest pain.", ("deny:chest_pain",))
    say(C, "Have you coughed up any blood?")
    say(P, "No, no blood at all.", ("deny:haemoptysis",))
    say(C, "Any swelling of your ankles?")
    say(
        W,
        "No, his ankles are fine. I check them every night.",
        ("deny:ankle_swelling", "relative_report:no_ankle_swelling"),
    )
    say(C, "Any weight loss, or temperatures?")
    say(P, "No. If anything, I've put weight on. And no temperature.", ("deny:weight_loss", "deny:fever"))
    say(C, "Are you more tired than usual?")
    say(
        P,
        "Maybe a little bit tired. It's hard to say, really.",
        ("uncertain:tiredness", "hedge"),
        notes="a hedged, undecided symptom",
    )
    say(
        P,
        "I had a sore throat last week, but that's gone now.",
        ("resolved:sore_throat_last_week",),
    )
    say(
        W,
        "Our granddaughter, Lily, had a streaming cold when she stayed at the weekend.",
        ("relative_symptom:granddaughter_cold", "contact:granddaughter_cold"),
        notes="the granddaughter's cold, not the patient's",
    )
    say(C, "Do you still smoke, Ron?")
    say(
        P,
        "I'm cutting down. Ten a day now, down from twenty. I started when I was fifteen.",
        (
            "social:current_smoker",
            "social:smoking_10_a_day",
            "history:smoked_20_a_day",
            "history:started_smoking_at_15",
            "improving:smoking_cutting_down",
        ),
    )
    say(
        C,
        "That's about fifty five pack years. Would you like a referral to the stop smoking service?",
        ("history:55_pack_years", "advice:stop_smoking"),
    )
    say(P, "Go on, then. Maureen's been on at me for years.", ("plan:stop_smoking_service_referral_accepted",))
    tl.cough(P, cuts["S1b"], gap=0.6, speed=0.98)
    say(C, "Which inhalers are you using?", gap=0.8)
    say(
        P,
        "The Spiriva Respimat, two puffs every morning. And the blue one, salbutamol, when I'm tight.",
        ("medication:spiriva_respimat_2_puffs_every_morning", "medication:salbutamol_when_needed"),
    )
    say(
        C,
        "That's tiotropium, two and a half micrograms, two puffs once a day. And salbutamol, a hundred micrograms, "
        "two puffs when needed. How often do you need the blue one?",
        ("medication:tiotropium_2_5_micrograms_2_puffs_once_daily", "medication:salbutamol_100_micrograms_2_puffs_prn"),
    )
    say(
        P,
        "Six or seven times a day, this last fortnight. Normally it's once or twice.",
        ("medication:salbutamol_6_to_7_times_a_day_last_fortnight", "worsened:reliever_use"),
    )
    say(
        C,
        "Show me how you take it. Here's a practice one.",
        ("exam", "instruction", "technique:inhaler_check"),
        notes="the nurse watches him use a placebo inhaler (no sound)",
    )
    tl.pause(4.0)  # he uses the placebo inhaler
    say(
        C,
        "You pressed it twice at once, and you breathed in too fast. Breathe out first, then press once as you "
        "breathe in slowly, and hold your breath for ten seconds. And use this spacer with it.",
        ("exam", "finding:poor_inhaler_technique", "plan:inhaler_technique_corrected", "plan:spacer_with_salbutamol"),
        gap=0.0,
    )
    say(P, "Breathe out, press once, breathe in slow, hold for ten. Right.", ("read_back", "technique:read_back"))
    tl.pause(5.0)  # he tries again with the spacer
    say(C, "That's much better.", ("finding:inhaler_technique_improved",), gap=0.0)
    say(C, "Any other medicines?")
    say(
        P,
        "Amlodipine five milligrams for my blood pressure. Aspirin seventy five, atorvastatin forty at night, and "
        "bisoprolol two and a half, for my heart.",
        (
            "medication:amlodipine_5mg",
            "medication:aspirin_75mg",
            "medication:atorvastatin_40mg_at_night",
            "medication:bisoprolol_2_5mg",
        ),
    )
    say(C, "Any allergies?")
    say(
        P,
        "Penicillin. I came out in hives, and my lips swelled up.",
        ("allergy:penicillin_hives_lip_swelling",),
    )
    say(C, "Any medicines that didn't agree with you?")
    say(
        P,
        "Theophylline. It made me vomit, so they stopped it.",
        ("intolerance:theophylline_vomiting",),
    )
    say(C, "That's an intolerance, then, not an allergy. Any other health problems?", ("intolerance:theophylline",))
    say(
        P,
        "High blood pressure. A heart attack nine years ago, they put a stent in. And a hernia repair on the right "
        "side, five years back.",
        (
            "history:hypertension",
            "history:myocardial_infarction_9_years_ago_stent",
            "history:right_hernia_repair_5_years_ago",
        ),
    )
    say(C, "Anything in the family?")
    say(
        P,
        "My father had emphysema. He died of lung cancer at seventy.",
        ("family_history:father_emphysema", "family_history:father_lung_cancer_died_at_70"),
    )
    say(W, "And his brother has asthma.", ("family_history:brother_asthma", "relative_report:brother_asthma"))
    _other_person(tl, ravdess, EMOTIONS_08[4], 1.2, corridor=True)
    say(C, "Who's at home with you?", gap=1.0)
    say(
        P,
        "Just me and Maureen. The bedroom's upstairs, fourteen stairs.",
        ("social:lives_with_wife", "social:bedroom_upstairs", "social:14_stairs"),
    )
    say(C, "And alcohol?")
    say(P, "A couple of pints on a Saturday. Five or six units a week.", ("social:alcohol_5_to_6_units_a_week",))
    say(
        W,
        "More like ten, with the whisky.",
        ("social:alcohol_about_10_units_a_week_per_wife", "relative_report:alcohol_10_units"),
        notes="the wife's figure differs from the patient's own",
    )
    say(C, "And how are you keeping, Maureen?")
    say(
        W,
        "Oh, my arthritis plays up, in my hands and knees. And I've had a dry cough myself since my cold a fortnight "
        "ago. But that's me, not him.",
        (
            "relative_symptom:wife_arthritis_hands_knees",
            "relative_symptom:wife_dry_cough_2_weeks",
            "relative_symptom:wife_cold_2_weeks_ago",
            "relative:wife_own_condition",
        ),
        notes="the wife's own complaints, not the patient's",
    )
    say(C, "Let's do your observations. Step on the scales for me.", ("exam", "instruction"))
    tl.pause(4.0)  # the scales settle
    say(C, "Seventy eight point four kilos.", ("exam", "vital:weight_78_4_kg"), gap=0.0)
    say(C, "Now this clip on your finger.", ("exam", "instruction"))
    tl.pause(7.0)  # the oximeter settles
    say(
        C,
        "Oxygen saturation ninety three percent on air. Pulse eighty eight, regular.",
        ("exam", "vital:oxygen_saturation_93_on_air", "vital:pulse_88_regular"),
        gap=0.0,
    )
    say(
        C,
        "Just sit quietly for me.",
        ("exam", "instruction"),
        notes="the nurse counts his breathing without saying so",
    )
    tl.pause(18.0)  # silent breathing count
    say(
        C,
        "Twenty two breaths a minute. And your temperature is thirty six point eight.",
        gap=0.0,
        tags=("exam", "vital:respiratory_rate_22", "vital:temperature_36_8"),
    )
    say(
        C,
        "Now the peak flow. Big breath in, and blow as hard and fast as you can.",
        ("exam", "instruction"),
    )
    tl.pause(3.5)  # first blow
    say(C, "Two hundred and seventy. Again.", ("exam", "vital:peak_flow_270_first_blow"), gap=0.0)
    tl.pause(3.5)  # second blow
    say(C, "Two hundred and ninety. Once more.", ("exam", "vital:peak_flow_290_second_blow"), gap=0.0)
    tl.pause(3.0)  # third blow
    tl.cough(P, cuts["S3c"], gap=0.0, speed=0.96, notes="the patient coughs after blowing into the peak flow meter")
    say(
        C,
        "Two hundred and eighty. So your best is two hundred and ninety. Your predicted is four hundred and fifty.",
        ("exam", "vital:peak_flow_280_third_blow", "vital:peak_flow_best_290", "result:peak_flow_predicted_450"),
        gap=1.0,
    )
    say(
        C,
        "Your spirometry in April showed an F E V one of one point three litres, forty eight percent of predicted.",
        ("result:fev1_1_3_litres_48_percent_predicted", "result:spirometry_april"),
    )
    say(C, "Let me listen to your chest. Breathe in and out through your mouth.", ("exam", "instruction"))
    tl.pause(5.0)  # listening
    tl.cough(P, cuts["S6b"], gap=0.0, speed=1.03, notes="the patient coughs while the nurse listens to his chest")
    tl.pause(3.5)  # still listening
    say(
        C,
        "There's some wheeze on both sides, and a few crackles at the right base that clear when you cough.",
        ("exam", "finding:bilateral_wheeze", "finding:right_basal_crackles_clear_with_cough"),
        gap=0.0,
    )
    _other_person(tl, ravdess, EMOTIONS_08[5], 1.3, corridor=True)
    say(
        C,
        "So, Ron. Your COPD is moderate to severe, and the green phlegm is the start of a mild flare-up.",
        ("diagnosis:copd_moderate_to_severe", "diagnosis:mild_exacerbation_starting"),
        gap=1.0,
    )
    say(
        C,
        "Stop the Spiriva. Instead, use Trelegy Ellipta, one inhalation once a day, and rinse your mouth out "
        "afterwards. Carry on with the salbutamol through the spacer, up to four times a day.",
        (
            "plan:stop_spiriva",
            "plan:start_trelegy_ellipta_one_inhalation_once_daily",
            "plan:rinse_mouth_after_inhaler",
            "plan:salbutamol_via_spacer_up_to_4_times_a_day",
        ),
    )
    say(
        C,
        "Here's a rescue pack. Prednisolone, thirty milligrams a day for five days. And because of your penicillin "
        "allergy, doxycycline, two hundred milligrams on day one, then one hundred milligrams a day for four days.",
        (
            "plan:rescue_pack",
            "plan:prednisolone_30mg_once_daily_5_days",
            "plan:doxycycline_200mg_day_1_then_100mg_daily_4_days",
        ),
    )
    say(
        C,
        "Start it if you get more breathless and the phlegm stays green. I'll send a sputum sample today, and ring "
        "you on Friday with the result.",
        ("plan:rescue_pack_start_criteria", "plan:sputum_culture", "plan:phone_call_friday_with_result"),
    )
    say(
        C,
        "I'm also referring you to pulmonary rehab, a six week exercise class, twice a week. And the stop smoking "
        "service will ring you.",
        (
            "plan:pulmonary_rehabilitation_referral",
            "plan:pulmonary_rehab_6_weeks_twice_weekly",
            "plan:stop_smoking_service_referral",
        ),
    )
    tl.cough(P, cuts["S5a"], overlap=0.2, speed=0.97)
    say(
        C,
        "If you get chest pain, or your lips go blue, call nine nine nine. If the rescue pack isn't working after "
        "two days, see your GP that day.",
        ("safety_net",),
        gap=0.8,
        notes="conditional safety-net advice, not symptoms he has",
    )
    say(
        W,
        "So chest pain or blue lips, nine nine nine. Rescue pack not working after two days, the GP.",
        ("safety_net", "read_back"),
    )
    say(
        C,
        "That's right. I'll see you in clinic on Tuesday the twenty fifth of November, at half past ten.",
        ("plan:follow_up_clinic_tuesday_25_november_10_30",),
    )
    say(P, "Thank you, nurse.")
    tl.pause(2.5)

    # ------------------------------------------------------------------ 3. phone call
    tl.begin(
        "phone_call",
        "Telephone call three days later, on Friday (band-limited 300-3400 Hz, both sides): the nurse rings the "
        "patient at home, the wife answers and passes him the phone; the sputum grew Haemophilus influenzae "
        "resistant to doxycycline, so the rescue-pack antibiotic changes to clarithromycin and the prednisolone "
        "starts today; a temperature of 37.9 last night and a new sore mouth with white patches (oral thrush: "
        "nystatin, rinse after the inhaler); peak flow 240; the pulmonary rehabilitation assessment date; a "
        "safety-net read back",
        "phone",
        phone=True,
    )
    tl.pause(1.0)
    tl.ring(gap=0)
    say(W, "Hello?")
    say(C, "Hello, Mrs Fletcher? It's Helen Marsh, the respiratory nurse, ringing about Ron's sputum result.")
    say(W, "Oh, hello. I'll pass you over. Ron! It's the nurse.")
    tl.pause(2.0)  # she hands him the phone
    say(P, "Hello, nurse.", gap=0.0)
    say(C, "Hello, Ron. How have you been since Tuesday?")
    say(
        P,
        "The breathing's about the same. But the phlegm's really green now, and I had a temperature last night, "
        "thirty seven point nine.",
        ("affirm:green_sputum", "worsened:sputum", "affirm:fever_last_night_37_9", "new_symptom:fever_last_night_37_9"),
    )
    say(
        C,
        "The sample grew a bug called Haemophilus influenzae, and it's resistant to doxycycline. So, change of plan. "
        "Don't take the doxycycline.",
        (
            "result:sputum_culture_haemophilus_influenzae",
            "result:resistant_to_doxycycline",
            "plan:change_of_plan",
            "plan:stop_doxycycline",
        ),
    )
    say(
        C,
        "Your GP, Doctor Shah, will prescribe clarithromycin instead, five hundred milligrams twice a day for five "
        "days. And start the prednisolone today, thirty milligrams every morning.",
        (
            "plan:clarithromycin_500mg_twice_daily_5_days",
            "plan:start_prednisolone_today",
            "plan:prednisolone_30mg_every_morning_5_days",
        ),
    )
    say(
        P,
        "Clarithromycin twice a day, five days, and the steroids from today.",
        ("read_back",),
    )
    say(C, "How's the new Trelegy inhaler?")
    say(
        P,
        "Easy enough. But my mouth's been sore since yesterday, and Maureen says there are white patches on my tongue.",
        ("affirm:sore_mouth", "new_symptom:sore_mouth_white_patches_on_tongue", "relative_report:white_patches"),
    )
    say(
        C,
        "That sounds like oral thrush from the inhaler. Are you rinsing your mouth out?",
        ("diagnosis:oral_thrush",),
    )
    say(P, "I keep forgetting.", ("adherence:not_rinsing_mouth_after_inhaler",))
    say(
        C,
        "Rinse and spit every time. And Doctor Shah will add nystatin liquid, one millilitre four times a day for "
        "seven days.",
        ("plan:rinse_mouth_after_trelegy", "plan:nystatin_1ml_four_times_a_day_7_days"),
    )
    say(C, "Any chest pain?")
    say(P, "No chest pain. And no more breathless than Tuesday.", ("deny:chest_pain", "deny:worse_breathlessness"))
    say(C, "What was your peak flow this morning?")
    say(P, "Two hundred and forty.", ("vital:peak_flow_240_this_morning",))
    say(
        C,
        "A bit lower, which fits with the flare-up. Your pulmonary rehab assessment is on Monday the third of "
        "November, at two o'clock.",
        ("plan:pulmonary_rehab_assessment_monday_3_november_2pm",),
    )
    say(
        C,
        "If you're no better after two days of the tablets, see Doctor Shah. If you get chest pain or blue lips, "
        "call nine nine nine.",
        ("safety_net",),
        notes="conditional safety-net advice, not symptoms he has",
    )
    say(P, "Two days and no better, the GP. Chest pain or blue lips, nine nine nine.", ("safety_net", "read_back"))
    say(C, "That's it. Take care, Ron. Bye.")
    say(P, "Bye, nurse. Thanks.")
    tl.pause(1.5)
