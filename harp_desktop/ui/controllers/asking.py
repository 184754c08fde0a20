"""Asking in the window: a question runs as a worker task; drafts, answers, notices, example clips."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import soundfile as sf
from PySide6.QtCore import QObject

from harp_desktop.agent.audio_evidence import AudioModelConfig
from harp_desktop.api import Progress
from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.ui import envelope, passphrase
from harp_desktop.ui.controllers.host import WindowHost
from harp_desktop.ui.timefmt import span_text
from harp_desktop.ui.workers import AskTask

MAX_CUE_S = 120.0


class AskingController(QObject):
    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.w = window
        self.task: AskTask | None = None
        self._rid: int | None = None  # the recording the running question is about
        self._notices: list[str] = []
        self.cue_dir = tempfile.TemporaryDirectory(prefix="harp-cue-")
        ask = window.ask_panel
        ask.askRequested.connect(self.ask)
        ask.cancelRequested.connect(self.cancel)
        ask.cueFromSelectionRequested.connect(self.cue_from_selection)
        ask.answerShown.connect(self._on_answer_shown)
        ask.no_llm.toggled.connect(self.remember_options)

    def focus_question(self) -> None:
        self.w.ask_panel.question.setFocus()
        self.w.ask_panel.question.selectAll()

    def remember_options(self, *_: object) -> None:
        o, s = self.w.ask_panel.options(), self.w.settings
        s.retrieval, s.evidence = o["retrieval"], o["evidence"]
        s.fusion, s.no_llm = o["fusion"], o["no_llm"]

    def ask(self, req: dict) -> None:
        w = self.w
        if w.data is None or self.task is not None:
            return
        self.remember_options()
        llm = None if req["no_llm"] else w.settings.llm
        audio = AudioModelConfig.resolve(w.settings.audio_model, w.settings.audio_projector)
        task = AskTask(w.lib.folder, w.data.sha256, req["question"], req.get("cue"), llm, req["retrieval"],
                       req["evidence"], req["fusion"], audio=audio,
                       speaker_cue=req.get("speaker_cue"), emotion_cue=req.get("emotion_cue"))  # issue 16
        task.signals.progress.connect(self._progress)
        task.signals.notice.connect(self._notice)
        task.signals.partial.connect(self._draft)
        task.signals.finished.connect(self._done)
        task.signals.failed.connect(self._failed)
        self.task, self._rid, self._notices = task, w.data.id, []
        w.ask_panel.set_busy(True, "Loading the language model\u2026" if llm else "Searching\u2026")
        w.runner.start(task)

    def _is_current(self) -> bool:
        return self.task is not None and self.sender() is self.task.signals

    def _progress(self, p: Progress) -> None:
        if self._is_current():
            text = {"loading language model": "Loading the language model\u2026", "asking": "Searching\u2026"}
            self.w.ask_panel.busy_label.setText(text.get(p.stage, p.stage))

    def _notice(self, message: str) -> None:
        if not self._is_current():
            return
        self._notices.append(message)
        self.w.statusBar().showMessage(message, 15000)
        self.w.ask_panel.no_llm.setChecked(True)  # fall back for the next questions too; untick to retry

    def _draft(self, draft: dict) -> None:
        """Evidence first: the moments are clickable while the language model writes the answer."""
        w = self.w
        if not self._is_current() or w.data is None or w.data.id != self._rid:
            return
        w.ask_panel.show_answer(draft)
        w.ask_panel.busy_label.setText("The language model is writing the answer\u2026")

    def _done(self, answer: dict) -> None:
        w = self.w
        if not self._is_current():
            return
        self.task = None
        w.ask_panel.set_busy(False)
        if w.data is None or w.data.id != self._rid:
            return  # the user moved on; the answer is in that recording's history
        answer = {**answer, "notes": [*self._notices, *answer.get("notes", [])]}
        w.ask_panel.add_to_history(answer)
        w.ask_panel.show_answer(answer)
        w.statusBar().showMessage(f"Answered in {answer.get('timings_s', {}).get('total', 0):.2f} s", 5000)
        w.answerReady.emit(answer)

    def _failed(self, message: str) -> None:
        if not self._is_current():
            return
        self.task = None
        self.w.ask_panel.set_busy(False)
        self.w.statusBar().showMessage(f"Could not answer: {message}", 15000)
        self.w.ask_panel.answer.setHtml(f'<p style="color:#c62828">Could not answer: {message}</p>')

    def cancel(self) -> None:
        if self.task is None:
            return
        self.task.cancel()  # its result is dropped; a running search cannot be interrupted
        self.task = None
        self.w.ask_panel.set_busy(False)
        self.w.statusBar().showMessage("Question cancelled", 5000)

    def cue_from_selection(self, slot: str = "example") -> None:
        """The waveform selection as a clip for one of the ask panel's slots (example / speaker / emotion)."""
        w = self.w
        sel = w.waveform.selection()
        if sel is None or w.data is None or not w.data.audio_cache.exists():
            return
        a, b = sel
        if b - a > MAX_CUE_S:
            w.statusBar().showMessage(f"An example must be under {MAX_CUE_S:.0f} s; select a shorter span", 8000)
            return
        audio = envelope.open_cache(w.data.audio_cache)
        clip = np.asarray(audio[int(a * SAMPLE_RATE):int(b * SAMPLE_RATE)], dtype=np.float32)
        path = passphrase.memory_clip(clip, SAMPLE_RATE) if w.lib.encrypted else None  # never in /tmp
        if path is None:
            path = Path(self.cue_dir.name) / f"selection_{a:.2f}-{b:.2f}.wav"
            sf.write(path, clip, SAMPLE_RATE, subtype="FLOAT")
        w.ask_panel.set_cue(str(path), f"selection {span_text(a, b)} ({b - a:.1f} s)", slot)

    def _on_answer_shown(self, answer: dict | None) -> None:
        spans = [(e["start_s"], e["end_s"]) for e in answer.get("evidence", [])] if answer else []
        self.w.waveform.set_evidence(spans)
