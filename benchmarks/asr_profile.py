"""Where the ASR stage's CPU goes: main pass vs repair pass, and inside each CTranslate2's encode / generate /
align calls (process CPU seconds, all threads; wall seconds lie when other jobs share the cores).

    .venv/bin/python benchmarks/asr_profile.py LIBRARY [--asr base] [--threads 2]

LIBRARY: a library that indexed the recording (--recording ID if not its first; its VAD regions and decoded audio are read; nothing is written).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


class Timed:
    """Forwards to a ctranslate2 Whisper model, adding CPU seconds and calls per method to ``stats[pass]``."""

    def __init__(self, model, stats: dict) -> None:
        self._m, self.stats, self.phase = model, stats, "main"

    def __getattr__(self, name):
        attr = getattr(self._m, name)
        if name not in ("encode", "generate", "align", "detect_language"):
            return attr

        def call(*a, **k):
            c0 = time.process_time()
            out = attr(*a, **k)
            s = self.stats[self.phase]
            s[name] += time.process_time() - c0
            s[name + "_n"] += 1
            return out
        return call


def wer(words, truth: Path) -> str:
    """dev_eval.py's word error rate of ``words`` on the truth file's text spans."""
    import json

    from dev_eval import norm
    from rapidfuzz.distance import Levenshtein

    events = json.loads(truth.read_text())
    events = events.get("events") or events.get("items")
    spans = [e for e in events if e.get("text") and e.get("kind") in ("speech", "tts_speech", "emotion_speech")]
    spans = [e for e in spans if not any(o is not e and o.get("text") and o["start_s"] >= e["start_s"]
                                         and o["end_s"] <= e["end_s"] and o.get("level") != e.get("level")
                                         for o in spans)]
    errors = ref = 0
    for e in spans:
        hyp = " ".join(w.text for w in words if e["start_s"] - 0.3 <= (w.start_s + w.end_s) / 2 <= e["end_s"] + 0.3)
        r = norm(e["text"])
        errors += Levenshtein.distance(r, norm(hyp))
        ref += len(r)
    return f"{errors / max(ref, 1):.4f} ({errors} / {ref} words)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library", type=Path)
    ap.add_argument("--asr", default="base")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--truth", type=Path, help="a truth file: also the WER of these words (dev_eval.py's rule)")
    ap.add_argument("--chunk-s", type=float, default=None, help="joined audio per chunk (IndexOptions.asr_chunk_s)")
    ap.add_argument("--no-repair", action="store_true", help="skip the repair pass (what it costs and gives)")
    ap.add_argument("--repair-min", type=float, help="asr.REPAIR_MIN_S for this run (shortest hole re-decoded)")
    ap.add_argument("--recording", type=int, help="the recording's id in LIBRARY (default: the first)")
    ap.add_argument("--windows", action="store_true",
                    help="the main pass's Whisper windows per chunk, and the words each later window gave")
    args = ap.parse_args()
    from harp_desktop import weights
    from harp_desktop.audio.decode import open_cache
    from harp_desktop.index import asr
    from harp_desktop.types import Region

    db = sqlite3.connect(args.library / "library.sqlite")
    rid, sha = db.execute("SELECT id, sha256 FROM recordings WHERE ? IS NULL OR id = ? ORDER BY id",
                          [args.recording, args.recording]).fetchone()
    regions = [Region(a, b) for a, b in db.execute(
        "SELECT start_s, end_s FROM speech_regions WHERE recording_id = ? ORDER BY idx", [rid])]
    audio = open_cache(args.library / "audio" / f"{sha}.f32")
    from harp_desktop.index.context import IndexOptions

    o = IndexOptions()  # the pipeline's ASR options (hotwords, beam)
    tr = asr.Transcriber(weights.model_path(weights.ASR_PROFILES[args.asr]),
                         asr.AsrOptions(beam_size=o.beam_size, language=o.language, hotwords=o.hotwords),
                         cpu_threads=args.threads)
    stats: dict = defaultdict(lambda: defaultdict(float))
    timed = Timed(tr.model.model, stats)
    tr.model.model = timed
    words_fn = tr._words

    def words(audio_, offsets, language, strict=False, **kw):
        timed.phase = "repair" if strict or kw.get("repair") else "main"
        c0 = time.process_time()
        out = words_fn(audio_, offsets, language, strict, **kw)
        stats[timed.phase]["total"] += time.process_time() - c0
        stats[timed.phase]["calls"] += 1
        stats[timed.phase]["words"] += len(out[0])
        stats[timed.phase]["audio_s"] += len(audio_) / 16000
        return out

    tr._words = words
    if args.no_repair or args.repair_min:
        asr.REPAIR_MIN_S = float("inf") if args.no_repair else args.repair_min
    repaired = []
    uncovered = asr.uncovered

    def holes(spans, words_, min_s):
        out = uncovered(spans, words_, min_s)
        repaired.extend(out)
        return out

    asr.uncovered = holes
    chunk_windows: list = []  # per chunk: joined seconds, [(seek s, size s, words)] of its main pass
    if args.windows:
        real_transcribe, real_states = tr.model.transcribe, asr.recording_states

        def transcribe(audio_, **kw):
            segs, info = real_transcribe(audio_, **kw)
            if timed.phase != "main":
                return segs, info
            got: dict = {}
            chunk_windows.append((len(audio_) / 16000, got))

            def gen():
                for s in segs:
                    got.setdefault(s.seek, []).extend(w.word for w in s.words or [])
                    yield s
            return gen(), info

        def states(windows, offsets):
            got = chunk_windows[-1][1]
            chunk_windows[-1] = (chunk_windows[-1][0], [(seek / 100, size / 100, got.get(seek, []))
                                                        for seek, size, _ in windows])
            return real_states(windows, offsets)
        tr.model.transcribe, asr.recording_states = transcribe, states
    c0, t0, lang, all_words = time.process_time(), time.perf_counter(), None, []
    chunks = asr.plan_chunks(regions, args.chunk_s or o.asr_chunk_s)
    print(f"{len(chunks)} chunks of <= {args.chunk_s or o.asr_chunk_s:g} s joined audio")
    for chunk in chunks:
        w, lang = tr.transcribe_chunk(audio, chunk, lang)
        all_words += w
    n = len(all_words)
    print(f"{len(regions)} regions, {n} words; ASR {time.process_time() - c0:.1f} CPU-s, "
          f"{time.perf_counter() - t0:.1f} s wall, load {os.getloadavg()[0]:.2f}")
    for phase, s in stats.items():
        rest = s["total"] - sum(s[k] for k in ("encode", "generate", "align", "detect_language"))
        print(f"{phase:7s} {s['total']:6.1f} CPU-s  {int(s['calls'])} clips {s['audio_s']:.0f} s audio  "
              f"{int(s['words'])} words | encode {s['encode']:.1f} ({int(s['encode_n'])}) generate {s['generate']:.1f} "
              f"({int(s['generate_n'])}) align {s['align']:.1f} ({int(s['align_n'])}) other {rest:.1f}")
    for a, b in repaired:
        print(f"  hole {a:7.2f}-{b:7.2f}: {''.join(w.text for w in all_words if a <= (w.start_s + w.end_s) / 2 <= b)!r}")
    if args.windows:
        from collections import Counter

        n_win = Counter(len(w) for _, w in chunk_windows)
        print(f"main-pass windows: {sum(len(w) for _, w in chunk_windows)} for {len(chunk_windows)} chunks "
              f"(windows per chunk: {dict(sorted(n_win.items()))}); joined audio {sum(j for j, _ in chunk_windows):.0f} s, "
              f"longest chunk {max((j for j, _ in chunk_windows), default=0):.1f} s")
        for k, (joined, wins) in enumerate(chunk_windows):
            for i, (seek, size, ws) in enumerate(wins[1:], 1):
                tail = seek + size >= joined - 0.02
                print(f"  chunk {k:3d} ({joined:5.1f} s) window {i} at {seek:5.2f} s, {size:5.2f} s"
                      f"{' (last)' if tail else ''}: {len(ws)} words {''.join(ws)!r}")
    if args.truth:
        print(f"WER {wer(all_words, args.truth)}")


if __name__ == "__main__":
    main()
