"""A voice heard through a telephone line and in the room is one voice; a new phone voice stays new
(harp_desktop/index/phone_link.py). Real speech: the flite test clips and two LibriSpeech excerpts,
the phone side through a steep 300-3400 Hz band-pass (as the bank recordings' calls) over a line-noise floor."""

from __future__ import annotations

import numpy as np
import soundfile as sf

import harp_desktop.index.diarise as diarise
from harp_desktop.index.campplus import band_bins
from harp_desktop.index.diarise import region_wavs, speaker_windows_all
from harp_desktop.index.phone_link import LINK, link_phone_voices, region_bands
from harp_desktop.types import Region
from tests.conftest import DATA
from tests.index.test_diarise import campp  # noqa: F401 -- the CAM++ fixture

SR = 16000


def _read(name: str) -> np.ndarray:
    return sf.read(DATA / name, dtype="float32")[0]


def _band(x: np.ndarray, lo: float = 300.0, hi: float = 3400.0, skirt: float = 150.0) -> np.ndarray:
    """A telephone line's steep band-pass: FFT gain 1 inside, raised-cosine skirts ``skirt`` Hz wide."""
    f = np.fft.rfftfreq(len(x), 1 / SR)
    gain = ((f >= lo) & (f <= hi)).astype(np.float64)
    low, high = (f > lo - skirt) & (f < lo), (f > hi) & (f < hi + skirt)
    gain[low] = 0.5 - 0.5 * np.cos(np.pi * (f[low] - lo + skirt) / skirt)
    gain[high] = 0.5 + 0.5 * np.cos(np.pi * (f[high] - hi) / skirt)
    return np.fft.irfft(np.fft.rfft(x) * gain, len(x)).astype(np.float32)


def _line(x: np.ndarray) -> np.ndarray:
    """Speech as a telephone passes it: 300-3400 Hz, over line noise at -50 dBFS in the same band."""
    noise = np.random.default_rng(0).standard_normal(len(x)).astype(np.float32) * 10 ** (-50 / 20)
    return _band(x + noise)


def _recording() -> tuple[np.ndarray, list[Region], list[str]]:
    """Room: flite rms (a) twice, flite slt (b) three times; then a call: a on the line (the rms line of
    speech_two_speakers) and a LibriSpeech reader nobody heard in the room (new). 0.5 s gaps."""
    two = _read("speech_two_speakers.flac")
    parts = [("room a", _read("speaker_a_1.flac")), ("room a", _read("speaker_a_2.flac")),
             ("room b", _read("speaker_b_1.flac")), ("room b", _read("speaker_b_2.flac")),
             ("room b", two[int(5.1 * SR):]),
             ("phone a", _line(two[int(0.3 * SR): int(4.8 * SR)])),
             ("phone new", _line(_read("speech_burst_librispeech_1.flac"))),
             ("phone new", _line(_read("speech_burst_librispeech_2.flac")))]
    gap = np.zeros(SR // 2, np.float32)
    audio, regions, who, t = [], [], [], 0.0
    for name, wav in parts:
        audio += [gap, wav]
        regions.append(Region(t + 0.5, t + 0.5 + len(wav) / SR))
        who.append(name)
        t += 0.5 + len(wav) / SR
    return np.concatenate([*audio, gap]), regions, who


def _whose(centres: np.ndarray, regions: list[Region], who: list[str]) -> np.ndarray:
    return np.array([who[next(i for i, r in enumerate(regions) if r.start_s - 0.01 <= c <= r.end_s + 0.01)]
                     for c in centres])


def test_the_phone_line_is_told_from_the_room_per_region():
    audio, regions, who = _recording()
    wavs, _ = region_wavs(audio, regions)
    assert region_bands(wavs).tolist() == [float(w.startswith("phone")) for w in who]
    assert np.isnan(region_bands([np.zeros(1000, np.float32)])[0])  # too short to tell


def test_the_band_keeps_the_bins_a_telephone_passes():
    keep = band_bins((300.0, 3400.0))
    assert 40 <= keep.sum() <= 60 and not keep[:5].any() and not keep[-10:].any()
    assert np.flatnonzero(keep).tolist() == list(range(np.argmax(keep), np.argmax(keep) + keep.sum()))


def test_a_voice_through_the_line_matches_itself_in_the_band_only(campp):  # noqa: F811
    room = _read("speaker_a_2.flac")
    plain = [campp.embed(w) for w in (room, _line(room))]
    band = campp.embed_band([room, _line(room)], (300.0, 3400.0))
    cos = lambda a, b: float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))  # noqa: E731
    assert cos(*band) > 0.9 and cos(*band) - cos(*plain) > 0.15


def test_a_voice_on_the_phone_joins_its_room_voice_and_a_new_phone_voice_stays_new(campp):  # noqa: F811
    audio, regions, who = _recording()
    got = speaker_windows_all(audio, regions, np.zeros((0, 2)), campp, campp)
    whose = _whose(got.centres, regions, who)
    label = {w: set(got.labels[whose == w].tolist()) for w in set(who)}
    assert all(len(v) == 1 for v in label.values()), label
    assert label["phone a"] == label["room a"]
    assert len({*label["room a"], *label["room b"], *label["phone new"]}) == 3
    assert sorted(np.unique(got.labels)) == [0, 1, 2]  # first-appearance order, no gap

    linked = diarise.link_phone_voices
    try:  # the clustering alone hears the line as another voice: the link is what joins them
        diarise.link_phone_voices = lambda wavs, starts, centres, groups, labels, *a, **k: labels
        alone = speaker_windows_all(audio, regions, np.zeros((0, 2)), campp, campp)
    finally:
        diarise.link_phone_voices = linked
    assert set(alone.labels[whose == "phone a"]).isdisjoint(alone.labels[whose == "room a"])


class _NoBand:
    name, dim = "campplus", 2

    def embed_band(self, clips, band):
        raise AssertionError("nothing is embedded again without a phone voice")


def test_without_a_phone_voice_the_labels_come_back_unchanged_and_nothing_is_embedded():
    rng = np.random.default_rng(3)
    wavs = [(rng.standard_normal(SR * 2) * 0.1).astype(np.float32) for _ in range(4)]  # wideband noise "speech"
    labels = np.array([0, 0, 1, 1, 2, 0, 1, 1])
    groups = np.array([0, 0, 1, 1, 2, 2, 3, 3])
    centres = np.array([0.8, 1.2, 3.8, 4.2, 6.8, 7.2, 9.8, 10.2])
    starts = [0.0, 3.0, 6.0, 9.0]
    out = link_phone_voices(wavs, starts, centres, groups, labels, _NoBand(), 1.6)
    assert out.tolist() == labels.tolist()


def test_a_phone_voice_takes_the_label_of_the_room_voice_it_matches_only_from_link_up():
    """Regions 0 and 2 are room voices, 1 and 3 phone voices (``bands`` given); each region's audio is its
    number, and the scripted band embedding puts phone 1 on room 2 (cosine 1) and phone 3 just under LINK."""
    rows = {0: [1.0, 0.0], 1: [0.0, 1.0], 2: [0.0, 1.0], 3: [np.sqrt(1 - (LINK - 0.02) ** 2), LINK - 0.02]}

    class Scripted:
        name, dim = "campplus", 2

        def embed_band(self, clips, band):
            assert band == (300.0, 3400.0)
            return np.array([rows[int(c[0])] for c in clips])

    wavs = [np.full(2 * SR, float(i), np.float32) for i in range(4)]
    out = link_phone_voices(wavs, [0.0, 3.0, 6.0, 9.0], np.array([1.0, 4.0, 7.0, 10.0]), np.arange(4),
                            np.arange(4), Scripted(), 1.6, bands=np.array([0.0, 1.0, 0.0, 1.0]))
    assert out.tolist() == [0, 1, 1, 2]  # phone 1 is room 2's voice; phone 3 stays its own; no gap in labels
