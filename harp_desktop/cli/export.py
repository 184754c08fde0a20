"""`harp report`, `harp export` and `harp audit`: the terminal shell over Library.report /
export / exports (registered in harp_desktop/cli/__init__.py)."""

from __future__ import annotations

import argparse
import json

from harp_desktop.cli.common import add_library_option, open_library
from harp_desktop.export.exporter import REPORT_FORMATS, TRANSCRIPT_FORMATS


def cmd_report(args: argparse.Namespace) -> int:
    state: dict = {}

    def ask(question: str) -> dict:
        # The language model is loaded only if a question has no stored answer (as `harp ask` chooses it).
        if "llm" not in state:
            state["llm"] = None
            if not args.no_llm:
                from harp_desktop.agent.llm import load_llm

                state["llm"] = load_llm(args.llm)
        return lib.ask(args.recording, question, llm=state["llm"]).to_json()

    with open_library(args) as lib:
        row = lib.report(args.recording, args.output, questions=args.question or [],
                         all_answers=args.answers == "all", ask=ask, fmt=args.format,
                         with_transcript=args.transcript)
    if args.json:
        print(json.dumps(row, ensure_ascii=False))
        return 0
    for q in row["asked"]:
        print(f"asked: {q}")
    pages = row["detail"].get("pages")
    n = len(row["detail"]["questions"])
    print(f"{row['path']}: report of {n} answer{'s' if n != 1 else ''}"
          + (f", {pages} page{'s' if pages != 1 else ''}" if pages else "") + f"; sha256 {row['sha256'][:16]}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        row = lib.export(args.recording, args.output, args.format)
    if args.json:
        print(json.dumps(row, ensure_ascii=False))
    else:
        print(f"{row['path']}: {row['kind']}, {row['detail']['segments']} segments, {row['bytes']} bytes; "
              f"sha256 {row['sha256'][:16]}")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    from harp_desktop.export.audit import describe

    with open_library(args) as lib:
        rows = lib.exports(args.recording)
    if args.json:
        print(json.dumps({"exports": rows}, ensure_ascii=False))
        return 0
    if not rows:
        print("no exports recorded" + (f" for {args.recording}" if args.recording else ""))
        return 0
    for r in rows:
        print(f"{r['created_at']}  {r['kind']:<15} {r['status']:<8} {r['recording_name'] or '(removed recording)'}")
        print(f"{'':22}{r['path']}")
        print(f"{'':22}sha256 {r['sha256']}, {r['bytes']} bytes" + (f"; {describe(r)}" if describe(r) else ""))
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="write a PDF (or Markdown) rationale report of answers about a recording")
    p.add_argument("recording", metavar="RECORDING", help="path or sha256 prefix")
    p.add_argument("--question", action="append", metavar="TEXT",
                   help="a question to report (repeatable); asked now if it has no stored answer")
    p.add_argument("--answers", choices=["all"], help="'all': every stored answer for this recording")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="report.pdf or report.md")
    p.add_argument("--format", choices=list(REPORT_FORMATS), help="default: from the output's suffix")
    p.add_argument("--transcript", action="store_true", help="append the full transcript")
    p.add_argument("--no-llm", action="store_true", help="ask missing questions without a language model")
    p.add_argument("--llm", default="qwen1.5b", help="qwen1.5b (default), qwen0.5b or smollm2")
    add_library_option(p)
    p.add_argument("--json", action="store_true", help="print the audit row as one JSON object")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("export", help="export a transcript (txt, srt, vtt, pdf) or the whole index (json)")
    p.add_argument("recording", metavar="RECORDING", help="path or sha256 prefix")
    p.add_argument("--format", choices=list(TRANSCRIPT_FORMATS), help="default: from the output's suffix")
    p.add_argument("-o", "--output", required=True, metavar="FILE")
    add_library_option(p)
    p.add_argument("--json", action="store_true", help="print the audit row as one JSON object")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("audit", help="list recorded exports (what, when, where, checksum, file status)")
    p.add_argument("recording", nargs="?", metavar="RECORDING", help="only this recording's exports")
    add_library_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_audit)
