"""Export from the desktop window (offscreen): the answer shown, all answers, the transcript,
through the menu actions and buttons with temporary paths; the export history dialog."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from harp_desktop.ui.export_actions import AuditDialog, with_suffix
from tests.export.conftest import pdf_pages
from tests.ui.conftest import CLIP

WAIT_MS = 180_000  # indexing a clip on 2 shared cores; a timeout, not a speed target


def test_export_answer_all_transcript_and_history(qtbot, make_window, indexed_library, tmp_path, monkeypatch):
    w = make_window(indexed_library)
    w.open_path(str(CLIP))
    qtbot.waitUntil(lambda: w.data is not None, timeout=10_000)
    ex = w.exporting
    assert ex.buttons["transcript"].isEnabled() and not ex.buttons["answer"].isEnabled()  # nothing asked yet

    w.ask_panel.no_llm.setChecked(True)
    with qtbot.waitSignal(w.answerReady, timeout=WAIT_MS) as got:
        w.ask_panel.ask("Is anyone coughing?")
    answer = got.args[0]
    assert ex.act_answer.isEnabled() and ex.buttons["answer"].isEnabled()

    with qtbot.waitSignal(ex.finished, timeout=WAIT_MS) as done:
        ex.export_answer(str(tmp_path / "answer.pdf"))
    assert done.args[0]["kind"] == "report-pdf"
    text = " ".join(pdf_pages(tmp_path / "answer.pdf"))
    assert "Is anyone coughing?" in text and f"Answer: {answer['answer']}" in text
    assert "Exported report-pdf" in w.statusBar().currentMessage()

    # The button opens a save dialog; the name typed without a suffix gets the chosen filter's.
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "all"), "Markdown report (*.md)"))
    with qtbot.waitSignal(ex.finished, timeout=WAIT_MS):
        ex.buttons["all"].click()
    assert "Is anyone coughing?" in (tmp_path / "all.md").read_text(encoding="utf-8")

    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "subs.vtt"), "WebVTT subtitles (*.vtt)"))
    with qtbot.waitSignal(ex.finished, timeout=WAIT_MS):
        ex.act_transcript.trigger()
    assert (tmp_path / "subs.vtt").read_text(encoding="utf-8").startswith("WEBVTT")

    with qtbot.waitSignal(ex.failed, timeout=WAIT_MS) as bad:  # a folder that does not exist: one line, no file
        ex.export_transcript(str(tmp_path / "missing" / "t.txt"))
    assert "does not exist" in bad.args[0] and "Export failed" in w.statusBar().currentMessage()

    ex.show_audit()
    dlg = next(d for d in w._dialogs if isinstance(d, AuditDialog))
    table = dlg.table
    assert table.rowCount() == 3 and "3 exports" in dlg.summary.text()
    kinds = [table.item(i, 1).text() for i in range(3)]
    assert kinds == ["transcript-vtt", "report-md", "report-pdf"]
    assert all(table.item(i, 3).text() == "ok" for i in range(3))
    Path(tmp_path / "answer.pdf").unlink()
    dlg.refresh()
    assert table.item(2, 3).text() == "missing"


def test_with_suffix():
    assert with_suffix("/x/report", "PDF report (*.pdf)") == "/x/report.pdf"
    assert with_suffix("/x/report.md", "PDF report (*.pdf)") == "/x/report.md"
