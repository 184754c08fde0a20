"""The annotator's workbench (issue 19) wired into the main window: the spectrogram lane and
the tier lanes under the waveform, keyboard span marking, and importing span files.

``install(window)`` is the only entry point; it runs after the Annotate menu exists. The
window keeps no workbench logic: everything reaches it through signals the window and
the waveform already emit, and its actions go through ``window._action`` so Help >
Keyboard shortcuts lists them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QFileDialog, QMenu

from harp_desktop.errors import user_message
from harp_desktop.evaluate import span_import
from harp_desktop.store import dbapi
from harp_desktop.ui import annotate_undo as cmd
from harp_desktop.ui.span_import_dialog import FILTER, SpanImportDialog
from harp_desktop.ui.span_keys import NUDGE_COARSE_S, NUDGE_FINE_S, SpanKeys
from harp_desktop.ui.span_overlay import SpanOverlay
from harp_desktop.ui.spectrogram import SpectrogramView
from harp_desktop.ui.tiers import TiersView

SHOW_SPECTROGRAM_KEY = "view/spectrogram"
SHOW_TIERS_KEY = "view/tiers"


class _Overlays:
    """The annotation panel's SpanOverlay, repeated on the spectrogram (same spans, same drags)."""

    def __init__(self, primary: SpanOverlay, *others: SpanOverlay) -> None:
        self.primary, self.all = primary, (primary, *others)

    @property
    def items(self) -> dict:
        return self.primary.items

    def set_spans(self, spans: list[dict], annotator: str) -> None:
        for o in self.all:
            o.set_spans(spans, annotator)

    def clear(self) -> None:
        for o in self.all:
            o.clear()


def _menu(window, title: str) -> QMenu:
    return next(a.menu() for a in window.menuBar().actions() if a.text() == title)


def _flag(store, key: str) -> bool:
    return str(store.value(key, "true")).lower() not in ("false", "0")


class Workbench(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window
        self._sha: str | None = None
        wf = window.waveform
        self.mode = window.annotation
        panel = self.mode.panel
        self.spectrogram = SpectrogramView(wf, wf.parentWidget())
        self.tiers = TiersView(wf, wf.parentWidget())
        column = wf.parentWidget().layout()  # main_window._build: waveform, then the transport bar
        at = column.indexOf(wf)
        column.insertWidget(at + 1, self.spectrogram, 1)
        column.insertWidget(at + 2, self.tiers)
        panel.overlay = _Overlays(panel.overlay, SpanOverlay(self.spectrogram, panel._span_moved))
        self.keys = SpanKeys(window, self.mode, [wf.vb, self.spectrogram.vb, self.tiers.vb])
        self.keys.on_change = self._keys_changed
        self._build_actions()

        window.player.positionChanged.connect(self.spectrogram.set_position)
        window.player.positionChanged.connect(self.tiers.set_position)
        wf.evidenceSet.connect(self._evidence)
        window.recordingShown.connect(self._recording_shown)
        panel.undo_stack.indexChanged.connect(lambda _i: self.refresh_tiers())
        self.tiers.spanClicked.connect(self.keys.select_span)
        if hasattr(window, "watch"):  # another program's edits (e.g. `harp questions import-spans`)
            window.watch.changed.connect(self.refresh_tiers)
        self.spectrogram.setVisible(self.act_spectrogram.isChecked())
        window.installEventFilter(self)
        self.refresh_tiers()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt API)
        if obj is self.w and event.type() == QEvent.Type.Close:
            self.spectrogram.close_worker()  # its thread would otherwise wait for requests until exit
        return False

    # -- actions ---------------------------------------------------------------------------
    def _build_actions(self) -> None:
        w, k, sp = self.w, self.keys, self.spectrogram
        view = _menu(w, "&View")
        view.addSeparator()
        self.act_spectrogram = w._action(view, "&Spectrogram", self.show_spectrogram, "S",
                                         "Show the spectrogram lane under the waveform", checkable=True)
        self.act_spectrogram.setChecked(_flag(w.store, SHOW_SPECTROGRAM_KEY))
        w._action(view, "Spectrogram ceiling higher", lambda: sp.step_ceiling(1), "Alt+Up")
        w._action(view, "Spectrogram ceiling lower", lambda: sp.step_ceiling(-1), "Alt+Down")
        w._action(view, "Spectrogram range wider", lambda: sp.step_range(1), "Alt+PgUp")
        w._action(view, "Spectrogram range narrower", lambda: sp.step_range(-1), "Alt+PgDown")
        self.act_tiers = w._action(view, "Annotation &tiers", self.show_tiers, "Ctrl+Shift+T",
                                   "Show the annotators' spans as lanes under the spectrogram", checkable=True)
        self.act_tiers.setChecked(_flag(w.store, SHOW_TIERS_KEY))

        m = _menu(w, "&Annotate")
        m.addSeparator()
        w._action(m, "Start span at playhead", k.mark_start, "[", "Begin a span where the playhead is")
        w._action(m, "End span at playhead", k.mark_end, "]", "Save the started span, ending where the playhead is")
        w._action(m, "Switch nudged edge", k.switch_edge, "\\", "Nudges move the start or the end")
        w._action(m, "Nudge edge -10 ms", lambda: k.nudge(-NUDGE_FINE_S), "Alt+Left")
        w._action(m, "Nudge edge +10 ms", lambda: k.nudge(NUDGE_FINE_S), "Alt+Right")
        w._action(m, "Nudge edge -100 ms", lambda: k.nudge(-NUDGE_COARSE_S), "Shift+Left")
        w._action(m, "Nudge edge +100 ms", lambda: k.nudge(NUDGE_COARSE_S), "Shift+Right")
        w._action(m, "Label span\u2026", k.label_dialog, "T", "Type a label or pick one from the list")
        self.quick = QMenu("Quick labels", m)
        m.addMenu(self.quick)
        self.quick_actions = [w._action(self.quick, "", lambda _=False, i=i: k.quick_label(i), str(i + 1))
                              for i in range(9)]
        w._action(m, "Edit the label list\u2026", k.edit_labels)
        w._action(m, "Next span or evidence", lambda: k.jump(1, self.tiers.visible_spans()), ".")
        w._action(m, "Previous span or evidence", lambda: k.jump(-1, self.tiers.visible_spans()), ",")
        self.act_loop = w._action(m, "Loop selection", self.loop, "L", "Play the selection over and over",
                                  checkable=True)
        w._action(m, "Play selection at half speed", k.play_half_speed, "H",
                  "Half speed; the pitch drops too (sounddevice has no pitch-preserving time-stretch)")
        w._action(m, "Zoom to selection", k.zoom_to_selection, "Z")
        m.addSeparator()
        w._action(m, "Import spans (ELAN, Praat, Audacity)\u2026", self.import_spans, "Ctrl+I",
                  "Bring in .eaf, .TextGrid or Audacity label files as tiers of spans")
        self._label_actions()

    def _label_actions(self) -> None:
        for i, act in enumerate(self.quick_actions):
            label = self.keys.labels[i] if i < len(self.keys.labels) else None
            act.setText(f"Label span \u201c{label}\u201d" if label else f"Label {i + 1} (unused)")
            act.setEnabled(label is not None)

    def show_spectrogram(self, on: bool) -> None:
        self.spectrogram.setVisible(on)
        self.w.store.setValue(SHOW_SPECTROGRAM_KEY, on)

    def show_tiers(self, on: bool) -> None:
        self.w.store.setValue(SHOW_TIERS_KEY, on)
        self.refresh_tiers()

    def loop(self, on: bool) -> None:
        if not self.keys.toggle_loop(on):
            self.act_loop.setChecked(False)

    # -- data ----------------------------------------------------------------------------------
    def _recording_shown(self, _path: str) -> None:
        sha = self.w.data.sha256 if self.w.data else None
        if sha != self._sha:  # another recording: the panel cleared its undo stack, the keys start afresh
            self._sha = sha
            self.keys.reset()
            self.act_loop.setChecked(False)
        self.refresh_tiers()

    def _evidence(self, spans: list) -> None:
        self.keys.evidence = list(spans)

    def _keys_changed(self) -> None:
        self.tiers.set_current(self.keys.current)
        self._label_actions()

    def span_rows(self) -> list[dict]:
        if self.w.data is None or getattr(self.w, "_closed", False):
            return []
        rows = []
        for q in self.w.lib.questions(self.w.data.sha256):
            rows += [{**r, "query_id": q["query_id"]} for r in self.w.lib.spans(q["id"])]
        return rows

    def refresh_tiers(self) -> None:
        if getattr(self.w, "_closed", False):  # the undo stack's clear() on destruction signals after the lanes went
            return
        try:
            rows = self.span_rows()
        except (LookupError, *dbapi.Error):  # the recording went away meanwhile: the window says so
            rows = []
        self.tiers.set_spans(rows)
        self.tiers.setVisible(bool(rows) and self.act_tiers.isChecked())

    # -- import ------------------------------------------------------------------------------
    def import_spans(self) -> None:
        if self.w.data is None:
            self.w.statusBar().showMessage("Open a recording first", 6000)
            return
        path, _ = QFileDialog.getOpenFileName(self.w, "Import spans", "", FILTER)
        if path:
            dlg = SpanImportDialog(self.w.lib, self.w.data.sha256, path, self.w)
            if dlg.exec() and dlg.plan is not None:
                self.apply_import(dlg.plan)

    def apply_import(self, plan: span_import.ImportPlan) -> bool:
        """Import a previewed plan as one undo step."""
        lib, panel = lambda: self.w.lib, self.mode.panel
        try:
            done = span_import.apply(lib(), plan)
        except (ValueError, LookupError, OSError, *dbapi.Error) as exc:
            self.w.statusBar().showMessage(f"Import failed: {user_message(exc)}", 15000)
            return False
        panel.undo_stack.push(cmd.ApiCommand(f"import {Path(plan.path).name}", lambda: span_import.redo(lib(), done),
                                             lambda: span_import.undo(lib(), done), panel._after))
        self.w.statusBar().showMessage(f"Imported {len(done.added)} span(s) from {Path(plan.path).name}", 8000)
        return True


def install(window) -> Workbench:
    return Workbench(window)
