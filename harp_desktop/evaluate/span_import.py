"""Import an EAF / TextGrid / Audacity file as tiers of evidence spans on one recording.

Mapping (docs/decisions.md, "Importing spans"): a span belongs to a question and an annotator.
- Text ``q-001`` or ``q-001: label`` where ``q-001`` is a question of the recording (what
  ``harp questions export --format eaf|textgrid|audacity`` writes): that question, that label.
- Any other text: the tier is a label set; its spans go to the question whose id is the tier's
  name (created when missing), the text becoming the span's label.
- Annotator: ``annotator`` if given; else Audacity's trailing ``[name]`` (our export), ELAN's
  ANNOTATOR attribute, our tier names (``alice``, ``alice 2`` overflow, ``q-001 (alice)``);
  else ``reference`` like ``harp questions import``.
Importing replaces the spans each (question, annotator) pair of the file already had, so
importing a file twice, or what was exported, leaves the same spans (the round trip). The
import is all or nothing (one transaction) and can be undone (``ImportDone``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from harp_desktop.export import span_import as parse

DEFAULT_ANNOTATOR = "reference"
_AUDACITY_WHO = re.compile(r"^(?P<text>.*?)\s*\[(?P<who>[^\[\]]+)\]$")
_BY_QUESTION = re.compile(r"^(?P<q>.+) \((?P<who>.+)\)(?: \d+)?$")
_OVERFLOW = re.compile(r"^(?P<base>.+) \d+$")


@dataclass(frozen=True)
class PlannedSpan:
    tier: str
    query_id: str
    annotator: str
    start_s: float
    end_s: float
    label: str | None


@dataclass
class ImportPlan:
    """What an import would do; shown in the preview dialog and by ``--dry-run``."""

    path: Path
    format: str
    recording: dict
    spans: list[PlannedSpan]
    new_questions: list[str]  # query ids created for label-set tiers
    replaced: int  # existing spans of the same (question, annotator) pairs that go
    warnings: list[str] = field(default_factory=list)

    def tiers(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for s in self.spans:
            out[s.tier] = out.get(s.tier, 0) + 1
        return out

    def summary(self) -> str:
        tiers = self.tiers()
        parts = [f"{len(self.spans)} span(s) in {len(tiers)} tier(s) from {self.path.name} onto "
                 f"{self.recording['name']}"]
        if self.new_questions:
            parts.append(f"{len(self.new_questions)} new question(s): {', '.join(self.new_questions)}")
        if self.replaced:
            parts.append(f"replacing {self.replaced} existing span(s) of the same questions and annotators")
        return "; ".join(parts)


@dataclass
class ImportDone:
    """Rows an import wrote or removed, enough to undo and redo it with the same ids."""

    questions: list[dict]
    added: list[dict]
    removed: list[dict]


def _question_of(text: str, ids: set[str]) -> tuple[str, str | None] | None:
    if text in ids:
        return text, None
    qid, sep, label = text.partition(": ")
    if sep and qid in ids:
        return qid, label.strip() or None
    return None


def _annotator_from_tier(tier: str, qid: str, names: set[str]) -> str:
    m = _BY_QUESTION.match(tier)
    if m and m["q"] == qid:
        return m["who"]
    m = _OVERFLOW.match(tier)
    if m and m["base"] in names:  # "alice 2" next to "alice": our overflow tier for overlapping spans
        return m["base"]
    return tier


def plan(lib, ref: str | Path, path: Path | str, tier: str | None = None, annotator: str | None = None,
         fmt: str | None = None) -> ImportPlan:
    """Parse ``path`` and map it onto the recording's questions; raises SpanImportError / LookupError."""
    rec = lib.recording(ref)
    parsed = parse.select_tier(parse.read(path, fmt), tier)
    parse.check_fits(parsed, float(rec["duration_s"]), f"'{rec['name']}'")
    ids = {q["query_id"] for q in lib.questions(rec["sha256"])}
    names = {t.name for t in parsed.tiers}
    who_given = (annotator or "").strip() or None
    spans: list[PlannedSpan] = []
    new: list[str] = []
    for t in parsed.tiers:
        for iv in t.intervals:
            text, hint = iv.text, None
            m = _AUDACITY_WHO.match(text) if parsed.format == "audacity" else None
            if m:
                text, hint = m["text"], m["who"]
            ours = _question_of(text, ids)
            if ours:
                qid, label = ours
                who = who_given or hint or t.annotator or _annotator_from_tier(t.name, qid, names)
            else:
                qid, label = t.name.strip(), iv.text or None  # a label set: keep the whole text as the label
                who = who_given or t.annotator or DEFAULT_ANNOTATOR
                if qid not in ids and qid not in new:
                    new.append(qid)
            spans.append(PlannedSpan(t.name, qid, who, iv.start_s, iv.end_s, label))
    if not spans:
        raise parse.SpanImportError(f"{parsed.path.name}: no spans to import"
                                    + (f" ({'; '.join(parsed.warnings)})" if parsed.warnings else ""))
    by_id = {q["query_id"]: q["id"] for q in lib.questions(rec["sha256"])}
    pairs = {(s.query_id, s.annotator) for s in spans}
    replaced = sum(len(lib.spans(by_id[q], who)) for q, who in pairs if q in by_id)
    return ImportPlan(parsed.path, parsed.format, rec, spans, new, replaced, parsed.warnings)


def apply(lib, p: ImportPlan) -> ImportDone:
    """Write the plan in one transaction: new questions, old spans of the same pairs out, spans in."""
    db = lib.db
    done = ImportDone([], [], [])
    with db.transaction():
        by_id = {q["query_id"]: q["id"] for q in db.questions(p.recording["id"])}
        for qid in p.new_questions:
            if qid not in by_id:
                by_id[qid] = db.add_question(p.recording["id"], {
                    "query_id": qid, "query": f"Spans of tier '{qid}' imported from {p.path.name}"})
                done.questions.append(db.question(by_id[qid]))
        for q, who in sorted({(s.query_id, s.annotator) for s in p.spans}):
            for row in db.annotations(by_id[q], who):
                done.removed.append(db.delete_annotation(row["id"]))
        for s in p.spans:
            sid = db.add_annotation(by_id[s.query_id], s.annotator, s.start_s, s.end_s, s.label)
            done.added.append(db.annotation(sid))
    return done


def undo(lib, done: ImportDone) -> None:
    db = lib.db
    with db.transaction():
        for row in done.added:
            db.delete_annotation(row["id"])
        for row in done.removed:
            db.restore_annotation(row)
        for q in done.questions:
            db.db.conn.execute("DELETE FROM questions WHERE id = ?", [q["id"]])


def redo(lib, done: ImportDone) -> None:
    db = lib.db
    with db.transaction():
        for q in done.questions:
            fields = {k: q[k] for k in ("query_id", "recording_ref", "query_type", "query", "answer", "answer_kind",
                                        "time_ref", "cue_audio", "notes", "extra", "created_at", "updated_at")}
            db.add_question(q["recording_id"], fields, q["id"])
        for row in done.removed:
            db.delete_annotation(row["id"])
        for row in done.added:
            db.restore_annotation(row)


class SpanImportAPI:
    """Mixed into ``harp_desktop.api.Library``."""

    def plan_span_import(self, ref: str | Path, path: Path | str, tier: str | None = None,
                         annotator: str | None = None) -> ImportPlan:
        return plan(self, ref, path, tier, annotator)

    def import_spans(self, ref: str | Path, path: Path | str, tier: str | None = None,
                     annotator: str | None = None) -> tuple[ImportPlan, ImportDone]:
        p = plan(self, ref, path, tier, annotator)
        return p, apply(self, p)
