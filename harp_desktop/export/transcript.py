"""Transcript exports: plain text, SRT and WebVTT subtitles with speaker names, and the whole
index of a recording as JSON.

Subtitle cues are cut from the word timestamps (at most ~6 s and two 42-character lines
each), so a 15 s turn does not flood the screen; a segment without words (or whose words
no longer match its text) becomes one cue.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from datetime import UTC, datetime

from harp_desktop import __version__

SUBTITLE_FORMATS = ("txt", "srt", "vtt", "json")
CUE_MAX_S, CUE_MAX_CHARS, LINE_CHARS = 6.0, 84, 42


@dataclass
class Line:
    start_s: float
    end_s: float
    speaker: str
    text: str


def clock(t: float, sep: str = ".") -> str:
    """HH:MM:SS.mmm (SRT uses a comma before the milliseconds)."""
    ms = max(0, round(t * 1000))
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def short_clock(t: float, long: bool) -> str:
    """mm:ss.s, or h:mm:ss.s for recordings of an hour or more."""
    t = max(0.0, t)
    h, rem = divmod(t, 3600)
    m, s = divmod(rem, 60)
    return f"{int(h)}:{int(m):02d}:{s:04.1f}" if long else f"{int(m + 60 * h):02d}:{s:04.1f}"


def speech_lines(db, recording_id: int) -> list[Line]:
    return [Line(s["start_s"], s["end_s"], s["speaker"] or "?", " ".join((s["text"] or "").split()))
            for s in db.segments(recording_id) if (s["text"] or "").strip()]


def cues(db, recording_id: int) -> list[Line]:
    """Subtitle cues: segments split at word boundaries into short, readable pieces."""
    words: dict[int, list[dict]] = {}
    for w in db.db.query("SELECT segment_id, start_s, end_s, text FROM words WHERE recording_id = ? "
                         "ORDER BY segment_id, start_s", [recording_id]):
        words.setdefault(w["segment_id"], []).append(w)
    out: list[Line] = []
    for s in db.segments(recording_id):
        text = " ".join((s["text"] or "").split())
        if not text:
            continue
        ws = words.get(s["id"], [])
        speaker = s["speaker"] or "?"
        if not ws or " ".join("".join(w["text"] for w in ws).split()) != text:
            out.append(Line(s["start_s"], s["end_s"], speaker, text))
            continue
        cur: list[dict] = []
        limit = max(40, CUE_MAX_CHARS - len(speaker) - 2)  # SRT prints "Name: " in the cue's two lines
        for w in ws:
            joined = "".join(x["text"] for x in [*cur, w]).strip()
            if cur and (len(joined) > limit or w["end_s"] - cur[0]["start_s"] > CUE_MAX_S):
                out.append(Line(cur[0]["start_s"], cur[-1]["end_s"], speaker, "".join(x["text"] for x in cur).strip()))
                cur = []
            cur.append(w)
        if cur:
            out.append(Line(cur[0]["start_s"], cur[-1]["end_s"], speaker, "".join(x["text"] for x in cur).strip()))
    # Players show overlapping cues stacked; keep each cue ending before the next starts.
    for a, b in zip(out, out[1:], strict=False):
        if a.end_s > b.start_s:
            a.end_s = max(a.start_s + 0.05, b.start_s)
    return out


def _wrap(text: str) -> list[str]:
    """One line, or two balanced lines (split at the space nearest the middle); longer text
    (a segment without word times) wraps at LINE_CHARS."""
    if len(text) <= LINE_CHARS:
        return [text]
    spaces = [i for i, c in enumerate(text) if c == " "]
    if len(text) <= CUE_MAX_CHARS + 8 and spaces:
        cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
        return [text[:cut], text[cut + 1:]]
    return textwrap.wrap(text, LINE_CHARS, break_long_words=True) or [""]


def _safe(text: str) -> str:
    # "-->" would start a timing line and a blank line would end the cue.
    return re.sub(r"\s+", " ", text.replace("-->", "->")).strip()


def to_srt(lines: list[Line]) -> str:
    blocks = []
    for i, c in enumerate(lines, 1):
        body = "\n".join(_wrap(f"{_safe(c.speaker)}: {_safe(c.text)}"))
        blocks.append(f"{i}\n{clock(c.start_s, ',')} --> {clock(max(c.end_s, c.start_s + 0.05), ',')}\n{body}\n")
    return "\n".join(blocks)


def _vtt_escape(text: str) -> str:
    return _safe(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_vtt(lines: list[Line], title: str = "") -> str:
    out = ["WEBVTT", ""]
    if title:
        out += [f"NOTE {_safe(title)}", ""]
    for i, c in enumerate(lines, 1):
        body = "\n".join(_wrap(_vtt_escape(c.text)))
        out += [str(i), f"{clock(c.start_s)} --> {clock(max(c.end_s, c.start_s + 0.05))}",
                f"<v {_vtt_escape(c.speaker)}>{body}</v>", ""]
    return "\n".join(out)


def to_txt(rec: dict, lines: list[Line], events: list[dict], speakers: list[dict]) -> str:
    long = rec["duration_s"] >= 3600
    head = [rec["name"], f"Duration {short_clock(rec['duration_s'], long)}; SHA-256 {rec['sha256']}",
            "Speakers: " + (", ".join(s["name"] or s["label"] for s in speakers) or "none"),
            f"Exported by HARP Desktop {__version__} on {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}", ""]
    items = [(ln.start_s, f"[{short_clock(ln.start_s, long)} - {short_clock(ln.end_s, long)}] {ln.speaker}: {ln.text}")
             for ln in lines]
    items += [(e["start_s"], f"[{short_clock(e['start_s'], long)} - {short_clock(e['end_s'], long)}] "
                             f"<{e['label']}> ({e['score']:.2f})") for e in events]
    return "\n".join(head + [t for _, t in sorted(items, key=lambda x: x[0])]) + "\n"


def index_json(lib, rec: dict) -> dict:
    """Everything the index holds about a recording except the embedding vectors."""
    rid = rec["id"]
    data = lib.transcript(rec["sha256"])
    words: dict[int, list] = {}
    for w in lib.db.db.query("SELECT segment_id, start_s, end_s, text, prob FROM words WHERE recording_id = ? "
                             "ORDER BY segment_id, start_s", [rid]):
        words.setdefault(w["segment_id"], []).append(
            {"start_s": w["start_s"], "end_s": w["end_s"], "text": w["text"], "prob": w["prob"]})
    for s in data["segments"]:
        s["words"] = words.get(s["id"], [])
    regions = lib.db.db.query("SELECT start_s, end_s FROM speech_regions WHERE recording_id = ? ORDER BY idx", [rid])
    return {
        "format": "harp-desktop-index", "format_version": 1, "app_version": __version__,
        "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
        **data,
        "tags": [{k: t[k] for k in ("kind", "label", "start_s", "end_s", "score", "source")}
                 for t in lib.db.tags(rid)],
        "speech_regions": [dict(r) for r in regions],
        "answers": lib.db.answers(rid),
        "not_included": "embedding vectors (vectors/*.bin) and stored arrays",
    }


def render(lib, rec: dict, fmt: str) -> str:
    """The export's text for ``fmt`` (txt, srt, vtt or json)."""
    rid = rec["id"]
    if fmt == "txt":
        return to_txt(rec, speech_lines(lib.db, rid), lib.db.tags(rid, "event"), lib.db.speakers(rid))
    if fmt == "srt":
        return to_srt(cues(lib.db, rid))
    if fmt == "vtt":
        return to_vtt(cues(lib.db, rid), f"{rec['name']} (sha256 {rec['sha256'][:12]})")
    if fmt == "json":
        return json.dumps(index_json(lib, rec), ensure_ascii=False, indent=1)
    raise ValueError(f"unknown transcript format '{fmt}'")
