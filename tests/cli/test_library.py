import json

from harp_desktop.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_library_export_import_round_trip(indexed, tmp_path, capsys):
    src, res = indexed
    bundle = tmp_path / "cluster.harplib"
    code, out, _ = run(capsys, "library", "export", bundle, "--library", src.folder, "--audio")
    assert code == 0 and "1 recording(s)" in out and "with audio" in out
    laptop = tmp_path / "laptop"
    code, out, _ = run(capsys, "library", "import", bundle, "--library", laptop)
    assert code == 0 and out.strip().endswith(f"added; sha256 {res.sha256[:12]}")
    code, out, _ = run(capsys, "library", "import", bundle, "--library", laptop)
    assert code == 0 and "unchanged" in out
    _, a, _ = run(capsys, "show", res.sha256[:10], "--library", src.folder, "--json")
    _, b, _ = run(capsys, "show", res.sha256[:10], "--library", laptop, "--json")
    a, b = json.loads(a), json.loads(b)
    assert [(s["start_s"], s["text"], s["speaker"]) for s in a["segments"]] == [
        (s["start_s"], s["text"], s["speaker"]) for s in b["segments"]]
    assert a["events"] == b["events"] and a["speakers"] == b["speakers"]


def test_bad_bundle_and_bad_recording_give_one_line_errors(tmp_path, capsys):
    junk = tmp_path / "junk.harplib"
    junk.write_bytes(b"\0" * 4096)
    code, _, err = run(capsys, "library", "import", junk, "--library", tmp_path / "lib")
    assert code == 1 and err.count("\n") == 1 and "not a HARP library bundle" in err
    code, _, err = run(capsys, "library", "export", tmp_path / "no" / "x.harplib", "--library", tmp_path / "lib")
    assert code == 1 and err.count("\n") == 1 and "does not exist" in err
    bad = tmp_path / "notes.wav"
    bad.write_text("not audio")
    code, _, err = run(capsys, "index", "--engine", "ray", bad, "--library", tmp_path / "lib")
    assert code == 1 and err.count("\n") == 1 and err.startswith("harp: error: notes.wav:")
    code, _, err = run(capsys, "index", "--engine", "ray", "--workers", "0", bad, "--library", tmp_path / "lib")
    assert code == 1 and "at least 1" in err
    assert not list((tmp_path / "lib").glob("*.harplib*"))
