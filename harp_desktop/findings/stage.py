"""The "findings" index stage: roles, sections, findings and whose sounds, after segments.

It reads only turns, words, event tags (all upstream of ``segments``, so its fingerprint
chains through them) and the decoded audio for the phone-band check; it re-runs when
those change, when this layer's rules change (``VERSION``), or when the extractor or its
vocabulary file changes. Roles set by hand and annotators' finding edits are not its output
and survive it.
"""

from __future__ import annotations

import hashlib
import importlib
import time
from pathlib import Path

from harp_desktop.findings import service

VERSION = "roles2-sections5-attrib1"
# The modules whose rules decide the stage's output (the extractor's own are in its VERSION):
# their source is hashed into the fingerprint, so a change to any of them re-runs the stage
# without anyone remembering to bump VERSION.
RULE_MODULES = ("sections", "companions", "band", "questions", "roles", "attribution", "service")


def _rules_key() -> str:
    from harp_desktop.findings.digest import modules_digest

    return modules_digest(RULE_MODULES)


def _extractor_key() -> str:
    """The extractor's VERSION and its vocabulary file's hash ("none" until extract.py exists)."""
    try:
        extract = importlib.import_module("harp_desktop.findings.extract")
    except ModuleNotFoundError as exc:
        if exc.name != "harp_desktop.findings.extract":
            raise
        return "extract:none"
    from harp_desktop.paths import REPO_ROOT

    vocab = Path(getattr(extract, "VOCABULARY_PATH", REPO_ROOT / "resources" / "clinical_concepts.json"))
    digest = hashlib.sha256(vocab.read_bytes()).hexdigest()[:12] if vocab.is_file() else "no-vocabulary"
    # Without a VERSION the extractor's own source stands in for it (its rules live there).
    version = getattr(extract, "VERSION", None) or "unversioned"
    return f"extract:{version}:{digest}"


def own_key(options) -> str:
    return f"{VERSION}:{_rules_key()}:{_extractor_key()}"


def run_findings(ctx) -> dict:
    t0 = time.perf_counter()
    analysis = service.analyse(ctx.db, ctx.rid, ctx.audio)
    ctx.check()
    info = analysis.info()
    if not analysis.extractor:
        ctx.notes.append("no findings extractor installed yet: roles, sections and sound attribution only")
    ctx.finish("findings", time.perf_counter() - t0, info, lambda: service.write_analysis(ctx.db, ctx.rid, analysis))
    return info
