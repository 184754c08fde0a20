"""Pain said of a body site in any word order: "she's hurt her wrist", "my knee is throbbing",
"does it hurt in her chest", "pain in his ankle".

Why: a synonym list per site ("sore wrist", "wrist hurts", ...) never ends, and a question and
its answer rarely use the same one ("does she have pain in her wrist?" / "my wrist is
throbbing"). A pain word and a site word close together in one clause, with only small words
between, name the site's pain concept (``sites`` in clinical_concepts.json); the exact phrases
keep priority (this runs only on words they left).
"""

from __future__ import annotations

from typing import Protocol

PAIN_WORDS = frozenset("pain painful hurt hurts hurting sore ache aches aching achy throbbing throb throbs "
                       "tender agony agonising killing".split())
# What may stand between the two: "hurt [her] wrist", "pain [in the] knee", "wrist [is really] sore".
_BETWEEN = frozenset("in my the a is are was were it it's has have had been really very quite bit little at on of "
                     "around left right both just so still all".split())
# Site words that are other words too need the pain word right beside them: "come back", "head of the queue".
_ADJACENT_ONLY = frozenset("back head".split())
_REACH = 3  # words between at most
_SCALE = frozenset("worst scale".split())
_SCALE_REACH = 8  # (any words of the clause may stand between: ASR garbles the scale's own -- "if found is the worst")
_CLAUSE_END = frozenset(". ? ! ; but".split())


class _Concept(Protocol):
    term: str


def site_pains(keys: list[str], covered: list[bool], sites: dict[str, _Concept]) -> list[tuple[int, int, _Concept]]:
    """(start, end, concept) for each pain word + site word pair among uncovered keys (plural and
    person already normalised by ``vocab.key``: "her" is "my", "knees" is "knee")."""
    out: list[tuple[int, int, _Concept]] = []
    used: set[int] = set()
    # A pain score asked of a site ("how bad is the wrist, if ten is the worst pain you can imagine?"): the scale's
    # words stand between the site and the pain word, so any words of the clause may.
    scale = _SCALE & set(keys)
    reach = _SCALE_REACH if scale else _REACH
    for i, k in enumerate(keys):
        if k not in PAIN_WORDS or covered[i] or i in used:
            continue
        for step in (1, -1):  # "pain in my wrist" / "wrist is sore"
            j, gap = i + step, 0
            while 0 <= j < len(keys) and not covered[j] and gap <= reach:
                if keys[j] in sites and j not in used:
                    if gap == 0 or keys[j] not in _ADJACENT_ONLY:
                        lo, hi = min(i, j), max(i, j) + 1
                        out.append((lo, hi, sites[keys[j]]))
                        used.update(range(lo, hi))
                    break
                if keys[j] not in _BETWEEN and not (scale and keys[j] not in _CLAUSE_END):
                    break
                j, gap = j + step, gap + 1
            if i in used:
                break
    return out


# Symptom words in a figure of speech: "parking round here is a real headache", "the queue has been a pain in
# the neck", "I'm sick of waiting". A copula before "a (real) headache" / "a pain in the neck" makes it a
# judgement of a thing, not a complaint ("I've got a real headache" has no copula and stays one).
_COPULA = frozenset("is was been be being are were become becomes became".split())
_FILLER = frozenset("a an such real right total absolute proper bit of complete".split())
_FIGURES = (("headache",), ("nightmare",), ("pain", "in", "the", "neck"), ("pain", "in", "the", "backside"),
            ("pain", "in", "the", "bum"), ("pain", "in", "the", "arse"))
_ALWAYS = (("sick", "of"), ("sick", "and", "tired"), ("sick", "to", "death"), ("sick", "to", "the", "back", "teeth"))


def figures_of_speech(tokens: list[str]) -> list[tuple[int, int]]:
    """Token spans [start, end) that use a symptom word figuratively (to be left unmatched)."""
    out: list[tuple[int, int]] = []
    for i, t in enumerate(tokens):
        for fig in _ALWAYS:
            if tuple(tokens[i:i + len(fig)]) == fig:
                out.append((i, i + len(fig)))
        # ("It's a headache, at the front" answers what the pain is like: not a figure.)
        if t in _COPULA or t == "that's" or (t.endswith("'s") and t not in ("it's", "he's", "she's", "what's", "there's")):
            j = i + 1
            while j < len(tokens) and tokens[j] in _FILLER:
                j += 1
            if j == i + 1 or tokens[i + 1] not in ("a", "an", "such"):
                continue  # "is a headache", not "is headache-free" / "has headaches"
            for fig in _FIGURES:
                if tuple(tokens[j:j + len(fig)]) == fig:
                    out.append((i + 1, j + len(fig)))
    return out
