"""No network, ever: index, ask (rules and a real local LLM), eval and report with socket
creation itself blocked, the same run traced at the system-call level, and the offline
switches the app sets for the libraries underneath."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from harp_desktop.cli import main
from harp_desktop.offline import OFFLINE_ENV
from tests.conftest import DATA, REPO
from tests.evaluate.test_runner import questions


@pytest.fixture
def no_sockets(monkeypatch) -> list:
    """Creating any socket (any family), resolving a name or connecting raises and is recorded."""
    attempts: list = []

    def refuse(what):
        def f(*args, **kwargs):
            attempts.append((what, args[1:3] if what == "socket" else args[:2]))
            raise OSError(f"network disabled by test: {what}")
        return f

    monkeypatch.setattr(socket.socket, "__init__", refuse("socket"))
    for name in ("create_connection", "getaddrinfo", "gethostbyname", "gethostbyname_ex", "socketpair"):
        monkeypatch.setattr(socket, name, refuse(name))
    return attempts


@pytest.fixture
def workspace(indexed, long_clip, tmp_path) -> tuple[Path, Path, Path]:
    """A copy of the indexed library and a queries.jsonl for its recording."""
    shared, _ = indexed
    shared.db.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copytree(shared.folder, tmp_path / "lib")
    qfile = tmp_path / "queries.jsonl"
    qfile.write_text("".join(json.dumps(q) + "\n" for q in questions()), encoding="utf-8")
    return tmp_path / "lib", qfile, long_clip


def commands(lib: Path, qfile: Path, clip: Path, out: Path) -> list[list[str]]:
    common = ["--library", str(lib)]
    return [
        ["index", str(DATA / "cough_1.flac"), "--asr", "tiny.en", *common],
        ["ask", str(clip), "Did anyone cough?", "--no-llm", *common],
        ["ask", str(clip), "Where was the patient seen this morning?", "--llm", "smollm2", "--single-pass", *common],
        ["questions", "import", str(qfile), "--audio-dir", str(clip.parent), *common],
        ["eval", str(qfile), "--audio-dir", str(clip.parent), "--no-llm", "--asr", "tiny.en", *common],
        ["report", str(clip), "--answers", "all", "-o", str(out / "report.pdf"), *common],
        ["export", str(clip), "-o", str(out / "transcript.srt"), *common],
    ]


@pytest.mark.slow
def test_index_ask_eval_report_with_socket_creation_blocked(no_sockets, workspace, tmp_path, capsys):
    lib, qfile, clip = workspace
    for argv in commands(lib, qfile, clip, tmp_path):
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 0, (argv[0], err)
    assert no_sockets == [], no_sockets
    assert (tmp_path / "report.pdf").stat().st_size > 1000 and (tmp_path / "transcript.srt").read_text()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_no_internet_socket_at_the_system_call_level(workspace, tmp_path):
    """The same commands in a child traced with strace: C and C++ code (llama.cpp, onnxruntime,
    CTranslate2) included. Not one AF_INET/AF_INET6 socket may be created, and nothing may be
    written to the home folder (onnxruntime 1.32 queued 1DS telemetry in ~/.cache/Microsoft)."""
    lib, qfile, clip = workspace
    driver = tmp_path / "driver.py"
    driver.write_text("import json, sys\nfrom harp_desktop.cli import main\n"
                      "for argv in json.loads(sys.argv[1]):\n"
                      "    code = main(argv)\n"
                      "    if code:\n        sys.exit(f'{argv[0]} failed: {code}')\n", encoding="utf-8")
    home = traced(tmp_path, [str(driver), json.dumps(commands(lib, qfile, clip, tmp_path))])
    assert [str(p.relative_to(home)) for p in home.rglob("*")] == []


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_the_desktop_window_opens_no_internet_socket(tmp_path):
    """The window traced the same way: Qt, PortAudio's device probing, the indexing child
    process and a question. Local (AF_UNIX) sockets are allowed; the home folder receives
    only HARP's own data folder (models assembled from their packages)."""
    shot = tmp_path / "window.png"
    home = traced(tmp_path, ["-m", "harp_desktop.ui", str(DATA / "speech_two_speakers.flac"), "--library",
                             str(tmp_path / "lib"), "--asr", "tiny.en", "--ask", "Did anyone cough?", "--no-llm",
                             "--screenshot", str(shot)], QT_QPA_PLATFORM="offscreen")
    assert shot.stat().st_size > 10_000
    written = {p.relative_to(home).parts[:3] for p in home.rglob("*") if p.is_file()}
    assert written <= {(".local", "share", "harp-desktop"), (".config", "HARP", "HARP Desktop.conf")}, written


def traced(tmp_path: Path, args: list[str], **extra_env: str) -> Path:
    """Run ``python ARGS`` under strace with an empty home; fail on any internet socket.
    Returns the home folder, for checks of what was written there."""
    trace = tmp_path / "net.trace"
    home = tmp_path / "home"  # where a library might queue telemetry for later (onnxruntime did)
    home.mkdir()
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local" / "share"), **extra_env}
    r = subprocess.run(["strace", "-f", "-qq", "-e", "trace=socket,connect,sendto,sendmsg", "-o", str(trace),
                        sys.executable, *args], env=env, capture_output=True, text=True, timeout=900)
    if "ptrace" in r.stderr and r.returncode != 0:
        pytest.skip(f"ptrace is not permitted here: {r.stderr.strip()[:120]}")
    assert r.returncode == 0, r.stderr[-2000:]
    calls = [line for line in trace.read_text().splitlines() if "SIG" not in line]
    inet = [line for line in calls if "AF_INET" in line or "sin_port" in line or "sin6_port" in line]
    assert inet == [], inet[:5]
    return home


def test_the_app_forces_every_offline_switch():
    """Even a user's HF_HUB_OFFLINE=0 cannot turn downloads back on inside HARP."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "0", "TRANSFORMERS_OFFLINE": "0"}
    code = ("import json, os\nimport harp_desktop\nimport huggingface_hub.constants as c\n"
            f"print(json.dumps([{{k: os.environ.get(k) for k in {sorted(OFFLINE_ENV)!r}}}, c.HF_HUB_OFFLINE, "
            "c.HF_HUB_DISABLE_TELEMETRY]))")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    seen, hub_offline, hub_no_telemetry = json.loads(r.stdout)
    assert seen == OFFLINE_ENV and hub_offline and hub_no_telemetry
