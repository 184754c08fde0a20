"""Voice activity: Silero VAD v6 (ONNX, shipped inside faster-whisper), block-wise."""

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


def speech_regions(
    audio: np.ndarray,
    progress: Callable[[float], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> list[Region]:
    n = len(audio)
    block = int(_BLOCK_S * SAMPLE_RATE)
    regions: list[Region] = []
    for start in range(0, n, block):
        if should_stop and should_stop():
            raise InterruptedError("cancelled")
        chunk = np.asarray(audio[start : start + block], dtype=np.float32)
        if len(chunk) < 512:
            break
        for ts in get_speech_timestamps(chunk, VAD_OPTIONS, SAMPLE_RATE):
            r = Region((start + ts["start"]) / SAMPLE_RATE, (start + ts["end"]) / SAMPLE_RATE)
            # A region cut by a block boundary continues in the next block: rejoin it.
            if regions and r.start_s - regions[-1].end_s < 0.05:
                regions[-1] = Region(regions[-1].start_s, r.end_s)
            else:
                regions.append(r)
        if progress:
            progress(min(1.0, (start + block) / n))
    return [Region(round(r.start_s, 3), round(min(r.end_s, n / SAMPLE_RATE), 3)) for r in regions]
