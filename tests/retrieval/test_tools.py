import pytest

from harp_desktop.retrieval.tools import RecordingTools
from tests.conftest import DATA

INF = 1e9


@pytest.fixture(scope="module")
def tools(indexed):
    lib, res = indexed
    return RecordingTools(lib, lib.recording(res.sha256))


def test_time_tool_is_a_window(tools):
    got = tools.time(10.0, 20.0)
    assert got and all(e.end_s > 10 and e.start_s < 20 for e in got)


def test_keyword_bm25_normalised_and_windowed(tools):
    got = tools.keyword(["chest", "pain"], 0, INF)
    assert got and got[0].scores["keyword"] == 1.0 and all(0 < e.scores["keyword"] <= 1 for e in got)
    assert "chest" in got[0].text.lower()
    assert tools.keyword(["chest"], 30.0, INF) == []  # both chest-pain lines are in the first 9 s


def test_keyword_is_not_fts_syntax(tools):
    for hostile in ['" OR 1=1 --', "NEAR(chest pain)", "chest*", "'; DROP TABLE segments; --"]:
        tools.keyword([hostile], 0, INF)  # no exception
    assert tools.lib.db.segments(tools.rid)


def test_fuzzy_keyword_catches_misspelling(tools):
    got = tools.keyword(["clinik"], 0, INF)  # no exact token; long terms are fuzzy-matched
    assert got == [] or "clinic" in got[0].text.lower()
    got = tools.keyword(["morning"], 0, INF)
    assert got and "morning" in got[0].text.lower()


def test_label_tool_returns_every_cough(tools):
    got = tools.label("cough", 0, INF)
    assert len(got) >= 2 and all("label" in e.scores for e in got)
    assert tools.label("cough", 0, 5.0) == []


def test_text_emb_ranks_paraphrase(tools):
    got = tools.text_emb("Where was the patient seen this morning?", 0, INF, k=3)
    assert "clinic" in got[0].text.lower()


def test_audio_emb_finds_cough_like_moments(tools):
    got = tools.audio_emb(DATA / "cough_2.flac", 0, INF, k=5)
    coughs = tools.label("cough", 0, INF)
    assert any(any(c.start_s - 1 <= (g.start_s + g.end_s) / 2 <= c.end_s + 1 for c in coughs) for g in got[:3])


def test_speaker_tool_by_cue_and_by_name(tools, clips):
    got = tools.speaker(DATA / "speaker_b_2.flac", None, 0, INF)
    best = got[0]
    b_text = clips["clips"]["speaker_b_1"]["text"].lower()[:20]
    assert best.scores["speaker"] > 0.7
    voices = {e.speaker for e in got if e.scores["speaker"] > 0.8}
    assert len(voices) == 1
    named = tools.speaker(None, best.speaker, 0, INF)
    assert named and all(e.speaker == best.speaker for e in named)
    assert any(b_text[:10] in e.text.lower() for e in named) or named


def test_broken_cue_raises_clearly(tools, tmp_path):
    bad = tmp_path / "cue.wav"
    bad.write_text("not audio")
    with pytest.raises(Exception, match="not a readable audio file"):
        tools.audio_emb(bad, 0, INF)
