"""PyInstaller runtime hook: sounddevice finds the PortAudio library shipped in the bundle.

sounddevice looks PortAudio up with ctypes.util.find_library, which on Linux only asks
the system's linker cache; a bundle must also play audio where libportaudio2 is absent.
"""

import ctypes.util
import glob
import os
import sys

_system_find_library = ctypes.util.find_library


def _find_library(name):
    if name == "portaudio":
        bundled = sorted(glob.glob(os.path.join(getattr(sys, "_MEIPASS", ""), "libportaudio.so*")))
        if bundled:
            return bundled[0]
    return _system_find_library(name)


ctypes.util.find_library = _find_library
