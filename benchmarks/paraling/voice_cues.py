"""Voice-cue "when does the voice in this clip first speak?" accuracy on an indexed library.

    .venv/bin/python benchmarks/paraling/voice_cues.py LIBRARY

Questions: the time-answer voice-cue questions of ``benchmarks/bank/devhalf.jsonl``
(query_type speaker with a cue clip) and of the dev set's ``queries.jsonl``. For each, the
answer path of ``agent/answerers/voice_match.py`` without the planner: the cue's segment
scores (RecordingTools.speaker: best-window GE2E cosine), ``speakers.pick_voice``, the
earliest pick; right when its start is within 2 s of the first evidence span.
``--plain`` picks as before issue 18 (only segments within VOICE_NEAR_BEST of the best).
Two questions with a time window ("on the telephone", "once the consultation is over")
are left out: they test the window, which the planner supplies.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import soundfile as sf

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
DEV = REPO.parent / "shared" / "data" / "dev"


def questions() -> list[tuple[dict, Path]]:
    out = []
    for path, cues in ((REPO / "benchmarks/bank/devhalf.jsonl", REPO / "benchmarks/bank"), (DEV / "queries.jsonl", DEV)):
        for line in path.read_text().splitlines():
            q = json.loads(line)
            if q["query_type"] == "speaker" and q.get("cue_audio") and q["answer_kind"] == "time" and q["evidence"]:
                out.append((q, cues / q["cue_audio"]))
    return out


def run(library: str, plain: bool) -> list[list]:
    from harp_desktop.agent.settle import VOICE_MATCH, VOICE_NEAR_BEST
    from harp_desktop.api import Library
    from harp_desktop.index.speakers import pick_voice
    from harp_desktop.retrieval.tools import RecordingTools

    rows = []
    skip = {"bank-r1-089", "bank-r2-105"}  # "on the telephone", "once the consultation is over": windows, not first
    with Library(library) as lib:
        recs = {Path(r["path"]).name: r for r in lib.db.db.query("SELECT * FROM recordings")}
        for q, cue in questions():
            rec = recs.get(q["recording"])
            if rec is None or q["query_id"] in skip:
                continue
            wav = sf.read(cue, dtype="float32")[0]
            tools = RecordingTools(lib, rec)
            scored = [(e.scores["speaker"], e.start_s) for e in tools.speaker(wav, None, 0.0, rec["duration_s"], 400)]
            best = max((x for x, _ in scored), default=0.0)
            if plain:  # before issue 18: the segments near the best only
                hits = sorted(t for x, t in scored if x >= max(VOICE_MATCH, best - VOICE_NEAR_BEST)) if best >= VOICE_MATCH else []
            else:
                labels = {s["start_s"]: s["speaker_label"] for s in lib.db.segments(rec["id"])}
                hits = sorted(pick_voice([(x, labels.get(t), t) for x, t in scored], VOICE_MATCH, VOICE_NEAR_BEST))
            got = hits[0] if hits else None
            want = q["evidence"][0][0]
            rows.append([q["query_id"], cue.name, f"{want:.1f}", "-" if got is None else f"{got:.1f}",
                         f"{best:.3f}", "yes" if got is not None and abs(got - want) <= 2.0 else "no"])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library")
    ap.add_argument("--plain", action="store_true")
    args = ap.parse_args()
    rows = run(args.library, args.plain)
    for r in rows:
        print("  " + "  ".join(map(str, r)))
    print(f"  right {sum(r[-1] == 'yes' for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
