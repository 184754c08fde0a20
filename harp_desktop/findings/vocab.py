"""The concept vocabulary (resources/clinical_concepts.json) and matching it in words.

Matching is exact on normalised tokens (longest phrase wins), then fuzzy and phonetic for
medication names only: ASR spells drug names it has rarely heard ("levothyroxin",
"amoxycillin", "para cetamol"), while everyday symptom words come out right.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rapidfuzz import fuzz, process

from .questions import question_start
from .sites import figures_of_speech, site_pains
from .tokens import tokenize  # also imported from here by extract.py and agent/

VOCAB_PATH = Path(__file__).resolve().parents[2] / "resources" / "clinical_concepts.json"

# English words within fuzzy reach of a drug name; an ASR error never turns a drug into these.
_NOT_DRUGS = frozenset("aspiring augmenting clarity singular prevented codeline".split())


# Whose body it is does not change the concept: "blood in your urine" is "blood in my urine"
# ("a pain in his chest" too: a relative or caller speaks of the patient),
# "does it wake you up" is "it wakes me up".
_PERSON = {"your": "my", "his": "my", "her": "my", "you": "i", "me": "i", "you're": "i'm", "you've": "i've", "yourself": "myself",
           "you'd": "i'd", "you'll": "i'll"}
# Plurals that are other words in the singular ("bloods" are tests, "a cold" is not "colds").
_KEEP_PLURAL = frozenset("bloods colds falls sweats spots waters glasses pints fits".split())
# Words a phrase may carry or not: "lost any weight" is "lost weight", "my chest has felt really
# tight" is "my chest has felt tight" (intensifiers inside a lay phrase).
_SKIPPABLE = frozenset("any some much a the my really very quite".split())
# Words that end a modifier list rather than continue it ("dry, and a cough" is two things).
_NOT_MODIFIERS = frozenset("and or but the a an my his her your their no not with without then so".split())


_DOSE_UNITS = frozenset("mg milligram milligrams microgram micrograms mcg grams gram g ml units puffs".split())
_NUMBER_WORDS = frozenset("one two three four five ten twenty thirty forty fifty hundred half".split())


def _dose_after(tokens: list[str], i: int) -> bool:
    """A dose starts at ``i``: a number, then a unit ("50 milligrams", "twenty mg")."""
    return (i + 1 < len(tokens) and (tokens[i][:1].isdigit() or tokens[i] in _NUMBER_WORDS)
            and tokens[i + 1] in _DOSE_UNITS)


def dose_starts(tokens: list[str]) -> list[int]:
    """Token positions where a dose is said ("20 milligrams", "fifty mg")."""
    return [i for i in range(len(tokens)) if _dose_after(tokens, i)]


def key(token: str) -> str:
    """Matching key: plural and possessive endings dropped, so "headaches" finds "headache"."""
    token = _PERSON.get(token, token)
    if token in _KEEP_PLURAL:
        return token
    if token.endswith("'s"):
        return token[:-2]
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


def phonetic(word: str) -> str:
    """A small Metaphone-like code: spellings that sound alike ("amoxycillin"/"amoxicillin",
    "parasetamol"/"paracetamol", "levothyroxin"/"levothyroxine") get the same code."""
    w = re.sub(r"[^a-z]", "", word.lower())
    if not w:
        return ""
    for a, b in (("ph", "f"), ("ck", "k"), ("qu", "kw"), ("x", "ks"), ("th", "t"), ("gh", "g"), ("wh", "w")):
        w = w.replace(a, b)
    w = re.sub(r"c(?=[eiy])", "s", w).replace("c", "k").replace("z", "s").replace("y", "i")
    w = re.sub(r"^kn", "n", w)
    w = re.sub(r"ng$", "n", w)  # ASR ends a drug it does not know as an English -ing ("cetirizing")
    head, tail = w[0], re.sub(r"[aeiou]", "", w[1:])
    return re.sub(r"(.)\1+", r"\1", head + tail)


@dataclass(frozen=True)
class Concept:
    term: str
    kind: str
    category: str
    synonyms: tuple[str, ...]
    probes: tuple[str, ...] = ()
    as_exam: str | None = None
    allergens: tuple[str, ...] = ()
    contagious: bool = False
    fixed_status: str | None = None
    absent: tuple[str, ...] = ()  # phrases saying the concept is not there ("good air entry")
    presents_as: tuple[str, ...] = ()  # a diagnosis: the symptom concepts it is the state of (depression: low mood)
    sites: tuple[str, ...] = ()  # a pain concept: the body-site words it is the pain of (sites.py)


@dataclass
class Match:
    """A concept found in a sentence: token positions [start, end) and how it was found."""

    concept: Concept
    start: int
    end: int
    surface: str
    how: str = "exact"  # exact | fuzzy | phonetic | probe | absent (a phrase saying it is not there) | ellipsis


@dataclass
class Vocabulary:
    concepts: dict[str, Concept]
    phrases: dict[tuple[str, ...], Concept] = field(default_factory=dict)
    probes: dict[tuple[str, ...], Concept] = field(default_factory=dict)
    drug_names: dict[str, Concept] = field(default_factory=dict)
    drug_codes: dict[str, list[str]] = field(default_factory=dict)
    senses: dict[str, dict[str, str]] = field(default_factory=dict)
    sense_words: dict[str, list[str]] = field(default_factory=dict)
    loose: dict[tuple[str, ...], Concept] = field(default_factory=dict)
    absent_keys: set[tuple[str, ...]] = field(default_factory=set)
    # An absent phrase that is also another concept's synonym says both: "a dry cough" is a cough
    # and no phlegm. The absent concept wins the match; this one is emitted beside it.
    absent_also: dict[tuple[str, ...], Concept] = field(default_factory=dict)
    longest: int = 1
    site_pain: dict[str, Concept] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for concept in self.concepts.values():
            for phrase in concept.synonyms:
                toks = tuple(key(t) for t in tokenize(phrase))
                other = self.phrases.get(toks)
                if other is not None and other.term != concept.term:
                    raise ValueError(f"synonym {phrase!r} belongs to {other.term!r} and {concept.term!r}")
                self.phrases[toks] = concept
                self.longest = max(self.longest, len(toks))
                bare = tuple(t for t in toks if t not in _SKIPPABLE)
                if len(bare) >= 2:
                    self.loose.setdefault(bare, concept)
                if concept.kind == "medication":
                    # Drug names also match written as one word ("co amoxiclav" -> "coamoxiclav").
                    joined = "".join(tokenize(phrase))
                    if len(joined) >= 5 and joined.isalpha():
                        self.drug_names[joined] = concept
            for site in concept.sites:
                self.site_pain[key(site)] = concept
            for probe in concept.probes:
                self.probes[tuple(key(t) for t in tokenize(probe))] = concept
        for concept in self.concepts.values():  # after every synonym: an absent phrase may be one
            for phrase in concept.absent:
                toks = tuple(key(t) for t in tokenize(phrase))
                other = self.phrases.get(toks) or self.loose.get(tuple(t for t in toks if t not in _SKIPPABLE))
                if other is not None and other.term != concept.term:
                    self.absent_also[toks] = other
                self.phrases[toks] = concept
                self.absent_keys.add(toks)
                self.longest = max(self.longest, len(toks))
        # Fuzzy targets are generic names (and long alternative spellings): brand names such as
        # "Singulair" or "Augmentin" sit too close to English words ("singular", "augmenting").
        self._names = [n for n, c in self.drug_names.items() if n == "".join(tokenize(c.term)) or len(n) >= 10]
        for name in self._names:
            self.drug_codes.setdefault(phonetic(name), []).append(name)
        self._drug_cache: dict[str, tuple[Concept, str] | None] = {}
        self._words = {w for p in self.phrases for w in p}  # a vocabulary word is never a glued pair

    def get(self, term: str) -> Concept:
        return self.concepts[term]

    def allergy_for(self, drug: Concept) -> Concept:
        """The allergy concept covering a drug ("amoxicillin" -> penicillin allergy)."""
        for c in self.concepts.values():
            if c.kind == "allergy" and drug.term in c.allergens:
                return c
        return self.concepts["drug allergy"]

    def match(self, tokens: list[str]) -> list[Match]:
        """Concepts in one sentence, left to right, longest phrase first; then drug names that
        ASR misspelled or split, in the gaps the exact pass left."""
        keys = [key(t) for t in tokens]
        found: list[Match] = []
        covered = [False] * len(tokens)
        for lo, hi in figures_of_speech(tokens):
            covered[lo:hi] = [True] * (hi - lo)
        i = 0
        while i < len(tokens):
            if covered[i]:
                i += 1
                continue
            best = self._exact_at(keys, i) or (0, None)
            loose = self._loose_at(keys, i)
            if loose and loose[0] > best[0]:
                best = loose
            stacked = self._stacked_at(keys, i) if best[1] is None else None
            if stacked:
                best = stacked
            n, concept = best
            if concept is not None:
                phrase = (keys[i], keys[i + n - 1]) if stacked else tuple(keys[i : i + n])
                how = "absent" if phrase in self.absent_keys else "exact"
                found.append(Match(concept, i, i + n, " ".join(tokens[i : i + n]), how))
                covered[i : i + n] = [True] * n
                i += n
            else:
                i += 1
        for lo, hi, concept in site_pains(keys, covered, self.site_pain):
            found.append(Match(concept, lo, hi, " ".join(tokens[lo:hi])))
            covered[lo:hi] = [True] * (hi - lo)
        found += self._fuzzy(tokens, covered)
        found += self._glued(tokens, keys, covered)
        found += self._probes(keys, covered)
        return self._senses(sorted(found, key=lambda m: m.start), keys)

    def _exact_at(self, keys: list[str], i: int) -> tuple[int, Concept] | None:
        for n in range(min(self.longest, len(keys) - i), 0, -1):
            concept = self.phrases.get(tuple(keys[i : i + n]))
            if concept is not None:
                return n, concept
        return None

    def _stacked_at(self, keys: list[str], i: int) -> tuple[int, Concept] | None:
        """A modifier and its head with another modifier stacked between ("a dry, tickly cough", "a loose, rattly
        cough"): the two-word phrase "dry cough" said around it, the span covering both."""
        if i + 3 >= len(keys) or keys[i + 1] != "," or not keys[i + 2].isalpha() or keys[i + 2] in _NOT_MODIFIERS:
            return None
        concept = self.phrases.get((keys[i], keys[i + 3]))
        return (4, concept) if concept is not None else None

    def _loose_at(self, keys: list[str], i: int) -> tuple[int, Concept] | None:
        """A phrase said with an extra or missing "any"/"the"/"my" ("lost any weight", "blood
        in the stool"): the span in the sentence and the concept, longest first."""
        if keys[i] in _SKIPPABLE:
            return None
        idx = [k for k in range(i, min(len(keys), i + self.longest + 3)) if keys[k] not in _SKIPPABLE]
        for n in range(min(self.longest, len(idx)), 1, -1):
            concept = self.loose.get(tuple(keys[k] for k in idx[:n]))
            if concept is not None:
                return idx[n - 1] + 1 - i, concept
        return None

    def _senses(self, found: list[Match], keys: list[str]) -> list[Match]:
        """"Any black stools, or any mucus?": mucus said with a bowel concept, or a plain bowel
        word ("stools": ASR may have garbled "tarry"), is mucus in stool."""
        words = {cat for cat, ws in self.sense_words.items() if set(ws).intersection(keys)}
        for i, m in enumerate(found):
            alt = self.senses.get(m.surface, {})
            for cat, term in alt.items():
                # A probe ("eating") names no concept, so it says nothing of the body system.
                if cat in words or any(x.concept.category == cat for x in found if x is not m and x.how != "probe"):
                    found[i] = Match(self.concepts[term], m.start, m.end, m.surface, m.how)
        return found

    def _fuzzy(self, tokens: list[str], covered: list[bool]) -> list[Match]:
        out: list[Match] = []
        i = 0
        while i < len(tokens):
            hit = None
            for n in (3, 2, 1):  # joined pieces first: "para cetamol", "levo thyrox in"
                piece = tokens[i : i + n]
                if len(piece) < n or any(covered[i : i + n]) or not all(t.isalpha() for t in piece):
                    continue
                hit = self._drug(piece) or (self._dosed(piece[0]) if n == 1 and _dose_after(tokens, i + 1) else None)
                if hit:
                    out.append(Match(hit[0], i, i + n, " ".join(piece), hit[1]))
                    covered[i : i + n] = [True] * n
                    i += n
                    break
            if not hit:
                i += 1
        return out

    def _dosed(self, word: str) -> tuple[Concept, str] | None:
        """A word said right before a dose is a drug name ASR made into English ("certainly 50
        milligrams every morning" for sertraline): a looser spelling, the same first sounds."""
        if len(word) < 6:
            return None
        code = phonetic(word)
        best = max(((fuzz.ratio(word, n), n) for c, names in self.drug_codes.items() if c[:3] == code[:3] for n in names),
                   default=(0, ""))
        return (self.drug_names[best[1]], "phonetic") if best[0] >= 60 else None

    def _drug(self, piece: list[str]) -> tuple[Concept, str] | None:
        word = "".join(piece)
        if word not in self._drug_cache:  # an hour of speech repeats its words; score each once
            self._drug_cache[word] = self._drug_uncached(piece, word)
        return self._drug_cache[word]

    def _drug_uncached(self, piece: list[str], word: str) -> tuple[Concept, str] | None:
        # Short names ("statin", "senna") sit among English words ("station", "sienna"): exact only.
        if len(word) < 7 or (len(piece) == 1 and word in _NOT_DRUGS):
            return None
        if len(piece) > 1 and word in self.drug_names:
            return self.drug_names[word], "exact"
        best = process.extractOne(word, self._names, scorer=fuzz.ratio, score_cutoff=70)
        if best is not None and len(best[0]) >= 7:
            name, score = best[0], best[1]
            if score >= 88 and name[0] == word[0]:
                return self.drug_names[name], "fuzzy"
        # An unstressed first vowel heard as the article before it ("a moxicillin", "the
        # on-moxicillin"): the rest of the name, spelt nearly right.
        bare = process.extractOne(word, {n: n[1:] for n in self._names if n[0] in "aeiou"}, scorer=fuzz.ratio,
                                  score_cutoff=90)
        if bare is not None and len(word) >= 8:
            return self.drug_names[bare[2]], "fuzzy"
        # Sounding alike only counts with some spelling in common: short codes collide widely
        # ("situation" and "statin" are both s-t-n); a long code (six sounds and more) rarely
        # does, so there less spelling has to agree ("omipersol", "a muxisling").
        code = phonetic(word)
        if len(code) >= 4:
            need = 60 if len(code) >= 6 else 75
            same = [(fuzz.ratio(word, n), n) for n in self.drug_codes.get(code, ()) if len(n) >= 7]
            score, name = max(same, default=(0, ""))
            if score >= need:
                return self.drug_names[name], "phonetic"
        return None

    def _glued(self, tokens: list[str], keys: list[str], covered: list[bool]) -> list[Match]:
        """ASR glues a word it misheard onto the next ("asmiaction plan" for "asthma action plan",
        "does the asmowake you up"): a long token whose end begins a phrase of two or more words
        with the tokens after it. One-word phrases are not tried: "crashes" is not "rashes"."""
        out = []
        for i, t in enumerate(tokens[:-1]):
            if covered[i] or len(t) < 7 or not t.isalpha() or key(t) in self._words:
                continue
            for n in range(len(t) - 3, 3, -1):
                hit = self._exact_at([key(t[-n:]), *keys[i + 1 :]], 0)
                if hit is not None and hit[0] >= 2 and not any(covered[i : i + hit[0]]):
                    out.append(Match(hit[1], i, i + hit[0], " ".join(tokens[i : i + hit[0]]), "glued"))
                    covered[i : i + hit[0]] = [True] * hit[0]
                    break
        return out

    def _probes(self, keys: list[str], covered: list[bool]) -> list[Match]:
        out = []
        for i in range(len(keys)):
            for n in (2, 1):
                concept = self.probes.get(tuple(keys[i : i + n]))
                if concept is not None and not any(covered[i : i + n]):
                    out.append(Match(concept, i, i + n, " ".join(keys[i : i + n]), "probe"))
                    covered[i : i + n] = [True] * n
                    break
        return out


@lru_cache(maxsize=4)
def load(path: str | None = None) -> Vocabulary:
    """The vocabulary, parsed once per process."""
    data = json.loads(Path(path or VOCAB_PATH).read_text(encoding="utf-8"))
    concepts = {}
    for d in data["concepts"]:
        concepts[d["term"]] = Concept(
            term=d["term"], kind=d["kind"], category=d["category"], synonyms=tuple(d["synonyms"]),
            probes=tuple(d.get("probes", ())), as_exam=d.get("as_exam"), allergens=tuple(d.get("allergens", ())),
            contagious=bool(d.get("contagious", False)), fixed_status=d.get("fixed_status"),
            absent=tuple(d.get("absent", ())), presents_as=tuple(d.get("presents_as", ())),
            sites=tuple(d.get("sites", ())),
        )
    return Vocabulary(concepts, senses=data.get("senses", {}), sense_words=data.get("sense_words", {}))


# ---- the text units the extractor reads: a speaker's utterance, split into sentences

_QUESTION_START = frozenset("do does did have has had are is was were any anything can could would will how what "
                            "when where which who why".split())
_RECAP = ("you've", "you're", "you said", "you mentioned", "you get", "you feel", "you have")
_ALLERGY_WORDS = frozenset("allergic allergy allergies reaction reactions react reacted".split())
JOIN_GAP_S = 2.0  # a speaker's turns closer than this are one utterance (ASR splits sentences)


@dataclass
class Sentence:
    tokens: list[str]
    question: bool
    segments: set[int]
    matches: list[Match] = field(default_factory=list)

    def clause_tokens(self, i: int) -> list[str]:
        """The tokens of the comma-free stretch around position i."""
        a = max((k + 1 for k in range(i) if self.tokens[k] in ",;:"), default=0)
        b = min((k for k in range(i, len(self.tokens)) if self.tokens[k] in ",;:"), default=len(self.tokens))
        return self.tokens[a:b]

    def focus(self, subordinate: frozenset[str]) -> list[Match]:
        """What a question asks about: not what it mentions after "when"/"if" ("Are you bringing
        up any phlegm when you cough?" asks about phlegm, not the cough)."""
        out, skip = [], set()
        for i, t in enumerate(self.tokens):
            if t in subordinate and i > 0:  # to the end of that clause: ", or needing to go more often?" is asked
                j = next((k for k in range(i, len(self.tokens)) if self.tokens[k] in (",", "or")), len(self.tokens))
                skip.update(range(i + 1, j))
        for m in self.matches:
            if m.start not in skip:
                out.append(m)
        return out

    def recap(self) -> bool:
        """The clinician repeating the patient ("you've been wheezy"), not examining."""
        joined = " ".join(self.tokens)
        return any(f" {r} " in f" {joined} " for r in _RECAP)

    def numbers(self) -> list[tuple[str, int, int]]:
        from .values import fold_numbers

        return fold_numbers(self.tokens)


@dataclass
class Utterance:
    speaker: str | None
    role: str | None
    turns: list
    sentences: list[Sentence]
    # A voice taken as the patient that speaks of the patient as "he" / "she" (a parent answering
    # for a child): its first-person complaints are its own (extract.proxy_voices).
    proxy: bool = False
    # The pronouns such a voice uses for the patient ("he" or "she"), when one clearly dominates: a clause with
    # only the other sex's pronouns is about someone else ("Ruby's fine now, her sore throat's gone").
    proxy_pronoun: str | None = None

    def trailing_questions(self) -> list[Sentence]:
        """The questions that end the utterance: the ones left for the other voice to answer."""
        out: list[Sentence] = []
        for s in reversed(self.sentences):
            if not s.question:
                break
            out.append(s)
        return out[::-1]


def utterances(turns: list, vocab: Vocabulary) -> list[Utterance]:
    """Consecutive turns of one voice joined, split into sentences with their concepts."""
    groups: list[list] = []
    for t in turns:
        prev = groups[-1][-1] if groups else None
        same = prev is not None and prev.speaker == t.speaker and prev.role == t.role and (t.speaker or t.role)
        if same and t.start_s - prev.end_s < JOIN_GAP_S:
            groups[-1].append(t)
        else:
            groups.append([t])
    return [_utterance(g, vocab) for g in groups]


def _utterance(group: list, vocab: Vocabulary) -> Utterance:
    tagged = [(tok, t.segment_id) for t in group for tok in tokenize(t.text)]
    punctuated = any(tok[0] in ".?!" for tok, _ in tagged)
    sentences, cur = [], []
    asker = group[0].role in ("clinician", None)  # an unknown role may be the clinician
    for tok, seg in tagged + [(".", None)]:
        if tok[0] in ".?!":
            if cur:
                sentences += _sentences(cur, "?" in tok, punctuated, asker)
            cur = []
        else:
            cur.append((tok, seg))
    for s in sentences:
        s.matches = _fever(vocab, s.tokens, _allergies(vocab, s.tokens, vocab.match(s.tokens)))
    return Utterance(group[0].speaker, group[0].role, group, sentences)


# A first person stating what happened or is the case ("I had...", "I've been...", "I stopped...").
_DECLARING = frozenset("had have 've 'm am was been get got feel felt stopped started took take finished "
                       "went gave tried noticed".split())


# ... or a parent or relative stating it of the patient ("He's had this cough, what, nearly a week now?").
_DECLARING_START = frozenset("i've i'm he's she's they've they're we've there's".split())
_SUBJECTS = frozenset("i he she they we".split())
_DECLARING = _DECLARING | frozenset("has is".split())


def _sentences(cur: list[tuple[str, int]], marked: bool, punctuated: bool, asker: bool) -> list[Sentence]:
    """One sentence, or a remark and the question after its comma ("Well done for stopping, any
    allergies to medicines."). ASR ends many questions with a full stop, so a sentence is a
    question by its "?" or by its form (``questions.question_start``)."""
    words = [w for w, _ in cur]
    declares = words[0] in _DECLARING_START or (words[0] in _SUBJECTS and len(words) > 2 and words[1] in _DECLARING)
    if marked and not asker and declares and "," in words:
        # "I had panic attacks last year, in the spring, what was it?": the "?" belongs to the last
        # clause; what the patient states before it is a statement.
        k = len(words) - 1 - words[::-1].index(",")
        head, tail = cur[:k], cur[k + 1:]
        if tail:
            return [Sentence([w for w, _ in head], False, {s for _, s in head}),
                    Sentence([w for w, _ in tail], True, {s for _, s in tail})]
    if marked or (not punctuated and words[0] in _QUESTION_START):
        return [Sentence(words, True, {s for _, s in cur})]
    k = question_start(words, clinician=asker)
    if k is None:
        return [Sentence(words, False, {s for _, s in cur})]
    head = cur[:k]
    while head and head[-1][0] in ",;:":
        head = head[:-1]
    tail = cur[k:]
    out = [Sentence([w for w, _ in head], False, {s for _, s in head})] if head else []
    return out + [Sentence([w for w, _ in tail], True, {s for _, s in tail})]


def _allergies(vocab: Vocabulary, tokens: list[str], matches: list[Match]) -> list[Match]:
    """"I'm allergic to amoxicillin": the drug after an allergy word is the allergy to it."""
    out: list[Match] = []
    for m in matches:
        window = tokens[max(0, m.start - 4) : m.start]
        if m.concept.kind == "medication" and _ALLERGY_WORDS.intersection(window):
            if out and out[-1].concept.term in ("allergy", "drug allergy") and out[-1].end >= m.start - 4:
                out.pop()
            m = Match(vocab.allergy_for(m.concept), m.start, m.end, m.surface, m.how)
        out.append(m)
    return out


def _fever(vocab: Vocabulary, tokens: list[str], matches: list[Match]) -> list[Match]:
    """"A slight temperature", "a bit of a temperature" is having a fever; "your temperature
    is 37.9" is the measurement. An article before the word and no reading after it decides."""
    for i, m in enumerate(matches):
        if m.concept.term == "body temperature" and "a" in tokens[max(0, m.start - 3) : m.start]:
            if not any(t[0].isdigit() for t in tokens[m.end :]) and "point" not in tokens[m.end :]:
                matches[i] = Match(vocab.get("fever"), m.start, m.end, m.surface, m.how)
    return matches
