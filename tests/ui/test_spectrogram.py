"""The spectrogram lane in the window (offscreen): drawn for the visible range at the plot's
width, follows zoom, ceiling and range controls, S toggles it; a tone shows in its bin."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from tests.ui.conftest import CLIP
from tests.ui.test_main_window import open_and_wait


def wait_image(qtbot, view, after: int = 0):
    qtbot.waitUntil(lambda: view.shown_image() is not None and view._shown_gen > after, timeout=10_000)
    return view.shown_image()


def test_lane_follows_the_view(qtbot, make_window, indexed_library):
    w = make_window(indexed_library)
    open_and_wait(qtbot, w, CLIP)
    sp = w.workbench.spectrogram
    assert sp.isVisible() and w.workbench.act_spectrogram.isChecked()
    img = wait_image(qtbot, sp)
    assert img.shape[0] == sp.columns() and img.shape[1] == int(8000 / 31.25) + 1
    rect = sp.image.mapRectToParent(sp.image.boundingRect())
    assert rect.left() == pytest.approx(0.0, abs=1e-3) and rect.right() == pytest.approx(w.waveform.duration, abs=0.05)

    w.waveform.vb.setXRange(1.0, 3.0, padding=0)  # the linked view zooms, and a new image comes for it

    def covers() -> bool:
        r = sp.image.mapRectToParent(sp.image.boundingRect())
        return abs(r.left() - 1.0) < 0.02 and abs(r.right() - 3.0) < 0.02

    qtbot.waitUntil(covers, timeout=10_000)
    assert sp.vb.viewRange()[0] == pytest.approx(w.waveform.vb.viewRange()[0], abs=1e-6)

    gen = sp._shown_gen
    w.waveform.setFocus()
    qtbot.keyClick(w.waveform, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # ceiling 8 -> 6 kHz
    assert wait_image(qtbot, sp, gen).shape[1] == int(6000 / 31.25) + 1 and sp.vb.viewRange()[1][1] == 6000
    qtbot.keyClick(w.waveform, Qt.Key.Key_PageDown, Qt.KeyboardModifier.AltModifier)
    assert sp.range_db.value() == 70 and sp.image.levels[1] - sp.image.levels[0] == pytest.approx(70)

    qtbot.keyClick(w.waveform, Qt.Key.Key_S)
    assert not sp.isVisible() and w.store.value("view/spectrogram") in (False, "false")
    qtbot.keyClick(w.waveform, Qt.Key.Key_S)
    assert sp.isVisible()

    w.waveform.set_evidence([(1.5, 2.0)])  # the answer's evidence outlined over it too
    assert sp._evidence is not None
    w.waveform.set_selection(1.2, 1.4)
    assert sp._region.isVisible() and sp._region.getRegion() == pytest.approx((1.2, 1.4))


def test_a_tone_in_the_window_peaks_in_its_bin(qtbot, make_window, tmp_path, indexed_library):
    """A 2 kHz tone through the real decode cache and the lane's worker thread."""
    from harp_desktop.audio.spectrogram import N_FFT
    from harp_desktop.ui.envelope import build

    w = make_window(indexed_library)
    sr = 16000
    x = (0.4 * np.sin(2 * np.pi * 2000 * np.arange(4 * sr) / sr)).astype(np.float32)
    path = tmp_path / "tone.f32"
    x.tofile(path)
    env = build(np.memmap(path, dtype=np.float32, mode="r"))
    w.waveform.set_envelope(env)
    img = wait_image(qtbot, w.workbench.spectrogram)
    assert int(np.argmax(img.mean(axis=0))) == round(2000 / (sr / N_FFT))
