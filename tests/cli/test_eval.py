import json
import shutil

import pytest

from harp_desktop.api import Library
from harp_desktop.cli import main
from tests.evaluate.test_runner import questions


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def setup(indexed, long_clip, tmp_path):
    """A copy of the indexed library and a queries.jsonl beside the recording."""
    shared, _ = indexed
    shared.db.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copytree(shared.folder, tmp_path / "lib")
    with Library(tmp_path / "lib") as copy:  # other tests may have left questions in the shared library
        copy.db.db.conn.execute("DELETE FROM questions")
    qfile = tmp_path / "queries.jsonl"
    qfile.write_text("".join(json.dumps(q) + "\n" for q in questions()), encoding="utf-8")
    return tmp_path / "lib", qfile, long_clip.parent


def test_eval_json_is_one_object(setup, capsys):
    lib, qfile, audio = setup
    code, out, err = run(capsys, "eval", qfile, "--audio-dir", audio, "--no-llm", "--asr", "tiny.en",
                         "--library", lib, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"overall", "by_type", "queries"} and len(data["queries"]) == 4
    for row in data["by_type"].values():
        assert {"n", "hit_rate", "answer_accuracy", "citation_validity"} <= set(row)
    assert data["overall"]["n"] == 4 and data["overall"]["answer_accuracy"] == 1.0


def test_eval_table_and_oracle(setup, capsys):
    lib, qfile, audio = setup
    code, out, _ = run(capsys, "eval", qfile, "--audio-dir", audio, "--no-llm", "--asr", "tiny.en",
                       "--library", lib, "--oracle", "--retrieval", "keyword")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("retrieval oracle") and lines[1].split()[:3] == ["type", "n", "HitRate"]
    all_row = next(line for line in lines if line.startswith("ALL")).split()
    assert all_row[1] == "4" and all_row[2] == "1.00"


def test_eval_bad_input_is_one_line(setup, tmp_path, capsys):
    lib, qfile, audio = setup
    bad = tmp_path / "bad.jsonl"
    bad.write_text(qfile.read_text().splitlines()[0] + "\n{broken\n")
    code, out, err = run(capsys, "eval", bad, "--audio-dir", audio, "--no-llm", "--library", lib)
    assert code == 1 and out == "" and err.count("\n") == 1 and "bad.jsonl line 2" in err
    code, _, err = run(capsys, "eval", qfile, "--audio-dir", tmp_path / "nowhere", "--no-llm", "--library", lib)
    assert code == 1 and "audio folder not found" in err and err.count("\n") == 1
    code, _, err = run(capsys, "eval", qfile, "--audio-dir", tmp_path, "--no-llm", "--library", lib)
    assert code == 1 and "long_clip.flac" in err and "--audio-dir" in err and err.count("\n") == 1


def test_questions_import_export(setup, tmp_path, capsys):
    lib, qfile, audio = setup
    code, out, _ = run(capsys, "questions", "import", qfile, "--audio-dir", audio, "--library", lib)
    assert code == 0 and "imported 4" in out
    out_file = tmp_path / "back.jsonl"
    code, out, _ = run(capsys, "questions", "export", out_file, "--library", lib)
    assert code == 0 and [json.loads(x) for x in out_file.read_text().splitlines()] == [
        {**q, "time_ref": None, "cue_audio": None, "notes": None} for q in questions()]
    code, _, err = run(capsys, "questions", "export", tmp_path / "x.eaf", "--format", "eaf", "--library", lib)
    assert code == 1 and "--recording" in err
    code, out, _ = run(capsys, "questions", "export", tmp_path / "x.eaf", "--format", "eaf", "--recording",
                       audio / "long_clip.flac", "--library", lib)
    assert code == 0 and (tmp_path / "x.eaf").exists()


def test_questions_agreement(setup, capsys):
    lib, qfile, audio = setup
    run(capsys, "questions", "import", qfile, "--audio-dir", audio, "--library", lib)
    code, out, _ = run(capsys, "questions", "agreement", "--library", lib)
    assert code == 0 and "no question has two annotators" in out
    with Library(lib) as library:
        first = next(q for q in library.questions() if q["query_id"] == "r-1")
        library.add_span(first["id"], 5.0, 8.0, "bob")
    code, out, _ = run(capsys, "questions", "agreement", "--library", lib, "--json")
    data = json.loads(out)
    assert data["pairs"] == [{"query_id": "r-1", "annotator_a": "reference", "annotator_b": "bob",
                              "span_f1": 1.0, "time_f1": data["pairs"][0]["time_f1"], "n_a": 1, "n_b": 1}]
    assert 0.8 < data["mean_time_f1"] < 1.0
    code, _, err = run(capsys, "questions", "import", "--library", lib)
    assert code == 1 and "needs a file" in err
