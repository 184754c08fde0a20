"""Wires the Findings panel (issue 17) into the main window: a dock on the right, View >
Findings, a role menu on the speakers list, and the refreshes (a recording shown or
re-indexed, another program's edits). ``install(window)`` is the only entry point; the
window keeps no findings logic.
"""

from __future__ import annotations

import getpass

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDockWidget, QListWidgetItem, QMenu

from harp_desktop.findings.model import ROLES
from harp_desktop.ui.findings_panel import FindingsPanel
from harp_desktop.ui.speakers_panel import LABEL_ROLE

SHOW_KEY = "view/findings"
BASE_TIP_ROLE = Qt.ItemDataRole.UserRole + 1  # the speakers panel's own tooltip, before the role is added
DOCK_WIDTH = 430


def _menu(window, title: str) -> QMenu:
    return next(a.menu() for a in window.menuBar().actions() if a.text() == title)


class FindingsDock:
    def __init__(self, window) -> None:
        self.w = window
        self.panel = FindingsPanel(lambda: window.lib, self._annotator, window.runner, window)
        self.panel.closing = lambda: getattr(window, "_closed", False)
        self.dock = QDockWidget("Findings", window)
        self.dock.setObjectName("findings")
        self.dock.setWidget(self.panel)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        window.resizeDocks([self.dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)

        self.act = window._action(_menu(window, "&View"), "F&indings", self.show, "Ctrl+Shift+F",
                                  "Show the clinical findings: reported, denied, examined, planned", checkable=True)
        self.act.setChecked(str(window.store.value(SHOW_KEY, "true")).lower() not in ("false", "0"))
        self.dock.setVisible(self.act.isChecked())
        self.dock.visibilityChanged.connect(self._visibility)

        p = self.panel
        p.playSpanRequested.connect(window.play_span)  # what the ask panel's evidence rows do
        p.message.connect(lambda msg: window.statusBar().showMessage(msg, 8000))
        p.rolesChanged.connect(self._speaker_tips)
        window.recordingShown.connect(self._shown)
        # The window has no "recording closed" signal; the transcript is reset whenever the
        # shown recording changes, and window.data is None then when nothing is open.
        window.transcript.view.model().modelReset.connect(self._maybe_cleared)
        if hasattr(window, "watch"):  # another program's edits, e.g. `harp speaker REC SPEAKER_2 --role patient`
            window.watch.changed.connect(self._changed_elsewhere)
        speakers = window.speakers.list
        speakers.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        speakers.customContextMenuRequested.connect(self._speaker_menu)
        if window.data is not None:
            self._shown()

    def _annotator(self) -> str:
        return getattr(self.w.settings, "annotator", "") or getpass.getuser()

    def show(self, on: bool = True) -> None:
        self.w.store.setValue(SHOW_KEY, bool(on))  # only a person's choice is remembered, not closing the window
        self.dock.setVisible(on)
        if on:
            self.dock.raise_()

    def _visibility(self, _visible: bool) -> None:
        try:
            visible = self.w.isVisible()
        except RuntimeError:  # the dock reports hiding while Qt deletes the window at exit
            return
        if not visible or getattr(self.w, "_closed", False):
            return  # the window hiding (closing, minimising) is not the user hiding the panel
        # isHidden: closed with its x button; a dock merely behind another tab is not hidden.
        shown = not self.dock.isHidden()
        if shown != self.act.isChecked():
            self.act.setChecked(shown)
            self.w.store.setValue(SHOW_KEY, shown)

    # -- refreshes ----------------------------------------------------------------------------
    def _shown(self, _path: str = "") -> None:
        data = self.w.data
        self.panel.set_recording(data.sha256 if data else None, data.speakers if data else None)

    def _maybe_cleared(self) -> None:
        if self.w.data is None and self.panel.ref is not None:
            self.panel.set_recording(None)

    def _changed_elsewhere(self) -> None:
        if self.panel.ref is not None and not self.panel.busy() and not getattr(self.w, "_closed", False):
            self.panel.refresh()

    # -- the speakers panel: its tooltips say the role, its menu corrects it -------------------
    def _speaker_tips(self, roles: dict[str, str]) -> None:
        lst = self.w.speakers.list
        # Any item change (a tooltip too) emits itemChanged, which the speakers panel reads as a
        # rename: a rename, a reload, a refresh, another tooltip... so the list stays silent here.
        blocked = lst.blockSignals(True)
        try:
            for i in range(lst.count()):
                item: QListWidgetItem = lst.item(i)
                base = item.data(BASE_TIP_ROLE)
                if base is None:
                    base = item.toolTip()
                    item.setData(BASE_TIP_ROLE, base)
                role = roles.get(item.data(LABEL_ROLE))
                item.setToolTip(f"Role: {role} (right-click to correct)\n{base}" if role else base)
        finally:
            lst.blockSignals(blocked)

    def _speaker_menu(self, pos: QPoint) -> None:
        lst = self.w.speakers.list
        item = lst.itemAt(pos)
        if item is None or self.panel.ref is None:
            return
        self.role_menu(item.data(LABEL_ROLE), item).exec(lst.viewport().mapToGlobal(pos))

    def role_menu(self, label: str, item: QListWidgetItem | None = None) -> QMenu:
        menu = QMenu(self.w.speakers.list)
        current = self.panel.roles.get(label)
        for role in ROLES:
            act = menu.addAction(f"Role: {role}")
            act.setCheckable(True)
            act.setChecked(role == current)
            act.setEnabled(not self.panel.busy())
            act.triggered.connect(lambda _checked=False, r=role: self.panel.set_role(label, r))
        if item is not None:
            menu.addSeparator()
            menu.addAction("Rename\u2026", lambda: self.w.speakers.list.editItem(item))
        return menu


def install(window) -> FindingsDock:
    return FindingsDock(window)
