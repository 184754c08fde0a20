"""Transcript exports parsed back with strict SRT / WebVTT readers; the whole index as JSON;
a 3-hour transcript (synthetic segment rows) in every format, including a paginated PDF."""

from __future__ import annotations

import html
import json
import re
import time

import pytest

from harp_desktop.api import Library
from harp_desktop.export.transcript import clock, cues
from tests.export.conftest import flat, pdf_pages, synthetic_recording

SRT_TIME = re.compile(r"^(\d{2}):(\d{2}):(\d{2}),(\d{3}) --> (\d{2}):(\d{2}):(\d{2}),(\d{3})$")
VTT_TIME = re.compile(r"^(\d{2}):(\d{2}):(\d{2})\.(\d{3}) --> (\d{2}):(\d{2}):(\d{2})\.(\d{3})$")
VOICE = re.compile(r"^<v ([^>]+)>(.*)</v>$", re.S)


def _secs(g: tuple[str, ...]) -> tuple[float, float]:
    h1, m1, s1, ms1, h2, m2, s2, ms2 = map(int, g)
    return h1 * 3600 + m1 * 60 + s1 + ms1 / 1000, h2 * 3600 + m2 * 60 + s2 + ms2 / 1000


def parse_srt(text: str) -> list[tuple[float, float, str]]:
    """Strict SubRip: numbered from 1, one timing line, non-empty text, blank line between cues."""
    assert "\r" not in text and not text.startswith("\n")
    out = []
    for n, block in enumerate(text.strip("\n").split("\n\n"), 1):
        lines = block.split("\n")
        assert lines[0] == str(n), block
        m = SRT_TIME.match(lines[1])
        assert m, lines[1]
        a, b = _secs(m.groups())
        assert b > a and len(lines) >= 3 and all(ln.strip() for ln in lines[2:]), block
        out.append((a, b, " ".join(lines[2:])))
    return out


def parse_vtt(text: str) -> list[tuple[float, float, str, str]]:
    """Strict WebVTT: header, optional NOTE block, cues with an id, a timing line and one voice span."""
    blocks = text.strip("\n").split("\n\n")
    assert blocks[0] == "WEBVTT"
    out = []
    for block in blocks[1:]:
        lines = block.split("\n")
        if lines[0].startswith("NOTE"):
            assert "-->" not in block
            continue
        m = VTT_TIME.match(lines[1])
        assert lines[0].isdigit() and m, block
        a, b = _secs(m.groups())
        v = VOICE.match("\n".join(lines[2:]))
        assert b > a and v, block
        assert "<" not in v.group(2) and ">" not in v.group(2)  # markup characters are escaped
        out.append((a, b, html.unescape(v.group(1)), html.unescape(" ".join(v.group(2).split("\n")))))
    return out


def _monotonic(cues_: list[tuple]) -> None:
    for x, y in zip(cues_, cues_[1:], strict=False):
        assert x[0] <= y[0] and x[1] <= y[0] + 1e-3, (x, y)  # ordered, never overlapping


def test_srt_vtt_txt_json_of_an_indexed_recording(answered, tmp_path):
    lib, rec, _ = answered
    lib.rename_speaker(rec["sha256"], "SPEAKER_1", "Dr <Ангелина> & Ko")  # markup characters + Cyrillic
    segs = lib.db.segments(rec["id"])
    spoken = flat(" ".join(s["text"] for s in segs))
    names = {s["speaker"] for s in segs}

    lib.export(rec["sha256"], tmp_path / "t.srt")
    srt = parse_srt((tmp_path / "t.srt").read_text(encoding="utf-8"))
    _monotonic(srt)
    assert flat(" ".join(t.split(": ", 1)[1] for _, _, t in srt)) == spoken  # every word, in order
    assert {t.split(": ", 1)[0] for _, _, t in srt} == names
    assert max(b - a for a, b, _ in srt) <= 6.5  # cues are cut from word times, not whole 15 s turns
    blocks = (tmp_path / "t.srt").read_text(encoding="utf-8").strip().split("\n\n")
    assert all(len(b.split("\n")) <= 4 for b in blocks)  # number, timing, at most two lines of text

    lib.export(rec["sha256"], tmp_path / "t.vtt")
    vtt = parse_vtt((tmp_path / "t.vtt").read_text(encoding="utf-8"))
    _monotonic(vtt)
    assert flat(" ".join(t for *_, t in vtt)) == spoken
    assert {v for _, _, v, _ in vtt} == names and "Dr <Ангелина> & Ko" in names

    lib.export(rec["sha256"], tmp_path / "t.txt")
    txt = (tmp_path / "t.txt").read_text(encoding="utf-8")
    assert rec["sha256"] in txt and all(f"{s['speaker']}: {flat(s['text'])}" in txt for s in segs if s["text"])

    row = lib.export(rec["sha256"], tmp_path / "index.json")
    data = json.loads((tmp_path / "index.json").read_text(encoding="utf-8"))
    assert row["kind"] == "index-json" and data["recording"]["sha256"] == rec["sha256"]
    assert len(data["segments"]) == len(segs) and sum(len(s["words"]) for s in data["segments"]) > 20
    assert {t["kind"] for t in data["tags"]} >= {"event"} and len(data["answers"]) == len(lib.db.answers(rec["id"])) >= 2
    assert data["speech_regions"] and "asr" in data["stages"]


def test_cues_fall_back_to_whole_segments_when_words_disagree(answered):
    lib, rec, _ = answered
    seg = next(s for s in lib.db.segments(rec["id"]) if s["text"])
    with lib.db.transaction() as db:  # a hand-corrected transcript no longer matches the ASR words
        db["segments"].update(seg["id"], {"text": "Corrected by hand."})
    try:
        got = [c for c in cues(lib.db, rec["id"]) if c.text == "Corrected by hand."]
        assert len(got) == 1 and (got[0].start_s, got[0].end_s) == (seg["start_s"], seg["end_s"])
    finally:
        with lib.db.transaction() as db:
            db["segments"].update(seg["id"], {"text": seg["text"]})


def test_clock_formats():
    assert clock(3 * 3600 + 62.5) == "03:01:02.500"
    assert clock(59.9996, ",") == "00:01:00,000"
    assert clock(-1) == "00:00:00.000"


@pytest.mark.slow
def test_three_hour_transcript_every_format(library_dir, tmp_path):
    lib = Library(library_dir)
    rec = synthetic_recording(lib, 3.0, ["Dr Ψαράς", "Анна Ковальчук", None])
    n = len(lib.db.segments(rec["id"]))
    assert n == 2700
    seconds = {}
    for fmt in ("txt", "srt", "vtt", "json", "pdf"):
        t0 = time.perf_counter()
        row = lib.export(rec["sha256"], tmp_path / f"long.{fmt}")
        seconds[fmt] = time.perf_counter() - t0
        assert row["detail"]["segments"] == n
    print("3-hour export seconds:", {k: round(v, 2) for k, v in seconds.items()})
    assert seconds["pdf"] < 30 and max(v for k, v in seconds.items() if k != "pdf") < 5
    srt = parse_srt((tmp_path / "long.srt").read_text(encoding="utf-8"))
    assert len(srt) == n and srt[-1][0] == pytest.approx((n - 1) * 4.0) and srt[-1][2].startswith("SPEAKER_3: ") and srt[1][2].startswith("Анна Ковальчук: ")
    assert len(parse_vtt((tmp_path / "long.vtt").read_text(encoding="utf-8"))) == n
    pages = pdf_pages(tmp_path / "long.pdf")
    total = len(pages)
    assert total == row["detail"]["pages"] and total >= 30
    for i, page in enumerate(pages, 1):
        assert f"Page {i} of {total}" in page and "Decision support only" in page
    assert "Dr Ψαράς" in pages[1] and "2:59:56.0" in pages[-1] and f"Turn number {n - 1} of" in pages[-1]
    assert "2700 segments" in pages[0] or "2700 segments" in pages[1]
    lib.close()
