"""GUI test fixtures: offscreen Qt, a private settings file, a fake or absent audio device,
and a library indexed once (tiny.en) that each test copies."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import gc  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from pyqtgraph.util.garbage_collector import GarbageCollector  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402

from harp_desktop.api import IndexOptions, Library  # noqa: E402
from harp_desktop.ui import player as player_mod  # noqa: E402
from harp_desktop.ui.workers import SHARED_MODELS  # noqa: E402

CLIP = Path(__file__).resolve().parents[1] / "data" / "speech_two_speakers.flac"
FAST = IndexOptions(asr_profile="tiny.en")
REAL_LOAD_BACKEND = player_mod.load_backend  # before the autouse fixture replaces it


class FakeStream:
    """Stands in for sounddevice.OutputStream: the test pulls audio through the callback."""

    instances: list[FakeStream] = []

    def __init__(self, samplerate, channels, dtype, callback, **kwargs) -> None:
        self.samplerate, self.channels, self.callback = samplerate, channels, callback
        self.started = self.closed = False
        FakeStream.instances.append(self)

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True

    def pull(self, frames: int) -> tuple[np.ndarray, bool]:
        """Run one callback; returns (audio, stopped)."""
        out = np.zeros((frames, self.channels), dtype=np.float32)
        try:
            self.callback(out, frames, None, None)
        except FakeSD.CallbackStop:
            return out, True
        return out, False


class FakeSD:
    class CallbackStop(Exception):  # noqa: N818 (sounddevice's name)
        pass

    OutputStream = FakeStream


@pytest.fixture(autouse=True)
def gc_on_gui_thread(qapp):
    """As the app does (ui/app.py): cyclic garbage collected on the GUI thread only while a GUI test runs, so a
    worker thread never frees an earlier test's widgets (a Qt destructor then deadlocks against this thread);
    afterwards the collector is back on and one collection here clears what the test left."""
    collector = GarbageCollector(interval=0.5)
    yield
    collector.timer.stop()
    gc.enable()
    gc.collect()


@pytest.fixture(autouse=True)
def fake_audio(monkeypatch):
    """Tests never depend on (or make noise through) the machine's audio: a fake 16 kHz device."""
    FakeStream.instances.clear()
    monkeypatch.setattr(player_mod, "load_backend", lambda: (FakeSD, 16000.0))
    return FakeStream


@pytest.fixture
def store(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture(scope="session")
def indexed_template(tmp_path_factory, harp_data) -> Path:
    folder = tmp_path_factory.mktemp("ui-template") / "library"
    lib = Library(folder)
    lib.models = SHARED_MODELS  # the GUI workers reuse these models: loaded once per session
    lib.index(CLIP, FAST)
    lib.close()
    return folder


@pytest.fixture
def indexed_library(indexed_template, tmp_path) -> Path:
    target = tmp_path / "library"
    shutil.copytree(indexed_template, target)
    return target


@pytest.fixture
def make_window(qtbot, store):
    from harp_desktop.ui.main_window import MainWindow

    windows = []

    def make(library: Path) -> MainWindow:
        w = MainWindow(library_dir=str(library), store=store, asr_profile="tiny.en")
        qtbot.addWidget(w)
        w.show()
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.close()
