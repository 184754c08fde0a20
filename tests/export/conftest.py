"""Export fixtures: a copy of the shared indexed library with answers, a synthetic 3-hour
library (segment rows written directly), and PDF text extraction with pypdf."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from harp_desktop.api import Library
from tests.conftest import copy_library

QUESTIONS = ["Is anyone coughing?", "Does the patient have chest pain?"]


def pdf_pages(path: Path) -> list[str]:
    """Each page's text, whitespace collapsed (extraction breaks lines where the layout wraps)."""
    return [" ".join((p.extract_text() or "").split()) for p in PdfReader(str(path)).pages]


def flat(text: str) -> str:
    return " ".join(text.split())




@pytest.fixture(scope="module")
def answered(tmp_path_factory, indexed):
    """A private copy of the indexed ~30 s clip's library with two answers asked without an LLM."""
    lib0, res = indexed
    lib = copy_library(lib0.folder, tmp_path_factory.mktemp("answered") / "library")
    answers = [lib.ask(res.sha256, q).to_json() for q in QUESTIONS]
    yield lib, lib.recording(res.sha256), answers
    lib.close()


def synthetic_recording(lib: Library, hours: float, names: list[str | None], turn_s: float = 4.0,
                        sha: str = "5e" * 32) -> dict:
    """A recording of ``hours`` with one turn every ``turn_s`` seconds, speakers alternating."""
    duration = hours * 3600
    n = int(duration // turn_s)
    with lib.db.transaction() as db:
        rid = lib.db.add_recording(sha, Path(f"/recordings/ward-round-{hours:g}h.flac"),
                                   {"duration_s": duration, "format": "FLAC", "sample_rate": 16000, "channels": 1})
        ids = [db["speakers"].insert({"recording_id": rid, "idx": i, "label": f"SPEAKER_{i + 1}", "name": name,
                                      "total_s": duration / len(names)}).last_pk for i, name in enumerate(names)]
        db["segments"].insert_all(
            {"recording_id": rid, "idx": i, "start_s": i * turn_s, "end_s": i * turn_s + turn_s - 0.5,
             "speaker_id": ids[i % len(ids)], "text": f"Turn number {i} of the round, about item {i % 97}."}
            for i in range(n))
    return lib.recording(sha)
