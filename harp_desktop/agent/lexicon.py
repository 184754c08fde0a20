"""Words that carry the grammar of a question: operations, targets, subjects, sections.

Each pattern stands for a class of wording (how people ask "when", how they name a
clinician), never for one question. The paraphrase tables in tests/agent/test_query.py
check them with wordings written apart from these patterns.
"""

from __future__ import annotations

import functools
import re

IC = re.I
# A quotation: its marks stand apart from letters, so "the patient's cough" is not a quote.
QUOTE = re.compile(r"(?<![\w])['\"‘“]([^\"“”]{4,160}?)['\"’”](?![\w])")
QUOTE_FREE = QUOTE

# -- operations -------------------------------------------------------------------
COMPARE = re.compile(r"\bwhich (speaker|person|one|of (the|them|these|those)( two)?)\b.{0,80}\b(higher|lower|more|less|"
                     r"greater|stronger|calmer|angrier|happier|sadder|most|least)\b"
                     r"|\b(higher|lower|greater|more|less)\b.{0,30}\b(arousal|valence|dominance|energy|activation|"
                     r"positiv\w*|negativ\w*)\b.{0,60}\bor\b"
                     r"|\bwho\b.{0,40}\b(sounds?|sounded|seems?|seemed|was|is)\b.{0,20}\b(more|less|higher|lower)\b.{0,80}\bor\b"
                     r"|\bcompare\b.{0,60}\b(arousal|valence|dominance|emotion\w*|mood)", IC)
CHANGE = re.compile(r"\bhow (did|does|do)\b.{0,80}\b(arousal|valence|dominance|emotion\w*|mood|tone|energy)\b.{0,70}"
                    r"\b(change|shift|evolve|develop|vary|move)\w*"
                    r"|\b(arousal|valence|dominance|energy|activation)\b.{0,70}\b(rise|rose|risen|fall|fell|fallen|"
                    r"increase\w*|decrease\w*|go(es)? up|go(es)? down|went up|went down|drop\w*|change\w*)\b"
                    r"|\b(rise|rose|fall|fell|increase|decrease|go up|go down)\b.{0,40}\b(arousal|valence|dominance)\b"
                    r"|\b(become|became|get|got|grow|grew)\b.{0,20}\b(more|less) (aroused|agitated|activated|positive|"
                    r"negative|calm)\b", IC)
COUNT = re.compile(r"\bhow often\b(?=.{0,40}\b(cough|sneez|laugh|cr(y|ies|ied)|sigh|wheez|clear))|\bhow many\b(?! (years?|months?|weeks?|days?|hours?|minutes?|tablets?|pills?|cigarettes?|puffs?|units?|"
                   r"doses?|drinks?|mg|milligrams?|kilos?|pounds?|miles?|nights?|cups?)\b)|\bnumber of\b"
                   r"|\bcount (the|of)\b|\btimes? in total\b", IC)
# "When is her follow-up?" asks for a date that was said, not for a moment of the recording.
# "When should the nurse call the registrar?", "when might he go home?": a time (or a condition) someone tells of, not a
# moment of the recording -- what they say answers it. ("When can you hear the dog?" asks the recording.)
TOLD_WHEN = re.compile(r"^\s*(?:[^,?]{0,80},\s*)?when (should|might|will|would|could|must|can|ought|is (she|he|they|it) "
                       r"(going|supposed|meant|due|expected|likely))\b(?!.{0,60}\b(hear|heard|audible|speak|spoke|said|say|"
                       r"mention|ask|asks|asked|coughs?|sneezes?|recording|first|last|again|phone|telephone|bell|doorbell|alarm|timer)\b)", IC)
SCHEDULED = re.compile(r"^(?!.*\b(tells?|told|says?|said|gives?|gave|mentions?|explains?|reads?|announces?|asks?|"
                       r"informs?|breaks?)\b)\s*(?:(?:so|and|ok|okay|right|then|now|but|well)\W+)?(?:[^,?]{0,80},\s*)?when (is|was|will|are|does|did|do|should|has)\b.{0,40}\b(appointment|follow-?up|"
                       r"review|test|scan|x-?ray|visit|operation|surgery|results?|booking|slot|booked|scheduled|arranged|due|"
                       r"planned|see (her|him|them|you|me) again|come back|return|next|"
                       # a medicine's timing: "when is the first Entresto to be taken?", "when should he take it?"
                       r"(to )?be (taken|given|started|stopped)|(take|start|stop) (it|them|the (tablets?|medicines?|dose)))\b"
                       r"(?!.{0,30}\b(mentioned|said|discussed|heard|brought up|talk\w*|asked))"
                       # "books the child in - for what time?", "what day is the blood test booked for?": the time said
                       r"|\b(for|at|on) what (time|day|date)(/(time|day|date))?\b.{0,40}?\b(book\w*|appointment|arrang\w*|slot|scheduled)\b"
                       r"|\b(book\w*|arrang\w*|appointment|follow-?up|review|slot)\b.{0,50}?\b((for|at|on) )?what (time|day|date)\b"
                       r"|\bwhat (time|day|date)(/(time|day|date))? (is|was|did|does|will) (the|her|his|their|they|he|she)\b.{0,40}?"
                       r"\b(appointment|book\w*|follow-?up|review|slot|scheduled|arrang\w*|come back|due)\b", IC)
# "How many years did she smoke?" asks for a quantity that was said, not for a count of moments.
SAID_QUANTITY = re.compile(r"\bhow (many|much|long|heavily|old|far)\b", IC)
SAME_EMOTION = re.compile(r"\bsame (emotion|feeling|mood|tone|way)\b|\b(emotion|feeling|mood|tone) (as|like) (in )?(the|this|that)"
                          r" (clip|example|sample|recording)\b|\bsounds? like (this|the) (example|clip|sample)\b", IC)
WHO = re.compile(r"(^|[,;:.\u2014-]\s*)(who|whose)\b|\bwhose (words|voice|idea|question|suggestion|line)\b|\bwhich (speaker|person|of the (two|speakers)|one)\b(?!.{0,60}\b(higher|lower|more|less)\b)"
                 # "which family member has high blood pressure?", "which relative had ear infections?": a person
                 r"|^\s*(which|what) (family member|member of (his|her|their|the) family|relative|relation|"
                 r"(of )?(his|her|their) (relatives|family))\b"
                 r"|\bthe (doctor|clinician|gp|nurse|patient)\b.{0,20}\bor the (doctor|clinician|gp|nurse|patient)\b\s*\??\s*$"
                 # "How is the woman in this clip related to the patient?", "what relation is she to him?": who she is
                 r"|(^|[.?!\]]\s*)how (is|are|was|were) (he|she|they|(?-i:[A-Z][a-z]+)|(the|this|that) ([\w']+ )?"
                 r"(woman|man|person|speaker|caller|voice|lady|gentleman|girl|boy|visitor|companion|reader|child|one)"
                 r"( (in|on|from|of) (the|this|that) \w+)?) (really )?related to\b"
                 r"|\bwhat (relation|relationship|relative)\b.{0,40}\bto\b"
                 r"|\b(relation|relationship) (of|between) .{2,60}\b(to|and) (the patient|him|her|them)\b"
                 # "Identify the speaker at 11:50", "name the voice heard at 2:10"
                 r"|\b(identify|name) (the |this |that )?(speaker|voice|person|caller)\b"
                 r"|\bwho (was|is) it that\b", IC)
EMOTION_AT = re.compile(r"\bwhat (emotion|emotions|feeling|feelings|mood|emotional (state|tone))\b"
                        r"|\bhow (does|did|do)\b.{0,60}\b(sound|seem|come across|feel)\b\s*[?.]?\s*$"
                        r"|\b(emotional (state|tone)|tone of voice|mood)\b.{0,40}\b(at|around|near)\b"
                        r"|\bdescribe\b.{0,30}\b(emotion\w*|mood|tone|feelings?)\b"
                        r"|\b(what|which) (kind of )?(emotion|feeling|mood)\b"
                        r"|\bemotional (state|tone|colou?r)\b|\btone of voice\b"
                        r"|\bwhat (is|was) (his|her|their|the speaker's|the patient's|the doctor's) (mood|tone|emotion|feeling)"
                        r"|\bhow (is|was|are|were) (he|she|they|the speaker|the patient) feeling\b"
                        r"|\bhow (is|was|are|were) (the|that|this) [^?,]{1,40}? feeling\b(?! about)", IC)
WHEN_ALL = re.compile(r"\bfind (all |more |other )?(the )?(sounds?|moments?|parts?|places?|ones?|more|others?)\b.{0,20}"
                      r"\blike (this|that|the)\b|\b(every|each|all the) (time|moment|occasion)s?\b|\ball (the )?(moments|times|occasions|instances)\b"
                      r"|\b(list|give) (all|every|the times)\b", IC)
WHEN = re.compile(r"^\s*when\b|\bat what (time|point|moment)\b|\bwhat time\b(?! of (day|night|the day|the night))|\bfind (the|a) (first )?(moment|time|point|"
                  r"place)\b|\b(point|moment|time) (at|in) which\b|\bhow far (in|into)\b|\btimestamp\b|\bwhen (did|does|do|"
                  r"is|was|were)\b|\bwhere in the (recording|audio)\b|\bhow (soon|long) (into|after the start)\b"
                  r"|\b(point me to|show me|take me to|jump to|locate|find|identify|pinpoint)\b.{0,30}\b(where|moment|"
                  r"time|point|spot|place|first|earliest|last|final)\b|\bwhen\s*\?\s*$"
                  r"|\b(give|tell me|what is|what's|note) (me )?the (start|starting|end|ending|finish) time\b|\bstart time\b"
                  r"|^\s*what('s| is| was) the (first|last|final|earliest|next) (audible |heard )?(cough|sneez|laugh|wheez"
                  r"|throat[- ]clear|sigh|cry|shout|gasp)"
                  r"|\bif so,? (when|at what time)\b|\b(tell me|say|show me|note|find out) when\b"
                  # a noun phrase asking for a time: "Time of Margaret's first cough?", "timing of the first sneeze?"
                  r"|^\s*(the )?(time|timing|moment|onset time) of\b", IC)
# A yes/no question may open with one or two clauses ("In the final minute, does anyone...").
# (An auxiliary dropped before someone unnamed is still a yes/no question: "Anyone cough in the first two minutes?")
# A lead-in may come first: a clause and a comma, a topic and a colon or dash ("Drenching sweats at night: is that
# something she's had?"), a sentence ("Listen to this voice. Does she...?"), or where ("On the phone did mum...?").
YESNO = re.compile(r"\s*(?:[^,?:.!\u2013\u2014]{0,80}(?:,|:|[.!](?=\s)|\s-|\u2013|\u2014)\s*){0,2}"
                   r"(?:(?:on|in|at|during|after|before|over) (?:the |a |her |his |their )?[\w'-]+(?: [\w'-]+){0,3}? )?"
                   r"(does|did|do|is|are|was|were|can|could|has|have|had|will|would|should|"
                   r"any|anyone|anybody|someone|somebody)\b", IC)
WH_QUESTION = re.compile(r"\s*(?:[^,?:\u2013\u2014]{0,80}(?:,|:|\s-|\u2013|\u2014)\s*)?(what|which|where|why|whose|whom|"
                         r"how(?! many))\b", IC)
# Several questions in one ("allergies? what reaction did he have?"): a wh-question among them asks what.
WH_ANYWHERE = re.compile(r"(^|[?.!;+]\s*|\s-\s)(what|which|where|why|whose|whom|how(?! many))\b", IC)
# "For how long...?", "Since when...?", "In which ear...?", "At what dose...?": a preposition before the
# wh-word still makes a wh-question (asking what was said), never a yes/no one.
PREP_WH = re.compile(r"^\s*(?:[^,?]{0,80},\s*)?(for|in|on|at|since|until|till|by|from|to|with|about|after|before|"
                     r"during|into|of) (what|which|when|whom|whose|how)\b", IC)
# "Significant weight loss?", "Any melaena?": a bare noun phrase asked as a question is a yes/no question.
BARE = re.compile(r"^\s*(?:any |anything |something |some |significant |much |a |an )?[a-z' -]{2,60}\?\s*$", IC)
# "Does the cough sound dry or wet?": a choice between two words asks which, not whether.
CHOICE = re.compile(r"\b\w+\W{0,2} or (a |an |the )?(?!not\b|no\b|anything\b|otherwise\b|anyone\b|something\b)\w+\s*[?.]?\s*$", IC)
# Alternatives that exclude each other ("wet or dry?") ask which one; "sharp or stabbing?" or
# "mucus or gunk?" name one thing twice and ask whether.
OPPOSITES = [{"wet", "dry"}, {"productive", "dry"}, {"better", "worse"}, {"left", "right"}, {"more", "less"},
             {"higher", "lower"}, {"rise", "fall"}, {"rose", "fell"}, {"increase", "decrease"}, {"day", "night"},
             {"morning", "evening"}, {"constant", "intermittent"}, {"sharp", "dull"}, {"new", "old"},
             {"inspiratory", "expiratory"}, {"loud", "quiet"}, {"fast", "slow"}, {"up", "down"}, {"male", "female"},
             {"man", "woman"}, {"doctor", "patient"}, {"nurse", "patient"}, {"clinician", "patient"}, {"gp", "patient"}]


# Words that each name one quality of a cough, of which a question may offer two ("a chesty cough or a dry one?").
QUALITY_CHOICES = [{"wet", "dry"}, {"productive", "dry"}, {"chesty", "dry"}, {"loose", "dry"}, {"tickly", "chesty"},
                   {"tickly", "productive"}]


def choice_pair(text: str) -> tuple[str, str] | None:
    """The two excluding alternatives joined by "or" ("wet (with mucus) or dry?", "dry or productive cough?"),
    in the question's order, or None."""
    low = " " + text.lower()  # (an alternative may open the question)
    for pair in OPPOSITES + QUALITY_CHOICES:
        a, b = sorted(pair, key=lambda w: low.find(f" {w}"))
        i, j = low.find(f" {a}"), low.find(f" {b}")
        if i >= 0 and j > i and re.search(r"\bor\b", low[i:j + len(b) + 1]) and j - i < 60:
            return a, b
    return None


# "Is it in the waiting room or in with the nurse?": "is it / was it" with two alternatives asks which.
WHICH_OF_TWO = re.compile(r"\b(is|was) (it|that|this)\b[^?]{0,60}\bor\b", IC)


def choice(text: str) -> bool:
    """Whether the question offers two excluding alternatives (``choice_pair``, ``WHICH_OF_TWO``)."""
    return choice_pair(text) is not None or WHICH_OF_TWO.search(text) is not None


TOPIC = re.compile(r"\b(while discussing|discussing|while talking about|talking about|on the subject of)\s+([^,?;]{3,80})", IC)
LAST = re.compile(r"\bfor the (last|final) time\b|\b(last|final|latest|closing)\b(?! (week|month|year|night|time|few|two|three|minute|minutes|seconds?))", IC)
# An event named in a "when she coughs" clause sets the scene; it is not what is asked about.
SCENE = re.compile(r"\b(when|whenever|if|while|every time) (she|he|they|you|i|the patient) \w+", IC)
YESNO_TAIL = re.compile(r"\b(yes or no|true or false)\b|,\s*(does|did|is|was|has) (she|he|they|it)\b"
                        r"|,\s*(right|correct|yes|no|true|is that right|isn'?t (it|that)|don'?t (they|you))\s*\?\s*$", IC)
DESCRIBE = re.compile(r"^\s*(describe|summari[sz]e|characteri[sz]e)\b|\bhow would you describe\b", IC)
WANTS_QUOTE = re.compile(r"\bwhat (were|was|are|is) (they|he|she|the speaker|it) (saying|talking about|said)\b"
                         r"|\bwhat did (they|he|she) say\b|\band what\b.{0,20}\bsa(y|id)", IC)

# -- targets ------------------------------------------------------------------------
EVENTS = {
    "cough": re.compile(r"\bcough(s|ed|ing)?\b|\bcoughing (fit|bout)s?\b"),
    "sneeze": re.compile(r"\bsneez\w*"),
    "throat_clearing": re.compile(r"throat[- ]clear\w*|clear\w* (his |her |their |the |one's )?throat"),
    "wheeze": re.compile(r"\bwheez\w*"),
    "laughter": re.compile(r"\blaugh\w*|\bgiggl\w*|\bchuckl\w*"),
    "crying": re.compile(r"\bcr(y|ies|ied|ying)\b|\bsob(s|bed|bing)?\b|\bweep\w*|\bin tears\b"),
    "sigh": re.compile(r"\bsigh\w*"),
    "shout": re.compile(r"\bshout\w*|\byell\w*|\bscream\w*"),
    "gasp": re.compile(r"\bgasp\w*"),
    "breathing": re.compile(r"\b(heavy|laboured|labored|noisy) breath\w*"),
    # Ambient sounds of the room (index/ambient_labels.py). A phone only when it rings ("in the phone call"
    # is a section); no ear ("ringing in her ears"), no knock-on effect, no barking cough (croup).
    "telephone": re.compile(r"\b(tele)?phones?\b[^,;?.]{0,40}?\b(ring\w*|rang|rung|go(es)? off|went off|going off|"
                            r"buzz\w*|trill\w*)|\b(ring\w*|rang|rung)\b[^,;?.]{0,25}\b(tele)?phones?\b"
                            r"|\bringtones?\b|\b(mobile|cell ?phone|landline)\b[^,;?.]{0,25}\b(ring\w*|rang|went off|go(es)? off|"
                            r"going off)|\bphone (call )?coming in\b|\bincoming call\b"),
    # A knock at the door, not a knocked knee: a knock named as a thing, one on a door, or someone knocking.
    "knock": re.compile(r"\b(a|the|any|another|second|loud|some|first|no|several|two|three)\s+(\w+ )?knocks?\b"
                        r"|\bknock(s|ed|ing)? (at|on) (the |a )?(door|window|wall)|\bdoor ?knock\w*|\bknocking\b(?! (over|out|"
                        r"off|into|down|back)\b)|\b(someone|somebody|anyone|anybody|they|he|she|visitors?|the receptionist|"
                        r"the nurse|a colleague)\s+knock(s|ed)?\b(?! (over|out|off|into|down|back|her|his|my|their|its|the)\b)"
                        r"|\bknocks\b(?! (over|out|off|into|down|back|her|his|my|their|its|the)\b)"
                        r"|\brap(s|ped|ping)? (at|on) the door\b|\b(someone|somebody|anyone|anybody) (at|on) the door\b"),
    "alarm": re.compile(r"\b(?<!red )(?<!false )alarms?\b(?! (bells?|symptoms?|features?|signs?)\b)|\bbeep\w*|\bbleep\w*"
                        # a device alarming ("when did the pump start alarming?"), not an alarming symptom
                        r"|\b(start\w*|stop\w*|was|were|is|are|kept|keeps|been|began|begins) alarming\b|\balarmed\b(?! (by|at|about))"
                        r"|\bbuzzer\w*|\bsirens?\b|\bsmoke (detector|alarm)s?\b|\btimer\b[^,;?.]{0,20}\b(go|goes|went|going)"
                        r" off\b"),
    "music": re.compile(r"\bmusic(al)?\b|\b(a |the )?(song|tune|melody|radio|piano|guitar)\b[^,;?.]{0,25}"
                        r"\b(play\w*|on)\b|\bplay\w* (a |the |some )?(song|tune|melody|radio)\b"),
    "dog": re.compile(r"\bdogs?\b|\bpupp(y|ies)\b|\bbark(s|ed|ing)?\b(?! (cough|like|sound))(?!y)|\bwoof\w*"),
}
EMOTIONS = {
    "angry": re.compile(r"\bang(ry|er|rily)\b|\bannoy\w*|\bfurious\b|\birritat\w*|\bmad\b|\bcross\b|\bhostile\b|\brage\b"),
    "sad": re.compile(r"\bsad\w*|\bunhappy\b|\bupset\b|\bdepress\w*|\bgloom\w*|\bmiserable\b|\bsorrow\w*|\b(feel\w*|felt|seem\w*|sound\w*|look\w*|is|was|be|been|being|get\w*|got|bit|little|quite|very|so) down\b(?! to\b)|\bdejected\b"),
    "happy": re.compile(r"\bhapp(y|ily|iness|ier)\b|\bcheer\w*|\bjoy\w*|\bexcited\b|\bdelight\w*|\bglad\b|\belated\b|\bpleased\b"),
    "fearful": re.compile(r"\bfear\w*|\bfright\w*|\bscared\b|\bafraid\b|\bterrif\w*|\bpanic\w*|\banxious\w*|\bnervous\w*|\bworried\b"),
    "surprised": re.compile(r"\bsurpris\w*|\bastonish\w*|\bshock\w*|\bamazed\b|\bstartled\b"),
    "disgust": re.compile(r"\bdisgust\w*|\brevolt\w*|\bgross\w*|\brepuls\w*|\bgrossed\b"),
    "calm": re.compile(r"\bcalm\w*|\brelaxed\b|\bserene\b|\bcomposed\b"),
    "neutral": re.compile(r"\bneutral\b|\bflat\b|\bmatter[- ]of[- ]fact\b"),
    # Any emotion at all ("how many emotional outbursts?", "does anyone sound emotional?"): not a state asked of a time.
    "emotional": re.compile(r"\bemotional(ly)?\b(?! (state|tone|content|quality|expression))|\bemotive\b"),
}
EMOTIONAL = ("angry", "sad", "happy", "fearful", "surprised", "disgust")  # what "emotional" covers: not neutral or calm
MOOD_WORDS = re.compile(r"\bemotion\w*|\bfeel\w*|\bmood\b|\btone\b|\bsound(s|ed)?\b|\bcome across\b|\bseem\w*", IC)
SOUNDS_LIKE = re.compile(r"\bsound\w*|\bseem\w*|\bvoice\b|\btone\b|\bcome across\b|\bcame across\b|\bcomes across\b|\bshow\w*"
                         r"|\bexpress\w*|\bemotion\w*|\bfeel\w*|\bmood\b|\bspeaks?\b|\bspoke\b|\btalk\w*|\bhear\w*|\bheard\b"
                         r"|\bbecome\b|\bbecame\b|\bget(s)?\b|\bwas\b|\bis\b|\bwere\b|\bare\b", IC)
# A verb of saying governs the feeling word: "when does the GP say she isn't worried?" asks for words, not a voice.
SAID_ABOUT = re.compile(r"\b(say|says|said|saying|mention\w*|report\w*|tell|tells|told|admit\w*|complain\w*|describ\w*|"
                        r"explain\w*|state[sd]?|reassur\w*|express\w* (that|concern|worry))\b(?!.{0,12}\b(voice|tone)\b)", IC)
HEARD = re.compile(r"\bheard\b|\baudibl\w*|\bhear\b|\blisten\w*|\bhow many (times|coughs|sneezes)\b|\bcan be\b", IC)
REPORTED = re.compile(r"\breport\w*|\b(say|says|said)\b|\bmention\w*|\btell|\btold\b|\bdescrib\w*|\bcomplain\w*|\bdeny|"
                      r"\bdenie\w*|\bdiscuss\w*|\bbring up\b|\bbrought up\b|\badmit\w*|\bhow long\b|\bsince when\b|"
                      r"\bwet\b|\bdry\b|\bproductive\b|\bhistory\b", IC)
EXHIBITED = re.compile(r"\bexhibit\w*|\bheard\b|\baudibl\w*|\bcan (you|one|we) hear\b|\bobserv\w*|\bdisplay\w*|\bshow(s|ed|n)? "
                       r"(signs|any)\b|\bpresent(ed|s)? with\b", IC)
CURRENT = re.compile(r"\b(currently|still|now|at the moment|these days|at present|presently|right now|today)\b", IC)
PAST = re.compile(r"\b(ever|previously|in the past|history of|used to|last (week|month|year)|before)\b", IC)
ASKS_DENIAL = re.compile(r"\bden(y|ies|ied)\b|\brule[sd]? out\b|\b(say|said|says) (she|he|they) (did|does|do|has|had)n't\b"
                         r"|\b(say|said|says) (she|he|they) (was|is|were) not\b|\bnegative for\b", IC)
DIMENSION = re.compile(r"\b(arousal|valence|dominance)\b", IC)
SPEAKER_COUNT = re.compile(r"\bhow many (different |distinct |separate |individual |other )?(people|speakers|voices|persons|individuals|"
                           r"participants|adults|men|women|strangers|visitors|bystanders|callers)\b|\bnumber of (different |distinct )?(speakers|voices|people)\b"
                           r"|\bcount (the |all the )?(different |distinct )?(people|speakers|voices|persons|participants)\b", IC)
OTHER_THAN_PATIENT = re.compile(r"\b(someone|somebody|anyone|anybody|a person|(other )?people|a speaker|others|other speakers|"
                                r"other voices)(?: [\w']+){0,3}? (other than|besides|apart from|rather than|except|excluding|"
                                r"but not|not) the patient\b", IC)
# Which of several unrelated stretches: the one before the consultation, or after it.
# ("before the consultation ends" is inside it: the end of the consultation is its edge, not the waiting room)
_INSIDE_EDGE = r"(?!\s+(?:ends?|ended|finish\w*|is over|was over|closes?|wraps? up|starts?|started|begins?|began|gets going))"
# A hospital ward round is the inpatient's consultation ("on the round", "before the ward round").
_ROUND = r"(?:(?:ward|consultant'?s?|morning'?s?|post-?take) round|round)"
BEFORE_CONSULT = re.compile(r"\bbefore (the |her |his )?(consultation|appointment|visit|" + _ROUND + ")" + _INSIDE_EDGE
                            + r"|\bbefore (she|he|they|the patient|[A-Z][a-z]+) (goes|go|went|gets?|got) (in|through)\b"
                            # Waiting told as an act: "while she's waiting to be seen", "while they wait to go in",
                            # "as they sit waiting": the time before the consultation, wherever they wait.
                            r"|\b(while|whilst|as|when) (she|he|they|the patient|[A-Z][a-z]+|mum|dad)('s|'re| is| are| was| were)?"
                            r" (still )?(sat |sitting |stood |standing )?(waiting|wait|waits)\b(?! (for|on) (the|a|her|his|their) "
                            r"(result|results|reading|machine|test|kettle))"
                            # "before Linda is called in", "before he's seen", "before they get called through"
                            r"|\bbefore (she|he|they|the patient|[A-Z][a-z]+)('s| is| are| was| were| gets?| got)? "
                            r"(called|taken|seen|fetched|shown)( in| through)?\b"
                            r"|\bbefore (seeing|she sees|he sees|they see) the (doctor|gp|nurse|clinician)\b", IC)
AFTER_CONSULT = re.compile(r"\bafter (the |her |his )?(consultation|appointment|visit|" + _ROUND + ")" + _INSIDE_EDGE + r"|\bafterwards\b|\bback in the waiting room\b"
                           r"|\bafter (seeing|she sees|he sees|they see|she saw|he saw|being seen by) the (doctor|gp|nurse|clinician)\b"
                           r"|\b(once|when) (she|he|they) (comes?|came) out\b|\b(out of|left|leaves|leaving) the (consultation|appointment|"
                           r"consulting room|surgery room)\b", IC)
# "Who called Alfie through?", "when is Dorothy called in?": the call from the waiting room.
CALLED_THROUGH = re.compile(r"\b(call\w*|fetch\w*|collect\w*|show\w*)\b.{0,40}\b(through|in|into|back)\b", IC)
# "What did her husband ask her?": the answer is a question someone asked.
ASK_ACT = re.compile(r"\b(ask\w*|enquir\w*|inquir\w*|want\w* to know|wonder\w*|query|queried)\b", IC)

# -- subjects ----------------------------------------------------------------------
# The people who come with a patient or are spoken of (one list for every pattern that names them).
RELATIONS = ("husband|wife|partner|mother|mum|father|dad|son|daughter|relative|carer|friend|companion|grandson|"
             "granddaughter|child|children|baby|brother|sister")
RELATION = re.compile(rf"\b({RELATIONS})\b", IC)
PATIENT = re.compile(r"\b(the |our |this )?patient'?s?\b(?!'?s? (husband|wife|partner|mother|mum|father|dad|son|daughter|"
                     r"relative|carer|friend|companion|grandson|granddaughter|child|children|baby|brother|sister)\b)|\bthe (man|woman|lady|gentleman|person) (being seen|who is ill|"
                     r"with the (cough|symptoms))\b", IC)
CLINICIAN = re.compile(r"\b(the |a )?(doctor|clinician|gp|physician|nurse|practitioner|medic|consultant|dr)\b", IC)
# A parent ringing about a child: "the little boy", "her youngest", "the toddler" are who, not what.
RELATIVE = re.compile(r"\b(the |her |his |their |the patient's )((?:little|young|youngest|eldest|older|younger|baby) )?"
                      r"(husband|wife|partner|mother|mum|father|dad|son|daughter|relative|carer|"
                      r"friend|companion|receptionist|grandson|granddaughter|child|children|baby|brother|sister|"
                      r"boy|girl|kid|toddler|infant|lad|little one|youngest|eldest)\b", IC)
# Words for a child ("the boy", "the little one"): when a parent answers for the patient, the child is the patient.
CHILD = re.compile(r"\b(child|children|baby|boy|girl|kid|toddler|infant|lad|little one)\b", IC)
NAMED_SPEAKER = re.compile(r"\b(SPEAKER_\d+|speaker [A-Z0-9]\b|Speaker [A-Z][a-z]*\b)", 0)
SPEAKER_AT = re.compile(r"\b(?:speaker|person|voice|man|woman|one|lady|gentleman|girl|boy) "
                        r"(?:(?:in|on|from|near|by|at) (?:the |a )?(?!\d)[a-z]+ )?(?:(?:first |who is |who was |that is )?"
                        r"(?:speaking|talking|heard|speaks|talks|who speaks|who talks) )?(?:first )?(?:at|around) "
                        r"(\d{1,2}:\d{2}(?::\d{2})?|\d+(?:\.\d+)? ?s(?:econds?)?)\b"
                        r"|\bthe (\d{1,2}:\d{2}(?::\d{2})?) (?:speaker|voice|man|woman|person)\b", IC)
# "the man", "the woman on the phone" (not "the man at 00:28", which is a time): told apart by voice pitch.
GENDER = re.compile(r"\b(the|a|that|this|one) (man|woman|lady|gentleman|male|female|guy|girl|boy|bloke|chap|fella)\b(?!'s voice)"
                    r"(?! (speaking |talking |heard |who speaks )?(at|around) \d)", IC)
GENDER_WORD = {"man": "man", "gentleman": "man", "male": "man", "guy": "man", "boy": "man", "bloke": "man", "chap": "man",
               "fella": "man",
               "woman": "woman", "lady": "woman", "female": "woman", "girl": "woman"}
# With an example clip, "this reader", "that woman", "the man in the clip" point at the clip's voice.
# Someone sounding like an example clip is how they sound (its emotion, from any voice), not which voice it is.
SOUNDS_LIKE_CLIP = re.compile(r"\b(anyone|anybody|someone|somebody|who|she|he|they|people|any ?one)\b[\w' ]{0,25}\b"
                              r"(sound|sounds|sounded|sounding) (like|the same as|similar to|as \w+ as)\b", IC)
PERSON_CUE = re.compile(r"\b(this|that) (reader|man|woman|lady|gentleman|narrator|presenter|caller|individual|child|girl|boy|"
                        r"guy|person|speaker|voice)\b|\b(man|woman|person|speaker|voice|reader|lady)( heard)? (in|from|of) "
                        r"(this|the|that) (clip|sample|example|recording snippet)\b", IC)
CUE_VOICE = re.compile(r"\b(this|the|that) (voice|speaker|person)( (in|of|from) (the|this) (clip|sample|example|recording))?"
                       r"\b(?! at)|\b(voice|speaker) (sample|clip|example)\b|\bthis clip\b|\bthe clip\b"
                       r"|\b(a|this|the) (short )?(clip|recording|sample) of (the|his|her|their|a|an|this)\b", IC)

# -- windows anchored on something that happens in the recording ---------------------
# "the first cough after the examination starts", "once the consultation is over", "before the
# doctor listens to her chest", "after the phone rings": the window starts (or ends) at a moment the
# recording itself locates (agent/answerers/anchor.py), not at a clock time.
ANCHOR = re.compile(r"\b(after|before|once|following|until|till|by the time|while)\s+(?!(?:that|this|then|it|which)\b)([\w' -]{3,60}?)\s*(?=[,?.;:!]|$"
                    r"|\s(?:when|how|what|who|which|where|why)\b"
                    r"|\s(?:does|did|do|is|was|are|were|can|could|has|have|will|would)\s(?:she|he|they|it|anyone|anybody|"
                    r"someone|somebody|the|his|her|their|any|there)\b)", IC)
EXAM_ACT = re.compile(r"\bexamin\w*|\bexam\b|\blisten\w* to (her|his|your|the|their) (chest|heart|lungs?|breathing|back)"
                      r"|\bauscultat\w*|\bstethoscope\b|\b(take|takes|took|taking|check\w*|measur\w*|count\w*|feel\w*|felt) "
                      r"(her|his|your|the|their) "
                      r"(pulse|blood pressure|temperature|heart rate|oxygen|sats|saturation)|\b(have|has|had|take|takes) a (look|feel|listen)"
                      r"|\bpop (up )?on the couch\b|\bfeel (your|her|his) (tummy|abdomen|belly|neck|glands)"
                      r"|\b(lie|lay|hop|pop|get) (back |down |up )?on(to)? the couch\b"
                      r"|\bpress\w* (on |down on )?(your|her|his|the) (tummy|abdomen|belly|stomach)", IC)
ANCHOR_END = re.compile(r"\b(ends?|ended|ending|is over|was over|finish\w*|done|wraps? up|closes?)\b", IC)
ANCHOR_START = re.compile(r"\b(starts?|started|begins?|began|begun|gets? going|opens?|commences?|connect\w*|(is|was|gets?|got) answered|"
                          r"(is|was|gets?|got) picked up|comes? through|came through)\b", IC)
MENTION_ACT = re.compile(r"\b(mention\w*|says?|said|asks?|asked|talks? about|talked about|brings? up|brought up|raises?|raised|"
                         r"suggests?|suggested|explains?|explained|discuss\w*|tells?|told)\b\s+(.*)$", IC)

# -- sections and categories --------------------------------------------------------
SECTION_WORDS = {
    # An appointment booked for a test or for later ("the blood test appointment", "her next appointment") is not
    # the consultation the recording holds.
    "consultation": re.compile(r"\b(consultation|(?<!test )(?<!scan )(?<!x-ray )(?<!next )(?<!another )(?<!follow-up )"
                               r"(?<!book )(?<!booked )(?<!booking )(?<!blood )appointment(?! (for|slot|time|booked|is booked))"
                               r"|visit|face[- ]to[- ]face|(ward|consultant'?s?|morning'?s?|post-?take) round"
                               r"|(on|during|in|at|through|throughout) (the|his|her|this|today'?s|their|this morning'?s) round|(with|seeing|sees|saw) (the (doctor|gp|nurse|clinician|"
                               r"practitioner|pharmacist|consultant|physio\w*|midwife)|dr\.? [a-z]+)|"
                               r"check-?up|in the (clinic|surgery|room|consulting room|consultation room)"
                               # "during the COPD review", "in her medication review" (not one booked for later)
                               r"|(?<!next )(?<!another )(?<!follow-up )(?<!book )(?<!booked )(?<!booking )review"
                               r"(?! (is |was |has been )?(booked|due|for|in \w+ (weeks?|months?|days?)|on|at|date|appointment))"
                               r")\b"),
    # The phone as a device ("when does the phone ring?", "who answers the phone?", "the desk phone") is a sound or an
    # act in whatever part of the recording it happens; the call is the section.
    "phone_call": re.compile(r"\b(phone|telephone) call\b|\b(?<!desk )(?<!mobile )(?<!answers the )(?<!answer the )"
                             r"(?<!answered the )(?<!answering the )(?<!picks up the )(?<!pick up the )(?<!picked up the )"
                             r"(phone|telephone)\b(?!(?:\s+\w+)?\s+(?:ring\w*|rang|tones?|bell|go|goes|went)\b)(?! number)|\bon the (phone|line)\b|\bthe ((triage|phone|telephone|video|follow-?up|call-?back|first|second|last|earlier|later|"
                             r"overheard|incoming|outgoing|nurse's|doctor's|gp's) )?call\b"
                             r"|\b(triage|video) (call|consultation)\b"
                             # ringing someone back later: "when the GP rings back", "calls her back three days later"
                             r"|\b(gp|doctor|dr \w+|nurse|practitioner|clinician|pharmacist|surgery|practice|consultant) "
                             r"(rings?|rang|ringing|calls?|called|calling|phones?|phoned|phoning)( (her|him|them|mum|dad|"
                             r"the patient|the family|\w+ up))? (back|again|later|(a few|two|three|four|five|\w+) days? later)\b"
                             r"|\bcall-?backs?\b|\bring-?backs?\b"),
    # The clinician's letter or notes spoken alone after the patient left (or handed over to a colleague in the
    # same notes register: the section reader cannot tell a handover from a dictation, nor need it).
    "dictation": re.compile(r"\b(?<!to )hand-?over\b|\bdictat\w*( (letter|notes?|summary))?|\b(letter|notes?|summary) (she|he|they|the doctor|the gp) "
                            r"dictat\w*|\bfor the (notes|record)\b|\b(summary|clinic|referral) letter\b"),
    "unrelated": re.compile(r"\bwaiting[- ]?(room|area)\b|\breading (aloud|out)\b|\bradio\b|\bbefore the consultation\b" + _INSIDE_EDGE + "|"
                            r"\bafter the consultation\b" + _INSIDE_EDGE),
}
CATEGORY_WORDS = {
    "respiratory": re.compile(r"\brespirat\w*|\bbreathing (problems?|symptoms?|complaints?|issues?)\b|\bchest symptoms?\b|"
                              r"\blung\w*"),
    "gastrointestinal": re.compile(r"\bgastro\w*|\b(gi|digestive|bowel|stomach|tummy) (symptoms?|complaints?|problems?|"
                                   r"issues?|trouble)\b|\babdominal (symptoms?|complaints?)\b"),
    "neurological": re.compile(r"\bneuro\w*"),
    "cardiovascular": re.compile(r"\bcardi\w*|\bheart (symptoms?|problems?|complaints?|issues?)\b"),
    "musculoskeletal": re.compile(r"\bmusculo\w*|\bjoint (symptoms?|problems?|complaints?)\b"),
    "ENT": re.compile(r"\b(ear,? nose,? (and|&) throat|ent)\b"),
    "mental health": re.compile(r"\bmental health\b|\bpsychiatric\b|\bpsychological\b|\bmood (symptoms?|problems?)\b"),
    "skin": re.compile(r"\bskin (symptoms?|problems?|complaints?|issues?)\b|\bdermat\w*"),
    "genitourinary": re.compile(r"\burinary\b|\bgenito\w*|\bwaterworks\b"),
    "endocrine": re.compile(r"\bendocrin\w*|\bhormon\w*|\bglandular\b|\bthyroid (problems?|history|issues?)\b"),
    "general": re.compile(r"\bconstitutional\b|\bsystemic symptoms?\b"),
}

STOP = set("""a an the is are was were be been being do does did doing have has had having can could would should
will shall may might must of in on at to for from by with about as into over after before between during through
and or but if then than so that this these those there here what which who whom whose when where why how any
anyone someone some all each every no not yes i you he she it we they me him her them my your his its our their
patient doctor recording speaker person people say said says tell told mention mentioned report reported reports
according time point moment minute minutes second seconds clinician nurse gp consultation anything something
ever currently still now during first last give gave get got mentions describe describes described talk talked
heard hear audio conversation call phone sound sounds voice make made did anybody somebody any
i'm i've i'd i'll you're you've you'd he's he'd she's she'd it's we're we've they're they've they'd that's
there's what's who's isn't aren't wasn't weren't doesn't don't didn't hasn't haven't hadn't can't won't""".split())
# A permission frame is not the topic: "is she allowed to go home?" asks about going home (answerers/words.py too).
PERMISSION = frozenset("allowed permitted able supposed".split())
STOP |= PERMISSION


# A question's or a turn's words: lower-case words, and a measured value with a decimal point ("is 38.3": what was
# said); whole numbers are mostly times and windows, read by localize.
DECIMAL = re.compile(r"\b\d+\.\d+\b")
WORDS = re.compile(r"[a-z][a-z'-]+|" + DECIMAL.pattern)


def content_terms(text: str) -> list[str]:
    """The topic words of a question (what it is about), in order, without grammar words."""
    words = WORDS.findall(text.lower())
    return list(dict.fromkeys(w for w in words if w not in STOP and len(w) > 2))[:10]


def clock_seconds(text: str) -> float | None:
    m = re.fullmatch(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", text.strip())
    if m:
        h, mi, s = (0, int(m.group(1)), int(m.group(2))) if m.group(3) is None else \
            (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return h * 3600 + mi * 60 + s
    m = re.fullmatch(r"(\d+(?:\.\d+)?) ?s(?:econds?)?", text.strip())
    return float(m.group(1)) if m else None


# Everyday words for the same person ("my mum" answers "his mother") or course: read as one stem everywhere.
SAME_WORD = {"mum": "mother", "mom": "mother", "mam": "mother", "mummy": "mother", "mommy": "mother", "dad": "father",
             "daddy": "father", "hubby": "husband", "grandma": "grandmother", "granny": "grandmother", "nan": "grandmother",
             "nana": "grandmother", "grandpa": "grandfather", "grandad": "grandfather", "granddad": "grandfather",
             "kid": "child", "kids": "child", "children": "child", "alright": "allright",
             # The course of an illness in everyday words: "the cramps are easing off" says he is getting better.
             "improving": "better", "improved": "better", "improves": "better", "improve": "better", "easing": "better",
             "eased": "better", "eases": "better", "recovering": "better", "worsening": "worse", "worsened": "worse",
             "deteriorating": "worse", "deteriorated": "worse"}


def stem(w: str) -> str:
    """A light suffix stripper ("wakes", "waking" -> "wak"; "planned" -> "plan"), cut to six letters:
    enough to meet inflections of the same word, no stemming library being installed."""
    w = w.lower().strip("'")
    w = SAME_WORD.get(w, w)
    if len(w) > 4:
        if w.endswith("ies"):
            w = w[:-3] + "y"
        elif w.endswith(("ing", "ed")) and len(w) - (3 if w.endswith("ing") else 2) >= 3:
            w = w[:-3] if w.endswith("ing") else w[:-2]
            if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]  # planned -> plan
        elif w.endswith(("ches", "shes", "xes", "sses")):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
    elif len(w) == 4 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]  # gets -> get, cats -> cat
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w[:6]


def stems(text: str) -> list[str]:
    low = re.sub(r"\ball right\b", "allright", text.lower())  # "all right" / "alright": one word
    return [stem(w) for w in WORDS.findall(low)]


_SMALL = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                                     "fifteen sixteen seventeen eighteen nineteen twenty".split())}
_SMALL.update({"once": 1, "twice": 2, "thrice": 3, "couple": 2, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
               "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "single": 1, "both": 2})


_GLUE = frozenset("the a an of to in on and or is was were are be he she it they his her their him them had has have "
                  "i you we my your our that this these those s so with by from".split())
AGE_ASKED = re.compile(r"\bhow old\b|\bwhat age\b|\bage (was|did|when)\b|\baged\b", re.I)


_UNIT_WORDS = frozenset("second seconds minute minutes hour hours day days week weeks month months year years mg ml kg "
                        "milligrams millilitres milliliters micrograms grams litres units percent cm mm".split())


def spoken_count(text: str, question: str = "") -> int | None:
    """A whole number a sentence states, as digits or words ("three times", "twice", "a couple"): of
    several, the one whose neighbouring words the question shares most ("how many years did she smoke
    for?" -> "for fifteen years", not "stopped five years ago"); else the first."""
    words = re.findall(r"\d+(?:\.\d+)?|[a-z]+", text.lower())
    # Grammar words bind nothing ("the 6 plus 1" is not nearer "the GP"); a clock time is not a count. (Not STOP:
    # "for", "time", "minutes" do bind a number -- "for 15 years".)
    asked = set(stems(question)) - _GLUE if question else set()
    found: list[tuple[int, int]] = []  # (position, value)
    for i, w in enumerate(words):
        if w.isdigit():
            found.append((i, int(w)))
        elif w in _SMALL and (i == 0 or words[i - 1] not in _SMALL or _SMALL[words[i - 1]] % 10):
            n, nxt = _SMALL[w], words[i + 1] if i + 1 < len(words) else ""
            if 20 <= n < 100 and n % 10 == 0 and nxt in _SMALL and 0 < _SMALL[nxt] < 10:
                n += _SMALL[nxt]  # "ninety seven"
            found.append((i, n))
    # A number the question states is what it asks about, not its answer ("max doses in 24 hours?": not 24).
    found = [f for f in found if words[f[0] + 1: f[0] + 3] != ["o", "clock"] and words[f[0] + 1: f[0] + 2] not in (["am"], ["pm"])]
    if re.search(r"\bhow many\b|\bcount\b|\bnumber of\b", question, re.I) and not AGE_ASKED.search(question):
        # In a count, a number bound to a unit it does not count measures something else: "how many flare-ups this
        # year?" is not "for five days" nor "nine years ago" (the unit counted is the noun after "how many"). Only
        # in a count: "when did he give up?" is answered by "three years ago", and "16 years old" is an age.
        noun = re.search(r"\bhow many (\w+)", question, re.I)
        units = {stem(noun.group(1).lower())} if noun else asked
        found = [f for f in found if not (words[f[0] + 1: f[0] + 2] and words[f[0] + 1] in _UNIT_WORDS
                                          and stem(words[f[0] + 1]) not in units)]
        if not found:
            return None
    given = {int(n) for n in re.findall(r"\b\d+\b", question)} | {v for w, v in _SMALL.items() if re.search(rf"\b{w}\b", question, re.I)}
    found = [f for f in found if f[1] not in given] or found
    age = bool(AGE_ASKED.search(question))
    if age:
        found = [f for f in found if f[1] <= 120] or found  # "in 2010" is a year, not an age
    if not found:
        return None

    def shared(i: int) -> int:
        near = [w for w in words[max(0, i - 3): i + 4] if not w.isdigit() and w not in _SMALL]
        # "How old was he when he started?": an age reads "when I was 15", "aged 15", "15 years old".
        said_age = age and (" ".join(words[max(0, i - 2): i]) in ("i was", "he was", "she was", "was", "at", "aged", "age")
                            or words[i - 1:i] in (["was"], ["aged"], ["age"]) or words[i + 1: i + 3] == ["years", "old"])
        # the number of the unit asked for ("how many years?" -> "for fifteen years", not "ten a day")
        unit = 2 if words[i + 1: i + 2] and words[i + 1] in _UNIT_WORDS and stem(words[i + 1]) in asked else 0
        return len(asked & set(stems(" ".join(near)))) + (3 if said_age else 0) + unit

    return max(found, key=lambda f: (shared(f[0]), -f[0]))[1]


# -- kinds of finding a question asks for -------------------------------------------
KIND_WORDS = {
    "medication": re.compile(r"\bmedic\w*|\btablets?\b|\bpills?\b|\bdrugs?\b|\bdose\b|\bdosage\b|\bprescri\w*|\btak(e|es|ing)\b"
                             r"|\binhaler\b|\bpuffs?\b", re.I),
    "allergy": re.compile(r"\ballerg\w*", re.I),
    "vital": re.compile(r"\btemperature\b|\bblood pressure\b|\bpulse\b|\bheart rate\b|\bsaturation\b|\boxygen\b|\bpeak flow\b"
                        r"|\breading\b|\bweight\b|\bmeasure\w*|\b(breathing|respiratory|resp|pulse) rate\b|\bsats\b|\bbp\b"
                        r"|\btemp\b|\bthermometer\b|\bobservations\b|\bobs\b|\bvital signs\b|\bvitals\b", re.I),
    "plan": re.compile(r"\badvi[cs]\w*|\bplan\b|\brecommend\w*|\bsuggest\w*|\bnext steps?\b|\bfollow[- ]up\b|\barrange\w*"
                       r"|\breferr\w*|\btests?\b|\binvestigat\w*|\bsick note\b|\btreatment\b", re.I),
    "examination": re.compile(r"\bfind\b|\bfound\b|\bexamin\w*|\bon listening\b|\bfind(ings?)? on\b|\bauscultat\w*|\bstethoscope\b|\bexam\b",
                              re.I),
    "diagnosis": re.compile(r"\bdiagnos\w*|\bwhat (does|did) the (doctor|gp|nurse|clinician) think\b|\bcause\b|\blikely\b", re.I),
    "history": re.compile(r"\bsmok\w*|\balcohol\b|\bdrink\w*|\btravel\w*|\bjob\b|\bwork\b|\boccupation\b|\bhistory\b", re.I),
}


WH_HEAD = re.compile(r"^\s*(?:[^,?]{0,80},\s*)?(?:what|which)\b((?:\s+[\w'-]+){1,6})", re.I)
AUX = re.compile(r"^(did|does|do|is|are|was|were|has|have|had|should|must|will|would|can|could|'s|s)$", re.I)


def asked_kinds(question: str) -> list[str]:
    """Kinds of finding a wh-question asks for by its head (what it asks for), not by any word in it.

    The head is the noun phrase after "what/which" ("which medicines does she take", "what
    allergies"); with none ("what did the doctor advise", "what was the blood pressure reading")
    it is the words after the auxiliary. "What reaction did penicillin cause?" asks for a
    reaction, not a list of causes; "how long must he stay off work?" asks no list."""
    m = WH_HEAD.match(QUOTE_FREE.sub(" ", question).replace("'s ", " 's "))
    if not m:
        # "working diagnosis?", "plan?": an elliptical question is its own head
        return [k for k, p in KIND_WORDS.items() if p.search(question)] if elliptical(question) else []
    words = m.group(1).split()
    cut = next((i for i, w in enumerate(words) if AUX.match(w)), len(words))
    head = " ".join(words[:cut][:4] if cut > 0 else words[1:6])
    kinds = [k for k, p in KIND_WORDS.items() if p.search(head)]
    if "medication" in kinds and KIND_WORDS["allergy"].search(question):
        return ["allergy"]  # "which medicines is she allergic to?": the allergies (to medicines), not what she takes
    return kinds


# An elliptical question that names a value ("BP reading?", "temp on examination?", "levo dose?",
# "cups of coffee a day?", "working diagnosis?") asks for what was said, not Yes/No; one with a
# participle ("sats checked?") still asks whether.
VALUE_NP = re.compile(r"\b(readings?|doses?|dosage|levels?|results?|scores?|temperature|blood pressure|heart rate|pulse|"
                      r"saturation|weight|height|peak flow|bmi|diagnosis|impression|plan|follow-up|a day|a week|a night|per day|"
                      r"per week|amount|number|name|date|occupation|job|age|bp|sats|spo2|o2 sats|temp|pack[- ]?years?|"
                      r"units|fev1|resp(iratory)? rate|rr|hr|news( score)?|gcs|mrc( grade| score)?|phq-?9|amt|crb-?65)\b", IC)
EXISTENTIAL = re.compile(r"^\s*(any|anything|some|something|no|ever)\b", IC)
def elliptical(question: str) -> bool:
    """A question that is only a noun phrase ("working diagnosis?", "BP reading?", "any SOB?")."""
    return bool(BARE.match(question)) and not re.match(
        r"\s*(how|what|when|who|whom|whose|where|why|which|do|does|did|is|are|was|were|has|have|had|can|could|will|"
        r"would|should|shall|may|might|must)\b", question, re.I)


PARTICIPLE = re.compile(r"\b\w{3,}ed\b|\b(done|taken|given|seen|heard|said)\b", IC)
TALLY = re.compile(r"\b(cough|sneeze|laugh|question|people|speaker|voice|word|blow|breath)s? (count|tally|total)\b|^\s*count\b|\b(tally|count|total) of\b", IC)


# -- clinicians' shorthand -------------------------------------------------------------
# Common abbreviations of UK/US clinical notes (as in the NHS Data Dictionary and medical-school note
# conventions), read as their words before anything else, so "SOB?", "any CP with the palps?" and
# "FHx of bowel ca?" reach the same parse as their spelled-out paraphrases. Case matters where a
# lower-case form is an ordinary word ("ca", "pt", "temp" are expanded only in their clinical use).
SHORTHAND = [
    (r"\bSOBOE\b", "short of breath on exertion"), (r"\bSOB\b", "short of breath"), (r"\bN\s*&\s*V\b", "nausea and vomiting"),
    (r"\bN/V\b", "nausea and vomiting"), (r"\bD\s*&\s*V\b", "diarrhoea and vomiting"), (r"\bCP\b", "chest pain"),
    # The "x" family is written in either case ("FHx", "fhx", "hx"): none of them is an English word.
    (r"\bpalps\b", "palpitations"), (r"(?i)\bFHx\b", "family history"), (r"(?i)\bPMHx?\b", "past medical history"),
    (r"(?i)\bPHx\b", "past history"), (r"(?i)\bDHx\b", "drug history"), (r"(?i)\bSHx\b", "social history"), (r"\bSH\b(?=\s*[?:.]|\s*$)", "social history"),
    (r"(?i)\bHx\b", "history"), (r"(?i)\bDx\b", "diagnosis"), (r"(?i)\bRx\b", "treatment"), (r"(?i)\bSx\b", "symptoms"),
    (r"\bc/o\b", "complains of"), (r"\bO/E\b", "on examination"), (r"\bf/u\b", "follow-up"), (r"\bF/U\b", "follow-up"),
    (r"\bBP\b", "blood pressure"), (r"\bHR\b", "heart rate"), (r"\bRR\b", "respiratory rate"), (r"\bsats\b", "oxygen saturation"),
    (r"\bSpO2\b", "oxygen saturation"), (r"\btemp\b", "temperature"), (r"\bwt\b", "weight"), (r"\bmeds\b", "medications"),
    (r"\bGI\b", "gastrointestinal"), (r"\bGU\b", "genitourinary"), (r"\bMSK\b", "musculoskeletal"), (r"\bCVS\b", "cardiovascular"),
    (r"\bURTI\b", "upper respiratory tract infection"), (r"\bLRTI\b", "chest infection"), (r"\bUTI\b", "urine infection"),
    (r"\bLOC\b", "loss of consciousness"), (r"\bPR bleed\w*", "rectal bleeding"), (r"\bca\b(?=\s*[?.,]|\s*$)", "cancer"),
    (r"\b(bowel|breast|lung|prostate|skin) ca\b", r"\1 cancer"), (r"\bpts?\b", "patient"), (r"\bdocs?\b", "doctor"),
    (r"\bconsult\b", "consultation"), (r"\bappts?\b", "appointment"), (r"\bwaiting-room\b", "waiting room"), (r"(?i)\b(how|who|where|when)'s\b", r"\1 is"), (r"(?i)\b(who|what|where)s\b", r"\1 is"), (r"\byrs\b", "years"), (r"\bwks\b", "weeks"), (r"\bmins\b", "minutes"),
    (r"\bsecs\b", "seconds"), (r"\babdo\b", "abdominal"), (r"\bresp\b", "respiratory"), (r"\bobs\b", "observations"),
    (r"\bw/", "with "), (r"\bw/o\b", "without"), (r"\bb/c\b", "because"), (r"\bpls\b", "please"), (r"\bwht\b", "what"),
]
_SHORTHAND = [(re.compile(a), b) for a, b in SHORTHAND]
# Words a question turns on (roles, relations, sections, measurements): a slip of one or two letters
# ("husbnad", "stomache", "alergies") is read as the word, never an ordinary word as another.
KEY_WORDS = ("patient doctor husband daughter mother father brother sister receptionist nurse consultation "
             "temperature stomach allergies allergy medication medicines breathless palpitations symptoms "
             "examination diagnosis appointment waiting").split()


@functools.lru_cache(maxsize=1)
def _known_words() -> frozenset[str] | None:
    """Whole words of the text model's WordPiece vocabulary (30k English words): a word found there is
    a real word and is never "mended". None (no mending at all) when the tokenizer is not available."""
    try:
        import json

        from harp_desktop import weights

        vocab = json.loads(weights.model_file("text", "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
        return frozenset(w for w in vocab if w.isalpha())
    except Exception:  # noqa: BLE001 - without the vocabulary, slips stay as typed
        return None


def _known(w: str, known: frozenset[str]) -> bool:
    return w in known or w[:-1] in known or w[:-2] in known or (w.endswith("ies") and w[:-3] + "y" in known)


def normalise_shorthand(question: str) -> str:
    """The question with clinical abbreviations spelled out and slips in key words mended."""
    from rapidfuzz import fuzz

    q = question
    for pat, rep in _SHORTHAND:
        q = pat.sub(rep, q)
    known = _known_words()

    def mend(m: re.Match) -> str:
        w = m.group(0)
        low = w.lower()
        if len(low) < 6 or low in KEY_WORDS or known is None or _known(low, known):
            return w
        best = max(KEY_WORDS, key=lambda k: fuzz.ratio(low, k))
        return best if fuzz.ratio(low, best) >= 85 and sorted(low) == sorted(best) or \
            (fuzz.ratio(low, best) >= 88 and abs(len(low) - len(best)) <= 1) else w

    return re.sub(r"[A-Za-z]+", mend, q)


# Acts of speech a question names ("who asked about...", "who first brought up...", "what did she tell...").
ASKING = re.compile(r"\b(ask\w*|enquir\w*|inquir\w*|question\w*|want\w* to know|wonder\w*|check\w* (whether|if))\b", IC)
RAISING = re.compile(r"\b(br(ing|ings|ought) up|rais\w*|first (mention\w*|talk\w*|sa(y|id|ys))|introduc\w*|start\w* talking)\b",
                     IC)
SPEECH_ACT = re.compile(r"\b(tell\w*|told|sa(y|ys|id)|suggest\w*|advis\w*|recommend\w*|call\w*|mention\w*|explain\w*|"
                        r"offer\w*|propos\w*|instruct\w*|remind\w*|warn\w*|reassur\w*|describ\w*|point\w* out|"
                        r"use[sd]? the (word|phrase)|reads? (out|back|aloud)|reading (out|back|aloud))\b", IC)


# The circumstances a symptom is asked about in ("breathless at rest?", "chest pain on exertion?") and the
# everyday words a consultation says them with ("I feel fine sitting down", "puffed out on the stairs").
CIRCUMSTANCES = {
    "exertion": "exertion exert exerting exercise exercising stairs steps climbing climb hill hills walking walk running "
                "run gym jogging active activity effort",
    "rest": "rest resting sitting sit lying still relaxing relaxed",
    "night": "night nights nighttime overnight bed bedtime asleep",
    "eating": "eating eat meal meals food",
}
CIRCUMSTANCE_STEMS = {k: frozenset(stems(v)) for k, v in CIRCUMSTANCES.items()}


def circumstance(text: str) -> str | None:
    """The circumstance a question names for its symptom, if one."""
    have = set(stems(text))
    return next((k for k, v in CIRCUMSTANCE_STEMS.items() if have & v), None)
