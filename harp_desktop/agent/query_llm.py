"""The language model's reading of a question: one grammar-constrained call that fills the
QuerySpec's enumerations (operation, target, subject), cross-checked by code (``reconcile``).

The prompt is short and constant up to the question, so llama.cpp reuses its KV cache
across questions; only ~15 tokens are generated.
"""

from __future__ import annotations

from harp_desktop.agent.query import OPERATIONS, SUBJECTS, TARGETS, QuerySpec, Subject, reconcile

SYSTEM = ("Classify a question about an audio recording of a consultation. operation: exists (yes/no), when_first, "
          "when_all, count, describe, emotion_at (emotion at a time or quote), compare (which of two speakers is "
          "higher), change (did it rise or fall), who (which person said it), what_said (a fact that was said). "
          "target: speech (words said), event (a sound such as a cough), emotion, arousal, valence, dominance, voice "
          "(a voice clip), speakers (how many people).")
SCHEMA = {
    "type": "object",
    "properties": {"operation": {"type": "string", "enum": list(OPERATIONS)},
                   "target": {"type": "string", "enum": list(TARGETS)},
                   "subject": {"type": "string", "enum": list(SUBJECTS[:4])}},
    "required": ["operation", "target", "subject"],
}


def refine(spec: QuerySpec, llm, notes: list[str]) -> QuerySpec:
    try:
        raw = llm.chat_json(SYSTEM, f"Question: {spec.question[:400]}", SCHEMA, max_tokens=30)
    except Exception as exc:  # noqa: BLE001 - the rule parse stands, said aloud
        notes.append(f"the model could not read the question ({str(exc)[:60]}); used the rules")
        return spec
    if not isinstance(raw, dict):
        notes.append("the model's reading of the question was not an object; used the rules")
        return spec
    reconcile(spec, raw.get("operation"), raw.get("target"), "llm")
    if spec.subject.kind == "anyone" and raw.get("subject") in ("patient", "clinician"):
        spec.subject = Subject(raw["subject"])
    return spec
