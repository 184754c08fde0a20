"""Evaluate the system against annotated questions: ask each one, score, aggregate.

One implementation behind `harp eval`, the GUI's Evaluate view and
benchmarks/ask_bench.py. Per query: evidence HitRate, answer correctness, citation
validity (rationale faithfulness) and latency; per query type and overall: their means
over the queries where they are defined (HitRate needs truth spans, citation validity
needs citations), plus median / p95 latency.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harp_desktop.agent.answer import Answer
from harp_desktop.evaluate.judge import judge_text
from harp_desktop.evaluate.score import answer_correct, citation_precision, citation_validity, hit_rate


@dataclass
class EvalOptions:
    retrieval: str = "hybrid"
    fusion: str = "rrf"
    oracle: bool = False  # feed the truth spans as the evidence (HARP's upper bound)
    two_pass: bool = True


@dataclass
class Case:
    """One question to evaluate: its queries.jsonl fields, and where its recording is."""

    question: dict
    ref: str  # library reference: path or sha256
    cue: Path | None = None
    speaker_cue: Path | None = None  # two-clip questions (HARP's locate): the speaker's voice
    emotion_cue: Path | None = None  # ... and the emotion to find in it


@dataclass
class Report:
    overall: dict
    by_type: dict[str, dict]
    queries: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"overall": self.overall, "by_type": self.by_type, "queries": self.queries}


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _pct(values: list[float], q: float) -> float | None:
    s = sorted(values)
    return round(s[min(len(s) - 1, int(round(q * (len(s) - 1))))], 3) if s else None


def score_one(q: dict, answer, llm=None) -> dict:
    """One answered question against its truth, as a plain dict (the report's ``queries`` rows)."""
    truth = [(float(a), float(b)) for a, b in q.get("evidence") or []]
    spans = [(e.start_s, e.end_s) for e in answer.evidence]
    judge = None
    correct = None
    if q.get("answer_kind") and q.get("answer") is not None:
        if q["answer_kind"] == "text":
            first = answer.answer.strip().splitlines()[0] if answer.answer.strip() else ""
            correct, judge = judge_text(llm, q["query"], q["answer"], first, answer.rationale)
        else:
            correct, judge = answer_correct(q["answer_kind"], q["answer"], answer.answer, answer.rationale), "rule"
    return {
        "query_id": q["query_id"], "recording": q.get("recording"), "query_type": q.get("query_type") or "untyped",
        "answer_kind": q.get("answer_kind"), "query": q["query"], "truth": q.get("answer"), "answer": answer.answer,
        "rationale": answer.rationale, "correct": correct, "judge": judge,
        "hit_rate": hit_rate(truth, spans), "citation_validity": citation_validity(answer.citations, spans),
        "citation_precision": citation_precision(answer.citations, truth),
        "operation": (answer.plan.get("query") or {}).get("operation") if isinstance(answer.plan, dict) else None,
        "latency_s": round(answer.timings_s.get("total", 0.0), 3),
        "timings_s": {k: round(v, 4) for k, v in answer.timings_s.items()},
        "truth_spans": [list(s) for s in truth], "evidence": [[round(a, 3), round(b, 3)] for a, b in spans],
        "citations": [[round(a, 3), round(b, 3)] for a, b in answer.citations], "notes": answer.notes,
    }


def _aggregate(rows: list[dict]) -> dict:
    lat = [r["latency_s"] for r in rows]
    return {
        "n": len(rows),
        "hit_rate": _mean([r["hit_rate"] for r in rows if r["hit_rate"] is not None]),
        "answer_accuracy": _mean([float(r["correct"]) for r in rows if r["correct"] is not None]),
        "citation_validity": _mean([r["citation_validity"] for r in rows if r["citation_validity"] is not None]),
        "citation_precision": _mean([r["citation_precision"] for r in rows if r.get("citation_precision") is not None]),
        "latency_median_s": round(statistics.median(lat), 3) if lat else None,
        "latency_p95_s": _pct(lat, 0.95),
    }


def summarize(rows: list[dict], settings: dict | None = None) -> Report:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[r["query_type"]].append(r)
    by_type = {t: _aggregate(groups[t]) for t in sorted(groups)}
    stage_lat: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        for k, v in r["timings_s"].items():
            stage_lat[k].append(v)
    overall = {**_aggregate(rows), **(settings or {}),
               "latency_by_stage_s": {k: {"median": round(statistics.median(v), 4), "p95": _pct(v, 0.95)}
                                      for k, v in stage_lat.items()}}
    return Report(overall, by_type, rows)


def ask_one(asker, case: Case, o: EvalOptions, llm=None) -> dict:
    """One case asked and scored (also run by Ray workers, cluster/ray_eval.py)."""
    from harp_desktop.audio.decode import AudioError

    q = case.question
    given = [tuple(s) for s in q.get("evidence") or []] if o.oracle else None
    try:
        a = asker.ask(case.ref, q["query"], case.cue, given_spans=given, speaker_cue=case.speaker_cue,
                      emotion_cue=case.emotion_cue)
    except (ValueError, LookupError, AudioError) as exc:  # a refused question scores as a wrong answer
        a = Answer(q["query"], "", f"error: {exc}", False, [], [], {}, notes=[f"not answered: {exc}"])
    return score_one(q, a, llm)


def evaluate(lib, cases: list[Case], options: EvalOptions | None = None, llm=None,
             progress: Callable[[int, int, dict], None] | None = None,
             should_stop: Callable[[], bool] | None = None) -> Report:
    """Ask every case's question and score it; ``progress(i, n, row)``. Answers are not added to
    the library's answer history. A question the system refuses (e.g. a time outside the
    recording) is scored as a wrong answer with no evidence, and its note says why."""
    from harp_desktop.agent.ask import Asker

    o = options or EvalOptions()
    asker = Asker(lib, llm, o.retrieval, "metadata", o.fusion, o.two_pass)
    asker.store_answers = False
    rows = []
    for i, case in enumerate(cases, 1):
        if should_stop is not None and should_stop():
            break
        rows.append(ask_one(asker, case, o, llm))
        if progress is not None:
            progress(i, len(cases), rows[-1])
    settings = {"retrieval": "oracle" if o.oracle else o.retrieval, "fusion": o.fusion, "oracle": o.oracle,
                "llm": getattr(llm, "name", None)}
    return summarize(rows, settings)


def table(report: Report, title: str = "") -> str:
    """The report as a text table: one row per query type, then ALL."""
    def f(v: float | None) -> str:
        return f"{v:.2f}" if v is not None else "-"

    lines = [title] if title else []
    lines.append(f"{'type':<18}{'n':>4}{'HitRate':>9}{'Acc':>7}{'CitVal':>8}{'CitPrec':>8}{'lat s':>8}")
    for t, r in [*report.by_type.items(), ("ALL", report.overall)]:
        lines.append(f"{t:<18}{r['n']:>4}{f(r['hit_rate']):>9}{f(r['answer_accuracy']):>7}"
                     f"{f(r['citation_validity']):>8}{f(r.get('citation_precision')):>8}{f(r['latency_median_s']):>8}")
    return "\n".join(lines)
