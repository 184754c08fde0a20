"""Transcription: faster-whisper (int8) with word timestamps, one pass over speech.

Speech regions are grouped into chunks of at most one Whisper window (30 s) of joined audio; each chunk's
regions are concatenated (with short silences between them) and transcribed once. Chunks are the
unit of resume: the pipeline commits each chunk's words as it finishes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.index.asr_states import CapturingWhisper, TailSkipped, recording_states
from harp_desktop.index.whisper_enc import EncoderStates
from harp_desktop.types import Region, Word

# A chunk is at most this much joined audio (its speech and the synthetic gaps between spans): one Whisper window
# (stop 27). It was 30 s of speech, whose joined audio (30 s + the gaps) always overflowed into a second, mostly
# padded window. IndexOptions.asr_chunk_s is the one the stage uses.
CHUNK_S = 30.0
WINDOW_S = 30.0  # Whisper's decoding window
GAP_S = 0.8  # silence inserted between spans so words do not run together across a pause
JOIN_S = 1.0  # regions closer than this are transcribed with the real audio between them
TAIL_GAP = False
# Whisper sometimes skips a stretch of speech when it seeks across a 30 s window boundary
# (seen on dev: a whole patient answer lost). Speech it left without words for this long is
# transcribed again on its own (one padded 30 s window per hole). 2 s, not 1 s (issue 18): with the
# default hotwords, dev's 13 holes of 1.0-1.5 s and bank_rec_01's 21 holes of 1.0-1.3 s gave one word
# between them ("1881", not in the truth's spelling), every hole that gave words was >= 2.06 s, and the
# short holes cost a 30 s encode each (25-36 % of the stage's CPU; docs/decisions.md).
REPAIR_MIN_S = 2.0
# A chunk's last window holding less audio than this is not decoded (asr_states.CapturingWhisper.tail_frames):
# it is what is left after the last word Whisper gave, a region's padding (stop 27: on dev 12 of 17 chunks ended
# with such a window, 0.28-1.26 s, and on bank_rec_01 14 of 22, 0.19-0.54 s: none gave a word; the shortest last
# window that did was 1.52 s, two words). 0: every window is decoded.
TAIL_SKIP_S = 1.0
REPAIR_PAD_S = 0.3
# A repair clip is decoded greedily once, without Whisper's temperature fallback: the clips the
# fallback re-decoded (up to 6 times, to T=1.0) were the ones the strict filter drops anyway, and
# on dev the same words came back at 60 % of the CPU time (docs/decisions.md, issue 18).
REPAIR_TEMPERATURE = 0.0
# A hole this long is speech the VAD is sure of, not a breath or a cough: its repair keeps what Whisper
# itself keeps (drops a segment only when it is both "no speech" and unsure). Telephone-band speech reads
# as "no speech" to Whisper (no_speech_prob 0.8-0.9 at avg_logprob -0.5 on bank_rec_05's call), and the
# strict filter had dropped a whole minute of a call.
REPAIR_LENIENT_S = 5.0
THOROUGH_BEAM = 5
ASR_SEED = 0  # CTranslate2's sampling seed for the temperature fallback (see ``_words``)
REPAIR = f"repair{REPAIR_MIN_S}:t{REPAIR_TEMPERATURE}:lenient{REPAIR_LENIENT_S}:b{THOROUGH_BEAM}"
# In the asr stage key: asr_chunk_s counts joined audio (not speech), and short last windows are skipped.
PLAN = f"plan-joined:tail{TAIL_SKIP_S}"


@dataclass(frozen=True)
class AsrOptions:
    beam_size: int = 1
    language: str | None = None  # None: detect once on the first chunk, then keep it
    hotwords: str | None = None



def spans_of(chunk: list[Region]) -> list[Region]:
    """The stretches of a chunk Whisper hears joined: regions closer than JOIN_S are one span with their real pause."""
    spans: list[Region] = []
    for r in chunk:
        if spans and r.start_s - spans[-1].end_s < JOIN_S:
            spans[-1] = Region(spans[-1].start_s, r.end_s)
        else:
            spans.append(r)
    return spans


def _span_samples(r: Region) -> int:
    return int(r.end_s * SAMPLE_RATE) - int(r.start_s * SAMPLE_RATE)  # join()'s slice of the recording


def joined_s(chunk: list[Region]) -> float:
    """Seconds of the audio ``join`` builds for ``chunk`` (its spans and the synthetic gaps between them), from the
    regions alone. Recordings are sliced at whole samples, so this is exact (a slice cut short at the recording's
    end only makes it shorter)."""
    spans = spans_of(chunk)
    gap = int(GAP_S * SAMPLE_RATE)
    n = sum(_span_samples(r) for r in spans) + gap * (max(0, len(spans) - 1) + (1 if TAIL_GAP and spans else 0))
    return n / SAMPLE_RATE


def plan_chunks(regions: list[Region], max_joined_s: float = CHUNK_S) -> list[list[Region]]:
    """Group consecutive regions so each chunk's joined audio (``joined_s``: speech plus the synthetic gaps) is at
    most ``max_joined_s``: with Whisper's 30 s, one decoding window per chunk (a region longer than that is a chunk
    of its own). Greedy from the first region, so a chunk depends only on its own regions and the ones before it
    (the recording worker plans on a growing prefix and must find the same chunks)."""
    chunks: list[list[Region]] = []
    current: list[Region] = []
    for r in regions:
        if current and joined_s(current + [r]) > max_joined_s:
            chunks.append(current)
            current = []
        current.append(r)
    if current:
        chunks.append(current)
    return chunks


def join(audio: np.ndarray, chunk: list[Region]) -> tuple[np.ndarray, list[tuple[float, float, float]], list[Region]]:
    """A chunk's audio as Whisper hears it: its spans joined with GAP_S of silence; (start, end in the joined audio,
    start in the recording) of each span; the spans."""
    gap = np.zeros(int(GAP_S * SAMPLE_RATE), dtype=np.float32)
    pieces, offsets = [], []
    pos = 0.0
    # Every synthetic gap costs decoding time, so near-contiguous regions are joined
    # with their own (short) pause; only real pauses get a synthetic gap.
    spans = spans_of(chunk)
    for i, r in enumerate(spans):
        seg = np.asarray(audio[int(r.start_s * SAMPLE_RATE) : int(r.end_s * SAMPLE_RATE)], dtype=np.float32)
        offsets.append((pos, pos + len(seg) / SAMPLE_RATE, r.start_s))
        # No gap after the last span when TAIL_GAP is off: Whisper would spend one more (padded 30 s) window on it.
        pieces += [seg, gap] if TAIL_GAP or i < len(spans) - 1 else [seg]
        pos += len(seg) / SAMPLE_RATE + GAP_S
    return (np.concatenate(pieces) if pieces else np.zeros(0, np.float32)), offsets, spans


class Transcriber:
    def __init__(self, model_dir: Path, options: AsrOptions | None = None, cpu_threads: int = 2) -> None:
        self.model = CapturingWhisper(str(model_dir), device="cpu", compute_type="int8", cpu_threads=cpu_threads)
        self.options = options or AsrOptions()
        self.states: EncoderStates | None = None  # the last chunk's main-pass encoder states (asr_states)
        # One chunk at a time: live transcription and the index-ahead worker share this model while recording.
        self.lock = threading.Lock()

    def transcribe_chunk(
        self, audio: np.ndarray, chunk: list[Region], language: str | None = None
    ) -> tuple[list[Word], str]:
        """Words (in recording time) and the language used for one chunk of regions; ``self.states``: the encoder
        states of the chunk's main pass in recording time (the emotion head reads them: no second encoder run)."""
        words, lang, _ = self.transcribe_chunk_states(audio, chunk, language)
        return words, lang

    def transcribe_chunk_states(
        self, audio: np.ndarray, chunk: list[Region], language: str | None = None
    ) -> tuple[list[Word], str, EncoderStates | None]:
        """``transcribe_chunk`` and that chunk's encoder states, atomically (another thread may use the model)."""
        with self.lock:
            words, lang = self._chunk(audio, chunk, language)
            return words, lang, self.states

    def _chunk(self, audio: np.ndarray, chunk: list[Region], language: str | None) -> tuple[list[Word], str]:
        joined, offsets, spans = join(audio, chunk)
        self.model.windows = []
        self.model.tail_frames = round(TAIL_SKIP_S * 100)
        try:
            words, lang = self._words(joined, offsets, language or self.options.language)
            self.states = recording_states(self.model.windows, offsets)
        finally:
            self.model.windows = None
            self.model.tail_frames = 0
        for a, b in uncovered(spans, words, REPAIR_MIN_S):
            pa = max(0.0, a - REPAIR_PAD_S)
            clip = np.asarray(audio[int(pa * SAMPLE_RATE) : int((b + REPAIR_PAD_S) * SAMPLE_RATE)], dtype=np.float32)
            extra, _ = self._words(clip, [(0.0, len(clip) / SAMPLE_RATE, pa)], lang, strict=b - a < REPAIR_LENIENT_S,
                                   repair=True, thorough=b - a >= REPAIR_LENIENT_S)
            # The padding re-hears the neighbouring words; only words centred in the hole are new.
            words += [w for w in extra if a <= (w.start_s + w.end_s) / 2 <= b]
        words.sort(key=lambda w: w.start_s)
        return words, lang

    def _words(
        self, audio: np.ndarray, offsets: list[tuple[float, float, float]], language: str | None, strict: bool = False,
        repair: bool = False, thorough: bool = False,
    ) -> tuple[list[Word], str]:
        # ``thorough`` (a long hole the main pass skipped): the words Whisper did not dare give. No window
        # is skipped as "no speech", a beam of 5, and no hotwords (on a telephone line the greedy pass with
        # the clinical prompt gave "Medications, pain, pain, pain..." or nothing; beam 5 without it gave
        # the sentences at avg_logprob -0.5). Long holes are rare, so the beam costs little.
        # Whisper's temperature fallback samples; CTranslate2 seeds its generator at random unless told, so the
        # same audio gave different words run to run (and Ray workers differed from local indexing). Seeded per
        # call, the fallback is repeatable.
        import ctranslate2  # (faster-whisper's own dependency, imported when the model is)

        ctranslate2.set_random_seed(ASR_SEED)
        segments, info = self.model.transcribe(
            audio,
            language=language,
            **({"temperature": REPAIR_TEMPERATURE} if repair else {}),
            **({"no_speech_threshold": None} if thorough else {}),
            beam_size=THOROUGH_BEAM if thorough else self.options.beam_size,
            word_timestamps=True,
            vad_filter=False,
            condition_on_previous_text=False,
            hotwords=None if thorough else self.options.hotwords,
        )
        words = []
        for s in _until_tail(segments):
            # A repair clip is short and may hold only a breath or a cough: keep confident speech only,
            # so the pass cannot add Whisper's stock hallucinations ("Thank you.").
            if strict and (s.no_speech_prob > 0.6 or s.avg_logprob < -1.0):
                continue
            if repair and ((s.no_speech_prob > 0.6 and s.avg_logprob < -1.0) or s.compression_ratio > 2.4):
                continue  # Whisper's own rules (no_speech with log_prob thresholds; a repetition loop)
            for w in s.words or []:
                start, end = _to_recording_time(w.start, offsets), _to_recording_time(w.end, offsets, is_end=True)
                words.append(Word(round(start, 3), round(max(end, start), 3), w.word, round(float(w.probability), 3)))
        return words, info.language


def _until_tail(segments):
    """faster-whisper's segments, ending quietly where CapturingWhisper skipped a chunk's short last window."""
    try:
        yield from segments
    except TailSkipped:
        return


def uncovered(spans: list[Region], words: list[Word], min_s: float) -> list[tuple[float, float]]:
    """Stretches of at least ``min_s`` inside ``spans`` that no word covers (recording time)."""
    holes = []
    for r in spans:
        inside = sorted((w.start_s, w.end_s) for w in words if w.end_s > r.start_s and w.start_s < r.end_s)
        pos = r.start_s
        for a, b in inside + [(r.end_s, r.end_s)]:
            if a - pos >= min_s:
                holes.append((pos, a))
            pos = max(pos, b)
    return holes


def _to_recording_time(t: float, offsets: list[tuple[float, float, float]], is_end: bool = False) -> float:
    """Map a time in the concatenated chunk back to the recording's timeline."""
    for i, (a, b, orig) in enumerate(offsets):
        if t <= b + (GAP_S / 2 if is_end else 0) or i == len(offsets) - 1:
            if t < a:  # inside the gap before this region: snap to its start
                return orig
            return orig + min(t, b) - a
    return offsets[-1][2]
