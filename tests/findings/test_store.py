import pytest

from harp_desktop.api import Library
from harp_desktop.findings import service
from harp_desktop.findings.model import Finding
from harp_desktop.store import db as dbmod
from harp_desktop.store.delete import delete_recording
from harp_desktop.store.transfer import Store, copy_recording
from tests.findings.helpers import CONSULTATION, fake_extract, make_recording, run_stage, write_turns

TAGS = [("cough", 15.3, 15.8), ("cough", 36.5, 37.0)]


@pytest.fixture
def lib(library_dir, monkeypatch):
    monkeypatch.setattr(service, "load_extractor", lambda: fake_extract)  # set_role re-extracts
    with Library(library_dir) as lib:
        yield lib


def shifted(dt: float) -> list[tuple]:
    """The same turns, re-segmented: every edge moved a little (what a re-index does)."""
    return [(a + dt, b + dt, s, t) for a, b, s, t in CONSULTATION]


def test_a_v4_library_migrates_and_keeps_its_rows(library_dir, monkeypatch):
    monkeypatch.setattr(dbmod, "SCHEMA_VERSION", 4)
    old = dbmod.LibraryDB(library_dir)
    rid = make_recording(old, CONSULTATION, TAGS)
    old.db.execute("UPDATE speakers SET name = 'Dr Patel' WHERE label = 'SPEAKER_2'")  # v4 code's own rename
    assert old.schema_version == 4 and "findings" not in old.db.table_names()
    old.close()
    monkeypatch.undo()
    with Library(library_dir) as lib:
        assert lib.db.schema_version == dbmod.SCHEMA_VERSION >= 5
        assert {"sections", "findings", "finding_edits", "event_speakers", "speaker_roles"} <= set(
            lib.db.db.table_names())
        spk = lib.db.speakers(rid)
        assert spk[1]["name"] == "Dr Patel" and spk[1]["role"] is None and len(lib.db.segments(rid)) == 10
        with pytest.raises(LookupError, match="no findings yet"):
            lib.findings("ab" * 32)
        run_stage(lib.db, rid)
        assert lib.roles("ab" * 32) == {"SPEAKER_1": "other", "SPEAKER_2": "clinician", "SPEAKER_3": "patient"}


def test_stage_output_reads_back(lib):
    rid = make_recording(lib.db, CONSULTATION, TAGS)
    run_stage(lib.db, rid)
    ref = "ab" * 32
    assert [s.kind for s in lib.sections(ref)] == ["unrelated", "consultation"]
    found = lib.findings(ref)
    assert found and all(f.source == "auto" and f.id > 0 and not f.rejected for f in found)
    assert {(f.concept, f.status, f.role) for f in found} >= {("cough", "affirmed", "patient"),
                                                             ("cough", "negated", "patient")}
    assert all(f.start_s >= 7.0 for f in found)  # nothing from the receptionist's turn
    events = lib.event_speakers(ref)
    assert [(e["label"], e["speaker"], e["role"]) for e in events] == [("cough", "SPEAKER_3", "patient"),
                                                                       ("cough", "SPEAKER_3", "patient")]
    assert set(events[0]) >= {"tag_id", "label", "start_s", "end_s", "speaker", "role"}


def test_reindex_keeps_rejections_edits_additions_and_hand_set_roles(lib):
    ref = "ab" * 32
    rid = make_recording(lib.db, CONSULTATION, TAGS)
    run_stage(lib.db, rid)
    coughs = [f for f in lib.findings(ref) if f.concept == "cough"]
    fever = next(f for f in lib.findings(ref) if f.concept == "fever")
    rejected = lib.reject_finding(ref, coughs[0].id, annotator="ann")
    assert rejected.rejected and rejected.id == coughs[0].id
    edited = lib.edit_finding(ref, fever.id, annotator="ann", status="uncertain", value="38.2")
    assert edited.source == "annotator" and edited.id < 0 and (edited.status, edited.value) == ("uncertain", "38.2")
    added = lib.add_finding(ref, Finding("headache", "neurological", "symptom", "affirmed", "SPEAKER_3", "patient",
                                         27.0, 30.0, "a headache too"), annotator="ann")
    assert added.id < 0 and added.source == "annotator"
    assert lib.set_role(ref, "SPEAKER_1", "patient")["SPEAKER_1"] == "patient"
    before = lib.findings(ref)
    assert [f.concept for f in before].count("fever") == 1  # the edited one replaces the automatic one

    write_turns(lib.db, rid, shifted(0.3))  # re-index: speakers and segments re-made, new finding ids
    run_stage(lib.db, rid)
    after = lib.findings(ref)
    assert len(after) == len(before)
    assert next(f for f in after if f.concept == "cough" and f.rejected).start_s == pytest.approx(
        coughs[0].start_s + 0.3)
    fevers = [f for f in after if f.concept == "fever"]
    assert [(f.source, f.status, f.value) for f in fevers] == [("annotator", "uncertain", "38.2")]
    assert any(f.concept == "headache" and f.source == "annotator" for f in after)
    assert lib.roles(ref)["SPEAKER_1"] == "patient"
    assert lib.db.speakers(rid)[0]["role_source"] == "manual"

    # An edit whose automatic finding the new index no longer finds is still the annotator's finding.
    write_turns(lib.db, rid, [t for t in CONSULTATION if "fever" not in t[3]])
    run_stage(lib.db, rid)
    assert [(f.source, f.status) for f in lib.findings(ref) if f.concept == "fever"] == [("annotator", "uncertain")]


def test_corrections_are_checked(lib):
    ref = "ab" * 32
    rid = make_recording(lib.db, CONSULTATION, TAGS)
    run_stage(lib.db, rid)
    fid = lib.findings(ref)[0].id
    with pytest.raises(ValueError, match="unknown status"):
        lib.edit_finding(ref, fid, status="maybe")
    with pytest.raises(ValueError, match="unknown finding field"):
        lib.edit_finding(ref, fid, colour="red")
    with pytest.raises(LookupError):
        lib.reject_finding(ref, 999999)
    with pytest.raises(ValueError, match="unknown role"):
        lib.set_role(ref, "SPEAKER_2", "nurse")
    with pytest.raises(LookupError):
        lib.set_role(ref, "SPEAKER_9", "patient")
    edited = lib.edit_finding(ref, fid, text="corrected words")
    again = lib.edit_finding(ref, edited.id, kind="history")  # an annotator's finding is updated in place
    assert again.id == edited.id and (again.text, again.kind) == ("corrected words", "history")
    assert lib.reject_finding(ref, edited.id).rejected


def test_delete_and_copy_carry_the_findings_tables(lib, tmp_path):
    ref = "ab" * 32
    rid = make_recording(lib.db, CONSULTATION, TAGS)
    run_stage(lib.db, rid)
    lib.reject_finding(ref, lib.findings(ref)[0].id)
    lib.set_role(ref, "SPEAKER_1", "clinician")
    with Library(tmp_path / "dst") as dst:
        copy_recording(Store(lib.db, lib.vectors), Store(dst.db, dst.vectors), ref, audio=False)
        assert [(f.concept, f.rejected) for f in dst.findings(ref)] == [(f.concept, f.rejected)
                                                                        for f in lib.findings(ref)]
        assert dst.roles(ref) == lib.roles(ref) and dst.sections(ref) == lib.sections(ref)
        assert [e["speaker"] for e in dst.event_speakers(ref)] == [e["speaker"] for e in lib.event_speakers(ref)]
    delete_recording(lib.db, lib.recording(ref))
    for table in ("sections", "findings", "finding_edits", "event_speakers", "speaker_roles"):
        assert lib.db.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table
