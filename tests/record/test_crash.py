"""kill -9 while recording: the audio up to the kill survives, is found on the next start, and indexes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import soundfile as sf

from harp_desktop.api import Library
from tests.conftest import FAST
from tests.record.conftest import best_match

CHILD = """
import sys, time
from harp_desktop.api import Library
lib = Library(sys.argv[1])
s = lib.record(sys.argv[2], live=False)
s.start()
while s.recorder.frames == 0:
    time.sleep(0.01)
print("first", time.monotonic() - s.recorder.frames / s.recorder.samplerate, flush=True)
while True:
    time.sleep(0.1)
    print("frames", s.recorder.frames, flush=True)
"""


def test_kill_9_keeps_the_audio_up_to_the_kill_and_it_indexes(virtual_mic, speech_clip, tmp_path):
    lib_dir, target = tmp_path / "lib", tmp_path / "rec.flac"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(lib_dir), str(target)], stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONPATH": os.getcwd()})
    first = child.stdout.readline().split()
    assert first[0] == "first", first
    t_first = float(first[1])
    player = virtual_mic.play(speech_clip)
    time.sleep(6.5)  # into the second speaker's line
    t_kill = time.monotonic()
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    player.wait()
    assert not target.exists()  # nothing finalised: the process died

    with Library(lib_dir) as lib:  # the next start
        found = lib.partial_recordings()
        assert len(found) == 1 and found[0].target == target.resolve()
        assert found[0].duration_s >= (t_kill - t_first) - 2.0, (found[0].duration_s, t_kill - t_first)
        paths = lib.recover_recordings()
        assert paths == [target.resolve()] and lib.partial_recordings() == []
        rec, _ = sf.read(paths[0], dtype="float32")
        ref, _ = sf.read(speech_clip, dtype="float32")
        _, score = best_match(rec, ref[8000:56000])  # the first line is all there
        assert score > 0.95, score
        result = lib.index(paths[0], FAST)
        text = " ".join(s["text"] for s in lib.db.segments(result.recording_id)).lower()
    assert "chest pain" in text and "weekend" in text, text
