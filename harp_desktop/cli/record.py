"""`harp record OUT.flac`: record an input device, show the transcript as it grows, index on stop.

The terminal shell over Library.record (harp_desktop.record); Ctrl-C stops the recording
cleanly (the file is finalised and indexed), a second Ctrl-C during indexing cancels it
(finished stages are kept, `harp index OUT.flac` resumes).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time

from harp_desktop import weights
from harp_desktop.cli.common import EXIT_ERROR, ProgressBar, add_library_option, fmt_time, open_library


def _list_devices() -> int:
    from harp_desktop.api import input_devices

    for d in input_devices():
        print(f"{d.index:3d}{' *' if d.is_default else '  '} {d.name} ({d.channels} in, {d.default_samplerate:.0f} Hz)")
    return 0


def _index(lib, path, options, stop: threading.Event) -> int:
    from harp_desktop.api import Cancelled

    bar = ProgressBar(path.name)
    try:
        res = lib.index(path, options, bar, stop.is_set)
    except Cancelled:
        bar.close()
        print(f"harp: indexing cancelled; the recording is kept: `harp index {path}` resumes", file=sys.stderr)
        return 130
    bar.close()
    print(f"{res.path}: indexed; sha256 {res.sha256[:12]}, {fmt_time(res.duration_s)}")
    for note in res.notes:
        print(f"  note: {note}")
    return 0


def run(args: argparse.Namespace) -> int:
    from harp_desktop.api import IndexOptions
    from harp_desktop.record.devices import DeviceError

    if args.list_devices:
        return _list_devices()
    if not args.out:
        print("harp record: error: give the file to record to (OUT.flac), or --list-devices", file=sys.stderr)
        return EXIT_ERROR
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *a: stop.set())  # Ctrl-C: stop recording, keep and index the file
    options = IndexOptions(asr_profile=args.asr)
    index = not args.no_index
    with open_library(args) as lib:
        for path in lib.recover_recordings():  # a crash or kill -9 interrupted these: keep them
            print(f"recovered an interrupted recording: {path}")
            if index and _index(lib, path, options, stop) != 0:
                return 130

        def show(words) -> None:
            print(f"[{fmt_time(words[0].start_s)}]{''.join(w.text for w in words)}", flush=True)

        try:
            session = lib.record(args.out, args.device, options, live=index and not args.no_live, on_words=show,
                                 ahead=index)
            session.start()
        except (DeviceError, FileExistsError) as exc:
            print(f"harp: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
        rec = session.recorder
        print(f"recording from '{rec.device.name}' at {rec.samplerate} Hz to {session.target}; Ctrl-C stops",
              file=sys.stderr)
        t0 = time.monotonic()
        while not stop.wait(0.25):
            if args.duration and rec.elapsed_s >= args.duration:
                break
            if sys.stderr.isatty():
                sys.stderr.write(f"\r{fmt_time(rec.elapsed_s)}  level {rec.level_db:6.1f} dBFS  "
                                 f"overflows {rec.overflows}   ")
                sys.stderr.flush()
            if args.duration and time.monotonic() - t0 > args.duration + 30:
                print("\nharp: error: the input device delivers no audio", file=sys.stderr)
                break
        stop.clear()
        path = session.stop()
        if sys.stderr.isatty():
            sys.stderr.write("\n")
        if path is None:
            print("harp: nothing was recorded (the device delivered no samples)", file=sys.stderr)
            return EXIT_ERROR
        print(f"{path}: recorded {fmt_time(rec.elapsed_s)}; input overflows: {rec.overflows}")
        if rec.overflows:
            print(f"  warning: {rec.overflows} input overflow(s): the device dropped audio the computer "
                  "did not read in time", file=sys.stderr)
        return _index(lib, path, options, stop) if index else 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("record", help="record an input device to FLAC, transcribe live, index on stop")
    p.add_argument("out", nargs="?", metavar="OUT.flac", help="the file to record to (must not exist)")
    p.add_argument("--device", help="input device: index or name (see --list-devices; default: the system's)")
    p.add_argument("--duration", type=float, help="stop after this many seconds of audio (default: Ctrl-C)")
    add_library_option(p)
    p.add_argument("--no-index", action="store_true", help="only record: no live transcript, no indexing")
    p.add_argument("--no-live", action="store_true", help="index on stop but show no transcript while recording")
    p.add_argument("--asr", default="base", choices=list(weights.ASR_PROFILES), help="ASR profile")
    p.add_argument("--list-devices", action="store_true", help="list input devices and exit")
    p.set_defaults(func=run)


add_parser = add_parsers  # the name the recording brief used
