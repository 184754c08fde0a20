"""A virtual microphone: a PulseAudio null sink whose monitor is the input (tests and benchmarks).

``paplay`` plays a known file into the sink; sounddevice records the sink's monitor through
ALSA's pulse device. PULSE_SOURCE / PULSE_SINK pick them for this process (and its children)
only, so no global default changes. A user daemon is started if none runs; installer/setup.sh
installs pulseaudio, pulseaudio-utils and libasound2-plugins.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np


class VirtualMic:
    def __init__(self, sink: str, module: str) -> None:
        self.sink, self.module = sink, module
        self.source = f"{sink}.monitor"

    def play(self, path: Path) -> subprocess.Popen:
        """Start playing ``path`` into the sink (returns at once)."""
        return subprocess.Popen(["paplay", f"--device={self.sink}", str(path)])


class Unavailable(RuntimeError):
    """PulseAudio is missing or will not start; the message says why."""


def _pulse_running() -> bool:
    return subprocess.run(["pulseaudio", "--check"], capture_output=True).returncode == 0


def start_pulse() -> None:
    """A PulseAudio daemon for this user: the one running, or one started now (it stays up)."""
    if not shutil.which("pulseaudio") or not shutil.which("pactl") or not shutil.which("paplay"):
        raise Unavailable("PulseAudio is not installed (installer/setup.sh installs pulseaudio, "
                          "pulseaudio-utils, libasound2-plugins)")
    if _pulse_running():
        return
    # As root (a CI container) PulseAudio warns it is "not intended to be run as root" and still runs.
    run = subprocess.run(["pulseaudio", "--start", "--exit-idle-time=-1", "--daemonize=yes"],
                         capture_output=True, text=True)
    for _ in range(50):
        if _pulse_running():
            return
        time.sleep(0.1)
    raise Unavailable(f"PulseAudio could not start: {(run.stderr or run.stdout).strip()[-300:]}")


@contextlib.contextmanager
def virtual_microphone() -> Iterator[VirtualMic]:
    start_pulse()
    sink = f"harp_vmic_{os.getpid()}"
    out = subprocess.run(["pactl", "load-module", "module-null-sink", f"sink_name={sink}", "rate=16000",
                          "channels=1", f"sink_properties=device.description={sink}"], capture_output=True, text=True)
    if out.returncode != 0:
        raise Unavailable(f"PulseAudio runs but refused a null sink: {out.stderr.strip()}")
    module = out.stdout.strip()
    # A null sink left idle is suspended and its monitor then delivers nothing, unlike a real
    # microphone: a stream of digital silence keeps it running (played sounds mix over it).
    keeper = subprocess.Popen(["pacat", "--playback", f"--device={sink}", "--raw", "--format=s16le",
                               "--rate=16000", "--channels=1", "/dev/zero"])
    old = {k: os.environ.get(k) for k in ("PULSE_SOURCE", "PULSE_SINK")}
    os.environ["PULSE_SOURCE"], os.environ["PULSE_SINK"] = f"{sink}.monitor", sink
    try:
        yield VirtualMic(sink, module)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        keeper.terminate()
        keeper.wait(5)
        subprocess.run(["pactl", "unload-module", module], capture_output=True)


def best_match(haystack: np.ndarray, needle: np.ndarray) -> tuple[int, float]:
    """(offset, normalised cross-correlation) of ``needle``'s best match inside ``haystack`` (FFT)."""
    n = len(haystack) + len(needle)
    size = 1 << (n - 1).bit_length()
    corr = np.fft.irfft(np.fft.rfft(haystack, size) * np.conj(np.fft.rfft(needle, size)), size)
    corr = corr[: len(haystack) - len(needle) + 1]
    k = int(np.argmax(corr))
    energy = np.sqrt(np.sum(haystack[k : k + len(needle)] ** 2) * np.sum(needle ** 2)) or 1.0
    return k, float(corr[k] / energy)
