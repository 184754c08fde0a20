"""Colours for speakers (one each, in order of appearance) and for tag labels (no Qt)."""

from __future__ import annotations

import zlib

# Tableau 10: distinguishable, and readable on a light background.
SPEAKER_COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f",
                  "#e15759", "#bab0ac"]
_TAG_FIXED = {"cough": "#d62728", "throat clearing": "#ff7f0e", "sneeze": "#9467bd", "wheeze": "#8c564b",
              "laughter": "#2ca02c", "crying": "#17becf", "breathing": "#7f7f7f",
              # sounds of the room (the sounds stage): darker, so they read apart from the body's
              "telephone": "#1f3a93", "knock": "#6d4c41", "alarm": "#e65100", "music": "#ad1457", "dog": "#827717"}
# Emotions: "neutral" stays pale so the moments that are not neutral stand out.
_EMOTION_FIXED = {"neutral": "#cfd8dc", "calm": "#cfd8dc", "ang": "#c2185b", "sad": "#5c6bc0", "hap": "#fbc02d",
                  "joy": "#fbc02d", "fear": "#8e24aa", "surpri": "#00897b", "disgust": "#6d4c41",
                  "distress": "#e64a19", "anx": "#e64a19"}
_TAG_OTHER = ["#bcbd22", "#1f77b4", "#e377c2", "#aec7e8", "#98df8a", "#c5b0d5", "#c49c94", "#dbdb8d"]
UNKNOWN_SPEAKER = "#9e9e9e"
EVIDENCE = "#ffd54f"
SELECTION = "#64b5f6"
PLAYHEAD = "#c62828"
WAVEFORM = "#37474f"


def speaker_color(index: int | None) -> str:
    return UNKNOWN_SPEAKER if index is None or index < 0 else SPEAKER_COLORS[index % len(SPEAKER_COLORS)]


def tag_color(label: str, kind: str = "event") -> str:
    key = label.lower().replace("_", " ")  # stored labels use "_" ("throat_clearing")
    for name, colour in (_EMOTION_FIXED if kind == "emotion" else _TAG_FIXED).items():
        if name in key:
            return colour
    return _TAG_OTHER[zlib.crc32(key.encode()) % len(_TAG_OTHER)]
