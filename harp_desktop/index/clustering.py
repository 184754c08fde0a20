"""How many voices, and which window is whose: spectral clustering with an eigengap count.

Why not one distance threshold (``speakers.cluster_speakers``, average linkage cut at 0.4):
one cut cannot serve a recording whose voices differ only in pitch and formants (voices of
one synthesiser, two women of one corpus: merged at 0.4) and one whose speaker's windows
spread (emotional lines, short replies: split below it). A window's nearest neighbours are
mostly its own voice even when absolute similarities are high, so the affinity keeps each
window's ``k`` nearest neighbours only (p-pruning, as 3D-Speaker / SpeechBrain), and the
number of voices is the largest gap in the graph Laplacian's spectrum (eigengap): it adapts
per recording. The eigengap counts the voices that hold most of the speech; a voice heard for
a few seconds hides inside one of them, so each cluster is then split by average linkage at
the encoder's usual cut, and a piece too small to be a voice (< 2 windows) rejoins the rest.
"""

from __future__ import annotations

import numpy as np

MAX_SPEAKERS = 20  # the eigengap looks at this many eigenvalues; no cap on what AHC finds
MIN_NEIGHBOURS = 6


def _kmeans(x: np.ndarray, k: int, seed: int = 0, n_init: int = 8) -> np.ndarray:
    """Lloyd's k-means with k-means++ starts; the run with the least inertia wins (deterministic)."""
    rng = np.random.default_rng(seed)
    best, best_cost = np.zeros(len(x), np.int64), np.inf
    for _ in range(n_init):
        cent = [x[rng.integers(len(x))]]
        for _ in range(1, k):
            d = np.min(((x[:, None] - np.array(cent)[None]) ** 2).sum(-1), axis=1)
            cent.append(x[rng.choice(len(x), p=d / d.sum())] if d.sum() > 0 else x[rng.integers(len(x))])
        cent = np.array(cent)
        for _ in range(100):
            lab = np.argmin(((x[:, None] - cent[None]) ** 2).sum(-1), axis=1)
            new = np.array([x[lab == j].mean(0) if (lab == j).any() else cent[j] for j in range(k)])
            if np.allclose(new, cent):
                break
            cent = new
        cost = float(((x - cent[lab]) ** 2).sum())
        if cost < best_cost:
            best, best_cost = lab, cost
    return best


def _laplacian(emb: np.ndarray, keep: int, block: int = 512) -> np.ndarray:
    """The unnormalised Laplacian of the p-pruned affinity, built in one n x n array (plus row blocks): what
    ``diag(|A|.sum(1)) - A`` gives for A = (P + P.T) / 2, P the similarities at or above each row's (keep+1)-th
    largest (itself included), A's diagonal zeroed -- the same operations on the same numbers, so bit for bit
    the same matrix (tests/index/test_clustering.py); at 3,700 windows (60 min) each n x n float64 array is
    110 MB, and the straightforward expression held five of them at once."""
    n = len(emb)
    a = emb @ emb.T
    for i in range(0, n, block):  # each row's threshold, then its pruning, a block of rows at a time
        rows = a[i: i + block]
        thr = -np.partition(-rows, keep, axis=1)[:, keep][:, None]
        rows[rows < thr] = 0.0
    for i in range(0, n, block):  # symmetrise: (x + y) * 0.5 on both sides of the diagonal
        for j in range(i, n, block):
            s = a[i: i + block, j: j + block] + a[j: j + block, i: i + block].T
            s *= 0.5
            a[i: i + block, j: j + block] = s
            a[j: j + block, i: i + block] = s.T
    np.fill_diagonal(a, 0.0)
    deg = np.concatenate([np.abs(a[i: i + block]).sum(1) for i in range(0, n, block)])
    np.subtract(0.0, a, out=a)  # 0 - x, as diag(d) - A off the diagonal (+0.0 where A is 0)
    a[np.diag_indices(n)] = deg  # d - 0 on it
    return a


def spectral(emb: np.ndarray, pval: float = 0.02, max_k: int = MAX_SPEAKERS) -> np.ndarray:
    """Labels of unit-norm rows: p-pruned cosine affinity, unnormalised Laplacian, eigengap, k-means."""
    n = len(emb)
    if n < 2 * MIN_NEIGHBOURS:
        return np.zeros(n, np.int64)
    keep = min(n - 1, max(MIN_NEIGHBOURS, int(round(pval * n))))
    vals, vecs = np.linalg.eigh(_laplacian(emb, keep))
    m = min(max_k + 1, n)
    k = int(np.argmax(np.diff(vals[:m]))) + 1
    return _kmeans(vecs[:, :k], k) if k > 1 else np.zeros(n, np.int64)


def centroids(emb: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ids = np.unique(labels)
    cents = np.stack([emb[labels == k].mean(0) for k in ids])
    return ids, cents / np.maximum(np.linalg.norm(cents, axis=1, keepdims=True), 1e-12)


def absorb_small(emb: np.ndarray, labels: np.ndarray, min_size: int) -> np.ndarray:
    """Clusters of fewer than ``min_size`` windows join the nearest larger cluster (row by row)."""
    ids, counts = np.unique(labels, return_counts=True)
    big = ids[counts >= min_size]
    if len(big) == 0 or len(big) == len(ids):
        return labels
    labels = labels.copy()
    small = ~np.isin(labels, big)
    big_ids, cents = centroids(emb[~small], labels[~small])
    labels[small] = big_ids[np.argmax(emb[small] @ cents.T, axis=1)]
    return labels


def refine(emb: np.ndarray, labels: np.ndarray, threshold: float, min_size: int) -> np.ndarray:
    """Split each cluster by average linkage cut at ``threshold``: the eigengap counts the voices that
    hold most of the speech, and a voice heard for a few seconds hides inside a big cluster."""
    from scipy.cluster.hierarchy import fcluster, linkage

    out = np.zeros(len(labels), np.int64)
    nxt = 0
    for k in np.unique(labels):
        idx = np.flatnonzero(labels == k)
        sub = (fcluster(linkage(emb[idx], method="average", metric="cosine"), t=threshold, criterion="distance")
               if len(idx) > 1 else np.ones(1, np.int64))
        sub = absorb_small(emb[idx], sub, min_size)
        out[idx] = nxt + np.searchsorted(np.unique(sub), sub)
        nxt += len(np.unique(sub))
    return out


def cluster_voices(emb: np.ndarray, threshold: float, pval: float = 0.02, min_size: int = 2) -> np.ndarray:
    """Voice labels (0..K-1 in ``np.unique`` order) of unit-norm window embeddings: the eigengap's
    clusters, each split where average linkage cuts it at ``threshold`` (the encoder's scale)."""
    labels = refine(emb, spectral(emb, pval), threshold, min_size)
    return np.searchsorted(np.unique(labels), labels).astype(np.int64)
