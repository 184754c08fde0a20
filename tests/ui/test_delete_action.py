"""Recording ▸ Delete from library: asks first, refuses while the window indexes the
recording, then leaves no row, file or readable byte of it; the recording file stays."""

from __future__ import annotations

import sqlite3

from PySide6.QtWidgets import QMessageBox

from tests.ui.conftest import CLIP
from tests.ui.test_main_window import ask, open_and_wait

WAIT_MS = 180_000  # indexing a clip on 2 shared cores; a timeout, not a speed target
WORDS = [b"shortness", b"weekend"]  # in the clip's transcript


def answer(monkeypatch, button: QMessageBox.StandardButton) -> list[str]:
    asked: list[str] = []

    def question(parent, title, text, *args):
        asked.append(text)
        return button

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def test_delete_the_open_recording_after_confirming(qtbot, make_window, indexed_library, monkeypatch):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    sha = w.data.sha256
    ask(qtbot, w, "When is the weekend mentioned?")
    assert w.deleting.act.isEnabled()

    asked = answer(monkeypatch, QMessageBox.StandardButton.No)
    w.deleting.act.trigger()
    assert len(asked) == 1 and "recording file itself stays" in asked[0]
    assert w.data is not None and w.library.paths() == [str(CLIP.resolve())]  # "No" changes nothing

    answer(monkeypatch, QMessageBox.StandardButton.Yes)
    with qtbot.waitSignal(w.deleting.finished, timeout=WAIT_MS) as done:
        w.deleting.act.trigger()
    assert done.args[0].startswith(f"Deleted {CLIP.name}") and done.args[0] in w.statusBar().currentMessage()
    assert w.data is None and not w.ask_panel.ask_button.isEnabled() and w.library.paths() == []
    assert not w.deleting.act.isEnabled() and CLIP.exists()

    con = sqlite3.connect(indexed_library / "library.sqlite")
    try:
        assert con.execute("SELECT COUNT(*) FROM recordings").fetchone()[0] == 0
        assert con.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 0
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    assert [p.name for p in indexed_library.rglob("*") if sha in p.name] == []
    for p in (p for p in indexed_library.rglob("*") if p.is_file()):
        data = p.read_bytes().lower()
        assert not [n for n in WORDS if n in data], p


def test_a_recording_being_indexed_here_is_not_deleted(qtbot, make_window, tmp_path, monkeypatch):
    w = make_window(tmp_path / "fresh")
    asked = answer(monkeypatch, QMessageBox.StandardButton.Yes)
    w.open_path(str(CLIP))
    qtbot.waitUntil(lambda: bool(w.lib.db.recordings()) and w.indexing(), timeout=WAIT_MS)  # row written, run on
    w.deleting.request(str(CLIP.resolve()))
    assert "cancel indexing" in w.statusBar().currentMessage() and asked == []
    with qtbot.waitSignal(w.indexFinished, timeout=WAIT_MS):
        pass
    assert w.lib.db.recordings()
