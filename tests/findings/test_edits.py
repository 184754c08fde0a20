"""Taking a correction back: a rejection restored, an edit or an addition reverted, and redone
with the same ids (the Findings panel's undo stack relies on both). Real SQLite library."""

from __future__ import annotations

import pytest

from harp_desktop.api import Library
from harp_desktop.findings import service
from harp_desktop.findings.model import Finding
from tests.findings.helpers import CONSULTATION, fake_extract, make_recording, run_stage, write_turns

REF = "ab" * 32


@pytest.fixture
def lib(library_dir, monkeypatch):
    monkeypatch.setattr(service, "load_extractor", lambda: fake_extract)
    with Library(library_dir) as lib:
        rid = make_recording(lib.db, CONSULTATION)
        run_stage(lib.db, rid)
        lib.rid = rid
        yield lib


def shown(lib) -> list[tuple]:
    return [(f.id, f.concept, f.status, f.value, f.source, f.rejected) for f in lib.findings(REF)]


def test_a_rejection_of_an_automatic_finding_is_restored_and_redone(lib):
    before = shown(lib)
    fid = lib.findings(REF)[0].id
    lib.reject_finding(REF, fid, annotator="ann")
    back, row = service.restore_finding(lib.db, lib.rid, fid)
    assert not back.rejected and back.id == fid and shown(lib) == before
    assert row["action"] == "reject" and lib.db.db.execute("SELECT count(*) FROM finding_edits").fetchone()[0] == 0
    again = service.reinstate_edit(lib.db, lib.rid, row)
    assert again.id == fid and again.rejected
    assert lib.db.db.execute("SELECT id FROM finding_edits").fetchone()[0] == row["id"]  # the same row


def test_only_the_chosen_one_of_two_rejected_findings_is_restored(lib):
    coughs = [f.id for f in lib.findings(REF) if f.concept == "cough"]
    assert len(coughs) >= 2
    for fid in coughs[:2]:
        lib.reject_finding(REF, fid)
    service.restore_finding(lib.db, lib.rid, coughs[1])
    state = {f.id: f.rejected for f in lib.findings(REF)}
    assert state[coughs[0]] and not state[coughs[1]]


def test_an_annotators_finding_rejected_then_restored_keeps_its_row(lib):
    edited = lib.edit_finding(REF, lib.findings(REF)[0].id, status="uncertain")
    lib.reject_finding(REF, edited.id)
    back, row = service.restore_finding(lib.db, lib.rid, edited.id)
    assert row is None and not back.rejected and back.status == "uncertain" and back.id == edited.id


def test_an_edit_is_reverted_to_the_automatic_finding_and_redone(lib):
    before = shown(lib)
    fever = next(f for f in lib.findings(REF) if f.concept == "fever")
    edited = lib.edit_finding(REF, fever.id, status="uncertain", value="38.5")
    auto, row = service.revert_edit(lib.db, lib.rid, edited.id)
    assert auto is not None and auto.id == fever.id and auto.status == fever.status
    assert shown(lib) == before
    redone = service.reinstate_edit(lib.db, lib.rid, row)
    assert (redone.id, redone.status, redone.value) == (edited.id, "uncertain", "38.5")
    assert [f.source for f in lib.findings(REF) if f.concept == "fever"] == ["annotator"]


def test_an_added_finding_is_reverted_away(lib):
    added = lib.add_finding(REF, Finding("headache", "neurological", "symptom", "affirmed", "SPEAKER_3", "patient",
                                         27.0, 30.0, "and a headache"))
    auto, row = service.revert_edit(lib.db, lib.rid, added.id)
    assert auto is None and row["action"] == "add"
    assert not any(f.concept == "headache" for f in lib.findings(REF))
    assert service.reinstate_edit(lib.db, lib.rid, row).id == added.id


def test_a_restore_after_a_re_index_finds_the_moved_finding(lib):
    old = next(f for f in lib.findings(REF) if f.concept == "fever")
    lib.reject_finding(REF, old.id)
    write_turns(lib.db, lib.rid, [(a + 0.4, b + 0.4, s, t) for a, b, s, t in CONSULTATION])
    run_stage(lib.db, lib.rid)
    moved = next(f for f in lib.findings(REF) if f.concept == "fever")
    assert moved.rejected and moved.start_s == pytest.approx(old.start_s + 0.4)
    back, _ = service.restore_finding(lib.db, lib.rid, moved.id)
    assert not back.rejected


def test_what_cannot_be_taken_back_is_refused(lib):
    fid = lib.findings(REF)[0].id
    with pytest.raises(ValueError, match="not rejected"):
        service.restore_finding(lib.db, lib.rid, fid)
    with pytest.raises(ValueError, match="index's own"):
        service.revert_edit(lib.db, lib.rid, fid)
    with pytest.raises(LookupError):
        service.revert_edit(lib.db, lib.rid, -12345)
