"""Keyboard span marking in the window (offscreen, real key presses through the window's
shortcuts): [ and ] at the playhead, nudges, labels, undo of each step; jumping, looping,
half speed, zoom to selection; no two commands share a key and Help lists them all."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from harp_desktop.ui.help_dialog import ShortcutsDialog
from tests.ui.conftest import CLIP
from tests.ui.test_main_window import open_and_wait

ALT, SHIFT, CTRL = Qt.KeyboardModifier.AltModifier, Qt.KeyboardModifier.ShiftModifier, Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def marking(qtbot, make_window, indexed_library):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    w.annotation.act_mode.trigger()
    p = w.annotation.panel
    p.annotator.setText("alice")
    p.annotator.editingFinished.emit()
    qid = p.new_question()
    w.waveform.setFocus()
    return w, p, qid


def key(qtbot, w, k, mod=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(w.waveform, k, mod)


def spans(w, qid):
    return [(round(s["start_s"], 3), round(s["end_s"], 3), s["label"]) for s in w.lib.spans(qid)]


def test_mark_nudge_label_and_undo_each(qtbot, marking):
    w, p, qid = marking
    w.seek(1.0)
    key(qtbot, w, Qt.Key.Key_BracketLeft)
    assert w.workbench.keys.pending == pytest.approx(1.0) and spans(w, qid) == []
    key(qtbot, w, Qt.Key.Key_Left, ALT)  # a started span's start nudges too: 10 ms earlier
    assert w.workbench.keys.pending == pytest.approx(0.99)
    w.seek(2.5)
    key(qtbot, w, Qt.Key.Key_BracketRight)
    assert spans(w, qid) == [(0.99, 2.5, None)] and w.workbench.keys.pending is None
    key(qtbot, w, Qt.Key.Key_Right, ALT)  # the end: +10 ms
    assert spans(w, qid) == [(0.99, 2.51, None)]
    key(qtbot, w, Qt.Key.Key_Left, SHIFT)  # -100 ms
    assert spans(w, qid) == [(0.99, 2.41, None)]
    key(qtbot, w, Qt.Key.Key_Backslash)  # now the start
    key(qtbot, w, Qt.Key.Key_Right, SHIFT)
    assert spans(w, qid) == [(1.09, 2.41, None)]
    key(qtbot, w, Qt.Key.Key_1)  # the first label of the short list
    assert spans(w, qid) == [(1.09, 2.41, w.workbench.keys.labels[0])]
    w.seek(3.0)
    key(qtbot, w, Qt.Key.Key_BracketRight)  # no span started: ] moves the current span's end
    assert spans(w, qid)[0][:2] == (1.09, 3.0)
    assert len(p.overlay.items) == 1 and len(p.overlay.all[1].items) == 1  # drawn on the spectrogram too

    history = [[(1.09, 2.41, "cough")], [(1.09, 2.41, None)], [(0.99, 2.41, None)], [(0.99, 2.51, None)],
               [(0.99, 2.5, None)], []]
    for want in history:
        key(qtbot, w, Qt.Key.Key_Z, CTRL)
        assert spans(w, qid) == want
    assert w.workbench.keys.pending == pytest.approx(0.99)  # undoing "]" brings the started span back
    key(qtbot, w, Qt.Key.Key_Z, CTRL)
    assert w.workbench.keys.pending == pytest.approx(1.0)
    key(qtbot, w, Qt.Key.Key_Z, CTRL)
    assert w.workbench.keys.pending is None
    for _ in range(4):
        p.undo_stack.redo()
    assert spans(w, qid) == [(0.99, 2.51, None)]


def test_refusals_are_status_lines(qtbot, marking):
    w, p, qid = marking
    key(qtbot, w, Qt.Key.Key_BracketRight)
    assert "Press [" in w.status_text()
    w.seek(1.0)
    key(qtbot, w, Qt.Key.Key_BracketLeft)
    key(qtbot, w, Qt.Key.Key_BracketRight)  # zero length
    assert "at least" in w.status_text() and spans(w, qid) == []
    p.question_box.setCurrentIndex(-1)
    key(qtbot, w, Qt.Key.Key_BracketLeft)
    assert "question" in w.status_text()


def test_jump_zoom_loop_and_half_speed(qtbot, marking, fake_audio):
    w, p, qid = marking
    for a, b in ((1.0, 2.0), (4.0, 5.0)):
        w.lib.add_span(qid, a, b, "alice")
    w.waveform.set_evidence([(3.0, 3.5)])
    p.refresh()
    w.seek(0.0)
    key(qtbot, w, Qt.Key.Key_Period)
    assert w.player.position() == pytest.approx(1.0) and w.workbench.keys.current is not None
    key(qtbot, w, Qt.Key.Key_Period)
    assert w.player.position() == pytest.approx(3.0) and w.workbench.keys.selection() == (3.0, 3.5)
    key(qtbot, w, Qt.Key.Key_Z)
    x0, x1 = w.waveform.vb.viewRange()[0]
    assert x0 == pytest.approx(2.95, abs=0.01) and x1 == pytest.approx(3.55, abs=0.01)
    key(qtbot, w, Qt.Key.Key_Comma)
    assert w.player.position() == pytest.approx(1.0)

    key(qtbot, w, Qt.Key.Key_L)  # loop 1.0-2.0 s: the fake device hears it wrap
    assert w.workbench.act_loop.isChecked() and w.player.looping == (1.0, 2.0)
    stream = fake_audio.instances[-1]
    for _ in range(3):
        out, stopped = stream.pull(8000)  # 0.5 s a block at 16 kHz: 1.5 s > the loop
        assert not stopped
    assert 1.0 <= w.player.position() < 2.0
    key(qtbot, w, Qt.Key.Key_L)
    assert w.player.looping is None

    w.player.pause()
    key(qtbot, w, Qt.Key.Key_H)
    assert w.player.playing and w.player.speed == 0.5 and w.transport.speed.currentData() == 0.5
    w.player.pause()
    assert w.player.speed == 1.0 and w.transport.speed.currentData() == 1.0
    key(qtbot, w, Qt.Key.Key_Greater)  # faster moved from ] to >
    assert w.transport.speed.currentData() == 1.25


def test_loop_wraps_sample_exactly(qtbot, marking, fake_audio):
    w, _p, _qid = marking
    ramp = np.arange(32000, dtype=np.float32) / 32000
    w.player.set_audio(ramp)
    w.player.set_loop((0.5, 0.5 + 100 / 16000))
    assert w.player.play()
    out, stopped = fake_audio.instances[-1].pull(250)
    samples = np.round(out[:, 0] * 32000).astype(int)
    assert not stopped and list(samples[:3]) == [8000, 8001, 8002]
    assert samples[99] == 8099 and samples[100] == 8000 and samples[200] == 8000


def test_every_command_has_its_own_key_and_is_in_help(qtbot, marking):
    w, *_ = marking
    seen: dict[str, str] = {}
    for act in w.all_actions:
        for k in act.shortcuts():
            name = k.toString()
            assert name not in seen, f"{name} is both {seen[name]!r} and {act.text()!r}"
            seen[name] = act.text()
    assert {"[", "]", "\\", "Alt+Left", "Alt+Right", "Shift+Left", "Shift+Right", "T", "1", "9", ".", ",", "L", "H",
            "Z", "S", "<", ">", "Ctrl+I"} <= set(seen)
    table = ShortcutsDialog(w.all_actions, w).table
    texts = {table.item(r, 0).text() for r in range(table.rowCount())}
    assert {"Start span at playhead", "End span at playhead", "Nudge edge -10 ms", "Loop selection",
            "Play selection at half speed", "Zoom to selection", "Spectrogram", "Next span or evidence"} <= texts
