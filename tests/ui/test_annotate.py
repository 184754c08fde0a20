"""Annotation mode in the window (offscreen): drag a span on the waveform, resize, label,
undo / redo with Ctrl+Z, delete, mark transcript lines; the spans are in the library."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt

from harp_desktop.api import Library
from tests.ui.conftest import CLIP
from tests.ui.test_main_window import open_and_wait


def drag(qtbot, w, a: float, b: float) -> None:
    """A real left-button drag on the waveform from time a to time b."""
    view = w.waveform.plot

    def at(t: float):
        return view.mapFromScene(w.waveform.vb.mapViewToScene(QPointF(t, 0.0)))

    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=at(a))
    for i in range(1, 6):
        qtbot.mouseMove(view.viewport(), at(a + (b - a) * i / 5))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=at(b))


def spans(w, qid):
    return [(round(s["start_s"], 1), round(s["end_s"], 1), s["label"]) for s in w.lib.spans(qid)]


@pytest.fixture
def annotating(qtbot, make_window, indexed_library):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    w.annotation.act_mode.trigger()
    p = w.annotation.panel
    assert w.annotation.dock.isVisible() and p.drag_mode.isChecked()
    p.annotator.setText("alice")
    p.annotator.editingFinished.emit()
    qid = p.new_question()
    return w, p, qid


def test_drag_a_span_resize_label_undo_and_save(qtbot, annotating, indexed_library, tmp_path):
    w, p, qid = annotating
    p.query.setText("Does the patient mention chest pain?")
    p.query.editingFinished.emit()
    p.answer_kind.setCurrentText("yesno")
    p.answer.setText("Yes")
    p.answer.editingFinished.emit()
    p.query_type.setCurrentText("reported_symptom")
    p.query_type.lineEdit().editingFinished.emit()

    drag(qtbot, w, 5.3, 8.4)
    got = w.lib.spans(qid)
    assert len(got) == 1 and got[0]["annotator"] == "alice" and got[0]["created_at"]
    assert got[0]["start_s"] == pytest.approx(5.3, abs=0.1) and got[0]["end_s"] == pytest.approx(8.4, abs=0.1)
    assert w.waveform.selection() is None and len(p.overlay.items) == 1

    item = p.overlay.items[got[0]["id"]]  # resize by its edge, as a handle drag ends
    item.setRegion((5.0, 8.6))
    item.sigRegionChangeFinished.emit(item)
    assert spans(w, qid) == [(5.0, 8.6, None)]
    p.table.item(0, 2).setText("reply")
    assert spans(w, qid) == [(5.0, 8.6, "reply")]

    w.waveform.setFocus()
    qtbot.keyClick(w.waveform, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert spans(w, qid) == [(5.0, 8.6, None)]
    qtbot.keyClick(w.waveform, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert spans(w, qid) == [(5.3, 8.4, None)]
    qtbot.keyClick(w.waveform, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert spans(w, qid) == [] and p.overlay.items == {}
    p.undo_stack.redo()
    assert spans(w, qid) == [(5.3, 8.4, None)] and w.lib.spans(qid)[0]["id"] == got[0]["id"]

    p.query.setFocus()
    qtbot.keyClick(p.query, Qt.Key.Key_Delete)  # Delete in another field never removes a span
    assert len(spans(w, qid)) == 1
    p.table.setFocus()
    p.table.selectRow(0)
    qtbot.keyClick(p.table, Qt.Key.Key_Delete)
    assert spans(w, qid) == []
    p.undo_stack.undo()
    assert spans(w, qid) == [(5.3, 8.4, None)]

    q = w.lib.db.question(qid)  # saved as it goes: a second connection sees everything
    with Library(indexed_library) as other:
        assert other.truth_spans(qid) == [(got[0]["start_s"], got[0]["end_s"])]
        assert other.db.question(qid) == q
    assert (q["query"], q["answer"], q["answer_kind"], q["query_type"]) == (
        "Does the patient mention chest pain?", "Yes", "yesno", "reported_symptom")
    w.annotation.export_to(str(tmp_path / "spans.eaf"), "eaf")
    from pympi.Elan import Eaf

    assert len(Eaf(str(tmp_path / "spans.eaf")).get_annotation_data_for_tier("alice")) == 1


def test_transcript_lines_and_drag_mode_off(qtbot, annotating):
    w, p, qid = annotating
    view = w.transcript.view
    view.selectionModel().clearSelection()
    for row in (0, 1):
        view.selectionModel().select(w.transcript.model.index(row),
                                     view.selectionModel().SelectionFlag.Select)
    p.mark_lines_btn.click()
    lines = w.data.lines
    assert spans(w, qid) == [(round(lines[0].start_s, 1), round(lines[1].end_s, 1), None)]

    w.annotation.act_mode.trigger()  # leaving annotation mode: a drag is a plain selection again
    assert not w.annotation.dock.isVisible() and p.overlay.items == {}
    drag(qtbot, w, 1.0, 2.0)
    assert w.waveform.selection() is not None and len(w.lib.spans(qid)) == 1


def test_question_edits_undo_and_bad_span_message(qtbot, annotating):
    w, p, qid = annotating
    w.ask_panel.show_answer({"question": "Is anyone coughing?", "answer": "No", "rationale": "", "evidence": [],
                             "citations": [], "supported": False, "notes": [], "timings_s": {}, "models": {}})
    assert p.from_ask_btn.isEnabled()
    p.from_ask_btn.click()
    asked = p.question_id()
    assert asked != qid and w.lib.db.question(asked)["query"] == "Is anyone coughing?"
    p.undo_stack.undo()
    assert [q["id"] for q in w.lib.questions(w.data.sha256)] == [qid] and p.question_id() == qid
    p.answer.setText("No")
    p.answer.editingFinished.emit()
    assert w.lib.db.question(qid)["answer"] == "No"
    p.undo_stack.undo()
    assert w.lib.db.question(qid)["answer"] is None
    p.delete_question()
    assert w.lib.questions(w.data.sha256) == []
    p.undo_stack.undo()
    assert [q["id"] for q in w.lib.questions(w.data.sha256)] == [qid]
    p.annotator.setText("")
    assert not p.mark(1.0, 2.0) and w.lib.spans(qid) == []
    assert "annotator" in w.status_text()
