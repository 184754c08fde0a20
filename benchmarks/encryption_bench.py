"""What an encrypted library costs, next to a plain one, on synthetic data sized like long recordings.

    .venv/bin/python benchmarks/encryption_bench.py [--hours 1] [--segments 6000] [--repeat 5]

Measures: opening a library (scrypt + SQLCipher keying vs sqlite3), an FTS5 query over
``--segments`` transcript rows, loading one vector index of ``--segments`` 1024-d vectors
(sealed pickle vs hnswlib's own file) against rebuilding it from raw vectors (the
"vectors in the encrypted database, index rebuilt in memory" alternative), and opening the
decoded audio cache of ``--hours`` of audio (AES-GCM into memory vs a memmap). Medians.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harp_desktop.audio import decode  # noqa: E402
from harp_desktop.store import crypto, sealed  # noqa: E402
from harp_desktop.store.db import LibraryDB  # noqa: E402
from harp_desktop.store.vectors import VectorStore  # noqa: E402

PASS = "benchmark passphrase"


def median_s(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fill(db: LibraryDB, n: int) -> None:
    rng = np.random.default_rng(0)
    words = np.array("patient cough breath pain weekend doctor chest headache sunday evening fever".split())
    with db.transaction() as d:
        rid = d["recordings"].insert({"sha256": "0" * 64, "path": "/x.wav", "name": "x.wav", "added_at": "now",
                                      "duration_s": n * 6.0}).last_pk
        d["segments"].insert_all({"recording_id": rid, "idx": i, "start_s": i * 6.0, "end_s": i * 6.0 + 5.0,
                                  "text": " ".join(rng.choice(words, 12))} for i in range(n))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hours", type=float, default=1.0)
    ap.add_argument("--segments", type=int, default=6000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--keep", action="store_true", help="keep the two synthetic libraries")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="harp-enc-bench-"))
    plain, enc = root / "plain", root / "enc"
    LibraryDB(plain).close()
    LibraryDB(enc, PASS, encrypt=True).close()
    rows = []

    def open_plain() -> None:
        LibraryDB(plain).close()

    def open_enc() -> None:
        crypto.forget(enc)
        LibraryDB(enc, PASS).close()

    rows.append(("open library", median_s(open_plain, args.repeat), median_s(open_enc, args.repeat)))

    dbs = {"plain": LibraryDB(plain), "enc": LibraryDB(enc, PASS)}
    for db in dbs.values():
        fill(db, args.segments)
    sql = "SELECT count(*) FROM segments_fts WHERE segments_fts MATCH 'chest AND weekend'"
    rows.append((f"FTS5 query ({args.segments} segments)",
                 *(median_s(lambda d=d: d.db.execute(sql).fetchone(), args.repeat) for d in dbs.values())))

    rng = np.random.default_rng(1)
    vecs = rng.standard_normal((args.segments, 1024)).astype(np.float32)
    ids = np.arange(args.segments)
    stores = {"plain": VectorStore(plain), "enc": VectorStore(enc)}
    for vs in stores.values():
        vs.write("a" * 64, "audio", ids, vecs)
    folders = (plain, enc)  # a fresh VectorStore each time: the first load in a process, nothing cached
    rows.append((f"load vector index ({args.segments} x 1024)",
                 *(median_s(lambda f=f: VectorStore(f).load("a" * 64, "audio"), args.repeat) for f in folders)))
    q = vecs[:1]
    rows.append(("10 searches in one library (one question)",
                 *(median_s(lambda v=v: [v.search("a" * 64, "audio", q, 10) for _ in range(10)], args.repeat)
                   for v in stores.values())))
    rebuild = median_s(lambda: VectorStore(plain).write("b" * 64, "audio", ids, vecs), 1)

    n = int(args.hours * 3600 * decode.SAMPLE_RATE)
    key = crypto.unlocked(enc)
    for folder, k in ((plain, None), (enc, key)):
        (folder / "audio").mkdir(exist_ok=True)
        target = folder / "audio" / f"{'c' * 64}.f32"
        with open(target, "wb") as fh:
            sink = sealed.StreamWriter(fh, k, decode._cache_aad(target)) if k else fh
            for i in range(0, n, 1 << 20):
                sink.write(rng.uniform(-1, 1, min(1 << 20, n - i)).astype(np.float32).tobytes())
            if k:
                sink.close()

    def open_audio(folder: Path) -> float:
        sealed._last.clear()  # the first open in a process: no decrypted copy kept yet
        a = decode.open_cache(folder / "audio" / f"{'c' * 64}.f32")
        return float(a[len(a) // 2])

    rows.append((f"open audio cache ({args.hours:g} h)",
                 median_s(lambda: open_audio(plain), args.repeat), median_s(lambda: open_audio(enc), args.repeat)))
    print(f"{'':44} {'plain':>10} {'encrypted':>10}")
    for name, p, e in rows:
        print(f"{name:44} {p * 1000:8.1f} ms {e * 1000:8.1f} ms")
    print(f"rebuild the vector index from raw vectors instead: {rebuild * 1000:.0f} ms")
    for db in dbs.values():
        db.close()
    if args.keep:
        print(f"files in {root}")
    else:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
