import json
import os
import subprocess
import sys
from pathlib import Path

from harp_desktop.cli import main
from tests.conftest import DATA, REPO


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


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


def test_models_json(capsys):
    code, out, _ = run(capsys, "models", "--json")
    data = json.loads(out)
    keys = {m["key"]: m for m in data["models"]}
    assert keys["asr-base"]["checksum_ok"] and keys["asr-small"]["note"].startswith("unavailable")
    assert all(m["licence"] for m in data["models"])


def test_console_script_never_opens_a_network_connection(tmp_path):
    """Run the real `harp index` + `show` in a child whose socket layer records and refuses any connection."""
    guard = tmp_path / "guard"
    guard.mkdir()
    log = tmp_path / "net.log"
    (guard / "sitecustomize.py").write_text(
        "import socket\n"
        f"LOG = {str(log)!r}\n"
        "def _refuse(*a, **k):\n"
        "    open(LOG, 'a').write(repr(a[:2]) + '\\n')\n"
        "    raise OSError('network disabled by test')\n"
        "socket.socket.connect = _refuse\n"
        "socket.socket.connect_ex = _refuse\n"
        "socket.create_connection = _refuse\n"
        "socket.getaddrinfo = _refuse\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{guard}{os.pathsep}{REPO}", "HARP_LIBRARY": str(tmp_path / "lib")}
    # The guard really is active in the child: a deliberate connection attempt is logged.
    probe = subprocess.run([sys.executable, "-c", "import socket\ntry: socket.create_connection(('127.0.0.1', 9))\n"
                            "except OSError: pass"], env=env, timeout=60)
    assert probe.returncode == 0 and log.exists()
    log.unlink()
    harp = [sys.executable, "-m", "harp_desktop.cli"]
    r = subprocess.run(harp + ["index", str(DATA / "cough_1.flac"), "--asr", "tiny.en"], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(harp + ["show", str(DATA / "cough_1.flac"), "--json"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and json.loads(r.stdout)["recording"]
    assert not Path(log).exists(), Path(log).read_text()


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
