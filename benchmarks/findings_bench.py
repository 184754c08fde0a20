"""Findings against a hand-made truth: precision and recall of (concept, status) pairs.

    .venv/bin/python benchmarks/findings_bench.py [--truth-file TRUTH.json] [--findings FINDINGS.json] [-v]
    .venv/bin/python benchmarks/findings_bench.py --all     # dev, both bank consultations, the held-out and new scripts
    .venv/bin/python benchmarks/findings_bench.py --library DIR [AUDIO ...]   # stored findings of indexed recordings

The extractor reads the script's own turns of the consultation section (text, speaker and role
from the recording's truth file), so this measures extraction and status, not ASR or roles.
The true findings (benchmarks/findings_truth/<recording>.json) were written by hand from the
script text. Pairs are compared as sets: a fact said twice counts once.

``--library`` instead reads what the index stored for each recording (ASR words, diarised
voices, found roles and sections: the whole chain), default the three consultations; it also
counts the stored findings that lie outside the truth's consultation/phone sections (a
waiting-room reader's "fever") and, per role, who the findings were said by. With
``--reextract`` the current extractor runs again on the stored ASR turns, roles and sections
(nothing is written): a change to the extractor or the vocabulary is measured on ASR text
without re-indexing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from harp_desktop.findings.extract import extract  # noqa: E402
from harp_desktop.findings.model import Turn  # noqa: E402

DEV = Path("/work/shared/data/dev/dev_long_01.truth.json")
AUDIO = [DEV.with_name("dev_long_01.flac"), REPO / "benchmarks/bank/audio/bank_rec_01.flac",
         REPO / "benchmarks/bank/audio/bank_rec_02.flac"]
CLINICAL_SECTIONS = ("consultation", "phone_call")
ALL = [DEV, REPO / "benchmarks/bank/audio/bank_rec_01.truth.json", REPO / "benchmarks/bank/audio/bank_rec_02.truth.json",
       REPO / "benchmarks/findings_truth/heldout_consult_01.script.json",
       # Text-only consultations written with their truth before any run: the rash one was used
       # while fixing rules, the headache one never (the check set). benchmarks/findings_tts.py speaks them.
       REPO / "benchmarks/findings_truth/new_rash_01.script.json", REPO / "benchmarks/findings_truth/new_headache_01.script.json"]
_ROLE = {"doctor": "clinician", "clinician": "clinician", "patient": "patient"}


def consultation_turns(truth: dict) -> list[Turn]:
    """Speech turns inside the recording's consultation section(s), in time order."""
    sections = [s for s in truth["sections"] if s["name"].startswith("consultation")]
    turns = []
    for e in sorted(truth["events"], key=lambda e: e["start_s"]):
        if not e.get("text") or "speech" not in e["kind"]:
            continue
        if any(s["start_s"] <= e["start_s"] < s["end_s"] for s in sections):
            turns.append(Turn(len(turns), e["start_s"], e["end_s"], e["speaker"], _ROLE.get(e.get("role") or "", "other"), e["text"]))
    return turns


def score(found: set[tuple[str, str]], true: set[tuple[str, str]]) -> tuple[float, float]:
    tp = len(found & true)
    return (tp / len(found) if found else 1.0), (tp / len(true) if true else 1.0)


def run(truth_file: Path, findings_file: Path | None, verbose: bool) -> tuple[float, float]:
    truth = json.loads(truth_file.read_text())
    name = Path(truth["recording"]).stem
    true_file = findings_file or REPO / "benchmarks" / "findings_truth" / f"{name}.json"
    true = {(f["concept"], f["status"]) for f in json.loads(true_file.read_text())["findings"]}
    turns = consultation_turns(truth)
    t0 = time.perf_counter()
    findings = extract(turns)
    dt = time.perf_counter() - t0
    if verbose:
        for f in findings:
            print(f"  {f.start_s:7.1f} {f.role or '-':9} {f.kind:11} {f.status:12} {f.concept}" + (f" [{f.value}]" if f.value else ""))
    found = {(f.concept, f.status) for f in findings}
    p, r = score(found, true)
    print(f"{name}: {len(turns)} turns, {len(findings)} findings, {len(found)} distinct (concept, status) pairs, truth {len(true)}")
    print(f"precision {p:.3f}  recall {r:.3f}  (extract: {dt * 1000:.1f} ms)")
    for label, pairs in (("false", found - true), ("missed", true - found)):
        for c, st in sorted(pairs):
            print(f"  {label}: {c} / {st}")
    return p, r


def report(name: str, found: set, true: set, extra: str = "") -> tuple[float, float]:
    p, r = score(found, true)
    print(f"{name}: {len(found)} distinct (concept, status) pairs, truth {len(true)}{extra}")
    print(f"precision {p:.3f}  recall {r:.3f}")
    for label, pairs in (("false", found - true), ("missed", true - found)):
        for c, st in sorted(pairs):
            print(f"  {label}: {c} / {st}")
    return p, r


def reextracted(lib, audio: Path) -> list:
    """The current extractor on the stored ASR turns, roles and sections (nothing written)."""
    from harp_desktop.findings import service, store

    rid = lib.recording(audio)["id"]
    segs = service._segments(lib.db, rid)
    parts = service.clinical_turns(segs, store.sections(lib.db, rid), service.roles(lib.db, rid))
    return service._extract(extract, parts)


def run_library(lib, audio: Path, verbose: bool, again: bool = False) -> tuple[float, float]:
    """The findings the index stored for ``audio`` (or, ``again``, extracted anew from its stored
    turns) against its hand-made truth."""
    truth = json.loads(audio.with_suffix(".truth.json").read_text())
    true = {(f["concept"], f["status"]) for f in
            json.loads((REPO / "benchmarks" / "findings_truth" / f"{audio.stem}.json").read_text())["findings"]}
    clinical = [(s["start_s"], s["end_s"]) for s in truth["sections"] if s["name"].startswith(CLINICAL_SECTIONS)]
    findings = reextracted(lib, audio) if again else [f for f in lib.findings(audio) if not f.rejected]
    outside = [f for f in findings if not any(a <= (f.start_s + f.end_s) / 2 <= b for a, b in clinical)]
    if verbose:
        for f in findings:
            print(f"  {f.start_s:7.1f} {f.speaker or '-':10} {f.role or '-':9} {f.kind:11} {f.status:12} {f.concept}"
                  + (f" [{f.value}]" if f.value else "") + (f"   <- outside the truth's sections: {f.text[:60]!r}"
                                                           if f in outside else ""))
    by_role = {}
    for f in findings:
        by_role[f.role or "-"] = by_role.get(f.role or "-", 0) + 1
    extra = (f"; {len(findings)} findings ({', '.join(f'{k} {v}' for k, v in sorted(by_role.items()))}), "
             f"{len(outside)} outside the truth's consultation/phone sections")
    return report(audio.stem, {(f.concept, f.status) for f in findings}, true, extra)


def main_library(folder: str, audios: list[Path], verbose: bool, again: bool = False) -> int:
    from harp_desktop.api import Library

    with Library(folder) as lib:
        rows = [(a.stem, *run_library(lib, a, verbose, again)) for a in audios]
    label = "re-extracted from stored ASR" if again else "stored findings"
    print(f"\n{'recording (' + label + ')':40}  precision  recall")
    for name, p, r in rows:
        print(f"{name:40} {p:9.3f} {r:7.3f}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--truth-file", type=Path, default=DEV, help="the recording's truth file (sections, events)")
    ap.add_argument("--findings", type=Path, help="hand-made true findings (default benchmarks/findings_truth/<recording>.json)")
    ap.add_argument("--all", action="store_true", help="every consultation with a hand-made truth")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every finding")
    ap.add_argument("--library", help="score the findings stored in this library (indexed recordings) instead")
    ap.add_argument("--reextract", action="store_true",
                    help="with --library: run the current extractor on the stored turns instead of reading findings")
    ap.add_argument("audio", nargs="*", type=Path, help="with --library: the recordings (default the three)")
    args = ap.parse_args()
    if args.library:
        return main_library(args.library, args.audio or AUDIO, args.verbose, args.reextract)
    if not args.all:
        run(args.truth_file, args.findings, args.verbose)
        return 0
    rows = [(f.name, *run(f, None, args.verbose)) for f in ALL if f.exists()]
    print("\nrecording                                precision  recall")
    for name, p, r in rows:
        print(f"{name:40} {p:9.3f} {r:7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
