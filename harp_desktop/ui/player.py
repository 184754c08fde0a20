"""Playback from the decoded 16 kHz memmap through a sounddevice OutputStream.

The PortAudio callback reads straight from the memmap and resamples linearly to the
device rate, which also gives the speed control (pitch changes with speed). The GUI
thread never touches the stream's buffers: seeks are queued (``deque``) for the
callback, and a 30 Hz timer reports the position. Without PortAudio or an output
device the player still tracks a position (seeking works, so clicks on evidence and
citations still land) and says why playback is disabled.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.errors import user_message

SPEEDS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)


class AudioUnavailable(RuntimeError):
    """No PortAudio or no output device; the message says which, in one line."""


def load_backend() -> tuple[Any, float]:
    """The sounddevice module and the default output device's sample rate."""
    try:
        import sounddevice as sd
    except (ImportError, OSError) as exc:
        raise AudioUnavailable(f"PortAudio is not available ({user_message(exc)})") from exc
    try:
        dev = sd.query_devices(kind="output")
    except Exception as exc:  # sd.PortAudioError, ValueError: no default output device
        raise AudioUnavailable(f"no audio output device ({user_message(exc)})") from exc
    return sd, float(dev.get("default_samplerate") or 48000.0)


class Player(QObject):
    positionChanged = Signal(float)  # seconds
    playingChanged = Signal(bool)
    error = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._sd: Any = None
        self._out_rate = 48000.0
        try:
            self._sd, self._out_rate = load_backend()
            self.reason = ""
        except AudioUnavailable as exc:
            self.reason = str(exc)
        self._audio: np.ndarray = np.zeros(0, dtype=np.float32)
        self._sr = SAMPLE_RATE
        self._pos = 0.0  # in samples; written by the callback while playing
        self._seeks: deque[float] = deque()
        self._end: float | None = None  # stop here (a selection or an evidence span)
        self._speed = 1.0
        self._loop: tuple[float, float] | None = None  # (start, end) in samples: play it over and over
        self._stream: Any = None
        self._ended = threading.Event()
        self._timer = QTimer(self)
        self._timer.setInterval(33)
        self._timer.timeout.connect(self._tick)

    # -- state ----------------------------------------------------------------------
    @property
    def available(self) -> bool:
        return self._sd is not None

    @property
    def playing(self) -> bool:
        return self._stream is not None

    @property
    def duration(self) -> float:
        return len(self._audio) / self._sr

    @property
    def speed(self) -> float:
        return self._speed

    def position(self) -> float:
        return self._pos / self._sr

    def set_audio(self, audio: np.ndarray | None, sample_rate: int = SAMPLE_RATE) -> None:
        self.pause()
        self._audio = audio if audio is not None else np.zeros(0, dtype=np.float32)
        self._sr = sample_rate
        self._pos, self._end, self._loop = 0.0, None, None
        self.positionChanged.emit(0.0)

    # -- loop (issue 19: the annotator's "loop selection"; done here so it is sample-exact) --
    @property
    def looping(self) -> tuple[float, float] | None:
        return None if self._loop is None else (self._loop[0] / self._sr, self._loop[1] / self._sr)

    def set_loop(self, span: tuple[float, float] | None) -> None:
        """Play ``span`` (seconds) over and over until ``set_loop(None)``; playback then runs on."""
        if span is None:
            self._loop = None
            return
        a, b = sorted((max(0.0, span[0]), min(self.duration, span[1])))
        self._loop = (a * self._sr, b * self._sr)
        self._end = None
        if not a <= self.position() < b:
            self.seek(a, keep_span=True)

    # -- control --------------------------------------------------------------------
    def seek(self, t: float, keep_span: bool = False) -> None:
        t = min(max(0.0, float(t)), self.duration)
        if not keep_span:
            self._end = None
        if self.playing:
            self._seeks.append(t * self._sr)
        self._pos = t * self._sr
        self.positionChanged.emit(t)

    def skip(self, dt: float) -> None:
        self.seek(self.position() + dt)

    def set_speed(self, speed: float) -> None:
        self._speed = min(4.0, max(0.25, float(speed)))

    def toggle(self) -> None:
        if self.playing:
            self.pause()
        else:
            self.play()

    def play_span(self, start_s: float, end_s: float) -> None:
        """Seek to ``start_s`` and play until ``end_s`` (only the seek without a device)."""
        self.pause()
        self.seek(start_s)
        self._end = max(start_s, end_s) * self._sr
        self.play()

    def play(self) -> bool:
        if self.playing:
            return True
        if not self.available or len(self._audio) == 0:
            return False
        end = self._stop_sample()
        if self._pos >= end - 1:
            self._pos, self._end = 0.0, None
        self._seeks.clear()
        self._ended.clear()
        try:
            stream = self._sd.OutputStream(samplerate=self._out_rate, channels=1, dtype="float32",
                                           callback=self._callback, latency="high")
            stream.start()
        except Exception as exc:  # device busy, unplugged...
            self.error.emit(f"playback failed: {user_message(exc)}")
            return False
        self._stream = stream
        self._timer.start()
        self.playingChanged.emit(True)
        return True

    def pause(self) -> None:
        stream, self._stream = self._stream, None
        if stream is None:
            return
        self._timer.stop()
        try:
            stream.stop()
            stream.close()
        except Exception:  # the device went away; nothing left to stop
            pass
        while self._seeks:
            self._pos = self._seeks.popleft()
        self.playingChanged.emit(False)
        self.positionChanged.emit(self.position())

    # -- audio thread ---------------------------------------------------------------
    def _stop_sample(self) -> float:
        last = float(max(0, len(self._audio) - 1))
        return last if self._end is None else min(last, self._end)

    def _callback(self, outdata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        pos = self._pos
        while self._seeks:
            pos = self._seeks.popleft()
        loop = self._loop
        end = self._stop_sample() if loop is None else min(loop[1], float(max(0, len(self._audio) - 1)))
        step = self._speed * self._sr / self._out_rate
        out = outdata[:, 0]
        k, pos = self._render(out, pos, end, step)
        while loop is not None and k < frames:  # looping: the block goes on from the loop's start
            n, pos = self._render(out[k:], loop[0], end, step)
            if n == 0:  # a loop shorter than one output sample
                break
            k += n
        out[k:] = 0.0
        outdata[:, 1:] = outdata[:, :1]
        self._pos = pos
        if k < frames:
            self._ended.set()
            raise self._sd.CallbackStop()

    def _render(self, out: np.ndarray, pos: float, end: float, step: float) -> tuple[int, float]:
        """Fill ``out`` from sample ``pos`` until ``end``; returns (frames written, new position)."""
        idx = pos + np.arange(len(out)) * step
        k = int(np.searchsorted(idx, end))
        if k > 0:
            i0 = int(idx[0])
            chunk = np.asarray(self._audio[i0:min(len(self._audio), int(idx[k - 1]) + 2)], dtype=np.float32)
            out[:k] = np.interp(idx[:k] - i0, np.arange(len(chunk)), chunk)
        return k, min(pos + len(out) * step, end)

    def _tick(self) -> None:
        if self._ended.is_set():
            self._ended.clear()
            self._end = None
            self.pause()
            return
        self.positionChanged.emit(self.position())
