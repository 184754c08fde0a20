"""Questions by their form, not by their "?": ASR often ends a question with a full stop.

"Do you have any allergies to medications." and "Any black or tarry stools or any mucus."
are questions all the same: an auxiliary verb before its subject ("do you", "is it", "have
you", "is there"), an elliptic "Any ...?"/"Anything else?", or a wh-word followed by an
auxiliary or a noun ("when did it start", "what medication do you take", "how long"). Not
questions: "Have a seat", "Do take a seat" (no subject after the verb), requests
("Could you lie back for me", "Can you show me where it hurts": the answer is an action) and
wh-clauses in statements ("When I was a child I had asthma"). ``question_start`` finds where
a sentence's question begins: at its start, or after a comma for the clinician's "I'm glad
she's doing well, anyone else in the family with bowel problems."
"""

from __future__ import annotations

from .tokens import tokenize

_AUX = frozenset(
    "do does did have has had are is was were am can could would will should shall may might "
    "don't doesn't didn't haven't hasn't hadn't isn't aren't wasn't weren't won't can't couldn't wouldn't "
    "shouldn't".split())
# What an inverted auxiliary is followed by when it asks something.
_SUBJECT = frozenset(
    "you your you've you're it it's its the they their there this that these those he she his her we i my "
    "anyone anybody anything anywhere any someone somebody something everything everyone yours".split())
_ELLIPTIC = frozenset("any anything anyone anybody anywhere".split())
_WH = frozenset("what what's whats when when's where where's which who who's whose why how how's hows".split())
# These wh-words ask only with an auxiliary after them ("when did it start"; "when it started" states).
_WH_AUX_ONLY = frozenset("when where why".split())
# After a wh-word, these make it a statement's clause ("when I was a child", "what you need is rest",
# "what a relief").
_DECLARATIVE = frozenset("i i'm i've i'd you you're you've we we're they he she it it's there this that the my your "
                         "a an".split())
# "Could you lie back", "can you show me": a request, answered by doing it.
_REQUEST_VERBS = frozenset(
    "lie sit stand show tell point pop hop roll take open close breathe cough say follow squeeze push pull "
    "lift bend turn look put raise describe give hold stick let walk move come".split())
_POLITE = frozenset("just please".split())
_FILLERS = frozenset("and so okay ok right alright now well then um uh erm er oh also but great good fine sure "
                     "lovely thanks".split())
_TOPIC_LEAD = frozenset("the your his her their".split())
_SUBORDINATE = frozenset("if when whenever while whilst because since after before unless until as".split())


def _skip(tokens: list[str], i: int) -> int:
    """Past fillers and commas ("And, okay, do you...")."""
    while i < len(tokens) and (tokens[i] in _FILLERS or tokens[i] in ",;:"):
        i += 1
    return i


def asks_at(tokens: list[str], i: int, clinician: bool = True) -> bool:
    """Whether the clause starting at ``i`` is a question by its form. An elliptic "Any ...",
    "Anything else" asks only in the clinician's mouth (a patient's "Anything with dairy sets
    it off" states)."""
    i = _skip(tokens, i)
    if i >= len(tokens):
        return False
    words = _unstutter(tokens[i : i + 6])
    w, nxt = words[0], words[1] if len(words) > 1 else ""
    if w in _ELLIPTIC:
        return clinician and nxt not in ("time", "day", "way")  # "Any time I eat..." is the patient's statement
    if clinician and w in _TOPIC_LEAD:
        # "And the allergies.", "Your medications.": a clinician naming the next topic of the history, no verb, is
        # asking about it (ASR drops the "?"); "The chest sounds clear" is longer and says something of it.
        rest = [t for t in tokens[i:] if t.isalpha() or "'" in t]
        return 2 <= len(rest) <= 3 and not any(t in _AUX or "'" in t for t in rest[1:])
    if w in _AUX:
        if w in ("should", "were", "had") and nxt not in ("i", "we") and "," in tokens[i + 2:]:
            return False  # "Should you notice any blood, let us know": an inverted "if", not a question
        if nxt in ("you", "i") and w in ("can", "could", "would", "will"):
            rest = [t for t in words[2:] if t not in _POLITE]
            if rest and rest[0] in _REQUEST_VERBS and not (nxt == "i" and rest[0] == "take"):
                return False  # "Could you lie back for me" -- but "Can I take something for it" asks
        return nxt in _SUBJECT
    if w in _WH:
        if w in _WH_AUX_ONLY:
            return nxt in _AUX or nxt.endswith("'s")
        return bool(nxt) and nxt not in _DECLARATIVE
    return False


def _unstutter(words: list[str]) -> list[str]:
    """ASR repeats a word at a restart ("Can you you show me"): once is enough."""
    return [w for k, w in enumerate(words) if k == 0 or w != words[k - 1]]


def _inverted_wh(tokens: list[str]) -> int | None:
    """A wh-word inverted with its auxiliary inside a sentence: "I'm sorry to hear that when did
    it start" (a statement says "when it started"), "which inhalers are you using"."""
    for k in range(1, len(tokens) - 2):
        if tokens[k] in _WH and tokens[k + 1] in _AUX and tokens[k + 2] in _SUBJECT:
            return k
        # "that's useful, which inhalers are you using": a wh-word with its noun, then the inversion
        # (a relative clause goes on without one: "which is common", "which inhalers help").
        if (tokens[k] in _WH and k + 3 < len(tokens) and tokens[k + 1].isalpha() and tokens[k + 1] not in _AUX
                and tokens[k + 1] not in _SUBJECT and tokens[k + 2] in _AUX and tokens[k + 3] in ("you", "i", "we")):
            return k
    return None


def question_start(tokens: list[str], clinician: bool = False) -> int | None:
    """Index where the sentence's question starts (0: the whole sentence asks), or None.

    Clause starts after a comma count only for the clinician, whose turns mix a remark and
    a question ("Well done for stopping, any allergies to medicines."); a subordinate opening
    ("If you cough, does it hurt") makes the whole sentence the question."""
    if asks_at(tokens, 0, clinician):
        return 0
    if not clinician:
        return None
    for k, t in enumerate(tokens):
        if t in ",;" and k + 1 < len(tokens) and tokens[k + 1] not in _WH and asks_at(tokens, k + 1):
            first = _skip(tokens, 0)
            return 0 if first < len(tokens) and tokens[first] in _SUBORDINATE else k + 1
    return _inverted_wh(tokens)


def asks(text: str) -> bool:
    """Whether a turn asks something: a "?" or a sentence that is a question by its form (any
    voice may be the clinician here: roles are not known when sections are found)."""
    sentence: list[str] = []
    for tok in tokenize(text) + ["."]:
        if tok[0] in ".?!":
            if "?" in tok or (sentence and asks_at(sentence, 0)):
                return True
            sentence = []
        else:
            sentence.append(tok)
    return False
