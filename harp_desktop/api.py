"""The headless API shared by the CLI and the GUI: open a library, index, show."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from harp_desktop.audio.decode import AudioError, AudioInfo
from harp_desktop.evaluate.annotations_api import AnnotationsAPI
from harp_desktop.evaluate.span_import import SpanImportAPI
from harp_desktop.index.context import Cancelled, IndexOptions, ModelCache, Progress
from harp_desktop.index.pipeline import Indexer, IndexResult, check_source
from harp_desktop.paths import default_library_dir
from harp_desktop.store.db import LibraryDB
from harp_desktop.store.vectors import VectorStore

__all__ = ["Library", "input_devices", "AudioError", "Cancelled", "IndexOptions", "Progress", "IndexResult"]


def input_devices() -> list:
    """Input devices PortAudio offers (record.devices.InputDevice), the default one flagged."""
    from harp_desktop.record.devices import input_devices as found

    return found()


def _segment_emotions(stored: tuple | None, rows: dict[int, dict] | None = None) -> dict[int, dict]:
    """segment id -> {"label", "score", "arousal", "valence"}: the emotion stage's per-segment row
    (``rows``, LibraryDB.segment_emotions), else the same computed from its stored probabilities (a
    library indexed before issue 18: top label, and the probabilities' place on the circumplex).

    Segments the stage did not classify (shorter than 0.8 s) are absent, so they show null."""
    if rows:
        return rows
    if stored is None:
        return {}
    probs, meta = stored
    from harp_desktop.index.emotion_dims import places, segment_rows

    ids = [int(i) for i in meta.get("segment_ids", [])][: len(probs)]
    probs = np.asarray(probs[: len(ids)], np.float64)
    rows = segment_rows(0, ids, list(probs), places(probs, meta["labels"], ["arousal", "valence"]), meta["labels"],
                        ["arousal", "valence"]) if ids else []
    return {r["segment_id"]: {k: r[k] for k in ("label", "score", "arousal", "valence")} for r in rows}


class Library(AnnotationsAPI, SpanImportAPI):
    """A library folder: the SQLite database, vector indexes and decoded audio."""

    def __init__(self, folder: Path | str | None = None, passphrase: str | None = None, *,
                 encrypt: bool = False) -> None:
        """Open (or create) a library. An encrypted one needs ``passphrase`` unless this process
        unlocked it already or $HARP_PASSPHRASE is set; ``encrypt=True`` creates a new library
        encrypted (see store/crypto.py: a lost passphrase means lost data)."""
        self.folder = Path(folder).expanduser() if folder else default_library_dir()
        self.db = LibraryDB(self.folder, passphrase, encrypt)
        self.vectors = VectorStore(self.folder)
        self.models = ModelCache()
        self._arrays: OrderedDict[tuple[int, str], tuple] = OrderedDict()

    @property
    def encrypted(self) -> bool:
        return self.db.encrypted

    def _plain_only(self, what: str) -> None:
        # Bundles and Ray workers copy files and databases outside this process's keyring.
        if self.db.encrypted:
            raise RuntimeError(f"{what} is not available for an encrypted library yet")

    def array(self, recording_id: int, name: str):
        """A stage's stored array (e.g. per-frame embeddings), cached: tools read them per question."""
        key = (recording_id, name)
        if key not in self._arrays:
            got = self.db.get_array(recording_id, name)
            if got is None:
                return None
            self._arrays[key] = got
            while len(self._arrays) > 12:
                self._arrays.popitem(last=False)
        self._arrays.move_to_end(key)
        return self._arrays[key]

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def index(
        self,
        path: Path | str,
        options: IndexOptions | None = None,
        progress: Callable[[Progress], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> IndexResult:
        indexer = Indexer(self.db, self.vectors, options, progress, should_stop, self.models)
        try:
            return indexer.index(Path(path))
        except InterruptedError:
            raise Cancelled() from None

    def check_source(self, path: Path | str) -> AudioInfo:
        """The checks ``index`` makes before any work, alone: raises AudioError in one line."""
        return check_source(self.folder, path)

    # -- recording (harp_desktop.record): a live consultation becomes a file, then an indexed recording
    def record(self, target: Path | str | None = None, device: int | str | None = None,
               options: IndexOptions | None = None, *, live: bool = True, on_words=None, ahead: bool | None = None):
        """A RecordingSession (not started): ``start()``, ``pause()``, ``resume()``, ``stop()`` -> the
        FLAC, then ``index()``. ``live``: transcribe while recording, ``on_words(words)`` per chunk;
        ``ahead`` (default: ``live``): do the index work later audio cannot change while recording."""
        from harp_desktop.record.session import RecordingSession

        return RecordingSession(self, target, device, options, live=live, on_words=on_words, ahead=ahead)

    def partial_recordings(self) -> list:
        """Recordings a crash or kill -9 interrupted (no process writes them): record.partial.Partial."""
        from harp_desktop.record.partial import find_partials

        return find_partials(self.folder)

    def recover_recordings(self) -> list[Path]:
        """Finalise every interrupted recording to FLAC; the files, to be offered for indexing."""
        from harp_desktop.record.partial import recover

        return recover(self.folder)

    # -- corpus scale (harp_desktop.cluster, store.bundle): Ray workers compute, this library is the one writer
    def index_on_ray(self, paths: list[Path | str], options: IndexOptions | None = None, **kw) -> list[dict]:
        """Index many recordings on Ray workers (see cluster.ray_index.index_on_ray for the options)."""
        self._plain_only("indexing on Ray workers")
        from harp_desktop.cluster.ray_index import index_on_ray

        return index_on_ray(self.db, self.vectors, list(paths), options or IndexOptions(), models=self.models, **kw)

    def export_bundle(self, path: Path | str, audio: bool = False) -> dict:
        """The whole library as one portable .harplib file; returns its manifest."""
        self._plain_only("exporting a .harplib bundle")
        from harp_desktop.store.bundle import export_bundle

        return export_bundle(self.db, Path(path), audio)

    def import_bundle(self, path: Path | str) -> list[dict]:
        """Add a .harplib bundle's recordings to this library (checksums verified first)."""
        self._plain_only("importing a .harplib bundle")
        from harp_desktop.store.bundle import import_bundle

        self._arrays.clear()  # replaced recordings get new array rows
        return import_bundle(Path(path), self.db)

    def evaluate_on_ray(self, cases: list, options=None, llm_choice: str | None = None, **kw):
        """evaluate() with the questions answered on Ray workers (see cluster.ray_eval)."""
        self._plain_only("evaluating on Ray workers")
        from harp_desktop.cluster.ray_eval import evaluate_on_ray

        return evaluate_on_ray(self, cases, options, llm_choice, **kw)

    def recording(self, ref: str | Path) -> dict:
        """Find a recording by path (as given or resolved) or by sha256 prefix."""
        ref = str(ref)
        rec = self.db.find_recording(ref)
        if rec is None:
            try:
                rec = self.db.find_recording(str(Path(ref).resolve(strict=True)))
            except (OSError, RuntimeError):  # missing, a name too long, a symlink loop: not in the library
                pass
        if rec is None:
            raise LookupError(f"no recording '{ref}' in library {self.folder}; index it first with `harp index`")
        return rec

    def transcript(self, ref: str | Path) -> dict:
        """The recording's transcript, speakers and events as one plain dict."""
        rec = self.recording(ref)
        rid = rec["id"]
        speakers = [{"id": s["label"], "name": s["name"] or s["label"], "total_s": s["total_s"]}
                    for s in self.db.speakers(rid)]
        emotion = _segment_emotions(self.db.get_array(rid, "emotion_probs"), self.db.segment_emotions(rid))
        segments = [
            {"start_s": s["start_s"], "end_s": s["end_s"], "speaker": s["speaker_label"], "text": s["text"],
             "id": s["id"], "emotion": emotion.get(s["id"])}
            for s in self.db.segments(rid)
        ]
        events = [{"start_s": t["start_s"], "end_s": t["end_s"], "label": t["label"], "score": t["score"]}
                  for t in self.db.tags(rid, "event")]
        stages = {s["stage"]: {"seconds": s["seconds"], **json.loads(s["info"] or "{}")} for s in self.db.stages(rid)}
        return {
            "recording": {"path": rec["path"], "sha256": rec["sha256"], "duration_s": rec["duration_s"],
                          "name": rec["name"], "note": rec["note"]},
            "speakers": speakers,
            "segments": segments,
            "events": events,
            "stages": stages,
        }

    def nearest(
        self, ref: str | Path, space: str, vector, k: int = 10, start_s: float = 0.0, end_s: float = float("inf")
    ) -> list[tuple[dict, float]]:
        """Segments of one recording, inside [start_s, end_s), nearest to ``vector`` in ``space``."""
        rec = self.recording(ref)
        segs = {s["id"]: s for s in self.db.segments(rec["id"], start_s, end_s)}
        hits = self.vectors.search(rec["sha256"], space, vector, k, allowed_ids=set(segs))
        return [(segs[i], score) for i, score in hits]

    def ask(self, ref: str | Path, question: str, cue: str | Path | None = None, *, llm=None,
            retrieval: str = "hybrid", evidence: str = "metadata", fusion: str = "rrf", two_pass: bool = True,
            given_spans: list[tuple[float, float]] | None = None, audio=None, on_draft=None,
            speaker_cue: str | Path | None = None, emotion_cue: str | Path | None = None):
        """Answer a question about an indexed recording (see harp_desktop.agent.ask);
        ``given_spans`` replaces retrieval with those moments (the oracle); ``audio``: the
        AudioModelConfig for evidence audio|multimodal (None: $HARP_AUDIO_MODEL/_PROJECTOR);
        ``on_draft(answer_json)``: called with the evidence and an extractive draft before the
        language model writes the answer (not called when code or no model answers);
        ``speaker_cue`` / ``emotion_cue``: two-clip questions ("this is X: [clip]; when did X sound
        like [clip]?")."""
        from harp_desktop.agent.ask import Asker

        asker = Asker(self, llm, retrieval, evidence, fusion, two_pass, audio)
        asker.on_draft = on_draft
        return asker.ask(ref, question, cue, given_spans, speaker_cue=speaker_cue, emotion_cue=emotion_cue)

    def delete_recording(self, ref: str | Path):
        """Remove a recording and everything derived from it (rows, vectors, audio cache, arrays, answers)."""
        from harp_desktop.store.delete import delete_recording

        rec = self.recording(ref)
        for key in [k for k in self._arrays if k[0] == rec["id"]]:
            del self._arrays[key]
        return delete_recording(self.db, rec)

    def rename_speaker(self, ref: str | Path, speaker: str, name: str) -> None:
        self.db.rename_speaker(self.recording(ref)["id"], speaker, name)

    # -- findings (harp_desktop.findings.service): roles, sections, clinical findings, whose sounds ----
    def _analysed(self, ref: str | Path) -> int:
        """The recording's id; LookupError when the findings stage has not run for it yet."""
        rec = self.recording(ref)
        if self.db.stage_fingerprint(rec["id"], "findings") is None:
            raise LookupError(f"{rec['name']} has no findings yet: index it again (`harp index {rec['path']}`); "
                              "only the findings stage runs")
        return rec["id"]

    def findings(self, ref: str | Path) -> list:
        """Findings with annotators' edits applied; rejected ones kept, with ``rejected`` set."""
        from harp_desktop.findings import service

        return service.findings(self.db, self._analysed(ref))

    def roles(self, ref: str | Path) -> dict[str, str]:
        """Speaker label -> patient | clinician | other (a role set by hand wins)."""
        from harp_desktop.findings import service

        return service.roles(self.db, self._analysed(ref))

    def sections(self, ref: str | Path) -> list:
        """Consultation / phone_call / unrelated stretches, in time order."""
        from harp_desktop.findings import store

        return store.sections(self.db, self._analysed(ref))

    def event_speakers(self, ref: str | Path) -> list[dict]:
        """Every sound event: tag_id, label, start_s, end_s, speaker (label or None), role, method."""
        from harp_desktop.findings import service

        return service.event_speakers(self.db, self._analysed(ref))

    def set_role(self, ref: str | Path, speaker: str, role: str, annotator: str | None = None) -> dict[str, str]:
        """Set a speaker's role by hand; it survives re-indexing. Returns the roles now."""
        from harp_desktop.findings import service

        return service.set_role(self.db, self.recording(ref)["id"], speaker, role, annotator)

    def edit_finding(self, ref: str | Path, finding_id: int, annotator: str | None = None, **changes):
        """Correct a finding's fields; returns the corrected Finding (an annotator's, with its own id)."""
        from harp_desktop.findings import service

        return service.edit_finding(self.db, self._analysed(ref), finding_id, annotator, **changes)

    def reject_finding(self, ref: str | Path, finding_id: int, annotator: str | None = None):
        from harp_desktop.findings import service

        return service.reject_finding(self.db, self._analysed(ref), finding_id, annotator)

    def add_finding(self, ref: str | Path, finding, annotator: str | None = None):
        from harp_desktop.findings import service

        return service.add_finding(self.db, self._analysed(ref), finding, annotator)

    # -- exports (harp_desktop.export): every file written is recorded in the audit trail --------
    def export(self, ref: str | Path, path: str | Path, fmt: str | None = None) -> dict:
        """Transcript as txt/srt/vtt/pdf, or the whole index as json; returns the audit row."""
        from harp_desktop.export.exporter import export_transcript

        return export_transcript(self, ref, path, fmt)

    def report(self, ref: str | Path, path: str | Path, **kw) -> dict:
        """A PDF / Markdown rationale report (see export.exporter.export_report for the options)."""
        from harp_desktop.export.exporter import export_report

        return export_report(self, ref, path, **kw)

    def exports(self, ref: str | Path | None = None, check_files: bool = True) -> list[dict]:
        """The export audit trail, newest first, with each file's status (ok / changed / missing)."""
        from harp_desktop.export.exporter import list_exports

        return list_exports(self, ref, check_files)
