"""Annotation spans grouped into tiers (one per annotator, or one per question = label set),
and the agreement figure for the tiers on screen (no Qt; ``ui/tiers.py`` draws them).

A tier whose spans overlap is drawn in sub-rows, like the overflow tiers of the EAF and
TextGrid exports. Agreement is ``evaluate.agreement.agreement`` on the same spans that
``Library.agreement`` reads, per question, so the window shows the very figure that
``harp questions agreement`` prints.
"""

from __future__ import annotations

from harp_desktop.evaluate.agreement import agreement

BY = ("annotator", "question")
REFERENCE = "reference"


def tier_name(row: dict, by: str) -> str:
    return row["annotator"] if by == "annotator" else row["query_id"]


def group(rows: list[dict], by: str = "annotator") -> dict[str, list[list[dict]]]:
    """Tier name -> sub-rows of non-overlapping spans (time order). Annotator tiers come with
    the reference annotator first, then in the order they first marked a span."""
    if by not in BY:
        raise ValueError(f"tiers are per 'annotator' or per 'question', not {by!r}")
    first: dict[str, int] = {}
    members: dict[str, list[dict]] = {}
    for r in rows:
        name = tier_name(r, by)
        members.setdefault(name, []).append(r)
        first[name] = min(first.get(name, r["id"]), r["id"])
    names = list(members)
    if by == "annotator":
        names.sort(key=lambda n: (n != REFERENCE, first[n]))
    out: dict[str, list[list[dict]]] = {}
    for name in names:
        lanes: list[list[dict]] = []
        for r in sorted(members[name], key=lambda r: (r["start_s"], r["end_s"])):
            lane = next((ln for ln in lanes if ln[-1]["end_s"] <= r["start_s"]), None)
            if lane is None:
                lanes.append([r])
            else:
                lane.append(r)
        out[name] = lanes
    return out


def _spans(rows: list[dict], query_id: str, annotator: str) -> list[tuple[float, float]]:
    return [(r["start_s"], r["end_s"]) for r in rows if r["query_id"] == query_id and r["annotator"] == annotator]


def agreement_lines(rows: list[dict], by: str, visible: list[str]) -> list[str]:
    """One line per pair of visible tiers that can be compared.

    By annotator: the first visible annotator against each other one, averaged over the
    questions both marked. By question: each visible question's first two annotators.
    """
    lines = []
    if by == "annotator":
        if len(visible) < 2:
            return []
        ref = visible[0]
        for other in visible[1:]:
            shared = sorted({r["query_id"] for r in rows if r["annotator"] == ref}
                            & {r["query_id"] for r in rows if r["annotator"] == other})
            if not shared:
                lines.append(f"{ref} vs {other}: no question marked by both")
                continue
            scores = [agreement(_spans(rows, q, ref), _spans(rows, q, other)) for q in shared]
            span_f1 = sum(s["span_f1"] for s in scores) / len(scores)
            time_f1 = sum(s["time_f1"] for s in scores) / len(scores)
            where = shared[0] if len(shared) == 1 else f"mean of {len(shared)} questions"
            lines.append(f"{ref} vs {other}: span F1 {span_f1:.2f}, time F1 {time_f1:.2f} ({where})")
        return lines
    for q in visible:
        names = [n for n in group([r for r in rows if r["query_id"] == q], "annotator")]
        if len(names) >= 2:
            a = agreement(_spans(rows, q, names[0]), _spans(rows, q, names[1]))
            lines.append(f"{q}: {names[0]} vs {names[1]} span F1 {a['span_f1']:.2f}, time F1 {a['time_f1']:.2f}")
    return lines
