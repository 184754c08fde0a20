import json

import pytest

from harp_desktop.evaluate.queries import QueriesFormatError, parse_lines, read_queries, to_line, write_queries

LINES = [
    {"query_id": "q-1", "recording": "a.flac", "query_type": "reported_symptom", "query": "Chest pain?",
     "answer": "Yes", "answer_kind": "yesno", "evidence": [[5.26, 8.47], [0.5, 4.66]], "time_ref": None,
     "cue_audio": None, "notes": ""},
    {"query_id": "q-2", "recording": "a.flac", "query_type": "negative", "query": "Vomiting?", "answer": "No",
     "answer_kind": "yesno", "evidence": [], "time_ref": "between 0 and 1 minutes", "cue_audio": "cues/x.flac",
     "notes": "temp 38.2 \u00b0C", "reviewer": {"name": "kim", "ok": True}},
]


def test_round_trip_is_byte_identical(tmp_path):
    text = "".join(json.dumps(q) + "\n" for q in LINES)
    src = tmp_path / "in.jsonl"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    write_queries(out, read_queries(src))
    assert out.read_text(encoding="utf-8") == text
    assert read_queries(out) == LINES  # unsorted evidence, nulls, unicode and the extra field kept


def test_missing_optional_fields_get_defaults():
    (q,) = parse_lines('{"query_id": "x", "recording": "r.wav", "query": "Anything?"}')
    assert q["evidence"] == []
    assert json.loads(to_line(q))["answer"] is None


@pytest.mark.parametrize("line, words", [
    ("{not json", "not valid JSON"),
    ('["a list"]', "JSON object"),
    ('{"recording": "r.wav", "query": "q"}', "'query_id'"),
    ('{"query_id": "x", "recording": "r.wav", "query": "q", "evidence": [[3, 1]]}', "bad evidence span"),
    ('{"query_id": "x", "recording": "r.wav", "query": "q", "evidence": [[1, "2"]]}', "bad evidence span"),
    ('{"query_id": "x", "recording": "r.wav", "query": "q", "evidence": [[-1, 2]]}', "bad evidence span"),
    ('{"query_id": "x", "recording": "r.wav", "query": "q", "answer_kind": "essay"}', "'answer_kind'"),
    ('{"query_id": "x", "recording": "r.wav", "query": "q", "answer": 4}', "'answer'"),
    ('{"query_id": "q-1", "recording": "a.flac", "query": "again"}', "repeats line 1"),
])
def test_malformed_line_names_its_number(line, words):
    text = json.dumps(LINES[0]) + "\n\n" + line + "\n"
    with pytest.raises(QueriesFormatError) as err:
        parse_lines(text, "set.jsonl")
    msg = str(err.value)
    assert msg.startswith("set.jsonl line 3:") and words in msg and "\n" not in msg


def test_unreadable_files(tmp_path):
    with pytest.raises(QueriesFormatError, match="no such file"):
        read_queries(tmp_path / "missing.jsonl")
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(b'{"query": "caf\xe9"}\n')
    with pytest.raises(QueriesFormatError, match="not UTF-8"):
        read_queries(bad)
