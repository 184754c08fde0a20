"""`harp findings REC [--json]`: the terminal shell over Library.findings / roles / sections
(`harp speaker --role` lives in cli/speaker.py with the rename)."""

from __future__ import annotations

import argparse
import json

# The window's panel and the report use the same words (findings/display.py).
from harp_desktop.cli.common import add_library_option, open_library
from harp_desktop.findings.display import KIND_TITLES, citation, concept_text, grouped, said_by, status_word
from harp_desktop.retrieval.localize import format_clock as clock

JSON_FIELDS = ("concept", "category", "kind", "status", "speaker", "role", "start_s", "end_s", "text", "value")


def findings_json(lib, ref: str) -> dict:
    """The one object `--json` prints. Rejected findings are left out: an annotator said they are wrong."""
    rec = lib.recording(ref)
    found = lib.findings(ref)
    return {
        "recording": {"path": rec["path"], "sha256": rec["sha256"], "name": rec["name"],
                      "duration_s": rec["duration_s"]},
        "roles": lib.roles(ref),
        "findings": [{k: (round(getattr(f, k), 3) if k in ("start_s", "end_s") else getattr(f, k))
                      for k in JSON_FIELDS} for f in found if not f.rejected],
    }


def _line(f, names: dict[str, str]) -> str:
    flags = (" (REJECTED by an annotator)" if f.rejected else "") + (" (annotator)" if f.source == "annotator" else "")
    text = " ".join(f.text.split())
    text = text if len(text) <= 100 else text[:97] + "..."
    return (f"  {citation(f)} {concept_text(f)} ({f.category}): {status_word(f.status)}, said by "
            f"{said_by(f, names)}, {f.speaker or 'no speaker'}{flags}\n           \"{text}\"")


def cmd_findings(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        if args.json:
            print(json.dumps(findings_json(lib, args.recording), ensure_ascii=False))
            return 0
        rec = lib.recording(args.recording)
        found, roles, sections = lib.findings(rec["sha256"]), lib.roles(rec["sha256"]), lib.sections(rec["sha256"])
        speakers = lib.db.speakers(rec["id"])
    names = {s["label"]: s["name"] or s["label"] for s in speakers}
    print(f"{rec['name']}  ({clock(rec['duration_s'])}, sha256 {rec['sha256'][:12]})")
    confidence = {s["label"]: s["role_confidence"] for s in speakers}
    print("roles: " + (", ".join(f"{k}{f' ({names[k]})' if names.get(k, k) != k else ''} {v}"
                                 + (f" ({confidence[k]:.2f})" if confidence.get(k) is not None else "")
                                 for k, v in roles.items()) or "none"))
    print("sections: " + (", ".join(f"{s.kind.replace('_', ' ')} {clock(s.start_s)}-{clock(s.end_s)}"
                                    for s in sections) or "none"))
    if not found:
        hint = "" if any(s.kind == "consultation" for s in sections) else \
            " (no consultation was found; findings come from consultations only)"
        print(f"no findings{hint}")
        return 0
    for kind, group in grouped(found):
        print(f"\n{KIND_TITLES.get(kind, kind)}")
        for f in group:
            print(_line(f, names))
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("findings", help="clinical findings of a recording: status, who said it, when")
    p.add_argument("recording", metavar="RECORDING", help="path or sha256 prefix")
    add_library_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_findings)
