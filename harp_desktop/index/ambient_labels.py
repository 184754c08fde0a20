"""Names of the ambient (non-bodily) sound events, without the model: the retrieval tools, the
question parser and the window read these; index/events.py detects them (AMBIENT_CLASSES)."""

from __future__ import annotations

AMBIENT_SOURCE = "yamnet-ambient"  # tags.source of the sounds stage's rows
AMBIENT_LABELS = ("telephone", "knock", "alarm", "music", "dog")
# Words for each in an answer ("No telephone ringing was detected").
AMBIENT_WORDS = {"telephone": "telephone ringing", "knock": "knocking", "alarm": "alarm or beeping",
                 "music": "music", "dog": "dog barking"}
