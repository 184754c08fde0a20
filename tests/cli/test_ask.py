"""`harp ask`: indexes first, one JSON object, and a missing model's one-line error."""

import json

from tests.cli.helpers import run
from tests.conftest import DATA


def test_ask_indexes_first_and_prints_one_json_object(tmp_path, capsys):
    lib = tmp_path / "lib"
    clip = DATA / "speech_two_speakers.flac"
    code, out, _ = run(capsys, "ask", clip, "Does the patient have chest pain?", "--no-llm", "--asr", "tiny.en",
                       "--library", lib, "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"answer", "rationale", "supported", "evidence", "citations", "plan", "timings_s", "models"}
    assert data["answer"] == "Yes" and data["citations"]
    assert all(set(e) >= {"start_s", "end_s", "speaker", "text", "labels", "scores"} for e in data["evidence"])
    code, out, _ = run(capsys, "ask", clip, "Is anyone coughing?", "--no-llm", "--library", lib)
    assert code == 0 and out.splitlines()[0] in ("Yes", "No")


def test_ask_with_missing_model_suggests_no_llm(tmp_path, capsys, monkeypatch):
    import harp_desktop.agent.llm as llm

    def missing(choice="qwen1.5b"):
        raise llm.LLMError("the language model qwen1.5b is missing or corrupt (test); re-run setup, or use --no-llm")

    monkeypatch.setattr(llm, "load_llm", missing)
    code, _, err = run(capsys, "ask", DATA / "cough_1.flac", "Is anyone coughing?", "--library", tmp_path / "lib")
    assert code == 1 and "--no-llm" in err and err.count("\n") == 1
