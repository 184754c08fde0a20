"""The Evaluate view: `harp eval` over the library's annotated questions, in a window.

Runs the headless evaluation (harp_desktop.evaluate) in a worker thread, then shows the
table per query type and overall, and per query the ground-truth spans against the
retrieved evidence on a timeline (and on the main waveform).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from harp_desktop.api import Library, Progress
from harp_desktop.errors import user_message
from harp_desktop.evaluate.runner import Case, EvalOptions
from harp_desktop.ui.timefmt import clock
from harp_desktop.ui.workers import SHARED_MODELS, Task

TRUTH_COLOR, EVIDENCE_COLOR = "#2e7d32", "#ef6c00"
SUMMARY_COLUMNS = ["n", "HitRate", "Accuracy", "Citations", "Latency s"]
QUERY_COLUMNS = ["Query", "Type", "Expected", "Answer", "Correct", "HitRate", "Citations", "Latency s"]


class EvalTask(Task):
    """Evaluate cases with the task's own Library (SQLite connections stay in their thread)."""

    label = "Evaluating"

    def __init__(self, folder: Path, cases: list[Case], options: EvalOptions, llm_choice: str | None) -> None:
        super().__init__()
        self.folder, self.cases, self.options, self.llm_choice = Path(folder), cases, options, llm_choice

    def work(self) -> dict:
        llm = None
        if self.llm_choice:
            from harp_desktop.agent.llm import LLMError, load_llm

            try:
                llm = load_llm(self.llm_choice)
            except LLMError as exc:
                self.signals.notice.emit(f"{user_message(exc)} Evaluating without a language model.")
        lib = Library(self.folder)
        lib.models = SHARED_MODELS
        try:
            report = lib.evaluate(self.cases, self.options, llm, should_stop=self.should_stop,
                                  progress=lambda i, n, row: self.report(Progress(row["query_id"], i / n, i / n,
                                                                                  None)))
        finally:
            lib.close()
        return report.to_json()


def _f(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"


class EvaluateDialog(QDialog):
    querySelected = Signal(dict)  # a report row: the window shows its spans on the waveform

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Evaluate against annotated questions")
        self.report: dict | None = None
        self._task: EvalTask | None = None
        self.scope = QComboBox(self)
        self.scope.addItems(["This recording", "Whole library"])
        self.retrieval = QComboBox(self)
        self.retrieval.addItems(["hybrid", "keyword", "vector"])
        self.fusion = QComboBox(self)
        self.fusion.addItems(["rrf", "harp", "calibrated"])
        self.oracle = QCheckBox("Oracle (truth spans as evidence)", self)
        self.no_llm = QCheckBox("No language model", self)
        self.no_llm.setChecked(bool(window.settings.no_llm))
        self.run_btn = QPushButton("Run", self)
        self.status = QLabel("", self)
        self.summary = QTableWidget(0, len(SUMMARY_COLUMNS), self)
        self.summary.setHorizontalHeaderLabels(SUMMARY_COLUMNS)
        self.queries = QTableWidget(0, len(QUERY_COLUMNS), self)
        self.queries.setHorizontalHeaderLabels(QUERY_COLUMNS)
        for t in (self.summary, self.queries):
            t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.timeline = pg.PlotWidget(background="w")
        self.timeline.setMaximumHeight(110)
        self.timeline.getPlotItem().getAxis("left").setTicks([[(0.5, "evidence"), (1.5, "truth")]])
        self.timeline.setMouseEnabled(x=True, y=False)
        self.timeline.setYRange(0, 2, padding=0.05)
        self.detail = QLabel("", self)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        opts = QHBoxLayout()
        for w in (self.scope, self.retrieval, self.fusion, self.oracle, self.no_llm, self.run_btn):
            opts.addWidget(w)
        opts.addStretch(1)
        lower = QWidget(self)
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.queries, 1)
        ll.addWidget(self.timeline)
        ll.addWidget(self.detail)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.summary)
        split.addWidget(lower)
        split.setSizes([180, 420])
        layout = QVBoxLayout(self)
        layout.addLayout(opts)
        layout.addWidget(self.status)
        layout.addWidget(split, 1)
        self.resize(980, 680)
        self.run_btn.clicked.connect(self.run)
        self.queries.currentCellChanged.connect(lambda r, *_: self.show_query(r))

    # -- running ---------------------------------------------------------------------------
    def cases(self) -> list[Case]:
        data = self.window_.data
        ref = data.sha256 if self.scope.currentIndex() == 0 and data is not None else None
        return self.window_.lib.eval_cases(ref)

    def run(self) -> None:
        if self._task is not None:
            self._task.cancel()
            return
        cases = self.cases()
        if not cases:
            self.status.setText("No questions to evaluate: add or import questions in Annotate first.")
            return
        opts = EvalOptions(self.retrieval.currentText(), self.fusion.currentText(), self.oracle.isChecked())
        llm = None if self.no_llm.isChecked() else self.window_.settings.llm
        task = EvalTask(self.window_.lib.folder, cases, opts, llm)
        task.signals.progress.connect(lambda p: self.status.setText(f"Asking {p.stage} ({p.fraction:.0%})"))
        task.signals.notice.connect(self.status.setText)
        task.signals.finished.connect(self._done)
        task.signals.failed.connect(lambda msg: self._stopped(f"Evaluation failed: {msg}"))
        task.signals.cancelled.connect(lambda: self._stopped("Evaluation cancelled"))
        self._task = task
        self.run_btn.setText("Cancel")
        self.status.setText(f"Evaluating {len(cases)} question(s)\u2026")
        self.window_.runner.start(task)

    def _stopped(self, message: str) -> None:
        self._task = None
        self.run_btn.setText("Run")
        self.status.setText(message)

    def _done(self, report: dict) -> None:
        self._stopped("")
        self.show_report(report)

    # -- showing ---------------------------------------------------------------------------
    def show_report(self, report: dict) -> None:
        self.report = report
        o = report["overall"]
        self.status.setText(f"{o['n']} question(s); retrieval {o['retrieval']}, fusion {o['fusion']}, "
                            f"{o.get('llm') or 'no language model'}")
        rows = [*report["by_type"].items(), ("ALL", o)]
        self.summary.setRowCount(len(rows))
        self.summary.setVerticalHeaderLabels([t for t, _ in rows])
        for r, (_, s) in enumerate(rows):
            for c, v in enumerate([str(s["n"]), _f(s["hit_rate"]), _f(s["answer_accuracy"]),
                                   _f(s["citation_validity"]), _f(s.get("latency_median_s"))]):
                self.summary.setItem(r, c, QTableWidgetItem(v))
        qs = report["queries"]
        self.queries.setRowCount(len(qs))
        for r, q in enumerate(qs):
            ok = {True: "yes", False: "NO", None: "-"}[q["correct"]]
            for c, v in enumerate([q["query_id"], q["query_type"], str(q["truth"] or ""), q["answer"], ok,
                                   _f(q["hit_rate"]), _f(q["citation_validity"]), f"{q['latency_s']:.2f}"]):
                item = QTableWidgetItem(v)
                item.setToolTip(q["query"])
                self.queries.setItem(r, c, item)
        if qs:
            self.queries.selectRow(0)
            self.show_query(0)

    def show_query(self, row: int) -> None:
        if self.report is None or not 0 <= row < len(self.report["queries"]):
            return
        q = self.report["queries"][row]
        self.timeline.clear()
        spans = q["truth_spans"] + q["evidence"]
        for y0, items, color in ((1.1, q["truth_spans"], TRUTH_COLOR), (0.1, q["evidence"], EVIDENCE_COLOR)):
            if items:
                x0 = np.array([a for a, _ in items], float)
                x1 = np.maximum(np.array([b for _, b in items], float), x0 + 0.2)
                self.timeline.addItem(pg.BarGraphItem(x0=x0, x1=x1, y0=y0, height=0.8, brush=pg.mkBrush(color),
                                                      pen=pg.mkPen(color)))
        if spans:
            lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
            pad = max(2.0, 0.1 * (hi - lo))
            self.timeline.setXRange(max(0.0, lo - pad), hi + pad, padding=0)
        truth = ", ".join(f"{clock(a)}-{clock(b)}" for a, b in q["truth_spans"]) or "none (negative question)"
        self.detail.setText(f"<b>{q['query_id']}</b> {q['query']}<br>expected <b>{q['truth']}</b>, answered "
                            f"<b>{q['answer']}</b><br>truth spans: {truth}; evidence: {len(q['evidence'])} "
                            f"moment(s)<br>{q['rationale']}")
        self.querySelected.emit(q)
