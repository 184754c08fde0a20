"""Concepts a question names by meaning when it names none by its words: "a constricted feeling in
the chest" is chest tightness, "gone off her food" reduced appetite, "drenching sweats at night" night
sweats. The vocabulary's phrases (findings/vocab) are embedded once with the text model (MiniLM, on the
device); a question lands on the concepts whose phrases are nearest, when they are near enough.
"""

from __future__ import annotations

from typing import Any

import numpy as np

KINDS = ("symptom", "history", "diagnosis", "examination")
MIN_SIM = 0.58  # below this a nearest phrase is a different thing ("is her cat unwell?" ~ malaise 0.56)
TIE = 0.04  # concepts whose best phrase is this close to the best are all read ("chest pain" / "chest tightness")


def _index(models: Any) -> tuple[np.ndarray, list[str]]:
    text = models.text()  # outside models.get: its lock is held while a factory runs

    def build() -> tuple[np.ndarray, list[str]]:
        from harp_desktop.findings.vocab import load

        vocab = load()
        concepts = vocab.concepts.values() if isinstance(vocab.concepts, dict) else vocab.concepts
        phrases, owner = [], []
        for c in concepts:
            if c.kind in KINDS:
                for p in sorted({c.term, *c.synonyms}):
                    phrases.append(p)
                    owner.append(c.term)
        return text.embed(phrases), owner

    return models.get("vocabulary-meaning", build)


def concepts_by_meaning(question: str, models: Any) -> list[str]:
    """The vocabulary concepts nearest the question's meaning, best first ([] when none is near)."""
    try:
        emb, owner = _index(models)
        q = models.text().embed([question])[0]
    except Exception:  # noqa: BLE001 - no text model: words only
        return []
    sims = emb @ q
    best = float(sims.max()) if len(sims) else 0.0
    if best < MIN_SIM:
        return []
    order = np.argsort(-sims)
    out: list[str] = []
    for k in order:
        if sims[k] < best - TIE:
            break
        if owner[k] not in out:
            out.append(owner[k])
    return out
