"""`harp report`, `harp export`, `harp audit` end to end on a copy of the indexed library
(questions asked with --no-llm), and their one-line errors."""

from __future__ import annotations

import json

from harp_desktop.cli import main
from tests.conftest import copy_library
from tests.export.conftest import pdf_pages


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_report_export_audit(indexed, tmp_path, capsys):
    lib0, res = indexed
    copy_library(lib0.folder, tmp_path / "lib").close()
    lib = ["--library", tmp_path / "lib"]
    sha = res.sha256[:10]
    q = "Is anyone coughing?"
    code, out, err = run(capsys, "report", sha, "--question", q, "--no-llm", "-o", tmp_path / "r.pdf", *lib)
    assert code == 0, err
    assert f"asked: {q}" in out and "report of 1 answer, " in out
    text = " ".join(pdf_pages(tmp_path / "r.pdf"))
    assert q in text and "Answer: " in text
    code, out, _ = run(capsys, "report", sha, "--question", q, "-o", tmp_path / "again.pdf", *lib)  # stored: no LLM
    assert code == 0 and "asked:" not in out
    code, out, _ = run(capsys, "report", sha, "--answers", "all", "--transcript", "-o", tmp_path / "all.md", *lib)
    assert code == 0 and "## Transcript" in (tmp_path / "all.md").read_text(encoding="utf-8")
    code, out, _ = run(capsys, "export", sha, "--format", "srt", "-o", tmp_path / "subs.txt", *lib)
    assert code == 0 and (tmp_path / "subs.txt").read_text(encoding="utf-8").startswith("1\n00:00:")
    code, out, _ = run(capsys, "export", sha, "-o", tmp_path / "t.vtt", "--json", *lib)
    assert code == 0 and json.loads(out)["kind"] == "transcript-vtt"

    (tmp_path / "again.pdf").unlink()
    code, out, _ = run(capsys, "audit", "--json", *lib)
    rows = json.loads(out)["exports"]
    assert [r["kind"] for r in rows] == ["transcript-vtt", "transcript-srt", "report-md", "report-pdf", "report-pdf"]
    assert [r["status"] for r in rows] == ["ok", "ok", "ok", "missing", "ok"]
    code, out, _ = run(capsys, "audit", sha, *lib)
    assert code == 0 and "missing" in out and str(tmp_path / "r.pdf") in out and "1 question: Is anyone" in out


def test_one_line_errors(indexed, tmp_path, capsys):
    lib0, res = indexed
    copy_library(lib0.folder, tmp_path / "lib").close()
    lib = ["--library", tmp_path / "lib"]
    sha = res.sha256[:10]
    cases = [
        (("report", sha, "-o", tmp_path / "r.pdf"), "nothing to report"),
        (("report", sha, "--question", "x", "--no-llm", "-o", tmp_path / "no" / "r.pdf"), "does not exist"),
        (("report", sha, "--answers", "all", "-o", tmp_path / "r.docx"), "unknown format 'docx'"),
        (("export", sha, "-o", tmp_path / "t.doc"), "unknown format 'doc'"),
        (("export", "ffffff", "-o", tmp_path / "t.txt"), "no recording 'ffffff'"),
    ]
    for argv, message in cases:
        code, out, err = run(capsys, *argv, *lib)
        assert code == 1 and out == "" and message in err and len(err.strip().splitlines()) == 1, (argv, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lib"]
    code, out, _ = run(capsys, "audit", *lib)
    assert code == 0 and out.strip() == "no exports recorded"
