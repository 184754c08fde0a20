"""The typed question: every question becomes one ``QuerySpec`` before anything is searched.

A QuerySpec says what to do (``operation``), over what (``target``), about whom
(``subject``), where (``window`` / ``section``), and with which example clips. One answerer
per operation reads it (``agent/answerers``), so a question's path is parse -> answer ->
verify whatever its wording. ``parse`` is the rule parser; ``agent/classify.py`` settles
the operation by meaning when the rules find no decisive cue, and ``agent/query_llm.py``
lets the language model fill the same enumerations, cross-checked here (``reconcile``).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from harp_desktop.agent import lexicon as lx
from harp_desktop.retrieval.localize import localize

OPERATIONS = ("exists", "when_first", "when_all", "count", "describe", "emotion_at", "compare", "change", "who",
              "what_said")
TARGETS = ("speech", "event", "emotion", "arousal", "valence", "dominance", "voice", "speakers")
SUBJECTS = ("anyone", "patient", "clinician", "other", "cue", "named", "at_time", "gender")
SECTIONS = ("consultation", "phone_call", "dictation", "unrelated")
MODES = ("reported", "exhibited", "either")


@dataclass
class Subject:
    kind: str = "anyone"  # one of SUBJECTS
    name: str | None = None  # a speaker label or a user's name for "named"; the words used ("the nurse")
    at_s: float | None = None  # "the speaker at 04:10"

    def describe(self) -> str:
        if self.kind == "named":
            return self.name or "the named speaker"
        if self.kind == "at_time":
            return f"the speaker at {self.at_s:.0f} s"
        return {"anyone": "anyone", "patient": "the patient", "clinician": self.name or "the clinician",
                "other": self.name or "another person", "cue": "the voice of the example clip",
                "gender": f"the {self.name}"}[self.kind]


@dataclass
class QuerySpec:
    question: str
    operation: str
    target: str
    subject: Subject = field(default_factory=Subject)
    others: list[Subject] = field(default_factory=list)  # compare: the second (third...) party
    event: str | None = None  # target "event": a tagger label (cough...)
    emotion: str | None = None  # target "emotion": a class label (fearful...)
    terms: list[str] = field(default_factory=list)  # what is being asked about, in the question's words
    category: str | None = None  # a body system ("any respiratory symptoms?")
    mode: str = "either"  # symptoms: reported (said), exhibited (heard), or either
    tense: str = "any"  # "current" ("does she currently have"), "past" ("has she ever had"), or "any"
    polarity: str = "positive"  # "negative": the question asks about a denial ("did she deny...")
    window: tuple[float, float] | None = None
    anchor_s: float | None = None
    window_text: str | None = None
    relative: tuple[str, str] | None = None  # ("after", "the examination starts"): resolved by answerers/anchor.py
    section: str | None = None  # one of SECTIONS
    quote: str | None = None
    cues: dict[str, str] = field(default_factory=dict)  # role -> path: "sound", "speaker", "emotion"
    wants_quote: bool = False  # "...and what were they saying?"
    topic: list[str] = field(default_factory=list)  # "while discussing X": the words of X
    reporter: Subject | None = None  # "according to her sister, ...": whose account is asked for (not whom it is about)
    ordinal: str = "first"  # when-questions: "first" or "last" ("the final cough")
    source: str = "rules"
    confidence: float = 1.0
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["cues"] = {k: str(v) for k, v in self.cues.items()}
        return d


QUOTE = lx.QUOTE


def _unquoted(q: str) -> str:
    return QUOTE.sub(" ", q)


def _first(patterns: dict[str, re.Pattern], text: str) -> str | None:
    hits = [(m.start(), key) for key, p in patterns.items() for m in [p.search(text)] if m]
    return min(hits)[1] if hits else None


HOUSEHOLD = re.compile(r"\b(?:any|anyone|anybody|someone|somebody|people|others?|one|who)(?: else)? (?:she|he|they|the patient) "
                       r"lives? with\b|\b(?:anyone|anybody|someone|somebody|people|others?)(?: else)? (?:at|in) (?:(?:her|his|their|"
                       r"the) )?(?:home|house|household)\b|\b(?:household|close contacts?)\b", re.I)


OWNER_PRONOUN = re.compile(r"\b(?:is|was|are|were) (?:the|that|this|those|these) [\w\s:.]{2,40}? (hers|his)\s*[?.]?\s*$", re.I)


# A past-perfect question with "before" ("had she taken anything before she came in?"): before is the story's time.
# So is a place the story happened in ("what temp did mum get at home before the appointment?"): the recording
# was not made there.
NARRATED_BEFORE = re.compile(r"\bhad\b(?:\s+\w+){0,3}?\s+(given|taken|had|tried|used|bought|done|managed|eaten|drunk|"
                             r"needed|received|started|stopped)\b.*\bbefore\b"
                             r"|\b(at home|at work|at school|at nursery|overnight|last night)\b.{0,40}\bbefore\b", re.I)


ADDRESSEE = re.compile(r"\b(tells?|told|telling|ask|asks|asked|asking|warns?|warned|reassur\w*|(?:says?|said|saying|explains?|"
                       r"explained|mentions?|mentioned|reports?|reported|complains?|complained|describes?|described) to)"
                       r"\s+((?:the|his|her|their|your) \w+|[A-Z][a-z]+)", re.I)


# "Who presented the patient to the consultant?", "which person read out his tablets to the GP?": "who" is the one
# acting, so a person after the verb is its object (or the one spoken to), never whom the question is about. (Not
# "who is the patient's wife?", nor "who did the patient see?", where the person named acts.)
WHO_ACTS = re.compile(r"^\s*(?:who|which (?:person|speaker|one|voice|of them))\s+(?!(?:is|was|are|were|did|does|do|had|has|have|"
                      r"will|would|can|could|should|'s|else|exactly)\b)(?:(?:first|actually|then|also|later|ever) )?[a-z]+\b", re.I)


def parse_subjects(q: str, has_speaker_cue: bool) -> tuple[Subject, list[Subject]]:
    """Who the question is about, and for comparisons the other party ("X or Y")."""
    found: list[tuple[int, Subject]] = []
    for m in lx.PATIENT.finditer(q):
        found.append((m.start(), Subject("patient", "the patient")))
    for m in lx.CLINICIAN.finditer(q):
        found.append((m.start(), Subject("clinician", m.group(0).split()[-1].lower())))
    for m in lx.RELATIVE.finditer(q):
        found.append((m.start(), Subject("other", m.group(0))))
    for m in OWNER_PRONOUN.finditer(q):  # "is the cough at 0:18 hers?": she is the one the recording is about
        found.append((m.start(), Subject("patient", "the patient")))
    for m in HOUSEHOLD.finditer(q):  # "anybody she lives with", "anyone at home": the people around the patient
        found.append((m.start(), Subject("other", m.group(0))))
    for m in lx.NAMED_SPEAKER.finditer(q):
        found.append((m.start(), Subject("named", m.group(1))))
    for m in lx.SPEAKER_AT.finditer(q):
        t = lx.clock_seconds(m.group(1) or m.group(2))
        noun = m.group(0).split()[0 if m.group(1) else 2].lower()
        if t is not None:
            found.append((m.start(), Subject("at_time", noun, t)))
    for m in lx.GENDER.finditer(q):
        found.append((m.start(), Subject("gender", lx.GENDER_WORD[m.group(2).lower()])))
    if has_speaker_cue or lx.CUE_VOICE.search(q):
        if lx.CUE_VOICE.search(q) or has_speaker_cue:
            found.append((lx.CUE_VOICE.search(q).start() if lx.CUE_VOICE.search(q) else 10**6, Subject("cue")))
    if lx.OTHER_THAN_PATIENT.search(q):
        return Subject("other", "someone other than the patient"), []
    # "Who tells the nurse about his wheezing?", "what did she say to the doctor?": the person told or asked is
    # the addressee, never whom the question is about.
    told = [m.start(2) for m in ADDRESSEE.finditer(q)]
    found = [(pos, sub) for pos, sub in found if pos not in told]
    acts = WHO_ACTS.match(q)
    if acts:
        found = [(pos, sub) for pos, sub in found if pos < acts.end() or sub.kind in ("cue", "at_time")]
    # "The man first heard at 01:06": one person, named by the time (his gender only describes him), and no clip.
    timed = [pos for pos, sub in found if sub.kind == "at_time"]
    found = [(pos, sub) for pos, sub in found if not (
        (sub.kind == "gender" and any(0 <= t - pos <= 6 for t in timed))
        # "The woman with this voice": the clip says who; her gender only describes her.
        or (sub.kind in ("gender", "anyone") and any(c.kind == "cue" and 0 < cpos - pos <= 20 for cpos, c in found))
        or (sub.kind == "cue" and timed and not has_speaker_cue))]
    found.sort(key=lambda x: x[0])
    uniq: list[Subject] = []
    for _, s in found:
        if not any(u.kind == s.kind and u.name == s.name and u.at_s == s.at_s for u in uniq):
            uniq.append(s)
    if not uniq:
        return Subject("anyone"), []
    return uniq[0], uniq[1:]


def asks_quality(q: str) -> bool:
    from harp_desktop.agent.rules import ABOUT_SOUND, analyse

    quality = analyse(q, False).quality
    # "Does she have a productive cough?" asks what she has; "does it sound wet?" asks about the sound.
    return quality is not None and (quality != "wet or dry" or re.search(ABOUT_SOUND, q.lower()) is not None)


# A leading "when ..." clause followed by the question proper ("When she coughs, does it hurt?").
WHEN_CLAUSE = re.compile(r"^\s*when\b(?! (did|does|do|was|is|were|will|has|had|can)\b)[^,?]{3,80},\s*(?=(what|who|whom|which|how|where|"
                         r"why|did|does|do|is|was|were|has|had|can|could|would|will|are)\b)", re.I)


# The clock time of something told, not heard ("what time was the first dose of amoxicillin given?", "at what time
# was the boy sick?", "what time did she take her paracetamol?"): a time of day said in the recording.
STORY_TIME = re.compile(r"\b(?:at )?what time (?:was|were|did|had)\b(?=.{0,60}\b(take|took|taken|give|given|gave|sick|"
                        r"vomit\w*|fall|fell|fallen|wake|woke|eat|ate|dose|born|happen\w*)\b)"
                        r"(?!.{0,80}\b(say|said|mention\w*|heard|hear|recording|ask\w*)\b)", re.I)


# "How many" of a unit (days, doses, puffs: lx.COUNT leaves those out) asks for a number someone said, also
# after a topic and a dash or colon ("amoxicillin course - how many days?").
HOW_MANY_SAID = re.compile(r"\s*(?:[^,?:\u2013\u2014]{0,80}(?:,|:|\s-|\u2013|\u2014)\s*)?how many\b", re.I)


def parse_operation(q: str, spec: QuerySpec) -> tuple[str, float]:
    """(operation, confidence): the rules fire on the grammar of the question, not its topic."""
    u = _unquoted(q)
    if lx.COMPARE.search(u):
        return "compare", 1.0
    if lx.CHANGE.search(u):
        return "change", 1.0
    if lx.COUNT.search(u) or lx.TALLY.search(u):
        return "count", 1.0
    if HOW_MANY_SAID.match(u):
        return "what_said", 0.9  # "how many days is the course?", "amoxicillin - how many days?": a number said
    if lx.SAME_EMOTION.search(u) or (spec.cues.get("emotion") and lx.WHEN.search(u)):
        return "when_first", 1.0
    if lx.WHO.search(u):
        return "who", 1.0
    if lx.EMOTION_AT.search(u) and not lx.WHEN.search(u):
        return "emotion_at", 1.0
    if lx.SCHEDULED.search(u) or STORY_TIME.search(u) or lx.TOLD_WHEN.search(u):
        return "what_said", 0.9
    if lx.WHEN_ALL.search(u):
        return "when_all", 1.0
    w = lx.WHEN.search(u)
    if w and (lx.WH_QUESTION.match(u) or re.match(r"\s*how (many|much)\b", u, re.I)) \
            and re.search(r"\band\s*$", u[:w.start()].rstrip(", "), re.I):
        return "what_said", 0.9  # "how much did she smoke, and when did she stop?": told, with its time
    clause = WHEN_CLAUSE.match(u)
    if w and clause:
        # "When the doctor examined her, what did he find?": a time clause; the main clause asks.
        return parse_operation(u[clause.end():], spec)
    if w:
        return "when_first", 1.0
    if lx.PREP_WH.match(u):
        return "what_said", 0.95
    if asks_quality(q):
        return "describe", 0.95  # "is the wheeze inspiratory?": what a sound is like (rules.SOUND_QUALITIES)
    if lx.YESNO.match(u) or lx.YESNO_TAIL.search(u) or (lx.EXISTENTIAL.match(u) and not lx.WH_QUESTION.match(u)):
        if lx.choice(u) and not lx.WHO.search(u):
            return "describe", 0.8
        return "exists", 0.9
    if lx.DESCRIBE.search(u):
        return "describe", 0.6
    if lx.BARE.match(u) and not lx.WH_QUESTION.match(u):
        if lx.choice(u) and not lx.WHO.search(u):
            return "describe", 0.8  # "dry or productive cough?": which of the two
        if (lx.VALUE_NP.search(u) and not lx.PARTICIPLE.search(u) and not lx.EXISTENTIAL.match(u)
                and not _names_symptom(u)):
            return "what_said", 0.9  # "BP reading?": the value said
        return "exists", 0.9
    parts = [x for x in re.split(r"\s+/\s+|\s*/\s*(?=on |any |ever |taking |still )", u.strip().rstrip("?").strip()) if x.strip()]
    if len(parts) > 1 and not lx.WH_QUESTION.match(u):
        # "asthma hx / on inhalers?", "fever / rigors?": a list of items asked in shorthand, each as it would be alone
        ops = {parse_operation(x + "?", spec)[0] for x in parts}
        if len(ops) == 1 and ops <= {"exists", "what_said"}:
            return ops.pop(), 0.85
    return "what_said", 0.4


# How a symptom is described rather than heard: its timing, course, triggers, character.
ATTRIBUTE = re.compile(r"\b(worse|better|worst|at night|in the (morning|evening|night)|first thing|when (she|he|they) "
                       r"(lie|lies|exercise\w*|walk\w*|climb\w*)|keep\w* (her|him|them) (up|awake)|wake\w* (her|him|them)|"
                       r"since|for how long|how long|dry|wet|chesty|tickly|barking|painful|hurts?|triggered|brought on|"
                       r"getting|improv\w*|gone|still)\b", re.I)


def _other_concepts(q: str, event: str) -> list[str]:
    """Clinical concepts the question names besides the sound's own ("coughing up phlegm" names a
    productive cough; "a chesty cough" is still the cough), by the findings vocabulary."""
    try:
        from harp_desktop.findings.extract import mentioned_concepts
    except ImportError:
        return []
    own = set(mentioned_concepts(event.replace("_", " ")))
    for m in lx.EVENTS[event].finditer(_unquoted(q).lower()) if event in lx.EVENTS else []:
        own |= set(mentioned_concepts(m.group(0)))  # "a smoke alarm" names no smoking
    return [c for c in mentioned_concepts(lx.SCENE.sub(" ", _unquoted(q))) if c not in own]


def _in_concept_phrase(u: str, feeling: re.Pattern) -> bool:
    """Whether the feeling word belongs to a clinical term of several words ("are the panic attacks still
    happening?", "any anxiety disorder?"): a condition talked about, not a feeling heard in a voice."""
    try:
        from harp_desktop.findings.vocab import load, tokenize
    except ImportError:
        return False
    toks = tokenize(u)
    return any(m.how != "probe" and m.end - m.start > 1 and any(feeling.search(t) for t in toks[m.start:m.end])
               for m in load().match(toks))


PERCEIVED = re.compile(r"\b(sound\w*|seem\w*|voice|tone|come across|came across|comes across|hear\w*|express\w*"
                       r"|show\w*|look\w*|appear\w*|emotion\w*|speaker)\b", re.I)


def _condition_asked(u: str, op: str, spec: QuerySpec) -> bool:
    """Whether "is he depressed?" / "is she anxious at the moment?" asks about a condition the words report
    (low mood, anxiety in the findings vocabulary), not an emotion heard: a yes/no question with no time,
    quote or clip and no word of perceiving ("does she sound anxious?", "does the speaker seem sad?")."""
    if op != "exists" or spec.window is not None or spec.quote or spec.cues or PERCEIVED.search(u):
        return False
    try:
        from harp_desktop.findings.extract import mentioned_concepts
    except ImportError:
        return False
    return bool(mentioned_concepts(u))


def _names_symptom(q: str) -> bool:
    """Whether the question names a symptom of the findings vocabulary ("significant weight loss?" is
    about weight loss, not a weight reading)."""
    try:
        from harp_desktop.findings.extract import mentioned_concepts
        from harp_desktop.findings.vocab import load
    except ImportError:
        return False
    vocab = load()
    return any(getattr(vocab.get(c), "kind", None) == "symptom" for c in mentioned_concepts(q))


# A sound heard through the stethoscope is an examination finding (said by the clinician), not a sound of the recording.
AUSCULTATION = re.compile(r"\b(on (examination|auscultation|listening)|auscultat\w*|stethoscope|in (her|his|the|their) "
                          r"(lungs?|chest)|when (the doctor|the gp|the nurse|he|she) (listened|examined|checked))\b", re.I)


EXAM_SOUNDS = ("wheeze", "breathing")  # sounds a clinician listens for (a cough while she listens is still a cough)


# A verb of saying governing a clause ("did he mention that he listens to music?", "did the doctor say she heard a
# wheeze?"): what was said, whatever hearing word the clause holds.
SAYING_CLAUSE = re.compile(r"\b(mention\w*|say|says|said|tell|tells|told|report\w*|admit\w*)\b (that )?(he|she|they|i|you|"
                           r"the \w+|someone|anyone)\b", re.I)


def parse_target(q: str, op: str, spec: QuerySpec) -> str:
    u = _unquoted(q).lower()
    if op in ("compare", "change"):
        dim = lx.DIMENSION.search(u)
        return dim.group(1).lower() if dim else "arousal"
    if op == "count" and lx.SPEAKER_COUNT.search(u):
        return "speakers"
    event = _first(lx.EVENTS, lx.SCENE.sub(" ", u))
    emotion = _first(lx.EMOTIONS, u)
    spec.event, spec.emotion = event, emotion
    if spec.cues.get("emotion"):
        return "emotion"
    if event in EXAM_SOUNDS and (AUSCULTATION.search(u) or lx.EXAM_ACT.search(u)):
        return "speech"  # "was wheeze heard when the doctor listened to her chest?": what the examination found
    rest = lx.EVENTS[event].sub(" ", u) if event else u  # the sound's own words ("smoke alarm", "dog barking")
    if event and not lx.HEARD.search(u) and _other_concepts(q, event):
        return "speech"  # "any phlegm being coughed up?", "does she cough up blood?": a symptom, not the sound
    if event and op == "exists" and not lx.HEARD.search(u) and ATTRIBUTE.search(rest):
        return "speech"  # "is her cough worse at night?": something said of the symptom, not whether it is heard
    if event and not lx.REPORTED.search(u):
        return "event"
    if event and lx.HEARD.search(u) and not SAYING_CLAUSE.search(u):
        return "event"
    if op == "emotion_at":
        return "emotion"
    if emotion and (lx.SOUNDS_LIKE.search(u) or op in ("when_first", "when_all", "count")) \
            and not lx.SAID_ABOUT.search(u) and not _in_concept_phrase(u, lx.EMOTIONS[emotion]) \
            and not _condition_asked(u, op, spec):
        return "emotion"
    if spec.cues.get("speaker") and op in ("exists", "when_first", "when_all") and not event:
        return "voice"
    if spec.cues.get("sound") and op in ("exists", "when_first", "when_all", "count"):
        return "event"
    return "speech"


INCLUDING = re.compile(r"\b(including|incl\b\.?|as well as|besides|in addition to|plus|not (just|only)( in)?|counting)\b[^,?]{0,60}", re.I)


INNER_WHEN = re.compile(r"(?<=\w)[\s,]+(?:when|whenever|while)\b(?!\s+(?:does|did|do|is|was|were|are|has|have|had|will|"
                         r"would|can|could|should)\b)[^,?]*", re.I)  # ("near the end, when does she...": the question)
SOURCE_FRAME = re.compile(r"\b(?:according to|going by|as (?:told|reported|described) by)\s+(?:the |her |his |their |"
                          r"the patient's )?\w+(?:'s)?(?: (?:account|report|story|words))?\s*,?"
                          # "Susan's estimate of his trips to the loo", "his wife's account of the fall"
                          r"|\b(?:the |her |his |their )?\w+'s (?:estimate|account|version|view|opinion|guess|report|story|"
                          r"words)(?: of)?\b", re.I)


# "Has mum noticed any rash on him?", "did his wife say he's been wheezy?": a yes/no question about what a relative
# reports of the patient. The relative is the source; the question is about the one they speak of.
_FEMALE = "mum|mom|mother|wife|daughter|sister|gran|grandma|nan|aunt|auntie|girlfriend"
_MALE = "dad|father|husband|son|brother|grandad|grandpa|uncle|boyfriend"
REPORTED_BY = re.compile(rf"^\s*(?:has|have|did|does|had|is|was)\s+(?:the |his |her |their |the patient's )?"
                         rf"(?P<rel>{_FEMALE}|{_MALE}|partner|carer)\s+(?:noticed|notice|notices|said|say|says|mention\w*|"
                         rf"report\w*|seen|see|sees|told|tell|describe\w*|think|thinks|thought|heard|hear)\b(?:\s+that)?", re.I)
_HIM, _HER = re.compile(r"\b(he|him|his|he's)\b", re.I), re.compile(r"\b(she|her|hers|she's)\b", re.I)


def strip_reporter(u: str) -> str:
    """The question without its reporting frame when what follows is about someone else (the patient, a child, a
    person of the other sex than the relative): "Has mum noticed any rash on him?" -> "any rash on him?"."""
    m = REPORTED_BY.match(u)
    if not m:
        return u
    rest = u[m.end():]
    female = re.fullmatch(_FEMALE, m.group("rel").lower()) is not None
    other = (lx.CHILD.search(rest) or lx.PATIENT.search(rest) or re.search(r"\b[A-Z][a-z]+\b", rest)
             or (_HIM if female else _HER).search(rest))
    own = (_HER if female else _HIM).search(rest)
    return " " + rest if other and not own else u


def parse(question: str, duration_s: float, cues: dict[str, str] | None = None) -> QuerySpec:
    """The rule parse. Windows and times come from ``localize`` (code, never the model)."""
    cues = {k: v for k, v in (cues or {}).items() if v}
    spec = QuerySpec(question, "what_said", "speech", cues=cues)
    q = question[:2000]
    u = _unquoted(q)
    m = QUOTE.search(q)
    spec.quote = m.group(1) if m else None
    w = localize(q, duration_s)
    if w is not None:
        spec.window, spec.anchor_s, spec.window_text = (w.start_s, w.end_s), w.anchor_s, w.text
    edge = lx.BEFORE_CONSULT.search(u) or lx.AFTER_CONSULT.search(u)
    a = None if edge else lx.ANCHOR.search(u)
    if NARRATED_BEFORE.search(u):
        # "How many times had mum given ibuprofen before the appointment?": the time of the story told (what was
        # done before they came), not a part of the recording -- the answer is said in the consultation.
        edge = a = None
    u_scope = u
    if a is not None and a.group(1).lower() == "while" and any(p.search(a.group(2).lower()) for p in lx.SECTION_WORDS.values()):
        a = None  # "while they were still in the waiting room": the section says where
    if a is not None and spec.window is None:
        spec.relative = (a.group(1).lower(), a.group(2).strip(" -\u2013\u2014"))
        # The anchor's own words are neither the question's scope nor its subject: "once the consultation is
        # over" is after the consultation, and "once the doctor starts examining her" is not about the doctor.
        u_scope = u[:a.start()] + " " + u[a.end():]
    # "According to her sister, is the cough better?": who said it is the source, not whom it is about (their
    # words are read for the patient as a companion's; the frame's words are not the topic either).
    frame = SOURCE_FRAME.search(u_scope)
    if frame:
        said_by, _ = parse_subjects(frame.group(0), False)
        spec.reporter = said_by if said_by.kind in ("other", "named", "patient", "clinician") else None
    u_scope = strip_reporter(SOURCE_FRAME.sub(" ", u_scope))
    # "Back in the waiting room after seeing the doctor, what does she say...": the doctor there says when, not who.
    u_who = lx.AFTER_CONSULT.sub(" ", lx.BEFORE_CONSULT.sub(" ", u_scope))
    # "Was the wrist tender when the practitioner pressed on it?": a person in a when-clause says when, not whom
    # the question is about.
    u_who = INNER_WHEN.sub(" ", u_who)
    spec.subject, spec.others = parse_subjects(u_who, bool(cues.get("speaker")))
    if spec.subject.kind == "cue" and cues.get("emotion") and not cues.get("speaker"):
        spec.subject = Subject("anyone")  # "does anyone sound like this clip?": the clip is how, not who
    spec.operation, spec.confidence = parse_operation(q, spec)
    spec.target = parse_target(q, spec.operation, spec)
    # "Before she goes in", "once she's out of the consultation": the unrelated speech on that side of it.
    # "Including (the people in) the waiting room, how many...": a part named to widen the scope does not narrow it.
    u_scope = INCLUDING.sub(" ", u_scope)
    spec.section = "unrelated" if edge else _first(lx.SECTION_WORDS, u_scope.lower())
    spec.category = _first(lx.CATEGORY_WORDS, u.lower())
    spec.mode = ("exhibited" if lx.EXHIBITED.search(u) else "reported" if lx.REPORTED.search(u) else "either")
    spec.tense = "current" if lx.CURRENT.search(u) else "past" if lx.PAST.search(u) else "any"
    spec.polarity = "negative" if lx.ASKS_DENIAL.search(u) else "positive"
    spec.wants_quote = bool(lx.WANTS_QUOTE.search(u))
    spec.ordinal = "last" if lx.LAST.search(u) else "first"
    t = lx.TOPIC.search(u)
    spec.topic = lx.content_terms(t.group(2)) if t else []
    # Topic words only: the window's own words ("near the end") and the subject's are not the topic.
    framing = set(lx.content_terms(spec.window_text or "")) | {"end", "start", "beginning", "near", "first", "last",
                                                                 "final", "minute", "minutes", "seconds"}
    if spec.section == "dictation":  # "in her dictated letter": where it was said, not what
        framing |= set(lx.content_terms(" ".join(m.group(0) for m in lx.SECTION_WORDS["dictation"].finditer(u_scope))))
        framing |= {"letter", "dictation", "dictated", "dictate", "dictates", "dictating", "notes"}
    if spec.section == "consultation":  # "on the ward round": where, like "consultation" (a stop word)
        framing |= {w for m in lx.SECTION_WORDS["consultation"].finditer(u_scope.lower()) if "round" in m.group(0)
                    for w in lx.content_terms(m.group(0))}
    # The words placing the question before or after the consultation say where, like a section's name.
    scene = lx.SCENE.sub(" ", lx.AFTER_CONSULT.sub(" ", lx.BEFORE_CONSULT.sub(" ", u_scope)))
    spec.terms = [t for t in lx.content_terms(scene) if t not in framing]
    if spec.target == "event" and spec.event is None and cues.get("sound"):
        spec.event = None  # the clip's own sound class is read at answer time
    return spec


def reconcile(rules: QuerySpec, op: str | None, target: str | None, source: str) -> QuerySpec:
    """Another opinion (nearest examples, or the model) may change the operation where the rules
    were not decisive; code keeps what it read for certain (windows, quotes, clips, counts)."""
    u = _unquoted(rules.question)
    if op == "exists" and (lx.WH_QUESTION.match(u) or lx.PREP_WH.match(u) or lx.WH_ANYWHERE.search(u)
                           or re.match(r"\s*how (many|much)\b", u, re.I)):
        return rules  # a wh-question is never answered Yes/No, whatever its neighbours say
    # Operations the grammar must license: a neighbour's vote cannot invent a count, a comparison,
    # a change or an emotion the question never asks about.
    needs = {"count": lx.COUNT, "compare": lx.COMPARE, "change": lx.CHANGE, "emotion_at": lx.MOOD_WORDS}
    if op in needs and not needs[op].search(u):
        return rules
    if op in OPERATIONS and op != rules.operation and rules.confidence < 0.9:
        rules.notes.append(f"operation {rules.operation} -> {op} ({source})")
        rules.operation, rules.source = op, f"{rules.source}+{source}"
        if target in TARGETS and rules.target == "speech":
            rules.target = target
    return rules
