"""What the window shows about one recording, read through the headless API (no Qt).

A plain snapshot: the widgets render it and never query the library themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from harp_desktop.api import Library


@dataclass
class SpeakerInfo:
    label: str
    name: str
    index: int
    total_s: float


@dataclass
class Line:
    start_s: float
    end_s: float
    speaker: str | None  # label, e.g. SPEAKER_1
    text: str


@dataclass
class TagSpan:
    kind: str  # "event" or "emotion"
    label: str
    start_s: float
    end_s: float
    score: float
    arousal: float | None = None  # emotion tags: the covering segment's stored arousal/valence (issue 18)
    valence: float | None = None

    @property
    def tooltip(self) -> str:
        text = f"{self.kind}: {self.label} ({self.score:.2f})"
        if self.arousal is not None and self.valence is not None:
            text += f", arousal {self.arousal:.2f}, valence {self.valence:.2f}"  # 0-1, the segment's
        return text


@dataclass
class RecordingData:
    id: int
    sha256: str
    path: str
    name: str
    duration_s: float
    note: str
    audio_cache: Path
    speakers: list[SpeakerInfo] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    tags: list[TagSpan] = field(default_factory=list)
    missing_stages: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing_stages

    def speaker(self, label: str | None) -> SpeakerInfo | None:
        return next((s for s in self.speakers if s.label == label), None)

    def speaker_name(self, label: str | None) -> str:
        s = self.speaker(label)
        return s.name if s else (label or "?")


@dataclass
class RecordingSummary:
    id: int
    path: str
    name: str
    duration_s: float
    done: int
    total: int

    @property
    def complete(self) -> bool:
        return self.done >= self.total


def audio_cache_path(library_folder: Path, sha256: str) -> Path:
    """Where indexing leaves the decoded 16 kHz mono float32 audio (see audio/decode.py)."""
    return Path(library_folder) / "audio" / f"{sha256}.f32"


def stage_names() -> list[str]:
    from harp_desktop.index.pipeline import STAGES

    return ["decode", *(s.name for s in STAGES)]


def missing_stages(lib: Library, recording_id: int) -> list[str]:
    done = {s["stage"] for s in lib.db.stages(recording_id)}
    return [s for s in stage_names() if s not in done]


def summaries(lib: Library) -> list[RecordingSummary]:
    total = len(stage_names())
    return [RecordingSummary(r["id"], r["path"], r["name"], r["duration_s"] or 0.0,
                             total - len(missing_stages(lib, r["id"])), total)
            for r in lib.db.recordings()]


def find(lib: Library, path_or_ref: str | Path) -> dict | None:
    """The recording row for a path or sha256 prefix, or None if it is not in the library yet."""
    try:
        return lib.recording(path_or_ref)
    except LookupError:
        return None


def _dims_of(tag: dict, segments: list[dict]) -> tuple[float | None, float | None]:
    """(arousal, valence) of the segment an emotion tag lies in (the tag or one of its windows)."""
    if tag["kind"] != "emotion":
        return None, None
    for s in segments:
        e = s.get("emotion") or {}
        if s["start_s"] - 1e-3 <= tag["start_s"] and tag["end_s"] <= s["end_s"] + 1e-3 and e.get("arousal") is not None:
            return e["arousal"], e["valence"]
    return None, None


def load(lib: Library, ref: str | Path) -> RecordingData:
    rec = lib.recording(ref)
    data = lib.transcript(rec["sha256"])
    speakers = [SpeakerInfo(s["id"], s["name"] or s["id"], i, s["total_s"] or 0.0)
                for i, s in enumerate(data["speakers"])]
    lines = [Line(s["start_s"], s["end_s"], s["speaker"], s["text"]) for s in data["segments"]]
    tags = [TagSpan(t["kind"], t["label"], t["start_s"], t["end_s"], t["score"], *_dims_of(t, data["segments"]))
            for t in lib.db.tags(rec["id"])]
    return RecordingData(rec["id"], rec["sha256"], rec["path"], rec["name"], rec["duration_s"] or 0.0,
                         rec["note"] or "", audio_cache_path(lib.folder, rec["sha256"]), speakers, lines, tags,
                         missing_stages(lib, rec["id"]))
