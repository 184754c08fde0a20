"""Transcription: faster-whisper (int8) with word timestamps, one pass over speech.

Speech regions are grouped into chunks of a few minutes; each chunk's regions are
concatenated (with short silences between them) and transcribed once. Chunks are the
unit of resume: the pipeline commits each chunk's words as it finishes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from faster_whisper import WhisperModel

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.types import Region, Word

CHUNK_SPEECH_S = 240.0
GAP_S = 0.8  # silence inserted between spans so words do not run together across a pause
JOIN_S = 1.0  # regions closer than this are transcribed with the real audio between them


@dataclass(frozen=True)
class AsrOptions:
    beam_size: int = 1
    language: str | None = None  # None: detect once on the first chunk, then keep it
    hotwords: str | None = None



def plan_chunks(regions: list[Region], max_speech_s: float = CHUNK_SPEECH_S) -> list[list[Region]]:
    """Group consecutive regions so each chunk holds at most ``max_speech_s`` of speech."""
    chunks: list[list[Region]] = []
    current: list[Region] = []
    total = 0.0
    for r in regions:
        if current and total + r.duration_s > max_speech_s:
            chunks.append(current)
            current, total = [], 0.0
        current.append(r)
        total += r.duration_s
    if current:
        chunks.append(current)
    return chunks


class Transcriber:
    def __init__(self, model_dir: Path, options: AsrOptions | None = None, cpu_threads: int = 2) -> None:
        self.model = WhisperModel(str(model_dir), device="cpu", compute_type="int8", cpu_threads=cpu_threads)
        self.options = options or AsrOptions()

    def transcribe_chunk(
        self, audio: np.ndarray, chunk: list[Region], language: str | None = None
    ) -> tuple[list[Word], str]:
        """Words (in recording time) and the language used for one chunk of regions."""
        gap = np.zeros(int(GAP_S * SAMPLE_RATE), dtype=np.float32)
        pieces, offsets = [], []
        pos = 0.0
        # Every synthetic gap costs decoding time, so near-contiguous regions are joined
        # with their own (short) pause; only real pauses get a synthetic gap.
        spans: list[Region] = []
        for r in chunk:
            if spans and r.start_s - spans[-1].end_s < JOIN_S:
                spans[-1] = Region(spans[-1].start_s, r.end_s)
            else:
                spans.append(r)
        for r in spans:
            seg = np.asarray(audio[int(r.start_s * SAMPLE_RATE) : int(r.end_s * SAMPLE_RATE)], dtype=np.float32)
            offsets.append((pos, pos + len(seg) / SAMPLE_RATE, r.start_s))
            pieces += [seg, gap]
            pos += len(seg) / SAMPLE_RATE + GAP_S
        joined = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
        segments, info = self.model.transcribe(
            joined,
            language=language or self.options.language,
            beam_size=self.options.beam_size,
            word_timestamps=True,
            vad_filter=False,
            condition_on_previous_text=False,
            hotwords=self.options.hotwords,
        )
        words = []
        for s in segments:
            for w in s.words or []:
                start, end = _to_recording_time(w.start, offsets), _to_recording_time(w.end, offsets, is_end=True)
                words.append(Word(round(start, 3), round(max(end, start), 3), w.word, round(float(w.probability), 3)))
        return words, info.language


def _to_recording_time(t: float, offsets: list[tuple[float, float, float]], is_end: bool = False) -> float:
    """Map a time in the concatenated chunk back to the recording's timeline."""
    for i, (a, b, orig) in enumerate(offsets):
        if t <= b + (GAP_S / 2 if is_end else 0) or i == len(offsets) - 1:
            if t < a:  # inside the gap before this region: snap to its start
                return orig
            return orig + min(t, b) - a
    return offsets[-1][2]
