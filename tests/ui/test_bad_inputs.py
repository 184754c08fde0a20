"""The bad-input matrix's file cases, opened in the window instead of the CLI.

Opening (command line, history, File > Open) and adding (drag and drop, Add folder) a
broken file must show the same one line the CLI prints, start no indexing, raise nothing
in a slot (pytest-qt fails the test on an exception inside Qt) and leave the library as
it was. A file that is readable but damaged is indexed, and the window says what was wrong.
"""

from __future__ import annotations

import pytest

from tests.reliability.cases import CASES, Env
from tests.reliability.test_bad_inputs import library_state

WAIT_MS = 120_000
REFUSED = ["empty-file", "text-as-wav", "zero-samples", "random-bytes", "unsupported-aiff", "symlink-loop",
           "dangling-symlink", "missing-file", "a-folder", "named-pipe", "name-too-long",
           "library-database-as-recording"]
BY_ID = {c.id: c for c in CASES}


def build(case_id: str, tmp_path) -> tuple[str, Env]:
    src = tmp_path / "inputs"
    src.mkdir()
    env = Env(src, tmp_path / "lib", None, "", None, None, None)  # file cases use only tmp and lib
    argv = BY_ID[case_id].build(env)
    assert argv[0] == "index" and argv[2:4] == ["--library", env.lib], "not a plain file case"
    return str(argv[1]), env


@pytest.mark.parametrize("case_id", REFUSED)
def test_a_broken_file_is_refused_in_one_line_and_changes_nothing(case_id, qtbot, make_window, tmp_path):
    path, env = build(case_id, tmp_path)
    w = make_window(env.lib)
    before = library_state(env.lib)
    w.open_path(path)
    shown = w.statusBar().currentMessage()
    assert BY_ID[case_id].needle.lower() in shown.lower(), shown
    assert "\n" not in shown and "Traceback" not in shown and len(shown) < 400, shown
    assert not w.indexing(), "a refused file must not start an indexing run"
    w.add_paths([path])  # dropped on the window / added from a dialog: nothing raises, nothing queued
    assert not w.indexing() and w.statusBar().currentMessage()
    assert library_state(env.lib) == before


@pytest.mark.slow
def test_a_truncated_recording_is_indexed_and_the_window_says_so(qtbot, make_window, tmp_path):
    path, env = build("truncated-wav", tmp_path)
    w = make_window(env.lib)
    with qtbot.waitSignal(w.indexFinished, timeout=WAIT_MS):
        w.open_path(path)
    assert "note: the file is truncated" in w.statusBar().currentMessage().lower()
    assert w.data is not None and w.data.complete and w.data.lines


def test_hostile_and_huge_questions_in_the_ask_box(qtbot, make_window, indexed_library):
    """A 1 MB paste, control characters, ANSI escapes, a right-to-left override and markup:
    answered, the truncation said in the answer, nothing interpreted as HTML."""
    from tests.ui.conftest import CLIP
    from tests.ui.test_main_window import ask, open_and_wait

    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    a = ask(qtbot, w, "Did anyone cough? " * 58_000)
    assert any("truncated" in n for n in a["notes"]) and "truncated" in w.ask_panel.answer.toPlainText()
    a = ask(qtbot, w, "Did\x00 anyone \x1b[31mcough\x1b[0m?\u202e <b>bold</b><script>x</script> 🙂")
    assert a["answer"] and "<script>" in a["question"]
    assert "<b>bold</b><script>x</script>" in w.ask_panel.answer.toPlainText()  # shown as typed, not rendered


def test_a_library_that_refuses_writes_gives_one_line_in_the_window(qtbot, make_window, indexed_library,
                                                                     monkeypatch):
    """Renaming a speaker when the database refuses the write (read-only medium, another program
    holding a long write lock): the status bar says so in one line; nothing raises in the slot."""
    import sqlite3

    from tests.ui.conftest import CLIP
    from tests.ui.test_main_window import open_and_wait

    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)

    def refuse(*_a):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(w.lib, "rename_speaker", refuse)
    w.rename_speaker("SPEAKER_1", "Dr Patel")
    shown = w.statusBar().currentMessage()
    assert shown.startswith("the library is read-only") and "\n" not in shown
    assert w.data.speaker_name("SPEAKER_1") == "SPEAKER_1"
