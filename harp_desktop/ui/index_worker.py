"""Indexing in a child process: ``python -m harp_desktop.ui.index_worker`` (no Qt here).

The GUI's IndexTask starts this and reads one JSON object per line on its stdout:
``{"progress": {...}}``, then ``{"done": {...}}``, ``{"cancelled": true}`` or
``{"error": "..."}``. Writing ``stop`` (or closing stdin, e.g. because the GUI died)
cancels at the pipeline's next checkpoint; finished stages stay committed, so the next
run resumes.

Why a process rather than a thread: parts of the pipeline run native code that holds
the GIL for 100 ms and more (scipy's linkage, onnxruntime / ctranslate2 setup), which
stalled the GUI's event loop when indexing ran in a thread of the GUI process. A child
process also keeps a native crash or the indexing's peak memory out of the window,
and runs at a lower CPU priority (nice 10) so the window stays responsive on few cores.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import threading
from pathlib import Path


def _protocol_stream():
    """Keep the real stdout for JSON lines; anything else printed to fd 1 goes to stderr."""
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def _watch_stdin(stop: threading.Event) -> None:
    for line in sys.stdin:
        if line.strip() == "stop":
            break
    stop.set()  # "stop", or EOF: the GUI closed the pipe or died


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    key_on_stdin = args[3:] == ["--key-on-stdin"]
    if len(args) != 3 and not key_on_stdin:
        print("usage: python -m harp_desktop.ui.index_worker LIBRARY PATH OPTIONS_JSON [--key-on-stdin]",
              file=sys.stderr)
        return 2
    folder, path, options_json = args[:3]
    if key_on_stdin:  # an encrypted library: the GUI writes its unlocked key as the first line
        from harp_desktop.store import crypto

        key = crypto.LibraryKey.from_export(sys.stdin.readline())
        if not crypto.verify(Path(folder), key):
            print(f"index_worker: the key given for {folder} does not open it", file=sys.stderr)
            return 2
        crypto.remember(Path(folder), key)
    out = _protocol_stream()
    if hasattr(os, "nice"):
        os.nice(10)  # background work: the window (and playback) get the CPU first

    def send(**msg) -> None:
        out.write(json.dumps(msg) + "\n")

    stop = threading.Event()
    threading.Thread(target=_watch_stdin, args=(stop,), daemon=True).start()

    from harp_desktop.api import Cancelled, IndexOptions, Library
    from harp_desktop.ui import envelope
    from harp_desktop.ui.recording_data import audio_cache_path

    try:
        options = IndexOptions(**json.loads(options_json))
        with Library(folder) as lib:
            result = lib.index(path, options, lambda p: send(progress=dataclasses.asdict(p)), stop.is_set)
        send(progress={"stage": "waveform", "stage_fraction": 0.0, "fraction": 1.0, "eta_s": 0.0, "message": ""})
        envelope.load_or_build(audio_cache_path(Path(folder), result.sha256), should_stop=stop.is_set)
    except (Cancelled, InterruptedError):
        send(cancelled=True)
        return 130
    except Exception as exc:  # the message goes to the GUI in one line; the trace to stderr
        import traceback

        traceback.print_exc()
        from harp_desktop.errors import user_message

        send(error=user_message(exc))  # the CLI's wording for a full disk, a read-only library...
        return 1
    send(done=dataclasses.asdict(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
