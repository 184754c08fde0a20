"""`harp index`, `show` and `speaker` in-process, and their one-line errors."""

import json

from tests.cli.helpers import run
from tests.conftest import DATA


def test_index_then_show_json_is_one_object(tmp_path, capsys):
    lib = tmp_path / "lib"
    code, out, _ = run(capsys, "index", DATA / "speech_two_speakers.flac", "--library", lib, "--asr", "tiny.en",
                       "--json")
    assert code == 0
    sha = json.loads(out)["recordings"][0]["sha256"]
    code, out, _ = run(capsys, "show", sha[:8], "--library", lib, "--json")
    data = json.loads(out)  # exactly one JSON document, nothing else on stdout
    assert set(data) >= {"recording", "speakers", "segments", "events"}
    assert data["recording"]["sha256"] == sha
    code, out, _ = run(capsys, "show", DATA / "speech_two_speakers.flac", "--library", lib)
    assert "SPEAKER_1" in out and "chest pain" in out.lower()
    code, out, _ = run(capsys, "speaker", sha[:8], "SPEAKER_1", "Dr Patel", "--library", lib)
    code, out, _ = run(capsys, "show", sha[:8], "--library", lib, "--json")
    assert {"id": "SPEAKER_1", "name": "Dr Patel"}.items() <= json.loads(out)["speakers"][0].items()


def test_bad_file_one_line_error_and_exit_code(tmp_path, capsys):
    bad = tmp_path / "notes.wav"
    bad.write_text("not audio")
    code, out, err = run(capsys, "index", bad, "--library", tmp_path / "lib")
    assert code == 1 and err.count("\n") == 1 and err.startswith("harp: error:")
    code, _, err = run(capsys, "show", "deadbeef", "--library", tmp_path / "lib")
    assert code == 1 and "no recording" in err
