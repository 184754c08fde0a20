"""The ask panel's clip slots (issue 16): an example clip, a speaker clip and an emotion clip,
each from a file, from the waveform selection, or cleared; the question carries all three
to ``Library.ask`` (``cue=``, ``speaker_cue=``, ``emotion_cue=``)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import soundfile as sf
from PySide6.QtWidgets import QFileDialog

from harp_desktop.api import Library
from harp_desktop.ui.ask_panel import AskPanel
from harp_desktop.ui.workers import AskTask
from tests.ui.conftest import CLIP


@pytest.fixture
def panel(qtbot):
    p = AskPanel()
    qtbot.addWidget(p)
    p.set_ready(True)
    return p


def asked(qtbot, p: AskPanel, question: str = "When did this speaker sound like this?") -> dict:
    with qtbot.waitSignal(p.askRequested) as got:
        p.ask(question)
    return got.args[0]


def test_three_slots_start_empty_and_reach_the_request(qtbot, panel, tmp_path):
    assert [s.title.text() for s in panel.cues.values()] == ["Example clip:", "Speaker clip:", "Emotion clip:"]
    assert all(not s.clear.isEnabled() and s.label.text() == "none" for s in panel.cues.values())
    req = asked(qtbot, panel)
    assert req["cue"] is None and req["speaker_cue"] is None and req["emotion_cue"] is None
    panel.set_cue(str(tmp_path / "dr.wav"), slot="speaker")
    panel.set_cue(str(tmp_path / "angry.wav"), "selection 00:10-00:12 (2.0 s)", slot="emotion")
    assert panel.cues["speaker"].label.text() == "dr.wav" and panel.cues["speaker"].clear.isEnabled()
    assert panel.cues["emotion"].label.text() == "selection 00:10-00:12 (2.0 s)"
    req = asked(qtbot, panel)
    assert req["speaker_cue"] == str(tmp_path / "dr.wav") and req["emotion_cue"] == str(tmp_path / "angry.wav")
    assert req["cue"] is None and req["question"] and "retrieval" in req  # the options still ride along


def test_clear_buttons_and_clear_cues(qtbot, panel):
    for key in panel.cues:
        panel.set_cue(f"/clips/{key}.wav", slot=key)
    panel.cues["emotion"].clear.click()
    req = asked(qtbot, panel)
    assert (req["cue"], req["speaker_cue"], req["emotion_cue"]) == ("/clips/example.wav", "/clips/speaker.wav", None)
    panel.clear_cues()
    assert all(panel.cue(k) is None for k in panel.cues)


def test_from_selection_says_which_slot(qtbot, panel):
    assert not any(s.selection.isEnabled() for s in panel.cues.values())
    panel.set_selection_available(True)
    assert all(s.selection.isEnabled() for s in panel.cues.values())
    for key in ("speaker", "emotion", "example"):
        with qtbot.waitSignal(panel.cueFromSelectionRequested) as got:
            panel.cues[key].selection.click()
        assert got.args == [key]


def test_from_file(qtbot, panel, monkeypatch, tmp_path):
    clip = str(tmp_path / "voice.flac")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (clip, "")))
    panel.cues["speaker"].file.click()
    assert panel.cue("speaker") == clip and panel.cue() is None and panel.cue("emotion") is None


def test_ask_task_passes_both_clips_to_the_library(monkeypatch, library_dir):
    Library(library_dir).close()
    seen = {}

    def fake_ask(self, ref, question, cue=None, **kw):
        seen.update(ref=ref, question=question, cue=cue, **kw)
        return SimpleNamespace(to_json=lambda: {"question": question, "answer": "ok"})

    monkeypatch.setattr(Library, "ask", fake_ask)
    task = AskTask(library_dir, "abc", "When did X sound like this?", "/c/sound.wav",
                   speaker_cue="/c/x.wav", emotion_cue="/c/angry.wav")
    assert task.work() == {"question": "When did X sound like this?", "answer": "ok"}
    assert (seen["cue"], seen["speaker_cue"], seen["emotion_cue"]) == ("/c/sound.wav", "/c/x.wav", "/c/angry.wav")


def test_window_cuts_the_selection_into_the_speaker_slot_and_asks_with_it(qtbot, make_window, indexed_library,
                                                                          monkeypatch):
    w = make_window(indexed_library)
    w.open_path(str(CLIP))
    qtbot.waitUntil(lambda: w.waveform.has_waveform, timeout=20000)
    w.waveform.set_selection(1.0, 2.5)
    w.ask_panel.cues["speaker"].selection.click()
    clip = w.ask_panel.cue("speaker")
    assert clip and sf.info(clip).duration == pytest.approx(1.5, abs=0.01) and w.ask_panel.cue() is None
    assert w.ask_panel.cues["speaker"].label.text().startswith("selection 00:01")
    started = []
    monkeypatch.setattr(w.runner, "start", started.append)  # the request, not the answer, is under test
    w.ask_panel.no_llm.setChecked(True)
    w.ask_panel.ask("When did this speaker sound calm?")
    assert started and started[0].speaker_cue == clip and started[0].emotion_cue is None
    w._ask_task = None
    w.show_recording(w.data.sha256)  # a fresh view of the recording: clips from its selection are dropped
    assert w.ask_panel.cue("speaker") is None
