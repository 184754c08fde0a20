"""bank_rec_11: a GP waiting room -> an interpreted consultation -> the GP's call to the hospital -> goodbye, corridor.

Imported by ``make_recordings.py`` (``--only bank_rec_11``); it uses that module's ``Timeline`` and bank_rec_07's
RAVDESS trimming (``rec07._tighten``).

* ``waiting_room``: Riverside Medical Practice on a Wednesday morning. A father (Flite ``rms``) waits with his
  four-year-old daughter Poppy (eSpeak NG RP ``+f3`` with the base pitch raised, ``-p 95``) for her pre-school jab
  (her nervous "tummy hurts" is hers: ``other_patient``; his "sick to death of waiting" is a figure of speech);
  Kuba Kowalski, 24 (eSpeak NG RP ``+m6``; in Polish ``pl+m6``), checks his grandmother in at the desk with the
  receptionist (Flite ``awb``): her name spelled out, date of birth, address; he declines the telephone interpreter
  the receptionist offers ("I'll translate for her"); the doctor is running fifteen minutes late. A bystander coughs
  (a real cough); the grandmother, Mrs Halina Kowalska, 81 (eSpeak NG RP ``+f1``; in Polish ``pl+f1``), says in
  Polish that she is tired and coughs; the practice nurse (eSpeak NG ``en-gb-x-gbclan+f2``) calls Poppy in; three
  RAVDESS remarks of other people waiting (actors 06, 01, 02: happy, angry, surprised); a quiet stretch of about 7 s;
  the GP calls Mrs Kowalska.
* ``consultation``: the GP, Doctor Claire Bennett (Flite ``slt``), with the patient and her grandson acting as
  informal interpreter. He asks her in Polish (those turns are eSpeak NG Polish: ``language`` ``pl`` and an English
  ``translation`` in the truth) and relays her answers in the third person ("She says ...", "Gran says no, she hasn't
  had any blood"); she says a few words in English herself ("Yes", "No pain. Here, no.", "Tired. Very tired.").
  He mistranslates the onset once (Saturday) and she corrects him in English (Sunday). Burning epigastric pain since
  Sunday, worse after food and lying flat, better with milk and sitting up, morning nausea, no vomiting; no blood
  seen (denial), then, asked about the colour, black tarry stools since yesterday (three in all: the earlier "no
  blood" did not count them); tired and dizzy standing up this morning; no chest pain, no dysphagia; a cough left
  from last week's cold (improving); a peptic ulcer thirty years ago in Poland (healed), hypertension, osteoarthritis
  of both knees, ankle swelling on amlodipine last summer that went when it was stopped (resolved); medicines read
  from the bag: ramipril 5 mg every morning, Polocard (aspirin) 75 mg once a day, Ibuprom (ibuprofen 200 mg) two
  tablets three times a day for two weeks for her knees; the Gaviscon in the bag is the grandson's (his own
  heartburn from night shifts: ``relative_symptom:``, not hers); a metamizole (Pyralgin) allergy (rash, swollen face),
  no penicillin allergy; her sister's stomach cancer (died at 65) and her son's reflux (family history, not hers);
  the grandson's own opinion (stress: his grandfather died a year ago last week). The examination aloud after
  silent pauses (a 15 s pulse count: 104 regular; blood pressure 108/66, usually about 140; oxygen 97 %,
  temperature 36.9; pale; epigastric tenderness, soft abdomen, no guarding; chest clear; heart sounds normal; no
  ankle swelling); a suspected bleeding peptic ulcer (upper GI bleed); her fear of
  hospital (TTS, emotion null) and the grandson's worry; plan (ibuprofen stopped, aspirin withheld, nothing to eat,
  sips of water, same-day hospital assessment) and a conditional safety-net ("if ... she gets chest pain or can't
  breathe, call nine nine nine") read back by the grandson and relayed in Polish. A RAVDESS voice in the corridor
  (actor 05, fearful).
* ``phone_call``: the GP phones the acute medical registrar at St Luke's Hospital (Flite ``kal16``) on the
  consulting-room speakerphone so the grandson can hear: her side is heard as room speech, his side and the
  ring-back come from the speaker, band-limited 300-3400 Hz. She gives the history and findings; he accepts her to the
  Acute Medical Unit (ward ten) by half past eleven, nil by mouth, bring her tablets, a professional Polish
  interpreter booked for consent, his bleep (four one seven).
* ``closing``: the goodbye in the consulting room (the letter, ward ten), the patient's double cough.
* ``corridor``: the receptionist offers a taxi, Poppy comes out of the nurse's room with a sticker, a RAVDESS remark
  (actor 24, calm), the grandson helps his grandmother out (Polish).

Seven real coughs of the patient (one just after she speaks in the waiting room, two in pauses of other people's
speech, one overlapping the end of the grandson's turn, one after a deep breath during the examination, a double
cough on leaving) and one of a bystander in the waiting room. The Polish is eSpeak NG's ``pl`` voice with the same
variant as the speaker's English voice (``+f1`` / ``+m6``): the same formant and pitch settings, Polish phonemes.
"""

from __future__ import annotations

from pathlib import Path

from make_recordings import (
    PHONE_BAND_HZ,
    PHONE_DBFS,
    CoughCut,
    Placed,
    Speaker,
    Timeline,
    active_rms_dbfs,
    bandpass,
    fade,
    telephone,
)
from rec07 import CORRIDOR_GAIN_DB, _tighten

DESK_DBFS = -25.0  # the reception desk, a little further from the recorder than the waiting-room seats

EMOTIONS_11 = [
    "03-01-03-01-01-01-06.flac",  # actor 06 happy normal, kids (waiting room: a woman greeting a friend)
    "03-01-05-01-01-01-01.flac",  # actor 01 angry normal, kids (waiting room: a man at the desk, told of the delay)
    "03-01-08-02-02-01-02.flac",  # actor 02 surprised strong, dogs (waiting room: a woman)
    "03-01-06-01-01-01-05.flac",  # actor 05 fearful normal, kids (a man in the corridor, heard in the consultation)
    "03-01-02-01-02-01-24.flac",  # actor 24 calm normal, dogs (the corridor on the way out)
]

# The Polish turns: eSpeak NG's Polish voice with the speaker's own variant (see ESPEAK_RATE_WPM / VOICES).
POLISH_VOICE = {"bank11_patient": "espeak:pl+f1", "bank11_grandson": "espeak:pl+m6"}

SPEAKERS_11 = {
    "bank11_clinician": Speaker(
        "clinician",
        "Doctor Claire Bennett",
        "slt",
        "F",
        "the GP (Doctor Claire Bennett of Riverside Medical Practice); phones the hospital's acute medical registrar "
        "(synthetic)",
    ),
    "bank11_patient": Speaker(
        "patient",
        "Halina Kowalska",
        "espeak:en-gb-x-rp+f1",
        "F",
        "patient, an 81-year-old Polish woman who speaks little English: a few English words (eSpeak NG RP +f1) and "
        "Polish (eSpeak NG pl +f1, the same variant) (synthetic voice; real coughs)",
    ),
    "bank11_grandson": Speaker(
        "relative",
        "Kuba Kowalski",
        "espeak:en-gb-x-rp+m6",
        "M",
        "the patient's grandson (Jakub, 'Kuba'), 24: her informal interpreter, relaying her words in the third person; "
        "speaks to her in Polish (eSpeak NG pl +m6, the same variant); has heartburn of his own (synthetic)",
        relation="grandson",
    ),
    "bank11_receptionist": Speaker(
        "receptionist",
        "Gareth",
        "awb",
        "M",
        "the receptionist at Riverside Medical Practice (synthetic)",
    ),
    "bank11_father": Speaker(
        "bystander",
        "Mark Clarke",
        "rms",
        "M",
        "another patient's father in the waiting room (Poppy's dad), not related to the patient (synthetic)",
    ),
    "bank11_child": Speaker(
        "other_patient",
        "Poppy Clarke",
        "espeak:en-gb-x-rp+f3@p95",
        "F",
        "a four-year-old girl in the waiting room, there for her pre-school jab with the practice nurse; her complaints "
        "are hers, not the patient's (synthetic; a child's voice)",
    ),
    "bank11_nurse": Speaker(
        "nurse",
        "Nurse Helen",
        "espeak:en-gb-x-gbclan+f2",
        "F",
        "the practice nurse, who calls the child in (synthetic)",
    ),
    "bank11_registrar": Speaker(
        "registrar",
        "Doctor Femi Osei",
        "kal16",
        "M",
        "the acute medical registrar on call at St Luke's Hospital, heard only through the consulting-room "
        "speakerphone (synthetic)",
    ),
    "bank11_bystander_1": Speaker(
        "bystander",
        None,
        None,
        "F",
        "a person in the waiting room who coughs (real BMC cough, source S1)",
    ),
    "ravdess_actor06": Speaker(
        "bystander", None, None, "F", "RAVDESS actor 06 (real acted speech), a woman in the waiting room"
    ),
    "ravdess_actor01": Speaker(
        "bystander", None, None, "M", "RAVDESS actor 01 (real acted speech), a man at the reception desk"
    ),
    "ravdess_actor02": Speaker(
        "bystander", None, None, "F", "RAVDESS actor 02 (real acted speech), a woman in the waiting room"
    ),
    "ravdess_actor05": Speaker(
        "bystander",
        None,
        None,
        "M",
        "RAVDESS actor 05 (real acted speech), a man in the corridor outside the consulting room",
    ),
    "ravdess_actor24": Speaker(
        "bystander", None, None, "F", "RAVDESS actor 24 (real acted speech), a woman in the practice corridor"
    ),
}

_WAITING_NOTE = (
    "acted emotional remark by another person in the GP practice waiting room, not the patient or her grandson "
    "(RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared ser-train set"
)
_CORRIDOR_NOTE = (
    "acted emotional line by a man in the corridor, heard through the consulting-room door, 3 dB quieter; not the "
    "patient or her grandson (RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared "
    "ser-train set"
)
_WAY_OUT_NOTE = (
    "acted emotional remark by another person in the practice corridor as the patient leaves, not the patient or her "
    "grandson (RAVDESS, CC BY-NC-SA 4.0; quiet lead-in and tail cut); the same clip is in the shared ser-train set"
)
_FAR_NOTE = (
    "the far side of the call, heard from the consulting-room speakerphone as telephone audio (band-limited "
    "300-3400 Hz)"
)


def _other(tl: Timeline, ravdess: Path, name: str, gap: float, where: str) -> Placed:
    """A RAVDESS line of another person: ``waiting_area``, ``corridor`` (through the door, 3 dB quieter) or ``way_out``."""
    p = _tighten(tl, tl.emotion(ravdess, name, gap=gap))
    if where == "corridor":
        p.audio = p.audio * 10 ** (CORRIDOR_GAIN_DB / 20)
        extra, note = ["background", "corridor"], _CORRIDOR_NOTE
    elif where == "way_out":
        extra, note = ["corridor"], _WAY_OUT_NOTE
    else:
        extra, note = ["waiting_area"], _WAITING_NOTE
    p.fields["tags"] = [*p.fields["tags"], *extra]  # type: ignore[misc]
    p.fields["notes"] = note
    return p


def _polish(
    tl: Timeline,
    speaker: str,
    text: str,
    translation: str,
    tags: tuple[str, ...] = (),
    gap: float | None = None,
    notes: str | None = None,
) -> Placed:
    """A turn in Polish: the speaker's variant on eSpeak NG's ``pl`` voice; the truth keeps an English translation."""
    spk = tl.speakers[speaker]
    english = spk.voice
    spk.voice = POLISH_VOICE[speaker]
    try:
        p = tl.say(speaker, text, ("language:pl", *tags), gap=gap, notes=notes)
    finally:
        spk.voice = english
    p.fields["language"] = "pl"
    p.fields["translation"] = translation
    return p


def _far(tl: Timeline, speaker: str, text: str, tags: tuple[str, ...] = (), gap: float | None = None) -> Placed:
    """A turn of the registrar, heard from the consulting-room speakerphone (band-limited 300-3400 Hz)."""
    p = tl.say(speaker, text, ("phone_call", *tags), gap=gap)
    y = telephone(p.audio)
    p.audio = fade(y * 10 ** ((PHONE_DBFS - active_rms_dbfs(y)) / 20), 0.005)
    p.fields["tags"] = [*p.fields["tags"], "telephone"]  # type: ignore[misc]
    p.fields["notes"] = _FAR_NOTE
    return p


def _ringback(tl: Timeline) -> Placed:
    """The ring-back tone from the speakerphone (band-limited like the far side)."""
    p = tl.ring(gap=0)
    p.audio = fade(bandpass(p.audio, *PHONE_BAND_HZ), 0.005)
    p.fields["notes"] = "two ring-back cycles from the consulting-room speakerphone while the call connects"
    return p


def build_rec11(tl: Timeline, cuts: dict[str, CoughCut], ravdess: Path) -> None:
    """Waiting room -> interpreted consultation -> the GP's call to the hospital -> goodbye -> corridor."""
    C, P, K = "bank11_clinician", "bank11_patient", "bank11_grandson"
    Q, F, Y, N, R = "bank11_receptionist", "bank11_father", "bank11_child", "bank11_nurse", "bank11_registrar"
    B = "bank11_bystander_1"
    say = tl.say
    tl.tts_name = (
        "Flite TTS (the GP, the receptionist, the father, the registrar) and eSpeak NG TTS (the patient and her "
        "grandson in English and in Polish, the child, the practice nurse)"
    )
    tl.notes_extra = (
        "; a turn with language 'pl' (tag language:pl) is Polish, spoken by eSpeak NG's Polish voice with the "
        "speaker's own variant; its text is the Polish that was synthesised and 'translation' gives its meaning in "
        "English; the grandson interprets: a turn tagged interpreted is his relay of what she said in Polish, in the "
        "third person, and carries her assertion tags with relative_report:; relative_symptom: / relative_opinion: are "
        "the grandson's own complaints and views, not the patient's; other_patient is another patient (the child in "
        "the waiting room); corrects: / corrected_by_patient mark the onset day he mistranslated and she corrected; in "
        "the phone_call section only the registrar's side and the ring-back (tagged telephone) are band-limited"
    )
    rr = "relative_report:"
    ip = "interpreted"
    ncw = ("nonclinical_symptom_word",)

    # ------------------------------------------------------------------ 1. waiting room
    tl.begin(
        "waiting_room",
        "Riverside Medical Practice's waiting room on a Wednesday morning: a father and his four-year-old daughter "
        "wait for her jab (her nervous tummy ache is hers); the patient's grandson checks her in at the desk (name "
        "spelled, date of birth, address) and declines a telephone interpreter; the doctor is running late; "
        "other people's RAVDESS remarks; a bystander's cough; the patient speaks Polish and coughs; the practice nurse "
        "calls the child in; a quiet stretch; the GP calls the patient",
        "waiting",
    )
    tl.pause(1.5)
    say(F, "Poppy, come and sit down, sweetheart. The nurse will call us in a minute.", gap=0)
    say(Y, "Daddy, my tummy hurts!", ("other_patient", "other_patient:tummy_ache"))
    say(
        F,
        "I know. That's just butterflies, because of your injection. It'll be over really quickly.",
        ("other_patient",),
        notes="the father about his daughter (another patient), not the patient",
    )
    _other(tl, ravdess, EMOTIONS_11[0], 1.2, "waiting_area")
    say(
        K,
        "Hi. I'm here with my gran. She's got an appointment at ten forty, with Doctor Bennett.",
        ("appointment_time",),
        gap=1.0,
    )
    say(Q, "Lovely. What's her name, please?", level=DESK_DBFS)
    say(K, "Halina Kowalska. That's K, O, W, A, L, S, K, A.", ("name_spelled",))
    say(Q, "Thank you. And her date of birth?", level=DESK_DBFS)
    say(K, "The fourteenth of March, nineteen forty four.", ("date_of_birth",))
    say(Q, "And is she still at twenty seven Orchard Road?", ("address",), level=DESK_DBFS)
    say(
        K,
        "Yes, twenty seven Orchard Road. She lives with us now, with my mum and dad.",
        ("address", "social:lives_with_son_and_family"),
    )
    say(
        Q,
        "That's fine, she's checked in. I can see her first language is Polish. Would you like me to book a telephone "
        "interpreter for her appointment?",
        ("interpreter_offered",),
        level=DESK_DBFS,
    )
    say(
        K,
        "No, it's fine, thanks. I'll translate for her. I always do.",
        ("interpreter_declined", "family_interpreter"),
    )
    say(Q, "No problem. Doctor Bennett is running about fifteen minutes late, I'm afraid.", level=DESK_DBFS)
    _other(tl, ravdess, EMOTIONS_11[1], 1.0, "waiting_area")
    say(
        F,
        "Fifteen minutes late again. Honestly, I'm sick to death of waiting in this place.",
        ncw,
        gap=1.2,
        notes="the father's figure of speech; not a symptom",
    )
    tl.cough(
        B, cuts["S1a"], gap=1.4, notes="real cough (BMC Cough 2006) of a person in the waiting room, not the patient"
    )
    _polish(
        tl,
        K,
        "Babciu, usiądź tutaj. Pani doktor przyjmie cię za piętnaście minut.",
        "Gran, sit here. The doctor will see you in fifteen minutes.",
        gap=1.5,
    )
    _polish(
        tl,
        P,
        "Dobrze. Jestem taka zmęczona, Kuba.",
        "All right. I'm so tired, Kuba.",
        ("affirm:fatigue",),
    )
    tl.cough(
        P,
        cuts["S5a"],
        gap=0.3,
        speed=0.97,
        notes="real cough of another person (BMC Cough 2006) attributed to the (synthetic) patient, just after she "
        "speaks",
    )
    _polish(tl, K, "Chcesz wody, babciu?", "Do you want some water, Gran?", gap=0.9)
    say(P, "No. Thank you.")
    say(N, "Poppy Clarke, please? Come through to room two, Poppy.", gap=1.6)
    say(F, "That's us. Come on, Poppy, brave girl.")
    say(Y, "I don't want an injection!", ("other_patient",))
    say(N, "It's only a tiny scratch, and you can pick a sticker after.", ("other_patient",))
    _other(tl, ravdess, EMOTIONS_11[2], 1.5, "waiting_area")
    tl.pause(7.0)  # a quiet stretch: nobody speaks
    say(C, "Halina Kowalska, please? Room four.", gap=0)
    say(K, "That's us.")
    _polish(tl, K, "Chodź, babciu. To nasza kolej.", "Come on, Gran. It's our turn.")
    tl.pause(2.5)  # they walk to room four

    # ------------------------------------------------------------------ 2. consultation
    tl.begin(
        "consultation",
        "Doctor Claire Bennett sees Mrs Halina Kowalska, 81, who speaks little English, with her grandson Kuba "
        "interpreting (Polish questions and answers, relayed in the third person; her own few English words): "
        "burning epigastric pain since Sunday (he says Saturday, she corrects him), nausea, no blood seen, then black "
        "tarry stools since yesterday, tiredness and dizziness on standing; denials; a cough left from a cold; a "
        "peptic ulcer thirty years ago and ankle swelling on amlodipine (both resolved), medicines from the bag "
        "(ramipril, aspirin, over-the-counter ibuprofen; the Gaviscon is his), a metamizole allergy, her sister's "
        "stomach cancer and her son's reflux; his own heartburn and opinion; the examination aloud after silent "
        "pauses; a suspected bleeding ulcer; her fear of hospital; plan and a conditional safety-net, read back and "
        "relayed; real coughs; a RAVDESS voice in the corridor",
        "consultation",
    )
    tl.pause(1.0)
    say(
        C,
        "Come in, have a seat. I'm Doctor Claire Bennett, one of the GPs here. You must be Mrs Kowalska's grandson?",
        gap=0,
    )
    say(
        K,
        "Yes, I'm Kuba. Jakub Kowalski. Her English isn't great, so I'll translate for her.",
        ("family_interpreter",),
    )
    say(
        C,
        "Thank you, Kuba. We can always get a professional interpreter on the phone. Is she happy for you to "
        "translate today?",
        ("interpreter_offered", "consent"),
    )
    _polish(
        tl,
        K,
        "Babciu, czy mogę tłumaczyć dla pani doktor?",
        "Gran, can I translate for the doctor?",
        ("consent",),
    )
    say(P, "Yes. Yes, Kuba.", ("consent",))
    say(C, "Lovely. So, what's brought her in today?")
    _polish(
        tl,
        P,
        "Boli mnie brzuch, tutaj, pod żebrami. Od niedzieli, po kościele.",
        "My stomach hurts, here, under my ribs. Since Sunday, after church.",
        ("affirm:abdominal_pain", "affirm:epigastric_pain", "onset:sunday"),
    )
    say(
        K,
        "She's having pains in her stomach, up here, under her ribs. She says it started on Saturday, after church.",
        (ip, "affirm:abdominal_pain", "affirm:epigastric_pain", "onset:saturday", rr + "onset", "corrected_by_patient"),
        notes="the grandson's relay; he says Saturday, she said Sunday (in Polish) and corrects him in the next turn: "
        "onset:saturday does not hold",
    )
    say(
        P,
        "No. Sunday. Sunday, church.",
        ("correction", "corrects:grandson_onset_saturday", "onset:sunday"),
        notes="the patient's own English: she corrects her grandson's translation; her word holds",
    )
    say(
        K,
        "Sorry, Sunday. The pain started on Sunday.",
        (ip, "onset:sunday", rr + "onset", "correction"),
    )
    say(
        C,
        "So that's three days now. What's the pain like? Burning, or sharp, or more of an ache?",
        ("duration:3_days",),
    )
    _polish(tl, K, "Jaki to ból? Piecze? Kłuje?", "What's the pain like? Does it burn? Does it stab?")
    _polish(
        tl,
        P,
        "Piecze, jak ogień. Gorzej po jedzeniu.",
        "It burns, like fire. Worse after eating.",
        ("affirm:burning_pain", "aggravating:eating"),
    )
    say(
        K,
        "She says it's burning, like fire. And it's worse after she eats.",
        (ip, "affirm:burning_pain", "aggravating:eating", rr + "character"),
    )
    say(C, "Does anything make it better?")
    say(
        K,
        "She drinks milk for it, and sitting up helps. It's worse when she lies down flat at night.",
        ("relieving:milk", "relieving:sitting_up", "aggravating:lying_flat", rr + "modifiers"),
        notes="the grandson answers from what he has seen at home, without asking her",
    )
    say(C, "Does the pain go through into her back?")
    say(
        K,
        "No, she says it stays in the same place.",
        (ip, "deny:radiation_to_back", rr + "radiation"),
    )
    say(C, "Has she felt sick, or been sick?")
    _polish(tl, K, "Wymiotowałaś?", "Have you been sick?")
    _polish(
        tl,
        P,
        "Nie. Tylko mdli mnie rano.",
        "No. I just feel sick in the morning.",
        ("deny:vomiting", "affirm:nausea"),
    )
    say(
        K,
        "She hasn't been sick. She feels a bit sick in the mornings, that's all.",
        (ip, "deny:vomiting", "affirm:nausea", rr + "nausea"),
    )
    say(C, "Has she noticed any blood? When she's felt sick, or when she opens her bowels?")
    _polish(tl, K, "Babciu, była jakaś krew?", "Gran, was there any blood?")
    _polish(
        tl,
        P,
        "Nie, krwi nie było.",
        "No, there wasn't any blood.",
        ("deny:haematemesis", "deny:blood_seen"),
        notes="she means she has seen no red blood; she does not count black stools as blood (see below)",
    )
    say(
        K,
        "Gran says no, she hasn't had any blood.",
        (ip, "deny:haematemesis", "deny:blood_seen", rr + "blood"),
        notes="the relay of her denial of visible blood; the black stools she reports two turns later are altered "
        "blood (affirm:melaena)",
    )
    say(C, "And what colour are her stools? Are they darker than usual, or black?")
    _polish(
        tl,
        K,
        "A jakiego koloru jest stolec? Ciemny? Czarny?",
        "And what colour is the stool? Dark? Black?",
    )
    _polish(
        tl,
        P,
        "Czarny. Od wczoraj. Jak smoła.",
        "Black. Since yesterday. Like tar.",
        ("affirm:black_tarry_stools", "affirm:melaena", "onset:yesterday"),
    )
    say(
        K,
        "Oh. Actually, she says they've been black since yesterday, like tar. She didn't think that counted as blood.",
        (
            ip,
            "affirm:black_tarry_stools",
            "affirm:melaena",
            "onset:yesterday",
            rr + "melaena",
            "clarifies:deny_blood_seen",
        ),
        notes="the earlier 'no blood' meant no red blood; black tarry stools are altered blood",
    )
    say(P, "Black. Yes.", ("affirm:black_tarry_stools",))
    say(C, "That's important. How many times?")
    say(
        K,
        "Twice yesterday, and once this morning.",
        (ip, "affirm:melaena", "count:black_stools_3", rr + "melaena_count"),
    )
    say(C, "Has she felt dizzy or faint, especially when she stands up?")
    say(P, "Tired. Very tired.", ("affirm:fatigue",))
    say(
        K,
        "She's been very tired. And she was dizzy getting out of bed this morning. She had to hold the wardrobe.",
        (ip, "affirm:fatigue", "affirm:dizziness_on_standing", rr + "dizziness"),
    )
    say(C, "Any chest pain, or trouble with her breathing?")
    say(P, "No pain. Here, no.", ("deny:chest_pain",), notes="the patient's own English, pointing to her chest")
    say(
        K,
        "No chest pain. She gets out of breath on the stairs, but she says that's no worse than usual.",
        (ip, "deny:chest_pain", "affirm:breathless_on_stairs_usual", "deny:worse_breathlessness", rr + "breathing"),
    )
    say(C, "Any trouble swallowing? And has she lost any weight?")
    say(
        K,
        "She can swallow fine. And her weight, I don't think so. Her clothes still fit the same.",
        ("deny:dysphagia", rr + "dysphagia", "relative_opinion:no_weight_loss"),
        notes="the swallowing is relayed; the weight is the grandson's own impression, not asked of her",
    )
    say(C, "How long has she had that cough?")
    say(
        K,
        "She had a cold last week, off my little sister. The cough's left over from that, and it's getting better.",
        ("affirm:cough", "improving:cough", "history:cold_last_week", rr + "cough"),
    )
    tl.cough(P, cuts["S3a"], gap=0.6, notes="the patient coughs in the pause after her grandson's answer")
    say(C, "Has she had any stomach problems in the past?", gap=0.9)
    _polish(tl, K, "Babciu, miałaś kiedyś wrzód żołądka?", "Gran, have you ever had a stomach ulcer?")
    _polish(
        tl,
        P,
        "Tak, w Polsce. Trzydzieści lat temu.",
        "Yes, in Poland. Thirty years ago.",
        ("history:peptic_ulcer_30_years_ago",),
    )
    say(
        K,
        "She says yes, she had a stomach ulcer in Poland, thirty years ago. It healed with tablets. No trouble since.",
        (ip, "history:peptic_ulcer_30_years_ago", "resolved:peptic_ulcer", rr + "ulcer"),
    )
    say(C, "Any other medical problems?")
    say(
        K,
        "High blood pressure, and arthritis in both knees. Her ankles used to swell up on amlodipine, last summer, "
        "but that went away when they stopped it.",
        (
            "history:hypertension",
            "history:osteoarthritis_both_knees",
            "resolved:ankle_swelling_on_amlodipine",
            "history:amlodipine_stopped",
            rr + "history",
        ),
    )
    say(C, "Did you bring her medicines with you?")
    say(
        K,
        "Yes, they're all in this bag. So, ramipril, five milligrams, once a day in the morning. That's her blood "
        "pressure one.",
        ("medication:ramipril_5mg_morning", rr + "medication"),
    )
    say(
        K,
        "And this one is from Poland. Polocard, seventy five milligrams, once a day.",
        ("medication:polocard_aspirin_75mg_once_daily", rr + "medication"),
    )
    say(
        C,
        "Polocard is aspirin. So aspirin, seventy five milligrams once a day.",
        ("medication:aspirin_75mg_once_daily",),
    )
    say(
        K,
        "And these. Ibuprom. I bought them in Poland at Christmas, for her knees. She takes two tablets, three times "
        "a day.",
        ("medication:ibuprom_ibuprofen_2_tablets_three_times_daily", "otc_medication", rr + "medication"),
    )
    tl.cough(P, cuts["S6a"], overlap=0.3, speed=1.02)
    say(
        C,
        "Let me see. Each tablet is ibuprofen two hundred milligrams, so that's four hundred milligrams, three times a "
        "day. How long has she been taking it like that?",
        ("medication:ibuprofen_400mg_three_times_daily",),
        gap=0.8,
    )
    say(
        K,
        "About two weeks. Her knees have been really bad since the cold weather.",
        ("medication:ibuprofen_for_2_weeks", "affirm:knee_pain", rr + "medication_duration"),
    )
    say(C, "Anything else? Anything from the chemist, or herbal remedies?")
    say(
        K,
        "The Gaviscon is mine, actually. It's for my heartburn. I work nights. She has a spoonful sometimes.",
        (
            "relative_symptom:grandson_heartburn",
            "relative:grandson_own_condition",
            "medication:gaviscon_occasional",
            rr + "medication",
        ),
        notes="the Gaviscon is the grandson's, for his own heartburn; the patient takes a spoonful sometimes",
    )
    say(
        C,
        "You should see your own doctor about that heartburn, Kuba. Is she allergic to any medicines?",
        ("advice:grandson_see_own_gp",),
    )
    _polish(tl, K, "Masz uczulenie na jakieś leki?", "Are you allergic to any medicines?")
    _polish(
        tl,
        P,
        "Na pyralginę. Miałam wysypkę i spuchła mi twarz.",
        "To Pyralgin. I had a rash and my face swelled up.",
        ("allergy:metamizole", "allergy:metamizole_rash_facial_swelling"),
    )
    say(
        K,
        "She's allergic to Pyralgin. It's a Polish painkiller. She came out in a rash, and her face swelled up.",
        (ip, "allergy:metamizole", "allergy:metamizole_rash_facial_swelling", rr + "allergy"),
    )
    say(
        C,
        "That's metamizole. We don't use it here, but I'll put it on her record. Any problem with penicillin?",
        ("allergy:metamizole",),
    )
    say(K, "No, she's had penicillin before. No problem.", ("deny:penicillin_allergy", rr + "allergy"))
    say(C, "Does anyone in her family have stomach or bowel problems?")
    say(
        K,
        "Her sister had stomach cancer. She died at sixty five, in Poland. And my dad has reflux, but that's not "
        "serious.",
        ("family_history:sister_stomach_cancer_died_at_65", "family_history:son_reflux", rr + "family_history"),
        notes="her sister's and her son's conditions, not the patient's",
    )
    _other(tl, ravdess, EMOTIONS_11[3], 1.3, "corridor")
    say(
        K,
        "Honestly, doctor, I think it's stress as well. It was a year since my grandad died, last week.",
        ("relative_opinion:stress_bereavement_anniversary", "social:widowed"),
        gap=1.0,
        notes="the grandson's own opinion, not something the patient said",
    )
    say(
        C,
        "I'd like to examine her now. Could she lie on the couch for me?",
        ("exam", "instruction"),
    )
    _polish(
        tl,
        K,
        "Babciu, połóż się tutaj. Pani doktor cię zbada.",
        "Gran, lie down here. The doctor will examine you.",
        ("exam", "instruction"),
    )
    tl.pause(3.5)  # she gets on to the couch
    say(C, "First, her pulse.", ("exam", "instruction"), gap=0)
    tl.pause(15.0)  # a silent 15 s pulse count
    say(C, "Her pulse is one hundred and four, and regular.", ("exam", "vital:pulse_104_regular"), gap=0)
    say(C, "Now her blood pressure.", ("exam", "instruction"))
    tl.pause(8.0)  # the cuff inflates and deflates
    say(
        C,
        "One hundred and eight over sixty six. That's low for her. Her record says she's usually around one forty.",
        ("exam", "vital:blood_pressure_108_66", "history:usual_systolic_140"),
        gap=0,
    )
    say(C, "Oxygen and temperature.", ("exam",))
    tl.pause(5.0)
    say(
        C,
        "Oxygen is ninety seven percent, and her temperature is thirty six point nine.",
        ("exam", "vital:oxygen_saturation_97_on_air", "vital:temperature_36_9"),
        gap=0,
    )
    say(
        C,
        "She looks quite pale, and the inside of her lower eyelids is pale too.",
        ("exam", "finding:pallor", "finding:conjunctival_pallor"),
    )
    say(C, "Now I'm going to feel her tummy. Tell me if it hurts.", ("exam", "instruction"))
    tl.pause(4.0)
    say(P, "Ow. Yes. There.", ("affirm:epigastric_tenderness",), gap=0)
    say(
        C,
        "She's tender in the upper middle part, the epigastrium. The tummy is soft, there's no guarding, and I can't "
        "feel any lumps.",
        ("exam", "finding:epigastric_tenderness", "finding:abdomen_soft", "finding:no_guarding", "finding:no_mass"),
    )
    say(C, "Let me listen to her chest. Big breaths in and out.", ("exam", "instruction"))
    tl.pause(3.0)  # a deep breath in
    tl.cough(P, cuts["S1b"], gap=0, speed=0.96, notes="the patient coughs after a deep breath during the examination")
    tl.pause(4.0)  # listening
    say(
        C,
        "Her chest is clear. The cough is just from the cold. Heart sounds are normal, just a little fast.",
        ("exam", "finding:chest_clear", "finding:heart_sounds_normal", "finding:tachycardia"),
        gap=0,
    )
    say(C, "And no swelling of her ankles.", ("exam", "finding:no_ankle_oedema"))
    say(
        C,
        "Kuba, I'm worried she's bleeding from her stomach. Black stools like that are usually old blood. With "
        "ibuprofen and aspirin, and her old ulcer, it could be a bleeding ulcer.",
        ("diagnosis:suspected_upper_gi_bleed", "diagnosis:suspected_bleeding_peptic_ulcer", "explanation"),
        gap=0,
    )
    say(
        K,
        "Bleeding? Is it serious?",
        ("expressed:worried",),
        notes="the grandson's worry (TTS: the words carry it, the voice does not; emotion null)",
    )
    say(
        C,
        "It needs checking today, in hospital. Her pulse is fast and her blood pressure is low, so I'd like the medical "
        "team to see her this morning.",
        ("plan:same_day_hospital_assessment", "explanation"),
    )
    _polish(
        tl,
        K,
        "Babciu, pani doktor mówi, że możesz krwawić z żołądka. Musisz dziś jechać do szpitala.",
        "Gran, the doctor says you may be bleeding from your stomach. You have to go to hospital today.",
        ("plan:same_day_hospital_assessment",),
    )
    _polish(
        tl,
        P,
        "Do szpitala? Nie chcę. Boję się.",
        "To hospital? I don't want to. I'm scared.",
        ("expressed:scared", "concern:hospital_admission"),
        notes="the patient's fear (TTS: the words carry it, the voice does not; emotion null)",
    )
    say(
        K,
        "She says she doesn't want to go. She's scared of hospitals.",
        (ip, "expressed:scared", "concern:hospital_admission", rr + "concern"),
    )
    say(
        C,
        "I understand. Tell her they'll look after her, and they'll have an interpreter for her there. It's the safest "
        "thing.",
        ("reassurance",),
    )
    _polish(tl, K, "Będę z tobą, babciu. Nie bój się.", "I'll be with you, Gran. Don't be afraid.", ("comforting",))
    say(P, "OK. OK, Kuba.", ("agrees:hospital",))
    tl.cough(P, cuts["S6b"], gap=0.7, speed=0.98, notes="the patient coughs in the pause before the plan")
    say(
        C,
        "So, she must stop the Ibuprom completely, and no aspirin today. Nothing to eat until the hospital has seen "
        "her, only small sips of water.",
        ("plan:stop_ibuprofen", "plan:withhold_aspirin", "plan:nil_by_mouth_sips_of_water"),
        gap=0.8,
    )
    say(
        C,
        "And Kuba, if she vomits blood on the way, or faints, or if she gets chest pain or can't breathe, call nine "
        "nine nine straight away.",
        ("safety_net",),
        notes="conditional safety-net advice, not symptoms she has",
    )
    say(
        K,
        "If she's sick with blood, or faints, or gets chest pain or can't breathe, call nine nine nine. OK.",
        ("safety_net", "read_back"),
    )
    _polish(
        tl,
        K,
        "Jak będziesz wymiotować krwią albo zemdlejesz, dzwonimy po karetkę.",
        "If you vomit blood or faint, we call an ambulance.",
        ("safety_net", "read_back"),
    )
    say(C, "Let me ring the medical team now, and tell them she's coming.", ("plan:refer_acute_medicine",))
    tl.pause(2.0)

    # ------------------------------------------------------------------ 3. phone call
    tl.begin(
        "phone_call",
        "The GP phones the acute medical registrar at St Luke's Hospital on the consulting-room speakerphone (her side "
        "heard as room speech; the registrar's side and the ring-back band-limited 300-3400 Hz): the history and the "
        "findings; he accepts her to the Acute Medical Unit, ward ten, by half past eleven, nil by mouth, her tablets, "
        "a professional Polish interpreter booked; his bleep number",
        "consultation",
    )
    tl.pause(1.5)
    _ringback(tl)
    _far(tl, R, "Acute medicine, Doctor Osei, the medical registrar.", gap=0.8)
    say(
        C,
        "Hi, it's Doctor Claire Bennett, a GP at Riverside Medical Practice. I'd like to refer a patient, please. "
        "You're on speaker. She speaks Polish, and her grandson is here translating.",
        ("phone_call", "language_need:polish"),
    )
    say(
        C,
        "Mrs Halina Kowalska, eighty one. Three days of burning epigastric pain, and black tarry stools since "
        "yesterday, three in all.",
        ("phone_call", "age:81", "affirm:epigastric_pain", "duration:3_days", "affirm:melaena", "count:black_stools_3"),
    )
    say(
        C,
        "She's been taking ibuprofen, four hundred milligrams three times a day for two weeks, on top of aspirin "
        "seventy five milligrams. She had a peptic ulcer thirty years ago.",
        (
            "phone_call",
            "medication:ibuprofen_400mg_three_times_daily",
            "medication:ibuprofen_for_2_weeks",
            "medication:aspirin_75mg_once_daily",
            "history:peptic_ulcer_30_years_ago",
        ),
    )
    _far(tl, R, "OK. What are her observations?")
    say(
        C,
        "Pulse one hundred and four, regular. Blood pressure one hundred and eight over sixty six, and she's usually "
        "around one forty. Oxygen ninety seven percent on air, temperature thirty six point nine.",
        (
            "phone_call",
            "vital:pulse_104_regular",
            "vital:blood_pressure_108_66",
            "vital:oxygen_saturation_97_on_air",
            "vital:temperature_36_9",
        ),
    )
    say(
        C,
        "She's pale, and tender in the epigastrium, but the abdomen is soft. No vomiting of blood, and no "
        "anticoagulants.",
        (
            "phone_call",
            "finding:pallor",
            "finding:epigastric_tenderness",
            "finding:abdomen_soft",
            "deny:haematemesis",
            "deny:anticoagulants",
        ),
    )
    _far(
        tl,
        R,
        "Right, that sounds like an upper G I bleed. Please send her straight up to the Acute Medical Unit, on ward "
        "ten.",
        ("diagnosis:suspected_upper_gi_bleed", "plan:acute_medical_unit_ward_10"),
    )
    _far(tl, R, "Can the family bring her in, or does she need an ambulance?")
    say(
        C,
        "Her grandson can drive her. She's walking and talking. They'll be with you by half past eleven.",
        ("phone_call", "plan:family_to_drive", "plan:arrive_by_11_30"),
    )
    _far(
        tl,
        R,
        "That's fine. Keep her nil by mouth, and bring all her tablets. She'll need bloods, and probably an endoscopy.",
        ("plan:nil_by_mouth", "plan:bring_medicines", "plan:bloods", "plan:endoscopy_likely"),
    )
    _far(
        tl,
        R,
        "We'll get a Polish interpreter booked for when she arrives. We can't rely on family for consent.",
        ("plan:professional_interpreter_at_hospital",),
    )
    _far(
        tl,
        R,
        "My bleep is four one seven, if anything changes before she gets here.",
        ("phone_number", "bleep_417"),
    )
    say(
        C,
        "Four one seven. Thanks, Doctor Osei. I'll send a letter with them.",
        ("phone_call", "read_back", "bleep_417"),
    )
    _far(tl, R, "Thanks. Bye.")
    tl.pause(1.5)

    # ------------------------------------------------------------------ 4. closing
    tl.begin(
        "closing",
        "The goodbye in the consulting room: where to go (St Luke's, Acute Medical Unit, ward ten, by half past "
        "eleven), the letter and her tablets; her thanks in English; her double cough on leaving",
        "consultation",
    )
    tl.pause(0.5)
    say(
        C,
        "Kuba, they're expecting her. Go straight to St Luke's, the Acute Medical Unit, ward ten. Take all her tablets, "
        "and this letter.",
        ("plan:acute_medical_unit_ward_10", "plan:bring_medicines", "referral_letter"),
        gap=0,
    )
    say(K, "Ward ten, St Luke's. Got it. Thank you, doctor.", ("read_back",))
    _polish(tl, K, "Chodź, babciu, jedziemy do szpitala.", "Come on, Gran, we're going to the hospital.")
    say(P, "Thank you, doctor. Thank you.")
    tl.cough(P, cuts["S3b"], gap=0.5, notes="the patient coughs on her way to the door")
    tl.cough(P, cuts["S3c"], gap=0.25, notes="the second cough of a double cough")
    say(C, "Look after yourself, Mrs Kowalska. Good luck.", gap=0.7)
    tl.pause(2.0)  # they leave the room

    # ------------------------------------------------------------------ 5. corridor
    tl.begin(
        "corridor",
        "The practice corridor on the way out: the receptionist offers a taxi, someone's RAVDESS remark, the child "
        "comes out of the nurse's room with a sticker, the grandson helps his grandmother out",
        "waiting",
    )
    tl.pause(0.8)
    say(Q, "All done, Kuba? Do you need me to call you a taxi?", gap=0)
    say(K, "No thanks, I've parked just outside. We're going to St Luke's.", ("plan:family_to_drive",))
    _other(tl, ravdess, EMOTIONS_11[4], 1.2, "way_out")
    say(Y, "Daddy, look! I got a dinosaur sticker!", ("other_patient",), gap=1.2)
    say(F, "Well done, brave girl. That wasn't so bad, was it?", ("other_patient",))
    _polish(tl, K, "Powoli, babciu. Trzymaj się mnie.", "Slowly, Gran. Hold on to me.", gap=1.0)
    tl.pause(2.0)
