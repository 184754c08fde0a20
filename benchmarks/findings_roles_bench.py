"""Roles, sections and cough attribution of the findings stage against truth files.

    .venv/bin/python benchmarks/findings_roles_bench.py [--library DIR] [--asr base] [AUDIO TRUTH.json ...]
    .venv/bin/python benchmarks/findings_roles_bench.py --library DIR --stored --bank   # dev + bank, as stored

Default recordings: the bundled sample (resources/samples/consultation.flac) and the dev
recording (/work/shared/data/dev/dev_long_01.flac). Each is indexed into the library
(reused: an indexed recording is not indexed again; the 9-minute dev file takes a few
minutes on 2 cores the first time). Per recording it prints every diarised voice with its
truth speaker (most overlap), truth role and found role; role accuracy (by voice and by
speaking time); the sections found and the consultation's boundaries against truth; the
speakers the coughs were attributed to; and the stage's time per hour of audio. ``--stored``
reads what the library holds without indexing (to measure an earlier run); ``--bank`` adds
the two bank consultations to the defaults (and drops the sample unless it is indexed).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULTS = [(REPO / "resources/samples/consultation.flac", REPO / "resources/samples/consultation.truth.json"),
            (Path("/work/shared/data/dev/dev_long_01.flac"), Path("/work/shared/data/dev/dev_long_01.truth.json"))]
BANK = [(REPO / f"benchmarks/bank/audio/bank_rec_0{i}.flac", REPO / f"benchmarks/bank/audio/bank_rec_0{i}.truth.json")
        for i in (1, 2)]
TRUTH_ROLE = {"doctor": "clinician", "clinician": "clinician", "patient": "patient"}
SPEECH = ("speech", "tts_speech", "emotion_speech")


def truth_items(truth: dict) -> list[dict]:
    return truth.get("items") or truth.get("events") or []


def truth_role(truth: dict, speaker: str) -> str:
    info = (truth.get("speakers") or {}).get(speaker)
    role = info.get("role") if isinstance(info, dict) else speaker  # the sample names speakers by role
    return TRUTH_ROLE.get(role or "", "other")


def truth_consultation(truth: dict) -> tuple[float, float]:
    for s in truth.get("sections") or []:
        if s["name"] == "consultation":
            return s["start_s"], s["end_s"]
    spans = [(i["start_s"], i["end_s"]) for i in truth_items(truth) if truth_role(truth, i.get("speaker") or "")
             != "other" and i["kind"] in (*SPEECH, "cough")]
    return min(a for a, _ in spans), max(b for _, b in spans)


def overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def voice_truth(segments: list[dict], truth: dict) -> dict[str, tuple[str, float]]:
    """label -> (truth speaker with the most overlapping speech, the label's speech seconds)."""
    items = [i for i in truth_items(truth) if i["kind"] in SPEECH and i.get("speaker") and "+" not in i["speaker"]]
    share: dict[str, Counter] = {}
    talk: Counter = Counter()
    for s in segments:
        lab = s["speaker_label"]
        if not lab:
            continue
        talk[lab] += s["end_s"] - s["start_s"]
        for i in items:
            ov = overlap(s["start_s"], s["end_s"], i["start_s"], i["end_s"])
            if ov:
                share.setdefault(lab, Counter())[i["speaker"]] += ov
    return {lab: ((share[lab].most_common(1)[0][0] if lab in share else "?"), talk[lab]) for lab in talk}


def clock(s: float) -> str:
    return f"{int(s // 60):02d}:{s % 60:04.1f}"


def report(lib, audio: Path, truth_path: Path, asr: str, stored: bool = False) -> dict:
    from types import SimpleNamespace

    from harp_desktop.api import IndexOptions

    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    if stored:
        res = SimpleNamespace(sha256=lib.recording(audio)["sha256"], ran=[])
    else:
        res = lib.index(audio, IndexOptions(asr_profile=asr))
    rec = lib.recording(res.sha256)
    rid = rec["id"]
    segs = lib.db.segments(rid)
    roles = lib.roles(res.sha256)
    conf = {s["label"]: s["role_confidence"] for s in lib.db.speakers(rid)}
    print(f"\n{audio.name}  ({rec['duration_s'] / 60:.1f} min; ran: {', '.join(res.ran) or 'nothing, cached'})")
    print(f"  {'voice':11} {'truth speaker':24} {'truth role':10} {'found':10} {'conf':>5} {'speech s':>8}")
    right = total = right_s = total_s = 0.0
    for lab, (spk, talk) in sorted(voice_truth(segs, truth).items(), key=lambda kv: int(kv[0].split("_")[1])):
        want, got = truth_role(truth, spk), roles.get(lab, "?")
        ok = want == got
        right, total, right_s, total_s = right + ok, total + 1, right_s + ok * talk, total_s + talk
        print(f"  {lab:11} {spk:24} {want:10} {got:10} {conf.get(lab) or 0:5.2f} {talk:8.1f}{'' if ok else '  <- wrong'}")
    print(f"  role accuracy: {right:.0f}/{total:.0f} voices ({right / max(total, 1):.2f}), "
          f"{right_s / max(total_s, 1e-9):.3f} of speaking time")
    sections = lib.sections(res.sha256)
    print("  sections: " + ", ".join(f"{s.kind} {clock(s.start_s)}-{clock(s.end_s)} ({s.confidence:.2f})"
                                    for s in sections))
    for s in truth.get("sections") or []:
        print(f"  truth section {s['name']}: {s['start_s']:.1f}-{s['end_s']:.1f} s")
    t0, t1 = truth_consultation(truth)
    cons = [s for s in sections if s.kind == "consultation"]
    if cons:
        a, b = min(s.start_s for s in cons), max(s.end_s for s in cons)
        print(f"  consultation: found {a:.1f}-{b:.1f} s, truth {t0:.1f}-{t1:.1f} s "
              f"(start {a - t0:+.1f} s, end {b - t1:+.1f} s; {len(cons)} section(s))")
    else:
        print(f"  consultation: NOT FOUND (truth {t0:.1f}-{t1:.1f} s)")
    coughs = [i for i in truth_items(truth) if i["kind"] == "cough"]
    events = [e for e in lib.event_speakers(res.sha256) if e["label"] == "cough"]
    hits = Counter()
    for e in events:
        match = max(coughs, key=lambda c: overlap(e["start_s"], e["end_s"], c["start_s"], c["end_s"]), default=None)
        if match and overlap(e["start_s"], e["end_s"], match["start_s"], match["end_s"]) > 0:
            want = truth_role(truth, match["speaker"] or "")
            hits["right" if want == (e["role"] or "other") else "wrong"] += 1
        else:
            hits["not a truth cough"] += 1
    patient_truth = sum(truth_role(truth, c["speaker"] or "") == "patient" for c in coughs)
    print(f"  coughs: {len(events)} detected, attribution right {hits['right']}, wrong {hits['wrong']}, "
          f"unmatched {hits['not a truth cough']}; patient coughs found {sum(e['role'] == 'patient' for e in events)}"
          f", truth {patient_truth}")
    stage = next((s for s in lib.db.stages(rid) if s["stage"] == "findings"), None)
    if stage:
        per_hour = stage["seconds"] / (rec["duration_s"] / 3600)
        print(f"  findings stage: {stage['seconds']:.3f} s ({per_hour:.2f} s per hour of audio); "
              f"{len(lib.findings(res.sha256))} findings")
    return {"voices": total, "right": right}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pairs", nargs="*", metavar="AUDIO TRUTH", help="audio and truth file, in pairs")
    ap.add_argument("--library", help="library folder to index into / reuse (default: a new temporary one)")
    ap.add_argument("--asr", default="base")
    ap.add_argument("--stored", action="store_true", help="read the library as it is; index nothing")
    ap.add_argument("--bank", action="store_true", help="also the two bank consultations")
    args = ap.parse_args()
    if len(args.pairs) % 2:
        ap.error("give AUDIO TRUTH.json in pairs")
    pairs = [(Path(a), Path(t)) for a, t in zip(args.pairs[::2], args.pairs[1::2], strict=True)] or (
        DEFAULTS + BANK if args.bank else DEFAULTS)
    from harp_desktop.api import Library

    with Library(args.library or tempfile.mkdtemp(prefix="harp-findings-")) as lib:
        print(f"library {lib.folder}, ASR {args.asr}")
        done = []
        for a, t in pairs:
            if not a.exists():
                continue
            if args.stored and lib.db.find_recording(str(a.resolve())) is None:
                print(f"\n{a.name}: not in this library (--stored indexes nothing)")
                continue
            done.append(report(lib, a, t, args.asr, args.stored))
    right, total = sum(d["right"] for d in done), sum(d["voices"] for d in done)
    print(f"\nall recordings: roles right for {right:.0f}/{total:.0f} voices")


if __name__ == "__main__":
    main()
