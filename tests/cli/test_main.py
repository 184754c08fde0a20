"""`python -m harp_desktop.cli` (cli/__main__.py) as a child process, offline."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import DATA, REPO


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
