"""Export speed on synthetic transcripts (segment rows written directly, one turn every 4 s),
and a real rationale report of the bundled sample (indexed, asked without an LLM).

    .venv/bin/python benchmarks/export_bench.py [--hours 1 3 10] [--png docs/report_page1.png]

--png renders the sample report's first page with pdftoppm (poppler-utils) for the README.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from harp_desktop.api import IndexOptions, Library  # noqa: E402

SAMPLE = REPO / "resources" / "samples" / "consultation.flac"
QUESTIONS = ["Does the patient report chest pain?", "How many times does the patient cough?",
             "When does the doctor ask about shortness of breath?"]


def synthetic(lib: Library, hours: float) -> dict:
    n = int(hours * 3600 // 4)
    with lib.db.transaction() as db:
        rid = lib.db.add_recording(f"{int(hours * 100):064x}", Path(f"/synthetic/{hours:g}h.flac"),
                                   {"duration_s": hours * 3600})
        spk = [db["speakers"].insert({"recording_id": rid, "idx": i, "label": f"SPEAKER_{i + 1}", "name": name,
                                      "total_s": 0}).last_pk for i, name in enumerate(["Dr Ψαράς", "Анна"])]
        db["segments"].insert_all({"recording_id": rid, "idx": i, "start_s": 4.0 * i, "end_s": 4.0 * i + 3.5,
                                   "speaker_id": spk[i % 2], "text": f"Turn {i}: how is the cough today, any fever?"}
                                  for i in range(n))
    return lib.db.find_recording(f"{int(hours * 100):064x}")


def bench_transcripts(hours: list[float], out: Path) -> None:
    print(f"{'hours':>5} {'segments':>8} " + " ".join(f"{f:>8}" for f in ("txt s", "srt s", "vtt s", "json s", "pdf s"))
          + f" {'pdf pages':>9} {'pdf MB':>7}")
    for h in hours:
        lib = Library(out / f"lib-{h:g}")
        rec = synthetic(lib, h)
        times, row = [], {}
        for fmt in ("txt", "srt", "vtt", "json", "pdf"):
            t0 = time.perf_counter()
            row = lib.export(rec["sha256"], out / f"{h:g}h.{fmt}")
            times.append(time.perf_counter() - t0)
        n = row["detail"]["segments"]
        print(f"{h:>5g} {n:>8} " + " ".join(f"{t:>8.2f}" for t in times)
              + f" {row['detail']['pages']:>9} {row['bytes'] / 1e6:>7.2f}")
        lib.close()


def bench_sample(out: Path, png: Path | None) -> None:
    lib = Library(out / "sample-lib")
    t0 = time.perf_counter()
    lib.index(SAMPLE, IndexOptions(asr_profile="base"))
    t_index = time.perf_counter() - t0
    ref = str(SAMPLE)
    # Names a clinician would give (accented, to show the report font), and the sample's
    # annotated coughs as ground truth for the cough question.
    for label, name in (("SPEAKER_1", "Receptionist"), ("SPEAKER_2", "Dr Šimonová"), ("SPEAKER_3", "Mrs Patel")):
        lib.rename_speaker(ref, label, name)
    truth = json.loads(SAMPLE.with_suffix(".truth.json").read_text(encoding="utf-8"))
    qid = lib.add_question(ref, QUESTIONS[1], query_id="sample-cough-count")
    for item in truth["items"]:
        if item["kind"] == "cough":
            lib.add_span(qid, item["start_s"], item["end_s"], "truth file", "cough")
    t0 = time.perf_counter()
    for q in QUESTIONS:
        lib.ask(ref, q)
    t_ask = time.perf_counter() - t0
    t0 = time.perf_counter()
    row = lib.report(ref, out / "sample_report.pdf", questions=QUESTIONS)
    t_report = time.perf_counter() - t0
    lib.report(ref, out / "sample_report.md", questions=QUESTIONS)
    print(f"\n{'sample':<18} {'index s':>8} {'ask 3 s':>8} {'report s':>9} {'pages':>6} {'KB':>6}")
    print(f"{SAMPLE.name:<18} {t_index:>8.1f} {t_ask:>8.2f} {t_report:>9.2f} {row['detail']['pages']:>6} "
          f"{row['bytes'] / 1e3:>6.0f}")
    print(f"report: {out / 'sample_report.pdf'} (and .md)")
    if png:
        if not shutil.which("pdftoppm"):
            sys.exit("pdftoppm not found (apt-get install poppler-utils)")
        subprocess.run(["pdftoppm", "-r", "100", "-png", "-f", "1", "-l", "1", "-singlefile",
                        str(out / "sample_report.pdf"), str(png.with_suffix(""))], check=True)
        print(f"page 1: {png}")
    lib.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hours", type=float, nargs="*", default=[1, 3, 10])
    ap.add_argument("--png", type=Path, help="write the sample report's first page here")
    ap.add_argument("--keep", type=Path, help="write outputs here instead of a temporary folder")
    args = ap.parse_args()
    out = args.keep or Path(tempfile.mkdtemp(prefix="harp-export-bench-"))
    out.mkdir(parents=True, exist_ok=True)
    try:
        bench_transcripts(args.hours, out)
        bench_sample(out, args.png)
    finally:
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
