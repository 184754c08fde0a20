"""Undo and redo of finding corrections in the Findings panel (pytest-qt, offscreen): a
rejection, an edit of an automatic finding, an edit of an annotator's one; the buttons and
Ctrl+Z / Ctrl+Shift+Z in the list; the stack is cleared for another recording; and in the
real window Ctrl+Z in the findings list undoes the finding step, not the Annotate panel's."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from harp_desktop.api import Library
from harp_desktop.findings import service
from harp_desktop.findings.model import Finding
from harp_desktop.ui.findings_panel import STATUS, FindingsPanel
from tests.ui.conftest import CLIP
from tests.ui.findings_data import make_consultation, rich_extract
from tests.ui.test_findings_panel import SPEAKERS, by_concept


@pytest.fixture
def lib(library_dir, monkeypatch):
    monkeypatch.setattr(service, "load_extractor", lambda: rich_extract)
    with Library(library_dir) as lib:
        yield lib


@pytest.fixture
def panel(qtbot, lib):
    sha = make_consultation(lib)
    p = FindingsPanel(lambda: lib, lambda: "tester")
    qtbot.addWidget(p)
    p.set_recording(sha, SPEAKERS)
    p.resize(480, 700)
    p.show()
    return p


def stored(lib, p) -> list[tuple]:
    return [(f.id, f.concept, f.status, f.value, f.source, f.rejected) for f in lib.findings(p.ref)]


def test_a_rejection_is_undone_and_redone(panel, lib):
    before = stored(lib, panel)
    f = by_concept(panel, "paracetamol")
    assert not panel.undo_btn.isEnabled()
    panel.select(f.id)
    panel.reject_btn.click()
    assert by_concept(panel, "paracetamol", rejected=True).id == f.id and panel.undo_btn.isEnabled()
    panel.undo_btn.click()
    assert stored(lib, panel) == before and not by_concept(panel, "paracetamol").rejected
    assert panel.selected_id() == f.id and panel.reject_btn.isEnabled() and panel.redo_btn.isEnabled()
    panel.redo_btn.click()
    assert next(x for x in lib.findings(panel.ref) if x.id == f.id).rejected
    assert "1 rejected" in panel.status.text()


def test_an_edit_of_an_automatic_finding_is_undone_to_it(panel, lib):
    before = stored(lib, panel)
    f = by_concept(panel, "dizziness")
    panel.select(f.id)
    panel.status_box.setCurrentText("denied")
    new = panel.save_edit()
    assert new.id < 0 and by_concept(panel, "dizziness").status == "negated"
    assert panel.undo_btn.toolTip().startswith("Undo edit dizziness")
    panel.undo_btn.click()
    assert stored(lib, panel) == before and panel.selected_id() == f.id
    assert panel.item_for(f.id).text(STATUS) == "uncertain"
    panel.redo_btn.click()
    assert [(x.id, x.status) for x in lib.findings(panel.ref) if x.concept == "dizziness"] == [(new.id, "negated")]
    assert panel.selected_id() == new.id


def test_an_edit_of_an_annotators_finding_is_undone_in_place(panel, lib):
    f = by_concept(panel, "headache")
    panel.select(f.id)
    panel.value.setText("ten days ago")
    first = panel.save_edit()
    panel.concept.setText("migraine")
    second = panel.save_edit()
    assert second.id == first.id and second.concept == "migraine"
    panel.undo_btn.click()
    back = next(x for x in lib.findings(panel.ref) if x.id == first.id)
    assert (back.concept, back.value) == ("headache", "ten days ago")
    panel.undo_btn.click()
    assert [(x.source, x.value) for x in lib.findings(panel.ref) if x.concept == "headache"] == [("auto", "last week")]


def test_ctrl_z_in_the_list_undoes_and_ctrl_shift_z_redoes(qtbot, panel, lib):
    f = by_concept(panel, "cough")
    panel.select(f.id)
    panel.reject_btn.click()
    panel.tree.setFocus()
    qtbot.keyClick(panel.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not next(x for x in lib.findings(panel.ref) if x.id == f.id).rejected
    qtbot.keyClick(panel.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert next(x for x in lib.findings(panel.ref) if x.id == f.id).rejected


def test_another_recording_clears_the_stack(panel):
    panel.select(by_concept(panel, "cough").id)
    panel.reject_btn.click()
    assert panel.undo_stack.count() == 1
    ref = panel.ref
    panel.set_recording(None)
    assert panel.undo_stack.count() == 0 and not panel.undo_btn.isEnabled()
    panel.set_recording(ref, SPEAKERS)
    assert by_concept(panel, "cough", rejected=True)  # the correction itself stays


def test_an_undo_whose_finding_went_is_said_not_crashed(panel, lib):
    f = by_concept(panel, "paracetamol")
    panel.select(f.id)
    panel.reject_btn.click()
    lib.db.db.execute("DELETE FROM finding_edits")  # another program took the rejection back
    panel.undo_btn.click()
    assert panel.undo_stack.command(0).failed and not by_concept(panel, "paracetamol").rejected


def test_ctrl_z_in_the_windows_findings_list_is_the_findings_undo(qtbot, make_window, indexed_library):
    with Library(indexed_library) as lib:
        sha = lib.recording(str(CLIP.resolve()))["sha256"]
        seg = lib.transcript(sha)["segments"][1]
        lib.add_finding(sha, Finding("cough", "respiratory", "symptom", "negated", seg["speaker"], None,
                                     seg["start_s"], seg["end_s"], seg["text"]))
    w = make_window(indexed_library)
    w.open_path(str(CLIP))
    qtbot.waitUntil(lambda: w.data is not None and w.findings.panel.ref == sha, timeout=20000)
    p = w.findings.panel
    f = next(x for x in p.findings() if x.source == "annotator")
    p.select(f.id)
    p.reject_btn.click()
    assert w.lib.findings(sha)[[x.id for x in w.lib.findings(sha)].index(f.id)].rejected
    p.tree.setFocus()
    qtbot.keyClick(p.tree, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not next(x for x in w.lib.findings(sha) if x.id == f.id).rejected
