"""Plain dataclasses for the things that flow between stages (times in seconds)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Region:
    """A span of time, e.g. a VAD speech region."""

    start_s: float
    end_s: float

    @property
    def duration_s(self) -> float:
        return self.end_s - self.start_s


@dataclass
class Word:
    start_s: float
    end_s: float
    text: str
    prob: float = 1.0


@dataclass
class Segment:
    """A speaker turn: the unit every index and retrieval tool works on."""

    start_s: float
    end_s: float
    speaker: int | None = None  # cluster index (0-based); label SPEAKER_{n+1}
    words: list[Word] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(w.text for w in self.words).strip()


@dataclass
class Tag:
    """A labelled moment: a sound event (cough...) or an emotion."""

    start_s: float
    end_s: float
    label: str
    score: float
    kind: str = "event"


@dataclass
class Evidence:
    """A retrieved moment with each tool's score; what fusion ranks and the answer cites."""

    start_s: float
    end_s: float
    segment_id: int | None = None
    speaker: str | None = None
    text: str = ""
    labels: list[str] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)

    @property
    def key(self) -> tuple:
        # Segments dedupe by id; event spans (no segment) by their rounded span.
        return ("seg", self.segment_id) if self.segment_id is not None else ("span", round(self.start_s, 1))

    @property
    def rank(self) -> float:
        """The fused score, else the best tool score; the time filter is not a score (its 1.0 means "inside")."""
        return self.scores.get("fused", max((v for k, v in self.scores.items() if k != "time"), default=0.0))


# The answer policy's words for "searched, and nothing there" (agent/answerers): "No — not mentioned ...",
# "No — not heard ...".
_ABSENCE = re.compile(r"^\s*No\s*[\u2014-]+\s*not (mentioned|heard)\b")


def is_absence(answer: dict) -> bool:
    """A No that says nothing was found: it has no moment to cite, so "unsupported" (no verified evidence)
    is the wrong flag for it; the rationale says what was searched."""
    return (not answer.get("supported") and not answer.get("citations")
            and bool(_ABSENCE.match(answer.get("rationale") or "")))
