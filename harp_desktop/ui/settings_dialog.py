"""Settings: ASR profile, language model, library location, threads, optional audio model."""

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
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from harp_desktop import weights
from harp_desktop.agent.audio_evidence import ENV_MODEL, ENV_PROJECTOR
from harp_desktop.agent.llm import LLM_CHOICES
from harp_desktop.ui.settings import DEFAULT_CONSENT, Settings


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
        # Evidence audio / multimodal: a user-supplied audio GGUF + its mmproj (none is bundled).
        self.audio_model = self._gguf_row(form, "Audio model", settings.audio_model, ENV_MODEL,
                                          "An audio-capable GGUF, used when Evidence is audio or multimodal")
        self.audio_projector = self._gguf_row(form, "Audio projector", settings.audio_projector, ENV_PROJECTOR,
                                              "The model's multimodal projector (mmproj GGUF with an audio encoder)")
        self.consent = QPlainTextEdit(settings.consent_text, self)
        self.consent.setAccessibleName("Consent reminder")
        self.consent.setToolTip("Shown before the first recording of each session (File \u25b8 New recording)")
        self.consent.setFixedHeight(72)
        form.addRow("Consent reminder", self.consent)
        form.addRow(QLabel("<small>A new ASR profile applies to recordings indexed from now on; use "
                           "\u201cIndex again\u201d in the library to re-run a recording.</small>", self))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _gguf_row(self, form: QFormLayout, label: str, value: str, env: str, tip: str) -> QLineEdit:
        edit = QLineEdit(value, self)
        edit.setPlaceholderText(os.environ.get(env) or "not set (audio evidence falls back to metadata)")
        edit.setToolTip(f"{tip}. Empty: ${env}.")
        edit.setAccessibleName(label)
        browse = QPushButton("Browse\u2026", self)
        browse.setAccessibleName(f"Browse for the {label.lower()}")
        browse.clicked.connect(lambda: self._browse_file(edit, label))
        row = QHBoxLayout()
        row.addWidget(edit, 1)
        row.addWidget(browse)
        form.addRow(label, row)
        return edit

    def _browse_file(self, edit: QLineEdit, label: str) -> None:
        path, _ = QFileDialog.getOpenFileName(self, label, edit.text(), "GGUF files (*.gguf);;All files (*)")
        if path:
            edit.setText(path)

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
        settings.audio_model = self.audio_model.text().strip()
        settings.audio_projector = self.audio_projector.text().strip()
        settings.consent_text = self.consent.toPlainText().strip() or DEFAULT_CONSENT
