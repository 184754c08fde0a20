"""Encrypted libraries in the window: the passphrase dialog (wrong, right, cancelled), the
creation warning, and indexing + asking through the child process with the key on its stdin."""

from __future__ import annotations

from pathlib import Path

import pytest
import soundfile as sf
from PySide6.QtWidgets import QDialogButtonBox, QLabel

from harp_desktop.api import Library
from harp_desktop.store import crypto, sealed
from harp_desktop.ui.passphrase import PassphraseDialog, create_encrypted_library, unlock_with_dialog
from tests.ui.conftest import CLIP

PASS = "tea at four, not five"


class Scripted:
    """Stands in for PassphraseDialog: answers from a list; exec() is False when it runs out (Cancel)."""

    def __init__(self, answers: list[str]) -> None:
        self.answers, self.errors = list(answers), []

    def __call__(self, folder, creating, parent):
        self.creating = creating
        return self

    def exec(self) -> bool:
        return bool(self.answers)

    def value(self) -> str:
        return self.answers.pop(0)

    def show_error(self, message: str) -> None:
        self.errors.append(message)


@pytest.fixture
def locked(tmp_path, monkeypatch):
    monkeypatch.delenv("HARP_PASSPHRASE", raising=False)
    folder = tmp_path / "enc"
    Library(folder, PASS, encrypt=True).close()
    crypto.forget(folder)
    return folder


def test_wrong_then_right_passphrase(locked):
    before = sorted((p.name, p.stat().st_mtime_ns) for p in locked.rglob("*"))
    cancelled = Scripted(["nope"])
    assert unlock_with_dialog(locked, None, cancelled) is False
    assert cancelled.errors == ["Wrong passphrase. Nothing was opened or changed; try again."]
    assert crypto.unlocked(locked) is None
    assert sorted((p.name, p.stat().st_mtime_ns) for p in locked.rglob("*")) == before
    scripted = Scripted(["nope", PASS])
    assert unlock_with_dialog(locked, None, scripted) is True and len(scripted.errors) == 1
    assert crypto.unlocked(locked) is not None
    assert unlock_with_dialog(locked, None, Scripted([])) is True  # unlocked once per process


def test_creation_dialog_warns_and_needs_both_entries_and_the_checkbox(qtbot, tmp_path):
    dlg = PassphraseDialog(tmp_path / "new", creating=True)
    qtbot.addWidget(dlg)
    ok = dlg.buttons.button(QDialogButtonBox.StandardButton.Ok)
    warning = dlg.findChild(QLabel, "lostPassphraseWarning")
    assert "there is no recovery" in warning.text() and "not encrypted" in warning.text()
    dlg.passphrase.setText(PASS)
    dlg.repeat.setText(PASS + "x")
    assert not ok.isEnabled() and "differ" in dlg.error.text()
    dlg.repeat.setText(PASS)
    assert not ok.isEnabled()
    dlg.understood.setChecked(True)
    assert ok.isEnabled()
    opening = PassphraseDialog(tmp_path / "new", creating=False)
    qtbot.addWidget(opening)
    assert opening.findChild(QLabel, "lostPassphraseWarning") is None and opening.repeat.isHidden()


def test_window_creates_indexes_and_asks_in_an_encrypted_library(qtbot, make_window, tmp_path, monkeypatch):
    monkeypatch.delenv("HARP_PASSPHRASE", raising=False)
    w = make_window(tmp_path / "plain")
    target = tmp_path / "enc"
    target.mkdir()
    scripted = Scripted([PASS])
    assert create_encrypted_library(w, scripted, str(target)) and scripted.creating
    assert w.lib.folder == target and w.lib.encrypted and w.settings.library == str(target)
    with qtbot.waitSignal(w.indexFinished, timeout=60_000):  # the child process gets the key on stdin
        w.open_path(str(CLIP))
    qtbot.waitUntil(lambda: w.waveform.has_waveform, timeout=10_000)
    w.ask_panel.no_llm.setChecked(True)
    with qtbot.waitSignal(w.answerReady, timeout=60_000) as got:
        w.ask_panel.ask("Does the patient have chest pain?")
    assert got.args[0]["evidence"]
    w.waveform.set_selection(5.2, 7.0)
    w.cue_from_selection()  # an example clip cut from the recording: in memory, not in /tmp
    cue = w.ask_panel.cue()
    assert cue.startswith("/proc/self/fd/") and sf.info(cue).duration == pytest.approx(1.8, abs=0.01)
    assert not any(Path(w._cue_dir.name).iterdir())
    with qtbot.waitSignal(w.answerReady, timeout=60_000) as got:
        w.ask_panel.ask("Who speaks like this?")
    assert got.args[0]["answer"]
    files = [p for p in target.rglob("*") if p.is_file() and p.suffix in (".f32", ".hnsw", ".npz")]
    assert {p.suffix for p in files} == {".f32", ".hnsw", ".npz"}
    assert all(sealed.is_sealed(p) for p in files)
    assert b"chest" not in (target / "library.sqlite").read_bytes().lower()
