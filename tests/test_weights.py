import json
import sys

import pytest

from harp_desktop import weights


def test_every_available_model_verifies():
    for st in weights.status(skip=("llm-qwen1.5b", "llm-qwen0.5b")):  # 1.6 GB: checked in tests/agent
        if st.note.startswith("unavailable"):
            continue
        assert st.present and st.checksum_ok, (st.key, st.note)


def test_split_weights_assembled_into_data_folder_not_site_packages(harp_data):
    folder = weights.model_path("asr-base")
    assert folder.is_relative_to(harp_data)
    assert (folder / "model.bin").stat().st_size == 145217532
    assert "site-packages" not in str(folder)


def test_corrupt_assembled_file_is_refused_with_a_clear_message(harp_data):
    folder = weights.model_path("asr-base")
    target = folder / "vocabulary.txt"
    original = target.read_bytes()
    try:
        target.write_bytes(original[:-1] + b"X")
        weights._verified.clear()
        with pytest.raises(weights.WeightsError, match="fails its checksum"):
            weights.model_path("asr-base")
        target.write_bytes(original[:-5])
        with pytest.raises(weights.WeightsError, match="expected"):
            weights.model_path("asr-base")
    finally:
        target.write_bytes(original)
        weights._verified.clear()
    weights.model_path("asr-base")


def test_manifest_mismatch_in_package_is_refused(monkeypatch):
    bad = json.loads(json.dumps(weights.manifest()))
    bad["text"]["files"][1]["sha256"] = "0" * 64
    monkeypatch.setattr(weights, "manifest", lambda: bad)
    weights._verified.clear()
    with pytest.raises(weights.WeightsError, match="tokenizer.json fails its checksum"):
        weights.model_path("text")
    weights._verified.clear()


def test_unavailable_and_unknown_models():
    with pytest.raises(weights.WeightsError, match="unavailable"):
        weights.model_path("asr-small")
    with pytest.raises(weights.WeightsError, match="unknown"):
        weights.model_path("nope")


def test_manifest_records_sha_size_licence_for_every_file():
    for key, entry in weights.manifest().items():
        assert entry["licence"] and entry["role"] and entry["packages"], key
        for f in entry["files"]:
            assert len(f["sha256"]) == 64 and f["size"] > 0, (key, f["name"])
            for part in f.get("parts", []):
                assert len(part["sha256"]) == 64 and part["size"] > 0


def test_large_file_stamp_is_invalidated_by_any_rewrite(harp_data):
    folder = weights.model_path("asr-base")  # hashed once, stamp written
    assert str(folder / "model.bin") in json.loads((harp_data / "models" / "verified.json").read_text())
    weights._verified.clear()
    weights.model_path("asr-base")  # stamp hit: no re-hash needed
    target = folder / "model.bin"
    with open(target, "r+b") as fh:
        fh.seek(1000)
        old = fh.read(1)
        fh.seek(1000)
        fh.write(bytes([old[0] ^ 0xFF]))
    try:
        weights._verified.clear()
        with pytest.raises(weights.WeightsError, match="model.bin fails its checksum"):
            weights.model_path("asr-base")
    finally:
        with open(target, "r+b") as fh:
            fh.seek(1000)
            fh.write(old)
        weights._verified.clear()
    weights.model_path("asr-base")


def _place(root, key):
    """Copy model ``key``'s files into ``root/key/`` as an administrator would."""
    folder = root / key
    folder.mkdir(parents=True)
    for f in weights.manifest()[key]["files"]:
        (folder / f["name"]).write_bytes(weights._source(f).read_bytes())
    return folder


def test_placed_models_take_precedence_over_packages(tmp_path, monkeypatch):
    monkeypatch.setenv("HARP_MODELS", str(tmp_path / "models"))
    vad, events = _place(tmp_path / "models", "vad"), _place(tmp_path / "models", "events")
    assert weights.model_path("vad") == vad
    assert weights.model_file("events", "yamnet_class_map.csv") == events / "yamnet_class_map.csv"
    assert weights.model_path("speaker") != tmp_path / "models" / "speaker"  # not placed: from its package
    assert next(s for s in weights.status(skip=("llm-qwen1.5b", "llm-qwen0.5b")) if s.key == "vad").path == str(vad)


def test_models_beside_a_frozen_executable_come_after_harp_models(tmp_path, monkeypatch):
    monkeypatch.delenv("HARP_MODELS", raising=False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "HARP-Desktop" / "harp"))
    beside = _place(tmp_path / "HARP-Desktop" / "models", "vad")
    assert weights.model_path("vad") == beside
    admin = _place(tmp_path / "admin", "vad")
    monkeypatch.setenv("HARP_MODELS", str(tmp_path / "admin"))
    assert weights.model_path("vad") == admin


def test_placed_folder_with_a_bad_or_missing_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HARP_MODELS", str(tmp_path))
    folder = _place(tmp_path, "events")
    target = folder / "yamnet_class_map.csv"
    target.write_bytes(target.read_bytes()[:-1] + b"X")
    with pytest.raises(weights.WeightsError, match="yamnet_class_map.csv fails its checksum"):
        weights.model_path("events")
    target.unlink()
    with pytest.raises(weights.WeightsError, match="model file missing: .*yamnet_class_map.csv"):
        weights.model_file("events", "yamnet_class_map.csv")


def test_a_bundle_without_a_model_says_where_to_place_it(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "HARP-Desktop" / "harp"))
    bad = json.loads(json.dumps(weights.manifest()))
    bad["vad"]["files"][0]["package"] = "no_such_weight_package"
    monkeypatch.setattr(weights, "manifest", lambda: bad)
    with pytest.raises(weights.WeightsError, match=r"not in this bundle .*HARP-Desktop/models.*docs/installer.md"):
        weights.model_path("vad")
