"""The audio model for evidence audio|multimodal, set in the Settings dialog: persisted, handed
to the ask worker, and -- with no usable model here -- a note and the metadata answer."""

from __future__ import annotations

from tests.ui.conftest import CLIP
from tests.ui.test_main_window import ask, open_and_wait


def test_settings_dialog_edits_and_persists_the_audio_model(qtbot, store, tmp_path):
    from harp_desktop.ui.settings import Settings
    from harp_desktop.ui.settings_dialog import SettingsDialog

    s = Settings.load(store)
    assert (s.audio_model, s.audio_projector) == ("", "")
    dlg = SettingsDialog(s)
    qtbot.addWidget(dlg)
    dlg.audio_model.setText(f"  {tmp_path / 'model.gguf'} ")
    dlg.audio_projector.setText(str(tmp_path / "mmproj.gguf"))
    dlg.apply_to(s)
    s.save(store)
    again = Settings.load(store)
    assert (again.audio_model, again.audio_projector) == (str(tmp_path / "model.gguf"), str(tmp_path / "mmproj.gguf"))
    assert SettingsDialog(again).audio_projector.text() == str(tmp_path / "mmproj.gguf")


def test_audio_evidence_without_a_usable_model_says_so(qtbot, make_window, indexed_library, store, tmp_path):
    from harp_desktop.ui.settings import Settings

    s = Settings.load(store)
    s.llm, s.audio_model, s.audio_projector = "smollm2", str(tmp_path / "none.gguf"), str(tmp_path / "none-mm.gguf")
    s.save(store)
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    w.ask_panel.evidence.setCurrentText("audio")
    a = ask(qtbot, w, "Is anyone coughing?", no_llm=False)
    assert any(n.startswith("evidence mode 'audio' unavailable: audio model file not found") for n in a["notes"])
    assert a["models"]["audio_llm"] is None and a["answer"]
    assert "audio model file not found" in w.ask_panel.answer.toPlainText()
