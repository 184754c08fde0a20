"""The online stage: parse -> answer by operation -> verify.

One entry point, ``Asker.ask``, used by the CLI and the GUI: the question is cleaned and read as
a typed ``QuerySpec`` (``agent/query.py``), the answerer of its operation answers from the index
(``agent/answerers``), and every citation is checked for carrying the claim (``agent/support.py``,
``agent/verify.py``). The oracle, the audio evidence modes and any question no answerer takes go
the retrieve -> reason path of ``agent/from_evidence.py``. Every step is timed; every fallback is
said in ``notes``.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from harp_desktop.agent import answer as ans
from harp_desktop.agent import answerers, audio_llm, names, support, verify
from harp_desktop.agent import lexicon as lx
from harp_desktop.agent.answerers import people
from harp_desktop.agent.answerers.context import AnswerContext
from harp_desktop.agent.from_evidence import EvidencePath
from harp_desktop.agent.query import QuerySpec, Subject, parse
from harp_desktop.audio.decode import load_clip
from harp_desktop.retrieval.localize import format_clock, localize
from harp_desktop.retrieval.tools import RecordingTools

MAX_QUESTION = 1000
RETRIEVAL_MODES = ("hybrid", "keyword", "vector")
EVIDENCE_MODES = ("metadata", "audio", "multimodal")


def clean_question(q: str) -> tuple[str, list[str]]:
    notes = []
    q = "".join(c for c in unicodedata.normalize("NFC", q or "") if c.isprintable() or c in " \t")
    q = re.sub(r"\s+", " ", q).strip()
    if not q:
        raise ValueError("the question is empty")
    if not re.search(r"\w", q):
        raise ValueError("the question has no words (only punctuation or symbols)")
    if len(q) > MAX_QUESTION:
        notes.append(f"question truncated from {len(q)} to {MAX_QUESTION} characters")
        q = q[:MAX_QUESTION]
    return q, notes


def outside_recording(question: str, duration_s: float) -> None:
    """A question about 99:00 of a 30 s recording is refused, not answered from the whole file."""
    w = localize(question, None)
    if w is not None and (w.start_s >= duration_s or (w.anchor_s or 0.0) > duration_s):
        raise ValueError(f"the question asks about '{w.text}', outside the recording "
                         f"(it is {format_clock(duration_s)} long)")


INTENT_OF = {"exists": "yesno", "when_first": "when", "when_all": "when", "count": "count", "emotion_at": "emotion",
             "compare": "emotion", "change": "emotion"}


class Asker(EvidencePath):
    def __init__(self, library, llm=None, retrieval: str = "hybrid", evidence: str = "metadata",
                 fusion: str = "rrf", two_pass: bool = True, audio: audio_llm.AudioModelConfig | None = None) -> None:
        if retrieval not in RETRIEVAL_MODES:
            raise ValueError(f"unknown retrieval mode '{retrieval}'")
        if evidence not in EVIDENCE_MODES:
            raise ValueError(f"unknown evidence mode '{evidence}'")
        self.lib, self.llm, self.retrieval, self.evidence_mode = library, llm, retrieval, evidence
        self.fusion, self.two_pass = fusion, two_pass
        self.audio_config = audio  # AudioModelConfig for --evidence audio|multimodal (None: $HARP_AUDIO_*)
        self.store_answers = True  # evaluation runs turn this off: the user's answer history stays theirs
        # Called with a draft answer (the extractive one, marked "draft") once the evidence is in
        # and before the language model starts, which takes 15-40 s on 2 cores: the GUI shows
        # the evidence at once instead of a spinner.
        self.on_draft: Callable[[dict], None] | None = None

    # -- the whole question -------------------------------------------------------
    def parse(self, question: str, duration_s: float, cues: dict[str, str], notes: list[str]) -> QuerySpec:
        """The typed question (rules; nearest examples where the rules are not decisive; the model's
        opinion when one is loaded), validated in code. Logged in ``plan.query``."""
        from harp_desktop.agent import classify

        spec = parse(question, duration_s, cues)
        classify.refine(spec, self.lib.models, notes)
        # The model is asked only where the grammar leaves the operation open: a wh-question is answered
        # by what was said (or a time / a person / a count, which its wh-word already says), never Yes/No,
        # so the model could not change it and would only cost seconds (issue 16: p95 <= 20 s).
        wh = lx.WH_QUESTION.match(question) or lx.PREP_WH.match(question) or lx.WH_ANYWHERE.search(question)
        if self.llm is not None and spec.confidence < 0.9 and not wh:
            from harp_desktop.agent import query_llm

            query_llm.refine(spec, self.llm, notes)
        return spec

    @staticmethod
    def cue_roles(question: str, cue, speaker_cue, emotion_cue) -> dict[str, str]:
        """Which example clip plays which part: ``--cue`` is a voice when the question is about a
        person, else a sound; ``--speaker-cue`` / ``--emotion-cue`` say it themselves."""

        roles: dict[str, str] = {}
        if cue and lx.SOUNDS_LIKE_CLIP.search(question) and not re.search(r"\b(voice|speaker|person|man|woman)\b", question,
                                                                          re.I):
            roles["emotion"] = str(cue)  # "when does anyone sound like this clip?": how they sound, not who
            cue = None
        if cue:
            voice = lx.CUE_VOICE.search(question) or lx.PERSON_CUE.search(question) or re.search(r"\b(voice|speaks?|spoke|talks?|speaker|person)\b",
                                                                  question, re.I)
            sound = lx.EVENTS and any(p.search(question.lower()) for p in lx.EVENTS.values())
            roles["speaker" if voice and not sound else "sound"] = str(cue)
        if speaker_cue:
            roles["speaker"] = str(speaker_cue)
        if emotion_cue:
            roles["emotion"] = str(emotion_cue)
        return roles

    def ask(self, ref: str | Path, question: str, cue: str | Path | None = None,
            given_spans: list[tuple[float, float]] | None = None, speaker_cue: str | Path | None = None,
            emotion_cue: str | Path | None = None) -> ans.Answer:
        """``given_spans``: use these moments as the evidence instead of retrieving (the oracle)."""
        timings: dict[str, float] = {}
        t_all = time.perf_counter()
        question, notes = clean_question(question)
        asked = question
        # Clinicians' shorthand ("SOB?", "FHx of bowel ca?") is read as its words; the answer keeps what was typed.
        question = lx.normalise_shorthand(question)
        if question != asked:
            notes.append(f"read as: \"{question}\"")
        rec = self.lib.recording(ref)
        outside_recording(question, rec["duration_s"])
        cue_paths = self.cue_roles(question, cue, speaker_cue, emotion_cue)
        cue_wavs = {role: load_clip(Path(p)) for role, p in cue_paths.items()}  # a broken clip fails here, clearly
        t0 = time.perf_counter()
        spec = self.parse(question, rec["duration_s"], cue_paths, notes)
        tools = RecordingTools(self.lib, rec)
        ctx = AnswerContext(self.lib, rec, spec, tools, cue_wavs)
        # People named in the question are the voices the recording gives those names (agent/names.py).
        voices = names.voices_by_name(ctx.segments, ctx.label_of)
        # ("This is my daughter, Susan": the companion the patient introduces answers to that name too)
        voices = {**people.introduced_names(ctx), **voices}
        named = names.resolve(question, voices, ctx.roles)
        if named != question and ctx.own_voices:
            # A child speaking for itself while a parent answers for it is the patient: "Alfie" is the patient then.
            named = names.resolve(question, voices, {**ctx.roles, **dict.fromkeys(ctx.own_voices, "patient")})
        if named != question:
            notes.append(f"read as: \"{named}\"")
            question = named
            spec = self.parse(question, rec["duration_s"], cue_paths, notes)
            ctx = AnswerContext(self.lib, rec, spec, tools, cue_wavs)
        if ctx.child_is_patient():
            notes.append(f"\"{spec.subject.name}\" read as the patient: a parent answers for them")
            spec = replace(spec, subject=Subject("patient", spec.subject.name))
            ctx = AnswerContext(self.lib, rec, spec, tools, cue_wavs)
        timings["parse"] = time.perf_counter() - t0
        audio = audio_llm.prepare(self.evidence_mode, self.audio_config, self.llm is not None, notes)
        if given_spans is None and audio is None:
            t0 = time.perf_counter()
            typed = answerers.answer(ctx)
            if typed is not None:
                timings["answer"] = time.perf_counter() - t0
                return self._typed_answer(asked, rec, spec, ctx, typed, notes, timings, t_all)
        return self.answer_from_evidence(asked, question, rec, spec, ctx, cue_wavs, audio, given_spans, notes,
                                         timings, t_all)


    def _typed_answer(self, question: str, rec: dict, spec: QuerySpec, ctx: AnswerContext, res, notes: list[str],
                      timings: dict, t_all: float) -> ans.Answer:
        """An answerer's result, its citations checked for carrying the claim, as an Answer."""
        from harp_desktop.agent.answerers import emotion

        # The answerers' own reading of the emotion stage (loaded once per question), plus what they read now.
        read = {**emotion.probs(ctx), **{k: p for k, p in ctx.__dict__.get("_read_now", {}).items() if p}}
        emotion_of = {sid: emotion.top(p)[0] for sid, p in read.items()}
        kept, dropped = support.check(res.cited, res.claim, ctx.tools._tags, emotion_of)
        verdict = verify.check(res.rationale, kept)
        if dropped:
            notes.append(f"{len(dropped)} cited moment(s) did not carry the claim and were removed")
        # Supported means checked: at least one cited moment carries the claim. An absence ("No — not
        # heard") cites nothing, so it is an answer without support, as before.
        supported = res.supported and bool(verdict.citations)
        timings["total"] = time.perf_counter() - t_all
        tool = {"event": "label", "emotion": "label", "voice": "speaker", "speakers": "time"}.get(spec.target, "keyword")
        # "intent" keeps the plan's older vocabulary (plan.INTENTS) for readers of stored answers.
        intent = "speaker" if spec.target == "voice" else INTENT_OF.get(spec.operation, "text")
        plan = {"intent": intent, "operation": spec.operation, "target": spec.target, "source": spec.source,
                "target_event": res.claim.get("label") if res.claim.get("kind") == "event" else None,
                "query": spec.to_dict(),
                "sets": [{"start_s": a, "end_s": b, "calls": [{"tool": tool, "args": {}}]} for a, b in ctx.windows]}
        models = {"llm": getattr(self.llm, "name", None), "planner": spec.source, "audio_llm": None}
        result = ans.Answer(question, res.first, verdict.rationale, supported, kept, verdict.citations, plan, timings,
                            models, notes + spec.notes + ctx.notes, [{"tool": f"answer:{spec.operation}",
                                                                      "args": {"target": spec.target},
                                                                      "items": len(res.cited), "error": None,
                                                                      "seconds": round(timings.get("answer", 0), 4)}])
        if self.store_answers:
            self.lib.db.store_answer(rec["id"], result.to_json())
        return result
