"""The on-screen spectrogram (audio/spectrogram.py): a known tone lands in its bin, zoomed in
and zoomed out over an hour; levels are dB re full scale; a stale request stops early."""

from __future__ import annotations

import numpy as np
import pytest

from harp_desktop.audio import spectrogram as spec

SR = 16000


def tone(freq: float, seconds: float, amp: float = 0.5) -> np.ndarray:
    t = np.arange(int(seconds * SR)) / SR
    return (amp * np.sin(2 * np.pi * freq * t)).astype(np.float32)


@pytest.mark.parametrize("freq", [1000.0, 2470.0, 250.0])
def test_a_tone_peaks_in_its_bin(freq):
    img = spec.compute(tone(freq, 5.0), SR, 0.0, 5.0, 300, 8000)
    assert img.bin_hz == SR / spec.N_FFT
    assert img.peak_bin() == round(freq / img.bin_hz)
    col = img.db[150]
    k = round(freq / img.bin_hz)
    assert col[k] > np.median(col) + 40  # the tone stands far above the window's leakage floor


def test_full_scale_sine_reads_about_zero_db():
    img = spec.compute(tone(1000.0, 2.0, amp=1.0), SR, 0.0, 2.0, 64, 4000)
    assert img.db[:, 32].mean() == pytest.approx(0.0, abs=0.5)
    low, high = spec.levels(1.0, 80)
    assert (low, high) == (-80.0, 0.0)


def test_an_hour_zoomed_out_keeps_a_short_burst():
    """With the overview, a 0.3 s tone in an hour of silence shows in its 3 s column."""
    audio = np.zeros(3600 * SR, dtype=np.float32)
    at = 1801 * SR
    audio[at:at + int(0.3 * SR)] = tone(3000.0, 0.3)
    ov = spec.build_overview(audio, SR)
    assert ov.cell_s == pytest.approx(0.256) and len(ov.power) == 3600 * SR // (spec.N_FFT * 8)
    img = spec.compute(audio, SR, 0.0, 3600.0, 1200, 8000, overview=ov)
    assert img.db.shape == (1200, int(8000 / img.bin_hz) + 1)
    k = round(3000 / img.bin_hz)
    assert int(np.argmax(img.db[:, k])) == 600  # 1801 s of 3600 s over 1200 columns
    assert img.db[600, k] > -30 and img.db[:590, k].max() <= -119  # silence elsewhere
    assert img.peak_bin() == k
    half = spec.compute(audio, SR, 1790.0, 1830.0, 1000, 8000, overview=ov)  # 40 ms columns: frames, not cells
    assert half.peak_bin() == k


def test_overview_and_frames_agree_on_level():
    audio = tone(1000.0, 60.0, amp=0.5)
    ov = spec.build_overview(audio, SR)
    far = spec.compute(audio, SR, 0.0, 60.0, 100, 4000, overview=ov)
    near = spec.compute(audio, SR, 10.0, 20.0, 100, 4000)
    assert far.db[:, 32].mean() == pytest.approx(near.db[:, 32].mean(), abs=0.5)
    assert far.db[:, 32].mean() == pytest.approx(20 * np.log10(0.5), abs=0.5)


def test_ceiling_crops_rows_and_range_is_clipped():
    audio = tone(1000.0, 1.0)
    img = spec.compute(audio, SR, -5.0, 50.0, 100, 2000)  # past both ends: clipped to the audio
    assert img.t0 == 0.0 and img.t1 == pytest.approx(1.0)
    assert img.db.shape[1] == int(2000 / img.bin_hz) + 1 and img.fmax >= 2000


def test_a_stale_request_stops():
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 1

    assert spec.compute(np.zeros(600 * SR, np.float32), SR, 0, 100, 2000, 8000, should_stop=stop) is None
    calls.clear()
    assert spec.build_overview(np.zeros(600 * SR, np.float32), SR, should_stop=stop) is None


def test_memmap_is_read_lazily(tmp_path):
    path = tmp_path / "a.f32"
    tone(440.0, 20.0).tofile(path)
    mm = np.memmap(path, dtype=np.float32, mode="r")
    img = spec.compute(mm, SR, 2.0, 4.0, 200, 1000)
    assert img.peak_bin() == round(440 / img.bin_hz)
