"""Input devices as PortAudio (sounddevice) lists them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InputDevice:
    index: int
    name: str
    channels: int
    default_samplerate: float
    is_default: bool = False


class DeviceError(RuntimeError):
    """No usable input device, or the one asked for cannot record; the message says why."""


def _sd():
    try:
        import sounddevice as sd
    except OSError as exc:  # libportaudio2 missing: a clear line instead of a traceback
        raise DeviceError(f"no audio system: PortAudio is not installed ({exc})") from None
    return sd


def input_devices() -> list[InputDevice]:
    """Every device with at least one input channel, the default one flagged."""
    sd = _sd()
    try:
        default = sd.default.device[0]
        found = sd.query_devices()
    except sd.PortAudioError as exc:
        raise DeviceError(f"cannot list audio devices: {exc}") from None
    return [InputDevice(i, d["name"], int(d["max_input_channels"]), float(d["default_samplerate"]), i == default)
            for i, d in enumerate(found) if d["max_input_channels"] > 0]


def resolve(device: int | str | None) -> InputDevice:
    """The device to record from: an index, a name (substring, case-insensitive) or None (the default)."""
    devices = input_devices()
    if not devices:
        raise DeviceError("no input device: connect a microphone (PortAudio lists no device that records)")
    if device is None:
        return next((d for d in devices if d.is_default), devices[0])
    if isinstance(device, int) or str(device).isdigit():
        got = [d for d in devices if d.index == int(device)]
    else:
        got = [d for d in devices if str(device).lower() in d.name.lower()]
    if not got:
        names = ", ".join(f"{d.index}: {d.name}" for d in devices)
        raise DeviceError(f"no input device '{device}'; input devices: {names}")
    return got[0]


def pick_samplerate(device: InputDevice, channels: int) -> int:
    """16 kHz when the device takes it (the file then decodes to the index's rate with no
    resampling, so live and final transcription hear the same samples), else its default."""
    sd = _sd()
    for rate in (16000, int(device.default_samplerate)):
        try:
            sd.check_input_settings(device.index, channels=channels, dtype="int16", samplerate=rate)
            return rate
        except (sd.PortAudioError, ValueError):
            continue
    raise DeviceError(f"input device '{device.name}' accepts neither 16 kHz nor {device.default_samplerate:.0f} Hz "
                      f"with {channels} channel(s)")
