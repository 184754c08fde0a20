"""Assertion status of a concept in its sentence: a small ConText-style rule set.

Cues (negation, history, resolution, conditionals, other people, hedges) are phrases with a
direction and a scope; a concept takes the status of the cues whose scope covers it. Cue words
inside a concept's own phrase never count ("no energy" is fatigue, not a denial of energy).
Answers to questions are read separately (``answer_polarity``): "Not really" is a No,
"A bit" a Yes. docs/decisions.md says why this is ours and not medspaCy's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

_THIS_YEAR = date.today().year  # "in 2019" is over; "in 2031" is not a past episode


def _lex(spec: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(p.split()) for p in spec.split("|"))


# (type, direction, phrases). fwd = covers what follows, bwd = what precedes, both = the clause.
_CUES: list[tuple[str, str, tuple[tuple[str, ...], ...]]] = [
    # Look like cues but are not: consumed first so the words inside them never fire.
    ("pseudo", "both", _lex(
        "no better|not better|not any better|no improvement|not improving|not getting better|not gone|hasn't gone|"
        "hasn't gone away|won't go away|doesn't go away|not going away|not stopped|hasn't stopped|won't stop|doesn't stop|"
        "not only|not just|not as bad|not too bad|not so bad|not that bad|not much better|no change|no doubt|"
        "didn't help|doesn't help|isn't helping|not helping|hasn't helped|nothing helps|not working|doesn't work|"
        "didn't work|gone on|going on|go on|if anything|no matter|not sure|not certain|in may|of may|i don't know|"
        "don't know|can't remember|don't remember|can't tell|cannot tell|not that i know of|"
        # "otherwise" meaning "apart from that" lists what IS there: "otherwise it's my blood pressure",
        # "otherwise fit and well" (the conditional "..., otherwise call us" stays hypothetical)
        "otherwise it's|otherwise it is|otherwise i'm|otherwise i am|otherwise i've|otherwise i have|otherwise i take|"
        "otherwise just|otherwise there's|otherwise fit|otherwise well|otherwise healthy|otherwise fine|otherwise only|"
        # a refusal or dislike negates the wanting, not what it is about: "I don't want you to look in my sore ear"
        "don't want|do not want|doesn't want|didn't want|won't let|don't like|doesn't like|didn't like")),
    ("neg", "fwd", _lex(
        "no|not|never|without|denies|denied|deny|don't|doesn't|didn't|haven't|hasn't|hadn't|isn't|aren't|wasn't|"
        "weren't|won't|can't|cannot|nothing|none|nor|neither|free of|no sign of|no signs of|no evidence of|"
        "negative for|not had|never had|not really|do not|does not|did not|have not|has not|is not|are not|"
        "don't think|unlikely|not got|haven't got|not noticed|no more|non")),
    ("neg", "bwd", _lex(
        "free|negative|ruled out|won't help|won't work|will not help|not needed|isn't needed|aren't needed|"
        "not necessary|unlikely|not at all|none at all|at all")),
    ("hist_strong", "both", _lex(
        "used to|no longer|not anymore|not any more|anymore|any more|ex|former|formerly|gave up|given up|quit|"
        "stopped|came off|come off|not since|finished|"
        # an end in the past: "I was on the pill till I was about thirty"
        "till i was|until i was|till she was|until she was|till he was|until he was")),
    ("hist", "both", _lex(
        "history of|in the past|previously|previous|years ago|months ago|last year|as a child|as a kid|"
        "when i was younger|when i was a child|when i was little|childhood|years back|a long time ago|back in|"
        "when she was little|when he was little|when she was tiny|when he was tiny|when she was a baby|"
        "when he was a baby|when i was a baby|when i was tiny|when she was younger|when he was younger|"
        "a while ago|weeks ago|ages ago|in my twenties|in my teens|for years|before that|back then|at the time")),
    # A recent time that dates an episode only when the episode is told as had ("I had a water infection last month"),
    # not its onset ("it started last week") nor a change in it ("the pain got worse last week").
    ("hist_had", "both", _lex("last month|last week|the week before|a fortnight ago|the other week|a few weeks back")),
    ("resolved", "bwd", _lex(
        "gone now|it's gone|gone away|went away|has gone|is gone|are gone|all gone|completely gone|disappeared|cleared up|cleared|better now|fine now|all better|"
        "recovered|resolved|settled|settled down|got better|gotten better|over it|it stopped|stopped now|clear now|"
        "fine again|back to normal|it's passed|passed now|fine since|been fine since|okay since|fine since then|"
        # a medicine taken to its end: "I finished the course on Monday"
        "finished the course|finished the tablets|finished the antibiotics|finished them|completed the course")),
    ("hypo", "both", _lex(
        "if|unless|in case|should you|should it|should the|should your|were to|watch out for|look out for|"
        "keep an eye out for|side effects|side effect|can cause|may cause|could cause|might cause|risk of|"
        "in the event|otherwise|worsening|any signs of|any sign of|"
        # an inverted "if" with any subject: "should he become confused", "should there be any blood"
        "should he|should she|should they|should there|should anyone|should anything|should this|should that|"
        "should her|should his|should their|should any")),
    ("family", "fwd", _lex(
        "father|dad|daddy|mother|mum|mom|mummy|brother|sister|son|daughter|grandson|granddaughter|grandchild|"
        "grandchildren|grandma|grandmother|granny|nan|nana|grandad|grandpa|grandfather|uncle|aunt|auntie|cousin|"
        "nephew|niece|wife|husband|partner|boyfriend|girlfriend|friend|friends|colleague|colleagues|neighbour|"
        "neighbor|kids|children|child|baby|family|relatives|parents|siblings|flatmate|housemate|family history|"
        "someone at work|people at work|everyone at home|the kids|my kids|the children|brother's|sister's|"
        "mum's|dad's|wife's|husband's|son's|daughter's|father's|mother's")),
    ("family", "bwd", _lex("runs in the family|runs in my family|in the family|in my family|in our family|in the genes")),
    # ...but asked first, the family covers what follows: "does anyone in the family have osteoporosis?"
    ("family", "fwd", _lex("anyone in the family|anybody in the family|someone in the family|anyone else in the family|"
                           "anybody else in the family|anyone in your family|anybody in your family|"
                           "anyone in the immediate family|any of the family|any of your family")),
    ("unc", "both", _lex(
        "might|may|maybe|perhaps|possibly|possible|probably|probable|likely|most likely|i suppose|unsure|not sure|"
        "not certain|i don't know|don't know|no idea|could be|could have|might be|can't remember|don't remember|"
        "query|suspect|suspected|suspicious|questionable|looks like|sounds like|seems like|seems to be|i wonder|"
        "wonder if|rule out|to rule out|exclude|can't tell|cannot tell|i guess|in mind|keep in mind|consider|"
        "considering|"
        # a hedge that owns the "if" after it: "I'm wondering if this is reflux", "I don't know if I'm pregnant"
        "wondering if|wondering whether|wonder whether|i don't know if|i don't know whether|don't know if|"
        "don't know whether|not sure if|not sure whether|i'm not sure if|i'm not sure whether")),
    # "The wheeze fits with asthma": the evidence before, the hedged diagnosis after.
    ("unc", "fwd", _lex("fits with|in keeping with|consistent with|suggests|suggestive of|points to")),
]
# Scope ends: a new clause ("but", "; ", ", and"), or for denials a contrast ("just", "only").
_TERMINATORS = frozenset("but however although though whereas except yet apart aside besides because ; :".split())
# A denial stops at a contrast ("no pain, just tightness") or a new subordinate clause
# ("I'd rather you didn't while you have a fever").
_NEG_STOPS = frozenset("just only except apart other instead rather while whilst when until because".split())
_NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty "
                          "fifty hundred".split())
_PREPOSITIONS = frozenset("at to from with for by of".split())
_FIRST_PERSON = frozenset("i i'm i've i'd i'll me myself".split())
_CLAUSE_AFTER_COMMA = frozenset("and so i i'm i've it it's there there's my we he he's she she's they they're they've".split())
# A denial whose verb is left out ("I'd rather you didn't, you have a fever"; "I don't, I have a
# few beers"): a subject right after the negated auxiliary starts a clause the denial does not
# reach. Not after a thinking word, whose clause is what is denied ("I don't think I have a fever").
_SUBJECTS = frozenset("i i'm i've i'd i'll you you're you've we we're we've they they're he she he's she's".split())
_PAUSE = frozenset(", well so um uh er erm".split())  # "I'd rather you didn't, well, you have a fever"
_MENTAL = frozenset("think believe know reckon remember recall noticed notice that".split())
# A perfect or a "still" makes "for years" a duration up to now, not a past episode.
_ONGOING = frozenset("i've we've you've they've she's he's it's have has still ongoing".split())
_PAST_NEG = frozenset("never didn't hadn't wasn't weren't".split())
_ONSET = frozenset("started began begun start starting came since".split())
# ... and where to go: a relative reading the safety-net back ("so if she gets chest pain it's 999,
# got it"; "if he gets a temperature, straight to A&E") names the service, not a verb of acting.
_FUTURE = frozenset("will 'll i'll you'll it'll we'll would should could call ring phone come please let must "
                    "need go seek take see stop contact 999 111 ambulance straight hospital emergency "
                    "urgently immediately".split())

# Answers to a yes/no question, matched at the start of the answer.
_ANSWERS: list[tuple[str, tuple[tuple[str, ...], ...]]] = [
    ("uncertain", _lex(
        "not sure|i'm not sure|i am not sure|maybe|possibly|perhaps|i don't know|i do not know|dunno|i think so|"
        "might have|might be|could be|hard to say|i can't remember|can't remember|i don't remember|not certain|"
        "i'm not certain|i can't tell|can't tell|i guess so|probably")),
    ("historical", _lex(
        "i used to|used to|not anymore|not any more|no longer|in the past|years ago|i gave up|i quit|i stopped|"
        "i've stopped|gave up|previously|not since|not for years|i did once|once before|i have in the past")),
    ("negated", _lex(
        "no|nope|nah|not really|not at all|never|none|nothing|not that i know of|not that i've noticed|"
        "not that i'm aware of|i don't think so|don't think so|i haven't|i have not|i don't|i do not|i'm not|"
        "i am not|it isn't|it's not|it doesn't|it hasn't|not recently|not as such|can't say i have|not particularly|"
        "no i haven't|no i don't|not lately|neither|nor")),
    ("affirmed", _lex(
        "yes|yeah|yep|yup|yah|aye|i have|i do|i am|i'm afraid so|a bit|a little|a little bit|a lot|quite a bit|"
        "quite a lot|sometimes|occasionally|definitely|absolutely|it is|it does|it has|they do|mm hmm|uh huh|mhm|"
        "sort of|kind of|loads|all the time|constantly|now and then|on and off|certainly|correct|that's right|"
        "i did|it did|i've had|i have had|slightly|mostly|usually|often|every day|most days|plenty|i'm afraid|"
        "afraid so|i still|still do|most nights|every night|all week|still there|still here|still got it|still has it|"
        "still have it|still the same|still going|"
        # there, in some circumstances: "Not when I'm resting. Only a little on the stairs."
        "only when|only on|only if|only at|only a little|just when|just on|not when|not unless|not while")),
]
_FILLERS = frozenset("um uh erm er well oh hmm ah so actually honestly okay ok right doctor and".split())
# Words describing how a function is (sleep, appetite, mood): bad means the problem is there.
_POOR = _lex("bad|badly|poor|poorly|terrible|terribly|awful|awfully|rubbish|horrible|dreadful|worse|less|low|"
             "reduced|down|struggling|hardly|not great|not good|not well|not brilliant|not very good|not so good|"
             "not too good|not much|could be better|up and down|not really|not normal|difficult|hard|off")
_FINE = _lex("fine|good|great|okay|ok|normal|normally|alright|all right|well|not bad|no problems|no problem|"
             "as usual|same as usual|no different|unchanged|brilliant|perfect|fantastic|lovely|better|nothing wrong|"
             # no change is no problem: "about the same really, I'm not eating any less"
             "the same|about the same|much the same|same as ever|same as always|no change|not changed|hasn't changed|"
             "haven't changed|any less|no less|any worse|no worse")


@dataclass
class Cue:
    kind: str
    direction: str
    start: int
    end: int


def _phrase_at(tokens: list[str], i: int, phrases: tuple[tuple[str, ...], ...]) -> int:
    """Length of the longest phrase starting at i (0 if none)."""
    best = 0
    for p in phrases:
        if len(p) > best and tuple(tokens[i : i + len(p)]) == p:
            best = len(p)
    return best


_CUE_INDEX: dict[str, list[tuple[tuple[str, ...], str, str]]] = {}
for _kind, _direction, _phrases in _CUES:
    for _p in _phrases:
        _CUE_INDEX.setdefault(_p[0], []).append((_p, _kind, _direction))
for _entries in _CUE_INDEX.values():
    _entries.sort(key=lambda e: -len(e[0]))  # longest first; pseudo before cues of equal length


def find_cues(tokens: list[str], spans: list[tuple[int, int]]) -> list[Cue]:
    inside = {k for a, b in spans for k in range(a, b)}
    cues: list[Cue] = []
    i = 0
    while i < len(tokens):
        best: tuple[int, str, str] | None = None
        if i not in inside:
            for phrase, kind, direction in _CUE_INDEX.get(tokens[i], ()):
                n = len(phrase)
                if tuple(tokens[i : i + n]) == phrase and not inside.intersection(range(i, i + n)):
                    best = (n, kind, direction)
                    break
        if best:
            cues.append(Cue(best[1], best[2], i, i + best[0]))
            i += best[0]
        else:
            i += 1
    # "in 2018", "back in 2019": a year in the past dates an episode that is over.
    cues += [Cue("hist", "both", i, i + 2) for i in range(len(tokens) - 1) if tokens[i] == "in"
             and not inside.intersection((i, i + 1)) and (_past_year(tokens[i + 1]) or (
                 tokens[i + 1] in _MONTHS and _PAST_VERBS.intersection(tokens[:i])))]
    cues.sort(key=lambda c: c.start)
    # A sentence-initial "No," / "Yes," answers the question; it is not a cue over the sentence.
    if cues and cues[0].start == 0 and tokens[0] in ("no", "nope", "nah") and len(tokens) > 1 and tokens[1] in ",.":
        cues.pop(0)
    cues = [c for c in cues if not (c.kind == "resolved" and tokens[c.end - 1] == "gone"
                                    and c.end < len(tokens) and tokens[c.end] in _BECOME)]
    return [c for c in cues if c.kind != "pseudo" and not _intensifies_match(tokens, c, spans, cues)]


# "It's gone yellowy green", "it's gone worse": "gone" as become, a change, not an end.
_BECOME = frozenset("green greenish yellow yellowy yellowish brown brownish red white grey gray black pink clear thick thicker "
                    "thin runny watery sticky worse bad bloody darker lighter very really quite a more much".split())


_MONTHS = frozenset("january february march april may june july august september october november december".split())
# "I was admitted in January": a month in the past tense (not "I'll see you in March").
_PAST_VERBS = frozenset("was were had did went got came saw".split())


def _past_year(token: str) -> bool:
    return len(token) == 4 and token.isdigit() and 1950 <= int(token) < _THIS_YEAR


_NEGATORS = frozenset("no not never can't cannot don't won't isn't haven't hardly".split())


def _intensifies_match(tokens: list[str], cue: Cue, spans: list[tuple[int, int]], cues: list[Cue]) -> bool:
    """A bare "at all" only strengthens the negation before it; when that negation is part of a
    concept's own words ("no appetite at all", "not eating much at all", "can't sleep at all") it
    strengthens the complaint, not a denial of it."""
    if tuple(tokens[cue.start : cue.end]) != ("at", "all"):
        return False
    before = [(a, b) for a, b in spans if b <= cue.start and _NEGATORS & set(tokens[a:b])]
    if not before:
        return False
    end = max(b for _, b in before)
    return not any(c.kind == "neg" and end <= c.start < cue.start for c in cues)


def _new_subject(between: list[str]) -> bool:
    """A comma and then a definite noun phrase: "your asthma isn't well controlled, the wheeze fits with that"
    (a denial's list goes on without one: "no cough, fever or chills")."""
    return any(t == "," and nxt in _DEFINITE_AFTER_COMMA for t, nxt in zip(between, between[1:], strict=False))


_DEFINITE_AFTER_COMMA = frozenset("the this that these those".split())


def clause_ids(tokens: list[str]) -> list[int]:
    """Clause number of every token: "but", ";" and ", and I..." start a new clause."""
    ids, n = [], 0
    for i, t in enumerate(tokens):
        if t in _TERMINATORS or (i > 0 and tokens[i - 1] == "," and t in _CLAUSE_AFTER_COMMA):
            n += 1
        ids.append(n)
    return ids


def status(tokens: list[str], span: tuple[int, int], cues: list[Cue], clauses: list[int], *,
           speaker_role: str | None = None, other_person: bool = False) -> str:
    """The status of the concept at ``span`` given the sentence's cues."""
    a, b = span
    hits: set[str] = set()
    for c in cues:
        same_clause = clauses[c.start] == clauses[a]
        before, after = c.end <= a, c.start >= b
        if c.kind == "neg":
            between = tokens[c.end : a] if before else tokens[b : c.start]
            words = [t for t in between if t.isalnum() or "'" in t]
            if before and c.direction == "fwd" and _elided(tokens, c):
                continue
            if (before and c.direction == "fwd" and same_clause and len(words) <= 8 and not _NEG_STOPS.intersection(between)
                    and not _new_subject(between)) or (
                    after and c.direction == "bwd" and same_clause and len(words) <= 4 and "," not in between):
                hits.add("neg")
        elif c.kind == "hypo":
            # "If X, ... come back": everything after the cue; before it, only its own clause up to
            # a comma ("I'll see you in a week, or sooner if ..." keeps the week a plan).
            if after and (not same_clause or "," in tokens[b : c.start] or "sooner" in tokens[b : c.start]):
                continue  # "see you again in one week or sooner if ...": the "if" is the sooner's (ASR drops the comma)
            if before and not same_clause and tokens[c.start] in ("if", "unless") and not _opens_main(tokens, c, a, clauses):
                continue  # "... what to do if it gets worse, and I'll see you again in four weeks": a new clause
            if speaker_role not in (None, "clinician") and tokens[c.start] in ("if", "unless") and not _FUTURE.intersection(tokens):
                continue  # "If I climb the stairs I get breathless": the patient's habit, not a conditional
            hits.add("hypo")
        elif c.kind == "family":
            if c.direction == "bwd":
                if after and same_clause:
                    hits.add("family")
            elif before and not _FIRST_PERSON.intersection(tokens[c.end : a]) and "but" not in tokens[c.end : a]:
                k = c.start - 1
                while k >= 0 and tokens[k] in ("my", "our", "the", "his", "her"):
                    k -= 1
                if k < 0 or tokens[k] not in _PREPOSITIONS:  # "a barbecue at my sister's" is a place
                    hits.add("family")
        elif c.kind == "resolved":
            cue_clause_has_concept = clauses[a] == clauses[c.start]
            if after and (cue_clause_has_concept or clauses[a] < clauses[c.start]):
                hits.add("resolved")
        elif same_clause:
            if c.kind == "unc" and c.end < len(tokens) and (tokens[c.end] in _NUMBER_WORDS or tokens[c.end][0].isdigit()):
                continue  # "maybe six or eight units": the amount is hedged, not the drinking
            if c.kind == "unc" and c.direction == "fwd" and not before:
                continue
            if c.kind == "hist" and _ONSET.intersection(t for t, k in zip(tokens, clauses, strict=True) if k == clauses[a]):
                continue  # "it started three years ago" dates the onset; it is still there
            if c.kind == "hist_had":
                clause = {t for t, k in zip(tokens, clauses, strict=True) if k == clauses[a]}
                if "had" in clause and not (_ONGOING | _ONSET).intersection(clause) and "been" not in clause:
                    hits.add("hist")
                continue
            if c.kind == "hist" and tokens[c.start] == "for" and _ONGOING.intersection(
                    t for t, k in zip(tokens, clauses, strict=True) if k == clauses[a]):
                continue  # "I've had this ringing on and off for years": how long, and still there
            hits.add(c.kind)
    if other_person:
        hits.add("family")
    if "neg" in hits and _first_until(tokens, a, b, clauses, cues):
        hits.discard("neg")  # "Never been short of breath in my life until this last month": it is now
    if "neg" in hits and "since" in tokens[b:] and clauses[tokens.index("since", b)] == clauses[a]:
        hits.add("hist_strong")  # "I haven't been sick since Saturday": it was, and it stopped
    return combine(hits)


def _opens_main(tokens: list[str], c: Cue, a: int, clauses: list[int]) -> bool:
    """An "if" opening the sentence governs the main clause after its comma ("If things don't pick
    up, we could think about talking therapy"); not a clause joined on with "and" or "but"."""
    if any(t not in _PAUSE and t != "and" for t in tokens[: c.start]):
        return False
    return clauses[a] == clauses[c.start] + 1 and not _TERMINATORS.union({"and"}).intersection(tokens[c.end : a])


def _first_until(tokens: list[str], a: int, b: int, clauses: list[int], cues: list[Cue]) -> bool:
    """A past denial ended by "until" after the concept: "I'd never had a headache until last week"."""
    k = next((i for i in range(b, len(tokens)) if tokens[i] in ("until", "till") and clauses[i] == clauses[a]), None)
    return k is not None and any(c.kind == "neg" and c.end <= a and tokens[c.start] in _PAST_NEG for c in cues)


def _elided(tokens: list[str], c: Cue) -> bool:
    """A negated auxiliary with its verb left out, a new subject right after it."""
    k = c.end
    while k < len(tokens) and tokens[k] in _PAUSE:
        k += 1
    nxt = tokens[k : k + 2]
    cue = tokens[c.start : c.end]
    return (bool(nxt) and nxt[0] in _SUBJECTS and nxt != ["you", "know"] and cue[-1] not in ("no", "never", "nothing")
            and not _MENTAL.intersection(cue + nxt[1:]))


def combine(hits: set[str]) -> str:
    """One status from the cues that apply. A conditional wins (nothing in it happened); then
    another person (whose denial is still a denial); then giving up; then a plain denial."""
    if "hypo" in hits:
        return "hypothetical"
    if "family" in hits:
        return "negated" if "neg" in hits and "hist_strong" not in hits else "family"
    if "hist_strong" in hits:
        return "historical"
    if "neg" in hits:
        return "negated"
    if "hist" in hits or "resolved" in hits:
        return "historical"
    if "unc" in hits:
        return "uncertain"
    return "affirmed"


def _skip_fillers(tokens: list[str]) -> list[str]:
    i = 0
    while i < len(tokens) and (tokens[i] in _FILLERS or tokens[i] in ",."):
        i += 1
    return tokens[i:]


# A speaker's stance before the answer proper ("I think maybe a bit", "I'd say yes, most days", "to be honest, not
# really"): the answer is what follows it. ("I think so" / "I suppose so" stay whole: uncertain answers of their own.)
_STANCE = _lex("i think|i'd say|i would say|i suppose|i reckon|i guess|to be honest|to be fair|if anything|i mean")


def _after_stance(words: list[str]) -> list[str] | None:
    """The words after a leading stance phrase, or None when there is none (or nothing after it)."""
    n = _phrase_at(words, 0, _STANCE)
    rest = _skip_fillers(words[n:]) if n else []
    return rest if rest and rest[0] != "so" else None


def opens_answer(tokens: list[str]) -> bool:
    """Whether an answer opens with a yes, a no, a hedge or a how-often ("Two nights a week")."""
    words = _skip_fillers(tokens)
    if words and (words[0] in _NUMBER_WORDS - {"a"} or words[0][0].isdigit()):
        return True
    if any(_phrase_at(words, 0, phrases) for _, phrases in _ANSWERS):
        return True
    rest = _after_stance(words)
    return rest is not None and opens_answer(rest)


def answer_polarity(tokens: list[str]) -> str | None:
    """What an answer's opening words say to a yes/no question, or None if they don't."""
    words = _skip_fillers(tokens)
    cues = find_cues(tokens, [])
    best = max(((_phrase_at(words, 0, phrases), label) for label, phrases in _ANSWERS), default=(0, ""))
    rest = None if best[0] else _after_stance(words)
    if rest is not None:
        got = answer_polarity(rest)
        if got is not None:
            return got
    if not best[0] and words and (words[0] in _NUMBER_WORDS - {"a"} or words[0][0].isdigit()):
        best = (1, "affirmed")  # "Two or three nights a week": how often is a yes
    if best[0]:
        if best[1] == "negated" and any(c.kind == "hist_strong" for c in cues):
            return "historical"  # "No, I gave up years ago"
        if best[1] == "negated" and _qualified(words, best[0]):
            return "affirmed"  # "Not really, sometimes a little bit of clear phlegm": a small amount is some
        return best[1]
    if _late_yes(words):
        return "affirmed"  # "Morning and night, yeah", "Down, yeah": what was asked, then the yes
    if _how_often(words):
        return "affirmed"  # "He was, just the once", "She did twice in the night": how often is a yes
    if mentions_other_person(tokens):
        return "family"  # "My son had a cold last week": someone else (the question says who asked)
    if any(c.kind in ("resolved", "hist_strong") for c in cues):
        return "historical"  # "I had it last week, it's gone now"
    return None


_YES = frozenset("yes yeah yep yup aye".split())
_OFTEN = frozenset("once twice thrice times".split())


def _how_often(words: list[str]) -> bool:
    """A frequency in the answer's first clause, with no negator before it ("he did once", "a couple of times")."""
    for t in words:
        if t in _TERMINATORS or t == "." or t in _NEGATORS or t.endswith("n't"):
            return False
        if t in _OFTEN:
            return True
    return False


def _late_yes(words: list[str]) -> bool:
    """A bare yes closing the answer's first clause, after a comma: "Two at night, yeah"."""
    for i, t in enumerate(words):
        if t in _TERMINATORS or t in _NEGATORS:
            return False
        if t in _YES and i > 0 and words[i - 1] == "," and (i + 1 == len(words) or words[i + 1] in ",."):
            return True
    return False


# A hedged No taken back at once by how much or how often there is.
_SOFT_NO = _lex("not really|not much|not a lot|not very much|hardly|not often")
_SOME = _lex("sometimes|occasionally|a little|a little bit|a bit|a tiny bit|now and then|now and again|once or twice")


def _qualified(words: list[str], n: int) -> bool:
    """"Not really, sometimes a little bit": a soft No followed by some (not "No, not at all")."""
    if not _phrase_at(words, 0, _SOFT_NO):
        return False
    rest = words[n:]
    while rest and rest[0] in (",", "but", "just", "only", "well"):
        rest = rest[1:]
    return bool(rest) and bool(_phrase_at(rest, 0, _SOME))


def quality(tokens: list[str]) -> str | None:
    """For a function asked about ("How is your appetite?"): "affirmed" when the words say it is
    poor (the problem is there), "negated" when fine, None when they say neither."""
    for i in range(len(tokens)):
        n_fine, n_poor = _phrase_at(tokens, i, _FINE), _phrase_at(tokens, i, _POOR)
        if n_fine or n_poor:
            return "negated" if n_fine >= n_poor else "affirmed"
    return None


def has_fine_word(tokens: list[str]) -> bool:
    """Questions like "Are you sleeping okay?" ask the inverse: a Yes means no problem."""
    return any(_phrase_at(tokens, i, _lex("okay|ok|well|alright|all right|fine|normally|good|normal"))
               for i in range(len(tokens)))


def mentions_other_person(tokens: list[str]) -> bool:
    return any(c.kind == "family" and c.direction == "fwd" for c in find_cues(tokens, []))


def refers_back(tokens: list[str]) -> bool:
    """A sentence about the person just named: "My dad had a stroke. He also has ..."."""
    return bool(tokens) and tokens[0] in ("he", "she", "they", "he's", "she's", "they've", "they're", "his", "her")


def dates_in_past(tokens: list[str]) -> bool:
    """A yes that dates what was asked in the past ("Yeah, he had it at nursery, two years ago"):
    a past-time cue and nothing saying it goes on ("Yes, it started a year ago", "for years")."""
    cues = [c for c in find_cues(tokens, []) if c.kind in ("hist", "hist_strong", "resolved") and tokens[c.start] != "for"]
    return bool(cues) and not (_ONSET | _ONGOING | {"now", "currently"}).intersection(tokens)


def is_resolution(tokens: list[str]) -> bool:
    """A sentence that only says something has gone ("It cleared up on its own.")."""
    return any(c.kind == "resolved" for c in find_cues(tokens, []))


def sentence_status(u, si: int, m, sentence=None) -> str:
    """Status of match ``m`` in sentence ``si`` of utterance ``u``, with what the neighbouring
    sentences add: "My dad had a stroke. He also has ..." (the person carries over) and
    "I had a rash. It cleared up on its own." (the resolution reaches back)."""
    s = sentence if sentence is not None else u.sentences[si]
    spans = [(x.start, x.end) for x in s.matches]
    cues = find_cues(s.tokens, spans)
    # "If it gets worse, come back" is one safety-net phrase; its "if" still governs the rest.
    cues += [Cue("hypo", "both", x.start + k, x.start + k + 1) for x in s.matches
             if x is not m and "if" in (w := x.surface.split()) and x.concept.fixed_status for k in [w.index("if")]]
    other = False
    if u is not None and refers_back(s.tokens):
        k = si - 1
        while k >= 0 and refers_back(u.sentences[k].tokens):
            k -= 1
        other = k >= 0 and mentions_other_person(u.sentences[k].tokens)
    role = u.role if u is not None else None
    st = status(s.tokens, (m.start, m.end), cues, clause_ids(s.tokens), speaker_role=role, other_person=other)
    if st == "affirmed" and u is not None and si + 1 < len(u.sentences):
        nxt = u.sentences[si + 1]
        if not nxt.matches and not nxt.question and is_resolution(nxt.tokens):
            st = "historical"
    return st
