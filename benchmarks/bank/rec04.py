"""bank_rec_04: nurse triage phone call -> GP consultation (low mood, anxiety, insomnia, knee pain) -> dictation.

Imported by ``make_recordings.py`` (``--only bank_rec_04``); it uses that module's ``Timeline``.

* ``phone_triage``: a telephone call (band-limited 300-3400 Hz, both sides heard): a mother rings the
  practice nurse about her three-year-old son (fever, a rash that does not fade under a glass, vomiting
  once, no neck stiffness, drinking less); the nurse books him with the duty doctor at once and gives
  safety-net advice.
* ``consultation``: a different, adult patient (a woman of 52, eSpeak NG West Midlands voice) sees a male
  GP (Flite ``rms``, never a clinician in the other recordings) with her husband, who speaks a few times
  (his own back pain). Low mood, anxiety, insomnia; denials, a resolved history, medication, an allergy,
  alcohol, a PHQ-9 questionnaire filled in during a ~20 s silence, blood pressure, a right-knee
  examination with silent pauses; real coughs (BMC, some overlapping the end of speech); acted emotional
  lines of a visitor in the corridor (RAVDESS, actors 01/02/05/06/24 only).
* ``dictation``: the GP alone dictates the letter in clinical register (one spoken correction).

No throat clearing: no honestly licensed real recording is available offline, and sound events are
never synthesised.
"""

from __future__ import annotations

from pathlib import Path

from make_recordings import CoughCut, Placed, Speaker, Timeline

CORRIDOR_GAIN_DB = -3.0  # RAVDESS visitor heard through the consulting-room door (about -29 dBFS)

EMOTIONS_04 = [
    "03-01-05-02-02-02-05.flac",  # actor 05 angry strong, dogs
    "03-01-04-02-01-02-24.flac",  # actor 24 sad strong, kids
    "03-01-06-01-01-02-02.flac",  # actor 02 fearful normal, kids
    "03-01-08-01-02-01-06.flac",  # actor 06 surprised normal, dogs
    "03-01-07-01-01-02-01.flac",  # actor 01 disgust normal, kids
]

SPEAKERS_04 = {
    "bank04_nurse": Speaker(
        "nurse",
        "Nurse Ellis",
        "slt",
        "F",
        "practice triage nurse answering the phone line (synthetic; heard as telephone audio)",
    ),
    "bank04_mother": Speaker(
        "relative",
        "Grace Adeyemi",
        "espeak:en-us+f4",
        "F",
        "mother ringing about her three-year-old son Joshua, who does not speak (synthetic; telephone audio)",
    ),
    "bank04_clinician": Speaker("clinician", "Doctor Mehta", "rms", "M", "GP (synthetic)"),
    "bank04_patient": Speaker(
        "patient",
        "Claire Dawson",
        "espeak:en-gb-x-gbcwmd+f2",
        "F",
        "patient, a 52-year-old school administrator with low mood, anxiety, insomnia and right knee pain "
        "(synthetic speech, real coughs)",
    ),
    "bank04_partner": Speaker(
        "relative",
        "Mark Dawson",
        "awb",
        "M",
        "the patient's husband; speaks a few times, including about his own back pain (synthetic)",
    ),
}


def _visitor(tl: Timeline, ravdess: Path, name: str, gap: float | None = None) -> Placed:
    """A RAVDESS line of a visitor in the corridor outside the consulting room (quieter, through the door)."""
    actor = int(Path(name).stem.split("-")[-1])
    spk_id = f"ravdess_actor{actor:02d}"
    if spk_id not in tl.speakers:
        tl.speakers[spk_id] = Speaker(
            "visitor",
            None,
            None,
            "M" if actor % 2 else "F",
            f"RAVDESS actor {actor:02d} (real acted speech), a visitor in the corridor outside the consulting "
            "room, heard through the door",
        )
    p = tl.emotion(ravdess, name, gap=gap)
    p.audio = p.audio * 10 ** (CORRIDOR_GAIN_DB / 20)
    p.fields["tags"] = [*p.fields["tags"], "background", "corridor"]  # type: ignore[misc]
    p.fields["notes"] = (
        "acted emotional line by a visitor in the corridor, heard through the consulting-room door, not part "
        "of the consultation (RAVDESS, CC BY-NC-SA 4.0); the same clip is in the shared ser-train set"
    )
    return p


def build_rec04(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Phone triage (child with fever and rash) -> GP consultation (mood, sleep, knee) -> dictation."""
    N, M = "bank04_nurse", "bank04_mother"
    C, P, H = "bank04_clinician", "bank04_patient", "bank04_partner"
    say = tl.say
    tl.tts_name = "Flite TTS (nurse, GP, husband) and eSpeak NG TTS (mother, patient)"

    # ------------------------------------------------------------------ 1. phone triage
    tl.begin(
        "phone_triage",
        "Telephone triage call (band-limited 300-3400 Hz, both sides heard): a mother describes her "
        "three-year-old son's fever, non-blanching rash, one vomit and reduced drinking (no neck stiffness); "
        "the practice nurse books him with the duty doctor at once and gives safety-net advice",
        "phone",
        phone=True,
    )
    tl.pause(1.0)
    tl.ring(gap=0)
    say(N, "Millbrook Surgery, nurse triage line, you're speaking to Nurse Ellis. Who have I got on the phone?")
    say(M, "Hello. It's Grace Adeyemi. I'm ringing about my little boy, Joshua. He's three.")
    say(N, "Hello, Grace. What's been happening with Joshua?")
    say(
        M,
        "Joshua's had a fever since last night. It was thirty nine point four this morning, with the ear thermometer.",
        ("affirm:fever", "relative_report:fever", "vital:temperature_39_4"),
        notes="the mother reports her son's symptom; the temperature was taken at home",
    )
    say(
        M,
        "And this morning he's come out in a rash. Little purple spots, on his tummy and the backs of his legs.",
        ("affirm:rash", "relative_report:purple_spots_trunk_legs"),
    )
    say(
        N,
        "Have you tried the glass test? Press the side of a clear glass firmly onto the spots, and tell me "
        "if they fade.",
        ("instruction",),
    )
    say(M, "I've got a glass here. Hang on.")
    tl.pause(4.0)  # she presses a glass on the rash
    say(
        M,
        "No. They don't fade. I can still see them through the glass.",
        ("affirm:non_blanching_rash", "relative_report:rash_does_not_fade"),
        gap=0.4,
    )
    say(N, "Okay. Thank you. Has he been sick at all?")
    say(
        M,
        "He was sick once, about six o'clock this morning. Nothing since then.",
        ("affirm:vomiting_once", "relative_report:vomited_once_0600"),
    )
    say(N, "Does he have a stiff neck? Can he look down at his tummy, and does the light bother him?")
    say(
        M,
        "No, his neck's fine. He was looking down at his toys a minute ago. And the light doesn't bother him.",
        ("deny:neck_stiffness", "deny:photophobia", "relative_report:no_neck_stiffness"),
    )
    say(N, "Is he drinking? And how many wet nappies has he had today?")
    say(
        M,
        "He's drinking a lot less than normal. Just a few sips of juice. Only one wet nappy since he woke up.",
        ("affirm:drinking_less", "affirm:fewer_wet_nappies", "relative_report:reduced_fluid_intake"),
    )
    say(N, "Is he alert? Is he responding to you?")
    say(
        M,
        "He's quiet, and a bit grizzly, but he's watching his cartoons, and he answers me.",
        ("affirm:irritable", "deny:unresponsive", "relative_report:quiet_but_responsive"),
    )
    say(N, "Have you given him anything for the temperature?")
    say(
        M,
        "Calpol. Seven and a half mils, at seven o'clock.",
        ("medication:paracetamol_suspension_7_5ml_0700",),
        notes="Calpol is paracetamol oral suspension, given to the child",
    )
    say(
        N,
        "Thank you, Grace. A fever with a rash that doesn't fade under a glass needs a doctor to see him "
        "straight away. I'm booking him in with the duty doctor now, at ten fifteen. Please come straight down.",
        ("plan:urgent_duty_doctor_1015", "triage:urgent"),
    )
    say(M, "Okay. We'll leave now.")
    say(
        N,
        "If he becomes floppy or the rash spreads, call nine nine nine. Don't wait for the appointment. The same "
        "if he has a fit, or you can't wake him properly.",
        ("safety_net",),
    )
    say(M, "Floppy, or the rash spreading, call nine nine nine. Got it. Thank you.")
    say(N, "See you shortly. Bye now.")
    tl.pause(3.0)

    # ------------------------------------------------------------------ 2. consultation
    tl.begin(
        "consultation",
        "Face-to-face GP consultation with a different adult patient (male GP, female patient, her husband "
        "speaks a few times): low mood, anxiety and insomnia, then right knee pain; PHQ-9 filled in during a "
        "long silence, blood pressure, knee examination with silent pauses, diagnosis, plan and follow-up; "
        "real coughs by the patient; a visitor's emotional lines heard from the corridor (RAVDESS)",
        "consultation",
    )
    tl.pause(1.5)
    _visitor(tl, ravdess, EMOTIONS_04[0], gap=0)
    say(C, "Missus Dawson? Come in, have a seat. I'm Doctor Mehta. And this is?", gap=2.2)
    say(P, "This is my husband, Mark. I asked him to come in with me. I hope that's all right.")
    say(
        H,
        "Morning, doctor. Sorry we're a bit late. Parking round here is a real headache.",
        ("smalltalk", "nonclinical_symptom_word"),
    )
    say(C, "Of course, that's fine. What can I do for you today?")
    say(
        P,
        "I've been feeling really low, for about three months now. I just feel flat all the time, and I can't "
        "be bothered with anything.",
        ("affirm:low_mood", "duration:low_mood_3_months", "affirm:loss_of_interest", "lay_term"),
    )
    tl.cough(P, cuts["S1a"], gap=0.5)
    say(C, "I'm sorry to hear that. Are there things you used to enjoy that you don't any more?", gap=0.8)
    say(
        P,
        "Gardening, mainly. And I used to go swimming with my friend on a Thursday. I've stopped all of it.",
        ("affirm:anhedonia",),
    )
    say(C, "How are you sleeping?")
    say(
        P,
        "Terribly. I can't get off to sleep, my mind is racing. And then I wake up at four in the morning, "
        "and that's it, I'm awake.",
        ("affirm:insomnia", "affirm:difficulty_falling_asleep", "affirm:early_morning_waking"),
    )
    say(
        H,
        "She's up most nights. I hear her go downstairs at four, and she sits in the kitchen.",
        ("relative_report:early_morning_waking",),
    )
    say(C, "And during the day? Energy, concentration?")
    say(
        P,
        "I'm exhausted. At work I read the same email three times and it doesn't go in. I'm a school "
        "administrator, so I can't afford to get things wrong.",
        ("affirm:fatigue", "affirm:poor_concentration", "social:school_administrator"),
    )
    say(C, "Do you feel anxious, or worried a lot of the time?")
    say(
        P,
        "All the time. I worry about everything, the kids, money, work. I get a knot in my stomach, and I feel "
        "on edge.",
        ("affirm:anxiety", "affirm:excessive_worry", "affirm:restlessness"),
    )
    tl.cough(P, cuts["S6a"], overlap=0.15, speed=0.98)
    say(C, "Have you had anything like this before?", gap=0.9)
    say(
        P,
        "I had panic attacks last year, in the spring, but not since. I did the breathing exercises, and they stopped.",
        ("resolved:panic_attacks", "history:panic_attacks_last_year"),
    )
    say(C, "Any palpitations now, or chest pain, when you feel anxious?")
    say(
        P,
        "No. Nothing like that. Just the worry, and the knot in my stomach.",
        ("deny:palpitations", "deny:chest_pain"),
    )
    say(C, "How's your appetite? Any change in your weight?")
    say(
        P,
        "About the same, really. I'm not eating any less. My weight hasn't changed.",
        ("deny:appetite_change", "deny:weight_change"),
    )
    say(
        C,
        "I need to ask you this, and I ask everyone. Have you had any thoughts of harming yourself, or that "
        "life isn't worth living?",
    )
    say(
        P,
        "No. No thoughts of harming myself. I'd never do that. I've got the kids. I just want to feel like me again.",
        ("deny:thoughts_of_self_harm", "deny:suicidal_thoughts", "protective:children"),
    )
    say(
        H,
        "She's never said anything like that to me, doctor. She's just worn out.",
        ("relative_report:no_self_harm_talk",),
    )
    say(C, "Thank you, that's really helpful. Is there anything going on at home, or at work, that's adding to it?")
    say(
        P,
        "Work's been a real pain since the merger. And my mum went into a care home in the summer. I go every day "
        "after work.",
        ("stressor:work", "stressor:mother_in_care_home", "nonclinical_symptom_word"),
        notes="'a real pain' is figurative (work stress), not a pain symptom",
    )
    say(C, "Do you take any medicines at the moment?")
    say(
        P,
        "Ibuprofen for my knee, four hundred milligrams, up to three times a day. And cetirizine, ten "
        "milligrams, for hay fever.",
        ("medication:ibuprofen_400mg_tds_prn", "medication:cetirizine_10mg_od"),
    )
    say(C, "Any allergies to medicines?")
    say(
        P,
        "Trimethoprim. I had it for a water infection, and my lips swelled up.",
        ("allergy:trimethoprim_lip_swelling",),
    )
    say(C, "Do you smoke? And how much alcohol do you drink in a week?")
    say(
        P,
        "I've never smoked. I have a glass of wine most evenings, to help me sleep. Maybe a bottle and a half "
        "over the week.",
        ("deny:smoking", "social:never_smoker", "social:alcohol_wine_most_evenings"),
    )
    say(
        C,
        "So that's around fourteen units a week. Alcohol can actually make sleep and mood worse, so it's worth "
        "cutting down.",
        ("social:alcohol_14_units_week", "advice:reduce_alcohol"),
    )
    say(
        H,
        "I've been saying that. I'm the same with my back, mind. My lower back's been killing me since I "
        "lifted the wardrobe, so I've been on the sofa most evenings.",
        ("relative_symptom:low_back_pain", "relative:husband_own_symptom"),
        notes="the husband's own back pain, not the patient's",
    )
    say(
        C,
        "Sorry to hear that, Mark. If it's not settling, do book in for yourself.",
        ("advice:relative_book_own_appointment",),
    )
    tl.cough(P, cuts["S1b"], gap=0.6)
    tl.cough(P, cuts["S1a"], gap=0.3, speed=1.03, tags=("double_cough",))
    say(
        C,
        "Claire, I'd like you to fill in this short questionnaire. It asks about the last two weeks. Take your "
        "time, I'll wait.",
        ("instruction", "questionnaire:phq9"),
        gap=0.9,
    )
    say(P, "Okay.")
    tl.pause(20.0)  # she fills in the PHQ-9 in silence
    say(P, "There you go. I wasn't sure about the last one.", gap=0.0)
    say(
        C,
        "That's fine. Your score on the questionnaire, the P H Q nine, is thirteen out of twenty seven. That "
        "fits with moderate depression.",
        ("score:phq9_13", "diagnosis:moderate_depression"),
    )
    _visitor(tl, ravdess, EMOTIONS_04[1], gap=1.8)
    say(
        C,
        "While you're here, let me check your blood pressure. Just roll your sleeve up.",
        ("exam", "instruction"),
        gap=1.5,
    )
    tl.pause(9.0)  # silent blood-pressure measurement
    say(
        C,
        "Your blood pressure is one hundred and twenty eight over eighty four, and your pulse is seventy six. "
        "That's fine.",
        ("exam", "vital:bp_128_84", "vital:pulse_76"),
        gap=0.0,
    )
    say(C, "Now, you mentioned your knee. Tell me about that.")
    say(
        P,
        "It's my right knee. It's been aching for about two months, since I was kneeling in the garden. It's "
        "worst going down the stairs, and it's stiff first thing.",
        ("affirm:right_knee_pain", "duration:knee_pain_2_months", "affirm:knee_stiffness_morning"),
    )
    say(C, "Has it ever locked, or given way on you?")
    say(
        P,
        "It's never locked. It gave way once on the stairs, but I didn't fall.",
        ("deny:knee_locking", "affirm:knee_giving_way_once"),
    )
    say(
        C,
        "Let's have a look. Pop yourself up on the couch, and roll your trouser leg up for me.",
        ("exam", "instruction"),
    )
    tl.pause(6.5)  # she gets onto the couch
    say(C, "I'm just going to feel around the knee. Tell me if anything's sore.", ("exam",), gap=0.0)
    tl.pause(5.0)  # palpation in silence
    say(P, "Ow. There, on the inside.", ("exam_response", "affirm:medial_knee_tenderness"), gap=0.0)
    say(C, "Sorry. Now bend it right up, and straighten it out again.", ("exam", "instruction"))
    tl.pause(4.0)
    _visitor(tl, ravdess, EMOTIONS_04[2], gap=0.0)
    tl.pause(2.5)
    say(C, "And I'll just check the ligaments. Relax your leg for me.", ("exam", "instruction"), gap=0.0)
    tl.pause(5.5)
    say(
        C,
        "Okay. There's mild swelling, no warmth, and it's tender along the inside of the joint. The "
        "ligaments are stable, and you've got a full range of movement, though it hurts at the end when "
        "you bend it.",
        (
            "exam",
            "finding:mild_swelling_right_knee",
            "finding:no_warmth",
            "finding:medial_joint_line_tenderness",
            "finding:ligaments_stable",
            "finding:full_range_pain_end_flexion",
        ),
        gap=0.0,
    )
    say(
        C,
        "You can come down now. I think this is early wear and tear, osteoarthritis, on the inside of the "
        "knee. Nothing torn.",
        ("diagnosis:right_knee_osteoarthritis_early",),
    )
    say(P, "Is that from getting old?")
    tl.cough(P, cuts["S6b"], overlap=0.2)
    say(
        C,
        "Partly, it's very common at our age. So, let me go through the plan.",
        gap=0.8,
    )
    say(
        C,
        "For your mood, I'd suggest an antidepressant called sertraline. Fifty milligrams, once a day, in the "
        "morning. It takes two to four weeks to start working, and you might feel a bit sick for the first "
        "week.",
        ("plan:start_sertraline_50mg_od",),
    )
    say(
        C,
        "I'd also like you to refer yourself to talking therapies. Here's the leaflet with the number. They "
        "can help with the worry and the sleep.",
        ("plan:self_referral_talking_therapies",),
    )
    say(
        C,
        "Because of the sertraline, please stop the ibuprofen tablets. Use ibuprofen gel on the knee "
        "instead, and paracetamol, two tablets up to four times a day.",
        ("plan:stop_oral_ibuprofen", "plan:topical_ibuprofen_gel", "plan:paracetamol_1g_qds_prn"),
    )
    say(
        C,
        "I'll refer you to physiotherapy for the knee, and I'd like a blood test to check your thyroid and "
        "your blood count.",
        ("plan:physiotherapy_referral", "plan:blood_test_thyroid_fbc"),
    )
    say(
        C,
        "For sleep, try to keep the same bedtime, no screens for an hour before, and leave the wine out for "
        "a few weeks.",
        ("plan:sleep_hygiene", "advice:reduce_alcohol"),
    )
    say(P, "I can do that. When do I come back?")
    say(
        C,
        "I'd like to see you again in two weeks, on Tuesday the twentieth of May, at ten forty.",
        ("plan:follow_up_2_weeks", "plan:follow_up_tuesday_20_may_1040"),
    )
    say(
        C,
        "And if things get worse, or you ever have thoughts of harming yourself, call us, or the crisis line on "
        "the leaflet, or nine nine nine, straight away.",
        ("safety_net",),
    )
    say(H, "We will. I'll keep an eye on her.")
    say(P, "Thank you, doctor. It's a relief to say it out loud, to be honest.", ("expressed:relief",))
    tl.cough(P, cuts["S5a"], gap=0.6)
    say(C, "You're welcome. Take care, both of you.", gap=0.8)
    _visitor(tl, ravdess, EMOTIONS_04[3], gap=2.5)
    tl.pause(4.0)  # the door closes; the GP reads his notes

    # ------------------------------------------------------------------ 3. dictation
    tl.begin(
        "dictation",
        "The GP alone dictates a summary letter of the consultation in clinical register (one spoken "
        "correction); a visitor's line from the corridor (RAVDESS)",
        "consultation",
    )
    tl.pause(1.0)
    say(
        C,
        "Dictation. Letter for the notes, patient Claire Dawson, date of birth twelfth of June, nineteen "
        "seventy two. Seen with her husband.",
        ("dictation",),
        gap=0.0,
    )
    say(
        C,
        "Presenting complaint: three months of low mood, anhedonia, initial insomnia and early morning "
        "waking, fatigue and poor concentration, with generalised anxiety.",
        (
            "dictation",
            "affirm:low_mood",
            "affirm:anhedonia",
            "affirm:insomnia",
            "affirm:early_morning_waking",
            "affirm:fatigue",
            "affirm:poor_concentration",
            "affirm:anxiety",
        ),
    )
    say(
        C,
        "No suicidal ideation or thoughts of self harm. Appetite and weight unchanged. Previous panic "
        "attacks, resolved, none for over a year.",
        (
            "dictation",
            "deny:suicidal_thoughts",
            "deny:thoughts_of_self_harm",
            "deny:appetite_change",
            "resolved:panic_attacks",
        ),
    )
    say(
        C,
        "Alcohol approximately twelve, correction, fourteen units per week. Never smoker. Allergy, "
        "trimethoprim, lip swelling.",
        ("dictation", "social:alcohol_14_units_week", "allergy:trimethoprim_lip_swelling", "correction"),
        notes="the GP corrects himself: fourteen units, not twelve",
    )
    say(
        C,
        "P H Q nine, thirteen. Blood pressure one two eight over eight four, pulse seventy six.",
        ("dictation", "score:phq9_13", "vital:bp_128_84", "vital:pulse_76"),
    )
    tl.pause(4.5)  # he checks the notes
    _visitor(tl, ravdess, EMOTIONS_04[4], gap=0.0)
    say(
        C,
        "Right knee: two months of medial knee pain. Mild effusion, no warmth, medial joint line tenderness, "
        "ligaments stable, full range with pain at end flexion.",
        ("dictation", "exam", "finding:mild_swelling_right_knee", "finding:no_warmth"),
        gap=2.0,
    )
    say(
        C,
        "Impression: moderate depression, with anxiety and insomnia. Right knee pain, likely early medial "
        "compartment osteoarthritis.",
        ("dictation", "diagnosis:moderate_depression", "diagnosis:right_knee_osteoarthritis_early"),
    )
    say(
        C,
        "Plan: sertraline fifty milligrams once daily. Oral ibuprofen stopped, topical N S A I D and "
        "paracetamol instead. Self referral to talking therapies, physiotherapy referral, thyroid function "
        "and full blood count.",
        (
            "dictation",
            "plan:start_sertraline_50mg_od",
            "plan:stop_oral_ibuprofen",
            "plan:topical_ibuprofen_gel",
            "plan:self_referral_talking_therapies",
            "plan:physiotherapy_referral",
            "plan:blood_test_thyroid_fbc",
        ),
    )
    say(
        C,
        "Safety netting advice given, including the crisis line. Review in two weeks, on the twentieth of "
        "May. End of dictation.",
        ("dictation", "safety_net", "plan:follow_up_tuesday_20_may_1040"),
    )
