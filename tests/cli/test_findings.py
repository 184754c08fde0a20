import json

import pytest

from harp_desktop.findings import service
from harp_desktop.findings.model import KINDS, ROLES, STATUSES
from tests.cli.helpers import run
from tests.conftest import DATA
from tests.findings.helpers import fake_extract

FIELDS = {"concept", "category", "kind", "status", "speaker", "role", "start_s", "end_s", "text", "value"}


@pytest.fixture
def indexed_cli(tmp_path, capsys, monkeypatch):
    # A stand-in extractor (words -> findings) so the shape is checked with findings in it.
    monkeypatch.setattr(service, "load_extractor", lambda: fake_extract)
    lib = tmp_path / "lib"
    code, out, _ = run(capsys, "index", DATA / "speech_two_speakers.flac", "--library", lib, "--asr", "tiny.en",
                       "--json")
    assert code == 0
    return lib, json.loads(out)["recordings"][0]["sha256"]


def test_findings_json_is_one_object_of_the_documented_shape(indexed_cli, capsys):
    lib, sha = indexed_cli
    code, out, _ = run(capsys, "findings", sha[:8], "--library", lib, "--json")
    assert code == 0
    data = json.loads(out)  # exactly one JSON document on stdout
    assert set(data) == {"recording", "roles", "findings"}
    assert data["recording"]["sha256"] == sha
    assert data["roles"] == {"SPEAKER_1": "clinician", "SPEAKER_2": "patient"}
    assert data["findings"], "the clinical question and answer give findings"
    for f in data["findings"]:
        assert set(f) == FIELDS
        assert f["kind"] in KINDS and f["status"] in STATUSES and f["role"] in ROLES
        assert f["speaker"] in data["roles"] and 0 <= f["start_s"] <= f["end_s"]
    assert any(f["concept"] == "cough" and f["role"] == "patient" for f in data["findings"])


def test_findings_text_and_speaker_role_by_hand(indexed_cli, capsys):
    lib, sha = indexed_cli
    code, out, _ = run(capsys, "findings", sha[:8], "--library", lib)
    assert code == 0 and "Symptoms" in out and "said by patient, SPEAKER_2" in out
    assert "sections: consultation 00:" in out and "[00:0" in out and "affirmed" in out
    code, out, _ = run(capsys, "speaker", sha[:8], "SPEAKER_1", "Dr Patel", "--role", "other", "--library", lib)
    assert code == 0 and "'Dr Patel'" in out and "role is now other" in out
    code, out, _ = run(capsys, "index", DATA / "speech_two_speakers.flac", "--library", lib, "--asr", "tiny.en")
    assert "already indexed" in out
    code, out, _ = run(capsys, "findings", sha[:8], "--library", lib, "--json")
    assert json.loads(out)["roles"]["SPEAKER_1"] == "other"
    code, out, _ = run(capsys, "show", sha[:8], "--library", lib, "--json")
    assert json.loads(out)["speakers"][0]["name"] == "Dr Patel"  # the rename still works alongside
    code, _, err = run(capsys, "speaker", sha[:8], "SPEAKER_1", "--library", lib)
    assert code == 2 and "--role" in err
