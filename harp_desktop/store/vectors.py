"""hnswlib vector indexes, one file per (recording, space), labelled by segment id.

Per-recording files keep each stage's write atomic (tmp file + rename) and make
"restricted to one recording" free; a time window becomes an id filter.
"""

from __future__ import annotations

import os
import pickle
from collections import OrderedDict
from pathlib import Path

import hnswlib
import numpy as np

from harp_desktop.paths import private_dir
from harp_desktop.store import crypto, sealed
from harp_desktop.store.atomic import sweep_stale, tmp_path

SPACES = {"text": 384, "speaker": 256, "audio": 1024}


class VectorStore:
    def __init__(self, library_folder: Path) -> None:
        self.root = Path(library_folder) / "vectors"
        # An encrypted library seals each index (hnswlib pickles to bytes, then AES-GCM);
        # raises if that library is locked, so an index is never written in the clear.
        self.key = crypto.key_for(Path(library_folder))
        # Decrypted indexes by (path, mtime, size): a question searches the same index several times.
        self._opened: OrderedDict[tuple, hnswlib.Index] = OrderedDict()

    def path(self, sha256: str, space: str) -> Path:
        return self.root / sha256 / f"{space}.hnsw"

    def exists(self, sha256: str, space: str) -> bool:
        return self.path(sha256, space).exists()

    def write(self, sha256: str, space: str, ids: np.ndarray, vectors: np.ndarray) -> None:
        """Build and atomically replace the index for one recording and space."""
        vectors = np.asarray(vectors, dtype=np.float32)
        ids = np.asarray(ids, dtype=np.int64)
        dim = vectors.shape[1] if vectors.ndim == 2 and len(vectors) else SPACES[space]
        index = hnswlib.Index(space="cosine", dim=dim)
        index.init_index(max_elements=max(1, len(ids)), ef_construction=200, M=16, random_seed=7)
        if len(ids):
            index.add_items(vectors, ids, num_threads=1)  # one thread: deterministic graph
        target = self.path(sha256, space)
        private_dir(self.root)
        private_dir(target.parent)
        if self.key is not None:
            sealed.write_blob(target, self.key, pickle.dumps(index, protocol=5), f"vectors/{sha256}/{space}")
            return
        sweep_stale(target)
        tmp = tmp_path(target)  # per process: two indexers of one recording never share a temp file
        index.save_index(str(tmp))
        os.chmod(tmp, 0o600)
        os.replace(tmp, target)

    def load(self, sha256: str, space: str) -> hnswlib.Index:
        p = self.path(sha256, space)
        if not p.exists():
            raise FileNotFoundError(f"no {space} index for recording {sha256[:12]}; index the recording first")
        if sealed.magic_of(p) == sealed.BLOB_MAGIC:
            if self.key is None:
                raise crypto.PassphraseError(f"{p} is encrypted but its library's key file is missing")
            # Only hnswlib.Index pickles are ever sealed here, by this library's own key (AES-GCM
            # authenticated), so unpickling cannot be fed a stranger's bytes.
            st = p.stat()
            ident = (str(p), st.st_mtime_ns, st.st_size)
            if ident not in self._opened:
                self._opened[ident] = pickle.loads(sealed.read_blob(p, self.key, f"vectors/{sha256}/{space}"))
                while len(self._opened) > 6:
                    self._opened.popitem(last=False)
            return self._opened[ident]
        index = hnswlib.Index(space="cosine", dim=SPACES[space])
        index.load_index(str(p))
        return index

    def search(
        self, sha256: str, space: str, query: np.ndarray, k: int = 10, allowed_ids: set[int] | None = None
    ) -> list[tuple[int, float]]:
        """Nearest segments as (segment_id, cosine similarity), best first."""
        index = self.load(sha256, space)
        n = index.get_current_count()
        if n == 0 or (allowed_ids is not None and not allowed_ids):
            return []
        k = min(k, n if allowed_ids is None else min(n, len(allowed_ids)))
        index.set_ef(max(50, k * 2))
        flt = None if allowed_ids is None else (lambda label: int(label) in allowed_ids)
        labels, dists = index.knn_query(np.asarray(query, dtype=np.float32).reshape(1, -1), k=k, filter=flt)
        return [(int(lbl), float(1.0 - d)) for lbl, d in zip(labels[0], dists[0], strict=False)]

    def get(self, sha256: str, space: str, ids: list[int]) -> np.ndarray:
        return np.asarray(self.load(sha256, space).get_items(ids), dtype=np.float32)
