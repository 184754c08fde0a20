"""Voice activity: Silero VAD v6 (ONNX, shipped inside faster-whisper), block-wise, plus a
rescue of speech Silero misses, from the audio tagger's Speech class.

Silero skips some loud, clearly voiced emotional speech entirely (on the dev recording a sad
and a fearful line at -25 dBFS, at any threshold, alone or in context) and starts some other
lines a second late. YAMNet (the events stage) hears them as Speech as confidently as the
lines Silero keeps. A run of at least ``RESCUE_MIN_CELLS`` coarse tagger cells (0.48 s hop)
whose Speech logit exceeds ``RESCUE_LOGIT``, none inside a Silero region, becomes a region
(each cell's 0.975 s patch), joined to a Silero region it touches. ASR then decides what
was said there, as for any region. On dev this adds exactly the three truncated or missed
emotional lines and nothing else (no cough, no room tone).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from faster_whisper.vad import VadOptions, get_speech_timestamps

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.types import Region

# Short silences split regions; speaker-turn building merges them back where the
# speaker stays the same, so finer regions here only help speaker-change detection.
VAD_OPTIONS = VadOptions(threshold=0.5, min_speech_duration_ms=200, min_silence_duration_ms=400, speech_pad_ms=150)
_BLOCK_S = 600.0  # bounds memory on multi-hour files (silero pads a copy of its input)
RESCUE_LOGIT = 2.0  # YAMNet Speech logit; kept lines score 3-7, room tone and silence below -5
RESCUE_MIN_CELLS = 3  # >= 3 cells (about 1.9 s of patches): a lone loud cell is not a line


def speech_regions(
    audio: np.ndarray,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    blocks: dict[int, list[dict]] | None = None,
) -> list[Region]:
    """Silero's regions in ``_BLOCK_S`` blocks. ``blocks`` (a recording that grows, record/ahead.py): Silero's
    timestamps of each complete block, reused by the next call on a longer prefix of the same audio."""
    n = len(audio)
    block = int(_BLOCK_S * SAMPLE_RATE)
    regions: list[Region] = []
    for start in range(0, n, block):
        if should_stop and should_stop():
            raise InterruptedError("cancelled")
        chunk = np.asarray(audio[start : start + block], dtype=np.float32)
        if len(chunk) < 512:
            break
        found = blocks.get(start) if blocks is not None else None
        if found is None:
            found = get_speech_timestamps(chunk, VAD_OPTIONS, SAMPLE_RATE)
            if blocks is not None and len(chunk) == block:
                blocks[start] = found
        for ts in found:
            r = Region((start + ts["start"]) / SAMPLE_RATE, (start + ts["end"]) / SAMPLE_RATE)
            # A region cut by a block boundary continues in the next block: rejoin it.
            if regions and r.start_s - regions[-1].end_s < 0.05:
                regions[-1] = Region(regions[-1].start_s, r.end_s)
            else:
                regions.append(r)
        if progress:
            progress(min(1.0, (start + block) / n))
    return [Region(round(r.start_s, 3), round(min(r.end_s, n / SAMPLE_RATE), 3)) for r in regions]


def rescue_regions(regions: list[Region], speech_logit: np.ndarray, times_s: np.ndarray, patch_s: float,
                   duration_s: float) -> tuple[list[Region], list[Region]]:
    """``regions`` plus runs of confident tagger Speech outside them; returns (regions, the runs added)."""
    inside = np.zeros(len(times_s), bool)
    for r in regions:
        inside |= (times_s >= r.start_s) & (times_s <= r.end_s)
    on = (np.asarray(speech_logit, np.float32) > RESCUE_LOGIT) & ~inside
    edges = np.flatnonzero(np.diff(np.concatenate([[0], on.astype(np.int8), [0]])))
    half = patch_s / 2
    found = [Region(round(max(0.0, float(times_s[a]) - half), 3), round(min(duration_s, float(times_s[b - 1]) + half), 3))
             for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= RESCUE_MIN_CELLS]
    merged: list[Region] = []
    for r in sorted([*regions, *found], key=lambda r: r.start_s):
        if merged and r.start_s <= merged[-1].end_s + 0.05:  # overlapping or touching: one region
            merged[-1] = Region(merged[-1].start_s, max(merged[-1].end_s, r.end_s))
        else:
            merged.append(r)
    return merged, found
