"""A person heard in the room and through a telephone line is one voice (issue 18, "Voices").

The clustering (index/clustering.py) gives a voice heard only through a phone line (300-3400 Hz)
a cluster of its own even when the same person speaks in the room too: the line takes away the
bands CAM++ leans on, and band-limited windows of every voice sit nearer each other than any of
them sits to its own full-band windows (bank_rec_07's GP and the mother on the follow-up call,
bank_rec_01's patient and receptionist, bank_rec_05's son). Compared on the band both channels
pass, they match again: each cluster's windows are embedded once more with the mel bins outside
300-3400 Hz set to their mean (``CamPlusEncoder.embed_band``; the phone side is treated the same
way, so neither side keeps what only its channel has), and a phone cluster whose band centroid
reaches ``LINK`` against a room cluster's is that cluster's voice. A phone voice nobody heard in
the room (a triage nurse, a hospital pharmacist, dev's two callers) stays a voice of its own.

Which clusters are which: each speech region is measured by the findings' telephone-band test
(``findings.band.phone_band``: 4-7.5 kHz against 0.3-3.4 kHz in its speech frames); a cluster is
a phone voice when at least ``PHONE_SHARE`` of its measured windows lie in band-limited regions,
a room voice when at most 1 - ``PHONE_SHARE`` do. A recording with no phone voice is returned
unchanged, and nothing more is embedded for it.

``LINK``, measured on the eight development recordings (docs/decisions.md, "A voice on the phone
and in the room is one voice"): band centroids of the same person 0.88-0.96 (5 phone voices), of a
new phone voice against the recording's nearest room voice at most 0.75 (5 phone voices; the highest
two eSpeak NG women of one synthesiser); midway, 0.82.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.findings.band import phone_band
from harp_desktop.index.speakers import PHONE_BAND_HZ

PHONE_SHARE = 0.8
LINK = 0.82
PER_VOICE = 20  # windows per cluster embedded in the band: 12-40 gave the same links, scores within 0.04


def region_bands(wavs: list[np.ndarray]) -> np.ndarray:
    """Per region: 1.0 band-limited (a telephone line), 0.0 wideband, nan too short to tell."""
    out = np.full(len(wavs), np.nan)
    for i, w in enumerate(wavs):
        got = phone_band(w, 0.0, len(w) / SAMPLE_RATE)
        if got is not None:
            out[i] = float(got)
    return out


def _clip(wav: np.ndarray, start_s: float, centre_s: float, window_s: float) -> np.ndarray:
    """The window centred at ``centre_s`` of a region starting at ``start_s`` (as the encoders place it)."""
    n = min(int(round(window_s * SAMPLE_RATE)), len(wav))
    a = min(max(0, int(round((centre_s - start_s) * SAMPLE_RATE - n / 2))), len(wav) - n)
    return np.asarray(wav[a: a + n], np.float32)


def link_phone_voices(wavs: list[np.ndarray], starts: list[float], centres: np.ndarray, groups: np.ndarray,
                      labels: np.ndarray, enc, window_s: float, check: Callable[[], None] = lambda: None,
                      bands: np.ndarray | None = None) -> np.ndarray:
    """``labels`` (window i in region ``groups[i]`` of ``wavs``, centred at ``centres[i]``) with each phone
    voice that matches a room voice in the telephone band relabelled as it, first-appearance order kept.
    ``enc`` needs ``embed_band`` (CAM++); without it, or without a phone voice, ``labels`` come back as they
    are. ``bands``: ``region_bands(wavs)`` when already measured."""
    labels = np.asarray(labels, np.int64)
    if len(labels) == 0 or not hasattr(enc, "embed_band"):
        return labels
    bands = region_bands(wavs) if bands is None else bands
    win_band = bands[np.asarray(groups, np.int64)]
    phone, room = [], []
    for k in np.unique(labels):
        measured = win_band[(labels == k) & ~np.isnan(win_band)]
        if len(measured) == 0:
            continue
        share = float(measured.mean())
        if share >= PHONE_SHARE:
            phone.append(int(k))
        elif share <= 1.0 - PHONE_SHARE:
            room.append(int(k))
    if not phone or not room:
        return labels

    def band_centroid(k: int) -> np.ndarray:
        idx = np.flatnonzero(labels == k)
        idx = np.unique(idx[np.linspace(0, len(idx) - 1, min(PER_VOICE, len(idx))).round().astype(int)])
        check()
        e = enc.embed_band([_clip(wavs[groups[i]], starts[groups[i]], float(centres[i]), window_s) for i in idx],
                           PHONE_BAND_HZ)
        e = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)
        m = e.mean(0)
        return m / max(float(np.linalg.norm(m)), 1e-12)

    room_c = np.stack([band_centroid(k) for k in room])
    out = labels.copy()
    for p in phone:
        sims = room_c @ band_centroid(p)
        if sims.max() >= LINK:
            out[labels == p] = room[int(np.argmax(sims))]
    remap: dict[int, int] = {}
    for lab in out:
        remap.setdefault(int(lab), len(remap))
    return np.array([remap[int(lab)] for lab in out], np.int64)
