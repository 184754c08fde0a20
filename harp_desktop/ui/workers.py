"""Background work: indexing, asking (with lazy LLM loading), envelopes, model status.

Each job is a ``Task`` run on a QThreadPool thread. It reports through its own
``TaskSignals`` (created on the GUI thread, so emits are queued to it) and checks a
stop flag for Cancel. Indexing itself runs in a child process driven by its task (see
``index_worker``); asking runs in the task's thread with its own ``Library`` (SQLite
connections are not shared between threads) and one ``ModelCache`` for the process,
so the text embedder, YAMNet and the language model load once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from harp_desktop.api import Cancelled, IndexOptions, IndexResult, Library, Progress
from harp_desktop.errors import user_message
from harp_desktop.index.context import ModelCache
from harp_desktop.paths import REPO_ROOT
from harp_desktop.store import crypto
from harp_desktop.ui import envelope

log = logging.getLogger(__name__)
SHARED_MODELS = ModelCache()  # one per process: whisper & co. load once, whichever window asks


def preload(models: ModelCache = SHARED_MODELS) -> None:
    """Load the asking path's native parts now, on the GUI thread, at start-up.

    Importing onnxruntime and creating the text embedder's ONNX session each hold the
    GIL for 50-200 ms; done lazily by the first question's worker thread, that froze the
    event loop mid-use. (Indexing runs in its own process and is not affected.)
    """
    import onnxruntime  # noqa: F401

    import harp_desktop.agent.ask  # noqa: F401
    import harp_desktop.retrieval.tools  # noqa: F401

    try:
        models.text()
    except Exception as exc:  # missing weights: the first question reports it
        log.warning("text embedder not preloaded: %s", user_message(exc))


class TaskSignals(QObject):
    progress = Signal(object)  # Progress
    notice = Signal(str)  # something the user should know, the task goes on
    finished = Signal(object)  # the result
    partial = Signal(object)  # a preview of the result (asking: the evidence and a draft answer)
    failed = Signal(str)  # one line
    cancelled = Signal()


class Task(QRunnable):
    """Runs ``work()`` off the GUI thread. Subclasses call ``report`` and ``should_stop``."""

    label = "Working"
    progress_interval_s = 0.1  # at most ~10 progress signals a second reach the event loop

    def __init__(self) -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python owns it (TaskRunner keeps it alive until it has run)
        self.signals = TaskSignals()
        self._stop = threading.Event()
        self.done = threading.Event()
        self._last_stage = ""
        self._last_emit = 0.0

    def cancel(self) -> None:
        self._stop.set()

    def should_stop(self) -> bool:
        return self._stop.is_set()

    def report(self, p: Progress) -> None:
        now = time.monotonic()
        if p.stage != self._last_stage or now - self._last_emit >= self.progress_interval_s or p.fraction >= 1.0:
            self._last_stage, self._last_emit = p.stage, now
            self.signals.progress.emit(p)

    def work(self) -> Any:
        """The task's body, run off the GUI thread; every subclass overrides it."""
        raise NotImplementedError(f"{type(self).__name__} must define work()")

    def run(self) -> None:
        try:
            result = self.work()
        except (Cancelled, InterruptedError):
            self.signals.cancelled.emit()
        except Exception as exc:  # the message reaches the user; the trace goes to the log
            log.exception("%s failed", self.label)
            self.signals.failed.emit(user_message(exc))
        else:
            if self._stop.is_set():
                self.signals.cancelled.emit()
            else:
                self.signals.finished.emit(result)
        finally:
            self.done.set()


class IndexTask(Task):
    """Index (or resume indexing) one file, then compute its waveform envelope.

    The work runs in a child process (``index_worker``): native code in the pipeline
    holds the GIL for long stretches, which would stall the GUI if it ran in a thread
    here. This task only relays the child's progress and results as signals.
    """

    label = "Indexing"
    poll_s = 0.1

    def __init__(self, folder: Path, path: str, options: IndexOptions) -> None:
        super().__init__()
        self.folder, self.path, self.options = Path(folder), path, options
        self._proc: subprocess.Popen | None = None

    def kill(self) -> None:
        """Stop now (window closing): safe, every stage commits atomically and resumes later."""
        self.cancel()
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()

    def work(self) -> IndexResult:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
        cmd = [sys.executable, "-m", "harp_desktop.ui.index_worker", str(self.folder), str(self.path),
               json.dumps(dataclasses.asdict(self.options))]
        key = crypto.unlocked(self.folder) if crypto.is_encrypted(self.folder) else None
        if key is not None:
            cmd.append("--key-on-stdin")  # an encrypted library: the key goes over the pipe, never argv or env
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, encoding="utf-8", env=env)
        self._proc = proc
        if key is not None:
            proc.stdin.write(key.export() + "\n")
            proc.stdin.flush()
        lines: queue.Queue[str | None] = queue.Queue()
        err_tail: deque[str] = deque(maxlen=20)

        def pump(stream, sink) -> None:
            for line in stream:
                sink(line)
            if stream is proc.stdout:
                lines.put(None)

        threading.Thread(target=pump, args=(proc.stdout, lines.put), daemon=True).start()
        threading.Thread(target=pump, args=(proc.stderr, err_tail.append), daemon=True).start()
        outcome: dict = {}
        stop_sent = False
        try:
            while True:
                if self.should_stop() and not stop_sent:
                    stop_sent = True
                    with contextlib.suppress(OSError):  # the child has already exited: nothing to stop
                        proc.stdin.write("stop\n")
                        proc.stdin.flush()
                try:
                    line = lines.get(timeout=self.poll_s)
                except queue.Empty:
                    continue
                if line is None:
                    break
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                if "progress" in msg:
                    self.report(Progress(**msg["progress"]))
                else:
                    outcome = msg
        finally:
            with contextlib.suppress(OSError):  # a pipe the exited child already broke
                proc.stdin.close()
            code = proc.wait()
            self._proc = None
        if "done" in outcome:
            return IndexResult(**outcome["done"])
        if "cancelled" in outcome or self.should_stop():
            raise Cancelled()
        if "error" in outcome:
            raise RuntimeError(outcome["error"])
        tail = "".join(err_tail).strip().splitlines()
        raise RuntimeError(f"the indexing process stopped unexpectedly (exit code {code})"
                           + (f": {tail[-1]}" if tail else ""))


class AskTask(Task):
    """Load the language model if wanted (falling back to none on LLMError), then ask."""

    label = "Asking"

    def __init__(self, folder: Path, ref: str, question: str, cue: str | None = None, llm_choice: str | None = None,
                 retrieval: str = "hybrid", evidence: str = "metadata", fusion: str = "rrf",
                 models: ModelCache = SHARED_MODELS, audio=None, speaker_cue: str | None = None,
                 emotion_cue: str | None = None) -> None:
        super().__init__()
        self.folder, self.ref, self.question, self.cue = Path(folder), ref, question, cue
        self.speaker_cue, self.emotion_cue = speaker_cue, emotion_cue  # issue 16's two-clip questions
        self.llm_choice, self.retrieval, self.evidence, self.fusion = llm_choice, retrieval, evidence, fusion
        self.models = models
        self.audio = audio  # AudioModelConfig (evidence audio|multimodal)

    def work(self) -> dict:
        llm = None
        if self.llm_choice:
            from harp_desktop.agent.llm import LLMError, load_llm

            self.report(Progress("loading language model", 0.0, 0.1, None))
            try:
                llm = load_llm(self.llm_choice)
            except LLMError as exc:
                self.signals.notice.emit(f"{user_message(exc)} Answering without a language model.")
        if self.should_stop():
            raise Cancelled()
        self.report(Progress("asking", 0.0, 0.5, None))
        lib = Library(self.folder)
        lib.models = self.models
        try:
            answer = lib.ask(self.ref, self.question, self.cue, llm=llm, retrieval=self.retrieval,
                             evidence=self.evidence, fusion=self.fusion, audio=self.audio,
                             speaker_cue=self.speaker_cue, emotion_cue=self.emotion_cue,
                             on_draft=self._draft)  # called only when the model answers
        finally:
            lib.close()
        return answer.to_json()

    def _draft(self, draft: dict) -> None:
        if not self.should_stop():
            self.signals.partial.emit(draft)


class EnvelopeTask(Task):
    label = "Waveform"

    def __init__(self, cache_file: Path) -> None:
        super().__init__()
        self.cache_file = cache_file

    def work(self) -> envelope.Envelope:
        return envelope.load_or_build(self.cache_file, should_stop=self.should_stop)


class CallTask(Task):
    """Any blocking call (e.g. ``weights.status``) whose result the GUI shows when ready."""

    def __init__(self, fn, *args: Any, label: str = "Working") -> None:
        super().__init__()
        self.fn, self.args, self.label = fn, args, label

    def work(self) -> Any:
        return self.fn(*self.args)


class TaskRunner(QObject):
    """Starts tasks on its own pool and keeps each alive until it has run."""

    def __init__(self, parent: QObject | None = None, max_threads: int = 3) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self._live: list[Task] = []

    def start(self, task: Task) -> Task:
        self._prune()
        self._live.append(task)
        for sig in (task.signals.finished, task.signals.failed, task.signals.cancelled):
            sig.connect(self._on_task_done)  # a bound QObject method: queued to the GUI thread
        self.pool.start(task)
        return task

    def _on_task_done(self, *_: object) -> None:
        QTimer.singleShot(500, self._prune)  # the pool thread may still be returning from run()

    def _prune(self) -> None:
        self._live = [t for t in self._live if not t.done.is_set()]

    def busy(self) -> bool:
        return any(not t.done.is_set() for t in self._live)

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel everything; after ``timeout_ms``, kill what can be killed (indexing processes)."""
        for t in self._live:
            t.cancel()
        if self.pool.waitForDone(timeout_ms):
            return True
        for t in self._live:
            kill = getattr(t, "kill", None)
            if kill is not None:
                kill()
        return self.pool.waitForDone(2000)
