"""Page 1 of the PDF rationale report: the cited summary of the visit's findings and the
answers at a glance (the details follow; model provenance closes the report).

A summary citation is styled like the report's other citations (blue, bold [mm:ss]); when
the report carries the transcript, it is also a link that jumps to the transcript line
holding that moment, so every line can be checked inside the document.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from reportlab.platypus import Paragraph, Spacer

from harp_desktop.export.summary import Cite, Summary, SummaryLine
from harp_desktop.findings import display as fd
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import is_absence

BLUE, RED, GREY = "#1565c0", "#c62828", "#546e7a"
Anchor = Callable[[float], str | None]  # a moment -> the name of the transcript line holding it


def line_anchor(i: int) -> str:
    return f"tl{i}"


def transcript_anchors(starts: list[float]) -> Anchor:
    """The transcript line a moment falls in (the last one starting at or before it)."""
    def find(t: float) -> str | None:
        i = bisect.bisect_right(starts, t + 0.05) - 1
        return line_anchor(max(i, 0)) if starts else None

    return find


def _cite(c: Cite, anchor: Anchor | None) -> str:
    label = f"<b>[{format_clock(c.start_s)}]</b>"
    name = anchor(c.start_s) if anchor else None
    shown = f'<a href="#{name}" color="{BLUE}">{label}</a>' if name else f'<font color="{BLUE}">{label}</font>'
    return shown + (" \u2713" if c.verified else f' <font color="{RED}">\u2717 (not found in the transcript)</font>')


def _cites(cites: list[Cite], anchor: Anchor | None, esc: Callable[[object], str]) -> str:
    groups: dict[str, list[Cite]] = {}
    for c in sorted(cites, key=lambda c: c.start_s):
        groups.setdefault(c.who, []).append(c)
    return "; ".join(", ".join(_cite(c, anchor) for c in cs) + f" said by {esc(who)}" for who, cs in groups.items())


def _line(ln: SummaryLine, anchor: Anchor | None, esc: Callable[[object], str]) -> str:
    status = f'<font color="{fd.status_color(ln.status)}"><b>{esc(ln.status_word)}</b></font>'
    edited = f' <font color="{GREY}">(\u270e edited or added by an annotator)</font>' if ln.edited else ""
    return f"{esc(ln.concept)} \u2014 {status} \u2014 {_cites(ln.cites, anchor, esc)}{edited}"


def summary_section(summary: Summary, st: dict, width: float, esc: Callable[[object], str], table,
                    anchor: Anchor | None = None) -> list:
    """'Cited summary' and one row per section (Reported, Denied, ...), or the note saying why not."""
    story: list = [Paragraph("Cited summary", st["h2"])]
    if not summary.sections:
        return [*story, Paragraph(esc(summary.note), st["note"])]
    rows = [[f"<b>{esc(title)}</b>", "<br/>".join(_line(ln, anchor, esc) for ln in lines)]
            for title, lines in summary.sections]
    story.append(table(rows, [78, width - 78], st, zebra=False, head=False))
    how = ("Each line: the finding (value as said) \u2014 its status \u2014 when it was said, and by whom. "
           "\u2713: the cited moment is that speaker's transcribed speech holding those words, re-checked now"
           + ("; click a time to jump to it in the transcript" if anchor else "") + ".")
    if summary.rejected:
        how += f" {summary.rejected} finding(s) rejected by an annotator are left out."
    return [*story, Spacer(1, 2), Paragraph(how, st["note"])]


def answers_at_a_glance(items: list, st: dict, esc: Callable[[object], str]) -> list:
    """Each question and its answer in one or two lines, so page 1 holds them; details follow."""
    story: list = [Paragraph("Answers" if len(items) > 1 else "Answer", st["h2"])]
    for n, it in enumerate(items, 1):
        a = it.answer
        flag = "" if a.get("supported") or is_absence(a) else f' <font color="{RED}"><b>UNSUPPORTED</b></font>'
        story.append(Paragraph(f"<b>Q{n}.</b> {esc(a['question'])} \u2192 <b>{esc(a['answer'])}</b>{flag} "
                               f'<font color="{GREY}">(details: question {n})</font>', st["base"]))
    return story
