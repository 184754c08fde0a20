"""People named in a question, resolved to the voices of the recording.

Users ask about people by name ("Has Claire had any thoughts of self-harm?", "Mark speaks how many
times?", "what did Dr Mehta prescribe?"). A name is not a topic: matched as a word it drags the
answer to wherever the name is said (the dictation's "patient Claire Dawson"). The recording says
who is who in a few ways that need no model: a voice introduces itself ("I'm Dr Mehta", "Hello,
it's Daniel", "Kevin speaking"), or is addressed by the other voice ("Mrs Dawson, come and have a
seat" -- the next voice; "Thank you, Grace." -- the voice just answered). ``resolve`` rewrites each
name whose voice is known as that voice ("the patient", "the doctor", or its speaker label), so
the question is then parsed and answered like any question about that person. Names no voice
answers to (a child talked about, a doctor who is not there) are left as words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from harp_desktop.findings.questions import asks_at
from harp_desktop.findings.vocab import tokenize

TITLE = r"(?:Dr|Doctor|Nurse|Mr|Mrs|Ms|Miss|Sister)\.?"
NAME = r"[A-Z][a-z]{2,}"
SELF = re.compile(rf"\b(?:I'm|I am|my name is|[Ii]t's|[Ii]t is|this is)\s+(?:{TITLE}\s+)?({NAME})(?:\s+(?:[A-Z]\.\s+)?({NAME}))?")
SPEAKING = re.compile(rf"\b({NAME})\s+speaking\b")
# An identity check answered: "Ron Fletcher, I'm 71.", "Margaret Doyle, date of birth 3rd of May": one's own name.
SELF_LEAD = re.compile(rf"^\s*(?-i:({NAME}))(?:\s+(?-i:({NAME})))?[,.]\s+(?:(?:I'm|I am|aged)\s+(?:\d+|[a-z]+ty)\b|(?:my )?date of birth\b|born\b|"
                       rf"D\.?O\.?B\b)", re.I)
ADDRESS_START = re.compile(rf"^\s*(?:(?:[Hh]ello|[Hh]i|[Mm]orning|[Tt]hanks|[Tt]hank you),?\s+)?({TITLE}\s+)?({NAME})(?:\s+({NAME}))?[,?]\s")
FULL_NAME = re.compile(rf"\b({NAME}) ({NAME})\b")
ADDRESS_IN = re.compile(rf",\s+({TITLE}\s+)?({NAME})\s*[,.!?]")
# "Thanks, Graeme", "Sorry to hear that, Mark": the voice just heard is addressed, whatever follows.
INTRODUCED = re.compile(r"\b(this is|meet|here's|with) (my|our|her|his) \w+,\s*$", re.I)
# "His big sister, Ruby, had a sore throat": the name stands beside the relation it names (apposition).
APPOSITION = re.compile(r"\b(sister|brother|mother|mum|mom|father|dad|son|daughter|wife|husband|partner|friend|grandson|"
                        r"granddaughter|grandma|grandmother|granny|grandad|grandfather|grandpa|aunt|auntie|uncle|cousin|"
                        r"niece|nephew|neighbour|neighbor|boy|girl|baby|child|colleague|boss|carer|sibling)s?,\s*$", re.I)
THANKS_BEFORE = re.compile(r"\b(thanks|thank you|sorry|well done|bless you|i see|right)\b[^,.?!]{0,25},\s*$", re.I)
# "This is Lakeside Surgery", "it's Elm Ward", "this is Lake Side Today": a place or a programme introduced, not a person.
PLACE = re.compile(r"\s*(?:[A-Z][a-z]+\s+)?(?:Surgery|Practice|Pharmacy|Chemist|Ward|Hospital|Clinic|Centre|Center|Medical|"
                   r"Health|Today|News|Radio|Road|Street|Lane|Avenue|Unit|Department|Team|Services?|Trust|Group)\b")
# Capitalised words that open or close a turn without naming anyone.
NOT_NAMES = frozenset(
    "okay right well sorry thanks thank hello morning afternoon evening yes yeah no now so and but please look next "
    "great lovely good fine sure brilliant perfect alright doctor nurse surgery monday tuesday wednesday thursday "
    "friday saturday sunday january february march april may june july august september october november "
    "december mr mrs ms miss dr doctor nurse sister god gosh oh ah um er mum dad love dear darling sir madam everyone also just then actually anyway "
    "certainly absolutely exactly honestly really maybe perhaps sometimes definitely clear terribly medications "
    "you know who whose whom what which when where why how is are was were does did do can could would should will "
    "has have had any".split())


def voices_by_name(segments: list[dict], label_of: Callable[[dict], str | None]) -> dict[str, str]:
    """Lower-cased first and last names -> the speaker label they belong to (most votes wins)."""
    votes, _ = _votes(segments, label_of)
    return {n: c.most_common(1)[0][0] for n, c in votes.items() if c}


def voice_names(segments: list[dict], label_of: Callable[[dict], str | None], least: int = 2) -> dict[str, str]:
    """Speaker label -> the name it answers to ("Marcus", "Helen Marsh"): the best-voted name whose
    votes for that voice reach ``least`` (one bare address is not enough), with its surname when a
    full name said in the recording pairs the two."""
    votes, pairs = _votes(segments, label_of)
    best: dict[str, tuple[int, str]] = {}
    for n, c in votes.items():
        top = c.most_common(2)
        lab, w = top[0]
        if len(top) > 1 and top[1][1] == w:
            continue  # as much one voice's as another's ("Ronald Fletcher, I'm ready" -- answered by his wife): neither
        if w >= least and w > best.get(lab, (0, ""))[0]:
            best[lab] = (w, n)
    out = {}
    for lab, (_, n) in best.items():
        full = next(((a, b) for a, b in pairs if n in (a, b) and votes[a].most_common(1)[0][0] == lab), None)
        out[lab] = " ".join(x.capitalize() for x in (full or (n,)))
    return out


def _votes(segments: list[dict], label_of: Callable[[dict], str | None]) -> tuple[dict[str, Counter], list]:
    turns = [s for s in sorted(segments, key=lambda s: s["start_s"]) if (s.get("text") or "").strip() and label_of(s)]
    votes: dict[str, Counter] = {}

    def vote(names: tuple, label: str | None, weight: int = 1) -> None:
        for n in names:
            if n and n.lower() not in NOT_NAMES and label:
                votes.setdefault(n.lower(), Counter())[label] += weight

    for i, s in enumerate(turns):
        text, me = s["text"], label_of(s)
        # Weights: introducing oneself is surest; a name with a thank-you or a question around it is clear;
        # a name opening a turn (a receptionist calling someone in) or a bare one after a comma, less so.
        for m in SELF.finditer(text):
            if not (PLACE.match(text[m.end():]) or any(n and PLACE.match(n) for n in m.groups())):
                vote(m.groups(), me, 3)
        for m in SPEAKING.finditer(text):
            vote(m.groups(), me, 3)
        m = SELF_LEAD.match(text)
        if m:
            vote(m.groups(), me, 3)
        m = ADDRESS_START.match(text)
        if m and (m.group(1) or m.group(2).lower() not in NOT_NAMES):
            # Addressed at the start: the next other voice answers ("Mrs Dawson, come and have a seat").
            vote((m.group(2), m.group(3)), _next_voice(turns, i, label_of))
        for m in ADDRESS_IN.finditer(text):
            # Addressed after a comma: thanked or answered -> the voice just heard ("Thank you, Grace.");
            # asked something -> the voice that answers ("which inhalers do you use, Linda?").
            if INTRODUCED.search(text[:m.start() + 1]) or APPOSITION.search(text[:m.start() + 1]):
                continue  # "This is my husband, Mark.", "His big sister, Ruby, had...": someone named, not spoken to
            thanked, asking = THANKS_BEFORE.search(text[:m.start() + 1]), _asking(text)
            back = thanked or not asking
            vote((m.group(2),), _prev_voice(turns, i, label_of) if back else _next_voice(turns, i, label_of),
                 2 if thanked or asking else 1)
    # A full name said anywhere ("Priya Patel", "patient Claire Dawson") is one person: the two names'
    # votes are pooled, and a name with none takes the other's voice.
    pairs = [(m.group(1).lower(), m.group(2).lower()) for s in turns for m in FULL_NAME.finditer(s["text"])]
    pairs = [(a, b) for a, b in pairs if a not in NOT_NAMES and b not in NOT_NAMES and (a in votes or b in votes)]
    for a, b in dict.fromkeys(pairs):
        pooled = votes.get(a, Counter()) + votes.get(b, Counter())
        votes[a], votes[b] = pooled, pooled
    return votes, list(dict.fromkeys(pairs))


def lookup(names: dict[str, str], word: str) -> str | None:
    """The voice of a name as typed, or as ASR spelled it ("Mehta" heard as "Metta")."""
    from rapidfuzz import fuzz

    w = word.lower()
    if w in names:
        return names[w]
    close = [(fuzz.ratio(w, n), n) for n in names if len(n) >= 4 and n[0] == w[0]]
    best = max(close, default=(0, ""))
    return names[best[1]] if best[0] >= 80 else None


def _asking(text: str) -> bool:
    """A "?" or any clause that is a question by its form ("..., anything that sets it off, Linda")."""
    if "?" in text:
        return True
    return any(asks_at(tokenize(c), 0) for c in re.split(r"[,.;:!]", text) if c.strip())


def _next_voice(turns: list[dict], i: int, label_of: Callable[[dict], str | None]) -> str | None:
    me = label_of(turns[i])
    return next((label_of(t) for t in turns[i + 1:i + 4] if label_of(t) != me and t["start_s"] - turns[i]["end_s"] < 15),
                None)


def _prev_voice(turns: list[dict], i: int, label_of: Callable[[dict], str | None]) -> str | None:
    me = label_of(turns[i])
    return next((label_of(t) for t in reversed(turns[max(0, i - 3):i]) if label_of(t) != me
                 and turns[i]["start_s"] - t["end_s"] < 15), None)


def resolve(question: str, names: dict[str, str], roles: dict[str, str]) -> str:
    """The question with each name (and its title) of a known voice replaced by who that voice is."""
    if not names:
        return question

    def phrase(label: str, title: str | None, name: str) -> str:
        role = roles.get(label)
        if role == "patient":
            return "the patient"
        if role == "clinician":
            return "the nurse" if title and title.lower().startswith(("nurse", "sister")) else "the doctor"
        # Another voice keeps its name beside the label: "where does Sheila say she lives?" is answered
        # where she introduces herself by it.
        return f"{label} ({name})"

    # Words inside a quote are what was said ("how many times does she say 'Next, please'?"), never a person: hidden
    # while names are resolved.
    from harp_desktop.agent.lexicon import QUOTE

    quotes: list[str] = []

    def hide(q: re.Match) -> str:
        quotes.append(q.group(0))
        return f"\x00{len(quotes) - 1}\x00"

    masked = QUOTE.sub(hide, question)

    def who(m: re.Match) -> str:
        title, first, last, poss = m.group(1), m.group(2), m.group(3), m.group(4) or ""
        if OBJECT_BEFORE.search(masked[:m.start()]) and not title:
            return m.group(0)  # "who calls Linda through?": the name is what is said, not who speaks
        label = lookup(names, first) if (title or first.lower() not in NOT_NAMES) else None
        if label is not None:
            return phrase(label, title, first) + poss  # a surname after a known first name goes with it
        if last and lookup(names, last) and not OBJECT_BEFORE.search(masked[:m.start(3)]):
            return f"{title or ''}{first} {phrase(lookup(names, last), None, last)}{poss}"  # "Has Claire": no name
        return m.group(0)

    resolved = re.sub(rf"\b({TITLE}\s+)?({NAME})(?:\s+({NAME}))?('s)?\b", who, masked)
    return re.sub(r"\x00(\d+)\x00", lambda m: quotes[int(m.group(1))], resolved)


# A name right after a verb of calling or speaking to is the one spoken to or about, not the speaker.
OBJECT_BEFORE = re.compile(r"\b(calls?|called|calling|tells?|told|asks?|asked|thanks?|thanked|greets?|greeted|"
                           r"addresses|addressed|names?|named|introduces?|introduced|mentions?|mentioned|about|to|"
                           r"says? hello to|fetch\w*|calls? in)\s*$", re.I)
