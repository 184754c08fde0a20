"""`harp eval --engine ray`: the questions of an evaluation spread over Ray actors.

Each actor receives the library once (a .harplib bundle through Ray's object store, so
workers need no shared disk), loads the language model once, and answers questions
with the same code as evaluate/runner.py (``ask_one``). Cue clips travel as bytes. The
driver summarises the rows in question order, so the report is the local one apart from
latencies; as locally, evaluation answers are not added to the library's history.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from harp_desktop.cluster.runtime import cluster_cpus, ray_runtime
from harp_desktop.evaluate.runner import Case, EvalOptions, Report, ask_one, summarize
from harp_desktop.store.bundle import export_bundle


class EvalWorker:
    """One Ray actor: a private copy of the library, the LLM loaded once."""

    def __init__(self, bundle: bytes, llm_choice: str | None, options: EvalOptions, library_type: type) -> None:
        # library_type is the driver's Library class (Ray sends it by reference): this module does
        # not import harp_desktop.api, whose Library.evaluate_on_ray calls it.
        from harp_desktop.agent.ask import Asker

        self.scratch = Path(tempfile.mkdtemp(prefix="harp-eval-"))
        (self.scratch / "library.harplib").write_bytes(bundle)
        self.lib = library_type(self.scratch / "library")
        self.lib.import_bundle(self.scratch / "library.harplib")
        self.llm = None
        if llm_choice:
            from harp_desktop.agent.llm import load_llm

            self.llm = load_llm(llm_choice)
        self.options = options
        self.asker = Asker(self.lib, self.llm, options.retrieval, "metadata", options.fusion, options.two_pass)
        self.asker.store_answers = False  # as evaluate(): an evaluation is not the user's answer history

    def llm_name(self) -> str | None:
        return getattr(self.llm, "name", None)

    def answer(self, i: int, question: dict, sha256: str, cue: tuple[str, bytes] | None) -> tuple[int, dict]:
        cue_path = None
        if cue is not None:
            cue_path = self.scratch / "cues" / f"{i}-{Path(cue[0]).name}"
            cue_path.parent.mkdir(exist_ok=True)
            cue_path.write_bytes(cue[1])
        return i, ask_one(self.asker, Case(question, sha256, cue_path), self.options, self.llm)

    def close(self) -> None:
        self.lib.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def evaluate_on_ray(
    lib,
    cases: list[Case],
    options: EvalOptions | None = None,
    llm_choice: str | None = None,
    *,
    address: str | None = None,
    workers: int | None = None,
    threads: int = 1,
    progress: Callable[[int, int, dict], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Report:
    """evaluate/runner.evaluate, with the questions answered on Ray workers."""
    o = options or EvalOptions()
    if llm_choice:
        from harp_desktop.agent.llm import LLM_CHOICES, LLMError

        if llm_choice not in LLM_CHOICES:
            raise LLMError(f"unknown language model '{llm_choice}' (choose from {', '.join(LLM_CHOICES)}, "
                           "or use --no-llm)")
    recs = {c.ref: lib.recording(c.ref) for c in cases}  # unknown recordings fail here, before any work
    rows: dict[int, dict] = {}
    llm_name = None
    if cases:
        with tempfile.TemporaryDirectory(prefix=".eval-", dir=lib.folder) as work:
            export_bundle(lib.db, Path(work) / "library.harplib", audio=True, audit=False)
            bundle = (Path(work) / "library.harplib").read_bytes()
        with ray_runtime(address) as ray:
            n = max(1, min(len(cases), workers or cluster_cpus(ray) // threads))
            shared = ray.put(bundle)  # one copy in the object store, read by every worker
            Actor = ray.remote(num_cpus=threads)(EvalWorker)
            actors = [Actor.remote(shared, llm_choice, o, type(lib)) for _ in range(n)]
            try:
                llm_name = ray.get(actors[0].llm_name.remote())
                rows = _run(ray, actors, lib, cases, recs, progress, should_stop)
            finally:
                for a in actors:
                    ray.get(a.close.remote())
                    ray.kill(a)
    ordered = [rows[i] for i in sorted(rows)]
    settings = {"retrieval": "oracle" if o.oracle else o.retrieval, "fusion": o.fusion, "oracle": o.oracle,
                "llm": llm_name, "engine": "ray"}
    return summarize(ordered, settings)


def _run(ray, actors, lib, cases, recs, progress, should_stop) -> dict[int, dict]:
    pending = list(enumerate(cases))[::-1]
    idle, busy, rows = list(actors), {}, {}
    while pending or busy:
        stopping = should_stop is not None and should_stop()
        while idle and pending and not stopping:
            i, case = pending.pop()
            cue = (str(case.cue), Path(case.cue).read_bytes()) if case.cue else None
            actor = idle.pop()
            busy[actor.answer.remote(i, case.question, recs[case.ref]["sha256"], cue)] = (actor, i)
        if not busy:
            break
        done, _ = ray.wait(list(busy), num_returns=1)
        for ref in done:
            actor, i = busy.pop(ref)
            idle.append(actor)
            try:
                i, row = ray.get(ref)
            except ray.exceptions.RayError as exc:
                last = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
                raise RuntimeError(f"question {cases[i].question.get('query_id')}: worker failed: {last}") from None
            rows[i] = row
            if progress is not None:
                progress(len(rows), len(cases), row)
    return rows
