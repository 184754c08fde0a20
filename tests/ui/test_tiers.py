"""Tier lanes in the window (offscreen): one lane per annotator, hideable, the agreement of the
visible tiers; clicking a span makes it the keyboard's current span; by-question grouping."""

from __future__ import annotations

import pytest

from harp_desktop.evaluate.agreement import agreement
from tests.ui.conftest import CLIP
from tests.ui.test_main_window import open_and_wait


@pytest.fixture
def two_annotators(qtbot, make_window, indexed_library):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    qid = w.lib.add_question(w.data.sha256, "Is anyone coughing?")
    for a, b, who in ((1.0, 2.0, "alice"), (3.0, 4.0, "alice"), (1.2, 2.2, "bob")):
        w.lib.add_span(qid, a, b, who, "cough")
    w.workbench.refresh_tiers()
    return w, qid


def test_tiers_hide_and_agreement(qtbot, two_annotators):
    w, qid = two_annotators
    t = w.workbench.tiers
    assert t.isVisible() and t.visible_tiers() == ["alice", "bob"]
    a = agreement([(1.0, 2.0), (3.0, 4.0)], [(1.2, 2.2)])
    assert w.lib.agreement(qid, "alice", "bob")["span_f1"] == a["span_f1"]  # the figure the library computes
    assert t.agreement.text() == f"alice vs bob: span F1 {a['span_f1']:.2f}, time F1 {a['time_f1']:.2f} (q-001)"
    t.menu_actions()[1].setChecked(False)  # hide bob, as from the Tiers menu
    assert t.visible_tiers() == ["alice"] and t.agreement.text() == ""
    assert {r["annotator"] for r in t.visible_spans()} == {"alice"}
    t.set_tier_visible("bob", True)
    assert [a.isChecked() for a in t.menu_actions()] == [True, True]

    bob = next(r for r in t.rows if r["annotator"] == "bob")
    _name, y0, h, _lane = next(x for x in t._layout if x[0] == "bob")
    t._clicked(1.7, y0 + h / 2)
    assert w.workbench.keys.current == bob["id"] and t.current_id == bob["id"]
    pos = w.player.position()
    assert pos == pytest.approx(1.2)
    end = w.waveform.duration - 0.5
    t._clicked(end, y0 + h / 2)  # no span there: a plain seek
    pos = w.player.position()  # (pytest's repr of a Player hangs: compare plain floats)
    assert pos == pytest.approx(end)

    t.set_grouping("question")
    assert t.visible_tiers() == ["q-001"] and t.agreement.text().startswith("q-001: alice vs bob")
    w.workbench.act_tiers.trigger()
    assert not t.isVisible()


def test_import_dialog_previews_then_imports_undoably(qtbot, two_annotators, tmp_path):
    from harp_desktop.ui.span_import_dialog import SpanImportDialog

    w, qid = two_annotators
    bad = tmp_path / "bad.txt"
    bad.write_text("0\t99999\ttoo long\n")
    dlg = SpanImportDialog(w.lib, w.data.sha256, str(bad), w)
    assert dlg.plan is None and not dlg.import_btn.isEnabled() and "ends after" in dlg.summary.text()

    good = tmp_path / "carol.txt"
    good.write_text("5\t6\twheeze\n6.5\t7\t\u043a\u0430\u0448\u0435\u043b\u044c\n")
    dlg = SpanImportDialog(w.lib, w.data.sha256, str(good), w)
    dlg.annotator.setText("carol")
    dlg.preview()
    assert dlg.import_btn.isEnabled() and dlg.table.rowCount() == 2
    assert dlg.table.item(0, 1).text() == "carol (new)" and dlg.table.item(1, 5).text() == "\u043a\u0430\u0448\u0435\u043b\u044c"
    assert w.workbench.apply_import(dlg.plan)
    assert "carol" in w.workbench.tiers.visible_tiers()
    w.annotation.panel.undo_stack.undo()
    assert "carol" not in w.workbench.tiers.visible_tiers()
    assert [q["query_id"] for q in w.lib.questions(w.data.sha256)] == ["q-001"]
    w.annotation.panel.undo_stack.redo()
    assert "carol" in w.workbench.tiers.visible_tiers()
