"""The search plan: evidence sets (a time window + tool calls), validated in code.

Whatever produced it (the LLM or the rule planner), a plan is checked here before it
is used: tools must be known, arguments well-formed, windows inside the recording.
An invalid plan is never silently replaced by an empty one (HARP's failure mode).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from harp_desktop.index.ambient_labels import AMBIENT_LABELS
from harp_desktop.retrieval.tools import TOOLS

INTENTS = ("yesno", "when", "count", "emotion", "speaker", "text")
# The body's sounds, then the room's (the `sounds` stage: telephone, knock, alarm, music, dog).
EVENT_LABELS = ("cough", "throat_clearing", "sneeze", "wheeze", "breathing", "gasp", "laughter", "crying", "sigh",
                "shout", *AMBIENT_LABELS)
EMOTION_LABELS = ("neutral", "calm", "happy", "sad", "angry", "fearful", "disgust", "surprised")


class PlanError(ValueError):
    """The plan does not validate; the message says which part and why."""


@dataclass
class ToolCall:
    tool: str
    args: dict = field(default_factory=dict)


@dataclass
class EvidenceSet:
    start_s: float
    end_s: float
    calls: list[ToolCall]
    all_matches: bool = False  # adaptive K: every matching event, not a top 3


@dataclass
class Plan:
    intent: str
    sets: list[EvidenceSet]
    target_event: str | None = None
    target_emotion: str | None = None
    quote: str | None = None
    anchor_s: float | None = None
    source: str = "rules"
    notes: list[str] = field(default_factory=list)
    quality: str | None = None  # asks what an event sounds like (rules.SOUND_QUALITIES): never guessed

    def to_dict(self) -> dict:
        return asdict(self)


# What the model adds to the rule plan: search words a speaker might use and a search text.
# Intent, targets and window are settled in code (rules.py, localize), so the model is not asked
# for them: every generated token costs ~65 ms on 2 cores.
PLAN_SCHEMA = {
    "type": "object",
    "properties": {
        "keywords": {"type": "array", "items": {"type": "string", "maxLength": 24}, "maxItems": 6},
        "search_text": {"type": "string", "maxLength": 80},
    },
    "required": ["keywords", "search_text"],
}


def _q(value: object) -> str:
    """A value from a model or a file, quoted for a one-line message (repr escapes newlines)."""
    return repr(value)[:40]


def validate(plan: Plan, duration_s: float, has_cue: bool) -> Plan:
    if plan.intent not in INTENTS:
        raise PlanError(f"unknown intent {_q(plan.intent)}")
    if not plan.sets:
        raise PlanError("the plan has no evidence sets")
    if plan.target_event is not None and plan.target_event not in EVENT_LABELS:
        raise PlanError(f"unknown event label {_q(plan.target_event)}")
    if plan.target_emotion is not None and plan.target_emotion not in EMOTION_LABELS:
        raise PlanError(f"unknown emotion label {_q(plan.target_emotion)}")
    for es in plan.sets:
        if not all(isinstance(t, int | float) and not isinstance(t, bool) and not math.isnan(t)
                   for t in (es.start_s, es.end_s)):
            raise PlanError(f"time window {_q(es.start_s)}-{_q(es.end_s)} is not a pair of numbers")
        es.start_s, es.end_s = max(0.0, float(es.start_s)), min(float(duration_s), float(es.end_s))
        if es.end_s <= es.start_s:
            raise PlanError(f"empty time window {es.start_s:.1f}-{es.end_s:.1f} s")
        if not es.calls:
            raise PlanError("an evidence set has no tool calls")
        for call in es.calls:
            if call.tool not in TOOLS:
                raise PlanError(f"unknown tool {_q(call.tool)}")
            if call.tool in ("audio_emb",) and not has_cue:
                raise PlanError(f"tool '{call.tool}' needs an example clip and none was given")
            if call.tool == "speaker" and not (has_cue or call.args.get("name")):
                raise PlanError("tool 'speaker' needs an example clip or a speaker name")
            terms = call.args.get("terms", [])
            if call.tool == "keyword" and not (isinstance(terms, list) and all(isinstance(t, str) for t in terms)
                                               and any(t.strip() for t in terms)):
                raise PlanError("tool 'keyword' needs at least one term (a list of strings)")
            query = call.args.get("query")
            if call.tool == "text_emb" and not (isinstance(query, str) and query.strip()):
                raise PlanError("tool 'text_emb' needs a query")
            if call.tool == "label" and call.args.get("label") not in (*EVENT_LABELS, *EMOTION_LABELS):
                raise PlanError(f"tool 'label' got unknown label {_q(call.args.get('label'))}")
    return plan
