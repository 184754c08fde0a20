"""GUI responsiveness: time to open a 60-minute recording until its waveform is drawn,
and the longest event-loop stall while indexing and asking run in the background.

    .venv/bin/python benchmarks/gui_bench.py [--repeat 30] [--asr tiny.en] [--decode-only] [--llm qwen0.5b]

What it does (offscreen Qt, a temporary library, the real MainWindow and workers):
1. Builds a long recording by concatenating resources/samples/consultation.flac
   ``--repeat`` times (30 x 2:08.6 = 64 min) and indexes the sample itself (API, no GUI).
2. Opens the sample in the window, then indexes the long file through the GUI worker
   (IndexTask, progress signals, early waveform after decoding) while asking questions
   about the sample every few seconds. ``--decode-only`` stops the long file's indexing
   after decoding (Cancel), which is all the waveform needs: the audio cache + the
   recording row.
3. Opens the long recording: "warm" (envelope pyramid already saved next to the audio
   cache by the index worker) and "cold" (pyramid deleted: computed in the background).
   Each is measured from ``open_path`` until the waveform has been painted.
4. Spectrogram lane (issue 19) on the long recording: the time from a change of view
   (zoom in / out, scroll by a screen) until the spectrogram of the new visible window is
   on screen, first while its overview is still being built (cold) and then with it;
   and a fast drag (a view change every 16 ms) for the longest stall.
5. Asks questions about the long recording (no LLM unless ``--llm``).
Throughout, a 10 ms QTimer measures its own lateness: the event loop's stalls.
Targets: warm open <= 1 s, longest stall <= 100 ms, spectrogram p95 <= 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import soundfile as sf  # noqa: E402
from PySide6.QtCore import QEventLoop, QObject, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from harp_desktop.api import IndexOptions, Library  # noqa: E402
from harp_desktop.ui import envelope, spectrogram  # noqa: E402
from harp_desktop.ui.main_window import MainWindow  # noqa: E402
from harp_desktop.ui.workers import SHARED_MODELS  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "resources" / "samples" / "consultation.flac"
QUESTIONS = ["Does the patient report chest pain or tightness?", "Is anyone coughing?",
             "What medication does the patient take?", "When does the doctor mention an x-ray?",
             "Who speaks the most?"]


class StallMeter(QObject):
    """A 10 ms timer on the GUI thread; how late each tick fires is how long the loop was blocked."""

    def __init__(self, interval_ms: int = 10) -> None:
        super().__init__()
        self.interval = interval_ms / 1000
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.phase = "idle"
        self.late: dict[str, list[float]] = {}
        self._last: float | None = None

    def start(self) -> None:
        self._last = None
        self.timer.start()

    def set_phase(self, phase: str) -> None:
        self.phase = phase
        self._last = None  # a phase change is driven by the script, not a stall

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None:
            self.late.setdefault(self.phase, []).append(max(0.0, now - self._last - self.interval))
        self._last = now

    def summary(self) -> dict:
        out = {}
        for phase, xs in self.late.items():
            a = np.array(xs) * 1000
            out[phase] = {"ticks": len(a), "max_ms": round(float(a.max()), 1),
                          "p99_ms": round(float(np.percentile(a, 99)), 1), "mean_ms": round(float(a.mean()), 2)}
        return out


class Watchdog(threading.Thread):
    """--diagnose: when the GUI thread is late by more than ``limit_ms``, record every thread's stack."""

    def __init__(self, meter: StallMeter, limit_ms: float = 60.0) -> None:
        super().__init__(daemon=True)
        self.meter, self.limit = meter, limit_ms / 1000
        self.gui = threading.get_ident()
        self.reports: list[tuple[float, str]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        reported_for = None
        while not self.stop.wait(0.01):
            last = self.meter._last
            if last is None or last == reported_for:
                continue
            late = time.perf_counter() - last
            if late > self.limit:
                reported_for = last
                frames = sys._current_frames()
                names = {t.ident: t.name for t in threading.enumerate()}
                text = [f"--- GUI late by {late * 1000:.0f} ms (phase {self.meter.phase})"]
                for ident, frame in frames.items():
                    if ident == self.ident:
                        continue
                    who = "GUI" if ident == self.gui else names.get(ident, str(ident))
                    text.append(f"[{who}]\n" + "".join(traceback.format_stack(frame, limit=30)))
                self.reports.append((late, "\n".join(text)))


def run_until(cond, timeout_s: float, poll_ms: int = 20) -> bool:
    """Run the real event loop (no busy polling) until ``cond()`` or the timeout."""
    loop = QEventLoop()
    deadline = time.monotonic() + timeout_s

    def check() -> None:
        if cond() or time.monotonic() > deadline:
            loop.quit()

    t = QTimer()
    t.setInterval(poll_ms)
    t.timeout.connect(check)
    t.start()
    if not cond():
        loop.exec()
    t.stop()
    return cond()


def build_long(repeat: int, folder: Path) -> Path:
    x, sr = sf.read(SAMPLE, dtype="float32")
    path = folder / f"consultation_x{repeat}.flac"
    with sf.SoundFile(path, "w", sr, 1, subtype="PCM_16") as out:
        for _ in range(repeat):
            out.write(x)
    return path


def measure_open(win: MainWindow, path: Path, timeout_s: float = 120.0) -> float:
    """Seconds from open_path until the waveform is drawn and painted."""
    win.open_path(str(SAMPLE))  # start from another recording, as a user switching would
    run_until(lambda: win.waveform.has_waveform, 30)
    run_until(lambda: False, 0.3)  # idle: the stall meter then sees only the long recording's open
    t0 = time.perf_counter()
    win.open_path(str(path))
    ok = run_until(lambda: win.waveform.has_waveform and win.data is not None and win.data.path == str(path),
                   timeout_s, poll_ms=1)
    win.waveform.plot.viewport().repaint()  # synchronous paint of the plot
    t1 = time.perf_counter()
    if not ok:
        raise RuntimeError(f"waveform of {path} not drawn within {timeout_s} s")
    return t1 - t0


def spectrogram_views(duration: float, steps: int) -> list[tuple[float, float]]:
    """Whole recording, zoom in around the middle step by step to 10 s, scroll by screens at
    10 s and 10 min, zoom back out: what an annotator does."""
    mid = duration / 2
    views = [(0.0, duration)]
    width = duration
    while width > 10.0:
        width = max(10.0, width / 2)
        views.append((mid - width / 2, mid + width / 2))
    for w in (10.0, 600.0):
        views += [(mid + i * w, mid + (i + 1) * w) for i in range(steps // 4)]
    while width < duration:
        width = min(duration, width * 3)
        views.append((max(0.0, mid - width / 2), min(duration, max(0.0, mid - width / 2) + width)))
    return [(max(0.0, a), min(duration, b)) for a, b in views]


def measure_spectrogram(win: MainWindow, views: list[tuple[float, float]], timeout_s: float = 10.0) -> list[float]:
    """Seconds from each change of view until the spectrogram for it is painted."""
    sp = win.workbench.spectrogram
    out = []
    for a, b in views:
        gen = sp._computer._gen
        t0 = time.perf_counter()
        win.waveform.vb.setXRange(a, b, padding=0)
        sp.schedule()  # an unchanged range asks for no image by itself
        if not run_until(lambda gen=gen: sp._shown_gen > gen, timeout_s, poll_ms=1):
            raise RuntimeError(f"spectrogram of {a:.0f}-{b:.0f} s not drawn within {timeout_s} s")
        sp.plot.viewport().repaint()
        out.append(time.perf_counter() - t0)
    return out


def drag_spectrogram(win: MainWindow, seconds: float = 3.0) -> int:
    """A fast drag: the view moves every 16 ms whether or not the last image came; returns images drawn."""
    sp = win.workbench.spectrogram
    first = sp._shown_gen
    mid, width = win.waveform.duration / 2, 120.0
    t_end = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < t_end:
        a = mid + i * width / 20
        win.waveform.vb.setXRange(a, a + width, padding=0)
        run_until(lambda: False, 0.016, poll_ms=16)
        i += 1
    run_until(lambda: sp._computer._request is None, 5)
    return sp._shown_gen - first


def p95(xs: list[float]) -> float:
    return float(np.percentile(np.array(xs), 95)) if xs else float("nan")


def ask_all(win: MainWindow, questions: list[str], no_llm: bool, timeout_s: float = 600) -> list[dict]:
    got: list[dict] = []
    win.answerReady.connect(got.append)
    for q in questions:
        n = len(got)
        win.ask_panel.no_llm.setChecked(no_llm)
        win.ask_panel.ask(q)
        run_until(lambda n=n: len(got) > n or win._ask_task is None, timeout_s)
    win.answerReady.disconnect(got.append)
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=30, help="copies of the 2:08.6 sample (30 = 64 min)")
    ap.add_argument("--asr", default="tiny.en", help="ASR profile for indexing (tiny.en: fast)")
    ap.add_argument("--decode-only", action="store_true", help="stop the long file's indexing after decoding")
    ap.add_argument("--llm", default=None, help="ask with this language model (default: no LLM)")
    ap.add_argument("--workdir", help="keep the temporary library here (default: a new temp folder)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--diagnose", action="store_true", help="print every thread's stack at the worst stalls")
    args = ap.parse_args(argv)

    work = Path(args.workdir or tempfile.mkdtemp(prefix="harp-gui-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    lib_dir = work / "library"
    t = time.perf_counter()
    long_path = build_long(args.repeat, work)
    minutes = sf.info(str(long_path)).duration / 60
    print(f"long recording: {long_path.name}, {minutes:.1f} min (built in {time.perf_counter() - t:.1f} s)",
          file=sys.stderr)
    opts = IndexOptions(asr_profile=args.asr)
    lib = Library(lib_dir)
    lib.models = SHARED_MODELS
    t = time.perf_counter()
    lib.index(SAMPLE, opts)
    lib.close()
    print(f"sample indexed in {time.perf_counter() - t:.1f} s", file=sys.stderr)

    _app = QApplication.instance() or QApplication([sys.argv[0]])  # kept alive until main returns
    store = QSettings(str(work / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(library_dir=str(lib_dir), store=store, asr_profile=args.asr)
    win.show()
    meter = StallMeter()
    meter.start()
    watchdog = Watchdog(meter) if args.diagnose else None
    if watchdog:
        watchdog.start()
    no_llm = args.llm is None
    if args.llm:
        win.settings.llm = args.llm

    meter.set_phase("open sample")
    win.open_path(str(SAMPLE))
    run_until(lambda: win.waveform.has_waveform, 60)

    # Index the long file in the background while asking about the sample.
    meter.set_phase("indexing + asking")
    finished: list[str] = []
    win.indexFinished.connect(finished.append)
    win.indexStopped.connect(lambda p, why: finished.append(why))
    if args.decode_only:
        def stop_after_decode(path: str, p) -> None:
            if p.stage != "decode" and win.indexing():
                win.cancel_indexing()
        win.queue.progress.connect(stop_after_decode)
        win.enqueue_index(str(long_path))
    else:
        win.enqueue_index(str(long_path))
    t_index = time.perf_counter()
    asked = 0
    while not finished:
        if win._ask_task is None and win.data is not None:
            win.ask_panel.no_llm.setChecked(no_llm)
            win.ask_panel.ask(QUESTIONS[asked % len(QUESTIONS)])
            asked += 1
        run_until(lambda: bool(finished), 3.0)
    index_s = time.perf_counter() - t_index
    run_until(lambda: win._ask_task is None, 120)
    print(f"long file: {finished[0] if finished else '?'} after {index_s:.1f} s; {asked} questions asked meanwhile",
          file=sys.stderr)

    meter.set_phase("bench set-up")  # the script's own work below is not the app's
    rec = Library(lib_dir).recording(str(long_path))
    cache = lib_dir / "audio" / f"{rec['sha256']}.f32"
    env_file = envelope.envelope_path(cache)
    if not env_file.exists():  # --decode-only: the index worker stopped before computing it
        envelope.load_or_build(cache)

    meter.set_phase("open long")
    warm = [measure_open(win, long_path) for _ in range(3)]
    env_file.unlink()
    cold = measure_open(win, long_path)

    # The spectrogram lane: cold (the overview for zoomed-out views still being built), then warm.
    sp = win.workbench.spectrogram
    win.workbench.act_spectrogram.setChecked(True)
    win.workbench.show_spectrogram(True)
    run_until(lambda: sp.isVisible(), 5)
    views = spectrogram_views(win.waveform.duration, 40)
    sp._computer._audio_key = None  # forget the overview the open just started: measure a cold lane
    spectrogram._OVERVIEWS.clear()
    meter.set_phase("spectrogram cold")
    t_ov = time.perf_counter()
    sp._computer.set_audio(sp._audio)
    spec_cold = measure_spectrogram(win, views[:8])
    run_until(lambda: sp._computer.overview is not None, 60)
    overview_s = time.perf_counter() - t_ov
    meter.set_phase("spectrogram")
    spec_warm = measure_spectrogram(win, views)
    meter.set_phase("spectrogram drag")
    dragged = drag_spectrogram(win)
    win.waveform.fit()

    meter.set_phase("asking (long)")
    answers = ask_all(win, QUESTIONS, no_llm) if win.data and win.data.lines else []
    meter.set_phase("closing")
    meter.timer.stop()
    win.close()
    if watchdog:
        watchdog.stop.set()
        for _late, text in sorted(watchdog.reports, key=lambda r: -r[0])[:8]:
            print(text, file=sys.stderr)

    result = {
        "recording_min": round(minutes, 1),
        "indexed": "decode only" if args.decode_only else f"full ({args.asr})",
        "index_seconds": round(index_s, 1),
        "questions_during_indexing": asked,
        "open_warm_s": [round(x, 3) for x in warm],
        "open_cold_s": round(cold, 3),
        "spectrogram_views": len(spec_warm),
        "spectrogram_p95_ms": round(p95(spec_warm) * 1000, 1),
        "spectrogram_max_ms": round(max(spec_warm) * 1000, 1),
        "spectrogram_median_ms": round(float(np.median(spec_warm)) * 1000, 1),
        "spectrogram_cold_p95_ms": round(p95(spec_cold) * 1000, 1),
        "spectrogram_overview_s": round(overview_s, 2),
        "spectrogram_drag_images": dragged,
        "answers_long": [{"q": a["question"], "a": a["answer"], "s": a["timings_s"].get("total")} for a in answers],
        "stalls": meter.summary(),
        "llm": args.llm or "none",
    }
    # The stall target is about background work; opening is measured (and reported) as its own time.
    worst = max(v["max_ms"] for k, v in result["stalls"].items() if k in ("indexing + asking", "asking (long)"))
    spec_stall = max(v["max_ms"] for k, v in result["stalls"].items() if k.startswith("spectrogram"))
    result["targets"] = {"open_warm_le_1s": max(warm) <= 1.0, "stall_le_100ms": worst <= 100.0,
                         "spectrogram_p95_le_100ms": result["spectrogram_p95_ms"] <= 100.0,
                         "spectrogram_stall_le_100ms": spec_stall <= 100.0}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"recording: {minutes:.1f} min, {result['indexed']}, indexed in {index_s:.1f} s")
        print(f"open until waveform drawn: warm {', '.join(f'{x:.3f}' for x in warm)} s; "
              f"cold (pyramid computed) {cold:.3f} s   [target <= 1 s warm]")
        for phase, s in result["stalls"].items():
            print(f"event-loop stall  {phase:20} max {s['max_ms']:7.1f} ms  p99 {s['p99_ms']:6.1f} ms  "
                  f"mean {s['mean_ms']:5.2f} ms  ({s['ticks']} ticks)")
        print(f"longest stall while indexing / asking {worst:.1f} ms   [target <= 100 ms]")
        print(f"spectrogram, change of view until drawn ({result['spectrogram_views']} views, zoom + scroll on "
              f"{minutes:.0f} min): p95 {result['spectrogram_p95_ms']:.1f} ms, median "
              f"{result['spectrogram_median_ms']:.1f} ms, max {result['spectrogram_max_ms']:.1f} ms   "
              "[target p95 <= 100 ms]")
        print(f"spectrogram before its overview exists: p95 {result['spectrogram_cold_p95_ms']:.1f} ms; overview "
              f"built in {result['spectrogram_overview_s']:.2f} s; fast drag drew {dragged} images in 3 s")
        print(f"longest stall while the spectrogram computes {spec_stall:.1f} ms   [target <= 100 ms]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
