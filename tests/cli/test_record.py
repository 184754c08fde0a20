"""`harp record` on the virtual microphone: --duration, Ctrl-C stops cleanly, live lines, indexing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import soundfile as sf

from tests.record import conftest as vmic

virtual_mic, speech_clip = vmic.virtual_mic, vmic.speech_clip  # the virtual microphone's fixtures, shared


def _harp(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "harp_desktop.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.getcwd()}, **kw)


def test_duration_and_no_index(virtual_mic, tmp_path):
    out = tmp_path / "d.flac"
    p = _harp("record", str(out), "--duration", "2", "--no-index", "--library", str(tmp_path / "lib"))
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 0, stderr
    assert 2.0 <= sf.info(out).duration <= 2.5
    assert "input overflows: 0" in stdout
    again = _harp("record", str(out), "--duration", "1", "--no-index", "--library", str(tmp_path / "lib"))
    _, stderr = again.communicate(timeout=60)
    assert again.returncode == 1 and "already exists" in stderr  # never overwrites a recording


def test_ctrl_c_stops_cleanly_and_the_recording_is_indexed(virtual_mic, speech_clip, tmp_path):
    out = tmp_path / "c.flac"
    p = _harp("record", str(out), "--asr", "tiny.en", "--library", str(tmp_path / "lib"))
    line = ""
    while "recording from" not in line:  # the stream has started (said on stderr)
        line = p.stderr.readline()
        assert line or p.poll() is None, "harp record exited early"
    time.sleep(0.5)
    virtual_mic.play(speech_clip).wait()
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=300)
    assert p.returncode == 0, stderr
    assert sf.info(out).duration >= 9.0
    live = [ln for ln in stdout.splitlines() if ln.startswith("[")]  # lines printed while recording
    assert live and "chest" in " ".join(live).lower(), stdout
    assert f"{out.resolve()}: indexed" in stdout, stdout
