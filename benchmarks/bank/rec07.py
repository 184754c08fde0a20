"""bank_rec_07: GP surgery waiting area -> paediatric same-day consultation (left ear infection) -> phone follow-up.

Imported by ``make_recordings.py`` (``--only bank_rec_07``); it uses that module's ``Timeline``.

* ``gp_waiting_area``: a GP surgery waiting area on a weekday morning: a grandfather reads a children's picture
  book aloud to his granddaughter (Flite ``awb``; symptom words used non-clinically: a dragon "burning up with
  fever to win", a knight "sick of waiting"), the receptionist (Flite ``kal16``) answers the desk phone (one side
  heard), other people's acted emotional remarks (RAVDESS, actors 01/02/05/24 only, clips not used in
  bank_rec_02-06), a bystander's real coughs; the mother (Flite ``slt``) and her six-year-old son (eSpeak NG RP
  ``+f5`` with the pitch raised to 90, a child's voice) wait; he coughs.
* ``consultation``: a male GP (eSpeak NG RP ``+m7``, a voice never used before) sees the boy with his mother,
  who answers most questions in the third person ("he's been coughing at night", "he hasn't had any rash"); the
  boy says a few things himself ("my ear hurts", "I don't like the medicine"); the mother's own asthma and
  penicillin allergy, his sister's sore throat last week (better now), his grandfather's ear trouble and diabetes
  (family history); present (left earache, fever, night cough), denied (rash, vomiting, breathing difficulty,
  drowsiness, neck stiffness, ear discharge), resolved (runny nose last week) and hedged ("maybe a bit off his
  food, but it's hard to say") symptoms; Calpol and ibuprofen doses with times; the examination spoken aloud
  after silent pauses (temperature 38.3, heart rate, oxygen 98 %, breathing count, chest clear, red bulging left
  eardrum); the boy gets upset before his sore ear is looked at and the mother says she is worried (TTS: the words
  carry it, the voices do not); one RAVDESS line of another parent in the corridor; real coughs of the boy (two
  overlapping the end of speech); diagnosis (left acute otitis media), plan (regular pain relief, a back-up
  amoxicillin prescription, review if not better in 3 days, a telephone review on Thursday) and a conditional
  safety-net read back by the mother.
* ``phone_followup``: three days later the GP rings the mother (band-limited 300-3400 Hz, both sides): the
  earache is better, the fever gone since yesterday, the night cough settling, but a new yellow discharge from the
  left ear since this morning; the GP decides (start the amoxicillin, keep the ear dry, review in two weeks) and
  safety-nets.

No throat clearing, no crying sound and no door knock: no honestly licensed real recording is available offline,
and sound events other than the phone tones are never synthesised.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from make_recordings import READER_DBFS, SAMPLE_RATE, CoughCut, Placed, Speaker, Timeline, active_rms_dbfs, fade

CORRIDOR_GAIN_DB = -3.0  # RAVDESS parent heard through the consulting-room door (about -29 dBFS)

EMOTIONS_07 = [
    "03-01-03-01-01-01-05.flac",  # actor 05 happy normal, kids (waiting area)
    "03-01-05-02-02-01-01.flac",  # actor 01 angry strong, dogs (waiting area)
    "03-01-04-01-02-01-02.flac",  # actor 02 sad normal, dogs (waiting area)
    "03-01-06-01-02-01-24.flac",  # actor 24 fearful normal, dogs (waiting area)
    "03-01-06-02-01-01-06.flac",  # actor 06 fearful strong, kids (corridor, heard in the consultation)
]

SPEAKERS_07 = {
    "bank07_receptionist": Speaker(
        "receptionist",
        "Marcus",
        "kal16",
        "M",
        "GP surgery receptionist; answers the desk phone in the waiting area (synthetic)",
    ),
    "bank07_reader": Speaker(
        "reader",
        None,
        "awb",
        "M",
        "a grandfather in the waiting area reading a picture book aloud to his granddaughter; not part of the "
        "consultation (synthetic)",
    ),
    "bank07_clinician": Speaker(
        "clinician",
        "Doctor Owen Pryce",
        "espeak:en-gb-x-rp+m7",
        "M",
        "GP at Millbrook Surgery; sees the boy on the same day and rings his mother three days later (synthetic)",
    ),
    "bank07_patient": Speaker(
        "patient",
        "Alfie Walsh",
        "espeak:en-gb-x-rp+f5@p90",
        "M",
        "patient, a six-year-old boy with a left earache and fever (synthetic child's voice: eSpeak NG with the "
        "pitch raised; real coughs)",
    ),
    "bank07_mother": Speaker(
        "relative",
        "Kerry Walsh",
        "slt",
        "F",
        "the patient's mother, who answers most questions for him; has asthma and a penicillin allergy herself "
        "(synthetic)",
    ),
    "bank07_bystander_1": Speaker(
        "bystander",
        None,
        None,
        "F",
        "another person in the GP surgery waiting area who coughs (real BMC coughs, source S3)",
    ),
}


def _tighten(tl: Timeline, p: Placed, below_db: float = 19.0) -> Placed:
    """Cut a RAVDESS clip's near-silent lead-in and tail (as in bank_rec_05/06), keeping the voice where it was."""
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
    """A RAVDESS remark of another person in the GP surgery waiting area."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    p.fields["tags"] = [*p.fields["tags"], "waiting_area"]  # type: ignore[misc]
    p.fields["notes"] = (
        "acted emotional remark by another person in the GP surgery waiting area (RAVDESS, CC BY-NC-SA 4.0; "
        "quiet lead-in and tail cut); the same clip is in the shared ser-train set"
    )
    return p


def _corridor(tl: Timeline, ravdess: Path, name: str, gap: float | None = None) -> Placed:
    """A RAVDESS line of another parent in the corridor, heard through the consulting-room door (quieter)."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    p.audio = p.audio * 10 ** (CORRIDOR_GAIN_DB / 20)
    p.fields["tags"] = [*p.fields["tags"], "background", "corridor"]  # type: ignore[misc]
    p.fields["notes"] = (
        "acted emotional line by another parent in the corridor, heard through the consulting-room door, not the "
        "mother or the patient (RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the "
        "shared ser-train set"
    )
    return p


def build_rec07(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """GP waiting area -> paediatric consultation (left acute otitis media) with the mother -> phone follow-up."""
    Q, R, C, P, M = "bank07_receptionist", "bank07_reader", "bank07_clinician", "bank07_patient", "bank07_mother"
    B = "bank07_bystander_1"
    say = tl.say
    tl.tts_name = "Flite TTS (receptionist, reader, mother) and eSpeak NG TTS (GP, the child)"
    for spk_id in ("ravdess_actor01", "ravdess_actor02", "ravdess_actor05", "ravdess_actor06", "ravdess_actor24"):
        actor = int(spk_id[-2:])
        tl.speakers[spk_id] = Speaker(
            "bystander",
            None,
            None,
            "M" if actor % 2 else "F",
            f"RAVDESS actor {actor:02d} (real acted speech), another person at the GP surgery",
        )
    ncw = ("nonclinical_symptom_word", "picture_book")
    book = "read aloud from a children's picture book; symptom words used figuratively, not about anyone present"

    # ------------------------------------------------------------------ 1. waiting area
    tl.begin(
        "gp_waiting_area",
        "A GP surgery waiting area on a weekday morning: a grandfather reads a picture book aloud to his "
        "granddaughter (symptom words used non-clinically), the desk phone rings and the receptionist answers it "
        "(one side heard), other people's acted emotional remarks (RAVDESS), a bystander coughs; the mother and "
        "her six-year-old son wait, and he coughs",
        "waiting",
    )
    tl.pause(1.0)
    say(R, "Shall we read the dragon one again? Sit up here, then.", gap=0, level=READER_DBFS)
    say(
        R,
        "Once upon a time, there was a little red dragon called Ember, who wanted to win the great dragon race.",
        ("picture_book",),
        level=READER_DBFS,
        notes=book,
    )
    say(
        R,
        "Ember was burning up with fever to win. She had a sore head from thinking about it all night long.",
        ncw,
        level=READER_DBFS,
        notes=book,
    )
    say(
        R,
        "But the old knight at the starting line was sick of waiting. Hurry up, he grumbled, my poor back is "
        "killing me.",
        ncw,
        level=READER_DBFS,
        notes=book,
    )
    tl.ring(gap=1.2, desk=True)
    say(
        Q,
        "Good morning, Millbrook Surgery, Marcus speaking. The duty doctor is on until six. I'll put you on the "
        "list and she'll ring you back. You're welcome. Bye.",
        ("phone_one_side",),
        gap=0.6,
        notes="the receptionist answers the desk phone; only his side is heard",
    )
    _waiting(tl, ravdess, EMOTIONS_07[0], gap=1.6)
    tl.cough(B, cuts["S3a"], gap=1.7)
    tl.cough(B, cuts["S3b"], gap=0.4, tags=("double_cough",))
    say(
        R,
        "Ember flapped so hard that her wings ached, and her tummy felt all fizzy. At last she crossed the line, "
        "and everybody cheered.",
        ncw,
        gap=1.8,
        level=READER_DBFS,
        notes=book,
    )
    say(R, "The end. Did you like that one?", level=READER_DBFS)
    _waiting(tl, ravdess, EMOTIONS_07[1], gap=2.2)
    say(P, "Mummy, how long is it going to be?", gap=1.6)
    say(M, "Not long now, Alfie. You're next after the lady with the pram.")
    tl.cough(P, cuts["S6a"], gap=0.7)
    say(
        M,
        "There's that cough again. Here, have a sip of your water.",
        gap=0.8,
        notes="the mother's remark about her son's cough",
    )
    _waiting(tl, ravdess, EMOTIONS_07[2], gap=2.0)
    tl.pause(6.0)  # nobody speaks
    _waiting(tl, ravdess, EMOTIONS_07[3], gap=1.0)
    say(C, "Alfie Walsh? Come on through to room two, please.", gap=2.5)
    say(M, "That's us. Bring your dinosaur, Alfie.")
    tl.pause(3.5)  # they walk to the consulting room

    # ------------------------------------------------------------------ 2. consultation
    tl.begin(
        "consultation",
        "Same-day GP consultation of a six-year-old boy with his mother, who answers most questions for him: left "
        "earache, fever and a night cough; denials (rash, vomiting, breathing difficulty, drowsiness, neck "
        "stiffness, ear discharge); a runny nose last week, now gone; a hedged reduced appetite; Calpol and "
        "ibuprofen given with times; the mother's own asthma and penicillin allergy, his sister's sore throat last "
        "week, his grandfather's history; examination spoken aloud after silent pauses (temperature, oxygen, heart "
        "rate, breathing count, chest, ears, throat); the boy upset and the mother worried; real coughs; left acute "
        "otitis media; pain relief, a back-up amoxicillin prescription, review and safety-net",
        "consultation",
    )
    tl.pause(1.5)
    say(
        C,
        "Come in, both of you, and have a seat. I'm Doctor Pryce. And you must be Alfie. How old are you now, Alfie?",
        gap=0.0,
    )
    say(P, "I'm six. And a half.")
    say(M, "I'm Kerry, his mum.", ("identity",))
    say(C, "Nice to meet you. So, what's been happening?")
    say(
        M,
        "He woke up last night screaming about his ear. He's been really hot since yesterday afternoon, and he's "
        "been coughing at night for about four days.",
        (
            "affirm:earache",
            "affirm:fever_since_yesterday_afternoon",
            "affirm:night_cough_4_days",
            "relative_report:earache",
            "relative_report:fever_since_yesterday_afternoon",
            "relative_report:night_cough_4_days",
        ),
        notes="the mother reports her son's symptoms (third person)",
    )
    say(C, "Alfie, can you show me which ear is sore?")
    say(P, "This one. My ear hurts. It's really sore inside.", ("affirm:earache", "affirm:left_earache"))
    say(
        M,
        "The left one. He keeps pulling at it.",
        ("affirm:left_earache", "relative_report:pulling_left_ear"),
    )
    say(C, "Have you taken his temperature at home?")
    say(
        M,
        "Yes, thirty eight point nine, at about six o'clock this morning, with the ear thermometer.",
        ("affirm:fever", "relative_report:temperature_38_9_at_0600"),
    )
    say(C, "And tell me about the cough.")
    say(
        M,
        "It's a dry, tickly cough, mostly at night when he lies down. He's fine in the day. It started on Thursday.",
        ("affirm:night_cough", "affirm:dry_cough", "relative_report:night_cough_since_thursday"),
    )
    tl.cough(P, cuts["S1a"], overlap=0.2)
    say(C, "Has he had a cold recently?", gap=0.9)
    say(
        M,
        "He had a runny nose last week, but that's gone now. It cleared up by Friday.",
        ("resolved:runny_nose_last_week", "relative_report:runny_nose_resolved"),
    )
    say(C, "Any rash anywhere?")
    say(
        M,
        "No, he hasn't had any rash. I checked him all over this morning.",
        ("deny:rash", "relative_report:no_rash"),
    )
    say(C, "Has he been sick at all, any vomiting?")
    say(M, "No, he's not been sick. Not once.", ("deny:vomiting", "relative_report:no_vomiting"))
    say(C, "Any diarrhoea?")
    say(M, "No, his tummy's been fine.", ("deny:diarrhoea", "relative_report:no_diarrhoea"))
    say(C, "Any trouble with his breathing? Breathing fast, or sucking in under his ribs?")
    say(
        M,
        "No, his breathing's been fine. No wheezing either.",
        ("deny:breathing_difficulty", "deny:wheeze", "relative_report:no_breathing_difficulty"),
    )
    say(C, "Has he been drowsy, or hard to wake up?")
    say(
        M,
        "No, he's not drowsy. He's tired, but he's still watching his cartoons and chatting away.",
        ("deny:drowsiness", "relative_report:no_drowsiness", "affirm:tiredness"),
    )
    say(C, "Any stiff neck, or does bright light bother his eyes?")
    say(
        M,
        "No. He's moving his head around fine, and the light doesn't bother him.",
        ("deny:neck_stiffness", "deny:photophobia", "relative_report:no_neck_stiffness"),
    )
    say(C, "Has anything come out of the ear? Any fluid or pus?")
    say(M, "No, nothing's come out of it.", ("deny:ear_discharge", "relative_report:no_ear_discharge"))
    say(C, "Is he eating and drinking?")
    say(
        M,
        "He's drinking well. Maybe a bit off his food, but it's hard to say. He's always fussy.",
        ("affirm:drinking_well", "uncertain:reduced_appetite", "hedge", "relative_report:maybe_off_food"),
        notes="hedged answer: whether he is off his food is uncertain",
    )
    say(C, "And he's going to the toilet as normal?")
    say(M, "Yes, he's weeing as normal.", ("deny:reduced_urine_output",))
    say(C, "What have you given him for it so far?")
    say(
        M,
        "Calpol. The six plus one. I gave him five millilitres at six o'clock this morning, and another five "
        "millilitres at eleven. So that's two doses today.",
        (
            "medication:paracetamol_suspension_250mg_5ml_5ml_at_0600_today",
            "medication:paracetamol_suspension_5ml_at_1100_today",
            "medication:paracetamol_2_doses_today",
            "relative_report:medication_given",
        ),
        notes="Calpol Six Plus is paracetamol 250 mg in 5 ml",
    )
    say(
        M,
        "And ibuprofen once, last night, at about ten o'clock, when he woke up screaming. Five millilitres of that "
        "as well.",
        ("medication:ibuprofen_suspension_5ml_once_at_2200_last_night", "relative_report:medication_given"),
    )
    tl.cough(P, cuts["S5a"], gap=0.6)
    say(C, "Does he take any regular medicines, or inhalers?", gap=0.8)
    say(
        M,
        "No, nothing regular. The inhaler in my bag is mine. I've got asthma.",
        ("deny:regular_medication", "relative_symptom:mother_asthma", "relative:mother_own_condition"),
        notes="the mother's own asthma, not the child's",
    )
    say(C, "Is Alfie allergic to any medicines?")
    say(
        M,
        "No, he's not allergic to anything. I'm the one with the penicillin allergy. I come out in hives with it.",
        (
            "allergy:none_known",
            "deny:drug_allergy",
            "relative_allergy:mother_penicillin_hives",
            "relative:mother_own_condition",
        ),
        notes="the child has no allergy; the penicillin allergy (hives) is the mother's own",
    )
    say(C, "Has he had antibiotics before? Amoxicillin, for example?")
    say(
        M,
        "Yes, amoxicillin for an ear infection when he was three. He was fine with it, no reaction at all.",
        ("resolved:ear_infection_age_3", "history:amoxicillin_tolerated"),
    )
    say(P, "I don't like the medicine. It's yucky.", ("expressed:dislikes_medicine",))
    say(C, "The one I might give you tastes of banana, Alfie. It's not so bad.")
    say(C, "Has anyone else at home been poorly?")
    say(
        M,
        "His big sister, Ruby, had a sore throat last week, and a temperature for a day. She's better now, she's "
        "back at school.",
        (
            "relative_symptom:sister_sore_throat_last_week",
            "relative_symptom:sister_fever_one_day",
            "relative:sister_resolved",
            "contact:sister_sore_throat",
        ),
        notes="the sister's illness, not the patient's; now better",
    )
    say(C, "Is he up to date with all his jabs?")
    say(
        M,
        "Yes, all of them. He had his preschool booster.",
        ("history:immunisations_up_to_date",),
    )
    say(C, "Does anything run in the family? Ear problems, or anything else?")
    say(
        M,
        "My dad, his grandad, had lots of ear infections as a boy, and he's deaf in one ear now. And he's got "
        "type two diabetes.",
        (
            "family_history:grandfather_recurrent_ear_infections",
            "family_history:grandfather_deaf_one_ear",
            "family_history:grandfather_type_2_diabetes",
        ),
    )
    say(
        M,
        "I'm sorry, I'm just really worried. My friend's little boy had meningitis last year, and it started with "
        "a temperature.",
        ("expressed:worried", "concern:meningitis"),
        notes="the mother is anxious (the words carry it; the synthetic voice has no emotional prosody)",
    )
    say(
        C,
        "That's completely understandable. I'll check him over carefully, and I'll tell you exactly what I find.",
        ("reassurance",),
    )
    say(
        C,
        "Right, Alfie. First, this goes in your good ear for your temperature. It doesn't hurt.",
        ("exam", "instruction"),
    )
    tl.pause(5.0)  # the thermometer
    say(C, "Thirty eight point three. So he still has a temperature.", ("exam", "vital:temperature_38_3"), gap=0.0)
    say(C, "Now this little clip goes on your finger, like a peg.", ("exam", "instruction"))
    tl.pause(8.0)  # the oximeter settles
    say(
        C,
        "His oxygen level is ninety eight percent, and his heart rate is one hundred and twenty two.",
        ("exam", "vital:oxygen_saturation_98", "vital:heart_rate_122"),
        gap=0.0,
    )
    say(
        C,
        "Now just sit still on Mum's lap for a moment.",
        ("exam", "instruction"),
        notes="the GP counts the boy's breathing without saying so",
    )
    tl.pause(15.0)  # silent breathing count
    say(
        C,
        "Twenty four breaths a minute. That's normal for his age.",
        ("exam", "vital:respiratory_rate_24"),
        gap=0.0,
    )
    say(
        C,
        "Let me listen to your chest, Alfie. Big breaths in and out, like you're blowing out candles.",
        ("exam", "instruction"),
    )
    tl.pause(6.0)  # listening
    tl.cough(P, cuts["S6b"], gap=0.0, notes="the boy coughs while the GP listens to his chest")
    tl.pause(3.5)  # still listening
    say(
        C,
        "His chest is clear. No wheeze and no crackles. His hands are warm, and there's no rash on his skin.",
        ("exam", "finding:chest_clear", "finding:no_wheeze", "finding:no_rash", "finding:warm_peripheries"),
        gap=0.0,
    )
    say(
        C,
        "Now I'm going to look in your ears with my little torch. The good ear first.",
        ("exam", "instruction"),
    )
    tl.pause(6.0)  # right ear
    say(C, "The right eardrum looks normal.", ("exam", "finding:right_eardrum_normal"), gap=0.0)
    say(C, "Now the sore one.", ("exam", "instruction"))
    say(
        P,
        "No! I don't want you to look in my sore ear! It hurts! I want to go home!",
        ("expressed:upset", "distress"),
        notes="the boy is upset and tearful (the words carry it; the synthetic voice has no crying in it)",
    )
    say(
        M,
        "It's all right, sweetheart. Hold my hand. The doctor will be really quick, I promise.",
        ("comforting",),
    )
    _corridor(tl, ravdess, EMOTIONS_07[4], gap=1.0)
    tl.pause(5.0)  # left ear
    say(
        C,
        "All done. Well done, Alfie. The left eardrum is red and bulging. There's no hole in it, and no discharge.",
        (
            "exam",
            "finding:left_eardrum_red_bulging",
            "finding:left_eardrum_not_perforated",
            "finding:no_ear_discharge",
        ),
        gap=0.0,
    )
    say(
        C,
        "Open wide and say ah for me.",
        ("exam", "instruction"),
    )
    tl.pause(3.0)
    say(
        C,
        "His throat is a little red, but the tonsils aren't swollen, and there's no pus on them. The glands in his "
        "neck are small, and his neck moves freely.",
        ("exam", "finding:throat_mildly_red", "finding:no_tonsillar_exudate", "finding:neck_supple"),
        gap=0.0,
    )
    tl.cough(P, cuts["S1b"], gap=0.4, speed=0.97)
    say(
        C,
        "So, Alfie has a middle ear infection on the left side. We call it acute otitis media. The cough at night "
        "is most likely left over from his cold, mucus running down the back of his throat when he lies down.",
        ("diagnosis:left_acute_otitis_media", "diagnosis:post_viral_cough"),
        gap=0.8,
    )
    say(
        C,
        "There's nothing to suggest meningitis today. He's alert, his neck is fine, and there's no rash.",
        ("reassurance", "finding:no_signs_of_meningitis"),
    )
    say(M, "Oh, thank goodness.", ("expressed:relieved",))
    say(
        C,
        "Most ear infections get better on their own within three days or so, without antibiotics. The most "
        "important thing is pain relief.",
        ("plan:watchful_waiting",),
    )
    say(
        C,
        "Give him Calpol six plus regularly, five millilitres up to four times a day, at least four hours apart. "
        "No more than four doses in twenty four hours.",
        ("plan:paracetamol_250mg_5ml_5ml_up_to_qds",),
    )
    say(
        C,
        "If he still needs more, you can give ibuprofen in between, seven and a half millilitres up to three times "
        "a day, with some food.",
        ("plan:ibuprofen_7_5ml_up_to_tds_with_food",),
    )
    say(
        C,
        "I'm also going to give you a back-up prescription for an antibiotic, amoxicillin. Only start it if he's "
        "no better in three days, or sooner if he gets worse.",
        ("plan:delayed_antibiotic_prescription", "plan:start_only_if_not_better_3_days_or_worse"),
    )
    say(
        C,
        "It's amoxicillin, two hundred and fifty milligrams in five millilitres. Ten millilitres three times a day, "
        "for five days.",
        ("plan:amoxicillin_250mg_5ml_10ml_tds_5_days",),
    )
    say(M, "Is that all right for him, with my penicillin allergy?", ("concern:penicillin_allergy",))
    say(
        C,
        "Yes. Your allergy doesn't mean he has one. He had amoxicillin at three with no problems, so it's safe for "
        "him.",
        ("deny:penicillin_allergy", "reassurance"),
        notes="the penicillin allergy is the mother's; the child has none",
    )
    say(P, "I still don't like the medicine.", ("expressed:dislikes_medicine",))
    say(
        C,
        "Keep him off school until his temperature has settled. And if he's not better in three days, ring us. "
        "I'll book a telephone call with me on Thursday anyway, to see how he's getting on.",
        ("plan:off_school_until_fever_settles", "plan:review_if_not_better_3_days", "plan:telephone_review_thursday"),
    )
    say(
        C,
        "If he gets a stiff neck, or a rash that doesn't fade when you press a glass on it, or he becomes very "
        "drowsy or floppy, call nine nine nine. If he gets a swelling or redness behind the ear, or his ear starts "
        "to stick out, or he's struggling to breathe, bring him straight back, or go to A and E.",
        ("safety_net",),
        notes="conditional safety-net advice, not symptoms he has",
    )
    say(
        M,
        "So a stiff neck, or a rash that doesn't fade, nine nine nine. Swelling behind the ear, come straight back. "
        "Got it.",
        ("safety_net", "read_back"),
    )
    say(M, "Thank you, doctor. I feel a lot better now.", ("expressed:relieved",))
    say(P, "Can I have a sticker?")
    say(C, "Of course you can. Here you are. You were very brave.")
    tl.cough(P, cuts["S5a"], overlap=0.15, speed=1.04)
    tl.pause(3.0)

    # ------------------------------------------------------------------ 3. phone follow-up
    tl.begin(
        "phone_followup",
        "Telephone follow-up three days later (band-limited 300-3400 Hz, both sides): the GP rings the mother; the "
        "earache is better, the fever gone since yesterday, the night cough settling, a new yellow discharge from "
        "the left ear; the GP decides to start the amoxicillin, gives ear care advice, a review in two weeks and a "
        "safety-net",
        "phone",
        phone=True,
    )
    tl.pause(1.0)
    tl.ring(gap=0)
    say(M, "Hello?")
    say(
        C,
        "Hello, is that Kerry Walsh? It's Doctor Pryce from Millbrook Surgery, ringing about Alfie, as we arranged.",
    )
    say(M, "Oh, yes. Hello, doctor. Thanks for calling.")
    say(C, "How is he getting on?")
    say(
        M,
        "Much better in himself. The earache is a lot better. He only needed Calpol once yesterday, at bedtime.",
        ("improving:earache", "relative_report:earache_better", "medication:paracetamol_once_yesterday_bedtime"),
    )
    say(C, "And the temperature?")
    say(
        M,
        "The fever's gone. He's not had a temperature since yesterday morning. It just settled. It was thirty six "
        "point eight this morning.",
        (
            "resolved:fever_since_yesterday_morning",
            "relative_report:fever_settled",
            "relative_report:temperature_36_8_this_morning",
        ),
    )
    say(
        M,
        "He was worse on Monday night, mind you. He was up crying with it at two in the morning. But it settled "
        "after some ibuprofen.",
        (
            "worsened:earache_monday_night",
            "resolved:earache_monday_night_episode",
            "medication:ibuprofen_monday_night",
        ),
        notes="a past worse spell, since settled",
    )
    say(C, "And the cough at night?")
    say(
        M,
        "Still there a bit, but it's getting better. He slept right through last night.",
        ("improving:night_cough", "relative_report:night_cough_improving"),
    )
    say(
        M,
        "But this morning there was yellow gooey stuff on his pillow, coming out of his left ear. And it smells a bit.",
        ("affirm:left_ear_discharge", "new_symptom:left_ear_discharge", "relative_report:yellow_ear_discharge"),
        notes="a new symptom since the consultation",
    )
    say(C, "Has the pain got worse since the discharge started?")
    say(
        M,
        "No, actually, he says it feels better. Less pressure, he said.",
        ("deny:pain_worse", "improving:earache"),
    )
    say(C, "Any swelling or redness behind the ear? Is the ear sticking out at all?")
    say(M, "No. Behind his ear looks normal.", ("deny:swelling_behind_ear", "relative_report:no_mastoid_swelling"))
    say(C, "Has he been sick, or had a rash, or a stiff neck?")
    say(M, "No, none of those.", ("deny:vomiting", "deny:rash", "deny:neck_stiffness"))
    say(C, "Has he started the amoxicillin?")
    say(
        M,
        "No, I haven't started it. I've still got the prescription. He was getting better, so I waited.",
        ("medication:amoxicillin_not_started",),
    )
    say(
        C,
        "That was the right thing to do. The discharge usually means the eardrum has made a tiny hole to let the "
        "pus out. That's why the pain eased. It normally heals up by itself in a couple of weeks.",
        ("diagnosis:left_acute_otitis_media_with_perforation", "reassurance"),
    )
    say(
        C,
        "But now there's discharge, I'd like him to start the amoxicillin today. Ten millilitres, three times a "
        "day, for five days.",
        ("plan:start_amoxicillin_today", "plan:amoxicillin_250mg_5ml_10ml_tds_5_days"),
    )
    say(
        C,
        "Wipe away what comes out, but don't put anything in the ear, no cotton buds. Keep it dry, and no "
        "swimming for now.",
        ("plan:keep_ear_dry", "plan:no_cotton_buds", "plan:no_swimming"),
    )
    say(
        C,
        "I'd like to see him in two weeks, to check the eardrum has healed and to check his hearing. I'll ask "
        "reception to ring you with a time.",
        ("plan:review_2_weeks_eardrum_and_hearing",),
    )
    say(
        C,
        "If the pain gets worse again, the fever comes back, or there's swelling behind the ear, ring us straight "
        "away. If he gets a stiff neck or becomes drowsy, call nine nine nine.",
        ("safety_net",),
        notes="conditional safety-net advice, not symptoms he has",
    )
    say(
        M,
        "Pain worse, fever back, or swelling behind the ear, ring you. Stiff neck, nine nine nine. Okay.",
        ("safety_net", "read_back"),
    )
    say(
        M,
        "Oh, and Ruby's fine now. Her sore throat's completely gone.",
        ("relative_symptom:sister_sore_throat_resolved", "relative:sister_resolved"),
        notes="the sister's illness, not the patient's",
    )
    say(C, "Good. I'm glad they're both on the mend. Bye for now.")
    say(M, "Thanks, doctor. Bye.")
    tl.pause(1.5)
