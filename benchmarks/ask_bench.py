"""Ask quality and latency on a question set (e.g. ../shared/data/dev/queries.jsonl), over
several retrieval modes x fusions in one run. The scoring is `harp eval`'s
(harp_desktop.evaluate.runner): this script only loops over configurations.

    .venv/bin/python benchmarks/ask_bench.py QUERIES.jsonl AUDIO_DIR [--no-llm] [--llm qwen1.5b]
        [--modes hybrid,keyword,vector,oracle] [--fusions rrf,harp,calibrated] [--library DIR] [--show-failures]

Prints evidence HitRate, answer accuracy and citation validity per query type for each
configuration, median / p95 latency per stage, and a summary table (HARP's Table II).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harp_desktop.api import IndexOptions, Library  # noqa: E402
from harp_desktop.evaluate.runner import EvalOptions, table  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("queries")
    ap.add_argument("audio_dir")
    ap.add_argument("--library")
    ap.add_argument("--no-llm", action="store_true")
    ap.add_argument("--llm", default="qwen1.5b")
    ap.add_argument("--modes", default="hybrid", help="comma-separated: hybrid, keyword, vector, oracle")
    ap.add_argument("--fusions", default="rrf")
    ap.add_argument("--single-pass", action="store_true")
    ap.add_argument("--show-failures", action="store_true")
    args = ap.parse_args()
    lib = Library(args.library or tempfile.mkdtemp(prefix="harp-ask-bench-"))
    cases, recordings = lib.file_cases(args.queries, args.audio_dir)
    llm = None
    if not args.no_llm:
        from harp_desktop.agent.llm import load_llm

        llm = load_llm(args.llm)
    for rec in recordings:
        lib.index(rec, IndexOptions())
    summary = []
    for mode in args.modes.split(","):
        for fusion in args.fusions.split(",") if mode != "oracle" else ["-"]:
            opts = EvalOptions("hybrid" if mode == "oracle" else mode, fusion if fusion != "-" else "rrf",
                               mode == "oracle", not args.single_pass)
            report = lib.evaluate(cases, opts, llm)
            o = report.overall
            print("\n" + table(report, f"== retrieval {mode}, fusion {fusion}, {o['llm'] or 'no LLM'}"))
            print("latency (s): " + ", ".join(f"{k} median {v['median']:.3f} p95 {v['p95']:.3f}"
                                              for k, v in o["latency_by_stage_s"].items()))
            summary.append((mode, fusion, o))
            if args.show_failures:
                for r in report.queries:
                    if r["correct"] is False or (r["hit_rate"] is not None and r["hit_rate"] < 1):
                        print("  FAIL", r["query_id"], r["query_type"], r["query"][:60], str(r["truth"])[:30],
                              r["answer"][:40], r["hit_rate"])
    print(f"\n{'retrieval':<10}{'fusion':<12}{'HitRate':>8}{'Acc':>7}{'CitVal':>8}{'lat med':>9}{'lat p95':>9}")
    for mode, fusion, o in summary:
        f = [f"{v:.2f}" if v is not None else "-" for v in (o["hit_rate"], o["answer_accuracy"],
                                                            o["citation_validity"])]
        print(f"{mode:<10}{fusion:<12}{f[0]:>8}{f[1]:>7}{f[2]:>8}{o['latency_median_s']:>9.2f}{o['latency_p95_s']:>9.2f}")
    lib.close()


if __name__ == "__main__":
    main()
