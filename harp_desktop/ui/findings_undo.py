"""Undoable finding corrections for the Findings panel: each command wraps one headless call and
its inverse (``findings.service``: ``restore_finding``, ``revert_edit``, ``reinstate_edit``).

As in ``annotate_undo``, the correction is made before the command is pushed (a refused one
never enters the stack) and ``redo`` skips its first call. A removed correction row comes back
with its id, so later commands in the stack still name the right finding. ``after`` is told
which finding to select once a step is done or undone.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from harp_desktop.findings import service
from harp_desktop.findings.model import Finding

Step = Callable[[], int | None]  # does one direction, returns the finding id to select


class FindingCommand(QUndoCommand):
    def __init__(self, text: str, redo: Step, undo: Step, after: Callable[[int | None], None]) -> None:
        super().__init__(text)
        self._redo, self._undo, self._after = redo, undo, after
        self._first = True
        self.selected: int | None = None  # what the first call selected (set by the builders)
        self.failed: str | None = None  # why the last undo or redo could not be done

    def redo(self) -> None:
        if self._first:
            self._first = False
            self._after(self.selected)
        else:
            self._run(self._redo)

    def undo(self) -> None:
        self._run(self._undo)

    def _run(self, step: Step) -> None:
        try:
            chosen = step()
        except (ValueError, LookupError) as exc:  # the finding went meanwhile (a re-index, another program)
            self.failed = str(exc)
            chosen = None
        self._after(chosen)


def _rid(lib, ref: str) -> int:
    return lib.recording(ref)["id"]


def reject(lib: Callable, ref: str, f: Finding, annotator: str | None, after) -> tuple[FindingCommand, Finding]:
    """Reject ``f``; undo restores it (an automatic finding's rejection row is removed and kept
    for redo)."""
    new = lib().reject_finding(ref, f.id, annotator=annotator)
    state: dict = {"row": None}

    def undo() -> int:
        back, state["row"] = service.restore_finding(lib().db, _rid(lib(), ref), f.id)
        return back.id

    def redo() -> int | None:
        if state["row"] is None:  # an annotator's finding: flagged in place
            return lib().reject_finding(ref, f.id, annotator=annotator).id
        again = service.reinstate_edit(lib().db, _rid(lib(), ref), state["row"])
        return again.id if again is not None else None

    cmd = FindingCommand(f"reject {f.concept}", redo, undo, after)
    cmd.selected = new.id
    return cmd, new


def edit(lib: Callable, ref: str, f: Finding, changes: dict, annotator: str | None, after
         ) -> tuple[FindingCommand, Finding]:
    """Correct ``f``. An automatic finding's edit is a new annotator finding: undo removes it (the
    automatic one shows again), redo puts the same row back. An annotator's finding is updated in
    place: undo writes its old values back."""
    new = lib().edit_finding(ref, f.id, annotator=annotator, **changes)
    text = f"edit {f.concept} ({', '.join(changes)})"
    if f.source == "auto":
        state: dict = {"row": None}

        def undo() -> int | None:
            auto, state["row"] = service.revert_edit(lib().db, _rid(lib(), ref), new.id)
            return auto.id if auto is not None else None

        def redo() -> int | None:
            again = service.reinstate_edit(lib().db, _rid(lib(), ref), state["row"])
            return again.id if again is not None else None
    else:
        old = {k: getattr(f, k) for k in changes}

        def undo() -> int | None:
            return lib().edit_finding(ref, f.id, annotator=annotator, **old).id

        def redo() -> int | None:
            return lib().edit_finding(ref, f.id, annotator=annotator, **changes).id

    cmd = FindingCommand(text, redo, undo, after)
    cmd.selected = new.id
    return cmd, new
