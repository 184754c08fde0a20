"""docs/workbench.png: the window with the spectrogram lane, two annotators' tiers and a selection.

    .venv/bin/python installer/workbench_screenshot.py [OUT.png] [--library DIR]

Under Xvfb (``DISPLAY`` set, ``QT_QPA_PLATFORM=xcb``) it is the real window; without a display
it renders offscreen (``QWidget.grab`` draws the same widgets, without window decorations).
The sample is indexed into a scratch library with the fast ASR profile the first time.
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

from PySide6.QtCore import QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from harp_desktop.api import IndexOptions, Library  # noqa: E402

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
    ap.add_argument("out", nargs="?", default=str(REPO / "docs" / "workbench.png"))
    ap.add_argument("--library", default=str(Path(tempfile.gettempdir()) / "harp-workbench-shot"))
    args = ap.parse_args()
    lib = Library(args.library)
    res = lib.index(SAMPLE, IndexOptions(asr_profile="tiny.en"))
    sha = res.sha256
    for q in lib.questions(sha):
        lib.delete_question(q["id"])
    qid = lib.add_question(sha, "Does the patient cough?", query_type="exhibited_symptom", answer="Yes",
                           answer_kind="yesno")
    q2 = lib.add_question(sha, "Does the patient report chest pain?", query_type="reported_symptom")
    coughs = [t for t in lib.db.tags(lib.recording(sha)["id"]) if "cough" in t["label"].lower()]
    marks = [(c["start_s"], c["end_s"]) for c in coughs[:3]] or [(20.2, 20.9), (23.0, 23.6)]
    for a, b in marks:
        lib.add_span(qid, a, b, "alice", "cough")
        lib.add_span(qid, a + 0.08, b + 0.12, "bob", "dry cough")
    lib.add_span(q2, marks[0][0] - 6.0, marks[0][0] - 3.5, "alice", "chest tightness")
    lib.close()

    app = QApplication.instance() or QApplication([sys.argv[0]])
    from harp_desktop.ui.main_window import MainWindow

    store = QSettings(str(Path(tempfile.mkdtemp()) / "settings.ini"), QSettings.Format.IniFormat)
    w = MainWindow(library_dir=args.library, store=store, asr_profile="tiny.en")
    w.resize(1600, 1000)
    w.show()
    w.open_path(str(SAMPLE))
    wait(lambda: w.waveform.has_waveform, 60)
    w.annotation.act_mode.trigger()
    w.annotation.panel.annotator.setText("alice")
    w.annotation.panel.annotator.editingFinished.emit()  # her spans drawn as hers (green, resizable)
    w.annotation.panel.drag_mode.setChecked(False)  # else the selection below would become a span
    a, b = marks[0]
    w.waveform.vb.setXRange(max(0.0, a - 8.0), b + 8.0, padding=0)
    w.seek(a + 0.02)
    w.waveform.set_selection(b + 1.0, b + 2.6)  # a selection after the first cough
    sp = w.workbench.spectrogram
    wait(lambda: sp._computer.overview is not None, 30)
    gen = sp._computer._gen
    sp.schedule()
    wait(lambda: sp._shown_gen > gen, 30)
    wait(lambda: False, 0.8)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = w.grab().save(str(out), "PNG")
    print(f"{'wrote' if ok else 'FAILED to write'} {out} ({os.environ.get('QT_QPA_PLATFORM', 'xcb')}); "
          f"marked {marks}; tiers {w.workbench.tiers.visible_tiers()}; {w.workbench.tiers.agreement.text()}")
    w.close()
    del app
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
