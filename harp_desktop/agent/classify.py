"""Nearest examples: the operation of a question by meaning, when the rules are not decisive.

The example questions (``resources/query_examples.jsonl``, a few per operation) are embedded
once per process with the same sentence model that indexes the transcript; a question whose
rules found no grammatical cue takes the operation its nearest examples agree on. Rules stay
first: they read what a nearest neighbour cannot (a window, a quote, "how many").
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

from harp_desktop.agent.query import QuerySpec, reconcile

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "query_examples.jsonl"
K = 5
MIN_SIM = 0.5  # below this the nearest example is not about the same thing
MIN_VOTES = 3


def load_examples(path: Path = EXAMPLES) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["question"], r["operation"]) for r in rows if "question" in r]


def _bank(models) -> tuple[np.ndarray, list[str]]:
    text = models.text()  # outside get(): the cache's lock is not re-entrant

    def build() -> tuple[np.ndarray, list[str]]:
        ex = load_examples()
        vecs = np.asarray(text.embed([q for q, _ in ex]), np.float32)
        vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
        return vecs, [op for _, op in ex]

    return models.get("query_examples", build)


def nearest(question: str, models) -> tuple[str | None, float, list[tuple[str, float]]]:
    """(operation the K nearest examples agree on or None, best similarity, the neighbours)."""
    vecs, ops = _bank(models)
    q = np.asarray(models.text().embed([question])[0], np.float32)
    q /= max(float(np.linalg.norm(q)), 1e-9)
    sims = vecs @ q
    order = np.argsort(-sims)[:K]
    near = [(ops[i], float(sims[i])) for i in order]
    votes = Counter(op for op, s in near if s >= MIN_SIM)
    if not votes:
        return None, near[0][1], near
    op, n = votes.most_common(1)[0]
    return (op if n >= MIN_VOTES else None), near[0][1], near


def refine(spec: QuerySpec, models, notes: list[str]) -> QuerySpec:
    if spec.confidence >= 0.9:
        return spec
    try:
        op, best, _ = nearest(spec.question, models)
    except Exception as exc:  # noqa: BLE001 - no text model: the rule parse stands, said aloud
        notes.append(f"nearest-example classifier unavailable ({str(exc)[:60]}); used the rules")
        return spec
    if op is not None and op == spec.operation:
        spec.confidence = max(spec.confidence, 0.9)  # two readings agree: the model is not asked as well
    elif op is not None:
        reconcile(spec, op, None, f"examples({best:.2f})")
        if op in ("when_first", "when_all", "exists", "count") and spec.target == "speech":
            from harp_desktop.agent.query import parse_target

            spec.target = parse_target(spec.question, op, spec)
    return spec
