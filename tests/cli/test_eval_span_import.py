"""`harp questions import-spans FILE --recording REC [--tier NAME] [--dry-run]`."""

from __future__ import annotations

from pathlib import Path

from harp_desktop.api import Library
from harp_desktop.cli import main

SHA = "cd" * 32


def test_import_spans_cli(tmp_path, capsys):
    lib_dir = tmp_path / "library"
    with Library(lib_dir) as lib, lib.db.transaction():
        lib.db.add_recording(SHA, Path("/r/visit.wav"), {"duration_s": 30.0, "format": "WAV", "sample_rate": 16000,
                                                         "channels": 1})
    labels = tmp_path / "coughs.txt"
    labels.write_text("1\t2\tcough\n3\t3\tpoint\n4\t5.5\t\n", encoding="utf-8")
    args = ["questions", "import-spans", str(labels), "--recording", SHA[:8], "--library", str(lib_dir)]
    assert main([*args, "--dry-run"]) == 0
    out = capsys.readouterr()
    assert "would import 2 span(s) in 1 tier(s) from coughs.txt onto visit.wav" in out.out
    assert "point label" in out.err
    assert main([*args, "--tier", "cough", "--annotator", "fay"]) == 0
    assert "imported 2 span(s)" in capsys.readouterr().out
    with Library(lib_dir) as lib:
        (q,) = lib.questions(SHA)
        assert q["query_id"] == "cough"
        assert [(r["annotator"], r["start_s"], r["label"]) for r in lib.spans(q["id"])] == [("fay", 1.0, "cough"),
                                                                                          ("fay", 4.0, None)]
    labels.write_text("1\t2\tcough\n20\t40\tlate\n")
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("harp: error: coughs.txt: tier 'coughs' interval 2") and "\n" not in err
    assert main(["questions", "import-spans", str(labels), "--library", str(lib_dir)]) == 1
    assert "needs --recording" in capsys.readouterr().err
