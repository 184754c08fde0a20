"""The queries.jsonl question-set format (docs/queries_format.md): parse, validate, write.

Parsing is all-or-nothing: the first bad line raises ``QueriesFormatError`` naming the
line, and the caller imports nothing. Unknown fields are kept (in ``extra``) and written
back after the known ones, so a file round-trips without loss.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

FIELDS = ("query_id", "recording", "query_type", "query", "answer", "answer_kind", "evidence", "time_ref",
          "cue_audio", "notes")
ANSWER_KINDS = ("yesno", "time", "count", "label", "text")
_OPTIONAL_TEXT = ("query_type", "answer", "answer_kind", "time_ref", "cue_audio", "notes")


class QueriesFormatError(ValueError):
    """A queries.jsonl file that cannot be imported; the message names the line."""


def _check(q: object, where: str) -> dict:
    if not isinstance(q, dict):
        raise QueriesFormatError(f"{where}: expected a JSON object, got {type(q).__name__}")
    for key in ("query_id", "recording", "query"):
        if not isinstance(q.get(key), str) or not q[key].strip():
            raise QueriesFormatError(f"{where}: '{key}' must be a non-empty string")
    for key in _OPTIONAL_TEXT:
        if q.get(key) is not None and not isinstance(q[key], str):
            raise QueriesFormatError(f"{where}: '{key}' must be a string or null")
    if q.get("answer_kind") is not None and q["answer_kind"] not in ANSWER_KINDS:
        raise QueriesFormatError(f"{where}: 'answer_kind' must be one of {', '.join(ANSWER_KINDS)} "
                                 f"(got {q['answer_kind']!r})")
    spans = q.get("evidence", [])
    if spans is None:
        spans = []
    if not isinstance(spans, list):
        raise QueriesFormatError(f"{where}: 'evidence' must be a list of [start_s, end_s] pairs")
    for span in spans:
        ok = (isinstance(span, list) and len(span) == 2
              and all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in span))
        if not ok or not 0 <= span[0] <= span[1]:
            raise QueriesFormatError(f"{where}: bad evidence span {json.dumps(span)[:60]} "
                                     "(want [start_s, end_s] with 0 <= start_s <= end_s)")
    return q


def parse_lines(text: str, source: str = "queries") -> list[dict]:
    """Every question in a queries.jsonl text, validated; raises on the first bad line."""
    out: list[dict] = []
    seen: dict[tuple[str, str], int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{source} line {n}"
        try:
            q = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QueriesFormatError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
        q = _check(q, where)
        key = (q["recording"], q["query_id"])
        if key in seen:
            raise QueriesFormatError(f"{where}: query_id '{q['query_id']}' repeats line {seen[key]} "
                                     f"for recording '{q['recording']}'")
        seen[key] = n
        q.setdefault("evidence", [])
        if q["evidence"] is None:
            q["evidence"] = []
        out.append(q)
    return out


def read_queries(path: Path | str) -> list[dict]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise QueriesFormatError(f"no such file: {path}") from None
    except UnicodeDecodeError:
        raise QueriesFormatError(f"{path.name}: not UTF-8 text") from None
    return parse_lines(text, path.name)


def to_line(q: dict) -> str:
    """One question as a queries.jsonl line: the known fields in order, then any extra ones."""
    row = {k: q.get(k, [] if k == "evidence" else None) for k in FIELDS}
    row["evidence"] = [[a, b] for a, b in row["evidence"]]
    row.update({k: v for k, v in q.items() if k not in FIELDS})
    return json.dumps(row)


def write_queries(path: Path | str, questions: list[dict]) -> None:
    """Written to a temporary name and renamed: a failed export leaves nothing half-written."""
    path = Path(path)
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text("".join(to_line(q) + "\n" for q in questions), encoding="utf-8")
    tmp.replace(path)
