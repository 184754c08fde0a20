import numpy as np
import pytest
import soundfile as sf

from harp_desktop.audio.decode import AudioError, decode_to_cache, load_clip, open_cache, probe, sha256_of
from tests.conftest import DATA, write_tone


def decode(tmp_path, src):
    cache = tmp_path / "out.f32"
    n = decode_to_cache(src, cache)
    return n, open_cache(cache)


@pytest.mark.parametrize("sr,channels,subtype", [(8000, 2, "PCM_16"), (96000, 1, "PCM_24"), (44100, 2, "FLOAT"),
                                                 (16000, 1, "PCM_16")])
def test_resamples_and_mixes_down(tmp_path, sr, channels, subtype):
    src = write_tone(tmp_path / "in.wav", 2.0, sr=sr, channels=channels, subtype=subtype, freq=440)
    n, audio = decode(tmp_path, src)
    assert abs(n - 32000) <= 2
    spectrum = np.abs(np.fft.rfft(np.asarray(audio[1600:17600])))
    peak_hz = np.argmax(spectrum) * 16000 / 16000
    assert abs(peak_hz - 440) <= 2  # a real resampler keeps the pitch
    assert 0.2 < np.abs(audio).max() <= 0.31


def test_formats_flac_ogg_mp3(tmp_path):
    x = (0.2 * np.sin(2 * np.pi * 300 * np.arange(48000) / 48000)).astype(np.float32)
    for fmt, ext in [("FLAC", "flac"), ("OGG", "ogg"), ("MP3", "mp3")]:
        p = tmp_path / f"a.{ext}"
        sf.write(p, x, 48000, format=fmt)
        assert probe(p).format == fmt
        n, _ = decode(tmp_path, p)
        assert abs(n - 16000) < 1200  # mp3 encoder padding


def test_non_ascii_path(tmp_path):
    src = write_tone(tmp_path / "Überweisung_пациент_患者.wav", 1.0)
    n, _ = decode(tmp_path, src)
    assert n == 16000


@pytest.mark.parametrize("make,needle", [
    (lambda p: p.write_bytes(b""), "empty"),
    (lambda p: p.write_text("this is not audio\n" * 50), "not a readable audio file"),
    (lambda p: sf.write(p, np.zeros(0, np.float32), 16000), "no audio"),
])
def test_bad_files_give_one_line_errors(tmp_path, make, needle):
    p = tmp_path / "bad.wav"
    make(p)
    with pytest.raises(AudioError) as exc:
        decode(tmp_path, p)
    assert needle in str(exc.value) and "\n" not in str(exc.value)
    assert not list(tmp_path.glob("out*"))  # nothing half-written


def test_truncated_wav_keeps_readable_audio_and_says_so(tmp_path):
    p = write_tone(tmp_path / "t.wav", 5.0)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    assert "truncated" in probe(p).warning and "5.0 s" in probe(p).warning
    n, _ = decode(tmp_path, p)
    assert abs(n / 16000 - 2.5) < 0.01
    assert probe(write_tone(tmp_path / "ok.wav", 1.0)).warning == ""


def test_unsupported_and_missing(tmp_path):
    with pytest.raises(AudioError, match="no such file"):
        probe(tmp_path / "nope.wav")
    with pytest.raises(AudioError, match="folder"):
        probe(tmp_path)


def test_sha256_identity_is_bytes(tmp_path):
    a = write_tone(tmp_path / "a.wav", 1.0)
    b = tmp_path / "b.wav"
    b.write_bytes(a.read_bytes())
    assert sha256_of(a) == sha256_of(b)


def test_load_clip_limits_length(tmp_path):
    clip = load_clip(DATA / "cough_1.flac")
    assert clip.dtype == np.float32 and 0.5 < len(clip) / 16000 < 10
    long = write_tone(tmp_path / "long.wav", 3.0)
    with pytest.raises(AudioError, match="under"):
        load_clip(long, max_s=2.0)
