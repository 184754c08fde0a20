"""Ask quality and latency on a question set (e.g. ../shared/data/dev/queries.jsonl), over
several retrieval modes x fusions in one run. The scoring is `harp eval`'s
(harp_desktop.evaluate.runner): this script only loops over configurations.

    .venv/bin/python benchmarks/ask_bench.py QUERIES.jsonl AUDIO_DIR [--no-llm] [--llm qwen1.5b]
        [--modes hybrid,keyword,vector,oracle] [--fusions rrf,harp,calibrated] [--library DIR] [--show-failures]
    .venv/bin/python benchmarks/ask_bench.py benchmarks/bank/dev_half.jsonl benchmarks/bank/audio   # the bank

Recordings and clips are looked up in AUDIO_DIR, then beside the question file. Also prints
the same figures per operation of the typed question (plan.query.operation) and citation
precision (cited moments overlapping annotated truth).

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


def by_operation(report) -> str:
    """HitRate / accuracy / citation precision / latency per operation of the typed question."""
    from collections import defaultdict

    groups: dict[str, list[dict]] = defaultdict(list)
    for r in report.queries:
        groups[r.get("operation") or "untyped"].append(r)

    def mean(xs: list) -> str:
        xs = [x for x in xs if x is not None]
        return f"{sum(xs) / len(xs):.2f}" if xs else "-"

    lines = [f"{'operation':<14}{'n':>4}{'HitRate':>9}{'Acc':>7}{'CitPrec':>8}{'lat s':>8}"]
    for op, rows in sorted(groups.items()):
        lat = sorted(r["latency_s"] for r in rows)
        lines.append(f"{op:<14}{len(rows):>4}{mean([r['hit_rate'] for r in rows]):>9}"
                     f"{mean([None if r['correct'] is None else float(r['correct']) for r in rows]):>7}"
                     f"{mean([r.get('citation_precision') for r in rows]):>8}{lat[len(lat) // 2]:>8.2f}")
    return "\n".join(lines)


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
    ap.add_argument("--as-indexed", action="store_true",
                    help="ask the library as it is: index only recordings it lacks (no re-run of stages whose code changed)")
    args = ap.parse_args()
    lib = Library(args.library or tempfile.mkdtemp(prefix="harp-ask-bench-"))
    cases, recordings = lib.file_cases(args.queries, args.audio_dir)
    llm = None
    if not args.no_llm:
        from harp_desktop.agent.llm import load_llm

        llm = load_llm(args.llm)
    for rec in recordings:
        try:
            if args.as_indexed:
                lib.recording(rec)
                continue
        except LookupError:
            pass
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
            print(by_operation(report))
            if args.show_failures:
                for r in report.queries:
                    if r["correct"] is False or (r["hit_rate"] is not None and r["hit_rate"] < 1):
                        # FAIL: wrong answer; MISS: right answer, evidence not (fully) cited
                        print("  FAIL" if r["correct"] is False else "  MISS", r["query_id"], r["query_type"], r["query"][:60], str(r["truth"])[:30],
                              r["answer"][:40], r["hit_rate"])
    print(f"\n{'retrieval':<10}{'fusion':<12}{'HitRate':>8}{'Acc':>7}{'CitVal':>8}{'lat med':>9}{'lat p95':>9}")
    for mode, fusion, o in summary:
        f = [f"{v:.2f}" if v is not None else "-" for v in (o["hit_rate"], o["answer_accuracy"],
                                                            o["citation_validity"])]
        print(f"{mode:<10}{fusion:<12}{f[0]:>8}{f[1]:>7}{f[2]:>8}{o['latency_median_s']:>9.2f}{o['latency_p95_s']:>9.2f}")
    lib.close()


if __name__ == "__main__":
    main()
