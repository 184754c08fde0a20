"""Marking spans from the keyboard while listening (Annotate menu; all in Help > Keyboard shortcuts).

``[`` starts a span at the playhead, ``]`` ends it there and saves it for the current
question (or, with no span started, moves the current span's end to the playhead);
Alt+Left/Right nudge the active edge by 10 ms, Shift+Left/Right by 100 ms, ``\\``
switches which edge; T labels the span (typed or picked), 1-9 pick from the short list;
``.`` / ``,`` jump to the next / previous span or evidence; L loops the selection, H plays
it at half speed, Z zooms to it. "The selection" is the current span, else the
evidence jumped to, else the waveform selection, else the started span up to the playhead.

Every edit is a command on the annotation panel's QUndoStack (the Annotate menu's Ctrl+Z),
including starting a span and nudging a started one, which only live here until ``]``.
Looping, jumping, zooming and playing change no data and are not undo steps.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QObject, QSettings, Qt
from PySide6.QtWidgets import QInputDialog

from harp_desktop.errors import user_message
from harp_desktop.store import dbapi
from harp_desktop.ui import annotate_undo as cmd

NUDGE_FINE_S = 0.010
NUDGE_COARSE_S = 0.100
MIN_SPAN_S = 0.020
HALF_SPEED = 0.5
DEFAULT_LABELS = ("cough", "throat clearing", "wheeze", "breath", "sneeze", "speech", "laughter", "crying", "other")
LABELS_KEY = "annotate/labels"


def load_labels(store: QSettings) -> list[str]:
    raw = store.value(LABELS_KEY)
    if isinstance(raw, str):
        raw = [raw]
    labels = [str(x).strip() for x in (raw or DEFAULT_LABELS) if str(x).strip()]
    return list(dict.fromkeys(labels)) or list(DEFAULT_LABELS)


class SpanKeys(QObject):
    def __init__(self, window, mode, views: list[pg.ViewBox]) -> None:
        super().__init__(window)
        self.w, self.mode, self.panel = window, mode, mode.panel
        self.pending: float | None = None  # a started span's start, until "]"
        self.current: int | None = None  # the span id the edge commands act on
        self.edge = "end"
        self.jumped: tuple[float, float] | None = None  # evidence jumped to: the selection for L / H / Z
        self.evidence: list[tuple[float, float]] = []  # the answer shown (the workbench keeps it current)
        self.labels = load_labels(window.store)
        self.on_change = lambda: None  # the workbench redraws tiers and markers
        self._restore_speed: float | None = None
        self._markers: list[tuple[pg.InfiniteLine, pg.InfiniteLine]] = []
        for vb in views:
            start = pg.InfiniteLine(angle=90, pen=pg.mkPen("#2e7d32", width=2, style=Qt.PenStyle.DashLine))
            edge = pg.InfiniteLine(angle=90, pen=pg.mkPen("#ef6c00", width=3))
            for line in (start, edge):
                line.setZValue(12)
                line.hide()
                vb.addItem(line, ignoreBounds=True)
            self._markers.append((start, edge))
        window.player.playingChanged.connect(self._playing_changed)

    # -- state ------------------------------------------------------------------------
    def reset(self) -> None:
        self.pending, self.current, self.jumped, self.edge = None, None, None, "end"
        self.w.player.set_loop(None)
        self.refresh_markers()

    def _lib(self):
        return self.w.lib

    def _row(self, span_id: int | None) -> dict | None:
        if span_id is None:
            return None
        try:
            return self._lib().db.annotation(span_id)
        except LookupError:  # undone, or deleted in the table
            return None

    def _say(self, text: str) -> None:
        self.w.statusBar().showMessage(text, 6000)

    def _state(self) -> tuple:
        return self.pending, self.current, self.edge, self.jumped

    def _set_state(self, state: tuple) -> None:
        self.pending, self.current, self.edge, self.jumped = state

    def _after(self) -> None:
        self.panel._after()
        self.refresh_markers()

    def refresh_markers(self) -> None:
        row = self._row(self.current)
        if self.current is not None and row is None:
            self.current = None
        for start, edge in self._markers:
            start.setVisible(self.pending is not None)
            if self.pending is not None:
                start.setValue(self.pending)
            edge.setVisible(row is not None)
            if row is not None:
                edge.setValue(row["start_s"] if self.edge == "start" else row["end_s"])
        self.on_change()

    def _push_state(self, text: str, new: tuple) -> None:
        """An undo step for state that lives here (a started span), not in the library."""
        old = self._state()
        self._set_state(new)
        self.panel.undo_stack.push(cmd.ApiCommand(text, lambda: self._set_state(new), lambda: self._set_state(old),
                                                  self.refresh_markers))

    def _push(self, make) -> bool:
        try:
            self.panel.undo_stack.push(make())
        except (ValueError, LookupError, OSError, *dbapi.Error) as exc:  # a bad span, a read-only library
            self._say(user_message(exc))
            return False
        return True

    def _ready(self) -> tuple[int, str] | None:
        """The question and annotator a new span goes to; opens annotation mode to choose them."""
        if self.w.data is None:
            self._say("Open a recording first")
            return None
        if not self.mode.dock.isVisible():
            self.mode.set_mode(True)
        qid, who = self.panel.question_id(), self.panel.who()
        if qid is None:
            self._say("Choose or create a question in the Annotate panel first")
            return None
        if not who:
            self._say("Enter the annotator's name in the Annotate panel first")
            return None
        return qid, who

    def _clamp(self, t: float) -> float:
        return min(max(0.0, t), self.w.player.duration or (self.w.data.duration_s if self.w.data else t))

    # -- marking -------------------------------------------------------------------------
    def mark_start(self) -> None:
        if self._ready() is None:
            return
        t = self._clamp(self.w.player.position())
        self._push_state(f"start span at {t:.2f} s", (t, self.current, "start", None))
        self._say(f"Span started at {t:.2f} s: ] ends it at the playhead")

    def mark_end(self) -> None:
        ready = self._ready()
        if ready is None:
            return
        qid, who = ready
        t = self._clamp(self.w.player.position())
        if self.pending is not None:
            a, b = sorted((self.pending, t))
            if b - a < MIN_SPAN_S:
                self._say(f"A span must be at least {MIN_SPAN_S * 1000:.0f} ms long; play on, then press ]")
                return
            old = self._state()
            lib = self._lib
            holder: dict = {}

            def make():
                sid = lib().add_span(qid, a, b, who, None)
                holder["row"] = lib().db.annotation(sid)
                self._set_state((None, sid, "end", None))
                return cmd.ApiCommand(f"mark {a:.2f}-{b:.2f} s",
                                      lambda: (lib().restore_span(holder["row"]),
                                               self._set_state((None, sid, "end", None))),
                                      lambda: (lib().delete_span(sid), self._set_state(old)), self._after)

            if self._push(make):
                self._say(f"Marked {a:.2f}-{b:.2f} s: T or 1-9 labels it, Alt/Shift+arrows nudge its end")
            return
        row = self._row(self.current)
        if row is None:
            self._say("Press [ at the start of the sound first")
            return
        if t < row["start_s"] + MIN_SPAN_S:
            self._say("The playhead is before the span's start: ] sets the end")
            return
        self.edge = "end"
        self._push(lambda: cmd.update_span(self._lib, row["id"], {"end_s": t}, self._after, "set span end"))

    def switch_edge(self) -> None:
        self.edge = "start" if self.edge == "end" else "end"
        self.refresh_markers()
        self._say(f"Nudges now move the {self.edge}")

    def nudge(self, dt: float) -> None:
        if self.pending is not None:
            t = self._clamp(self.pending + dt)
            self._push_state(f"nudge start {dt * 1000:+.0f} ms", (t, self.current, "start", None))
            return
        row = self._row(self.current)
        if row is None:
            self._say("No span to nudge: press [ / ], click a span in the tiers, or jump with . and ,")
            return
        if self.edge == "start":
            key, value = "start_s", min(max(0.0, row["start_s"] + dt), row["end_s"] - MIN_SPAN_S)
        else:
            key, value = "end_s", max(self._clamp(row["end_s"] + dt), row["start_s"] + MIN_SPAN_S)
        if abs(value - row[key]) < 1e-9:
            return
        self._push(lambda: cmd.update_span(self._lib, row["id"], {key: value}, self._after,
                                           f"nudge {self.edge} {dt * 1000:+.0f} ms"))

    def set_label(self, label: str | None) -> None:
        row = self._row(self.current)
        if row is None:
            self._say("No span to label: end one with ] or pick one first")
            return
        label = (label or "").strip() or None
        if label != row["label"]:
            self._push(lambda: cmd.update_span(self._lib, row["id"], {"label": label}, self._after, "label span"))

    def label_dialog(self) -> None:
        row = self._row(self.current)
        if row is None:
            self._say("No span to label: end one with ] or pick one first")
            return
        items = self.labels if not row["label"] or row["label"] in self.labels else [row["label"], *self.labels]
        text, ok = QInputDialog.getItem(self.w, "Label span", "Label (type a new one or pick):", items,
                                        items.index(row["label"]) if row["label"] in items else 0, True)
        if ok:
            self.remember_label(text)
            self.set_label(text)

    def remember_label(self, text: str) -> None:
        text = text.strip()
        if text and text not in self.labels:
            self.labels = [*self.labels, text]
            self.w.store.setValue(LABELS_KEY, self.labels)

    def quick_label(self, i: int) -> None:
        if i < len(self.labels):
            self.set_label(self.labels[i])

    def edit_labels(self) -> None:
        text, ok = QInputDialog.getText(self.w, "Labels", "The short list of labels, comma-separated (1-9 pick them):",
                                        text=", ".join(self.labels))
        if ok:
            self.labels = [x.strip() for x in text.split(",") if x.strip()] or list(DEFAULT_LABELS)
            self.w.store.setValue(LABELS_KEY, self.labels)
            self.on_change()

    # -- moving around -------------------------------------------------------------------
    def targets(self, extra: list[dict]) -> list[tuple[float, float, int | None]]:
        """Spans to jump between: the current question's, the visible tiers', and the evidence."""
        out: dict[tuple, None] = {}
        qid = self.panel.question_id()
        rows = list(extra) + (self._lib().spans(qid) if qid is not None and self.w.data is not None else [])
        for r in rows:
            out[(r["start_s"], r["end_s"], r["id"])] = None
        for a, b in self.evidence:
            out[(a, b, None)] = None
        return sorted(out, key=lambda s: (s[0], s[1]))

    def jump(self, direction: int, extra: list[dict]) -> None:
        pos = self.w.player.position()
        spans = self.targets(extra)
        if direction > 0:
            hit = next((s for s in spans if s[0] > pos + 0.005), None)
        else:
            hit = next((s for s in reversed(spans) if s[0] < pos - 0.005), None)
        if hit is None:
            self._say("No more spans or evidence that way")
            return
        a, b, sid = hit
        self.pending = None
        self.current, self.jumped, self.edge = sid, (None if sid else (a, b)), "start"
        self.w.seek(a)
        self.w.waveform.show_span(a, b)
        self.refresh_markers()

    def select_span(self, row: dict) -> None:
        """A span clicked in the tiers: the keyboard commands act on it now."""
        self.pending, self.current, self.jumped, self.edge = None, row["id"], None, "start"
        self.w.seek(row["start_s"])
        self.refresh_markers()

    def selection(self) -> tuple[float, float] | None:
        row = self._row(self.current)
        if row is not None:
            return row["start_s"], row["end_s"]
        if self.jumped:
            return self.jumped
        sel = self.w.waveform.selection()
        if sel:
            return sel
        if self.pending is not None:
            a, b = sorted((self.pending, self.w.player.position()))
            return (a, b) if b - a >= MIN_SPAN_S else None
        return None

    def toggle_loop(self, on: bool) -> bool:
        sel = self.selection() if on else None
        if on and sel is None:
            self._say("Nothing to loop: select or mark a span first")
            return False
        self.w.player.set_loop(sel)
        if sel:
            self.w.player.seek(sel[0], keep_span=True)
            self.w.player.play()
            self._say(f"Looping {sel[0]:.2f}-{sel[1]:.2f} s (L stops)")
        return True

    def play_half_speed(self) -> None:
        sel = self.selection()
        if sel is None:
            self._say("Nothing to play: select or mark a span first")
            return
        before = self._restore_speed or self.w.player.speed
        self.w.player.play_span(*sel)  # first: its pause would restore the speed set below
        if not self.w.player.playing:
            return
        self.w.transport.set_speed(HALF_SPEED)
        self.w.player.set_speed(HALF_SPEED)
        self._restore_speed = before
        # sounddevice has no time-stretch: half speed also halves the pitch (docs/decisions.md).
        self._say("Playing at half speed (the pitch drops an octave: no pitch-preserving playback here)")

    def _playing_changed(self, playing: bool) -> None:
        if not playing and self._restore_speed is not None:
            speed, self._restore_speed = self._restore_speed, None
            self.w.transport.set_speed(speed)
            self.w.player.set_speed(speed)

    def zoom_to_selection(self) -> None:
        sel = self.selection()
        if sel is None:
            self._say("Nothing to zoom to: select or mark a span first")
            return
        a, b = sel
        pad = max(0.1 * (b - a), 0.05)
        self.w.waveform.vb.setXRange(max(0.0, a - pad), b + pad, padding=0)
