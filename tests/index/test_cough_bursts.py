"""Stored cough events: a merged YAMNet span holding two coughs a second apart splits in two."""

from __future__ import annotations

import numpy as np

from harp_desktop.index.events import split_cough_bursts
from harp_desktop.types import Tag

SR = 16000


def _signal(bursts: list[tuple[float, float]], seconds: float = 6.0) -> np.ndarray:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(int(seconds * SR)).astype(np.float32) * 1e-3  # a quiet floor
    for a, b in bursts:
        x[int(a * SR): int(b * SR)] += rng.standard_normal(int(b * SR) - int(a * SR)).astype(np.float32) * 0.3
    return x


def test_two_coughs_a_second_apart_become_two_events():
    x = _signal([(1.6, 2.0), (3.1, 3.5)])
    tags = [Tag(1.0, 4.2, "cough", 0.8), Tag(1.0, 4.2, "shout", 0.3)]
    out = split_cough_bursts(tags, x, SR)
    coughs = [t for t in out if t.label == "cough"]
    assert len(coughs) == 2 and len(out) == 3  # other labels untouched
    assert abs(coughs[0].start_s - 1.45) < 0.05 and abs(coughs[1].end_s - 3.65) < 0.05
    assert all(t.score == 0.8 and t.kind == "event" for t in coughs)


def test_close_bursts_and_edge_fragments_do_not_split():
    close = split_cough_bursts([Tag(1.0, 3.0, "cough", 0.8)], _signal([(1.5, 1.8), (2.0, 2.3)]), SR)
    assert len(close) == 1  # 0.2 s apart: one cough (bout)
    edge = split_cough_bursts([Tag(1.0, 3.0, "cough", 0.8)], _signal([(0.8, 1.3), (2.5, 3.2)]), SR)
    assert [(t.start_s, t.end_s) for t in edge] == [(1.0, 3.0)]  # both bursts touch the span's edges
