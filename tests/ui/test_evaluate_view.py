"""The Evaluate view (offscreen): run the evaluation in the background, the per-type and
overall table, and the drill-down of one query on the timeline and the main waveform."""

from __future__ import annotations

import json

from harp_desktop.ui.evaluate_view import EvaluateDialog
from tests.ui.conftest import CLIP
from tests.ui.test_main_window import open_and_wait

QUESTIONS = [
    {"query_id": "e-1", "recording": CLIP.name, "query_type": "reported_symptom",
     "query": "Does the patient report chest pain?", "answer": "Yes", "answer_kind": "yesno",
     "evidence": [[5.26, 8.47]]},
    {"query_id": "e-2", "recording": CLIP.name, "query_type": "negative", "query": "Did the patient report vomiting?",
     "answer": "No", "answer_kind": "yesno", "evidence": []},
]


def test_evaluate_view_table_and_drill_down(qtbot, make_window, indexed_library, tmp_path):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    qfile = tmp_path / "q.jsonl"
    qfile.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    w.lib.import_questions(qfile, CLIP.parent)
    w.annotation.panel.refresh()
    dlg = w.annotation.open_evaluate()
    assert isinstance(dlg, EvaluateDialog) and dlg.isVisible()
    dlg.no_llm.setChecked(True)
    dlg.run()
    qtbot.waitUntil(lambda: dlg.report is not None, timeout=60_000)
    labels = [dlg.summary.verticalHeaderItem(r).text() for r in range(dlg.summary.rowCount())]
    assert labels == ["negative", "reported_symptom", "ALL"]
    assert dlg.summary.item(2, 0).text() == "2" and dlg.summary.item(2, 2).text() == "1.00"
    assert dlg.summary.item(0, 1).text() == "-"  # no truth spans on a negative: no HitRate
    assert dlg.queries.rowCount() == 2 and dlg.run_btn.text() == "Run"

    row = next(r for r in range(2) if dlg.queries.item(r, 0).text() == "e-1")
    with qtbot.waitSignal(dlg.querySelected) as got:
        dlg.queries.selectRow(row)
        dlg.show_query(row)
    q = got.args[0]
    assert q["truth_spans"] == [[5.26, 8.47]] and q["evidence"]
    assert len(dlg.timeline.getPlotItem().items) == 2  # truth and evidence bars
    panel = w.annotation.panel
    assert panel.question_box.currentText().startswith("e-1: ")  # the truth spans on the main waveform
    assert len(panel.overlay.items) == 1 and w.waveform._evidence_item is not None
    assert "e-1" in dlg.detail.text()


def test_evaluate_without_questions_says_so(qtbot, make_window, indexed_library):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    dlg = w.annotation.open_evaluate()
    dlg.run()
    assert "No questions" in dlg.status.text() and dlg.report is None
