"""The report's cited summary (issue 17), read back with pypdf: on page 1 with the answer,
every line "concept (value) — status — [mm:ss] said by role", re-verified against the
transcript; rejected findings left out; model provenance on the last page."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from harp_desktop.api import Library
from harp_desktop.export import summary
from harp_desktop.findings import service
from harp_desktop.findings.model import Finding
from tests.export.conftest import pdf_pages
from tests.findings.helpers import CONSULTATION, make_recording
from tests.ui.findings_data import make_consultation, rich_extract

D = "\u2014"
ANSWER = {"question": "Did the patient report any respiratory symptoms?", "answer": "Yes: a cough [00:11]",
          "rationale": "The patient reports a cough [00:11-00:15].", "supported": True,
          "evidence": [{"start_s": 11.0, "end_s": 15.0, "speaker": "SPEAKER_3", "labels": [], "scores": {},
                        "text": "Hello doctor. I have had a cough for about a week now."}],
          "citations": [], "models": {"planner": "rules"}}


@pytest.fixture
def lib(library_dir, monkeypatch):
    monkeypatch.setattr(service, "load_extractor", lambda: rich_extract)
    with Library(library_dir) as lib:
        yield lib


def report(lib, sha: str, path, **kw) -> list[str]:
    lib.db.store_answer(lib.recording(sha)["id"], ANSWER)
    lib.report(sha, path, all_answers=True, **kw)
    return pdf_pages(path)


def test_page_one_has_the_summary_lines_with_citations_and_statuses(lib, tmp_path):
    sha = make_consultation(lib)
    pages = report(lib, sha, tmp_path / "r.pdf")
    first = pages[0]
    for line in (f"cough (about a week) {D} affirmed {D} [00:11] \u2713 said by patient",
                 f"sputum {D} denied {D} [00:16] \u2713 said by patient",  # the answer to a question: one statement
                 f"headache (last week) {D} past {D} [00:55] \u2713 said by patient",
                 f"asthma {D} family/other {D} [00:51] \u2713 said by patient",
                 f"dizziness {D} uncertain {D} [00:59] \u2713 said by patient",
                 f"paracetamol {D} affirmed {D} [00:38] \u2713 said by clinician",
                 f"penicillin {D} affirmed {D} [01:03] \u2713 said by patient",
                 f"temperature (38.2) {D} affirmed {D} [00:27] \u2713 said by patient",
                 f"chest auscultation {D} affirmed {D} [00:32] \u2713 said by clinician",
                 f"viral chest infection {D} uncertain {D} [00:38] \u2713 said by clinician",
                 f"chest pain {D} conditional advice {D} [00:46] \u2713 said by clinician",  # safety-net: the plan
                 f"chest X-ray {D} affirmed {D} [01:07] \u2713 said by clinician"):
        assert line in first, line
    order = [first.index(h) for h in ("Cited summary", "Reported", "Denied", "Medications", "Allergies",
                                      "Examination", "Diagnoses considered", "Plan", "Q1.")]
    assert order == sorted(order)
    assert first.index("chest pain") > first.index("Plan")  # not among what the patient reported
    assert f"Q1. {ANSWER['question']} \u2192 {ANSWER['answer']}" in first  # the answer on page 1 too
    assert "Model provenance" not in first and "Model provenance" in pages[-1]
    assert "findings" in pages[-1] and "HARP findings rules" in pages[-1]


def test_rejected_left_out_edited_marked_unverified_flagged(lib, tmp_path):
    sha = make_consultation(lib)
    found = {f.concept: f for f in lib.findings(sha)}
    lib.reject_finding(sha, found["dizziness"].id)
    lib.edit_finding(sha, found["cough"].id, value="ten days")
    # The transcript no longer holds the words of the fever answer: that citation is not verified.
    lib.db.db.execute("UPDATE segments SET text = 'Mm.' WHERE start_s = 27.0")
    first = report(lib, sha, tmp_path / "r.pdf")[0]
    assert "dizziness" not in first and "1 finding(s) rejected by an annotator are left out" in first
    assert f"cough (ten days) {D} affirmed {D} [00:11] \u2713 said by patient (\u270e edited or added by an annotator)" in first
    assert f"fever {D} affirmed {D} [00:24] \u2717 (not found in the transcript) said by patient" in first


def test_no_findings_stage_is_one_line(lib, tmp_path):
    make_recording(lib.db, CONSULTATION, sha="ef" * 32)
    first = report(lib, "ef" * 32, tmp_path / "r.pdf")[0]
    assert "Cited summary No findings: this recording was indexed before the findings stage" in first
    assert "Q1." in first


def line_under(reader: PdfReader, dest) -> str:
    """The first text drawn under a link's target (the top of a transcript line)."""
    page, top = reader.get_page_number(dest[0].get_object()), float(dest[3])
    runs: list[tuple[float, str]] = []
    reader.pages[page].extract_text(
        visitor_text=lambda t, cm, tm, *_: t.strip() and runs.append((tm[5] * cm[3] + cm[5], t)))
    y = max(y for y, _ in runs if y < top - 0.5)  # the target is the line's top edge; its baseline is below
    return "".join(t for yy, t in runs if yy == y)


def test_citations_link_to_the_transcript(lib, tmp_path):
    sha = make_consultation(lib)
    report(lib, sha, tmp_path / "r.pdf", with_transcript=True)
    reader = PdfReader(str(tmp_path / "r.pdf"))
    links = [a.get_object() for a in reader.pages[0].get("/Annots", []) if a.get_object()["/Subtype"] == "/Link"]
    assert len(links) >= 13  # one per citation
    # The first summary line is the cough [00:11], the last the plan's chest X-ray [01:07]; the
    # transcript starts on page 1 and goes on to page 2, and each link lands on its own line.
    assert line_under(reader, links[0]["/Dest"]).startswith("00:11.0")
    assert line_under(reader, links[-1]["/Dest"]).startswith("01:07.0")
    assert {reader.get_page_number(link["/Dest"][0].get_object()) for link in links} == {0, 1}


def test_markdown_has_the_summary_first_and_provenance_last(lib, tmp_path):
    sha = make_consultation(lib)
    lib.db.store_answer(lib.recording(sha)["id"], ANSWER)
    lib.report(sha, tmp_path / "r.md", all_answers=True)
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert f"- sputum {D} denied {D} [00:16] said by patient" in md
    assert md.index("## Cited summary") < md.index("## Question 1") < md.index("## Model provenance")


def test_real_index_summary_and_provenance(answered, tmp_path):
    """The shared indexed clip: whatever the findings stage found, page 1 carries the summary
    (or says there is none) and the model table closes the report."""
    lib, rec, answers = answered
    roles = lib.roles(rec["sha256"])
    seg = next(s for s in lib.transcript(rec["sha256"])["segments"] if roles.get(s["speaker"]) == "patient")
    lib.add_finding(rec["sha256"], Finding("wheeze", "respiratory", "symptom", "negated", seg["speaker"], None,
                                           seg["start_s"], seg["end_s"], seg["text"]))
    lib.report(rec["sha256"], tmp_path / "real.pdf", answers=answers)
    pages = pdf_pages(tmp_path / "real.pdf")
    m, s = divmod(round(seg["start_s"]), 60)
    assert f"wheeze {D} denied {D} [{m:02d}:{s:02d}] \u2713 said by patient (\u270e edited or added by an annotator)" in pages[0]
    assert "Model provenance" in pages[-1] and "asr-tiny.en" in pages[-1] and "Model provenance" not in pages[0]


def F(concept, status, speaker, start, value=None, kind="symptom", role=None):  # noqa: N802 (a short constructor)
    return Finding(concept, "general", kind, status, speaker, role, start, start + 2, "", value)


def test_merging_keeps_who_said_which_value():
    segs = [{"id": 1, "start_s": 0.0, "end_s": 30.0, "speaker_label": "S1", "text": ""},
            {"id": 2, "start_s": 30.0, "end_s": 60.0, "speaker_label": "S2", "text": ""}]
    out = summary.build([F("bp", "affirmed", "S1", 5.0, kind="vital", role="patient"),
                         F("bp", "affirmed", "S2", 40.0, "138/84", kind="vital", role="clinician"),
                         F("cough", "affirmed", "S1", 6.0, "a week", role="patient"),
                         F("cough", "affirmed", "S1", 20.0, role="patient"),
                         F("heart attack", "family", "S1", 8.0, kind="diagnosis", role="patient")], segs)
    texts = [ln.text() for ln in out.lines()]
    assert f"bp {D} affirmed {D} [00:05] said by patient" in texts  # not merged into the clinician's 138/84
    assert f"bp (138/84) {D} affirmed {D} [00:40] said by clinician" in texts
    assert f"cough (a week) {D} affirmed {D} [00:06], [00:20] said by patient" in texts  # the same voice again
    assert dict(out.sections)["Reported"][-1].name == "heart attack"  # family history is reported history

