"""Export entry points behind ``Library.export`` / ``Library.report`` / ``Library.exports``:
choose the format, build the file, write it atomically and record it in the audit trail."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harp_desktop.export import audit, transcript
from harp_desktop.export.report_data import gather, select_answers
from harp_desktop.paths import inside

REPORT_FORMATS = ("pdf", "md")
TRANSCRIPT_FORMATS = ("txt", "srt", "vtt", "json", "pdf")
_SUFFIX = {".md": "md", ".markdown": "md", ".pdf": "pdf", ".txt": "txt", ".srt": "srt", ".vtt": "vtt",
           ".json": "json"}
_AUDIO = {".wav", ".flac", ".ogg", ".oga", ".mp3"}


def choose_format(path: Path | str, fmt: str | None, allowed: tuple[str, ...]) -> str:
    """The format asked for, else the one the file name says; a clear error for anything else."""
    suffix = Path(path).suffix.lower()
    fmt = (fmt or _SUFFIX.get(suffix, suffix)).lower().lstrip(".")
    if fmt == "markdown":
        fmt = "md"
    if not fmt:
        raise audit.ExportError(f"cannot tell the format from '{Path(path).name}'; give --format "
                                f"({'|'.join(allowed)})")
    if fmt not in allowed:
        raise audit.ExportError(f"unknown format '{fmt}'; choose one of {', '.join(allowed)} (--format or the file's suffix)")
    return fmt


def guard(lib, rec: dict, path: Path | str) -> None:
    """Never overwrite a recording or anything inside the library folder (its database, caches)."""
    target = Path(path).expanduser().resolve()
    if target == Path(rec["path"]).resolve() or (target.exists() and target.suffix.lower() in _AUDIO):
        raise audit.ExportError(f"{target} is an audio file; choose another output name")
    if inside(lib.folder, target):
        raise audit.ExportError(f"{target} is inside the library folder; choose a file elsewhere")


def export_transcript(lib, ref: str | Path, path: Path | str, fmt: str | None = None) -> dict:
    """The transcript as TXT / SRT / VTT / PDF, or the whole index as JSON; returns the audit row."""
    audit.check_target(path)
    fmt = choose_format(path, fmt, TRANSCRIPT_FORMATS)
    rec = lib.recording(ref)
    guard(lib, rec, path)
    lines = transcript.speech_lines(lib.db, rec["id"])
    detail = {"format": fmt, "segments": len(lines)}
    if fmt == "pdf":
        from harp_desktop.export import report

        def produce(tmp: Path) -> None:
            detail["pages"] = report.build(gather(lib, rec, []), tmp, transcript=lines, title="Transcript")
    else:
        text = transcript.render(lib, rec, fmt)

        def produce(tmp: Path) -> None:
            tmp.write_text(text, encoding="utf-8")
    kind = "index-json" if fmt == "json" else f"transcript-{fmt}"
    return audit.write_export(lib.db, rec["id"], kind, path, produce, detail)


def export_report(lib, ref: str | Path, path: Path | str, *, questions: list[str] | tuple = (),
                  all_answers: bool = False, answers: list[dict] | None = None,
                  ask: Callable[[str], dict] | None = None, fmt: str | None = None,
                  with_transcript: bool = False) -> dict:
    """A rationale report of ``answers`` (given), plus stored answers for ``questions`` / all stored
    answers; questions without a stored answer are asked through ``ask``. Returns the audit row
    with ``asked``: the questions asked now."""
    audit.check_target(path)
    fmt = choose_format(path, fmt, REPORT_FORMATS)
    rec = lib.recording(ref)
    guard(lib, rec, path)
    chosen, asked = list(answers or []), []
    if questions or all_answers or not chosen:
        more, asked = select_answers(lib, rec, list(questions), all_answers, ask)
        chosen += more
    data = gather(lib, rec, chosen)
    lines = transcript.speech_lines(lib.db, rec["id"]) if with_transcript else None
    detail = {"format": fmt, "questions": [a["question"] for a in chosen],
              "answer_ids": [a.get("id") for a in chosen], "supported": [bool(a.get("supported")) for a in chosen],
              "models": [f"{m.key}: {m.version}" for m in data.models], "transcript": with_transcript}
    if fmt == "pdf":
        from harp_desktop.export import report

        def produce(tmp: Path) -> None:
            detail["pages"] = report.build(data, tmp, transcript=lines)
    else:
        from harp_desktop.export import markdown

        text = markdown.build(data, lines)

        def produce(tmp: Path) -> None:
            tmp.write_text(text, encoding="utf-8")
    row = audit.write_export(lib.db, rec["id"], f"report-{fmt}", path, produce, detail)
    return {**row, "asked": asked}


def list_exports(lib, ref: str | Path | None = None, check_files: bool = True) -> list[dict]:
    """The audit trail (newest first), each row with ``status``: ok, changed or missing."""
    rows = lib.db.exports(lib.recording(ref)["id"] if ref else None)
    for r in rows:
        r["status"] = audit.file_status(r) if check_files else ""
    return rows
