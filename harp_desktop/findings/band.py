"""Does a turn sound like a telephone line? Nothing above ~3.6 kHz passes one.

``high_ceiling`` is the measure used: over the turn's speech frames (those within 20 dB of its
loudest; the whole turn, up to 20 s), the 90th percentile of the 4-7.5 kHz energy against
the 0.3-3.4 kHz energy (dB). In wideband speech the fricatives put energy up there: measured
over the 244 wideband turns of the dev and bank recordings, synthetic voices included, -24.9 dB
at the lowest (a Scottish flite voice with a weak high band), 90 % between -21 and +10 dB.
Through a telephone band the speech frames stay 30 dB or more below (14 turns, -30.2 to
-49.7 dB), whether the band above is the room's noise floor (the dev recording's real call)
or the leakage of a 300-3400 Hz filter with no floor under it (bank_rec_01's call). One turn can still land near the line, so
``sections`` asks a band-limited turn for a band-limited neighbour.
``band_measures`` (the first measure tried: the spread of the high band's frame levels and the
speech-to-high-band drop) is kept as a diagnostic: a steady high band is not enough (a
flite reader measured 2.9 dB spread, 38 dB drop), and a filtered call with no floor swings
33-44 dB there.
"""

from __future__ import annotations

import numpy as np

PHONE_MAX_CEILING_DB = -28.0  # wideband turns measured >= -24.9 dB, telephone turns <= -30.2 dB
SPEECH_GATE_DB = 20.0  # frames this close to the turn's loudest are its speech
_N = 512  # frame length (32 ms at 16 kHz)


def _power(audio: np.ndarray, start_s: float, end_s: float, sr: int, max_s: float, stride: int = 1) -> tuple | None:
    """(frame power spectra, bin frequencies) of at most ``max_s`` from the middle of a turn,
    every ``stride``-th frame."""
    mid = (start_s + end_s) / 2
    half = min(max_s, end_s - start_s) / 2
    x = np.asarray(audio[int(max(0.0, mid - half) * sr): int((mid + half) * sr)], np.float32)
    if len(x) < 4 * _N:
        return None  # too short to tell
    frames = x[: len(x) // _N * _N].reshape(-1, _N)[::stride] * np.hanning(_N).astype(np.float32)
    return np.abs(np.fft.rfft(frames, axis=1)) ** 2, np.fft.rfftfreq(_N, 1 / sr)


def high_ceiling(audio: np.ndarray, start_s: float, end_s: float, sr: int = 16000, max_s: float = 20.0) -> float:
    """dB of 4-7.5 kHz against 0.3-3.4 kHz in the turn's speech frames (90th percentile); +inf
    when the turn is too short to tell. Every other frame is enough (half the cost: the
    measure over all frames separated the same turns by 0.6 dB more)."""
    got = _power(audio, start_s, end_s, sr, max_s, stride=2)
    if got is None:
        return float("inf")
    power, freqs = got
    high = power[:, (freqs >= 4000) & (freqs < 7500)].sum(1) + 1e-15
    low = power[:, (freqs >= 300) & (freqs < 3400)].sum(1) + 1e-15
    level = 10 * np.log10(power.sum(1) + 1e-15)
    speech = level >= np.percentile(level, 99) - SPEECH_GATE_DB
    return float(np.percentile(10 * np.log10(high[speech] / low[speech]), 90))


def phone_band(audio: np.ndarray, start_s: float, end_s: float) -> bool | None:
    """Band-limited (True), wideband (False), or too short to tell (None)."""
    ceiling = high_ceiling(audio, start_s, end_s)
    return None if ceiling == float("inf") else ceiling <= PHONE_MAX_CEILING_DB


def phone_like(audio: np.ndarray, start_s: float, end_s: float) -> bool:
    return phone_band(audio, start_s, end_s) is True


def band_measures(audio: np.ndarray, start_s: float, end_s: float, sr: int = 16000, max_s: float = 3.0
                  ) -> tuple[float, float]:
    """(high-band range dB, speech-to-high-band drop dB): the spread (95th - 5th percentile) of
    4.5-7.5 kHz frame levels, and 300-1000 Hz vs 4.5-7.5 kHz level in the louder half of the
    frames. A diagnostic only (see the module docstring)."""
    got = _power(audio, start_s, end_s, sr, max_s)
    if got is None:
        return float("inf"), 0.0
    power, freqs = got
    high = power[:, (freqs >= 4500) & (freqs < 7500)].mean(1) + 1e-12
    low = power[:, (freqs >= 300) & (freqs < 1000)].mean(1) + 1e-12
    level = 10 * np.log10(high)
    loud = power.sum(1) >= np.percentile(power.sum(1), 50)
    spread = float(np.percentile(level, 95) - np.percentile(level, 5))
    return spread, float(10 * np.log10(low[loud].mean() / high[loud].mean()))
