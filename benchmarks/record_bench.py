"""Recording (issue 20): live transcript delay, input overflows, Stop -> fully indexed.

    .venv/bin/python benchmarks/record_bench.py [--live-s 128] [--long-min 10] [--asr base] [--skip-long]

1. Live: resources/samples/consultation.flac (its first ``--live-s`` seconds) is played by
   ``paplay`` into a PulseAudio null sink whose monitor is the input (tests/record/vmic.py),
   recorded through sounddevice while speech is detected and transcribed as it arrives
   (the default ASR profile, 2 threads). For each sentence of the sample's ground truth,
   the delay is from the moment its last word had been spoken (playback start + its end
   time) to the moment the live transcriber handed over a chunk holding it. Input
   overflows are PortAudio's count over the whole recording.
2. Stop -> indexed: a ``--long-min`` minute recording (the sample repeated) is played into the
   virtual microphone in real time and recorded by a session as the window records (live view
   and the index work done ahead, record/ahead.py); the time is from Stop (finalise to FLAC)
   to the last stage committed by ``session.index()``. ``--cold``: the same file written as a
   partial and indexed after Stop with nothing done ahead (the time before issue 20's item 3).
Targets: median delay <= 10 s, 0 overflows, Stop -> indexed (10 min) <= 20 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile as sf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harp_desktop.api import IndexOptions, Library  # noqa: E402
from harp_desktop.record import partial  # noqa: E402
from tests.record.vmic import best_match, virtual_microphone  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "resources" / "samples" / "consultation.flac"
TRUTH = SAMPLE.with_name("consultation.truth.json")


def live(tmp: Path, seconds: float, options: IndexOptions) -> dict:
    audio, sr = sf.read(SAMPLE, dtype="float32")
    clip = tmp / "clip.wav"
    sf.write(clip, audio[: int(seconds * sr)], sr, subtype="PCM_16")
    items = [i for i in json.loads(TRUTH.read_text())["items"] if i["kind"] == "speech" and i["end_s"] <= seconds]
    with virtual_microphone() as mic, Library(tmp / "lib") as lib:
        session = lib.record(tmp / "live.flac", options=options, live=True)
        session.start()
        time.sleep(0.5)
        t_play = time.monotonic()
        mic.play(clip).wait()
        time.sleep(2.0)
        stop_at = time.monotonic()
        path = session.stop()
        live_close_s = time.monotonic() - stop_at
        rec = session.recorder
        chunks = session.live.stats.chunks
    # Where the clip starts in the recording (the sink's latency): recording time = clip time + offset.
    got, _ = sf.read(path, dtype="float32")
    k, score = best_match(got[: 20 * sr], audio[sr : 6 * sr])
    offset = k / sr - 1.0
    delays = []
    for it in items:
        end_rec = it["end_s"] + offset
        spoken = t_play + it["end_s"]  # wall time its last word had been played
        ready = next((c.ready for c in chunks if c.words and c.end_s >= end_rec - 0.5), None)
        if ready is not None:
            delays.append(ready - spoken)
    words = sum(len(c.words) for c in chunks)
    return {"sentences": len(items), "timed": len(delays), "median_delay_s": statistics.median(delays),
            "p90_delay_s": float(np.percentile(delays, 90)), "max_delay_s": max(delays),
            "overflows": rec.overflows, "recorded_s": rec.elapsed_s, "live_words": words,
            "chunks": len(chunks), "match": round(score, 3), "stop_live_s": live_close_s}


def stop_to_indexed(tmp: Path, minutes: float, options: IndexOptions, cold: bool = False) -> dict:
    audio, sr = sf.read(SAMPLE, dtype="int16")
    n = int(minutes * 60 * sr)
    long = np.tile(audio, n // len(audio) + 1)[:n]
    out: dict = {"minutes": minutes, "cold": cold}
    if cold:
        with Library(tmp / "long-lib") as lib:
            # What the recorder leaves on disk at Stop: the partial's raw PCM and its sidecar.
            p, fd = partial.create(lib.folder, tmp / "long.flac", sr, 1, "bench")
            os.write(fd, long.astype("<i2").tobytes())
            os.close(fd)
            t0 = time.monotonic()
            path = partial.finalise(p)
            t_final = time.monotonic() - t0
            res = lib.index(path, options)
            total = time.monotonic() - t0
    else:
        wav = tmp / "long.wav"
        sf.write(wav, long, sr, subtype="PCM_16")
        with virtual_microphone() as mic, Library(tmp / "long-lib") as lib:
            session = lib.record(tmp / "long.flac", options=options, live=True)
            session.start()
            time.sleep(0.5)
            mic.play(wav).wait()
            time.sleep(1.0)
            t0 = time.monotonic()
            session.stop()
            t_final = time.monotonic() - t0
            res = session.index()
            total = time.monotonic() - t0
            info = json.loads(lib.db.db.execute(
                "SELECT info FROM stages WHERE recording_id = ? AND stage = 'asr'", [res.recording_id]).fetchone()[0])
            cache = lib.models.ahead()
            out.update(recorded_s=session.recorder.elapsed_s, overflows=session.recorder.overflows,
                       chunks=info["chunks"], chunks_ahead=info["chunks_computed_ahead"], hits=cache.hits,
                       misses=cache.misses, ahead_busy_s=session.ahead.busy_s, ahead_error=repr(session.ahead.error),
                       live_words=len(session.words))
    out.update(finalise_s=t_final, index_s=total - t_final, stop_to_indexed_s=total, stages_s=res.seconds)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--live-s", type=float, default=128.0)
    ap.add_argument("--long-min", type=float, default=10.0)
    ap.add_argument("--asr", default="base")
    ap.add_argument("--skip-long", action="store_true")
    ap.add_argument("--skip-live", action="store_true")
    ap.add_argument("--cold", action="store_true", help="Stop -> indexed with nothing done while recording")
    ap.add_argument("--chunk-s", type=float, help="IndexOptions.asr_chunk_s (default: the options' own)")
    args = ap.parse_args()
    options = IndexOptions(asr_profile=args.asr, cpu_threads=2)
    if args.chunk_s:
        options.asr_chunk_s = args.chunk_s
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="harp-record-bench-") as d:
        tmp = Path(d)
        os.environ.setdefault("HARP_DATA", str(tmp / "data"))
        lv = None if args.skip_live else live(tmp, args.live_s, options)
        lg = None if args.skip_long else stop_to_indexed(tmp, args.long_min, options, args.cold)
    load1 = os.getloadavg()
    print(f"record_bench (ASR {args.asr}, chunks of <= {options.asr_chunk_s:g} s joined audio, 2 threads; load average {load0[0]:.1f} at start, {load1[0]:.1f} at end, "
          f"{os.cpu_count()} cores)")
    print(f"{'measure':44} {'value':>10} {'target':>10}")
    rows = [] if lv is None else [("live: median sentence -> text delay (s)", f"{lv['median_delay_s']:.1f}", "<= 10"),
            ("live: p90 / max delay (s)", f"{lv['p90_delay_s']:.1f} / {lv['max_delay_s']:.1f}", ""),
            ("live: sentences timed / in the clip", f"{lv['timed']} / {lv['sentences']}", ""),
            ("live: words shown while recording", f"{lv['live_words']}", ""),
            ("input overflows", f"{lv['overflows']}", "0"),
            (f"recorded (s), clip match {lv['match']}", f"{lv['recorded_s']:.1f}", ""),
            ("Stop: last live chunk done (s)", f"{lv['stop_live_s']:.1f}", "")]
    if lg and not lg["cold"]:
        rows += [("long: recorded (s) / input overflows", f"{lg['recorded_s']:.1f} / {lg['overflows']}", ""),
                 ("long: ASR chunks computed while recording", f"{lg['chunks_ahead']} / {lg['chunks']}", ""),
                 ("long: ahead cache hits / misses", f"{lg['hits']} / {lg['misses']}", ""),
                 ("long: ahead worker busy (s)", f"{lg['ahead_busy_s']:.1f}", "")]
        if lg["ahead_error"] != "None":
            print("ahead worker error:", lg["ahead_error"])
    if lg:
        rows += [(f"Stop -> indexed, {lg['minutes']:.0f}-min recording{' (cold)' if lg['cold'] else ''} (s)",
                  f"{lg['stop_to_indexed_s']:.1f}", "<= 20"),
                 ("  of which finalise to FLAC (+ live's last chunk) (s)", f"{lg['finalise_s']:.1f}", ""),
                 ("  of which Indexer (s)", f"{lg['index_s']:.1f}", "")]
        rows += [(f"    {k}", f"{v:.1f}", "") for k, v in lg["stages_s"].items()]
    for name, value, target in rows:
        print(f"{name:44} {value:>10} {target:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
