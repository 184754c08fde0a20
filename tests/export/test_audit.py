"""The export audit trail: atomic writes, checksums, file status, nothing half-written."""

from __future__ import annotations

import hashlib
import os
import stat

import pytest

from harp_desktop.api import Library
from harp_desktop.export.audit import ExportError, describe, file_status, write_export
from tests.export.conftest import synthetic_recording


@pytest.fixture
def lib(library_dir):
    lib = Library(library_dir)
    yield lib
    lib.close()


def test_rows_record_what_when_where_and_checksum(lib, tmp_path):
    rec = synthetic_recording(lib, 0.01, ["Zoë"])
    row = write_export(lib.db, rec["id"], "transcript-txt", tmp_path / "a.txt",
                       lambda p: p.write_bytes(b"hello\n"), {"segments": 9})
    data = (tmp_path / "a.txt").read_bytes()
    assert data == b"hello\n" and row["sha256"] == hashlib.sha256(data).hexdigest() and row["bytes"] == 6
    assert stat.S_IMODE(os.stat(tmp_path / "a.txt").st_mode) & 0o077 == 0  # clinical content: user-only
    stored = lib.exports(rec["sha256"])
    assert len(stored) == 1 and stored[0]["path"] == str(tmp_path / "a.txt") and stored[0]["status"] == "ok"
    assert stored[0]["recording_name"] == rec["name"] and stored[0]["detail"]["app_version"] == "0.1.0"
    assert stored[0]["created_at"].startswith("20") and describe(stored[0]) == "9 segments"

    (tmp_path / "a.txt").write_bytes(b"HELLO\n")  # same size, other content
    assert file_status(lib.db.exports()[0]) == "changed"
    (tmp_path / "a.txt").unlink()
    assert lib.exports()[0]["status"] == "missing"


def test_failure_leaves_no_file_and_no_row(lib, tmp_path):
    rec = synthetic_recording(lib, 0.01, ["A"])
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.pdf").write_bytes(b"old report")

    def broken(p):
        p.write_bytes(b"half a pdf")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_export(lib.db, rec["id"], "report-pdf", out / "keep.pdf", broken)
    assert sorted(p.name for p in out.iterdir()) == ["keep.pdf"]  # no temporary file left behind
    assert (out / "keep.pdf").read_bytes() == b"old report" and lib.exports() == []


def test_rows_outlive_the_recording_and_filter_by_recording(lib, tmp_path):
    a = synthetic_recording(lib, 0.01, ["A"], sha="aa" * 32)
    b = synthetic_recording(lib, 0.01, ["B"], sha="bb" * 32)
    lib.export(a["sha256"], tmp_path / "a.srt")
    lib.export(b["sha256"], tmp_path / "b.vtt")
    assert [r["kind"] for r in lib.exports()] == ["transcript-vtt", "transcript-srt"]  # newest first
    assert [r["kind"] for r in lib.exports("aa" * 3)] == ["transcript-srt"]
    lib.db.db.execute("DELETE FROM recordings WHERE id = ?", [a["id"]])
    row = next(r for r in lib.exports() if r["kind"] == "transcript-srt")
    assert row["recording_id"] is None and row["recording_sha256"] == "aa" * 32


def test_describe_every_kind_of_detail():
    assert describe({"detail": {"questions": ["Is anyone coughing?"]}}) == "1 question: Is anyone coughing?"
    assert describe({"detail": {"questions": 12}}) == "12 questions"  # question-set exports count them
    assert describe({"detail": '{"spans": 3, "tiers": "annotator"}'}) == "3 spans"
    assert describe({"detail": {}}) == ""


def test_never_overwrites_a_recording_or_the_library(lib, tmp_path):
    rec = synthetic_recording(lib, 0.01, ["A"])
    lib.db.db["recordings"].update(rec["id"], {"path": str(tmp_path / "visit.flac")})
    (tmp_path / "visit.flac").write_bytes(b"precious audio")
    (tmp_path / "other.wav").write_bytes(b"more audio")
    for target, message in ((tmp_path / "visit.flac", "is an audio file"), (tmp_path / "other.wav", "is an audio file"),
                            (lib.folder / "library.sqlite", "inside the library folder")):
        with pytest.raises(ExportError, match=message):
            lib.export(rec["sha256"], target, "txt")
    assert (tmp_path / "visit.flac").read_bytes() == b"precious audio" and lib.exports() == []


def test_all_answers_of_a_recording_without_any(lib, tmp_path):
    rec = synthetic_recording(lib, 0.01, ["A"])
    with pytest.raises(LookupError, match="no stored answers yet"):
        lib.report(rec["sha256"], tmp_path / "r.pdf", all_answers=True)
    with pytest.raises(LookupError, match="give --question"):
        lib.report(rec["sha256"], tmp_path / "r.pdf")
    assert lib.exports() == [] and not (tmp_path / "r.pdf").exists()
