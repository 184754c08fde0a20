"""docs/recording.png: the window mid-recording, the transcript growing as the sample plays.

    xvfb-run -a .venv/bin/python installer/recording_screenshot.py [OUT.png] [--seconds 40]

The microphone is the virtual one the tests use (tests/record/vmic.py: a PulseAudio null
sink fed by paplay); the window records it with live transcription, and the shot is taken
while it is still recording. Without a display it renders offscreen.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import soundfile as sf  # noqa: E402
from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tests.record.vmic import virtual_microphone  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "resources" / "samples" / "consultation.flac"


def wait(cond, timeout_s: float) -> bool:
    loop, deadline = QEventLoop(), time.monotonic() + timeout_s
    t = QTimer()
    t.setInterval(20)
    t.timeout.connect(lambda: (cond() or time.monotonic() > deadline) and loop.quit())
    t.start()
    if not cond():
        loop.exec()
    t.stop()
    return cond()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?", default=str(REPO / "docs" / "recording.png"))
    ap.add_argument("--seconds", type=float, default=40.0, help="how much of the sample plays before the shot")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="harp-rec-shot-"))
    audio, sr = sf.read(SAMPLE, dtype="float32")
    clip = tmp / "clip.wav"
    sf.write(clip, audio[: int((args.seconds + 15) * sr)], sr, subtype="PCM_16")
    app = QApplication.instance() or QApplication([sys.argv[0]])
    from harp_desktop.ui.main_window import MainWindow

    store = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    with virtual_microphone() as mic:
        w = MainWindow(library_dir=str(tmp / "library"), store=store)
        w.settings.recordings = str(tmp / "recordings")
        w.resize(1600, 1000)
        w.show()
        w.recording.consented = True  # the reminder was answered (it is a modal box: not in the shot)
        w.new_recording()
        player = mic.play(clip)
        t0 = time.monotonic()
        wait(lambda: time.monotonic() - t0 > args.seconds and w.transcript.model.rowCount() >= 3, args.seconds + 90)
        w.record_panel.show_meter(w.recording.session.recorder.level_db, w.recording.session.recorder.elapsed_s,
                                  w.recording.session.recorder.overflows)
        wait(lambda: False, 0.3)
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        ok = w.grab().save(str(out), "PNG")
        print(f"{'wrote' if ok else 'FAILED to write'} {out} ({os.environ.get('QT_QPA_PLATFORM', 'xcb')}); "
              f"{w.transcript.model.rowCount()} live lines at {w.record_panel.elapsed.text()}")
        player.terminate()
        w.close()  # keeps the audio as a partial: discarded with the scratch folder
    del app
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
