"""The window and the CLI on one library at once: the window keeps answering while a
terminal indexes into the same library, no "database is locked" reaches either, and the
window notices what the other program did (a new recording, a deletion) by itself."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import DATA, REPO
from tests.ui.conftest import CLIP
from tests.ui.test_main_window import ask, open_and_wait

pytestmark = pytest.mark.slow
WAIT_MS = 10_000  # the window polls the library every 2 s


def harp(*argv) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "harp_desktop.cli", *map(str, argv)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_window_follows_a_terminal_indexing_and_deleting_in_its_library(qtbot, make_window, indexed_library):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    shown_sha = w.data.sha256
    assert len(w.library.paths()) == 1

    other = DATA / "speaker_b_1.flac"
    proc = harp("index", other, "--asr", "tiny.en", "--library", indexed_library)
    asked = 0
    while proc.poll() is None:  # the user goes on working while the terminal writes
        a = ask(qtbot, w, "Did anyone cough?")
        assert a["answer"] and "locked" not in w.status_text().lower()
        asked += 1
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and "locked" not in (out + err).lower(), err
    assert asked >= 1
    w.rename_speaker("SPEAKER_1", "Dr Patel")
    assert "locked" not in w.status_text().lower()

    # Nobody clicked: the list shows the terminal's recording, finished.
    qtbot.waitUntil(lambda: w.library.status_of(str(other.resolve())) == "indexed", timeout=WAIT_MS)

    proc = harp("delete", shown_sha[:12], "--yes", "--library", indexed_library)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    qtbot.waitUntil(lambda: "deleted from the library by another program" in w.statusBar().currentMessage(),
                    timeout=WAIT_MS)
    assert w.library.paths() == [str(other.resolve())]
    assert not w.ask_panel.ask_button.isEnabled()


def test_a_pending_reload_of_a_recording_deleted_meanwhile_says_so(qtbot, make_window, indexed_library):
    """A rename schedules a reload of the open recording; another program deletes it before the
    event loop runs it: the window says so and closes it instead of raising in the slot."""
    from harp_desktop.api import Library

    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    sha = w.data.sha256
    w.rename_speaker("SPEAKER_1", "Dr Patel")  # the reload waits for the event loop
    with Library(indexed_library) as other:  # "another program", before any event is processed
        other.delete_recording(sha)
    qtbot.waitUntil(lambda: w.data is None, timeout=WAIT_MS)
    assert "deleted from the library by another program" in w.statusBar().currentMessage()
    assert not w.ask_panel.ask_button.isEnabled() and w.library.paths() == []
