"""The words of a question and of a recording's turns, shared by the answerers (and by the window
anchors, which the context resolves): topic stems, their document frequency in the recording, the
rarest of them, and a question word found as ASR spelled it. Depends on the lexicon only, so the
context and every answerer can use it without a cycle.
"""

from __future__ import annotations

import math
import re
from typing import Any

from harp_desktop.agent import lexicon as lx

stem, _stems = lx.stem, lx.stems

SUBJECT_WORDS = re.compile(r"^(patient|doctor|clinician|gp|nurse|she|he|her|him|his|they|them|say|says|said|tell|told|"
                           r"mention\w*|talk\w*|speaker|person|man|woman|recording|call|phone|consultation|seconds?|minutes?|between|"
                           r"during|around|after|before|first|last|final|next|earliest|latest|ever|times?|point|moment|start|beginning|"
                           r"end|middle)$", re.I)
GRAMMAR = set("""a an the is are was were be been being do does did doing have has had having can could would should
will shall may might must of in on at to for from by with about as into over than so that this these those there
what which who whom whose when where why how any some it its and or but if then i you we me my your our their
one out up through across like just also very really get got anything something nothing everything anyone someone
anybody somebody everyone either neither other others much many more most
working provisional differential final current latest main overall usual""".split()) | lx.PERMISSION  # qualifiers of a head noun


def focus_terms(question: str) -> list[str]:
    """The question's topic stems: its words without grammar, window/section phrases and the words
    that say who said it ("what did the doctor hear through the stethoscope?" -> hear, stethoscope)."""
    body = lx.BEFORE_CONSULT.sub(" ", lx.AFTER_CONSULT.sub(" ", question)).lower()
    for pat in lx.SECTION_WORDS.values():
        body = pat.sub(" ", body)
    words = lx.WORDS.findall(re.sub(r"\ball right\b", "allright", body))
    keep = [w for w in words if w not in GRAMMAR and not SUBJECT_WORDS.match(w) and len(w) > 2]
    return list(dict.fromkeys(stem(w) for w in keep))


def turn_stems(ctx: Any) -> list[set[str]]:
    """The stems of every spoken turn, in time order, computed once per question."""
    if "_turn_stems" not in ctx.__dict__:
        ctx.__dict__["_turn_stems"] = [set(_stems(s["text"])) for s in sorted(ctx.segments, key=lambda s: s["start_s"])
                                       if s["text"].strip()]
    return ctx.__dict__["_turn_stems"]


def respell(ctx: Any, terms: list[str]) -> list[str]:
    """A rare question word the transcript never holds is looked up as ASR spelled it ("sertraline"
    heard as "certraline"): the closest word of the recording, when it is close (and long) enough."""
    from rapidfuzz import fuzz, process

    every = turn_stems(ctx)
    if "_vocab" not in ctx.__dict__:
        ctx.__dict__["_vocab"] = sorted({w for e in every for w in e if len(w) >= 5})
    vocab = ctx.__dict__["_vocab"]
    out = []
    for t in terms:
        if len(t) >= 7 and not any(t in e for e in every) and vocab:
            got = process.extractOne(t, vocab, scorer=fuzz.ratio, score_cutoff=82)
            out.append(got[0] if got else t)
        else:
            out.append(t)
    return out


def doc_freq(ctx: Any, terms: list[str]) -> dict[str, int]:
    """How many turns of the recording hold each stem."""
    every = turn_stems(ctx)
    return {t: sum(t in e for e in every) for t in terms}


def idf(ctx: Any, terms: list[str]) -> dict[str, float]:
    """Each stem's weight by how rare it is among the recording's turns (log (N+1)/(1+df), + 0.1)."""
    n = max(len(turn_stems(ctx)), 1)
    return {t: math.log((n + 1) / (1 + df)) + 0.1 for t, df in doc_freq(ctx, terms).items()}


def rarest(ctx: Any, question: str, keep: int = 1) -> list[str]:
    """The question's ``keep`` rarest topic stems that this recording's speech contains at all,
    rarest first: "the cat gets its first mention when?" is about "cat", not "gets"."""
    df = doc_freq(ctx, focus_terms(question))
    return [t for t, n in sorted(df.items(), key=lambda kv: kv[1]) if n > 0][:keep]


def carries(text: str, stems: list[str], need: int | None = None) -> bool:
    """Whether a turn holds the stems (all of them, or ``need`` of them)."""
    have = set(_stems(text))
    return sum(t in have for t in stems) >= (len(stems) if need is None else need)
