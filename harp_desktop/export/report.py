"""The PDF rationale report (reportlab platypus), and the transcript as a PDF.

Layout: a header (recording, checksum, date, app version); on page 1 the cited summary of
the visit's findings and the answers at a glance (``report_summary``); then per question
the answer, rationale, citations with their verification, an evidence table, a waveform
strip and, when annotated, ground truth against retrieved evidence; the transcript when
asked for; and last the model provenance (every model and version behind the content).
Every page carries a footer with "page x of n" and the decision-support disclaimer.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from harp_desktop.agent.verify import CITATION
from harp_desktop.audio.decode import open_cache
from harp_desktop.evaluate.score import hit_rate
from harp_desktop.export import fonts, report_summary, waveform
from harp_desktop.export.report_data import DISCLAIMER, Item, ReportData, labels, when
from harp_desktop.export.transcript import Line, short_clock
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import is_absence

MARGIN = 16 * mm
WIDTH = A4[0] - 2 * MARGIN
GRID = colors.HexColor("#cfd8dc")
HEAD_BG = colors.HexColor("#eceff1")
RED, BLUE = "#c62828", "#1565c0"


def _styles() -> dict[str, ParagraphStyle]:
    reg, bold = fonts.register()
    base = ParagraphStyle("base", fontName=reg, fontSize=9, leading=12, alignment=TA_LEFT)
    return {
        "base": base,
        "title": ParagraphStyle("title", base, fontName=bold, fontSize=16, leading=20, spaceAfter=4),
        "h2": ParagraphStyle("h2", base, fontName=bold, fontSize=12, leading=15, spaceBefore=8, spaceAfter=3),
        "answer": ParagraphStyle("answer", base, fontName=bold, fontSize=11, leading=14, spaceBefore=2),
        "small": ParagraphStyle("small", base, fontSize=7.5, leading=9.5),
        "cell": ParagraphStyle("cell", base, fontSize=7.2, leading=8.8),
        "cellb": ParagraphStyle("cellb", base, fontName=bold, fontSize=7.2, leading=8.8),
        "line": ParagraphStyle("line", base, fontSize=8.2, leading=10.4, leftIndent=92, firstLineIndent=-92),
        "note": ParagraphStyle("note", base, fontSize=7.5, leading=9.5, textColor=colors.HexColor("#546e7a")),
    }


def esc(text: object) -> str:
    """Text for a Paragraph: markup characters escaped, control characters dropped."""
    return escape("".join(c for c in str(text) if c.isprintable() or c in " \n"))


def _table(rows: list[list], widths: list[float], st: dict, zebra: bool = True, head: bool = True) -> Table:
    """Cells are Paragraphs so long text wraps; a header row repeats on every page it spans."""
    cells = [[c if not isinstance(c, str) else Paragraph(c, st["cellb" if (i == 0 and head) or (j == 0 and not head)
                                                                 else "cell"]) for j, c in enumerate(r)]
             for i, r in enumerate(rows)]
    t = Table(cells, colWidths=widths, repeatRows=1 if head else 0, hAlign="LEFT")
    style = [("GRID", (0, 0), (-1, -1), 0.3, GRID), ("BACKGROUND", (0, 0), (-1 if head else 0, 0 if head else -1), HEAD_BG),
             ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 3),
             ("RIGHTPADDING", (0, 0), (-1, -1), 3), ("TOPPADDING", (0, 0), (-1, -1), 2),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]
    if zebra:
        style += [("BACKGROUND", (0, i), (-1, i), colors.HexColor("#f7f9fa")) for i in range(2, len(rows), 2)]
    t.setStyle(TableStyle(style))
    return t


def header(data: ReportData, st: dict, title: str) -> list:
    rec = data.recording
    long = rec["duration_s"] >= 3600
    info = [["Recording", esc(rec["name"])], ["File", esc(rec["path"])],
            ["Duration", short_clock(rec["duration_s"], long)], ["SHA-256", rec["sha256"]],
            ["Report created", data.created_at], ["Application", f"HARP Desktop {esc(data.app_version)}"]]
    return [Paragraph(title, st["title"]), _table(info, [70, WIDTH - 70], st, zebra=False, head=False)]


def provenance(data: ReportData, st: dict) -> list:
    """Which models (name, version, weights checksum) produced the content: the report's last section."""
    head = Paragraph("Model provenance", st["h2"])
    if not data.models:
        return [Spacer(1, 10), KeepTogether([head, Paragraph("None recorded: this recording has no finished index "
                                                             "stage.", st["base"])])]
    table = _table([["Model", "Name", "Version (package; weights checksum)", "Used for"],
                    *[[esc(m.key), esc(m.name), esc(m.version), esc(m.used_for)] for m in data.models]],
                   [62, 130, 190, WIDTH - 382], st)
    return [Spacer(1, 10), KeepTogether([head, table])]  # the heading never ends a page alone


def _rationale(text: str) -> str:
    out = esc(text)
    out = CITATION.sub(lambda m: f'<font color="{BLUE}"><b>{m.group(0)}</b></font>', out)
    return out.replace("[unsupported citation removed]", f'<font color="{RED}">[unsupported citation removed]</font>')


def _scores(scores: dict) -> str:
    keys = ["fused"] + sorted(k for k in scores if k != "fused")
    return "<br/>".join(f"{esc(k)} {scores[k]:.3f}" for k in keys if k in scores)[:400]


def _overlaps(span: dict, evidence) -> bool:
    return any(e.start_s < span["end_s"] and e.end_s > span["start_s"] for e in evidence)


def question(n: int, total: int, it: Item, data: ReportData, st: dict, audio) -> list:
    a = it.answer
    models = a.get("models") or {}
    asked = f"Asked {esc(when(a.get('created_at')))}; planner {esc(models.get('planner') or 'rules')}; " \
            f"language model {esc(models.get('llm') or 'none (rules and extractive answer)')}"
    head = [Paragraph(f"Question {n} of {total}", st["note"]), Paragraph(esc(a["question"]), st["h2"]),
            Paragraph(asked, st["note"]), Paragraph(f"Answer: {esc(a['answer'])}", st["answer"])]
    if is_absence(a):
        head.append(Paragraph("Nothing to cite: the recording was searched and nothing was found.", st["note"]))
    elif not a.get("supported"):
        head.append(Paragraph(f'<font color="{RED}"><b>UNSUPPORTED</b>: no verified evidence backs this answer.'
                              "</font>", st["base"]))
    head += [Spacer(1, 3), Paragraph("<b>Rationale.</b> " + _rationale(it.rationale), st["base"])]
    if it.citations:
        cites = "; ".join(f"[{format_clock(s)}-{format_clock(e)}] \u2713 verified"
                          + (f" (evidence E{i + 1})" if i is not None else "") for s, e, i in it.citations)
    else:
        cites = "none verified"
    if it.removed:
        cites += f'; <font color="{RED}">{it.removed} removed by the verifier (not inside the evidence)</font>'
    head += [Spacer(1, 2), Paragraph(f"<b>Citations.</b> {cites}", st["base"])]
    # The strip shows where the evidence sits before the table details it; kept with the answer
    # so it never lands alone on the next page.
    head += [*_strips(it, data, st, audio), Spacer(1, 5)]
    if not it.evidence:
        return [KeepTogether([*head, Paragraph("No evidence was retrieved for this question.", st["base"])]),
                *_tail(it, st)]
    rows = [["#", "Time", "Speaker", "Transcript excerpt", "Events and emotion", "Tool scores", "Cited"]]
    for i, e in enumerate(it.evidence):
        text = e.text.strip()
        cited = ("\u2713 " + ", ".join(f"[{format_clock(s)}-{format_clock(t)}]" for s, t in it.cited[i])
                 if it.cited[i] else "\u2013")
        rows.append([f"E{i + 1}", f"{format_clock(e.start_s)}\u2013{format_clock(e.end_s)}", esc(e.speaker or "\u2013"),
                     esc(text[:320] + ("\u2026" if len(text) > 320 else "")) or "<i>(no speech)</i>",
                     esc(labels(e.labels)[:300]) or "\u2013", _scores(e.scores), cited])
    tw = 74 if data.recording["duration_s"] >= 3600 else 54  # h:mm:ss-h:mm:ss on one line
    table = _table(rows, [20, tw, 68, 214 - tw, 74, 64, WIDTH - 440], st)
    # A short table stays with its answer; a long one starts under it and splits, header repeated.
    story = [KeepTogether([*head, table])] if len(rows) <= 7 else [KeepTogether(head), table]
    return story + _tail(it, st)


def _tail(it: Item, st: dict) -> list:
    story: list = []
    if it.truth:
        story += _truth(it, st)
    if it.answer.get("notes"):
        story += [Spacer(1, 3), Paragraph("Notes: " + esc("; ".join(it.answer["notes"])), st["note"])]
    return story


def _strips(it: Item, data: ReportData, st: dict, audio) -> list:
    dur = data.recording["duration_s"]
    ev = [(e.start_s, e.end_s) for e in it.evidence]
    cited = [c for cs in it.cited for c in cs]
    truth = [(t["start_s"], t["end_s"]) for t in it.truth]
    reg = fonts.register()[0]
    marks = [(e.start_s, f"E{i + 1}") for i, e in enumerate(it.evidence)]
    out = [Spacer(1, 5), waveform.strip(audio, 0.0, dur, ev, cited, truth, WIDTH, font=reg, marks=marks)]
    zoom = waveform.zoom_window(ev + truth, dur)
    if zoom:
        out += [Spacer(1, 3), Paragraph(f"Closer view {format_clock(zoom[0])}\u2013{format_clock(zoom[1])}:", st["note"]),
                waveform.strip(audio, zoom[0], zoom[1], ev, cited, truth, WIDTH, 52, font=reg, marks=marks)]
    legend = ('<font color="#f39c12">\u25a0</font> cited evidence  <font color="#e6b84f">\u25a0</font> other '
              "retrieved evidence" + ('  <font color="#2e7d32">\u25a0</font> ground truth (annotators)' if truth else ""))
    return [*out, Paragraph(legend, st["note"])]


def _truth(it: Item, st: dict) -> list:
    rows = [["Annotator", "Ground-truth span", "Label", "Retrieved?"]]
    for t in it.truth:
        hit = _overlaps(t, it.evidence)
        rows.append([esc(t["annotator"]), f"{short_clock(t['start_s'], False)}\u2013{short_clock(t['end_s'], False)}",
                     esc(t.get("label") or "\u2013"), "\u2713 overlaps evidence" if hit else
                     f'<font color="{RED}">\u2717 missed</font>'])
    hr = hit_rate([(t["start_s"], t["end_s"]) for t in it.truth], [(e.start_s, e.end_s) for e in it.evidence])
    summary = f"Ground truth against retrieved evidence: HitRate {hr:.2f}" if hr is not None else "Ground truth"
    return [Spacer(1, 5), Paragraph(f"<b>{summary}</b>", st["base"]), _table(rows, [90, 100, 150, WIDTH - 340], st)]


def transcript_section(lines: list[Line], long: bool, st: dict) -> list:
    out = []
    for i, ln in enumerate(lines):
        t = f"{short_clock(ln.start_s, long)}\u2013{short_clock(ln.end_s, long)}"
        # Each line is a link target: the cited summary's [mm:ss] jump here.
        out.append(Paragraph(f'<a name="{report_summary.line_anchor(i)}"/><font color="#607d8b">{t}</font>\u00a0 '
                             f"<b>{esc(ln.speaker)}</b>: {esc(ln.text)}", st["line"]))
    return out or [Paragraph("No speech was transcribed.", st["base"])]


def _canvas_class(footer_left: str):
    """A canvas that holds pages until the end so each footer can say 'page x of n'."""
    reg = fonts.register()[0]

    class NumberedCanvas(Canvas):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict] = []

        def showPage(self) -> None:  # noqa: N802 (reportlab API)
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def bookmarkPage(self, key, *args, **kwargs):  # noqa: N802 (reportlab API)
            # Pages reach the document only in save(), so its page counter still says page 1:
            # point a link target (a transcript line) at the page being drawn instead.
            doc = self._doc
            counter, doc.pageCounter = doc.pageCounter, len(self._pages) + 1
            try:
                return super().bookmarkPage(key, *args, **kwargs)
            finally:
                doc.pageCounter = counter

        def save(self) -> None:
            for state in self._pages:
                self.__dict__.update(state)
                self._footer(len(self._pages))
                super().showPage()
            super().save()

        def _footer(self, total: int) -> None:
            w, _ = A4
            self.setStrokeColor(GRID)
            self.setLineWidth(0.4)
            self.line(MARGIN, 14 * mm, w - MARGIN, 14 * mm)
            self.setFont(reg, 6.8)
            self.setFillColor(colors.HexColor("#546e7a"))
            self.drawString(MARGIN, 10.5 * mm, footer_left[:110])
            self.drawRightString(w - MARGIN, 10.5 * mm, f"Page {self._pageNumber} of {total}")
            for i, line in enumerate(simpleSplit(DISCLAIMER, reg, 6.3, w - 2 * MARGIN)[:2]):
                self.setFont(reg, 6.3)
                self.drawString(MARGIN, (7.2 - 2.8 * i) * mm, line)

    return NumberedCanvas


def _uncovered_note(data: ReportData, extra: str, st: dict) -> list:
    text = extra + " ".join(f"{it.answer.get('question', '')} {it.answer.get('answer', '')} "
                            + " ".join(f"{e.speaker or ''} {e.text}" for e in it.evidence) for it in data.items)
    missing = fonts.uncovered(text + data.recording["name"])
    if not missing:
        return []
    shown = " ".join(f"U+{ord(c):04X}" for c in missing[:10]) + (" \u2026" if len(missing) > 10 else "")
    return [Spacer(1, 4), Paragraph(f'<font color="{RED}">Note: {len(missing)} character(s) in this report have no '
                                    f"glyph in the report font (DejaVu Sans) and print as empty boxes: {shown}. "
                                    "The exported text (Markdown, TXT, JSON) keeps them.</font>", st["note"])]


def build(data: ReportData, path: Path, transcript: list[Line] | None = None, title: str | None = None) -> int:
    """Write the PDF to ``path``; returns the number of pages."""
    st = _styles()
    rec = data.recording
    long = rec["duration_s"] >= 3600
    title = title or ("Rationale report" if data.items else "Transcript")
    story = header(data, st, f"HARP Desktop \u2014 {esc(title)}")
    summary = data.summary if data.items else None  # a rationale report's page 1; not the transcript PDF
    extra = " ".join(f"{ln.speaker} {ln.text}" for ln in transcript or [])
    extra += " ".join(f"{ln.concept} {c.who}" for ln in summary.lines() for c in ln.cites) if summary else ""
    story += _uncovered_note(data, extra, st)
    if summary is not None:
        anchor = report_summary.transcript_anchors([ln.start_s for ln in transcript]) if transcript else None
        story += [Spacer(1, 4), *report_summary.summary_section(summary, st, WIDTH, esc, _table, anchor)]
    if data.items:
        story += [Spacer(1, 4), *report_summary.answers_at_a_glance(data.items, st, esc)]
    audio = open_cache(data.audio_cache) if data.audio_cache else None
    for n, it in enumerate(data.items, 1):
        story += [Spacer(1, 10), *question(n, len(data.items), it, data, st, audio)]
    if transcript is not None:
        story += [Spacer(1, 10), Paragraph(f"Transcript ({len(transcript)} segments)", st["h2"]),
                  *transcript_section(transcript, long, st)]
    story += provenance(data, st)
    doc = SimpleDocTemplate(str(path), pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                            bottomMargin=20 * mm, title=f"{title}: {rec['name']}", author="HARP Desktop",
                            subject=f"sha256 {rec['sha256']}", creator=f"HARP Desktop {data.app_version}")
    footer = f"{rec['name']} \u2014 sha256 {rec['sha256'][:16]} \u2014 {data.created_at}"
    doc.build(story, canvasmaker=_canvas_class(re.sub(r"\s+", " ", footer)))
    return doc.page
