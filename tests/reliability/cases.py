"""The bad-input matrix: every malformed or hostile input and what the user must see.

Each case builds its input under a temporary folder and returns the `harp` command line
to run. ``ok`` cases must succeed (a correct result, perhaps with a note); the others
must fail with exactly one ``harp: error:`` line containing ``needle`` and leave the
library as it was. docs/bad_inputs.md lists the same ids with the message users see.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf

from tests.conftest import DATA

SPEECH = DATA / "speaker_a_1.flac"  # 3.4 s: "The patient was seen in the clinic this morning."


@dataclass
class Env:
    tmp: Path
    lib: Path  # a fresh library folder for indexing cases
    asked: Path  # a library with long_clip indexed, for asking cases
    asked_sha: str
    monkeypatch: object
    ten_hours: Path
    clip: Path  # the recording in ``asked``


@dataclass
class Case:
    id: str
    area: str
    what: str
    build: Callable[[Env], list]
    ok: bool = False
    needle: str = ""
    slow: bool = False
    check: Callable[[Env, str, str], None] | None = None  # extra checks on (env, stdout, stderr)
    keeps: str = ""  # stages that finished before the failure and may stay (comma-separated)


def speech() -> tuple[np.ndarray, int]:
    x, sr = sf.read(SPEECH, dtype="float32")
    return x, sr


def index(env: Env, path: Path, *extra) -> list:
    return ["index", path, "--library", env.lib, "--asr", "tiny.en", *extra]


def ask(env: Env, question: str, *extra) -> list:
    return ["ask", env.asked_sha, question, "--library", env.asked, "--no-llm", *extra]


def _write(env: Env, name: str, data: np.ndarray, sr: int, **kw) -> Path:
    p = env.tmp / name
    sf.write(p, data, sr, **kw)
    return p


def _resampled(sr: int) -> np.ndarray:
    import soxr

    x, _ = speech()
    return soxr.resample(x, 16000, sr).astype(np.float32)


def _truncated_wav(env: Env) -> Path:
    p = _write(env, "cut.wav", speech()[0], 16000)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) * 2 // 3])
    return p


def _truncated_flac(env: Env) -> Path:
    p = env.tmp / "cut.flac"
    data = SPEECH.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    return p


def _nan_inf(env: Env) -> Path:
    x = speech()[0].copy()
    x[1000:1100] = np.nan
    x[5000:5010] = np.inf
    x[9000:9010] = -np.inf
    return _write(env, "nan.wav", x, 16000, subtype="FLOAT")


def _six_channels(env: Env) -> Path:
    y = _resampled(48000)
    data = np.stack([y * g for g in (1.0, 0.8, 0.6, 0.2, 0.9, 0.7)], axis=1)
    return _write(env, "surround_5_1.wav", data, 48000, subtype="PCM_24")


def _symlink_loop(env: Env) -> Path:
    a, b = env.tmp / "loop_a.wav", env.tmp / "loop_b.wav"
    a.symlink_to(b)
    b.symlink_to(a)
    return a


def _dangling(env: Env) -> Path:
    p = env.tmp / "moved.wav"
    p.symlink_to(env.tmp / "gone" / "recording.wav")
    return p


def _fifo(env: Env) -> Path:
    p = env.tmp / "pipe.wav"
    os.mkfifo(p)
    return p


def _long_path(env: Env) -> Path:
    folder = env.tmp
    for i in range(14):  # ~2,800 characters: long, but within PATH_MAX
        folder = folder / (f"{i:02d}_" + "Aufnahme_Sprechstunde_Kardiologie_" * 5)[:200]
    folder.mkdir(parents=True)
    p = folder / "recording.flac"
    p.write_bytes(SPEECH.read_bytes())
    return p


def _name_too_long(env: Env) -> list:
    return index(env, env.tmp / ("x" * 300 + ".wav"))


def _library_file(env: Env) -> list:
    """The library's own database offered as a recording: refused before it is opened (closing a
    descriptor of it would drop the SQLite locks of this process's connection)."""
    from harp_desktop.api import Library

    if not (env.lib / "library.sqlite").exists():
        Library(env.lib).close()
    return index(env, env.lib / "library.sqlite")


def _library_is_a_file(env: Env) -> list:
    f = env.tmp / "library.txt"
    f.write_text("not a folder")
    return ["index", SPEECH, "--library", f, "--asr", "tiny.en"]


def _corrupt_library(env: Env) -> list:
    env.lib.mkdir(parents=True)
    (env.lib / "library.sqlite").write_bytes(os.urandom(8192))
    return index(env, SPEECH)


def _newer_library(env: Env) -> list:
    env.lib.mkdir(parents=True)
    with sqlite3.connect(env.lib / "library.sqlite") as con:
        con.execute("PRAGMA user_version = 99")
    return index(env, SPEECH)


def _disk_full_while_decoding(env: Env) -> list:
    import errno

    import harp_desktop.audio.decode as decode

    real_fdopen = os.fdopen

    class FullFile:
        def __init__(self, fh):
            self.fh, self.n = fh, 0

        def write(self, b):
            self.n += 1
            if self.n > 2:  # a few blocks land, then the disk is full
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return self.fh.write(b)

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.fh.close()

    env.monkeypatch.setattr(decode.os, "fdopen", lambda fd, *a, **k: FullFile(real_fdopen(fd, *a, **k)))
    env.monkeypatch.setattr(decode, "_BLOCK_FRAMES", 4096)
    return index(env, SPEECH)


def _low_disk(env: Env) -> list:
    from collections import namedtuple

    import harp_desktop.audio.decode as decode

    usage = namedtuple("usage", "total used free")
    env.monkeypatch.setattr(decode.shutil, "disk_usage", lambda p: usage(1 << 40, (1 << 40) - (200 << 20), 200 << 20))
    return index(env, env.ten_hours)


def _checksum_mismatch(env: Env) -> list:
    from harp_desktop import weights

    entry = weights.manifest()["vad"]["files"][0]
    real = weights._source(entry)
    tampered = env.tmp / "tampered" / real.name
    tampered.parent.mkdir()
    data = bytearray(real.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, one byte flipped
    tampered.write_bytes(bytes(data))
    real_source = weights._source
    env.monkeypatch.setattr(weights, "_source", lambda f: tampered if f is entry else real_source(f))
    env.monkeypatch.setattr(weights, "_verified", set())
    return index(env, SPEECH)


def _corrupt_gguf(env: Env) -> list:
    import harp_desktop.agent.llm as llm
    from harp_desktop import weights

    bad = env.tmp / "model.gguf"
    bad.write_bytes(b"GGUF" + os.urandom(4096))
    env.monkeypatch.setattr(llm, "_loaded", {})
    env.monkeypatch.setattr(weights, "model_file", lambda key, name: bad)
    return ["ask", env.asked_sha, "Where was the patient seen?", "--library", env.asked, "--llm", "smollm2"]


class GarbageLLM:
    """Valid JSON of the wrong shape, then invalid JSON: a model that never follows the schema."""

    name = "garbage"

    def chat_json(self, *a, **k):
        from harp_desktop.agent.llm import LLMError

        raise LLMError("invalid JSON from the model: Expecting value: '{\"intent\": yes'")


def _invalid_llm_json(env: Env) -> list:
    import harp_desktop.agent.llm as llm

    env.monkeypatch.setattr(llm, "load_llm", lambda choice="qwen1.5b": GarbageLLM())
    # The rules are unsure how to read this question, so the model is asked to read it (and fails).
    return ["ask", env.asked_sha, "The headache, anything about it?", "--library", env.asked]


def _has(*needles: str):
    def check(env: Env, out: str, err: str) -> None:
        for n in needles:
            assert n.lower() in (out + err).lower(), (n, out, err)
    return check


def _nan_cache_is_finite(env: Env, out: str, err: str) -> None:
    caches = list((env.lib / "audio").glob("*.f32"))
    assert caches and all(np.isfinite(np.fromfile(c, np.float32)).all() for c in caches)


def _first_line(expected: tuple[str, ...]):
    def check(env: Env, out: str, err: str) -> None:
        assert out.splitlines()[0].split(":")[0] in expected, out
    return check


CASES: list[Case] = [
    # -- indexing: the file ---------------------------------------------------------------
    Case("empty-file", "index", "0-byte .wav", lambda e: index(e, _touch(e, "empty.wav", b"")), needle="empty"),
    Case("text-as-wav", "index", "a text file named .wav",
         lambda e: index(e, _touch(e, "notes.wav", b"meeting notes\n" * 40)), needle="not a readable audio file"),
    Case("zero-samples", "index", "a valid WAV header with 0 samples",
         lambda e: index(e, _write(e, "zero.wav", np.zeros(0, np.float32), 16000)), needle="no audio"),
    Case("random-bytes", "index", "64 KB of random bytes named .flac",
         lambda e: index(e, _touch(e, "noise.flac", os.urandom(65536))), needle="not a readable audio file"),
    Case("unsupported-aiff", "index", "an AIFF file (readable, but not a supported format)",
         lambda e: index(e, _write(e, "take.aiff", speech()[0], 16000, format="AIFF")), needle="not supported"),
    Case("mislabelled-ext", "index", "FLAC content named .mp3", lambda e: index(e, _copy(e, "really_flac.mp3")),
         ok=True, slow=True, check=_has("indexed")),
    Case("truncated-wav", "index", "a WAV cut short by a crashed recorder", lambda e: index(e, _truncated_wav(e)),
         ok=True, slow=True, check=_has("note: the file is truncated")),
    Case("truncated-flac", "index", "half of a FLAC file", lambda e: index(e, _truncated_flac(e)),
         ok=True, slow=True, check=_has("note: the file is damaged or truncated")),
    Case("nan-inf-samples", "index", "a float WAV with NaN and +/-Inf samples", lambda e: index(e, _nan_inf(e)),
         ok=True, slow=True, check=_nan_cache_is_finite),
    Case("8bit-8khz", "index", "8-bit unsigned PCM at 8 kHz",
         lambda e: index(e, _write(e, "phone.wav", _resampled(8000), 8000, subtype="PCM_U8")), ok=True, slow=True,
         check=_has("indexed")),
    Case("float64-192khz", "index", "64-bit float at 192 kHz",
         lambda e: index(e, _write(e, "hires.wav", _resampled(192000), 192000, subtype="DOUBLE")), ok=True,
         slow=True, check=_has("indexed")),
    Case("odd-rate-11025", "index", "32-bit PCM at 11,025 Hz",
         lambda e: index(e, _write(e, "odd.wav", _resampled(11025), 11025, subtype="PCM_32")), ok=True, slow=True,
         check=_has("indexed")),
    Case("6-channels", "index", "6-channel (5.1) 48 kHz 24-bit WAV", lambda e: index(e, _six_channels(e)), ok=True,
         slow=True, check=_has("indexed")),
    Case("10-hours-low-disk", "index", "a 10-hour recording with 200 MB free", _low_disk,
         needle="not enough free disk space"),
    Case("symlink-loop", "index", "a symbolic link loop", lambda e: index(e, _symlink_loop(e)), needle="loop"),
    Case("dangling-symlink", "index", "a symbolic link to a moved file", lambda e: index(e, _dangling(e)),
         needle="symbolic link to nothing"),
    Case("missing-file", "index", "a path that does not exist", lambda e: index(e, e.tmp / "nope.wav"),
         needle="no such file"),
    Case("a-folder", "index", "a folder instead of a file", lambda e: index(e, e.tmp), needle="is a folder"),
    Case("named-pipe", "index", "a named pipe (would block a reader forever)", lambda e: index(e, _fifo(e)),
         needle="not a regular file"),
    Case("non-ascii-path", "index", "a path in German, Russian, Chinese and Arabic with spaces",
         lambda e: index(e, _copy(e, "Überweisung пациент 患者 مريض.flac")), ok=True, slow=True,
         check=_has("indexed")),
    Case("very-long-path", "index", "a 2,800-character path", lambda e: index(e, _long_path(e)), ok=True, slow=True,
         check=_has("indexed")),
    Case("name-too-long", "index", "a 300-character file name", _name_too_long, needle="too long"),
    Case("library-database-as-recording", "index", "the library's own library.sqlite as the recording",
         _library_file, needle="inside the library folder"),
    # -- indexing: the library and the machine ----------------------------------------------
    Case("disk-full-decoding", "library", "the disk fills while the audio is decoded", _disk_full_while_decoding,
         needle="the disk is full"),
    Case("library-is-a-file", "library", "--library names a file", _library_is_a_file, needle="a file is in the way"),
    Case("corrupt-library", "library", "library.sqlite is random bytes", _corrupt_library,
         needle="damaged or not a HARP library"),
    Case("newer-library", "library", "a library written by a newer version (schema 99)", _newer_library,
         needle="newer HARP Desktop"),
    Case("checksum-mismatch", "models", "a model file with one byte changed (same size)", _checksum_mismatch,
         needle="fails its checksum", keeps="decode,events,sounds"),
    # -- asking -------------------------------------------------------------------------------
    Case("empty-question", "ask", "a question of spaces and control characters",
         lambda e: ask(e, "  \t\x00\x1b  "), needle="the question is empty"),
    Case("punctuation-question", "ask", "a question of punctuation only",
         lambda e: ask(e, "???!"), needle="the question has no words"),
    Case("1mb-question", "ask", "a 1 MB question", lambda e: ask(e, "Did anyone cough? " * 58_000), ok=True,
         check=_has("question truncated")),
    Case("hostile-unicode", "ask", "a question with NUL, ANSI escapes, RTL override and emoji",
         lambda e: ask(e, "Did\x00 anyone \x1b[31mcough\u202e? 🤧"), ok=True, check=_first_line(("Yes", "No"))),
    Case("unknown-recording", "ask", "a recording that is not in the library",
         lambda e: ["ask", "0123456789ab", "Did anyone cough?", "--library", e.asked, "--no-llm"],
         needle="no recording"),
    Case("span-outside", "ask", "a time outside the recording (99:00 in a 30 s file)",
         lambda e: ask(e, "What is said at 99:00?"), needle="outside the recording"),
    Case("invalid-llm-json", "ask", "a language model that returns invalid JSON", _invalid_llm_json, ok=True,
         check=_has("used the rules")),
    Case("corrupt-gguf", "ask", "a corrupt GGUF model file", _corrupt_gguf, needle="could not load the language model"),
    Case("unknown-llm", "ask", "--llm names a model that does not exist",
         lambda e: ["ask", e.asked_sha, "Did anyone cough?", "--library", e.asked, "--llm", "gpt-9"],
         needle="unknown language model"),
    # -- cue clips ----------------------------------------------------------------------------
    Case("cue-missing", "cue", "an example clip that does not exist",
         lambda e: ask(e, "Find coughs like this one", "--cue", e.tmp / "nope.wav"), needle="example clip"),
    Case("cue-not-audio", "cue", "an example clip that is a text file",
         lambda e: ask(e, "Find coughs like this one", "--cue", _touch(e, "cue.wav", b"hello\n" * 99)),
         needle="not a readable audio file"),
    Case("cue-10-hours", "cue", "a 10-hour example clip",
         lambda e: ask(e, "Find coughs like this one", "--cue", e.ten_hours), needle="must be under"),
    Case("cue-nan", "cue", "an example clip full of NaN",
         lambda e: ask(e, "Find coughs like this one", "--cue",
                       _write(e, "nan_cue.wav", np.full(16000, np.nan, np.float32), 16000, subtype="FLOAT")), ok=True,
         check=_has("evidence")),
    # -- question sets (queries.jsonl) --------------------------------------------------------
    Case("qset-malformed-jsonl", "questions", "a queries.jsonl whose second line is broken JSON",
         lambda e: _qset(e, _q(), "{broken"), needle="line 2: not valid JSON"),
    Case("qset-not-utf8", "questions", "a queries.jsonl in UTF-16 / binary", lambda e: _qset(e, b"\xff\xfe{\x00\x00"),
         needle="not UTF-8"),
    Case("qset-missing-field", "questions", "a question without 'recording' and 'query'",
         lambda e: _qset(e, {"query_id": "q1"}), needle="must be a non-empty string"),
    Case("qset-reversed-span", "questions", "an evidence span that ends before it starts",
         lambda e: _qset(e, _q(evidence=[[5.0, 2.0]])), needle="bad evidence span"),
    Case("qset-nan-span", "questions", "an evidence span of NaN / Infinity",
         lambda e: _qset(e, '{"query_id": "q1", "recording": "long_clip.flac", "query": "x", '
                            '"evidence": [[NaN, Infinity]]}'), needle="bad evidence span"),
    Case("qset-span-outside", "questions", "an evidence span outside the recording (900-950 s of 30 s)",
         lambda e: _qset(e, _q(evidence=[[900.0, 950.0]])), needle="outside"),
    Case("qset-duplicate-id", "questions", "the same query_id twice", lambda e: _qset(e, _q(), _q()),
         needle="repeats line 1"),
    Case("qset-unknown-recording", "questions", "a question about a recording not in the audio folder",
         lambda e: _qset(e, _q(recording="nowhere.flac")), needle="nowhere.flac"),
    Case("qset-1mb-line", "questions", "a 1 MB question line", lambda e: _qset(e, _q(query="cough? " * 150_000)),
         ok=True, check=_has("imported")),
    # -- exports and reports ----------------------------------------------------------------------
    Case("export-unknown-format", "export", "an output named .docx", lambda e: _export(e, e.tmp / "t.docx"),
         needle="unknown format"),
    Case("export-missing-folder", "export", "an output in a folder that does not exist",
         lambda e: _export(e, e.tmp / "nowhere" / "t.srt"), needle="does not exist"),
    Case("export-is-a-folder", "export", "a folder as the output", lambda e: _export(e, e.tmp), needle="is a folder"),
    Case("export-into-library", "export", "an output inside the library folder",
         lambda e: _export(e, e.asked / "t.srt"), needle="inside the library folder"),
    Case("export-over-recording", "export", "the recording itself as the output",
         lambda e: _export(e, e.clip, "--format", "srt"), needle="audio file"),
    Case("report-unknown-recording", "export", "a report of a recording not in the library",
         lambda e: ["report", "feedfacecafe", "--answers", "all", "-o", e.tmp / "r.pdf", "--library", e.asked],
         needle="no recording"),
]


def _qset(env: Env, *lines) -> list:
    """`harp questions import` of a queries.jsonl holding ``lines`` (dicts become JSON, str/bytes are raw)."""
    import json

    p = env.tmp / "queries.jsonl"
    raw = b"".join((x if isinstance(x, bytes) else (x if isinstance(x, str) else json.dumps(x)).encode()) + b"\n"
                   for x in lines)
    p.write_bytes(raw)
    return ["questions", "import", p, "--audio-dir", env.clip.parent, "--library", env.asked]


def _q(**kw) -> dict:
    return {"query_id": "q1", "recording": "long_clip.flac", "query": "Did anyone cough?", **kw}


def _export(env: Env, target, *extra) -> list:
    return ["export", env.asked_sha, "-o", target, "--library", env.asked, *extra]


def _touch(env: Env, name: str, data: bytes) -> Path:
    p = env.tmp / name
    p.write_bytes(data)
    return p


def _copy(env: Env, name: str) -> Path:
    p = env.tmp / name
    p.write_bytes(SPEECH.read_bytes())
    return p
