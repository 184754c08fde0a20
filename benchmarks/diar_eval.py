"""Diarisation per recording: speakers found vs truth, DER-style error, purity, coverage.

    .venv/bin/python benchmarks/diar_eval.py --library DIR [AUDIO:TRUTH ...] [--recluster]

Without pairs it scores the development set: dev_long_01 (shared/data/dev), bank_rec_01,
bank_rec_02 and the speaker mixes in benchmarks/diar/ (never bank_rec_03: held out). A
recording missing from the library is indexed first. ``--recluster`` re-runs only the speaker
windows and clustering of the current code (harp_desktop.index.stages.speaker_windows) on
the stored VAD regions and ASR words and rebuilds the turns in memory (the library is not
changed): seconds per recording instead of an index run; embeddings are cached per encoder
in ``--cache``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from diar_score import score  # noqa: E402

DEV = REPO.parent / "shared" / "data" / "dev"
DEFAULT = [
    (DEV / "dev_long_01.flac", DEV / "dev_long_01.truth.json"),
    *((REPO / "benchmarks/bank/audio" / f"bank_rec_0{i}.flac", REPO / "benchmarks/bank/audio" / f"bank_rec_0{i}.truth.json")
      for i in (1, 2)),
    *((p, p.with_suffix("").with_suffix(".truth.json")) for p in sorted((REPO / "benchmarks/diar").glob("*.flac"))),
]


def stored_turns(lib, rid: int) -> list[tuple[float, float, str | None]]:
    return [(s["start_s"], s["end_s"], s["speaker_label"]) for s in lib.db.segments(rid)]


class _Cached:
    """An encoder whose window embeddings of one recording are computed once and kept on disk;
    served to ``speaker_windows`` in its order of calls (regions in groups)."""

    def __init__(self, enc, path: Path, wavs: list[np.ndarray]) -> None:
        from harp_desktop.index.diarise import HOP_S, WINDOW_S

        self.name, self.dim, self.i = getattr(enc, "name", "ge2e"), enc.dim, 0
        if hasattr(enc, "embed_band"):  # the phone-voice link's band embeddings (index/phone_link.py): not cached
            self.embed_band = enc.embed_band
        if path.exists():
            z = np.load(path, allow_pickle=True)
            self.all = list(zip(z["c"], z["e"], strict=True))
        else:
            self.all = enc.embed_regions(wavs, WINDOW_S, HOP_S)
            np.savez(path, c=np.array([c for c, _ in self.all] + [None], dtype=object)[:-1],
                     e=np.array([e for _, e in self.all] + [None], dtype=object)[:-1])

    def embed_regions(self, wavs, *_):
        out = self.all[self.i: self.i + len(wavs)]
        self.i += len(wavs)
        return out


def recluster_turns(lib, rec: dict, cache: Path, diariser: str) -> list[tuple[float, float, str | None]]:
    from harp_desktop.index import segments as turns
    from harp_desktop.index.context import ModelCache
    from harp_desktop.index.diarise import speaker_windows
    from harp_desktop.types import Region, Word

    rid = rec["id"]
    regions = [Region(r["start_s"], r["end_s"]) for r in lib.db.db.query(
        "SELECT start_s, end_s FROM speech_regions WHERE recording_id = ? ORDER BY idx", [rid])]
    words = [Word(*w) for r in lib.db.db.query(
        "SELECT words FROM asr_chunks WHERE recording_id = ? ORDER BY chunk", [rid]) for w in json.loads(r["words"])]
    got = lib.db.get_array(rid, "vad_rescued")
    rescued = got[0] if got is not None else np.zeros((0, 2), np.float32)
    audio = np.memmap(lib.folder / "audio" / f"{rec['sha256']}.f32", np.float32, "r")
    wavs = [np.asarray(audio[int(r.start_s * 16000): int(r.end_s * 16000)]) for r in regions if r.duration_s >= 0.5]
    models = ModelCache()
    ge2e = _Cached(models.speaker(), cache / f"{rec['sha256'][:12]}-ge2e.npz", wavs)
    diar = (_Cached(models.diariser(), cache / f"{rec['sha256'][:12]}-campplus.npz", wavs)
            if diariser == "campplus" else None)
    min_turn = turns.MIN_TURN_S
    if diariser == "before":  # as indexed before: GE2E, average linkage cut at 0.4, turns from 1 s
        import harp_desktop.index.diarise as dz
        from harp_desktop.index.speakers import _cluster

        saved, dz.cluster_voices = dz.cluster_voices, lambda emb, threshold: _cluster(emb, 0.4, 2.0, None)
        try:
            centres, _, labels = speaker_windows(audio, regions, rescued, ge2e, None)
        finally:
            dz.cluster_voices = saved
        turns.MIN_TURN_S = 1.0
    else:
        centres, _, labels = speaker_windows(audio, regions, rescued, ge2e, diar)
    try:
        segs = turns.build_turns(turns.speaker_pieces(regions, centres, labels, words), words)
    finally:
        turns.MIN_TURN_S = min_turn
    return [(s.start_s, s.end_s, None if s.speaker is None else f"S{s.speaker}") for s in segs]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairs", nargs="*", help="AUDIO:TRUTH (default: the development set)")
    ap.add_argument("--library", required=True)
    ap.add_argument("--recluster", action="store_true")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/harp-diar-cache"))
    ap.add_argument("--diariser", choices=("campplus", "ge2e", "before"), default="campplus",
                    help="with --recluster: the embeddings clustered (ge2e: GE2E's own windows; before: GE2E "
                         "windows, average linkage cut at 0.4 and turns from 1 s, as indexed before CAM++ and "
                         "spectral clustering)")
    ap.add_argument("--json", type=Path, help="also write the scores here")
    args = ap.parse_args()
    from harp_desktop.api import IndexOptions, Library

    pairs = [tuple(Path(x) for x in p.split(":", 1)) for p in args.pairs] or DEFAULT
    args.cache.mkdir(parents=True, exist_ok=True)
    rows = []
    with Library(args.library) as lib:
        for audio, truth in pairs:
            try:
                rec = lib.recording(audio)
            except Exception:  # not indexed yet
                lib.index(audio, IndexOptions())
                rec = lib.recording(audio)
            events = json.loads(truth.read_text())
            events = events.get("events") or events.get("items")
            t0 = time.perf_counter()
            got = recluster_turns(lib, rec, args.cache, args.diariser) if args.recluster else stored_turns(lib, rec["id"])
            s = score(events, got, rec["duration_s"])
            s["name"], s["seconds"] = audio.stem, round(time.perf_counter() - t0, 1)
            rows.append(s)
            print(f"{audio.stem:22s} found {s['found']:2d} / true {s['true']:2d}  DER {s['der']:.3f} "
                  f"(miss {s['miss']:.3f} fa {s['fa']:.3f} conf {s['conf']:.3f})  purity {s['purity']:.3f} "
                  f"coverage {s['coverage']:.3f}  turns right {s['turns_right']:.3f} (short {s['short_right']:.2f} of "
                  f"{s['n_short']})  [{s['seconds']} s]", flush=True)
    if len(rows) > 1:
        print(f"{'mean':22s} |found-true| {np.mean([abs(r['found'] - r['true']) for r in rows]):.2f}  "
              f"DER {np.mean([r['der'] for r in rows]):.3f}  conf {np.mean([r['conf'] for r in rows]):.3f}  "
              f"turns right {np.mean([r['turns_right'] for r in rows]):.3f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
