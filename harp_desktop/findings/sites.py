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


class _Concept(Protocol):
    term: str


def site_pains(keys: list[str], covered: list[bool], sites: dict[str, _Concept]) -> list[tuple[int, int, _Concept]]:
    """(start, end, concept) for each pain word + site word pair among uncovered keys (plural and
    person already normalised by ``vocab.key``: "her" is "my", "knees" is "knee")."""
    out: list[tuple[int, int, _Concept]] = []
    used: set[int] = set()
    for i, k in enumerate(keys):
        if k not in PAIN_WORDS or covered[i] or i in used:
            continue
        for step in (1, -1):  # "pain in my wrist" / "wrist is sore"
            j, gap = i + step, 0
            while 0 <= j < len(keys) and not covered[j] and gap <= _REACH:
                if keys[j] in sites and j not in used:
                    if gap == 0 or keys[j] not in _ADJACENT_ONLY:
                        lo, hi = min(i, j), max(i, j) + 1
                        out.append((lo, hi, sites[keys[j]]))
                        used.update(range(lo, hi))
                    break
                if keys[j] not in _BETWEEN:
                    break
                j, gap = j + step, gap + 1
            if i in used:
                break
    return out
