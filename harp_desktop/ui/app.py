"""`harp-desktop [RECORDING] [--library DIR]`: start the desktop app.

``--ask QUESTION [--no-llm] [--screenshot PATH]`` drive it once the recording is indexed
(used by installer/screenshot.sh): ask, show the first evidence, save a PNG, quit.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from harp_desktop import weights


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="harp-desktop", description="HARP Desktop: listen to, search and question "
                                                                  "long recordings, offline.")
    ap.add_argument("recording", nargs="?", metavar="RECORDING", help="a recording to open (indexed if needed)")
    ap.add_argument("--library", default=os.environ.get("HARP_LIBRARY"),
                    help="library folder (default: the Settings value, $HARP_LIBRARY or the user data folder)")
    ap.add_argument("--asr", choices=list(weights.ASR_PROFILES), help="ASR profile for indexing in this session")
    ap.add_argument("--ask", metavar="QUESTION", help="ask this once the recording is indexed")
    ap.add_argument("--no-llm", action="store_true", help="with --ask: no language model (extractive answer)")
    ap.add_argument("--screenshot", metavar="PATH", help="with --ask: save a PNG of the window, then quit")
    return ap


class Script:
    """Drives the window for --ask / --screenshot: waits for the index, asks, captures."""

    def __init__(self, window, question: str, no_llm: bool, screenshot: str | None) -> None:
        from PySide6.QtCore import QTimer

        self.w, self.question, self.no_llm, self.screenshot = window, question, no_llm, screenshot
        self.asked = False
        self.timer = QTimer(window)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._poll)
        window.answerReady.connect(self._answered)
        window.indexStopped.connect(self._stopped)
        self.timer.start()

    def _poll(self) -> None:
        w = self.w
        if self.asked or w.data is None or w.indexing() or not w.data.complete or not w.waveform.has_waveform:
            return
        self.asked = True
        self.timer.stop()
        if self.no_llm:
            w.ask_panel.no_llm.setChecked(True)
        w.ask_panel.ask(self.question)

    def _answered(self, answer: dict) -> None:
        from PySide6.QtCore import QTimer

        w = self.w
        if answer.get("evidence"):
            item = w.ask_panel.evidence_list.topLevelItem(0)
            w.ask_panel.evidence_list.setCurrentItem(item)
            w.ask_panel._evidence_clicked(item)
        print(f"Q: {answer['question']}\nA: {answer['answer']}\n{answer['rationale']}", flush=True)
        if self.screenshot:
            QTimer.singleShot(800, self._capture)

    def _capture(self) -> None:
        from PySide6.QtWidgets import QApplication

        path = Path(self.screenshot).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        ok = self.w.grab().save(str(path), "PNG")
        print(f"screenshot {'saved to' if ok else 'FAILED:'} {path}", flush=True)
        QApplication.instance().exit(0 if ok else 1)

    def _stopped(self, path: str, why: str) -> None:
        from PySide6.QtWidgets import QApplication

        print(f"harp-desktop: indexing {path} stopped: {why}", file=sys.stderr, flush=True)
        if self.screenshot:
            QApplication.instance().exit(1)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if (args.screenshot or args.no_llm) and not args.ask:
        build_parser().error("--screenshot and --no-llm go with --ask")
    if args.ask and not args.recording:
        build_parser().error("--ask needs a RECORDING")

    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QGuiApplication, QIcon
    from PySide6.QtWidgets import QApplication

    from harp_desktop.ui.main_window import ICON, MainWindow

    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    # Cyclic garbage is collected on this (the GUI) thread only, by pyqtgraph's timer: collected on a worker
    # thread (an export, an index), a dead widget's Qt destructor deadlocks against the GUI thread (seen in CI: a
    # menu freed by the collector while a PDF report was being drawn).
    from pyqtgraph.util.garbage_collector import GarbageCollector

    collector = GarbageCollector(interval=1.0)  # noqa: F841 (kept alive with the event loop)
    app.setApplicationName("HARP Desktop")
    app.setOrganizationName("HARP")
    app.setDesktopFileName("harp-desktop")
    if ICON.exists():
        app.setWindowIcon(QIcon(str(ICON)))
    from harp_desktop.store.crypto import PassphraseError

    try:
        window = MainWindow(library_dir=args.library, asr_profile=args.asr)
    except PassphraseError as exc:  # an encrypted library whose passphrase dialog was cancelled
        print(f"harp-desktop: {exc}", file=sys.stderr)
        return 1
    window.show()
    if args.recording:
        QTimer.singleShot(0, lambda: window.open_path(args.recording))
    script = Script(window, args.ask, args.no_llm, args.screenshot) if args.ask else None  # noqa: F841 (kept alive)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
