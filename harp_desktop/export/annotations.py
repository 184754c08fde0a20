"""Annotators' evidence spans for one recording as files other tools open:
an Audacity label track, a Praat TextGrid (long text format) and an ELAN EAF 3.0.

TextGrid interval tiers and ELAN tiers cannot hold overlapping intervals, so spans are
grouped into tiers (one per annotator, or one per question) and a span that overlaps an
earlier one in its tier goes to an overflow tier ("alice 2"). Every writer goes through
a temporary file and a rename: a failed export leaves nothing half-written.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

FORMATS = {"audacity": ".txt", "textgrid": ".TextGrid", "eaf": ".eaf"}
_MIME = {".wav": "audio/x-wav", ".flac": "audio/x-flac", ".mp3": "audio/mpeg", ".ogg": "audio/ogg"}


@dataclass(frozen=True)
class Span:
    annotator: str
    query_id: str
    start_s: float
    end_s: float
    label: str | None = None

    @property
    def text(self) -> str:
        return f"{self.query_id}: {self.label}" if self.label else self.query_id


def tiers(spans: list[Span], by: str = "annotator") -> dict[str, list[Span]]:
    """Tier name -> non-overlapping spans in time order (overlaps move to overflow tiers)."""
    if by not in ("annotator", "question"):
        raise ValueError(f"tiers are per 'annotator' or per 'question', not {by!r}")
    groups: dict[str, list[Span]] = {}
    for s in spans:
        name = s.annotator if by == "annotator" else f"{s.query_id} ({s.annotator})"
        groups.setdefault(name, []).append(s)
    out: dict[str, list[Span]] = {}
    for name, group in groups.items():
        lanes: list[list[Span]] = []
        for s in sorted(group, key=lambda s: (s.start_s, s.end_s)):
            lane = next((ln for ln in lanes if ln[-1].end_s <= s.start_s), None)
            if lane is None:
                lanes.append([s])
            else:
                lane.append(s)
        for i, lane in enumerate(lanes):
            out[name if i == 0 else f"{name} {i + 1}"] = lane
    return out


def _atomic_write(path: Path, text: str) -> None:
    path = Path(path)
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def audacity(spans: list[Span]) -> str:
    """Audacity label track: start<TAB>end<TAB>label, one per line (Import > Labels)."""
    rows = sorted(spans, key=lambda s: (s.start_s, s.end_s))
    return "".join(f"{s.start_s:.6f}\t{s.end_s:.6f}\t{s.text} [{s.annotator}]\n".replace("\r", " ") for s in rows)


def _q(text: str) -> str:
    return '"' + text.replace('"', '""').replace("\n", " ") + '"'


def textgrid(spans: list[Span], duration_s: float, by: str = "annotator") -> str:
    """Praat TextGrid, long text format: interval tiers covering 0..duration, gaps as empty intervals."""
    end = max([duration_s, *(s.end_s for s in spans)])
    out = ['File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0", f"xmax = {end!r}",
           "tiers? <exists>"]
    groups = tiers(spans, by)
    out += [f"size = {len(groups)}", "item []:"]
    for i, (name, items) in enumerate(groups.items(), 1):
        intervals: list[tuple[float, float, str]] = []
        t = 0.0
        for s in items:
            if s.start_s > t:
                intervals.append((t, s.start_s, ""))
            if s.end_s > s.start_s:  # a zero-length interval is invalid in Praat
                intervals.append((s.start_s, s.end_s, s.text))
            t = max(t, s.end_s)
        if t < end or not intervals:
            intervals.append((t, end, ""))
        out += [f"    item [{i}]:", '        class = "IntervalTier"', f"        name = {_q(name)}",
                "        xmin = 0", f"        xmax = {end!r}", f"        intervals: size = {len(intervals)}"]
        for j, (a, b, text) in enumerate(intervals, 1):
            out += [f"        intervals [{j}]:", f"            xmin = {a!r}", f"            xmax = {b!r}",
                    f"            text = {_q(text)}"]
    return "\n".join(out) + "\n"


def eaf(spans: list[Span], media: Path | str | None, by: str = "annotator") -> str:
    """ELAN EAF 3.0: one time-aligned tier per annotator (ANNOTATOR attribute set) or per question."""
    root = ET.Element("ANNOTATION_DOCUMENT", {
        "AUTHOR": "HARP Desktop", "DATE": datetime.now(UTC).isoformat(timespec="seconds"), "FORMAT": "3.0",
        "VERSION": "3.0", "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
        "xsi:noNamespaceSchemaLocation": "http://www.mpi.nl/tools/elan/EAFv3.0.xsd"})
    header = ET.SubElement(root, "HEADER", {"MEDIA_FILE": "", "TIME_UNITS": "milliseconds"})
    if media:
        media = Path(media)
        ET.SubElement(header, "MEDIA_DESCRIPTOR", {"MEDIA_URL": media.resolve().as_uri(),
                                                   "MIME_TYPE": _MIME.get(media.suffix.lower(), "audio/*"),
                                                   "RELATIVE_MEDIA_URL": f"./{media.name}"})
    order = ET.SubElement(root, "TIME_ORDER")
    groups = tiers(spans, by)
    n_ann = 0
    tier_elems = []
    for name, items in groups.items():
        owner = items[0].annotator if by == "annotator" else ""
        tier = ET.Element("TIER", {"LINGUISTIC_TYPE_REF": "evidence", "TIER_ID": name, **({"ANNOTATOR": owner}
                                                                                        if owner else {})})
        for s in items:
            slots = []
            for t in (s.start_s, s.end_s):
                slots.append(f"ts{len(order) + 1}")
                ET.SubElement(order, "TIME_SLOT", {"TIME_SLOT_ID": slots[-1], "TIME_VALUE": str(round(t * 1000))})
            n_ann += 1
            ann = ET.SubElement(ET.SubElement(tier, "ANNOTATION"), "ALIGNABLE_ANNOTATION", {
                "ANNOTATION_ID": f"a{n_ann}", "TIME_SLOT_REF1": slots[0], "TIME_SLOT_REF2": slots[1]})
            ET.SubElement(ann, "ANNOTATION_VALUE").text = s.text
        tier_elems.append(tier)
    prop = ET.SubElement(header, "PROPERTY", {"NAME": "lastUsedAnnotationId"})
    prop.text = str(n_ann)
    root.extend(tier_elems)
    ET.SubElement(root, "LINGUISTIC_TYPE", {"GRAPHIC_REFERENCES": "false", "LINGUISTIC_TYPE_ID": "evidence",
                                            "TIME_ALIGNABLE": "true"})
    for stereo, desc in [("Time_Subdivision", "Time subdivision of parent annotation's time interval, no time gaps "
                                              "allowed within this interval"),
                         ("Symbolic_Subdivision", "Symbolic subdivision of a parent annotation. Annotations "
                                                  "refering to the same parent are ordered"),
                         ("Symbolic_Association", "1-1 association with a parent annotation"),
                         ("Included_In", "Time alignable annotations within the parent annotation's time "
                                         "interval, gaps are allowed")]:
        ET.SubElement(root, "CONSTRAINT", {"DESCRIPTION": desc, "STEREOTYPE": stereo})
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write(fmt: str, path: Path | str, spans: list[Span], duration_s: float, media: Path | str | None = None,
          by: str = "annotator") -> Path:
    """Write ``spans`` in ``fmt`` (audacity | textgrid | eaf) to ``path``."""
    if fmt == "audacity":
        text = audacity(spans)
    elif fmt == "textgrid":
        text = textgrid(spans, duration_s, by)
    elif fmt == "eaf":
        text = eaf(spans, media, by)
    else:
        raise ValueError(f"unknown annotation format '{fmt}' (use {', '.join(FORMATS)}, or queries.jsonl)")
    _atomic_write(Path(path), text)
    return Path(path)
