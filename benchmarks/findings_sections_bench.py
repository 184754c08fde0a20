"""Sections the findings stage stored against the truth's sections, on indexed recordings.

    .venv/bin/python benchmarks/findings_sections_bench.py --library DIR [AUDIO ...]

Default recordings: the dev recording and the two bank consultations (each AUDIO needs its
AUDIO.truth.json beside it and must be indexed in DIR already; this reads, never indexes).
Truth kinds: a section named consultation*, *_review (a medication review) or *_round (a ward round) is a consultation,
*phone* a phone call, anything
else (waiting rooms) unrelated speech, dictation* a dictation, except the clips the truth marks as a telephone
conversation (the dev recording's overheard call inside its waiting room), which are phone
calls. Per recording it prints the found sections, each truth section with how its speech
time was labelled, and the agreement over all truth speech time (each 0.1 s of speech
labelled like its truth kind; speech outside every found section counts as unrelated).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AUDIO = [Path("/work/shared/data/dev/dev_long_01.flac"), REPO / "benchmarks/bank/audio/bank_rec_01.flac",
         REPO / "benchmarks/bank/audio/bank_rec_02.flac"]
SPEECH = ("speech", "tts_speech", "emotion_speech")
STEP = 0.1


def truth_kind(name: str) -> str:
    return "consultation" if name.startswith("consultation") or name.endswith(("_review", "_round")) else "phone_call" \
        if "phone" in name \
        else "dictation" if name.startswith("dictation") else "unrelated"


def telephone(item: dict) -> bool:
    words = " ".join([item.get("notes") or "", *(item.get("tags") or [])]).lower()
    return "telephone" in words or "phone call" in words


def truth_timeline(truth: dict) -> list[tuple[float, float, str, str]]:
    """(start, end, kind, section name) of every truth speech item (clips, not their utterances)."""
    sections = truth["sections"]
    out = []
    for i in truth["events"]:
        if i["kind"] not in SPEECH or i.get("level") == "utterance" or not i.get("speaker"):
            continue
        mid = (i["start_s"] + i["end_s"]) / 2
        sec = next((s for s in sections if s["start_s"] <= mid < s["end_s"]), sections[-1])
        kind = "phone_call" if telephone(i) else truth_kind(sec["name"])
        out.append((i["start_s"], i["end_s"], kind, sec["name"]))
    return out


def found_kind(t: float, sections: list) -> str:
    return next((s.kind for s in sections if s.start_s <= t <= s.end_s), "unrelated")


def clock(s: float) -> str:
    return f"{int(s // 60):02d}:{s % 60:04.1f}"


def report(lib, audio: Path) -> tuple[float, float]:
    truth = json.loads(audio.with_suffix(".truth.json").read_text())
    sections = lib.sections(audio)
    print(f"\n{audio.name}")
    print("  found: " + ", ".join(f"{s.kind} {s.start_s:.1f}-{s.end_s:.1f} ({s.confidence:.2f})" for s in sections))
    per_section: dict[str, Counter] = {}
    right = total = 0.0
    for a, b, kind, name in truth_timeline(truth):
        t = a
        while t < b:
            got = found_kind(t, sections)
            per_section.setdefault(name, Counter())[(kind, got)] += STEP
            right += STEP * (got == kind)
            total += STEP
            t += STEP
    print(f"  {'truth section':16} {'span s':>15} {'truth kind':12} speech labelled as")
    for s in truth["sections"]:
        c = per_section.get(s["name"], Counter())
        kinds = ", ".join(f"{want}->{got} {sec:.1f} s" for (want, got), sec in sorted(c.items(), key=lambda kv: -kv[1]))
        print(f"  {s['name']:16} {s['start_s']:7.1f}-{s['end_s']:7.1f} {truth_kind(s['name']):12} {kinds}")
    acc = right / max(total, 1e-9)
    print(f"  agreement over truth speech: {acc:.3f} ({right:.0f} of {total:.0f} s)")
    return acc, total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("audio", nargs="*", type=Path, help="indexed recordings (default: dev and the two bank ones)")
    ap.add_argument("--library", required=True, help="the library they are indexed in")
    args = ap.parse_args()
    from harp_desktop.api import Library

    with Library(args.library) as lib:
        rows = [(a.name, *report(lib, a)) for a in (args.audio or AUDIO)]
    print("\nrecording              section agreement (speech time)")
    for name, acc, total in rows:
        print(f"{name:22} {acc:.3f} of {total:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
