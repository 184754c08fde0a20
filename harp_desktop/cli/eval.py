"""`harp eval` and `harp questions`: the terminal shell over the evaluation API (no logic of its own)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from harp_desktop import weights
from harp_desktop.cli.cluster import add_engine_options
from harp_desktop.cli.common import EXIT_ERROR, ProgressBar, add_library_option, open_library


def _load_llm(args):
    if args.no_llm:
        return None
    from harp_desktop.agent.llm import load_llm

    return load_llm(args.llm)  # LLMError is a RuntimeError: cli's main() prints it on one line


def cmd_eval(args: argparse.Namespace) -> int:
    from harp_desktop.api import AudioError, Cancelled, IndexOptions
    from harp_desktop.evaluate.runner import EvalOptions, table

    with open_library(args) as lib:
        cases, recordings = lib.file_cases(args.queries, args.audio_dir)  # bad input fails here, before any work
        llm = None if args.engine == "ray" else _load_llm(args)  # ray: each worker loads its own
        for rec in recordings:
            bar = ProgressBar(rec.name)
            try:
                lib.index(rec, IndexOptions(asr_profile=args.asr), bar)
            except (AudioError, Cancelled) as exc:
                bar.close()
                print(f"harp: error: {rec.name}: {exc or 'cancelled'}", file=sys.stderr)
                return EXIT_ERROR
            bar.close()
        tty = sys.stderr.isatty()

        def progress(i: int, n: int, row: dict) -> None:
            if tty:
                sys.stderr.write(f"\r[{i}/{n}] {row['query_id'][:24]:<24}".ljust(60))
                sys.stderr.flush()

        options = EvalOptions(args.retrieval, args.fusion, args.oracle, not args.single_pass)
        if args.engine == "ray":
            report = lib.evaluate_on_ray(cases, options, None if args.no_llm else args.llm, address=args.address,
                                         workers=args.workers, threads=args.threads, progress=progress)
        else:
            report = lib.evaluate(cases, options, llm, progress)
        if tty:
            sys.stderr.write("\r" + " " * 60 + "\r")
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return 0
    o = report.overall
    title = (f"retrieval {o['retrieval']}, fusion {o['fusion']}, {o['llm'] or 'no LLM'}: {o['n']} questions "
             f"from {Path(args.queries).name}")
    print(table(report, title))
    stages = ", ".join(f"{k} {v['median']:.3f}/{v['p95']:.3f}" for k, v in o["latency_by_stage_s"].items())
    print(f"latency s (median/p95): {stages}")
    if args.show_failures:
        for r in report.queries:
            if r["correct"] is False or (r["hit_rate"] is not None and r["hit_rate"] < 1):
                print(f"  {r['query_id']:<10} {r['query_type']:<18} hit {r['hit_rate']} want {r['truth']!r:.30} "
                      f"got {r['answer']!r:.40}")
    return 0


def cmd_questions(args: argparse.Namespace) -> int:
    if args.action != "agreement" and not args.path:
        raise ValueError(f"questions {args.action} needs a file")
    with open_library(args) as lib:
        if args.action == "agreement":
            rep = lib.agreement_report(args.recording)
            if args.json:
                print(json.dumps(rep, ensure_ascii=False))
                return 0
            for r in rep["pairs"]:
                print(f"{r['query_id']:<14} {r['annotator_a']} vs {r['annotator_b']}: span F1 {r['span_f1']:.2f}, "
                      f"time F1 {r['time_f1']:.2f} ({r['n_a']} / {r['n_b']} spans)")
            if rep["pairs"]:
                print(f"mean span F1 {rep['mean_span_f1']:.2f}, time F1 {rep['mean_time_f1']:.2f} over "
                      f"{len(rep['pairs'])} pair(s)")
            else:
                print("no question has two annotators yet")
        elif args.action == "import":
            ids = lib.import_questions(args.path, args.audio_dir, args.annotator or "reference")
            print(f"imported {len(ids)} question(s) from {args.path}")
        elif args.action == "import-spans":
            return _import_spans(lib, args)
        elif args.format == "jsonl":
            n = lib.export_questions(args.path, args.recording, args.annotator)
            print(f"wrote {n} question(s) to {args.path}")
        else:
            if not args.recording:
                raise ValueError(f"--format {args.format} needs --recording")
            out = lib.export_annotations(args.recording, args.format, args.path, args.tiers)
            print(f"wrote {out}")
    return 0


def _import_spans(lib, args) -> int:
    """`harp questions import-spans FILE --recording REC [--tier NAME]` (evaluate/span_import.py)."""
    if not args.recording:
        raise ValueError("questions import-spans needs --recording (path or sha256 prefix)")
    plan = lib.plan_span_import(args.recording, args.path, args.tier, args.annotator)
    for w in plan.warnings:
        print(f"harp: note: {w}", file=sys.stderr)
    if args.dry_run:
        print(f"would import {plan.summary()}")
        for tier, n in plan.tiers().items():
            print(f"  tier {tier!r}: {n} span(s)")
        return 0
    from harp_desktop.evaluate import span_import

    span_import.apply(lib, plan)  # one transaction: all of it or nothing
    print(f"imported {plan.summary()}")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="ask every question of a queries.jsonl file and score the answers")
    p.add_argument("queries", metavar="QUERIES.jsonl")
    p.add_argument("--audio-dir", help="folder of the recordings and cue clips (default: the file's folder)")
    p.add_argument("--retrieval", default="hybrid", choices=["hybrid", "keyword", "vector"])
    p.add_argument("--fusion", default="rrf", choices=["rrf", "harp", "calibrated"])
    p.add_argument("--oracle", action="store_true", help="give the ground-truth spans as the evidence (upper bound)")
    p.add_argument("--no-llm", action="store_true", help="rule planner + extractive answers; free text judged "
                                                         "by word overlap")
    p.add_argument("--llm", default="qwen1.5b", help="qwen1.5b (default), qwen0.5b or smollm2")
    p.add_argument("--single-pass", action="store_true", help="one reasoning pass instead of two (faster)")
    p.add_argument("--asr", default="base", choices=list(weights.ASR_PROFILES), help="ASR profile if indexing")
    p.add_argument("--show-failures", action="store_true", help="list wrong answers and missed spans")
    add_library_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_engine_options(p)  # --engine ray: questions answered on Ray workers
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("questions", help="import / export question sets and annotated evidence spans")
    p.add_argument("action", choices=["import", "export", "agreement", "import-spans"],
                   help="agreement: span-overlap F1 between annotators of the same question; import-spans: an "
                        "ELAN .eaf, Praat .TextGrid or Audacity label file as tiers of spans on --recording")
    p.add_argument("path", nargs="?", help="queries.jsonl or the span file to import, or the file to write")
    p.add_argument("--recording", help="export one recording's questions; import-spans: the recording the file "
                                       "annotates (path or sha256 prefix)")
    p.add_argument("--tier", help="import-spans: only this tier of an EAF / TextGrid (an Audacity file's one tier "
                                  "gets this name; default: the file's stem)")
    p.add_argument("--dry-run", action="store_true", help="import-spans: show what would be imported, change nothing")
    p.add_argument("--format", default="jsonl", choices=["jsonl", "audacity", "textgrid", "eaf"])
    p.add_argument("--tiers", default="annotator", choices=["annotator", "question"],
                   help="TextGrid / EAF: a tier per annotator or per question")
    p.add_argument("--annotator", help="import: name for the file's spans (default 'reference'; import-spans: as "
                                       "the file says, else 'reference'); export: whose spans (default: each "
                                       "question's first annotator)")
    p.add_argument("--audio-dir", help="import: where the file's recordings are (default: the file's folder)")
    add_library_option(p)
    p.add_argument("--json", action="store_true", help="agreement: print one JSON object")
    p.set_defaults(func=cmd_questions)
