"""Encrypted libraries in the window: the passphrase dialog (open and create) and the
File menu's "New encrypted library..." (the library logic is store/crypto.py).

Unlocking puts the key in this process's keyring, so the window's worker threads open
the library again without asking; the indexing child process gets it over its stdin.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import soundfile as sf
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.store import crypto
from harp_desktop.store.unlock import ENV


class PassphraseDialog(QDialog):
    """Asks for a library's passphrase; when ``creating``, twice and with the no-recovery warning."""

    def __init__(self, folder: Path, creating: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.creating = creating
        self.setWindowTitle("New encrypted library" if creating else "Encrypted library")
        self.setMinimumWidth(460)
        lay = QVBoxLayout(self)
        intro = (f"Choose a passphrase for the new encrypted library<br><b>{folder}</b>" if creating
                 else f"The library <b>{folder}</b> is encrypted. Enter its passphrase.")
        lay.addWidget(QLabel(intro, wordWrap=True))
        form = QFormLayout()
        self.passphrase = QLineEdit(echoMode=QLineEdit.EchoMode.Password)
        self.passphrase.setAccessibleName("Passphrase")
        form.addRow("&Passphrase:", self.passphrase)
        self.repeat = QLineEdit(echoMode=QLineEdit.EchoMode.Password)
        self.repeat.setAccessibleName("Repeat passphrase")
        self.understood = QCheckBox("I understand: a lost passphrase means lost data, there is no recovery")
        if creating:
            form.addRow("&Repeat:", self.repeat)
        lay.addLayout(form)
        if creating:
            warning = QLabel(f"<b>Warning.</b> {crypto.LOST_PASSPHRASE_WARNING}", wordWrap=True)
            warning.setObjectName("lostPassphraseWarning")
            lay.addWidget(warning)
            lay.addWidget(self.understood)
        self.error = QLabel("", wordWrap=True)
        self.error.setStyleSheet("color: #b00020")
        lay.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        for signal in (self.passphrase.textChanged, self.repeat.textChanged, self.understood.toggled):
            signal.connect(self._validate)
        self._validate()

    def _validate(self, *_: object) -> None:
        text = self.passphrase.text()
        ok = bool(text)
        if self.creating:
            ok = ok and text == self.repeat.text() and self.understood.isChecked()
            mismatch = bool(self.repeat.text()) and text != self.repeat.text()
            self.error.setText("The two passphrases differ." if mismatch else "")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.passphrase.selectAll()
        self.passphrase.setFocus()

    def value(self) -> str:
        return self.passphrase.text()


def unlock_with_dialog(folder: Path | str, parent: QWidget | None = None, dialog=PassphraseDialog) -> bool:
    """True when ``folder`` can be opened now: plain, already unlocked, $HARP_PASSPHRASE right,
    or the user typed the right passphrase; False if they cancelled (nothing is touched)."""
    folder = Path(folder).expanduser()
    if not crypto.is_encrypted(folder) or crypto.unlocked(folder) is not None:
        return True
    if os.environ.get(ENV):
        try:
            crypto.unlock(folder, os.environ[ENV])
            return True
        except crypto.PassphraseError:
            pass  # fall through to the dialog
    dlg = dialog(folder, False, parent)
    while dlg.exec():
        try:
            crypto.unlock(folder, dlg.value())
            return True
        except crypto.PassphraseError:
            dlg.show_error("Wrong passphrase. Nothing was opened or changed; try again.")
    return False


def create_encrypted_library(window, dialog=PassphraseDialog, folder: str | None = None) -> bool:
    """Ask for an empty folder and a passphrase, create the encrypted library there and switch to it."""
    from harp_desktop.api import Library

    folder = folder or QFileDialog.getExistingDirectory(window, "Folder for the new encrypted library")
    if not folder:
        return False
    target = Path(folder)
    if (target / "library.sqlite").exists() or crypto.is_encrypted(target):
        QMessageBox.warning(window, "New encrypted library",
                            f"{target} already holds a library. Choose an empty folder.")
        return False
    dlg = dialog(target, True, window)
    if not dlg.exec():
        return False
    try:
        Library(target, dlg.value(), encrypt=True).close()
    except (crypto.PassphraseError, OSError) as exc:
        QMessageBox.warning(window, "New encrypted library", " ".join(str(exc).split()))
        return False
    window.settings.library = str(target)
    window.settings.save(window.store)
    window.switch_library(str(target))
    return True


_memory_cue_fd: int | None = None


def memory_clip(clip: np.ndarray, rate: int) -> str | None:
    """An example clip cut from an encrypted library's recording, as a WAV in memory (a Linux
    memfd, opened by path like a file); None where there is no memfd (the caller uses a temp
    file). Only the latest is kept: the ask panel holds one cue at a time."""
    global _memory_cue_fd
    if not hasattr(os, "memfd_create") or not Path("/proc/self/fd").is_dir():
        return None
    if _memory_cue_fd is not None:
        os.close(_memory_cue_fd)
    _memory_cue_fd = os.memfd_create("harp-cue", 0)
    path = f"/proc/self/fd/{_memory_cue_fd}"
    sf.write(path, clip, rate, format="WAV", subtype="FLOAT")
    return path


def install(window) -> None:
    """Add File > New encrypted library... above Settings."""
    bar = window.menuBar()
    file_menu = next((a.menu() for a in bar.actions() if a.text() == "&File"), None)
    if file_menu is None:
        return
    settings = next((a for a in file_menu.actions() if a.text().startswith("&Settings")), None)
    act = window._action(file_menu, "New &encrypted library\u2026", lambda: create_encrypted_library(window), None,
                         "A library whose database, indexes and audio cache are encrypted with a passphrase")
    if settings is not None:
        file_menu.removeAction(act)
        file_menu.insertAction(settings, act)
