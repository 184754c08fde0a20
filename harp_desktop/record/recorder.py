"""The input stream and its writer thread.

PortAudio's callback runs on a real-time thread: it only copies the block into a queue
(and counts overflows PortAudio reports), so no disk or model latency can make it miss
samples. The writer thread appends every block to the partial's raw PCM as it comes,
fsyncs at least once a second (so even a power cut loses at most about a second), keeps
the input level, and hands 16 kHz mono float32 blocks to listeners (live transcription).
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.record import devices, partial

FSYNC_EVERY_S = 1.0
BLOCK_S = 0.1  # PortAudio block: the callback's work stays tiny, the writer sees audio 10x a second

Listener = Callable[[np.ndarray], None]


class Recorder:
    """Records ``device`` into a partial under ``library_folder``; ``stop()`` finalises it to ``target``."""

    def __init__(self, library_folder: Path, target: Path, device: int | str | None = None, channels: int = 1,
                 listeners: list[Listener] | None = None) -> None:
        self.library_folder, self.target = Path(library_folder), Path(target)
        self.device = devices.resolve(device)
        self.channels = max(1, min(channels, self.device.channels))
        self.samplerate = devices.pick_samplerate(self.device, self.channels)
        self.listeners: list[Listener] = list(listeners or [])
        self.overflows = 0  # PortAudio said input was lost before we saw it: reported, never silent
        self.frames = 0  # written to disk
        self.level_db = -120.0  # peak of the last block, dBFS
        self.partial: partial.Partial | None = None
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._paused = threading.Event()
        self._fd: int | None = None
        self._stream = None
        self._writer: threading.Thread | None = None
        self._resampler = None
        self.error: BaseException | None = None

    # -- control ---------------------------------------------------------------------------
    def start(self) -> None:
        import sounddevice as sd

        self.partial, self._fd = partial.create(self.library_folder, self.target, self.samplerate, self.channels,
                                                self.device.name)
        if self.samplerate != SAMPLE_RATE:
            import soxr

            self._resampler = soxr.ResampleStream(self.samplerate, SAMPLE_RATE, 1, dtype="float32", quality="HQ")
        self._writer = threading.Thread(target=self._write_loop, name="harp-record-writer", daemon=True)
        self._writer.start()
        self._stream = sd.InputStream(device=self.device.index, channels=self.channels, samplerate=self.samplerate,
                                      dtype="int16", blocksize=int(self.samplerate * BLOCK_S), callback=self._callback)
        self._stream.start()

    def pause(self) -> None:
        self._paused.set()

    def resume(self) -> None:
        self._paused.clear()

    @property
    def paused(self) -> bool:
        return self._paused.is_set()

    @property
    def elapsed_s(self) -> float:
        """Seconds of audio on disk (paused time is not recorded)."""
        return self.frames / self.samplerate

    def stop(self, finalise: bool = True) -> Path | None:
        """Stop the stream, drain the queue to disk, finalise to FLAC; the file (None if empty).
        ``finalise=False`` leaves the partial on disk, unlocked, for ``partial.recover``."""
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None
        self._queue.put(None)
        if self._writer is not None:
            self._writer.join()
        if self._fd is not None:
            os.fsync(self._fd)
            os.close(self._fd)  # releases the lock: the partial is ours to finalise now
            self._fd = None
        if self.error is not None:
            raise self.error
        return partial.finalise(self.partial) if self.partial and finalise else None

    # -- threads ---------------------------------------------------------------------------
    def _callback(self, indata, frames, time_info, status) -> None:  # PortAudio's thread: queue only
        if status.input_overflow:
            self.overflows += 1
        if not self._paused.is_set():
            self._queue.put(bytes(indata))

    def _write_loop(self) -> None:
        last_sync = time.monotonic()
        try:
            while True:
                try:
                    block = self._queue.get(timeout=0.25)
                except queue.Empty:
                    block = b""
                if block is None:
                    break
                if block:
                    os.write(self._fd, block)
                    self.frames += len(block) // (2 * self.channels)
                    self._hand_out(np.frombuffer(block, dtype="<i2").reshape(-1, self.channels))
                if time.monotonic() - last_sync >= FSYNC_EVERY_S:
                    os.fsync(self._fd)
                    last_sync = time.monotonic()
            if self._resampler is not None:
                self._emit(self._resampler.resample_chunk(np.zeros(0, np.float32), last=True))
        except BaseException as exc:  # noqa: BLE001 - kept and raised by stop(): a full disk must not pass silently
            self.error = exc

    def _hand_out(self, pcm: np.ndarray) -> None:
        peak = int(np.abs(pcm.astype(np.int32)).max()) if len(pcm) else 0
        self.level_db = 20 * np.log10(max(peak, 1) / 32768.0)
        # Same scaling libsndfile uses reading PCM_16 as float: live and final audio agree.
        mono = (pcm.mean(axis=1) if self.channels > 1 else pcm[:, 0]).astype(np.float32) / 32768.0
        if self._resampler is not None:
            mono = self._resampler.resample_chunk(mono)
        self._emit(mono)

    def _emit(self, mono: np.ndarray) -> None:
        if len(mono):
            for fn in self.listeners:
                fn(mono)
