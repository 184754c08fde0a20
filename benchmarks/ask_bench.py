"""Ask quality and latency on a question set (e.g. ../shared/data/dev/queries.jsonl).

    .venv/bin/python benchmarks/ask_bench.py QUERIES.jsonl AUDIO_DIR [--no-llm] [--llm qwen1.5b]
        [--modes hybrid,keyword,vector] [--fusions rrf,harp,calibrated] [--library DIR] [--show-failures]

Prints evidence HitRate, answer accuracy and citation validity per query type for each
retrieval mode x fusion, and median / p95 latency per stage.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harp_desktop.api import IndexOptions, Library  # noqa: E402
from harp_desktop.evaluate.score import answer_correct, citation_validity, hit_rate  # noqa: E402


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))] if s else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("queries")
    ap.add_argument("audio_dir")
    ap.add_argument("--library")
    ap.add_argument("--no-llm", action="store_true")
    ap.add_argument("--llm", default="qwen1.5b")
    ap.add_argument("--modes", default="hybrid")
    ap.add_argument("--fusions", default="rrf")
    ap.add_argument("--single-pass", action="store_true")
    ap.add_argument("--show-failures", action="store_true")
    args = ap.parse_args()
    queries = [json.loads(line) for line in Path(args.queries).read_text().splitlines() if line.strip()]
    lib = Library(args.library or tempfile.mkdtemp(prefix="harp-ask-bench-"))
    llm = None
    if not args.no_llm:
        from harp_desktop.agent.llm import load_llm

        llm = load_llm(args.llm)
    for rec in {q["recording"] for q in queries}:
        lib.index(Path(args.audio_dir) / rec, IndexOptions())
    base = Path(args.audio_dir)
    for mode in args.modes.split(","):
        for fusion in args.fusions.split(","):
            by_type: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
            lat: dict[str, list[float]] = defaultdict(list)
            failures = []
            for q in queries:
                cue = base / q["cue_audio"] if q.get("cue_audio") else None
                a = lib.ask(base / q["recording"], q["query"], cue, llm=llm, retrieval=mode, fusion=fusion,
                            two_pass=not args.single_pass)
                spans = [(e.start_s, e.end_s) for e in a.evidence]
                hr = hit_rate([tuple(s) for s in q["evidence"]], spans)
                ok = answer_correct(q["answer_kind"], q["answer"], a.answer, a.rationale)
                cv = citation_validity(a.citations, spans)
                row = by_type[q["query_type"]]
                if hr is not None:
                    row["hit"].append(hr)
                row["acc"].append(float(ok))
                if cv is not None:
                    row["cit"].append(cv)
                for k, v in a.timings_s.items():
                    lat[k].append(v)
                if not ok or (hr is not None and hr < 1):
                    failures.append((q["query_id"], q["query_type"], q["query"][:60], q["answer"][:30], a.answer[:40],
                                     hr))
            print(f"\n== retrieval {mode}, fusion {fusion}, {'no LLM' if llm is None else llm.name}")
            print(f"{'type':<18}{'n':>3}{'HitRate':>9}{'Acc':>7}{'CitVal':>8}")
            all_rows: dict[str, list] = defaultdict(list)
            for t in sorted(by_type):
                r = by_type[t]
                for k in r:
                    all_rows[k] += r[k]
                print(f"{t:<18}{len(r['acc']):>3}{_m(r['hit']):>9}{_m(r['acc']):>7}{_m(r['cit']):>8}")
            print(f"{'ALL':<18}{len(all_rows['acc']):>3}{_m(all_rows['hit']):>9}{_m(all_rows['acc']):>7}"
                  f"{_m(all_rows['cit']):>8}")
            print("latency (s): " + ", ".join(f"{k} median {statistics.median(v):.3f} p95 {pct(v, 0.95):.3f}"
                                              for k, v in lat.items()))
            if args.show_failures:
                for f in failures:
                    print("  FAIL", *f)


def _m(v: list[float]) -> str:
    return f"{sum(v) / len(v):.2f}" if v else "-"


if __name__ == "__main__":
    main()
