import json

import pytest
import soundfile as sf

from harp_desktop.evaluate.runner import Case, EvalOptions, summarize, table
from harp_desktop.evaluate.score import hit_rate
from tests.conftest import DATA, copy_library

ORDER = ["speech_two_speakers", "cough_1", "speaker_a_1", "speaker_b_1", "cough_2", "speaker_a_2", "speaker_b_2"]


def offsets() -> dict[str, float]:
    """Where each committed clip starts inside the long_clip fixture (0.5 s gaps)."""
    out, t = {}, 0.0
    for name in ORDER:
        out[name] = t
        t += sf.info(DATA / f"{name}.flac").frames / 16000 + 0.5
    return out


def questions() -> list[dict]:
    o = offsets()
    cough = [[o["cough_1"] + 1.0, o["cough_1"] + 1.54], [o["cough_2"] + 1.0, o["cough_2"] + 1.63]]
    return [
        {"query_id": "r-1", "recording": "long_clip.flac", "query_type": "reported_symptom",
         "query": "Does the patient report chest pain?", "answer": "Yes", "answer_kind": "yesno",
         "evidence": [[5.26, 8.47]]},
        {"query_id": "r-2", "recording": "long_clip.flac", "query_type": "exhibited_symptom",
         "query": "How many times can someone be heard coughing?", "answer": "2", "answer_kind": "count",
         "evidence": cough},
        {"query_id": "r-3", "recording": "long_clip.flac", "query_type": "negative",
         "query": "Is anyone sneezing?", "answer": "No", "answer_kind": "yesno", "evidence": []},
        {"query_id": "r-4", "recording": "long_clip.flac", "query_type": "reported_symptom",
         "query": "Where was the patient seen this morning?", "answer": "in the clinic", "answer_kind": "text",
         "evidence": [[o["speaker_a_1"] + 0.25, o["speaker_a_1"] + 3.01]]},
    ]


@pytest.fixture
def lib(indexed, tmp_path):
    shared, res = indexed
    shared.db.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with copy_library(shared.folder, tmp_path / "lib") as lib:
        yield lib, res


def test_summary_means_skip_undefined_metrics():
    def row(t, hr, ok, cv, lat):
        return {"query_type": t, "hit_rate": hr, "correct": ok, "citation_validity": cv, "latency_s": lat,
                "timings_s": {"total": lat}}

    rows = [row("a", 1.0, True, 1.0, 0.1), row("a", 0.5, False, None, 0.3), row("neg", None, True, None, 0.2),
            row("b", 0.0, None, 0.5, 0.4)]
    rep = summarize(rows, {"retrieval": "hybrid"})
    assert rep.by_type["a"] == {"n": 2, "hit_rate": 0.75, "answer_accuracy": 0.5, "citation_validity": 1.0,
                                "citation_precision": None,
                                "latency_median_s": 0.2, "latency_p95_s": 0.3}
    assert rep.by_type["neg"]["hit_rate"] is None and rep.by_type["neg"]["answer_accuracy"] == 1.0
    o = rep.overall
    assert o["n"] == 4 and o["hit_rate"] == 0.5 and o["answer_accuracy"] == pytest.approx(2 / 3, abs=1e-4)
    assert o["citation_validity"] == 0.75 and o["retrieval"] == "hybrid"
    text = table(rep)
    assert text.splitlines()[-1].startswith("ALL") and text.splitlines()[3].split()[2] == "-"


def test_evaluate_scores_every_question(lib):
    lib, res = lib
    cases = [Case(q, res.sha256) for q in questions()]
    seen = []
    rep = lib.evaluate(cases, EvalOptions("hybrid", "rrf"), progress=lambda i, n, r: seen.append((i, n)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    by_id = {r["query_id"]: r for r in rep.queries}
    for q in questions():
        r = by_id[q["query_id"]]
        assert r["hit_rate"] == hit_rate([tuple(s) for s in q["evidence"]], [tuple(s) for s in r["evidence"]])
    assert by_id["r-1"]["correct"] and by_id["r-1"]["hit_rate"] == 1.0
    assert by_id["r-2"]["answer"] == "2" and by_id["r-2"]["correct"]
    assert by_id["r-3"]["correct"] and by_id["r-3"]["hit_rate"] is None
    assert by_id["r-4"]["judge"] in ("exact", "overlap") and by_id["r-4"]["correct"]  # no model: word rules
    assert set(rep.by_type) == {"reported_symptom", "exhibited_symptom", "negative"}
    assert rep.overall["answer_accuracy"] == 1.0 and rep.overall["retrieval"] == "hybrid"
    json.dumps(rep.to_json())  # plain data


def test_oracle_feeds_the_truth_spans_as_evidence(lib):
    lib, res = lib
    rep = lib.evaluate([Case(q, res.sha256) for q in questions()], EvalOptions(oracle=True))
    for q, r in zip(questions(), rep.queries, strict=True):
        assert r["evidence"] == sorted([round(a, 3), round(b, 3)] for a, b in q["evidence"])
        assert r["hit_rate"] in (1.0, None)
    by_id = {r["query_id"]: r for r in rep.queries}
    assert by_id["r-2"]["answer"] == "2"  # the cough detector fires inside both true spans
    assert by_id["r-3"]["answer"] == "No" and by_id["r-3"]["evidence"] == []
    assert rep.overall["retrieval"] == "oracle" and rep.overall["oracle"] is True


def test_evaluation_keeps_the_answer_history_and_survives_a_refused_question(lib, tmp_path):
    lib, res = lib
    before = len(lib.db.answers(lib.recording(res.sha256)["id"]))
    qs = questions()[:2]
    cases = [Case(qs[0], res.sha256, tmp_path / "missing-cue.wav"), Case(qs[1], res.sha256)]
    rep = lib.evaluate(cases)
    broken, fine = rep.queries
    assert broken["correct"] is False and broken["hit_rate"] == 0.0 and broken["evidence"] == []
    assert "not answered" in broken["notes"][0] and "missing-cue.wav" in broken["notes"][0]
    assert fine["correct"] is True and rep.overall["answer_accuracy"] == 0.5
    assert len(lib.db.answers(lib.recording(res.sha256)["id"])) == before
