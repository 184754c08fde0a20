"""User settings, persisted with QSettings (the Settings dialog edits them)."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

from PySide6.QtCore import QSettings

from harp_desktop.paths import data_dir, default_library_dir

ORG, APP = "HARP", "harp-desktop"
DEFAULT_CONSENT = ("Before recording, tell everyone present that this conversation will be recorded and "
                   "transcribed on this computer, what it is for and who may hear it, and make sure each of "
                   "them agrees. Stop the recording if anyone does not.")


@dataclass
class Settings:
    asr_profile: str = "base"
    llm: str = "qwen1.5b"
    library: str = ""  # empty: $HARP_LIBRARY or the user data folder
    threads: int = 2
    no_llm: bool = False
    retrieval: str = "hybrid"
    evidence: str = "metadata"
    fusion: str = "rrf"
    follow: bool = True
    annotator: str = ""  # name recorded with each marked evidence span (empty: the login name)
    audio_model: str = ""  # audio-capable GGUF for evidence audio|multimodal (empty: $HARP_AUDIO_MODEL)
    audio_projector: str = ""  # its mmproj projector (empty: $HARP_AUDIO_PROJECTOR)
    consent_text: str = DEFAULT_CONSENT  # shown before the first recording of a session (issue 20)
    recordings: str = ""  # where new recordings are saved (empty: <data folder>/recordings)

    def library_dir(self) -> str:
        return self.library or str(default_library_dir())

    def recordings_dir(self) -> str:
        """Beside the library, never inside it: the indexer refuses files of the library folder."""
        return self.recordings or str(data_dir() / "recordings")

    @classmethod
    def load(cls, store: QSettings) -> Settings:
        s = cls()
        for f in fields(cls):
            default = getattr(s, f.name)
            raw = store.value(f.name, default)
            try:
                if isinstance(default, bool):
                    value = raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "yes")
                elif isinstance(default, int):
                    value = int(raw)
                else:
                    value = str(raw)
            except (TypeError, ValueError):
                value = default
            setattr(s, f.name, value)
        s.threads = max(1, min(os.cpu_count() or 1, s.threads))
        return s

    def save(self, store: QSettings) -> None:
        for f in fields(self):
            store.setValue(f.name, getattr(self, f.name))
        store.sync()


def default_store() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORG, APP)
