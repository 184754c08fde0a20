"""Read annotation files other tools write into tiers of timed intervals: ELAN ``.eaf``
(pympi-ling), Praat ``.TextGrid`` interval tiers (praatio) and Audacity label tracks.

This module only parses and checks a file against a recording's length; mapping the
intervals onto questions and annotators is ``evaluate/span_import.py``. Every problem
with a file is one ``SpanImportError`` line naming the file (and the tier, line or
interval), so the CLI and the preview dialog can show it as it is. Oddities that do not
stop an import (a point tier, a point label, overlapping intervals) become warnings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

FORMATS = ("eaf", "textgrid", "audacity")
END_TOLERANCE_S = 1.0  # as for queries.jsonl: a span this far past the end is clamped, further is an error
_SUFFIX = {".eaf": "eaf", ".textgrid": "textgrid", ".txt": "audacity", ".tsv": "audacity", ".labels": "audacity"}


class SpanImportError(ValueError):
    """A file that cannot be imported; the message is one line for the user."""


@dataclass(frozen=True)
class Interval:
    start_s: float
    end_s: float
    text: str


@dataclass
class Tier:
    name: str
    intervals: list[Interval]
    annotator: str | None = None  # ELAN's ANNOTATOR attribute, when the file has one


@dataclass
class ParsedFile:
    path: Path
    format: str
    tiers: list[Tier]
    warnings: list[str] = field(default_factory=list)

    @property
    def n_intervals(self) -> int:
        return sum(len(t.intervals) for t in self.tiers)

    @property
    def end_s(self) -> float:
        return max((iv.end_s for t in self.tiers for iv in t.intervals), default=0.0)


def detect_format(path: Path) -> str:
    """By suffix, else by the first bytes (an EAF is XML, a TextGrid says so on line 1)."""
    fmt = _SUFFIX.get(path.suffix.lower())
    if fmt:
        return fmt
    try:
        head = path.read_bytes()[:200].lstrip(b"\xef\xbb\xbf\xfe\xff\x00 \r\n\t")
    except OSError as exc:
        raise SpanImportError(f"{path.name}: cannot read it ({exc.strerror or exc})") from None
    if head.startswith(b"<"):
        return "eaf"
    if b"ooTextFile" in head.replace(b"\x00", b""):
        return "textgrid"
    return "audacity"


def read(path: Path | str, fmt: str | None = None) -> ParsedFile:
    """Parse ``path`` (format from ``fmt`` or the file) into tiers of intervals, in time order."""
    path = Path(path)
    if not path.is_file():
        raise SpanImportError(f"{path.name}: no such file")
    fmt = fmt or detect_format(path)
    if fmt not in FORMATS:
        raise SpanImportError(f"{path.name}: unknown format '{fmt}' (use {', '.join(FORMATS)})")
    parsed = {"eaf": _read_eaf, "textgrid": _read_textgrid, "audacity": _read_audacity}[fmt](path)
    for tier in parsed.tiers:
        tier.intervals.sort(key=lambda iv: (iv.start_s, iv.end_s))
        overlaps = sum(1 for a, b in zip(tier.intervals, tier.intervals[1:], strict=False) if b.start_s < a.end_s)
        if overlaps:  # HARP spans may overlap; say so, since ELAN and Praat would not allow it
            parsed.warnings.append(f"tier '{tier.name}': {overlaps} interval(s) overlap the one before (kept)")
    return parsed


def select_tier(parsed: ParsedFile, name: str | None) -> ParsedFile:
    """Only the tier called ``name`` (an Audacity file's one tier is renamed to it)."""
    if name is None:
        return parsed
    if parsed.format == "audacity":
        parsed.tiers[0].name = name
        return parsed
    keep = [t for t in parsed.tiers if t.name == name]
    if not keep:
        names = ", ".join(f"'{t.name}'" for t in parsed.tiers) or "none"
        raise SpanImportError(f"{parsed.path.name}: no tier '{name}' (tiers: {names})")
    parsed.tiers = keep
    return parsed


def check_fits(parsed: ParsedFile, duration_s: float, recording: str = "the recording") -> None:
    """Refuse a file with an interval past the recording's end; clamp those within the tolerance."""
    for tier in parsed.tiers:
        for i, iv in enumerate(tier.intervals, 1):
            if iv.end_s > duration_s + END_TOLERANCE_S:
                raise SpanImportError(
                    f"{parsed.path.name}: tier '{tier.name}' interval {i} ({iv.start_s:.2f}-{iv.end_s:.2f} s) ends "
                    f"after {recording} ({duration_s:.2f} s long); is it the right recording?")
        tier.intervals = [iv if iv.end_s <= duration_s else Interval(min(iv.start_s, duration_s), duration_s, iv.text)
                          for iv in tier.intervals]


# -- ELAN ---------------------------------------------------------------------------------
def _read_eaf(path: Path) -> ParsedFile:
    import xml.etree.ElementTree as ET

    from pympi.Elan import Eaf

    try:
        ET.parse(path)  # first: pympi hides the parser's line and column behind "Unable to parse eaf"
    except ET.ParseError as exc:
        raise SpanImportError(f"{path.name}: not an ELAN file (not XML: {exc})") from None
    try:
        doc = Eaf(str(path.resolve()))  # never "-": pympi reads standard input for that name
    except Exception as exc:  # pympi raises whatever its parser meets (KeyError, ValueError...)
        raise SpanImportError(f"{path.name}: not an ELAN file ({type(exc).__name__}: {exc})") from None
    out = ParsedFile(path, "eaf", [])
    for name in doc.get_tier_names():
        try:
            rows = doc.get_annotation_data_for_tier(name)
        except Exception as exc:  # a reference to a missing time slot or parent annotation
            raise SpanImportError(f"{path.name}: tier '{name}' is damaged ({type(exc).__name__}: {exc})") from None
        intervals, unaligned = [], 0
        for row in rows:
            start, end, value = row[0], row[1], row[2]
            if start is None or end is None:  # a slot without a time (not aligned yet in ELAN)
                unaligned += 1
                continue
            a, b = sorted((start / 1000.0, end / 1000.0))
            intervals.append(Interval(a, b, (value or "").strip()))
        if unaligned:
            out.warnings.append(f"tier '{name}': {unaligned} annotation(s) without times skipped")
        annotator = (doc.get_parameters_for_tier(name).get("ANNOTATOR") or "").strip() or None
        out.tiers.append(Tier(name, intervals, annotator))
    if not out.tiers:
        raise SpanImportError(f"{path.name}: the ELAN file has no tiers")
    return out


# -- Praat --------------------------------------------------------------------------------
def _decode_textgrid(raw: bytes, path: Path) -> str:
    """Praat writes UTF-16 (with a byte order mark) when a label is not ASCII, else ASCII / UTF-8."""
    try:
        if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return raw.decode("utf-16")
        if b"\x00" in raw[:200]:  # UTF-16 without a byte order mark
            return raw.decode("utf-16-be" if raw[:1] == b"\x00" else "utf-16-le")
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpanImportError(f"{path.name}: not a Praat TextGrid (neither UTF-8 nor UTF-16 text)") from None


def _read_textgrid(path: Path) -> ParsedFile:
    from praatio.utilities import textgrid_io

    text = _decode_textgrid(path.read_bytes(), path)
    if "TextGrid" not in text[:400]:
        raise SpanImportError(f"{path.name}: not a Praat TextGrid (no 'Object class = \"TextGrid\"' header)")
    try:
        # praatio's parser, not openTextgrid: that one refuses a tier whose intervals overlap,
        # which HARP spans may do. Empty intervals are Praat's gaps between marks, not spans.
        tg = textgrid_io.parseTextgridStr(text, includeEmptyIntervals=False)
        out = ParsedFile(path, "textgrid", [])
        for tier in tg["tiers"]:
            if tier["class"] != "IntervalTier":
                out.warnings.append(f"tier '{tier['name']}' is a point tier: skipped (only interval tiers hold spans)")
                continue
            intervals = [Interval(float(e.start), float(e.end), (e.label or "").strip()) for e in tier["entries"]]
            out.tiers.append(Tier(tier["name"], intervals))
    except Exception as exc:  # praatio's regex parser raises many kinds (AttributeError, IndexError, ValueError)
        raise SpanImportError(f"{path.name}: not a Praat TextGrid ({type(exc).__name__}: {_short(exc)})") from None
    for t in out.tiers:
        bad = next((iv for iv in t.intervals if iv.start_s < 0 or iv.end_s < iv.start_s), None)
        if bad:
            raise SpanImportError(f"{path.name}: tier '{t.name}' has an interval {bad.start_s:g}-{bad.end_s:g} s "
                                  "that ends before it starts")
    if not out.tiers:
        raise SpanImportError(f"{path.name}: the TextGrid has no interval tier")
    return out


# -- Audacity -----------------------------------------------------------------------------
_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$")


def _seconds(text: str, path: Path, line_no: int) -> float:
    text = text.strip()
    if not _NUMBER.match(text):
        raise SpanImportError(f"{path.name} line {line_no}: '{text[:20]}' is not a time in seconds "
                              "(an Audacity label line is start<TAB>end<TAB>label)")
    return float(text.replace(",", "."))  # some locales' Audacity writes a decimal comma


def _read_audacity(path: Path) -> ParsedFile:
    raw = path.read_bytes()
    if b"\x00" in raw[:4096]:
        raise SpanImportError(f"{path.name}: a binary file, not an Audacity label track")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpanImportError(f"{path.name}: not UTF-8 text (byte {exc.start}); save the labels as UTF-8") from None
    intervals, points = [], 0
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("\\"):  # "\\<TAB>f0<TAB>f1": a spectral label's frequencies
            continue
        parts = line.split("\t") if "\t" in line else line.split(None, 2)  # hand-written files use spaces
        if len(parts) < 2:
            raise SpanImportError(f"{path.name} line {n}: expected start<TAB>end<TAB>label")
        a, b = _seconds(parts[0], path, n), _seconds(parts[1], path, n)
        if a < 0 or b < a:
            raise SpanImportError(f"{path.name} line {n}: {a:g}-{b:g} s is not a span (negative or ends before "
                                  "it starts)")
        if b == a:
            points += 1
            continue
        intervals.append(Interval(a, b, "\t".join(parts[2:]).strip()))
    if points:
        # A point label marks a moment, not evidence with a length.
        warning = [f"{points} point label(s) (start = end) skipped"]
    else:
        warning = []
    if not intervals and not points:
        raise SpanImportError(f"{path.name}: no labels in it")
    return ParsedFile(path, "audacity", [Tier(path.stem, intervals)], warning)


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:160]
