"""Answers from retrieved evidence: HARP's plan -> tools -> fuse, then EChO's reason -> verify.

The path for what the typed answerers (``agent/answerers``) do not take: the oracle (annotated
spans given as the evidence, ``harp eval --modes oracle``), the audio evidence modes (an audio
language model hears the clips), and any question no answerer takes. ``Asker`` inherits it.
"""

from __future__ import annotations

import copy
import logging
import re
import time

import numpy as np

from harp_desktop.agent import answer as ans
from harp_desktop.agent import audio_llm, support, verify
from harp_desktop.agent.chain import span
from harp_desktop.agent.oracle import oracle_evidence
from harp_desktop.agent.plan import PLAN_SCHEMA, Plan, PlanError, ToolCall, validate
from harp_desktop.agent.replies import add_replies
from harp_desktop.agent.rules import named_event, rule_plan
from harp_desktop.agent.settle import settle, settle_who
from harp_desktop.findings.sections import DIALOGUE, dialogue_span
from harp_desktop.retrieval.fusion import fuse
from harp_desktop.retrieval.localize import format_clock, localize
from harp_desktop.retrieval.tools import RecordingTools, ToolResult

WHOLE_WINDOW_S = 90.0  # a time window this short is given to the answer step whole
PLANNER_SYSTEM = ("You plan a search of a transcribed audio recording. Give up to 6 search keywords, including "
                  "everyday words and synonyms a speaker might use, and a short search text.")


def _mentions(evidence: list, terms: list[str]) -> bool:
    stems = [t.lower()[:5] for term in terms for t in term.split() if len(t) > 3]
    words = {w for e in evidence for w in re.findall(r"[a-z']+", e.text.lower())}
    return any(w.startswith(s) for s in stems for w in words)


def narrow_to_dialogue(plan: Plan, tools: RecordingTools) -> None:
    """"During the consultation": search the longest two-voice exchange, and say so."""
    found = dialogue_span(tools.segments_in(0.0, float("inf")))
    if found is None:
        plan.notes.append("no two-person exchange was found for 'the consultation'; searched the whole recording")
        return
    for es in plan.sets:
        es.start_s, es.end_s = max(es.start_s, found[0]), min(es.end_s, found[1])
    plan.notes.append(f"'the consultation' -> the longest two-person exchange, "
                      f"{format_clock(found[0])}-{format_clock(found[1])}")


def narrow_to(plan: Plan, windows: list[tuple[float, float]]) -> None:
    """Search only the question's section (its first span when there are several)."""
    if not windows:
        return
    a, b = windows[0][0], windows[-1][1]
    for es in plan.sets:
        es.start_s, es.end_s = max(es.start_s, a), min(es.end_s, b)



class EvidencePath:
    """Mixed into ``Asker`` (which holds lib, llm, retrieval, fusion, evidence_mode, on_draft)."""

    # -- planning -----------------------------------------------------------------
    def plan(self, question: str, duration_s: float, has_cue: bool, notes: list[str]) -> Plan:
        """The rule plan (validated). The model refines it only when its keywords find nothing: see ``refine``."""
        return validate(rule_plan(question, duration_s, has_cue), duration_s, has_cue)

    def wants_refining(self, plan: Plan, results: list[ToolResult]) -> bool:
        """Adaptive planning: the model is asked for more search words only when the question's own
        words found nothing in the transcript ("vomiting" when the patient said "being sick").
        Code settles event, emotion and voice questions, so the model would only add latency there."""
        if self.llm is None or plan.intent not in ("text", "yesno") or plan.target_event or plan.target_emotion:
            return False
        return not any(r.items for r in results if r.tool == "keyword")

    def refine(self, question: str, rules: Plan, duration_s: float, has_cue: bool, notes: list[str]) -> Plan:
        plan = copy.deepcopy(rules)  # the model refines a copy; on failure the rule plan stands
        try:
            raw = self.llm.chat_json(PLANNER_SYSTEM, f"Question: {question}", PLAN_SCHEMA, max_tokens=80)
            words = [w for w in raw.get("keywords", []) if isinstance(w, str) and w.strip()][:6]
            text = str(raw.get("search_text") or "").strip()
            for es in plan.sets:
                for call in es.calls:
                    if call.tool == "keyword" and words:
                        call.args["terms"] = list(dict.fromkeys(call.args["terms"] + words))[:12]
                if text and not any(c.tool == "text_emb" and c.args.get("query") == text for c in es.calls):
                    es.calls.append(ToolCall("text_emb", {"query": text}))
            plan.source = "llm+rules"
            notes.append("the question's own words found nothing in the transcript; the model suggested more")
            return validate(plan, duration_s, has_cue)
        except Exception as exc:  # invalid output, LLMError, runtime failures: the same fallback, said aloud
            invalid = isinstance(exc, (PlanError, ValueError, KeyError, TypeError, AttributeError))
            what = "the model's plan was invalid" if invalid else "the model could not plan"
            notes.append(f"{what} ({str(exc)[:80]}); used the rule planner's plan")
            return rules

    def _mode_filter(self, calls: list[ToolCall]) -> list[ToolCall]:
        if self.retrieval == "keyword":
            kept = [c for c in calls if c.tool != "text_emb"]
        elif self.retrieval == "vector":
            kept = [c for c in calls if c.tool != "keyword"]
        else:
            kept = calls
        return kept or calls

    # -- tools --------------------------------------------------------------------
    def run_call(self, tools: RecordingTools, call: ToolCall, start: float, end: float, cue) -> ToolResult:
        res = ToolResult(call.tool, dict(call.args))
        t0 = time.perf_counter()
        for attempt in (1, 2):  # retried once, then reported unavailable: never invented
            try:
                a = call.args
                if call.tool == "time":
                    res.items = tools.time(start, end)
                elif call.tool == "keyword":
                    res.items = tools.keyword(a["terms"], start, end)
                elif call.tool == "label":
                    res.items = tools.label(a["label"], start, end, a.get("kind"))
                elif call.tool == "text_emb":
                    res.items = tools.text_emb(a["query"], start, end)
                elif call.tool == "audio_emb":
                    res.items = tools.audio_emb(cue, start, end)
                elif call.tool == "speaker":
                    res.items = tools.speaker(cue if a.get("cue") else None, a.get("name"), start, end)
                res.error = None
                break
            except Exception as exc:  # noqa: BLE001 - any tool failure is reported, not raised
                res.error = f"{type(exc).__name__}: {str(exc)[:120]}"
                if attempt == 2:
                    res.items = []
        res.seconds = time.perf_counter() - t0
        return res

    def cue_event(self, cue: np.ndarray) -> str | None:
        from harp_desktop.index.events import detect_events

        tg = self.lib.models.yamnet()
        tags = detect_events(tg.run(cue), tg.class_names)
        return max(tags, key=lambda t: t.score).label if tags else None

    def retrieve(self, plan: Plan, tools: RecordingTools, cue_wav, given_spans) -> tuple[list, list[ToolResult]]:
        """Run the plan's tool calls and fuse each evidence set; the evidence is in time order."""
        results: list[ToolResult] = []
        evidence = []
        if given_spans is not None:  # the oracle: annotated truth replaces retrieval
            evidence, results = oracle_evidence(self, tools, plan, given_spans, cue_wav)
        for es in plan.sets if given_spans is None else []:
            got = [self.run_call(tools, c, es.start_s, es.end_s, cue_wav) for c in self._mode_filter(es.calls)]
            results += got
            items = [e for r in got for e in r.items]
            # Adaptive K: every match for counts / "every" / event and voice questions; a few more
            # moments for free-text questions (answers often span two turns), HARP's 3 otherwise.
            k = None if es.all_matches or plan.intent == "speaker" else (5 if plan.intent in ("text", "yesno") else 3)
            fused = fuse(items, self.fusion, k)
            if plan.intent in ("text", "yesno") and not (plan.target_event or plan.target_emotion):
                fused = add_replies(fused, tools.segments_in(es.start_s, es.end_s),
                                    lambda seg, score: tools.from_segment(seg, "reply", score))
            if es.all_matches and plan.target_event:
                fused = [e for e in fused if "label" in e.scores or "audio_emb" in e.scores]
            elif plan.intent in ("text", "yesno") and es.end_s - es.start_s <= WHOLE_WINDOW_S:
                # "Between minute 5 and 6, what does the doctor advise?": a short window is read whole,
                # since advice spans several turns that share few words with the question.
                have = {e.key for e in fused}
                fused += [e for r in got if r.tool == "time" for e in r.items if e.key not in have]
            evidence += fused if k is not None or len(fused) <= 40 else fused[:40]
        evidence.sort(key=lambda e: e.start_s)
        return evidence, results

    def answer_from_evidence(self, asked: str, question: str, rec: dict, spec, ctx, cue_wavs: dict, audio,
                             given_spans, notes: list[str], timings: dict, t_all: float) -> ans.Answer:
        """HARP retrieve -> EChO reason: the plan's tools, fused evidence, then code (settle), the audio
        model, the language model or the extractive answer; citations verified against the evidence."""
        tools = ctx.tools
        cue_wav = cue_wavs.get("sound", cue_wavs.get("speaker"))
        t0 = time.perf_counter()
        plan = self.plan(question, rec["duration_s"], cue_wav is not None, notes)
        if spec.operation in ("what_said", "describe") and not plan.quality:
            plan.intent = "text"  # the typed question decided: a free-text answer, not Yes/No or a time
        if cue_wav is not None and plan.target_event and not named_event(question):
            # "Find sounds like this one": the clip's own sound class is the target. When the
            # question names it ("an example of a cough"), the user's word wins over YAMNet's.
            heard = self.cue_event(cue_wav)
            if heard and heard != plan.target_event:
                plan.notes.append(f"the example clip sounds like {heard}; searching for that")
                plan.target_event = heard
                for es in plan.sets:
                    for c in es.calls:
                        if c.tool == "label" and c.args.get("kind") == "event":
                            c.args["label"] = heard
        timings["plan"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        if spec.section and spec.window is None:
            narrow_to(plan, ctx.windows)
            plan.notes += ctx.notes
        elif DIALOGUE.search(question) and localize(question, rec["duration_s"]) is None:
            narrow_to_dialogue(plan, tools)
        evidence, results = self.retrieve(plan, tools, cue_wav, given_spans)
        refining = 0.0
        if given_spans is None and self.wants_refining(plan, results):
            t1 = time.perf_counter()
            refined = self.refine(question, plan, rec["duration_s"], cue_wav is not None, notes)
            refining = time.perf_counter() - t1
            timings["plan"] += refining
            if refined is not plan:
                plan = refined
                evidence, more = self.retrieve(plan, tools, cue_wav, None)
                results += more
        for r in results:
            if r.error:
                notes.append(f"tool {r.tool} unavailable: {r.error}")
        timings["retrieve"] = time.perf_counter() - t0 - refining
        t0 = time.perf_counter()
        settled = (settle(plan, evidence, question, getattr(tools, "voice_encoder", "ge2e"))
                   or settle_who(question, evidence, tools.question_share()))
        heard = audio_llm.answer(audio, self.lib, rec, question, plan, evidence, self.evidence_mode, notes) \
            if audio is not None and settled is None else None  # code-settled answers need no clips
        if settled is not None:
            first, rationale, supported = settled
        elif heard is not None:
            first, rationale, supported = heard
        elif self.llm is not None:
            shares = tools.question_share()
            self._send_draft(question, plan, evidence, shares, timings, t_all)
            hint = ans.speaker_hint(evidence, shares)
            first, rationale, supported = self._reason(question, plan, evidence, notes, hint, shares)
        else:
            first, rationale, supported = ans.extractive(plan, question, evidence, tools.question_share())
        timings["answer"] = time.perf_counter() - t0
        verdict = verify.check(rationale, evidence)
        if verdict.dropped:
            notes.append(f"{len(verdict.dropped)} citation(s) not inside the evidence were removed")
        supported = supported and bool(verdict.citations)
        if not supported and first not in ("No", "0") and not first.startswith(("Not found", "Cannot tell")):
            first = f"Not found: {first}" if first else "Not found"
        if not evidence:
            notes.append("no evidence was retrieved for this question")
        timings["total"] = time.perf_counter() - t_all
        models = {"llm": getattr(self.llm, "name", None), "planner": plan.source,
                  "audio_llm": audio.describe() if heard is not None else None}
        if supported and self.llm is not None and settled is None and heard is None:
            # The model's citations must share a word with the question or its answer (EChO verify).
            kept, dropped = support.check([e for e in evidence if (e.start_s, e.end_s) in verdict.citations
                                           or any(abs(e.start_s - a) < 1 and abs(e.end_s - b) < 1
                                                  for a, b in verdict.citations)],
                                          {"kind": "answer_words", "terms": support.answer_words(question, first)},
                                          [], {})
            if dropped and not kept:
                supported = False
                notes.append("the cited moments do not mention what the answer says; marked unsupported")
        plan_dict = {**plan.to_dict(), "query": spec.to_dict()}
        result = ans.Answer(asked, first, verdict.rationale, supported, evidence, verdict.citations,
                            plan_dict, timings, models, notes + plan.notes,
                            [{"tool": r.tool, "args": {k: v for k, v in r.args.items() if k != "cue"},
                              "items": len(r.items), "error": r.error, "seconds": round(r.seconds, 4)}
                             for r in results])
        if self.store_answers:
            self.lib.db.store_answer(rec["id"], result.to_json())
        return result

    def _send_draft(self, question: str, plan: Plan, evidence: list, shares: dict, timings: dict,
                    t_all: float) -> None:
        if self.on_draft is None:
            return
        first, rationale, _ = ans.extractive(plan, question, evidence, shares)
        verdict = verify.check(rationale, evidence)
        draft = ans.Answer(question, first, verdict.rationale, False, evidence, verdict.citations, plan.to_dict(),
                           {**timings, "total": time.perf_counter() - t_all}, {"llm": None, "planner": plan.source},
                           ["draft from the retrieved evidence; the language model is writing the answer"], [])
        try:
            self.on_draft({**draft.to_json(), "draft": True})
        except Exception:  # noqa: BLE001 - a display callback must never cost the user the answer
            logging.getLogger(__name__).exception("draft callback failed")

    def _reason(self, question: str, plan: Plan, evidence: list, notes: list[str],
                hint: str = "", shares: dict | None = None) -> tuple[str, str, bool]:
        """EChO reasoning: one or two passes (evidence order / temperature), arbitrated in code."""
        shares = shares or {}
        if not evidence:
            return ("No" if plan.intent == "yesno" else "Not found"), "No matching evidence was found.", False
        passes = []
        # Pass 2 keeps the evidence order and samples at a higher temperature: the prompt is
        # then already in the KV cache, so the second opinion costs only its generation, and it
        # writes no reason (answer + evidence numbers: ~15 tokens) -- it is there to check pass 1.
        orders = [list(range(len(evidence)))]
        if self.two_pass:
            orders.append(orders[0])
        for n, order in enumerate(orders):
            ordered = [evidence[i] for i in order]
            try:
                schema = ans.answer_schema(plan.intent, len(evidence), with_reason=n == 0)
                raw = self.llm.chat_json(ans.SYSTEM, ans.prompt(question, ordered, hint), schema,
                                         max_tokens=100 if n == 0 else 40, temperature=0.0 if n == 0 else 0.3, seed=n)
                used = [int(i) for i in raw.get("evidence_used", []) if isinstance(i, int)]
                valid = [i for i in used if 1 <= i <= len(ordered)]
                first, rationale = ans.compose(str(raw.get("answer", "")), str(raw.get("reason", "")), valid, ordered)
                passes.append((first, rationale, bool(valid), len(valid) / max(1, len(used))))
            except Exception as exc:  # noqa: BLE001 - invalid model output is reported, then we fall back
                notes.append(f"reasoning pass {n + 1} failed ({str(exc)[:80]})")
        if not passes:
            notes.append("the model gave no usable answer; used the extractive answer")
            return ans.extractive(plan, question, evidence, shares)
        if len(passes) == 2 and passes[0][0].lower() != passes[1][0].lower():
            notes.append(f"the two reasoning passes disagreed ({passes[0][0]!r} vs {passes[1][0]!r}); "
                         "kept the one with better-grounded citations")
        best = max(passes, key=lambda p: (p[2], p[3], p is passes[0]))
        first, rationale, has_cites, _ = best
        if plan.intent == "yesno" and first == "Yes" and not _mentions(evidence, ans.plan_terms(plan)):
            # Answer-vs-evidence consistency (EChO verify): a Yes needs evidence that mentions the subject.
            notes.append("the model said Yes, but no retrieved evidence mentions the question's subject; answered No")
            return "No", "No retrieved evidence mentions it.", False
        if plan.intent == "yesno" and first == "Yes":
            # Small models miss negation ("No, I'm not short of breath"): check it in code.
            terms = [w for t in ans.plan_terms(plan) for w in t.split()]
            # "Did the patient say...": only what the answering side said counts, not the
            # clinician's questions ("are you short of breath?") or advice.
            pool = ans.patient_side(question, evidence, shares)
            if pool is not None and not _mentions(pool, ans.plan_terms(plan)):
                said = next((e for e in evidence if _mentions([e], ans.plan_terms(plan))), None)
                notes.append("the model said Yes, but only the clinician mentions it; answered No")
                return "No", (f"Only the clinician mentions it {span(said)}; the patient does not." if said
                              else "The patient does not mention it."), said is not None
            pool = evidence if pool is None else pool
            statements = [(s, e) for e in pool for s in re.split(r"(?<=[.!?])\s+", e.text) if not s.endswith("?")]
            verdicts = [(ans.negated(s, terms), s, e) for s, e in statements]
            denials = [(s, e) for v, s, e in verdicts if v is True]
            if denials and not any(v is False for v, _, _ in verdicts):
                notes.append("the model said Yes but every mention in the evidence is negated; answered No")
                s, e = denials[0]
                first, rationale = "No", f'The evidence denies it: "{s.strip()}" {span(e)}'
                has_cites = True
            elif has_cites and pool is not evidence and any(span(e) in rationale for e in evidence if e not in pool):
                # The model said Yes citing the clinician's words as the patient's: cite what the
                # patient said instead. (A Yes with no valid citation stays unsupported: code does not rescue it.)
                said = [(s, e) for v, s, e in verdicts if v is False]
                if said:
                    notes.append("the model cited the clinician's words for what the patient says; cited the patient's")
                    rationale = "The patient says: " + "; ".join(f'"{s.strip()}" {span(e)}' for s, e in said[:2])
                    has_cites = True
        supported = has_cites and not first.lower().startswith("not found")
        return first, rationale, supported
