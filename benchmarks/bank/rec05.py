"""bank_rec_05: pharmacy counter -> pharmacist's structured medication review (heart failure) -> hospital phone call.

Imported by ``make_recordings.py`` (``--only bank_rec_05``); it uses that module's ``Timeline``.

* ``pharmacy_counter``: a community pharmacy's counter and waiting chairs: the counter assistant (Flite ``slt``)
  serves and calls people, other customers' acted emotional remarks (RAVDESS, actors 01/02/05/06/24 only, clips
  not used in bank_rec_02-04), a customer's real cough, a ~9 s quiet stretch; the patient and her son arrive for
  her medication review and chat.
* ``medication_review``: the community pharmacist (Flite ``kal16``, a clinician for the first time) does a
  structured medication review of an 81-year-old woman with heart failure, atrial fibrillation and past gout
  (eSpeak NG Scottish female) with her adult son (eSpeak NG American male), who answers for her at times: doses
  and frequencies, missed water tablets, an over-the-counter ibuprofen, a dry cough on ramipril (real coughs,
  two overlapping the end of speech), dizziness on standing; denials (no ankle swelling, no breathlessness lying
  flat, no chest pain, no bleeding, no falls), a resolved gout attack, the son's own gout, a family history,
  a penicillin allergy, weight, sitting and standing blood pressure, pulse and oxygen saturation read out,
  silent pauses (blood pressure, reading the record), an interruption (the consulting-room phone rings and the
  pharmacist answers it; then the assistant puts her head round the door), a safety-net and the plan.
* ``phone_follow_up``: four days later a hospital heart-failure pharmacist (eSpeak NG RP female) rings the son
  (telephone band 300-3400 Hz, both sides heard) about the medicine change: ramipril stopped because of the
  cough, sacubitril with valsartan started after a 36-hour gap, a blood test, what stays the same, a safety-net.

No throat clearing and no door knock: no honestly licensed real recording is available offline, and sound
events other than the phone tones are never synthesised.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from make_recordings import SAMPLE_RATE, CoughCut, Placed, Speaker, Timeline, active_rms_dbfs, fade

SHOP_FLOOR_GAIN_DB = -3.0  # RAVDESS customer heard through the consulting-room door (about -29 dBFS)

EMOTIONS_05 = [
    "03-01-05-01-01-02-06.flac",  # actor 06 angry normal, kids (counter)
    "03-01-03-02-02-02-24.flac",  # actor 24 happy strong, dogs (counter)
    "03-01-04-01-02-02-01.flac",  # actor 01 sad normal, dogs (counter)
    "03-01-07-02-01-01-05.flac",  # actor 05 disgust strong, kids (counter)
    "03-01-08-01-01-01-02.flac",  # actor 02 surprised normal, kids (counter)
    "03-01-06-02-01-02-06.flac",  # actor 06 fearful strong, kids (shop floor, heard in the review)
]

SPEAKERS_05 = {
    "bank05_assistant": Speaker(
        "pharmacy_assistant",
        "Kelly",
        "slt",
        "F",
        "pharmacy counter assistant; serves customers, later puts her head round the consulting-room door (synthetic)",
    ),
    "bank05_clinician": Speaker(
        "clinician",
        "Amir Hussain",
        "kal16",
        "M",
        "community pharmacist doing a structured medication review in the pharmacy's consultation room (synthetic)",
    ),
    "bank05_patient": Speaker(
        "patient",
        "Margaret Doyle",
        "espeak:en-gb-scotland+f5",
        "F",
        "patient, an 81-year-old retired school cook with heart failure, atrial fibrillation and past gout "
        "(synthetic speech, real coughs)",
    ),
    "bank05_son": Speaker(
        "relative",
        "Stephen Doyle",
        "espeak:en-us+m3",
        "M",
        "the patient's adult son, who sorts her tablets and answers for her at times; mentions his own gout; "
        "takes the hospital pharmacist's phone call (synthetic)",
    ),
    "bank05_hospital_pharmacist": Speaker(
        "hospital_pharmacist",
        "Ruth Bennett",
        "espeak:en-gb-x-rp+f4",
        "F",
        "heart-failure pharmacist at the hospital, ringing the son about the medicine change (synthetic; "
        "heard as telephone audio)",
    ),
    "bank05_bystander_1": Speaker(
        "bystander", None, None, "F", "a customer at the pharmacy counter who coughs (real BMC cough, source S3)"
    ),
}


def _tighten(tl: Timeline, p: Placed, below_db: float = 19.0) -> Placed:
    """Cut a RAVDESS clip's near-silent lead-in and tail (the shared trimming leaves up to ~0.8 s of studio
    quiet), keeping the voice where it was, so that the truth span starts and ends with the voice."""
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


def _shop_floor(tl: Timeline, ravdess: Path, name: str, gap: float | None = None) -> Placed:
    """A RAVDESS line of a customer on the shop floor, heard through the consultation-room door (quieter)."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    p.audio = p.audio * 10 ** (SHOP_FLOOR_GAIN_DB / 20)
    p.fields["tags"] = [*p.fields["tags"], "background", "shop_floor"]  # type: ignore[misc]
    p.fields["notes"] = (
        "acted emotional line by a customer on the shop floor, heard through the consultation-room door, not part "
        "of the review (RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared ser-train set"
    )
    return p


def _customer(tl: Timeline, ravdess: Path, name: str, gap: float | None = None) -> Placed:
    """A RAVDESS line of another customer at the counter."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    p.fields["tags"] = [*p.fields["tags"], "counter"]  # type: ignore[misc]
    p.fields["notes"] = (
        "acted emotional remark by another customer at the pharmacy counter (RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and "
        "tail cut); the same "
        "clip is in the shared ser-train set"
    )
    return p


def build_rec05(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Pharmacy counter -> structured medication review (heart failure) with the son -> hospital phone call."""
    K, C, P, S = "bank05_assistant", "bank05_clinician", "bank05_patient", "bank05_son"
    H = "bank05_hospital_pharmacist"
    say = tl.say
    tl.tts_name = (
        "Flite TTS (counter assistant, community pharmacist) and eSpeak NG TTS (patient, son, hospital pharmacist)"
    )
    for spk_id in ("ravdess_actor01", "ravdess_actor02", "ravdess_actor05", "ravdess_actor06", "ravdess_actor24"):
        actor = int(spk_id[-2:])
        tl.speakers[spk_id] = Speaker(
            "bystander",
            None,
            None,
            "M" if actor % 2 else "F",
            f"RAVDESS actor {actor:02d} (real acted speech), another customer in the pharmacy",
        )

    # ------------------------------------------------------------------ 1. pharmacy counter
    tl.begin(
        "pharmacy_counter",
        "A community pharmacy's counter and waiting chairs: the counter assistant serves and calls customers, "
        "other customers' acted emotional remarks (RAVDESS), a customer coughs, a quiet stretch; the patient and "
        "her son arrive for her medication review and chat while they wait",
        "waiting",
    )
    tl.pause(1.2)
    say(K, "Next, please. Hiya. Is it a collection, or are you waiting for something?", gap=0)
    _customer(tl, ravdess, EMOTIONS_05[0], gap=1.2)
    say(
        K,
        "I'm sorry, the prescription hasn't come through from the surgery yet. Try again after two o'clock.",
        gap=1.0,
    )
    tl.cough("bank05_bystander_1", cuts["S3b"], gap=1.5)
    say(
        K,
        "Sorry about the wait, everyone. The card machine is playing up again. It's been a real headache all morning.",
        ("nonclinical_symptom_word",),
        gap=1.4,
        notes="'a real headache' is figurative (the card machine), not a symptom",
    )
    _customer(tl, ravdess, EMOTIONS_05[1], gap=1.5)
    tl.pause(9.0)  # nobody speaks
    say(S, "Morning. My mum has an appointment with the pharmacist at half past ten. Margaret Doyle.", gap=0.0)
    say(K, "Lovely. It's for the medicines review, isn't it? Did you bring all her tablets with you?")
    say(S, "Everything's in this bag. Even the ones she doesn't take.", ("adherence",))
    say(
        K,
        "Perfect. Take a seat by the window, and Amir will call you in a few minutes.",
    )
    _customer(tl, ravdess, EMOTIONS_05[2], gap=1.8)
    say(P, "These chairs are awful low, Stephen. Give me your arm.", gap=1.8)
    say(S, "There you go, Mum. Have you got your glasses?")
    say(
        P,
        "In my bag. Your sister rang last night, she says her hay fever is murder this year.",
        ("relative_symptom:sister_hay_fever", "smalltalk"),
        notes="the patient's daughter's hay fever, reported second-hand",
    )
    say(S, "It always is in June. I'll ring her tonight.")
    _customer(tl, ravdess, EMOTIONS_05[3], gap=2.0)
    say(K, "Next, please. Is that for the flu jab? It's the clinic on Thursday this week.", gap=1.5)
    _customer(tl, ravdess, EMOTIONS_05[4], gap=1.5)
    say(C, "Missus Doyle? Margaret? Come through to the consultation room, both of you.", gap=3.0)
    say(S, "That's us. Take your time, Mum.")
    tl.pause(4.0)  # they walk to the consultation room

    # ------------------------------------------------------------------ 2. medication review
    tl.begin(
        "medication_review",
        "Structured medication review by the community pharmacist in the pharmacy's consultation room: an "
        "81-year-old woman with heart failure, atrial fibrillation and past gout, her son answering for her at "
        "times; doses and frequencies, missed water tablets, over-the-counter ibuprofen, a dry cough on ramipril "
        "(real coughs), dizziness on standing, denials, resolved gout, the son's own gout, family history, "
        "penicillin allergy, weight, blood pressure sitting and standing, pulse, oxygen saturation, silent "
        "pauses, an interruption (the room's phone, then the assistant at the door), safety-net and plan",
        "consultation",
    )
    tl.pause(1.5)
    say(
        C,
        "Have a seat. I'm Amir, one of the pharmacists here. Your doctor asked us to go through all of your "
        "medicines with you. It should take about twenty minutes.",
        gap=0.0,
    )
    say(P, "That's fine, dear. This is my son, Stephen. He sorts out my tablets for me.")
    say(S, "I fill her pill box every Sunday night. I've brought everything in the bag.", ("adherence:pill_box",))
    say(C, "That's really helpful. How have you been feeling in yourself, Margaret?")
    say(
        P,
        "Not too bad. I get tired, but I'm eighty one, what do you expect. The main thing is this cough. It's a dry, "
        "tickly cough, and it keeps me up at night.",
        ("affirm:fatigue", "affirm:dry_cough", "affirm:cough_at_night"),
    )
    tl.cough(P, cuts["S5a"], overlap=0.2)
    say(C, "How long have you had the cough?", gap=0.9)
    say(
        S,
        "About two months. It started not long after the doctor put her ramipril up.",
        ("relative_report:dry_cough_2_months", "duration:cough_2_months", "side_effect:ramipril_cough"),
        notes="the son answers for his mother",
    )
    say(C, "Are you bringing anything up when you cough, any phlegm or any blood?")
    say(P, "No, nothing at all. It's just dry.", ("deny:sputum", "deny:haemoptysis"))
    say(
        C,
        "Let's go through the bag, one at a time, and you tell me how you take each one. What's this first box?",
    )
    say(
        P,
        "That's the water tablet, furosemide. Forty milligrams, one in the morning.",
        ("medication:furosemide_40mg_om",),
    )
    say(
        S,
        "Except she doesn't take it when she goes out. On Tuesdays and Fridays she goes to her lunch club, and "
        "she leaves it out.",
        ("adherence:misses_furosemide_on_outing_days", "relative_report:missed_doses"),
    )
    say(
        P,
        "I'd be running to the toilet all afternoon. The bus doesn't wait for you.",
        ("side_effect:furosemide_urinary_frequency",),
    )
    say(
        C,
        "That's very common, and there's an easy answer. On those days you can take it when you get home, as long "
        "as it's before about two o'clock, so it doesn't keep you up at night.",
        ("advice:furosemide_timing_flexible",),
    )
    say(C, "Next one. Bisoprolol?")
    say(
        P,
        "Bisoprolol, five milligrams, once a day, in the morning. That's for my heart rate.",
        ("medication:bisoprolol_5mg_od",),
    )
    say(
        C,
        "And the ramipril. What dose are you on now?",
    )
    say(
        S,
        "Five milligrams, twice a day. It used to be once a day, until March.",
        ("medication:ramipril_5mg_bd", "history:ramipril_increased_march"),
    )
    tl.cough(P, cuts["S1a"], gap=0.5)
    tl.cough(P, cuts["S1b"], gap=0.25, speed=0.97, tags=("double_cough",))
    say(
        C,
        "A dry, tickly cough is a known side effect of ramipril. It's one of the commonest reasons people stop it.",
        ("side_effect:ramipril_cough",),
        gap=0.9,
    )
    say(C, "And the blood thinner, the apixaban?")
    say(
        P,
        "Apixaban, five milligrams, twice a day, morning and night. For the irregular heartbeat.",
        ("medication:apixaban_5mg_bd", "condition:atrial_fibrillation"),
    )
    say(C, "Any bleeding at all? Nosebleeds, bruising, blood in your water, or black stools?")
    say(
        P,
        "No, nothing like that. I bruise a wee bit on my arms, but I always have.",
        (
            "deny:bleeding",
            "deny:nosebleeds",
            "deny:haematuria",
            "deny:black_stools",
            "affirm:easy_bruising_longstanding",
        ),
    )
    say(C, "And this one is allopurinol. What's that for?")
    say(
        P,
        "One hundred milligrams, once a day, for my gout. I had a terrible attack in my big toe, two years ago. "
        "But I've not had a flare since I started these.",
        ("medication:allopurinol_100mg_od", "resolved:gout_attack_big_toe", "history:gout_two_years_ago"),
    )
    say(
        S,
        "I'm the same, funnily enough. I had my first gout attack last month, in my left ankle. I couldn't "
        "get my shoe on for a week.",
        ("relative_symptom:gout_left_ankle", "relative:son_own_symptom"),
        notes="the son's own gout, not the patient's",
    )
    say(
        C,
        "Ouch. It does run in families. Do mention it to your own doctor, Stephen, if it comes back.",
        ("family_history:gout", "advice:relative_see_own_gp"),
    )
    say(C, "Is there anything else in the bag? Anything you buy yourself, from us or the supermarket?")
    say(
        S,
        "There's these. Ibuprofen. She's been taking mine for her knees.",
        ("medication:ibuprofen_otc", "relative_report:otc_ibuprofen"),
    )
    say(P, "Only two or three times a week, when my knees are bad. Two tablets.", ("medication:ibuprofen_400mg_prn",))
    say(
        C,
        "I'm glad you showed me. Ibuprofen isn't safe for you. It can make your heart failure worse, it's hard "
        "on the kidneys, and with the apixaban it raises the risk of a bleed. Please stop it, and use paracetamol "
        "for your knees instead, two tablets up to four times a day.",
        ("plan:stop_ibuprofen", "plan:paracetamol_1g_qds_prn", "interaction:ibuprofen_apixaban_heart_failure"),
    )
    say(P, "I didn't know that. Nobody told me.")
    tl.ring(gap=1.0, desk=True)
    tl.placed[-1].fields["notes"] = (
        "generated ring of the phone in the consultation room (an interruption), heard in the room before the "
        "pharmacist answers it"
    )
    tl.placed[-1].fields["tags"] = ["desk_phone", "interruption"]
    say(C, "Excuse me one moment, I'm sorry.", ("interruption",), gap=0.6)
    say(
        C,
        "Hello, Amir speaking. I'm in a consultation at the moment. Can I ring you back in twenty minutes? "
        "Thank you. Bye.",
        ("interruption", "phone_one_side"),
        notes="the pharmacist answers the room's phone; only his side is heard",
    )
    say(C, "Sorry about that. Now, do you have any allergies to medicines?", gap=1.0)
    say(
        P,
        "Penicillin. It gave me a rash all over, when I was in my forties.",
        ("allergy:penicillin_rash",),
    )
    say(C, "Let's talk about the heart failure itself. Have you noticed any swelling in your ankles?")
    say(
        P,
        "No, no ankle swelling. My slippers still fit.",
        ("deny:ankle_swelling",),
    )
    say(
        C,
        "Are you more short of breath than usual? Can you lie flat in bed, or do you need extra pillows?",
    )
    say(
        P,
        "My breathing is the same as always. I sleep on two pillows, like I always have. I don't wake up "
        "gasping, nothing like that.",
        ("deny:worsening_breathlessness", "deny:orthopnoea", "deny:paroxysmal_nocturnal_dyspnoea"),
    )
    say(C, "Any chest pain, or tightness?")
    say(P, "No chest pain.", ("deny:chest_pain",))
    say(
        C,
        "And you mentioned dizziness on the form. When does that happen?",
    )
    say(
        P,
        "When I get up out of my chair, or out of bed. The room goes swimmy for a few seconds. I hold onto "
        "the table till it passes.",
        ("affirm:dizziness_on_standing", "side_effect:postural_dizziness"),
    )
    say(C, "Have you had any falls?")
    say(
        S,
        "No falls. She's very careful. I put a rail in by her bed at Christmas.",
        ("deny:falls", "relative_report:no_falls"),
    )
    say(
        P,
        "My mother had the same heart trouble, you know. She had a stroke at seventy. That's why I never "
        "miss the apixaban.",
        ("family_history:mother_heart_failure", "family_history:mother_stroke_age_70"),
    )
    tl.cough(P, cuts["S6b"], overlap=0.15, speed=1.02)
    say(
        C,
        "I'd like to check a few things, if that's all right. First, let me weigh you. Can you step on the scales "
        "for me?",
        ("exam", "instruction"),
        gap=0.9,
    )
    tl.pause(6.0)  # she steps onto the scales
    say(
        C,
        "Your weight today is sixty three point four kilograms. Last month it was sixty two point one.",
        ("exam", "vital:weight_63_4kg", "vital:weight_previous_62_1kg"),
        gap=0.0,
    )
    say(S, "That's more than a kilo. Is that bad?")
    say(
        C,
        "It's worth keeping an eye on, but with no swelling and no change in your breathing, I'm not worried "
        "today. Now I'll check your blood pressure sitting down. Rest your arm on the table.",
        ("exam", "instruction"),
    )
    tl.pause(11.0)  # silent blood-pressure measurement, sitting
    say(
        C,
        "One hundred and twelve over sixty eight, sitting. Your pulse is seventy two, and a little irregular, "
        "which fits with your atrial fibrillation. Now stand up for me, slowly, and I'll do it again.",
        ("exam", "vital:bp_112_68_sitting", "vital:pulse_72_irregular", "instruction"),
        gap=0.0,
    )
    tl.pause(13.0)  # she stands; the cuff inflates again
    say(
        C,
        "Standing, it's ninety eight over sixty. So it drops when you stand up. That's why you feel dizzy.",
        ("exam", "vital:bp_98_60_standing", "finding:postural_blood_pressure_drop"),
        gap=0.0,
    )
    say(C, "And this clip goes on your finger, to check the oxygen.", ("exam", "instruction"))
    tl.pause(5.0)
    say(
        C,
        "Your oxygen level is ninety five percent. That's fine.",
        ("exam", "vital:oxygen_saturation_95"),
        gap=0.0,
    )
    tl.cough(P, cuts["S6a"], gap=0.7)
    say(
        C,
        "Give me a moment to look at your record from the surgery, and your last blood test.",
        ("instruction",),
        gap=1.0,
    )
    tl.pause(16.0)  # he reads the GP record on the screen in silence
    _shop_floor(tl, ravdess, EMOTIONS_05[5], gap=0.0)
    say(
        K,
        "Sorry to interrupt, Amir. The delivery driver needs you to sign for the controlled drugs.",
        ("interruption",),
        gap=1.5,
        notes="the counter assistant puts her head round the consultation-room door",
    )
    say(C, "Tell him two minutes, please, Kelly. Thanks.", ("interruption",))
    say(
        C,
        "Right. Your kidney test in April was fine, and your potassium was normal. So here's what I suggest.",
        ("result:kidney_function_normal_april", "result:potassium_normal"),
        gap=1.2,
    )
    say(
        C,
        "The cough is very likely from the ramipril. I'll send a note to your doctor today, asking for the heart "
        "failure team to review it. There are similar medicines that don't cause a cough. Please don't stop the "
        "ramipril yourself until they tell you.",
        ("plan:refer_gp_heart_failure_team_ramipril_cough", "plan:continue_ramipril_until_reviewed"),
    )
    say(
        C,
        "Stop the ibuprofen, and take paracetamol for your knees. Keep taking the bisoprolol, the apixaban and the "
        "allopurinol as you are.",
        ("plan:stop_ibuprofen", "plan:continue_bisoprolol", "plan:continue_apixaban", "plan:continue_allopurinol"),
    )
    say(
        C,
        "Take the water tablet every day. On lunch club days, take it when you get home, before two o'clock.",
        ("plan:furosemide_daily_later_on_outing_days",),
    )
    say(
        C,
        "For the dizziness, sit on the edge of the bed for a minute before you stand, and get up slowly.",
        ("plan:postural_advice",),
    )
    say(
        C,
        "And weigh yourself every morning, after the toilet and before breakfast, and write it down. Stephen, "
        "here's a chart for it.",
        ("plan:daily_weights",),
    )
    say(
        C,
        "If your weight goes up by more than two kilos in three days, or your ankles swell, or you get more "
        "breathless, or you can't lie flat, ring the surgery that day. If you have chest pain, or you're "
        "struggling to breathe, call nine nine nine. And any bleeding that won't stop, go to A and E.",
        ("safety_net",),
    )
    say(
        S,
        "Two kilos in three days, swelling, or breathless, ring the doctor. Chest pain, nine nine nine. Got it.",
        ("safety_net", "read_back"),
    )
    say(P, "Thank you, Amir. You've been very thorough.", ("expressed:gratitude",))
    tl.cough(P, cuts["S5a"], gap=0.6, speed=1.04)
    say(
        C,
        "You're welcome. I'll ring you in two weeks to see how you're getting on. Take care, both of you.",
        ("plan:pharmacist_phone_follow_up_2_weeks",),
        gap=0.8,
    )
    tl.pause(4.5)

    # ------------------------------------------------------------------ 3. phone follow-up
    tl.begin(
        "phone_follow_up",
        "Telephone call four days later (band-limited 300-3400 Hz, both sides heard): the hospital heart-failure "
        "pharmacist rings the son about the medicine change (ramipril stopped because of the cough; sacubitril "
        "with valsartan started after a 36-hour gap; blood test; other medicines unchanged; safety-net)",
        "phone",
        phone=True,
    )
    tl.pause(1.0)
    tl.ring(gap=0)
    say(S, "Hello, Stephen Doyle speaking.")
    say(
        H,
        "Hello, Mister Doyle. My name is Ruth Bennett. I'm one of the heart failure pharmacists at the Royal "
        "Infirmary. Is it all right to talk about your mum's medicines?",
    )
    say(S, "Yes, of course. Mum said you might call. She's just having a nap.")
    say(
        H,
        "The community pharmacist's note about her cough reached us, and the consultant has reviewed it. We "
        "agree the cough is most likely from the ramipril, so we're going to stop it.",
        ("plan:stop_ramipril", "side_effect:ramipril_cough"),
    )
    say(S, "Right. Does she need something else instead?")
    say(
        H,
        "Yes. She'll start a tablet called sacubitril with valsartan. The brand name is Entresto. The dose is "
        "twenty four, twenty six milligrams, one tablet twice a day.",
        ("plan:start_sacubitril_valsartan_24_26mg_bd", "medication:sacubitril_valsartan_24_26mg_bd"),
    )
    say(
        H,
        "There's one important thing. She must leave a gap of thirty six hours between the last ramipril and the "
        "first Entresto. Taking them together can cause swelling of the face and throat.",
        ("plan:washout_36_hours", "interaction:ace_inhibitor_sacubitril"),
    )
    say(S, "So if her last ramipril is tonight, Tuesday night, when does she start the new one?")
    say(
        H,
        "If the last ramipril is Tuesday evening at eight, the first Entresto is Thursday morning at eight. "
        "Nothing from that group on Wednesday at all.",
        ("plan:last_ramipril_tuesday_2000", "plan:first_entresto_thursday_0800"),
    )
    say(
        S,
        "Tuesday night the last ramipril, Thursday morning the first Entresto. I'll write it on the box.",
        ("read_back",),
    )
    say(
        H,
        "Everything else stays the same. Furosemide forty milligrams in the morning, bisoprolol five "
        "milligrams, apixaban five milligrams twice a day, and the allopurinol.",
        (
            "plan:continue_furosemide_40mg_om",
            "plan:continue_bisoprolol",
            "plan:continue_apixaban",
            "plan:continue_allopurinol",
        ),
    )
    say(
        H,
        "Just to check, she's still allergic to penicillin, and nothing new since?",
        ("allergy:penicillin_rash",),
    )
    say(S, "Penicillin only. Nothing new.", ("allergy:penicillin_rash", "deny:new_allergies"))
    say(
        H,
        "She'll need a blood test for her kidneys and potassium in one to two weeks. I've asked the surgery to "
        "book it for Monday the twenty third.",
        ("plan:blood_test_kidney_potassium_1_2_weeks", "plan:blood_test_monday_23rd"),
    )
    say(
        H,
        "The cough should settle over the next few weeks, but it can take up to a month. The new tablet can lower "
        "her blood pressure, so the dizziness advice still applies. Up slowly.",
        ("expected:cough_settles_weeks", "side_effect:sacubitril_valsartan_low_blood_pressure"),
    )
    say(
        H,
        "If her lips, face or tongue swell, or she has trouble breathing or swallowing, call nine nine nine. If "
        "she feels faint or very dizzy, ring the surgery or the heart failure nurses that day.",
        ("safety_net",),
    )
    say(S, "Lips or face swelling, nine nine nine. Faint, ring you or the surgery. Thanks, Ruth.", ("read_back",))
    say(H, "You're welcome. I'll send the letter to the pharmacy and the surgery today. Goodbye.")
    tl.pause(3.0)
