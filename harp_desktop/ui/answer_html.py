"""An answer (``Answer.to_json()`` or a stored history row) as HTML for a QTextBrowser (no Qt).

Citations become ``t:START-END`` anchors; an unsupported answer carries a red badge.
"""

from __future__ import annotations

import html

from harp_desktop.types import is_absence
from harp_desktop.ui.timefmt import link_citations

UNSUPPORTED_BADGE = "NOT SUPPORTED"
ABSENCE_NOTE = "Nothing to cite: the recording was searched and nothing was found (an absence has no moment)."


def render(a: dict) -> str:
    exact = [(c["start_s"], c["end_s"]) for c in a.get("citations", [])]
    exact += [(e["start_s"], e["end_s"]) for e in a.get("evidence", [])]
    supported = bool(a.get("supported"))
    colour = "#212121" if supported else "#757575"
    parts = [f'<p style="color:#616161; margin:0">Q: {html.escape(a.get("question", ""))}</p>',
             f'<p style="font-size:16pt; font-weight:600; color:{colour}; margin:4px 0 2px 0">'
             f'{link_citations(a.get("answer", ""), exact)}</p>']
    if a.get("draft"):
        parts.append('<p style="margin:0 0 6px 0"><span style="background-color:#1565c0; color:#ffffff; '
                     'font-weight:bold">&nbsp;DRAFT&nbsp;</span><span style="color:#1565c0">&nbsp;The closest '
                     'evidence, quoted; the language model is still writing the answer.</span></p>')
    elif supported:
        parts.append('<p style="color:#2e7d32; margin:0 0 6px 0">\u2714 Supported by the evidence below '
                     '(click a time to listen)</p>')
    elif is_absence(a):
        parts.append(f'<p style="color:#616161; margin:0 0 6px 0">{ABSENCE_NOTE}</p>')
    else:
        parts.append(f'<p style="margin:0 0 6px 0"><span style="background-color:#c62828; color:#ffffff; '
                     f'font-weight:bold">&nbsp;{UNSUPPORTED_BADGE}&nbsp;</span>'
                     '<span style="color:#c62828">&nbsp;No retrieved evidence backs this answer; '
                     'treat it as unanswered.</span></p>')
    if a.get("rationale"):
        parts.append(f'<p style="margin:0 0 6px 0">{link_citations(a["rationale"], exact)}</p>')
    small = [html.escape(n) for n in a.get("notes", [])]
    t = a.get("timings_s", {}).get("total")
    models = a.get("models", {})
    meta = []
    if t is not None:
        meta.append(f"{t:.2f} s")
    if models.get("planner"):
        meta.append(f"planner: {html.escape(str(models['planner']))}")
    meta.append(f"model: {html.escape(str(models.get('llm') or 'none (no LLM)'))}")
    if a.get("created_at"):
        meta.append(f"asked {html.escape(a['created_at'].replace('T', ' ').replace('+00:00', ' UTC'))}")
    small.append(" \u00b7 ".join(meta))
    parts.append('<p style="color:#757575; font-size:small; margin:0">' + "<br>".join(small) + "</p>")
    return "\n".join(parts)
