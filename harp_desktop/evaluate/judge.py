"""Free-text answers judged by the local language model, with the deterministic fallback.

An answer line holding every content word of the reference is correct without asking.
Otherwise the model sees the question, the reference answer and the system's answer and
returns ``{"correct": true|false}`` under a JSON schema. If it fails, the answer is judged by
``score.text_overlap`` (half of the reference's content words present) and the query
says which judge decided.
"""

from __future__ import annotations

from harp_desktop.evaluate.score import text_overlap

SYSTEM = ("You grade answers about an audio recording. Say whether the candidate answer gives the same facts as "
          "the reference answer for the question (wording may differ; a partial answer that states the main fact "
          "is correct; a contradicting or missing fact is not).")
SCHEMA = {"type": "object", "properties": {"correct": {"type": "boolean"}}, "required": ["correct"]}


def judge_text(llm, question: str, truth: str, answer: str, rationale: str = "") -> tuple[bool, str]:
    """(correct, judge): judge is "llm", "exact" (every content word of the truth is in the
    answer line: no model needed) or "overlap" (no model, or the model failed)."""
    if text_overlap(truth, answer, "", need=1.0):
        return True, "exact"  # small models have been seen rejecting a verbatim answer
    if llm is not None:
        try:
            raw = llm.chat_json(SYSTEM, f"Question: {question}\nReference answer: {truth}\n"
                                        f"Candidate answer: {answer}\nCandidate's reasoning: {rationale[:400]}",
                                SCHEMA, max_tokens=16)
            if isinstance(raw.get("correct"), bool):
                return raw["correct"], "llm"
        except Exception:  # noqa: BLE001 - any model failure falls back to the documented rule
            pass
    return text_overlap(truth, answer, rationale), "overlap"
