"""Who speaks when: speaker windows over the VAD regions, and their voice labels.

Two encoders look at the same windows (1.6 s every 0.8 s): GE2E, whose embeddings serve the
per-speaker centroids and the voice cues of libraries indexed before CAM++ windows were kept,
and CAM++, whose embeddings decide the labels and, stored beside GE2E's, score voice cues
(docs/decisions.md, "Diarisation: CAM++ and spectral clustering", "Voice cues on CAM++").
Why two: CAM++ (trained on ~200k real speakers) separates voices GE2E merges -- the two sides
of a phone call, voices of one synthesiser -- and matches a cue clip to its speaker at about
half GE2E's equal-error rate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.index.clustering import cluster_voices
from harp_desktop.index.phone_link import link_phone_voices
from harp_desktop.index.speakers import _single_thread_blas, cluster_speakers
from harp_desktop.types import Region

WINDOW_S, HOP_S = 1.6, 0.8
# Average-linkage cut inside each spectral cluster, on each encoder's own cosine scale: 0.4 is
# GE2E's long-standing cut; CAM++'s windows of one voice spread more (0.6; 0.55-0.65 alike on dev).
CUT = {"ge2e": 0.4, "campplus": 0.6}
# v5: the CAM++ window embeddings are stored too ("speaker_windows_campplus"); the labels are unchanged.
# v6: a phone-band voice that matches a room voice in the telephone band takes its label (index/phone_link.py).
VERSION = "v6-spectral-groups8-keepcam-phonelink"
# Regions embedded per call. CAM++ batches equal-length windows of one call together and its numbers move in the
# last float bits with the batch's make-up, so a group's embeddings are a function of the group's audio only
# when groups are fixed: consecutive runs of GROUP regions from the recording's start (after the 0.5 s filter).
# Groups complete while recording are embedded ahead (record/ahead.py) and found by ``group_key``. 8, not 64
# (the unit before issue 20): what is left at Stop is at most one group; CPU the same (CAM++ batches 16 windows,
# a group of 8 regions holds ~35).
GROUP = 8
# The stored array of the diarisation encoder's (CAM++) window embeddings, beside GE2E's "speaker_windows".
VOICE_WINDOWS = "speaker_windows_campplus"
MIN_REGION_S = 0.5


def group_key(fingerprint: str, encoder: str, wavs: list[np.ndarray]) -> str:
    """What ``enc.embed_regions(wavs)`` reads, hashed (the speakers stage's fingerprint names the weights)."""
    h = hashlib.sha256(f"{fingerprint}|{encoder}|{WINDOW_S}|{HOP_S}|".encode())
    for w in wavs:
        piece = np.ascontiguousarray(w, dtype=np.float32)
        h.update(f"{len(piece)}|".encode())
        h.update(piece.tobytes())
    return h.hexdigest()


def region_wavs(audio: np.ndarray, regions: list[Region]) -> tuple[list[np.ndarray], list[float]]:
    """The regions the speaker windows cover (>= MIN_REGION_S), as audio, and their starts."""
    regions = [r for r in regions if r.duration_s >= MIN_REGION_S]
    return ([np.asarray(audio[int(r.start_s * SAMPLE_RATE): int(r.end_s * SAMPLE_RATE)], dtype=np.float32)
             for r in regions], [r.start_s for r in regions])


def _embed(enc, wavs: list[np.ndarray], starts: list[float], report: Callable[[float], None],
           check: Callable[[], None], cache: Any = None, fingerprint: str = "",
           ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Per region: window centres (s, absolute) and embeddings; regions in groups of GROUP (shared batches
    are faster, groups bound memory), each taken from ``cache`` (index/chunk_cache.py) when computed ahead.
    A group a worker is still computing (while recording, or beside the asr stage: index/beside.py) is taken
    after the stage has computed the groups nobody claimed, so both work through what is left."""
    done: dict[int, list] = {}
    later: list[tuple[int, str]] = []
    name = getattr(enc, "name", "ge2e")
    n_groups = -(-len(wavs) // GROUP)

    def compute(g: int, key: str | None) -> None:
        try:
            done[g] = enc.embed_regions(wavs[g: g + GROUP], WINDOW_S, HOP_S)
        finally:
            if key:
                cache.release(key)
        report(min(1.0, len(done) / max(1, n_groups)))

    for g in range(0, len(wavs), GROUP):
        check()
        key = group_key(fingerprint, name, wavs[g: g + GROUP]) if cache is not None and cache.active() else None
        state, got = cache.poll(key) if key else ("yours", None)
        if state == "held":
            done[g] = got
        elif state == "busy":
            later.append((g, key))
        else:
            compute(g, key)
    for g, key in later:
        check()
        got = cache.take(key)  # waits for the worker; None: the worker gave it up, and it is the stage's now
        if got is None:
            compute(g, key)
        else:
            done[g] = got
    centres, embs = [], []
    for g in range(0, len(wavs), GROUP):
        for s, (c, e) in zip(starts[g: g + GROUP], done[g], strict=True):
            centres.append(c + s)
            embs.append(e)
    report(1.0)
    return centres, embs


class SpeakerWindows(NamedTuple):
    """The speaker windows of a recording, row i of each array being window i."""

    centres: np.ndarray  # (n,) window centres, seconds
    embs: np.ndarray  # (n, enc.dim) the main encoder's (GE2E) embeddings
    labels: np.ndarray  # (n,) voice labels
    voices: np.ndarray | None  # (n, diar.dim) the diarisation encoder's (CAM++) embeddings, None without one


def speaker_windows(audio: np.ndarray, regions: list[Region], rescued: np.ndarray, enc, diar=None,
                    report: Callable[[float], None] = lambda f: None, check: Callable[[], None] = lambda: None,
                    cache: Any = None, fingerprint: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(centres_s, ``enc`` embeddings, labels) of the speaker windows over ``regions`` of ``audio``
    (``speaker_windows_all`` without the diarisation embeddings)."""
    got = speaker_windows_all(audio, regions, rescued, enc, diar, report, check, cache, fingerprint)
    return got.centres, got.embs, got.labels


def speaker_windows_all(audio: np.ndarray, regions: list[Region], rescued: np.ndarray, enc, diar=None,
                        report: Callable[[float], None] = lambda f: None, check: Callable[[], None] = lambda: None,
                        cache: Any = None, fingerprint: str = "") -> SpeakerWindows:
    """The speaker windows over ``regions`` of ``audio``: centres, ``enc`` embeddings, labels, and ``diar``'s
    embeddings of the same windows, which decide the labels when given. Shared by the speakers stage
    and benchmarks/diar_eval.py, so what is measured is what is indexed. ``cache``/``fingerprint``: groups
    embedded ahead while recording (``_embed``)."""
    wavs, starts = region_wavs(audio, regions)
    share = 0.3 if diar is not None else 1.0  # CAM++ costs ~4x GE2E per window
    centres, embs = _embed(enc, wavs, starts, lambda f: report(share * f), check, cache, fingerprint)
    centres_a = np.concatenate(centres) if centres else np.zeros(0, np.float32)
    embs_a = np.concatenate(embs) if embs else np.zeros((0, enc.dim), np.float32)
    groups = np.concatenate([np.full(len(c), i) for i, c in enumerate(centres)]) if centres else np.zeros(0, np.int64)
    if len(embs_a) == 0:
        return SpeakerWindows(centres_a, embs_a, np.zeros(0, np.int64),
                              None if diar is None else np.zeros((0, diar.dim), np.float32))
    basis, name = embs_a, getattr(enc, "name", "ge2e")
    if diar is not None:
        d_centres, d_embs = _embed(diar, wavs, starts, lambda f: report(share + (1 - share) * f), check, cache,
                                   fingerprint)
        # the same windows; should an encoder ever place them differently, each takes the nearest one
        basis = np.concatenate([de[np.abs(dc[None, :] - c[:, None]).argmin(1)] if len(dc) else np.zeros((len(c), diar.dim))
                                for c, dc, de in zip(centres, d_centres, d_embs, strict=True)])
        name = getattr(diar, "name", "campplus")
    # Windows centred in speech only the tagger heard (vad_rescued: emotional or atypical voice,
    # whose embeddings stray from the same person's usual voice) found no speaker of their own:
    # they take the voice of the rest of their region, else the nearest voice found elsewhere.
    spans = np.asarray(rescued, np.float32).reshape(-1, 2)
    attach = ((centres_a[:, None] >= spans[None, :, 0]) & (centres_a[:, None] <= spans[None, :, 1])).any(1)
    # One BLAS thread: the Laplacian's eigh in OpenBLAS's pool spun on a shared machine (load 7: 1,200 windows 5.9
    # CPU-s vs 0.34 single-threaded, 3,700 windows 21 vs 8.2; decisions.md "Speakers stage speed, stop 28").
    with _single_thread_blas():
        labels = cluster_speakers(basis, attach_only=attach, groups=groups,
                                  method=partial(cluster_voices, threshold=CUT.get(name, CUT["ge2e"])))
    if diar is not None:  # a voice heard through a phone line and in the room is one voice (index/phone_link.py)
        labels = link_phone_voices(wavs, starts, centres_a, groups, labels, diar, WINDOW_S, check)
    return SpeakerWindows(centres_a, embs_a, labels, None if diar is None else np.asarray(basis, np.float32))
