"""The rationale report as Markdown: the same content as the PDF, with a text timeline in
place of the waveform strip."""

from __future__ import annotations

from harp_desktop.evaluate.score import hit_rate
from harp_desktop.export.report_data import DISCLAIMER, Item, ReportData, labels, when
from harp_desktop.export.summary import Summary
from harp_desktop.export.transcript import Line, short_clock
from harp_desktop.retrieval.localize import format_clock
from harp_desktop.types import is_absence

TIMELINE_CHARS = 60


def cell(text: object) -> str:
    """Text safe inside a table cell: pipes escaped, one line."""
    return " ".join(str(text).split()).replace("\\", "\\\\").replace("|", "\\|") or "\u2013"


def timeline(duration_s: float, evidence: list[tuple[float, float]], cited: list[tuple[float, float]],
             width: int = TIMELINE_CHARS) -> str:
    """`|....##..#....|`: '#' cited, '+' other evidence, one character per 1/width of the recording."""
    marks = ["."] * width
    for spans, ch in ((evidence, "+"), (cited, "#")):
        for s, e in spans:
            a = int(max(0.0, s) / max(duration_s, 1e-6) * width)
            b = int(min(duration_s, e) / max(duration_s, 1e-6) * width)
            for i in range(min(a, width - 1), min(max(b, a), width - 1) + 1):
                marks[i] = ch
    return f"`|{''.join(marks)}|` 00:00\u2013{format_clock(duration_s)}"


def _question(n: int, total: int, it: Item, duration_s: float) -> list[str]:
    a = it.answer
    m = a.get("models") or {}
    out = [f"## Question {n} of {total}: {cell(a['question'])}", "",
           f"*Asked {when(a.get('created_at'))}; planner {m.get('planner') or 'rules'}; "
           f"language model {m.get('llm') or 'none (rules and extractive answer)'}*", "",
           f"**Answer: {cell(a['answer'])}**", ""]
    if is_absence(a):
        out += ["Nothing to cite: the recording was searched and nothing was found.", ""]
    elif not a.get("supported"):
        out += ["**UNSUPPORTED**: no verified evidence backs this answer.", ""]
    out += [f"**Rationale.** {' '.join(it.rationale.split())}", ""]
    cites = "; ".join(f"[{format_clock(s)}-{format_clock(e)}] \u2713 verified" + (f" (E{i + 1})" if i is not None else "")
                      for s, e, i in it.citations) or "none verified"
    if it.removed:
        cites += f"; {it.removed} removed by the verifier (not inside the evidence)"
    out += [f"**Citations.** {cites}", ""]
    if it.evidence:
        out += ["| # | Time | Speaker | Transcript excerpt | Events and emotion | Tool scores | Cited |",
                "|---|---|---|---|---|---|---|"]
        for i, e in enumerate(it.evidence):
            scores = ", ".join(f"{k} {v:.3f}" for k, v in sorted(e.scores.items()))
            cited = "\u2713" if it.cited[i] else "\u2013"
            out.append(f"| E{i + 1} | {format_clock(e.start_s)}\u2013{format_clock(e.end_s)} | {cell(e.speaker or '')} | "
                       f"{cell(e.text[:320])} | {cell(labels(e.labels))} | {cell(scores)} | {cited} |")
        out.append("")
    else:
        out += ["No evidence was retrieved for this question.", ""]
    cited_spans = [c for cs in it.cited for c in cs]
    out += ["Timeline (`#` cited, `+` other evidence): " + timeline(
        duration_s, [(e.start_s, e.end_s) for e in it.evidence], cited_spans), ""]
    if it.truth:
        hr = hit_rate([(t["start_s"], t["end_s"]) for t in it.truth], [(e.start_s, e.end_s) for e in it.evidence])
        out += [f"**Ground truth against retrieved evidence** (HitRate {hr:.2f})" if hr is not None else "", "",
                "| Annotator | Span | Label | Retrieved? |", "|---|---|---|---|"]
        for t in it.truth:
            hit = any(e.start_s < t["end_s"] and e.end_s > t["start_s"] for e in it.evidence)
            out.append(f"| {cell(t['annotator'])} | {format_clock(t['start_s'])}\u2013{format_clock(t['end_s'])} | "
                       f"{cell(t.get('label') or '')} | {'yes' if hit else 'missed'} |")
        out.append("")
    if a.get("notes"):
        out += ["Notes: " + "; ".join(a["notes"]), ""]
    return out


def _summary(summary: Summary) -> list[str]:
    """The cited summary, as on the PDF's page 1 (``[mm:ss]`` citations, statuses in words)."""
    out = ["## Cited summary", ""]
    if not summary.sections:
        return [*out, summary.note, ""]
    for title, lines in summary.sections:
        out += [f"**{title}**", ""]
        out += [f"- {ln.text()}" + (" *(edited or added by an annotator)*" if ln.edited else "")
                + ("" if all(c.verified for c in ln.cites) else " *(not all found in the transcript)*")
                for ln in lines]
        out.append("")
    if summary.rejected:
        out += [f"*{summary.rejected} finding(s) rejected by an annotator are left out.*", ""]
    return out


def build(data: ReportData, transcript: list[Line] | None = None) -> str:
    rec = data.recording
    long = rec["duration_s"] >= 3600
    out = ["# HARP Desktop \u2014 rationale report", "",
           "| | |", "|---|---|", f"| Recording | {cell(rec['name'])} |", f"| File | {cell(rec['path'])} |",
           f"| Duration | {short_clock(rec['duration_s'], long)} |", f"| SHA-256 | `{rec['sha256']}` |",
           f"| Report created | {data.created_at} |", f"| Application | HARP Desktop {data.app_version} |", ""]
    if data.summary is not None:
        out += _summary(data.summary)
    for n, it in enumerate(data.items, 1):
        out += _question(n, len(data.items), it, rec["duration_s"])
    if transcript is not None:
        out += [f"## Transcript ({len(transcript)} segments)", ""]
        out += [f"- `{short_clock(ln.start_s, long)}` **{cell(ln.speaker)}**: {' '.join(ln.text.split())}"
                for ln in transcript]
        out.append("")
    out += ["## Model provenance", "", "| Model | Name | Version (package; weights checksum) | Used for |",
            "|---|---|---|---|"]
    out += [f"| {cell(m.key)} | {cell(m.name)} | {cell(m.version)} | {cell(m.used_for)} |" for m in data.models]
    out += ["", "---", "", f"*{DISCLAIMER}*", ""]
    return "\n".join(out)
