"""Bounded property-based fuzzing (hypothesis, fixed seed and budget, so CI stays fast) of
the time-expression parser, the plan validator, the question-set importer and the audio
loader. Each must return a well-formed result or its own one-line error, nothing else."""

from __future__ import annotations

import io
import math
import tempfile
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harp_desktop.agent.plan import (
    EMOTION_LABELS,
    EVENT_LABELS,
    INTENTS,
    EvidenceSet,
    Plan,
    PlanError,
    ToolCall,
    validate,
)
from harp_desktop.audio.decode import AudioError, decode_to_cache
from harp_desktop.evaluate.queries import QueriesFormatError, parse_lines, to_line
from harp_desktop.retrieval.localize import format_clock, localize, parse_clock
from harp_desktop.retrieval.tools import TOOLS

# derandomize: the same examples on every run (CI-stable); database=None: no .hypothesis folder.
FAST = settings(max_examples=300, deadline=timedelta(milliseconds=500), derandomize=True, database=None)
MEDIUM = settings(FAST, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=60, deadline=timedelta(seconds=5), derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# -- time expressions --------------------------------------------------------------------------
TIME_WORDS = ["at", "around", "about", "between", "and", "to", "minute", "minutes", "second", "seconds", "hour",
              "first", "last", "the", "end", "start", "beginning", "after", "before", "until", "in", "into",
              "half", "an", "a", "mark", "ten", "twenty-five", "third", "recording", "-", ":", "–", "?", ".",
              "04:07", "1:02:03", "99:99", "0:00", "3.5", "10", "999999", "5th", "pm", "a.m."]
phrases = st.lists(st.one_of(st.sampled_from(TIME_WORDS), st.text(max_size=8)), max_size=25).map(" ".join)
durations = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True),
                      st.floats(min_value=0, max_value=40 * 3600))


@pytest.mark.slow
@FAST
@given(phrases, durations)
def test_localize_returns_a_window_inside_the_recording_or_none(question, duration):
    w = localize(question, duration)
    if w is None:
        return
    assert math.isfinite(w.start_s) and w.start_s >= 0 and w.start_s < w.end_s and w.text
    if duration is not None and math.isfinite(duration) and duration >= 0:
        assert w.end_s <= duration and (w.anchor_s is None or w.anchor_s <= duration)


@FAST
@given(st.text(max_size=40))
def test_parse_clock_is_total(text):
    t = parse_clock(text)
    assert t is None or (math.isfinite(t) and t >= 0)


@FAST
@given(st.floats(min_value=0, max_value=360_000, allow_nan=False))
def test_clock_round_trip(seconds):
    back = parse_clock(format_clock(seconds))
    assert back is not None and abs(back - seconds) <= 1.0


# -- plan validator -----------------------------------------------------------------------------
json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12)),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                        max_size=4), max_leaves=10)
tool_names = st.one_of(st.sampled_from(sorted(TOOLS)), st.text(max_size=10))
arg_keys = st.sampled_from(["terms", "query", "label", "kind", "name", "cue", "k"])
arg_values = st.one_of(json_values, st.lists(st.text(max_size=8), max_size=3), st.sampled_from([*EVENT_LABELS, "x"]))
calls = st.builds(ToolCall, tool_names, st.dictionaries(arg_keys, arg_values, max_size=4))
numbers = st.one_of(st.floats(), st.integers(min_value=-10**12, max_value=10**12))
# Mostly plausible windows (so the tool checks are reached), sometimes hostile values of any type.
starts = st.one_of(st.floats(0, 600), st.floats(0, 600), numbers, json_values)
sets = st.builds(lambda a, width, calls, every: EvidenceSet(a, a + width if isinstance(a, int | float) else width,
                                                           calls, every),
                 starts, st.one_of(st.floats(0.1, 600), numbers), st.lists(calls, min_size=1, max_size=4),
                 st.booleans())
labels = st.one_of(st.none(), st.sampled_from([*EVENT_LABELS, *EMOTION_LABELS]), st.text(max_size=8))
plans = st.builds(Plan, st.one_of(st.sampled_from(INTENTS), st.text(max_size=8)), st.lists(sets, max_size=3),
                  labels, labels)


@pytest.mark.slow
@MEDIUM
@given(plans, st.floats(min_value=0.1, max_value=36_000), st.booleans())
def test_plan_validator_accepts_only_well_formed_plans(plan, duration, has_cue):
    try:
        ok = validate(plan, duration, has_cue)
    except PlanError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert ok.intent in INTENTS and ok.sets
    for es in ok.sets:
        assert 0 <= es.start_s < es.end_s <= duration and es.calls
        for c in es.calls:
            assert c.tool in TOOLS
            if c.tool == "keyword":
                assert isinstance(c.args["terms"], list) and any(str(t).strip() for t in c.args["terms"])


# -- question-set importer ----------------------------------------------------------------------
spans = st.lists(st.one_of(st.lists(numbers, min_size=2, max_size=2), json_values), max_size=3)
question_rows = st.fixed_dictionaries(
    {},
    optional={"query_id": st.one_of(st.text(max_size=6), json_values), "recording": st.text(max_size=10),
              "query": st.one_of(st.text(max_size=30), json_values), "answer": st.one_of(st.text(), st.none()),
              "answer_kind": st.one_of(st.sampled_from(["yesno", "time", "count", "label", "text"]), json_values),
              "evidence": st.one_of(spans, json_values), "notes": json_values,
              "extra_field": json_values})
jsonl = st.lists(st.one_of(question_rows.map(lambda d: __import__("json").dumps(d)), st.text(max_size=40)),
                 max_size=6).map("\n".join)


@pytest.mark.slow
@MEDIUM
@given(jsonl)
def test_question_set_importer_is_all_or_nothing_and_round_trips(text):
    try:
        parsed = parse_lines(text, "fuzz.jsonl")
    except QueriesFormatError as exc:
        assert str(exc).startswith("fuzz.jsonl line ") and "\n" not in str(exc)
        return
    again = parse_lines("".join(to_line(q) + "\n" for q in parsed), "again.jsonl")
    assert again == parsed
    for q in parsed:
        assert all(0 <= a <= b and math.isfinite(b) for a, b in q["evidence"])


# -- audio loader ---------------------------------------------------------------------------------
def _seed(fmt: str, subtype: str | None, sr: int, channels: int) -> bytes:
    t = np.arange(int(0.25 * sr)) / sr
    x = (0.5 * np.sin(2 * np.pi * 330 * t)).astype(np.float32)
    buf = io.BytesIO()
    sf.write(buf, np.stack([x] * channels, 1) if channels > 1 else x, sr, format=fmt, subtype=subtype)
    return buf.getvalue()


SEEDS = {"wav": _seed("WAV", "PCM_16", 16000, 1), "wav-float": _seed("WAV", "FLOAT", 44100, 2),
         "flac": _seed("FLAC", None, 22050, 1), "ogg": _seed("OGG", None, 48000, 2), "mp3": _seed("MP3", None, 44100, 1)}
mutations = st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), max_size=12)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(sorted(SEEDS)), mutations, st.floats(0.0, 1.0), st.sampled_from([".wav", ".flac", ".mp3", ".x"]))
def test_audio_loader_decodes_damaged_files_or_refuses_them_in_one_line(seed, flips, keep, suffix):
    data = bytearray(SEEDS[seed])
    for pos, byte in flips:
        data[int(pos * len(data))] = byte
    data = bytes(data[: max(0, int(len(data) * keep))]) if keep < 0.98 else bytes(data)
    with tempfile.TemporaryDirectory() as d:
        src, cache = Path(d) / f"in{suffix}", Path(d) / "out.f32"
        src.write_bytes(data)
        try:
            n = decode_to_cache(src, cache)
        except AudioError as exc:
            assert str(exc) and "\n" not in str(exc)
            assert not cache.exists() and [p.name for p in Path(d).iterdir()] == [src.name]  # nothing half-written
            return
        audio = np.fromfile(cache, np.float32)
        assert len(audio) == n and np.isfinite(audio).all() and np.abs(audio).max(initial=0) <= 1.0
        assert n <= 16000 * 2  # a 0.25 s seed cannot grow into minutes of audio


@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_undamaged_seeds_decode(seed, tmp_path):
    src = tmp_path / f"seed.{seed.split('-')[0]}"
    src.write_bytes(SEEDS[seed])
    assert 3000 < decode_to_cache(src, tmp_path / "out.f32") < 6000
