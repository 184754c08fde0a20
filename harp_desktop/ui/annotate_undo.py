"""Undoable annotation edits: each command wraps one headless-API call and its inverse.

The edit is applied before the command is pushed (so a refused edit, e.g. a bad span,
never enters the stack); ``redo`` skips its first call and re-applies afterwards.
Deleted rows come back with their ids, so later commands in the stack stay valid.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand


class ApiCommand(QUndoCommand):
    def __init__(self, text: str, redo: Callable[[], None], undo: Callable[[], None],
                 after: Callable[[], None]) -> None:
        super().__init__(text)
        self._redo, self._undo, self._after = redo, undo, after
        self._first = True

    def redo(self) -> None:
        if self._first:
            self._first = False
        else:
            self._redo()
        self._after()

    def undo(self) -> None:
        self._undo()
        self._after()


def add_span(lib, question_id: int, start_s: float, end_s: float, annotator: str, label: str | None,
             after: Callable[[], None]) -> ApiCommand:
    span_id = lib().add_span(question_id, start_s, end_s, annotator, label)
    row = lib().db.annotation(span_id)
    return ApiCommand(f"mark {start_s:.1f}-{end_s:.1f} s", lambda: lib().restore_span(row),
                      lambda: lib().delete_span(span_id), after)


def delete_span(lib, span_id: int, after: Callable[[], None]) -> ApiCommand:
    row = lib().delete_span(span_id)
    return ApiCommand(f"delete span {row['start_s']:.1f}-{row['end_s']:.1f} s", lambda: lib().delete_span(span_id),
                      lambda: lib().restore_span(row), after)


def update_span(lib, span_id: int, changes: dict, after: Callable[[], None], text: str = "edit span") -> ApiCommand:
    old = lib().update_span(span_id, **changes)
    return ApiCommand(text, lambda: lib().update_span(span_id, **changes), lambda: lib().update_span(span_id, **old),
                      after)


def update_question(lib, question_id: int, changes: dict, after: Callable[[], None]) -> ApiCommand:
    old = lib().update_question(question_id, **changes)
    return ApiCommand(f"edit {', '.join(changes)}", lambda: lib().update_question(question_id, **changes),
                      lambda: lib().update_question(question_id, **old), after)


def add_question(lib, ref: str, query: str, fields: dict, after: Callable[[], None]) -> tuple[ApiCommand, int]:
    qid = lib().add_question(ref, query, **fields)
    row = lib().db.question(qid)
    cmd = ApiCommand("new question", lambda: lib().restore_question(row, []), lambda: lib().delete_question(qid),
                     after)
    return cmd, qid


def delete_question(lib, question_id: int, after: Callable[[], None]) -> ApiCommand:
    q, spans = lib().delete_question(question_id)
    return ApiCommand(f"delete question {q['query_id']}", lambda: lib().delete_question(question_id),
                      lambda: lib().restore_question(q, spans), after)
