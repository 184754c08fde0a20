"""Ask a question about the open recording; see the answer, its citations and evidence."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.agent.ask import EVIDENCE_MODES, RETRIEVAL_MODES
from harp_desktop.retrieval.fusion import FUSIONS
from harp_desktop.types import is_absence
from harp_desktop.ui import answer_html, colors
from harp_desktop.ui.cue_slots import SLOTS, CueSlot
from harp_desktop.ui.timefmt import parse_anchor, span_text

SPAN_ROLE = Qt.ItemDataRole.UserRole


SHORT = {"keyword": "kw", "text_emb": "text", "audio_emb": "audio", "speaker": "voice", "label": "label",
         "fused": "fused"}


def _scores(scores: dict) -> str:
    """Compact: ``kw .90  text .55  fused .03`` (the tooltip has every score in full)."""
    shown = [(k, v) for k, v in scores.items() if k != "time"]
    shown.sort(key=lambda kv: kv[0] == "fused")
    return "  ".join(f"{SHORT.get(k, k)} {v:.2f}".replace(" 0.", " .") for k, v in shown)


class AskPanel(QWidget):
    askRequested = Signal(dict)  # question, cue, speaker_cue, emotion_cue, retrieval, evidence, fusion, no_llm
    cancelRequested = Signal()
    seekRequested = Signal(float)
    playSpanRequested = Signal(float, float)
    cueFromSelectionRequested = Signal(str)  # which clip: "example", "speaker" or "emotion"
    answerShown = Signal(object)  # the answer dict, or None when cleared

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._history: list[dict] = []
        self.current: dict | None = None

        self.question = QLineEdit(self)
        self.question.setPlaceholderText("Ask about this recording, e.g. \u201cIs anyone coughing?\u201d")
        self.question.setClearButtonEnabled(True)
        self.question.setAccessibleName("Question")
        self.question.setToolTip("Type a question and press Enter (Ctrl+L to get here)")
        self.question.returnPressed.connect(self._ask)
        self._completer = QCompleter([], self)
        self._completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.question.setCompleter(self._completer)
        self.ask_button = QPushButton("Ask", self)
        self.ask_button.setToolTip("Answer from the recording's index (Enter)")
        self.ask_button.clicked.connect(self._ask)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop waiting for this answer")
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.cancel_button.hide()
        self.history = QComboBox(self)
        self.history.setToolTip("Questions asked before about this recording: pick one to see its stored answer")
        self.history.setAccessibleName("Earlier questions")
        self.history.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.history.setMinimumContentsLength(12)
        self.history.activated.connect(self._history_chosen)

        self.retrieval = self._combo(RETRIEVAL_MODES, "Retrieval: hybrid = keywords + embeddings + labels")
        self.evidence = self._combo(EVIDENCE_MODES, "Evidence given to the answer step: audio / multimodal play clips "
                                                    "to the audio-capable model set in Settings (not bundled); "
                                                    "without one, metadata is used and the answer says so")
        self.fusion = self._combo(FUSIONS, "How the tools' results are merged and ranked")
        self.no_llm = QCheckBox("No LLM", self)
        self.no_llm.setToolTip("Rule planner and extractive answers, no language model (fast, always available)")

        # The example clip (cue=) and issue 16's speaker and emotion clips (speaker_cue=, emotion_cue=).
        self.cues = {spec.key: CueSlot(spec, self) for spec in SLOTS}
        for slot in self.cues.values():
            slot.fromSelectionRequested.connect(self.cueFromSelectionRequested)
        example = self.cues["example"]
        self.cue_label, self.cue_selection, self.cue_file, self.cue_clear = (example.label, example.selection,
                                                                             example.file, example.clear)
        self.set_selection_available(False)

        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setMaximumHeight(14)
        self.busy.setTextVisible(False)
        self.busy_label = QLabel("", self)
        self.busy.hide()

        self.answer = QTextBrowser(self)
        self.answer.setOpenLinks(False)
        self.answer.setAccessibleName("Answer")
        self.answer.anchorClicked.connect(self._anchor)
        self.answer.setPlaceholderText("The answer appears here, with clickable [mm:ss] citations.")
        self.evidence_list = QTreeWidget(self)
        self.evidence_list.setHeaderLabels(["Time", "Speaker", "Text", "Tags", "Scores"])
        self.evidence_list.setRootIsDecorated(False)
        self.evidence_list.setAlternatingRowColors(True)
        self.evidence_list.setAccessibleName("Evidence")
        self.evidence_list.setToolTip("Click a moment to play it")
        header = self.evidence_list.header()
        header.setStretchLastSection(False)
        for col, mode in enumerate([QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.Interactive,
                                    QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.Interactive,
                                    QHeaderView.ResizeMode.Interactive]):
            header.setSectionResizeMode(col, mode)
        header.resizeSection(1, 90)
        header.resizeSection(3, 100)
        header.resizeSection(4, 190)
        self.evidence_list.itemClicked.connect(self._evidence_clicked)
        self.evidence_list.itemActivated.connect(self._evidence_clicked)

        top = QHBoxLayout()
        top.addWidget(QLabel("<b>Ask</b>", self))
        top.addWidget(self.question, 1)
        top.addWidget(self.ask_button)
        top.addWidget(self.cancel_button)
        top.addWidget(self.history)
        opts = QGridLayout()
        opts.setHorizontalSpacing(6)
        for col, (text, w) in enumerate([("Retrieval", self.retrieval), ("Evidence", self.evidence),
                                         ("Fusion", self.fusion)]):
            label = QLabel(text, self)
            label.setBuddy(w)
            opts.addWidget(label, 0, 2 * col)
            opts.addWidget(w, 0, 2 * col + 1)
        opts.addWidget(self.no_llm, 0, 6)
        opts.setColumnStretch(7, 1)
        busy = QHBoxLayout()
        busy.addWidget(self.busy_label)
        busy.addWidget(self.busy, 1)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.answer)
        split.addWidget(self.evidence_list)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(opts)
        for slot in self.cues.values():
            layout.addLayout(slot.row())
        layout.addLayout(busy)
        layout.addWidget(split, 1)

        QWidget.setTabOrder(self.question, self.ask_button)
        QWidget.setTabOrder(self.ask_button, self.history)
        QWidget.setTabOrder(self.history, self.retrieval)
        QWidget.setTabOrder(self.retrieval, self.evidence)
        QWidget.setTabOrder(self.evidence, self.fusion)
        QWidget.setTabOrder(self.fusion, self.no_llm)
        chain = [self.no_llm, *(w for slot in self.cues.values() for w in slot.widgets()), self.answer]
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)
        QWidget.setTabOrder(self.answer, self.evidence_list)

    def _combo(self, items, tip: str) -> QComboBox:
        c = QComboBox(self)
        c.addItems(list(items))
        c.setToolTip(tip)
        return c

    # -- state from the window ----------------------------------------------------------
    def options(self) -> dict:
        return {"retrieval": self.retrieval.currentText(), "evidence": self.evidence.currentText(),
                "fusion": self.fusion.currentText(), "no_llm": self.no_llm.isChecked()}

    def set_options(self, retrieval: str, evidence: str, fusion: str, no_llm: bool) -> None:
        for combo, value in ((self.retrieval, retrieval), (self.evidence, evidence), (self.fusion, fusion)):
            i = combo.findText(value)
            if i >= 0:
                combo.setCurrentIndex(i)
        self.no_llm.setChecked(no_llm)

    def set_ready(self, ready: bool, why: str = "") -> None:
        """Asking needs an indexed recording."""
        for w in (self.question, self.ask_button):
            w.setEnabled(ready)
        self.question.setPlaceholderText("Ask about this recording, e.g. \u201cIs anyone coughing?\u201d" if ready
                                         else (why or "Open an indexed recording to ask about it"))

    def set_busy(self, busy: bool, text: str = "") -> None:
        self.busy.setVisible(busy)
        self.busy_label.setText(text if busy else "")
        self.cancel_button.setVisible(busy)
        self.ask_button.setVisible(not busy)

    def set_history(self, answers: list[dict]) -> None:
        self._history = list(answers)
        self.history.clear()
        self.history.addItem(f"History ({len(answers)})" if answers else "No history")
        self.history.model().item(0).setEnabled(False)
        for i in range(len(answers) - 1, -1, -1):
            a = answers[i]
            mark = "" if a.get("supported") or is_absence(a) else " \u2717"
            self.history.addItem(f"{a['question'][:60]}{mark}", i)
        self.history.setEnabled(bool(answers))
        self._completer.model().setStringList(list(dict.fromkeys(a["question"] for a in reversed(answers))))

    def add_to_history(self, answer: dict) -> None:
        self.set_history([*self._history, answer])

    def set_selection_available(self, available: bool) -> None:
        for slot in self.cues.values():
            slot.selection.setEnabled(available)

    def set_cue(self, path: str | None, label: str = "", slot: str = "example") -> None:
        self.cues[slot].set(path, label)

    def cue(self, slot: str = "example") -> str | None:
        return self.cues[slot].path

    def clear_cues(self) -> None:
        """A new recording: clips cut from the previous one's selection no longer apply."""
        for slot in self.cues.values():
            slot.set(None)

    def clear(self) -> None:
        self.current = None
        self.answer.clear()
        self.evidence_list.clear()
        self.set_history([])
        self.answerShown.emit(None)

    def reportable(self) -> dict | None:
        """The answer shown, unless it is a draft (the model is still writing): drafts are not exported."""
        return None if self.current is None or self.current.get("draft") else self.current

    def show_answer(self, a: dict) -> None:
        self.current = a
        self.answer.setHtml(answer_html.render(a))
        self.evidence_list.clear()
        unsupported = QBrush(QColor("#9e9e9e"))
        for e in a.get("evidence", []):
            scores = e.get("scores", {})
            labels = e.get("labels", [])
            events = [lab for lab in labels if not lab.startswith("emotion:")]
            tags = events + [lab for lab in labels if lab not in events]  # sounds first, then emotions
            item = QTreeWidgetItem([span_text(e["start_s"], e["end_s"]), e.get("speaker") or "\u2013",
                                    (e.get("text") or "").strip() or "(no speech)", ", ".join(tags),
                                    _scores(scores)])
            item.setData(0, SPAN_ROLE, (float(e["start_s"]), float(e["end_s"])))
            item.setToolTip(2, (e.get("text") or "").strip())
            item.setToolTip(3, "\n".join(tags))
            item.setToolTip(4, "\n".join(f"{k}: {v:.3f}" for k, v in scores.items()))
            if events:
                item.setForeground(3, QBrush(QColor(colors.tag_color(events[0]))))
            if not a.get("supported"):
                item.setForeground(2, unsupported)
            self.evidence_list.addTopLevelItem(item)
        self.answerShown.emit(a)

    def evidence_span(self, row: int) -> tuple[float, float]:
        return self.evidence_list.topLevelItem(row).data(0, SPAN_ROLE)

    # -- user actions -------------------------------------------------------------------
    def ask(self, question: str) -> None:
        self.question.setText(question)
        self._ask()

    def _ask(self) -> None:
        q = self.question.text().strip()
        if not q or not self.ask_button.isEnabled() or self.cancel_button.isVisible():
            return
        self.askRequested.emit({"question": q, "cue": self.cue(), "speaker_cue": self.cue("speaker"),
                                "emotion_cue": self.cue("emotion"), **self.options()})

    def _history_chosen(self, index: int) -> None:
        i = self.history.itemData(index)
        if i is None:
            return
        a = self._history[i]
        self.question.setText(a["question"])
        self.show_answer(a)
        self.history.setCurrentIndex(0)

    def _anchor(self, url: QUrl) -> None:
        span = parse_anchor(url.toString())
        if span:
            self.playSpanRequested.emit(*span)

    def _evidence_clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        a, b = item.data(0, SPAN_ROLE)
        self.playSpanRequested.emit(a, b)
