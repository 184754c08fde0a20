"""Settings: ASR profile, language model, library location, threads."""

from __future__ import annotations

import os

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from harp_desktop import weights
from harp_desktop.agent.llm import LLM_CHOICES
from harp_desktop.ui.settings import Settings


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.asr = QComboBox(self)
        manifest = weights.manifest()
        for name, key in weights.ASR_PROFILES.items():
            self.asr.addItem(name, name)
            if manifest.get(key, {}).get("unavailable"):
                i = self.asr.count() - 1
                self.asr.model().item(i).setEnabled(False)
                self.asr.setItemData(i, "unavailable: its weights are incomplete (see About models)", 3)
        self.asr.setCurrentIndex(max(0, self.asr.findData(settings.asr_profile)))
        self.asr.setToolTip("base: multilingual, default. tiny.en: faster, English only. Used for new indexing.")
        self.llm = QComboBox(self)
        for name in LLM_CHOICES:
            self.llm.addItem(name, name)
        self.llm.setCurrentIndex(max(0, self.llm.findData(settings.llm)))
        self.llm.setToolTip("The local language model used when 'No LLM' is off (loaded on first question)")
        self.library = QLineEdit(settings.library, self)
        self.library.setPlaceholderText(settings.library_dir())
        self.library.setToolTip("Folder holding the library database, indexes and decoded audio")
        browse = QPushButton("Browse\u2026", self)
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.library, 1)
        row.addWidget(browse)
        self.threads = QSpinBox(self)
        self.threads.setRange(1, os.cpu_count() or 1)
        self.threads.setValue(settings.threads)
        self.threads.setToolTip("CPU threads for speech recognition while indexing")
        form = QFormLayout(self)
        form.addRow("Speech recognition", self.asr)
        form.addRow("Language model", self.llm)
        form.addRow("Library folder", row)
        form.addRow("Threads", self.threads)
        form.addRow(QLabel("<small>A new ASR profile applies to recordings indexed from now on; use "
                           "\u201cIndex again\u201d in the library to re-run a recording.</small>", self))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Library folder", self.library.text()
                                                  or self.library.placeholderText())
        if folder:
            self.library.setText(folder)

    def apply_to(self, settings: Settings) -> None:
        settings.asr_profile = self.asr.currentData()
        settings.llm = self.llm.currentData()
        settings.library = self.library.text().strip()
        settings.threads = self.threads.value()
