"""Who speaks when: speaker windows over the VAD regions, and their voice labels.

Two encoders look at the same windows (1.6 s every 0.8 s): GE2E, whose embeddings are
stored and serve voice search and the per-speaker centroids (their thresholds are GE2E
cosines), and CAM++, whose embeddings decide the labels. Why two: CAM++ (trained on ~200k
real speakers) separates voices GE2E merges -- the two sides of a phone call, voices of one
synthesiser -- while swapping the stored vectors would invalidate every calibrated voice-cue
threshold (docs/decisions.md, "Diarisation: CAM++ and spectral clustering").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.index.clustering import cluster_voices
from harp_desktop.index.speakers import cluster_speakers
from harp_desktop.types import Region

WINDOW_S, HOP_S = 1.6, 0.8
# Average-linkage cut inside each spectral cluster, on each encoder's own cosine scale: 0.4 is
# GE2E's long-standing cut; CAM++'s windows of one voice spread more (0.6; 0.55-0.65 alike on dev).
CUT = {"ge2e": 0.4, "campplus": 0.6}
VERSION = "v3-spectral"


def _embed(enc, wavs: list[np.ndarray], starts: list[float], report: Callable[[float], None],
           check: Callable[[], None]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Per region: window centres (s, absolute) and embeddings; regions in groups of 64 (shared batches
    are faster, groups bound memory)."""
    centres, embs = [], []
    for g in range(0, len(wavs), 64):
        check()
        for s, (c, e) in zip(starts[g: g + 64], enc.embed_regions(wavs[g: g + 64], WINDOW_S, HOP_S), strict=True):
            centres.append(c + s)
            embs.append(e)
        report(min(1.0, (g + 64) / max(1, len(wavs))))
    return centres, embs


def speaker_windows(audio: np.ndarray, regions: list[Region], rescued: np.ndarray, enc, diar=None,
                    report: Callable[[float], None] = lambda f: None, check: Callable[[], None] = lambda: None,
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(centres_s, ``enc`` embeddings, labels) of the speaker windows over ``regions`` of ``audio``;
    labels from ``diar``'s embeddings of the same windows when given. Shared by the speakers stage
    and benchmarks/diar_eval.py, so what is measured is what is indexed."""
    regions = [r for r in regions if r.duration_s >= 0.5]
    wavs = [np.asarray(audio[int(r.start_s * SAMPLE_RATE): int(r.end_s * SAMPLE_RATE)], dtype=np.float32)
            for r in regions]
    starts = [r.start_s for r in regions]
    share = 0.3 if diar is not None else 1.0  # CAM++ costs ~4x GE2E per window
    centres, embs = _embed(enc, wavs, starts, lambda f: report(share * f), check)
    centres_a = np.concatenate(centres) if centres else np.zeros(0, np.float32)
    embs_a = np.concatenate(embs) if embs else np.zeros((0, enc.dim), np.float32)
    groups = np.concatenate([np.full(len(c), i) for i, c in enumerate(centres)]) if centres else np.zeros(0, np.int64)
    if len(embs_a) == 0:
        return centres_a, embs_a, np.zeros(0, np.int64)
    basis, name = embs_a, getattr(enc, "name", "ge2e")
    if diar is not None:
        d_centres, d_embs = _embed(diar, wavs, starts, lambda f: report(share + (1 - share) * f), check)
        # the same windows; should an encoder ever place them differently, each takes the nearest one
        basis = np.concatenate([de[np.abs(dc[None, :] - c[:, None]).argmin(1)] if len(dc) else np.zeros((len(c), diar.dim))
                                for c, dc, de in zip(centres, d_centres, d_embs, strict=True)])
        name = getattr(diar, "name", "campplus")
    # Windows centred in speech only the tagger heard (vad_rescued: emotional or atypical voice,
    # whose embeddings stray from the same person's usual voice) found no speaker of their own:
    # they take the voice of the rest of their region, else the nearest voice found elsewhere.
    spans = np.asarray(rescued, np.float32).reshape(-1, 2)
    attach = ((centres_a[:, None] >= spans[None, :, 0]) & (centres_a[:, None] <= spans[None, :, 1])).any(1)
    labels = cluster_speakers(basis, attach_only=attach, groups=groups,
                              method=partial(cluster_voices, threshold=CUT.get(name, CUT["ge2e"])))
    return centres_a, embs_a, labels
