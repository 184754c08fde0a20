import pytest

from harp_desktop.api import AudioError, Library
from harp_desktop.retrieval.localize import parse_clock
from tests.conftest import DATA, FAST


def inside(ans):
    spans = [(e.start_s, e.end_s) for e in ans.evidence]
    return all(any(a >= s - 1 and b <= e + 1 for s, e in spans) for a, b in ans.citations)


def test_event_questions_are_settled_by_code(indexed):
    lib, res = indexed
    a = lib.ask(res.sha256, "Is anyone coughing in this recording?")
    assert a.answer == "Yes" and a.supported and a.citations and inside(a)
    n = lib.ask(res.sha256, "How many times can someone be heard coughing?")
    assert n.answer == str(len([e for e in lib.transcript(res.sha256)["events"] if e["label"] == "cough"]))
    w = lib.ask(res.sha256, "When is the first cough?")
    assert abs(parse_clock(w.answer) - 10.0) <= 2.0
    none = lib.ask(res.sha256, "Is anyone sneezing between 00:00 and 00:05?")
    assert none.answer == "No" and not none.supported


def test_free_text_without_llm_quotes_the_answering_turn(indexed):
    lib, res = indexed
    a = lib.ask(res.sha256, "Where was the patient seen this morning?")
    assert "clinic" in a.answer.lower() and a.citations and inside(a) and a.supported
    assert a.models["llm"] is None and a.tools[0]["tool"] == "answer:what_said"


def test_answers_are_stored_with_plan_and_evidence(indexed):
    lib, res = indexed
    lib.ask(res.sha256, "Does the patient report chest pain?")
    stored = lib.db.answers(res.recording_id)[-1]
    assert stored["question"] == "Does the patient report chest pain?"
    assert stored["plan"]["sets"] and stored["evidence"] and "timings_s" in stored


@pytest.mark.parametrize("question", ["x" * 10_000, "¿El paciente tiene dolor en el pecho?", "患者有胸痛吗？",
                                      "'; DROP TABLE segments; -- \" OR 1=1", "\x00\x1b[31m chest \u202e pain"])
def test_hostile_and_odd_questions_do_not_break(indexed, question):
    lib, res = indexed
    a = lib.ask(res.sha256, question)
    assert a.answer and inside(a)
    if len(question) > 1000:
        assert any("truncated" in n for n in a.notes)
    assert lib.db.segments(res.recording_id)


def test_empty_question_and_broken_cue(indexed, tmp_path):
    lib, res = indexed
    with pytest.raises(ValueError, match="empty"):
        lib.ask(res.sha256, "   \n ")
    bad = tmp_path / "cue.wav"
    bad.write_bytes(b"RIFF....garbage")
    with pytest.raises(AudioError):
        lib.ask(res.sha256, "Find coughs like this one", bad)


def test_cue_questions(indexed):
    lib, res = indexed
    a = lib.ask(res.sha256, "Here is an example of a cough. When does the first similar sound occur?",
                DATA / "cough_2.flac")
    assert abs(parse_clock(a.answer) - 10.0) <= 2.0
    v = lib.ask(res.sha256, "When does the speaker of this clip first talk?", DATA / "speaker_b_2.flac")
    assert v.supported and parse_clock(v.answer) is not None


def test_the_event_the_question_names_outranks_the_clip_class(indexed, monkeypatch):
    """On dev, YAMNet hears a real cough cue as a gasp; "an example of a cough" must still find coughs."""
    from harp_desktop.agent.answerers import sounds

    lib, res = indexed
    monkeypatch.setattr(sounds, "cue_event", lambda ctx: "gasp")
    named = lib.ask(res.sha256, "Here is an example of a cough. When does the first similar sound occur?",
                    DATA / "cough_2.flac")
    assert named.plan["target_event"] == "cough" and abs(parse_clock(named.answer) - 10.0) <= 2.0
    unnamed = lib.ask(res.sha256, "Find sounds like this one", DATA / "cough_2.flac")
    assert unnamed.plan["target_event"] == "gasp" and any("sounds like gasp" in n for n in unnamed.notes)


def test_injected_instructions_in_speech_do_not_steer_the_answer(tmp_path):
    lib = Library(tmp_path / "lib")
    res = lib.index(DATA / "injection.flac", FAST)
    assert "ignore" in " ".join(s["text"] for s in lib.transcript(res.sha256)["segments"]).lower()
    a = lib.ask(res.sha256, "Does the patient report chest pain?")
    assert a.answer == "No" and inside(a)
    plan_tools = {c["tool"] for s in a.plan["sets"] for c in s["calls"]}
    assert plan_tools <= {"time", "keyword", "label", "text_emb", "audio_emb", "speaker"}


class _CountingModel:
    """Records the model's parse calls; answers like a model that reads everything as yes/no."""

    name = "counting"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def chat_json(self, system: str, user: str, schema: dict, max_tokens: int = 30) -> dict:
        self.calls.append(user)
        return {"operation": "exists", "target": "speech", "subject": "anyone"}


def test_the_model_is_asked_only_where_the_grammar_is_open(tmp_path) -> None:
    """A wh-question never goes to the model (it could not make it yes/no, and costs seconds); a question
    with no wh-word or auxiliary whose rule reading is unsure may, and the model cannot override a
    reading the grammar licenses."""
    from harp_desktop.agent.ask import Asker
    from harp_desktop.api import Library

    model = _CountingModel()
    asker = Asker(Library(tmp_path / "lib"), llm=model)
    for q in ["What did the doctor advise about fluids?", "Meds - which is he on?", "allergies? what reaction?"]:
        spec = asker.parse(q, 600.0, {}, [])
        assert spec.operation != "exists", q
    assert model.calls == []
    spec = asker.parse("Her breathing at night, the worse bit of it", 600.0, {}, [])
    assert spec.operation in ("exists", "what_said", "describe", "when_first")  # rules, examples or model: a valid reading
