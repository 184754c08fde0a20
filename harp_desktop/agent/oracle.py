"""Oracle evidence: given spans (annotated ground truth) instead of retrieved moments.

HARP's upper bound separates retrieval errors from reasoning errors: the answer step sees
exactly the true moments. Each span becomes one Evidence item carrying the transcript
under it, the tags that overlap it, and what each of the plan's tools scores inside it, so
the code-settled answers (counts, first times, labels, voice matches) work unchanged.
"""

from __future__ import annotations

from harp_desktop.agent.plan import Plan, ToolCall
from harp_desktop.retrieval.tools import RecordingTools, ToolResult
from harp_desktop.types import Evidence


def _calls(plan: Plan) -> list[ToolCall]:
    # Every scoring tool of the plan, once; "time" is only a window filter.
    seen, out = set(), []
    for es in plan.sets:
        for c in es.calls:
            key = (c.tool, repr(sorted(c.args.items())))
            if c.tool != "time" and key not in seen:
                seen.add(key)
                out.append(c)
    return out


def oracle_evidence(asker, tools: RecordingTools, plan: Plan, spans: list[tuple[float, float]],
                    cue) -> tuple[list[Evidence], list[ToolResult]]:
    """(evidence, tool results): one item per span, in time order."""
    evidence: list[Evidence] = []
    results: list[ToolResult] = []
    calls = _calls(plan)
    for a, b in sorted((float(s), float(e)) for s, e in spans):
        segs = tools.segments_in(a, b)
        main = max(segs, key=lambda s: min(b, s["end_s"]) - max(a, s["start_s"])) if segs else None
        ev = Evidence(a, b, main["id"] if len(segs) == 1 else None, main["speaker"] if main else None,
                      " ".join(s["text"].strip() for s in segs).strip(), tools.labels_for(a, b), {})
        for call in calls:
            res = asker.run_call(tools, call, a, b, cue)
            results.append(res)
            hits = [e.scores.get(call.tool, 0.0) for e in res.items if e.start_s < b and e.end_s > a]
            if hits:
                ev.scores[call.tool] = max(hits)
        evidence.append(ev)
    return evidence, results
