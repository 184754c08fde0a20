"""The Findings panel over a real Library: grouping by kind, statuses in words and colour, a
click plays the finding, edits and rejections go through the API and show at once, and
role corrections (panel header, speakers-panel menu) re-attribute the findings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from harp_desktop.api import Library
from harp_desktop.findings import display as fd
from harp_desktop.findings import service
from harp_desktop.findings.model import KINDS, STATUSES, Finding
from harp_desktop.ui.findings_panel import NO_FINDINGS_YET, STATUS, TIME, WHO, FindingsPanel
from harp_desktop.ui.recording_data import SpeakerInfo
from harp_desktop.ui.workers import TaskRunner
from tests.findings.helpers import CONSULTATION, make_recording
from tests.ui.conftest import CLIP
from tests.ui.findings_data import make_consultation, rich_extract

SPEAKERS = [SpeakerInfo("SPEAKER_1", "Reception", 0, 4.0), SpeakerInfo("SPEAKER_2", "Dr Okafor", 1, 20.0),
            SpeakerInfo("SPEAKER_3", "SPEAKER_3", 2, 20.0)]


@pytest.fixture
def lib(library_dir, monkeypatch):
    monkeypatch.setattr(service, "load_extractor", lambda: rich_extract)  # set_role re-extracts with it
    with Library(library_dir) as lib:
        yield lib


@pytest.fixture
def panel(qtbot, lib):
    sha = make_consultation(lib)
    p = FindingsPanel(lambda: lib, lambda: "tester")
    qtbot.addWidget(p)
    p.set_recording(sha, SPEAKERS)
    p.resize(480, 700)
    p.show()  # rows need a size to be clicked
    return p


def by_concept(p: FindingsPanel, concept: str, rejected: bool = False) -> Finding:
    return next(f for f in p.findings() if f.concept == concept and f.rejected == rejected)


def test_display_words_cover_the_model():
    assert set(fd.STATUS_WORDS) == set(fd.STATUS_COLORS) == set(STATUSES)
    assert set(fd.KIND_TITLES) == set(KINDS)
    assert fd.status_from_word("denied") == "negated" and fd.status_from_word("conditional advice") == "hypothetical"


def test_grouped_by_kind_in_clinical_order(panel):
    assert panel.groups() == ["Symptoms (6)", "Medications (1)", "Allergies (1)", "Vital signs (1)",
                              "Examination (1)", "Diagnoses considered (1)", "Plan (1)", "History (1)"]
    symptoms = panel.tree.topLevelItem(0)
    times = [symptoms.child(i).text(TIME) for i in range(symptoms.childCount())]
    assert times == sorted(times) and times[0] == "[00:11]"  # by time inside a group
    assert not symptoms.flags() & Qt.ItemFlag.ItemIsSelectable  # a heading, not a finding
    assert "13 findings" in panel.status.text()


@pytest.mark.parametrize("concept, word", [("cough", "affirmed"), ("sputum", "denied"), ("headache", "past"),
                                           ("chest pain", "conditional advice"), ("asthma", "family/other"),
                                           ("dizziness", "uncertain")])
def test_status_in_words_and_colour(panel, concept, word):
    f = by_concept(panel, concept)
    item = panel.item_for(f.id)
    assert item.text(STATUS) == word
    assert item.foreground(STATUS).color() == QColor(fd.status_color(f.status))
    assert item.font(STATUS).bold() and not item.font(STATUS).strikeOut()


def test_row_says_who_and_when(panel):
    cough = panel.item_for(by_concept(panel, "cough").id)
    assert cough.text(0) == "cough (about a week)" and cough.text(WHO) == "patient" and cough.text(TIME) == "[00:11]"
    exam = panel.item_for(by_concept(panel, "chest auscultation").id)
    assert exam.text(WHO) == "clinician" and exam.toolTip(WHO) == "Dr Okafor (SPEAKER_2): clinician"
    sputum = panel.item_for(by_concept(panel, "sputum").id)
    assert "bringing up any phlegm" in sputum.toolTip(0) and "nothing comes up" in sputum.toolTip(0)  # both turns


def test_click_plays_the_finding(qtbot, panel):
    f = by_concept(panel, "sputum")  # a question-answer pair: the span covers both turns
    item = panel.item_for(f.id)
    rect = panel.tree.visualItemRect(item)
    with qtbot.waitSignal(panel.playSpanRequested) as sig:
        qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert sig.args == [16.0, 23.0]
    assert panel.selected_id() == f.id and panel.quote.text().startswith("\u201cAre you bringing up")


def test_reject_goes_through_the_api_and_strikes_the_row(panel, lib):
    f = by_concept(panel, "dizziness")
    panel.select(f.id)
    messages = []
    panel.message.connect(messages.append)
    panel.reject_btn.click()
    stored = next(x for x in lib.findings(panel.ref) if x.concept == "dizziness")
    assert stored.rejected
    item = panel.item_for(stored.id)
    assert all(item.font(c).strikeOut() for c in range(4))
    assert item.foreground(0).color() == QColor(fd.REJECTED_COLOR) and "rejected" in item.toolTip(STATUS)
    assert not panel.reject_btn.isEnabled() and not panel.save_btn.isEnabled()
    assert "12 findings" in panel.status.text() and "1 rejected" in panel.status.text()
    assert messages and "Rejected dizziness" in messages[-1]


def test_edit_status_concept_and_value(panel, lib):
    f = by_concept(panel, "cough")
    panel.select(f.id)
    panel.status_box.setCurrentText("past")
    panel.concept.setText("productive cough")
    panel.value.setText("ten days")
    panel.save_btn.click()
    stored = [x for x in lib.findings(panel.ref) if x.concept == "productive cough"]
    assert len(stored) == 1 and stored[0].status == "historical" and stored[0].value == "ten days"
    assert stored[0].source == "annotator" and stored[0].id < 0
    assert not any(x.concept == "cough" for x in lib.findings(panel.ref))  # replaced, not duplicated
    item = panel.item_for(stored[0].id)
    assert item.text(0) == "\u270e productive cough (ten days)" and item.text(STATUS) == "past"
    assert item.font(0).italic() and panel.selected_id() == stored[0].id  # the edited row stays selected
    # An annotator's finding is edited in place (same id).
    panel.value.setText("")
    panel.save_btn.click()
    again = next(x for x in lib.findings(panel.ref) if x.concept == "productive cough")
    assert again.id == stored[0].id and again.value is None


def test_nothing_changed_is_said_not_saved(panel, lib):
    panel.select(by_concept(panel, "fever").id)
    messages = []
    panel.message.connect(messages.append)
    assert panel.save_edit() is None and "Nothing to save" in messages[-1]
    assert all(f.source == "auto" for f in lib.findings(panel.ref))


def test_role_correction_in_the_header(panel, lib):
    header = panel.roles_header
    assert {k: header.role(k) for k in header.combos} == {"SPEAKER_1": "other", "SPEAKER_2": "clinician",
                                                         "SPEAKER_3": "patient"}
    assert "confidence" in header.combos["SPEAKER_3"].toolTip()
    header.choose("SPEAKER_3", "other")
    assert lib.roles(panel.ref)["SPEAKER_3"] == "other"
    assert panel.item_for(by_concept(panel, "cough").id).text(WHO) == "other"
    assert "set by hand" in panel.roles_header.combos["SPEAKER_3"].toolTip()


def test_role_correction_on_a_worker(qtbot, lib, library_dir):
    sha = make_consultation(lib)
    runner = TaskRunner()
    p = FindingsPanel(lambda: lib, lambda: "tester", runner)
    qtbot.addWidget(p)
    p.set_recording(sha, SPEAKERS)
    with qtbot.waitSignal(p.rolesChanged, timeout=20000, check_params_cb=lambda r: r["SPEAKER_2"] == "patient"):
        p.roles_header.choose("SPEAKER_2", "patient")
        assert p.busy() and not p.roles_header.combos["SPEAKER_1"].isEnabled()
    assert not p.busy() and p.roles_header.combos["SPEAKER_1"].isEnabled()
    assert p.item_for(by_concept(p, "chest auscultation").id).text(WHO).startswith("patient")
    runner.shutdown(2000)


def test_no_findings_stage_yet_says_what_to_do(qtbot, lib):
    make_recording(lib.db, CONSULTATION, sha="ef" * 32)  # segments only: the findings stage never ran
    p = FindingsPanel(lambda: lib)
    qtbot.addWidget(p)
    p.set_recording("ef" * 32, SPEAKERS)
    assert p.status.text() == NO_FINDINGS_YET and p.groups() == []
    assert all(p.roles_header.role(k) is None for k in p.roles_header.combos)  # combos there, no role yet
    p.set_recording(None)
    assert p.groups() == [] and not p.roles_header.isVisibleTo(p)


def test_window_dock_plays_and_corrects_roles_from_the_speakers_panel(qtbot, make_window, indexed_library):
    """The real window over an indexed clip: the dock shows a finding added through the API,
    a click plays its span, and the speakers list's menu sets a role."""
    with Library(indexed_library) as lib:
        sha = lib.recording(str(CLIP.resolve()))["sha256"]
        seg = lib.transcript(sha)["segments"][1]
        lib.add_finding(sha, Finding("cough", "respiratory", "symptom", "negated", seg["speaker"], None,
                                     seg["start_s"], seg["end_s"], seg["text"]))
    w = make_window(indexed_library)
    renames = []
    w.speakers.renameRequested.connect(lambda *a: renames.append(a))
    w.open_path(str(CLIP))
    qtbot.waitUntil(lambda: w.data is not None and w.waveform.has_waveform, timeout=20000)
    dock = w.findings
    assert dock.dock.isVisible() and dock.act.isChecked() and dock.panel.ref == sha
    f = next(x for x in dock.panel.findings() if x.source == "annotator")  # the index may have found others
    assert dock.panel.item_for(f.id).text(STATUS) == "denied"
    dock.panel._clicked(dock.panel.item_for(f.id))
    assert w.player.position() == pytest.approx(f.start_s, abs=0.05) and w.player.playing
    label = seg["speaker"]
    menu = dock.role_menu(label)
    next(a for a in menu.actions() if a.text() == "Role: clinician").trigger()
    qtbot.waitUntil(lambda: not dock.panel.busy() and w.lib.roles(sha).get(label) == "clinician", timeout=20000)
    item = next(w.speakers.list.item(i) for i in range(w.speakers.list.count())
                if w.speakers.list.item(i).data(Qt.ItemDataRole.UserRole) == label)
    assert item.toolTip().startswith("Role: clinician")
    assert renames == []  # the role in the tooltip is not a rename (that looped: rename, reload, tooltip...)
    dock.act.trigger()  # View > Findings unticked
    assert not dock.dock.isVisible() and not dock.act.isChecked() and str(w.store.value("view/findings")).lower() in ("false", "0")
    w.clear_recording()
    assert dock.panel.ref is None
