"""Library methods for question sets, annotators' spans, agreement, evaluation and exports.

Mixed into ``harp_desktop.api.Library`` (``self.db``, ``self.recording``, ``self.ask``).
A question is addressed by its row id; its truth spans are one annotator's spans, by
default the reference annotator (the first to mark a span on it, e.g. the imported set).
"""

from __future__ import annotations

import os
from pathlib import Path

from harp_desktop.evaluate import queries as qfmt
from harp_desktop.evaluate.agreement import agreement
from harp_desktop.evaluate.runner import Case, EvalOptions, Report, evaluate
from harp_desktop.export import annotations as ann_export
from harp_desktop.export.audit import write_export

IMPORT_ANNOTATOR = "reference"


class AnnotationsAPI:
    # -- questions -------------------------------------------------------------------------
    def add_question(self, ref: str | Path, query: str, **fields) -> int:
        """A new question on a recording; fields: query_id, query_type, answer, answer_kind, time_ref, ..."""
        kind = fields.get("answer_kind")
        if kind is not None and kind not in qfmt.ANSWER_KINDS:
            raise ValueError(f"answer kind must be one of {', '.join(qfmt.ANSWER_KINDS)}")
        return self.db.add_question(self.recording(ref)["id"], {"query": query, **fields})

    def update_question(self, question_id: int, **changes) -> dict:
        """Returns the old values (an undo applies them back)."""
        kind = changes.get("answer_kind")
        if kind is not None and kind not in qfmt.ANSWER_KINDS:
            raise ValueError(f"answer kind must be one of {', '.join(qfmt.ANSWER_KINDS)}")
        return self.db.update_question(question_id, changes)

    def delete_question(self, question_id: int) -> tuple[dict, list[dict]]:
        return self.db.delete_question(question_id)

    def restore_question(self, question: dict, spans: list[dict]) -> None:
        self.db.restore_question(question, spans)

    def questions(self, ref: str | Path | None = None) -> list[dict]:
        rid = self.recording(ref)["id"] if ref is not None else None
        return self.db.questions(rid)

    # -- spans -----------------------------------------------------------------------------
    def add_span(self, question_id: int, start_s: float, end_s: float, annotator: str,
                 label: str | None = None) -> int:
        return self.db.add_annotation(question_id, annotator, start_s, end_s, label)

    def update_span(self, span_id: int, **changes) -> dict:
        return self.db.update_annotation(span_id, changes)

    def delete_span(self, span_id: int) -> dict:
        return self.db.delete_annotation(span_id)

    def restore_span(self, row: dict) -> None:
        self.db.restore_annotation(row)

    def spans(self, question_id: int, annotator: str | None = None) -> list[dict]:
        return self.db.annotations(question_id, annotator)

    def truth_spans(self, question_id: int, annotator: str | None = None) -> list[tuple[float, float]]:
        """The reference annotator's spans (or ``annotator``'s), in the order they were marked."""
        names = self.db.annotators(question_id)
        who = annotator or (names[0] if names else None)
        return [(r["start_s"], r["end_s"]) for r in self.db.annotations(question_id, who)] if who else []

    def agreement(self, question_id: int, a: str | None = None, b: str | None = None) -> dict:
        """Span-overlap F1 (and time F1) between two annotators of a question (default: the first two)."""
        names = self.db.annotators(question_id)
        a = a or (names[0] if names else None)
        b = b or next((n for n in names if n != a), None)
        if a is None or b is None:
            raise LookupError("agreement needs two annotators on this question")
        spans = {n: [(r["start_s"], r["end_s"]) for r in self.db.annotations(question_id, n)] for n in (a, b)}
        return {"annotator_a": a, "annotator_b": b, **agreement(spans[a], spans[b])}

    def agreement_report(self, ref: str | Path | None = None) -> dict:
        """Every question with two or more annotators: each one against the reference, and the means."""
        rows = []
        for q in self.questions(ref):
            names = self.db.annotators(q["id"])
            rows += [{"query_id": q["query_id"], **self.agreement(q["id"], names[0], b)} for b in names[1:]]
        mean = {k: round(sum(r[k] for r in rows) / len(rows), 4) if rows else None for k in ("span_f1", "time_f1")}
        return {"pairs": rows, "mean_span_f1": mean["span_f1"], "mean_time_f1": mean["time_f1"]}

    # -- queries.jsonl ---------------------------------------------------------------------
    def _find_audio(self, name: str, bases: list[Path]) -> dict | None:
        for base in bases:
            p = (base / name).expanduser()
            if p.exists():
                rec = self.db.find_recording(str(p.resolve())) or self.db.find_recording(str(p))
                if rec:
                    return rec
        rows = [r for r in self.db.recordings() if r["name"] == Path(name).name]
        return rows[0] if len(rows) == 1 else None

    def import_questions(self, path: Path | str, audio_dir: Path | str | None = None,
                         annotator: str = IMPORT_ANNOTATOR) -> list[int]:
        """Import a queries.jsonl file, all or nothing. A question whose query_id exists for the
        recording is replaced, with this annotator's spans; other annotators' spans stay."""
        path = Path(path)
        items = qfmt.read_queries(path)
        bases = [Path(audio_dir)] if audio_dir else []
        bases.append(path.parent)
        recs: dict[str, dict] = {}
        for q in items:
            if q["recording"] not in recs:
                rec = self._find_audio(q["recording"], bases)
                if rec is None:
                    raise LookupError(f"{path.name}: recording '{q['recording']}' (query {q['query_id']}) is not in "
                                      "the library; index it first (harp index) or give --audio-dir")
                recs[q["recording"]] = rec
        for q in items:  # a span past the end is a mistake in the file, not ground truth: refuse it whole
            dur = recs[q["recording"]]["duration_s"]
            bad = [(a, b) for a, b in q["evidence"] if b > dur + 1.0]
            if bad:
                raise qfmt.QueriesFormatError(
                    f"{path.name}: query {q['query_id']}: evidence span {bad[0][0]:g}-{bad[0][1]:g} s is outside the "
                    f"recording '{q['recording']}' ({dur:.1f} s long)")
        ids = []
        with self.db.transaction():
            for q in items:
                rid = recs[q["recording"]]["id"]
                fields = {k: q.get(k) for k in ("query_id", "query_type", "query", "answer", "answer_kind",
                                                "time_ref", "cue_audio", "notes")}
                fields["recording_ref"] = q["recording"]
                fields["extra"] = {k: v for k, v in q.items() if k not in qfmt.FIELDS}
                old = [r for r in self.db.questions(rid) if r["query_id"] == q["query_id"]]
                if old:
                    qid = old[0]["id"]
                    self.db.update_question(qid, fields)
                    self.db.delete_annotations(qid, annotator)
                else:
                    qid = self.db.add_question(rid, fields)
                for a, b in q["evidence"]:
                    self.db.add_annotation(qid, annotator, a, b)
                ids.append(qid)
        return ids

    def question_records(self, ref: str | Path | None = None, annotator: str | None = None) -> list[dict]:
        """Library questions as queries.jsonl dicts (the truth spans as ``evidence``)."""
        out = []
        for q in self.questions(ref):
            row = {k: q[k] for k in ("query_id", "query_type", "query", "answer", "answer_kind", "time_ref",
                                     "cue_audio", "notes")}
            row["recording"] = q["recording_ref"]
            row["evidence"] = [[a, b] for a, b in self.truth_spans(q["id"], annotator)]
            row.update(q["extra"])
            out.append(row)
        return out

    def export_questions(self, path: Path | str, ref: str | Path | None = None,
                         annotator: str | None = None) -> int:
        rows = self.question_records(ref, annotator)
        rid = self.recording(ref)["id"] if ref is not None else None
        write_export(self.db, rid, "questions-jsonl", path, lambda tmp: qfmt.write_queries(tmp, rows),
                     {"questions": len(rows), "annotator": annotator})
        return len(rows)

    # -- evaluation and exports ------------------------------------------------------------
    def eval_cases(self, ref: str | Path | None = None, annotator: str | None = None) -> list[Case]:
        cases = []
        recs = {r["id"]: r for r in self.db.recordings()}
        for q, row in zip(self.questions(ref), self.question_records(ref, annotator), strict=True):
            rec = recs[q["recording_id"]]
            folder = Path(rec["path"]).parent
            cue = folder / q["cue_audio"] if q["cue_audio"] else None
            clips = [folder / row[k] if row.get(k) else None for k in ("speaker_cue", "emotion_cue")]
            cases.append(Case(row, rec["sha256"], cue, *clips))
        return cases

    @staticmethod
    def file_cases(path: Path | str, audio_dir: Path | str | None = None) -> tuple[list[Case], list[Path]]:
        """A queries.jsonl file as evaluation cases, and the recordings they need indexed.
        Recordings and cue clips are looked up in ``audio_dir`` (default: the file's folder)."""
        items = qfmt.read_queries(path)
        # A question bank may keep its clips beside the file and its recordings elsewhere: each
        # relative path is looked up in the audio folder(s) (os.pathsep-separated), then in the file's own folder.
        dirs = [Path(d).expanduser() for d in str(audio_dir).split(os.pathsep) if d] if audio_dir else []
        base = dirs[0] if dirs else Path(path).parent
        for d in dirs:
            if not d.is_dir():
                raise LookupError(f"audio folder not found: {d}")
        roots = list(dict.fromkeys([*dirs, base, Path(path).parent]))

        def find(rel: str) -> Path:
            return next(((r / rel).resolve() for r in roots if (r / rel).is_file()), (base / rel).resolve())

        cases, audio = [], {}
        for q in items:
            rec = find(q["recording"])
            clips = {k: find(q[k]) if q.get(k) else None for k in ("cue_audio", "speaker_cue", "emotion_cue")}
            for f, what in ((rec, "recording"), *((c, "cue clip") for c in clips.values())):
                if f is not None and not f.is_file():
                    raise LookupError(f"{what} '{f.name}' of query {q['query_id']} not found in {base} "
                                      "(give --audio-dir)")
            audio[rec] = None
            cases.append(Case(q, str(rec), clips["cue_audio"], clips["speaker_cue"], clips["emotion_cue"]))
        return cases, list(audio)

    def evaluate(self, cases: list[Case], options: EvalOptions | None = None, llm=None, progress=None,
                 should_stop=None) -> Report:
        return evaluate(self, cases, options, llm, progress, should_stop)

    def export_annotations(self, ref: str | Path, fmt: str, path: Path | str, by: str = "annotator") -> Path:
        """Every question's spans on one recording, all annotators, as audacity | textgrid | eaf | jsonl."""
        rec = self.recording(ref)
        if fmt == "jsonl":
            self.export_questions(path, rec["sha256"])
            return Path(path)
        if fmt not in ann_export.FORMATS:
            raise ValueError(f"unknown annotation format '{fmt}' (use jsonl, {', '.join(ann_export.FORMATS)})")
        spans = [ann_export.Span(r["annotator"], q["query_id"], r["start_s"], r["end_s"], r["label"])
                 for q in self.questions(rec["sha256"]) for r in self.db.annotations(q["id"])]
        # Through the export audit trail: written atomically, checksummed, recorded in `exports`.
        row = write_export(self.db, rec["id"], f"annotations-{fmt}", path,
                           lambda tmp: ann_export.write(fmt, tmp, spans, rec["duration_s"], rec["path"], by),
                           {"spans": len(spans), "tiers": by})
        return Path(row["path"])
