"""A consultation with a third participant: the runs of the patient's companion belong to it.

``sections.dialogue_runs`` ends a run at a third voice, so a husband or daughter who joins in
cuts the clinician-patient exchange into runs; the candidates among them are regrouped by
``sections._exchanges``, and this adds the runs between and around them that the companion
takes part in (they are often short or one-sided, so not candidates themselves). The sections module passes
its question counter and pauses in (no import back: no cycle).
"""

from __future__ import annotations

from collections.abc import Callable


def companions(turns: list[dict], pieces: list[list], rest: list[tuple[int, int]], question_answers: Callable[[list[dict]], int],
               gap_s: float, absorb_s: float, silent_s: float) -> list[list]:
    """Runs between two consultation runs in which the clinician or the patient (a voice of those
    two runs) takes part are part of the consultation. Why: a third participant (the patient's husband or daughter) splits the
    clinician-patient exchange into runs of two voices each, and the runs with the companion
    are often short or one-sided (not candidates); while diarisation merged the companion
    into the clinician the consultation was one run. The chain from one consultation run to the
    next must have no pause longer than an ordinary one (or a silent examination)."""
    cons = [p for p in pieces if p[0] == "consultation"]
    out: list[list] = []
    for a, b in zip(cons, cons[1:], strict=False):
        between = [r for r in rest if r[0] >= a[2] - 1 and r[1] <= b[1] + 1]
        voices = {t["speaker"] for p in (a, b) for t in turns[p[1]:p[2]]}
        if not between or any(p[0] != "consultation" and a[1] < p[1] < b[1] for p in pieces):
            continue
        if any(not voices & {t["speaker"] for t in turns[lo:hi]} for lo, hi in between):
            continue  # a run of strangers only (the waiting room) ends the consultation
        chain = sorted([(a[1], a[2]), *between, (b[1], b[2])])
        if all(turns[nxt[0]]["start_s"] - turns[prev[1] - 1]["end_s"] <= gap_s + absorb_s
               or (turns[nxt[0]]["start_s"] - turns[prev[1] - 1]["end_s"] <= silent_s and nxt[0] <= prev[1])
               for prev, nxt in zip(chain, chain[1:], strict=False)):
            out += [["consultation", lo, hi, min(a[3], b[3]), question_answers(turns[lo:hi])] for lo, hi in between]
    # The greeting before the first consultation run and the goodbyes after the last, when the
    # companion speaks in between, are runs too: taken while each shares a voice with its
    # neighbouring consultation run, every voice in it takes part in the consultation (not the
    # receptionist who calls the patient in) and it follows on without a pause over gap_s.
    taken = {(p[1], p[2]) for p in out}
    members = {t["speaker"] for p in [*cons, *out] for t in turns[p[1]:p[2]]}
    for edge, step in ((cons[:1], -1), (cons[-1:], 1)):
        for c in edge:
            voices, cur = {t["speaker"] for t in turns[c[1]:c[2]]}, (c[1], c[2])
            for r in sorted(rest, key=lambda r: step * r[0]):  # nearest first
                if r in taken or (step < 0 and r[1] > cur[0] + 1) or (step > 0 and r[0] < cur[1] - 1):
                    continue
                first, second = (r, cur) if step < 0 else (cur, r)
                said = {t["speaker"] for t in turns[r[0]:r[1]]}
                if (turns[second[0]]["start_s"] - turns[first[1] - 1]["end_s"] > gap_s
                        or not voices & said or not said <= members):
                    break
                out.append(["consultation", r[0], r[1], c[3], question_answers(turns[r[0]:r[1]])])
                cur = r
    return out
