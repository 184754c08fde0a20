"""What a rationale report shows, gathered once for both the PDF and the Markdown writer:
the recording, every model that produced its content (name + version), each answer with
its citations re-checked against its evidence, and annotators' ground truth when present."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from harp_desktop import __version__, weights
from harp_desktop.agent import verify
from harp_desktop.export import summary as findings_summary
from harp_desktop.export.summary import Summary
from harp_desktop.store import dbapi
from harp_desktop.types import Evidence

# Which manifest model each index stage ran (ASR names its own model in the stage info).
# Every weight file a stage reads: the speakers stage embeds windows with GE2E and decides labels with
# CAM++; the emotion head reads the ASR model's encoder states (added from the asr stage's info below).
STAGE_MODELS = {"vad": ("vad",), "speakers": ("speaker", "speaker-campplus"), "events": ("events",), "sounds": ("events",),
                "audio_emb": ("events",), "text_emb": ("text",), "speaker_emb": ("speaker",),
                "emotion": ("emotion",)}
DISCLAIMER = ("Decision support only: answers are generated automatically from a machine transcript and "
              "sound tags and may be wrong. Check every cited moment in the recording before acting on it.")


@dataclass
class ModelRow:
    key: str
    name: str
    version: str
    used_for: str


@dataclass
class Item:
    """One answered question, ready to print."""

    answer: dict
    evidence: list[Evidence]
    cited: list[list[tuple[float, float]]]  # per evidence row: the verified citations it backs
    citations: list[tuple[float, float, int | None]]  # verified citation -> first backing evidence row
    removed: int  # citations the verifier struck out (when asked, or now)
    rationale: str = ""  # as re-verified now: a citation outside the evidence is struck out
    truth: list[dict] = field(default_factory=list)  # annotators' spans for the same question


@dataclass
class ReportData:
    recording: dict
    created_at: str
    app_version: str
    models: list[ModelRow]
    items: list[Item]
    audio_cache: Path | None  # the decoded 16 kHz cache, for the waveform strip; None if gone
    summary: Summary | None = None  # the findings' cited summary (issue 17); None: not gathered


def when(iso: str | None) -> str:
    """'2026-12-01T00:51:06+00:00' -> '2026-12-01 00:51 UTC'."""
    if not iso:
        return "just now"
    return iso[:16].replace("T", " ") + (" UTC" if iso.endswith("+00:00") else "")


def labels(items: list[str]) -> str:
    """Sound events first, then emotions ('emotion:calm (0.80)' -> 'emotion calm (0.80)'); a label
    tagged several times inside one span is shown once, with its highest score."""
    best: dict[str, float | None] = {}
    for x in items:
        m = re.fullmatch(r"(.*?) \(([0-9.]+)\)", x)
        name, score = (m.group(1), float(m.group(2))) if m else (x, None)
        if name not in best or (score or 0) > (best[name] or 0):
            best[name] = score
    order = sorted(best, key=lambda k: k.startswith("emotion:"))  # stable: events keep their order
    return "; ".join(k.replace("emotion:", "emotion ", 1) + (f" ({best[k]:.2f})" if best[k] is not None else "")
                     for k in order)


def _name(key: str, entry: dict) -> str:
    if entry.get("display_name"):
        return entry["display_name"]
    m = re.search(r"\(([^,;()]+)", entry.get("role", ""))
    return m.group(1).strip() if m else key


def _version(key: str, entry: dict) -> str:
    pkgs = [p.split(" ")[0] for p in entry.get("packages", []) if "==" in p]
    shown = pkgs[0] + (f" (+{len(pkgs) - 1} parts)" if len(pkgs) > 2 else "".join(f", {p}" for p in pkgs[1:])) \
        if pkgs else "shipped in this repository"
    return f"{shown}; weights {weights.fingerprint(key).split(':', 1)[1]}"


def _emotion_encoder() -> str:
    """The Whisper weights whose encoder states the emotion head reads (emotion.py picks the profile)."""
    from harp_desktop.index import emotion

    profile = emotion.WHISPER_PROFILE if emotion.FEATURE_VERSION in emotion.ENCODINGS else emotion.STATES_PROFILE
    return weights.ASR_PROFILES[profile]


def models_used(db, recording_id: int, answers: list[dict]) -> list[ModelRow]:
    manifest = weights.manifest()
    used: dict[str, list[str]] = {}
    for st in db.stages(recording_id):
        keys = STAGE_MODELS.get(st["stage"], ())
        if st["stage"] == "asr":
            keys = (json.loads(st["info"] or "{}").get("model"),)
        elif st["stage"] == "emotion":
            keys = (*keys, _emotion_encoder())
        for key in keys:
            if key in manifest:
                used.setdefault(key, []).append(st["stage"])
    rows = [ModelRow(k, _name(k, manifest[k]), _version(k, manifest[k]), "index: " + ", ".join(v))
            for k, v in used.items()]
    fp = db.stage_fingerprint(recording_id, "findings")
    if fp is not None:  # rules and a vocabulary file, not weights: named by their versions (the summary's source)
        from harp_desktop.findings import stage as findings_stage

        rows.append(ModelRow("findings", "HARP findings rules + clinical vocabulary",
                             f"harp-desktop {__version__}; {findings_stage.own_key(None)}; stage run {fp}",
                             "index: findings (roles, sections, the cited summary)"))
    by_display = {e.get("display_name"): k for k, e in manifest.items() if e.get("display_name")}
    for llm in dict.fromkeys((a.get("models") or {}).get("llm") for a in answers):
        if llm:
            k = by_display.get(llm)
            rows.append(ModelRow(k or llm, llm, _version(k, manifest[k]) if k else "not in the manifest",
                                 "answers (planning, wording)"))
    planners = sorted({(a.get("models") or {}).get("planner") or "rules" for a in answers})
    if answers:
        rows.append(ModelRow("planner", "HARP rule planner + code-settled answers", f"harp-desktop {__version__}",
                             "answers (" + ", ".join(planners) + ")"))
    return rows


def ground_truth(db, recording_id: int, question: str) -> list[dict]:
    """Annotators' evidence spans for the same question text; [] when there are none."""
    try:
        rows = db.db.query(
            "SELECT a.annotator, a.start_s, a.end_s, a.label FROM annotations a JOIN questions q "
            "ON q.id = a.question_id WHERE q.recording_id = ? AND lower(trim(q.query)) = lower(trim(?)) "
            "ORDER BY a.start_s", [recording_id, question])
        return [dict(r) for r in rows]
    except dbapi.Error:  # an older library without the table: the report simply has no ground truth
        return []


def _evidence(a: dict, speakers: dict[str, str]) -> list[Evidence]:
    return [Evidence(e["start_s"], e["end_s"], None, speakers.get(e.get("speaker") or "", e.get("speaker")),
                     e.get("text") or "", list(e.get("labels") or []), dict(e.get("scores") or {}))
            for e in a.get("evidence", [])]


def item(db, recording_id: int, a: dict, speakers: dict[str, str]) -> Item:
    ev = _evidence(a, speakers)
    verdict = verify.check(a.get("rationale", ""), ev)  # re-checked now, not trusted from storage
    cited: list[list[tuple[float, float]]] = [[] for _ in ev]
    cits = []
    for s, e in verdict.citations:
        rows = [i for i, x in enumerate(ev) if verify.supported_by(s, e, [x])]
        for i in rows:
            cited[i].append((s, e))
        cits.append((s, e, rows[0] if rows else None))
    removed = verdict.rationale.count("[unsupported citation removed]")
    return Item(a, ev, cited, cits, removed, verdict.rationale, ground_truth(db, recording_id, a["question"]))


def gather(lib, rec: dict, answers: list[dict]) -> ReportData:
    rid = rec["id"]
    speakers = {s["label"]: s["name"] or s["label"] for s in lib.db.speakers(rid)}
    cache = Path(lib.folder) / "audio" / f"{rec['sha256']}.f32"
    return ReportData(rec, datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), __version__,
                      models_used(lib.db, rid, answers), [item(lib.db, rid, a, speakers) for a in answers],
                      cache if cache.is_file() else None, findings_summary.gather(lib, rec))


def _norm(q: str) -> str:
    return " ".join(q.split()).casefold()


def select_answers(lib, rec: dict, questions: list[str], include_all: bool,
                   ask: Callable[[str], dict] | None) -> tuple[list[dict], list[str]]:
    """Stored answers for the report: all of them and/or the latest per question, asking the
    questions that have none (``ask``). Returns the answers and the questions that were asked now."""
    stored = lib.db.answers(rec["id"])
    out = list(stored) if include_all else []
    asked = []
    for q in questions:
        if not q.strip():
            raise ValueError("a --question is empty")
        match = [a for a in stored if _norm(a["question"]) == _norm(q)]
        if match:
            if not include_all:
                out.append(match[-1])
            continue
        if ask is None:
            raise LookupError(f"no stored answer for '{q}'")
        out.append(ask(q))
        asked.append(q)
    if not out and include_all:
        raise LookupError("nothing to report: this recording has no stored answers yet; ask a question first")
    if not out:
        raise LookupError("nothing to report: give --question, or --answers all for a recording with stored answers")
    return out, asked
