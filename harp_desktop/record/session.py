"""One recording from start to indexed: recorder + live transcription + index work done ahead + the normal
Indexer (which finds that work by its exact inputs: the rows are the file's, record/ahead.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from harp_desktop import weights
from harp_desktop.index.asr import AsrOptions, Transcriber
from harp_desktop.index.context import IndexOptions, ModelCache
from harp_desktop.index.stages import asr_model_key
from harp_desktop.paths import data_dir
from harp_desktop.record.ahead import IndexAhead
from harp_desktop.record.live import LiveTranscriber
from harp_desktop.record.recorder import Recorder
from harp_desktop.types import Word


def default_target(folder: Path | None = None) -> Path:
    """``<data>/recordings/recording-<date>-<time>.flac``: beside the library, never inside it
    (the indexer refuses files of the library folder itself)."""
    folder = Path(folder) if folder else data_dir() / "recordings"
    stem = time.strftime("recording-%Y%m%d-%H%M%S")
    target, n = folder / f"{stem}.flac", 1
    while target.exists():  # two recordings within a second
        n += 1
        target = folder / f"{stem}-{n}.flac"
    return target


def transcriber_factory(options: IndexOptions, models: ModelCache) -> Callable[[], Transcriber]:
    """The asr stage's own model (same ModelCache key), so indexing after Stop loads nothing again."""
    key = asr_model_key(options)
    opts = AsrOptions(beam_size=options.beam_size, language=options.language, hotwords=options.hotwords)

    def make() -> Transcriber:
        return models.get(f"asr:{key}:{options.cpu_threads}",
                          lambda: Transcriber(weights.model_path(key), opts, options.cpu_threads))

    return make


class RecordingSession:
    """Start, pause, resume, stop. ``live=True`` transcribes while recording (``on_words``); ``ahead`` does the
    index stages' work that later audio cannot change while recording (record/ahead.py)."""

    def __init__(self, library, target: Path | str | None = None, device: int | str | None = None,
                 options: IndexOptions | None = None, *, live: bool = True,
                 on_words: Callable[[list[Word]], None] | None = None, models: ModelCache | None = None,
                 ahead: bool | None = None) -> None:
        self.library = library
        self.options = options or IndexOptions()
        self.target = Path(target).expanduser() if target else default_target()
        if self.target.exists():
            raise FileExistsError(f"{self.target}: already exists; choose another name")
        if self.target.suffix.lower() != ".flac":
            raise ValueError(f"{self.target}: recordings are saved as FLAC (.flac)")
        models = models or library.models
        self.live = LiveTranscriber(transcriber_factory(self.options, models), on_words,
                                    self.options.language) if live else None
        # The stages' pieces computed while recording (the view above is for the eyes only); ``ahead`` (default:
        # ``live``) is for a recording that will be indexed.
        ahead = live if ahead is None else ahead
        self.ahead = IndexAhead(self.options, models, transcriber_factory(self.options, models)) if ahead else None
        try:
            self.recorder = Recorder(library.folder, self.target, device,
                                     listeners=[x.feed for x in (self.live, self.ahead) if x is not None])
        except BaseException:  # no such device: the threads end with the session that never started
            for worker in (self.live, self.ahead):
                if worker is not None:
                    worker.abort()
            raise
        self.path: Path | None = None
        self.stopped_at: float | None = None

    def start(self) -> None:
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.recorder.start()

    def pause(self) -> None:
        self.recorder.pause()

    def resume(self) -> None:
        self.recorder.resume()

    def stop(self) -> Path | None:
        """Stop and finalise; the live transcript finishes its last region. The FLAC (None if empty)."""
        self.stopped_at = time.monotonic()
        try:
            self.path = self.recorder.stop()  # every block has reached the listeners now
        except BaseException:
            if self.ahead is not None:
                self.ahead.abort()
            raise
        finally:
            if self.ahead is not None and self.path is not None:
                # First: the last chunk and speaker group are claimed and computed while indexing starts.
                self.ahead.finish()
            if self.live is not None:
                self.live.close()
        if self.ahead is not None and self.path is None:
            self.ahead.abort()
        return self.path

    def abandon(self) -> None:
        """Stop at once, leaving the audio as a partial recording (``Library.recover_recordings``
        saves it): for a program that is closing and must not wait for transcription."""
        try:
            self.recorder.stop(finalise=False)
        finally:
            if self.live is not None:
                self.live.abort()
            if self.ahead is not None:
                self.ahead.abort()

    @property
    def words(self) -> list[Word]:
        return list(self.live.words) if self.live else []

    def index(self, progress=None, should_stop=None):
        """Index the finished file exactly as ``Library.index`` would had it been opened."""
        if self.path is None:
            raise RuntimeError("nothing recorded to index")
        return self.library.index(self.path, self.options, progress, should_stop)
