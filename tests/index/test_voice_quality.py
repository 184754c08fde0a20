"""Voice-quality statistics of the emotion features (v3)."""

import numpy as np
import soundfile as sf

from harp_desktop.index.emotion import SR, tracks
from harp_desktop.index.voice_quality import VOICE, pool_voice
from tests.conftest import DATA


def _speech() -> np.ndarray:
    x, sr = sf.read(DATA / "speaker_b_1.flac", dtype="float32")
    assert sr == SR
    return x


def test_shape_names_and_level_invariance():
    x = _speech()
    v = pool_voice(tracks(x))
    assert v.shape == (len(VOICE),) and v.dtype == np.float32 and np.isfinite(v).all()
    named = dict(zip(VOICE, v, strict=True))
    assert named["loud_p20_rel"] < named["loud_p50_rel"] < named["loud_p80_rel"] < 0  # relative to the p95
    assert named["hnr_mean_db"] > 0 and 0.05 < named["voiced_run_s"] < 1.0  # voiced speech, syllable-sized runs
    # 20 dB quieter: the same statistics (nothing measures absolute level); the pink-noise floor
    # moves relative to the speech, so pauses and band shape shift a little.
    quiet = pool_voice(tracks(x * 0.1))
    assert np.corrcoef(v, quiet)[0, 1] > 0.99
    assert abs(float(quiet[VOICE.index("hnr_mean_db")]) - named["hnr_mean_db"]) < 1.0


def test_silence_and_short_input_give_zeros():
    for wav in (np.zeros(SR, np.float32), np.zeros(100, np.float32)):
        assert not pool_voice(tracks(wav)).any()


def test_a_slice_of_the_tracks_is_the_slice_alone():
    x = _speech()
    t = tracks(x)
    n = len(t["db"])
    part = pool_voice(t, n // 4, 3 * n // 4)
    full = pool_voice(t)
    assert part.shape == full.shape and not np.array_equal(part, full)
    sliced = {k: v[n // 4: 3 * n // 4] for k, v in t.items()}
    assert np.array_equal(part, pool_voice(sliced))
