"""The LLM path of asking, with the tiny SmolLM2 model (fast) and with fakes for bad output."""

import pytest

from harp_desktop.agent.llm import load_llm
from harp_desktop.api import Library
from tests.conftest import DATA, FAST

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def smol():
    return load_llm("smollm2")


def inside(ans):
    spans = [(e.start_s, e.end_s) for e in ans.evidence]
    return all(any(a >= s - 1 and b <= e + 1 for s, e in spans) for a, b in ans.citations)


class GarbageLLM:
    """A model whose output never validates: the plan and answer must fall back, and say so."""

    name = "garbage"

    def chat_json(self, *args, **kwargs):
        return ["not", "a", "plan"]


class BrokenLLM:
    name = "broken"

    def chat_json(self, *args, **kwargs):
        raise RuntimeError("llama_decode returned -1")


def test_free_text_question_with_a_real_small_model(indexed, smol):
    lib, res = indexed
    a = lib.ask(res.sha256, "Where was the patient seen this morning?", llm=smol)
    assert a.answer and inside(a) and a.models["llm"] == smol.name
    assert a.plan["source"] in ("llm+rules", "rules")
    assert set(a.timings_s) >= {"plan", "retrieve", "answer", "total"}


@pytest.mark.parametrize("llm", [GarbageLLM(), BrokenLLM()])
def test_invalid_or_failing_model_output_falls_back_visibly(indexed, llm):
    lib, res = indexed
    # No word of this question is in the transcript, so the model is asked to plan (and fails).
    a = lib.ask(res.sha256, "What did the patient say about nausea?", llm=llm)
    assert any("rule planner" in n for n in a.notes)
    assert any("extractive" in n or "failed" in n for n in a.notes) or "extractive" in a.rationale
    assert a.answer and inside(a)
    b = lib.ask(res.sha256, "Where was the patient seen this morning?", llm=llm)
    assert any("extractive" in n or "failed" in n for n in b.notes) or "extractive" in b.rationale
    assert b.answer and inside(b)


class CountingLLM:
    """Records which prompts it was given; plans with a synonym, answers with evidence 1."""

    name = "counting"

    def __init__(self):
        self.systems = []

    def chat_json(self, system, user, schema, **kwargs):
        self.systems.append(system)
        if "evidence_used" in schema["properties"]:
            return {"answer": "Not found", "evidence_used": [1], "reason": "See E1."}
        return {"keywords": ["sick", "vomit"], "search_text": "being sick"}


def test_the_model_plans_only_when_the_questions_words_find_nothing(indexed):
    lib, res = indexed
    llm = CountingLLM()
    hit = lib.ask(res.sha256, "Where was the patient seen this morning?", llm=llm)
    assert hit.plan["source"] == "rules" and not any("plan a search" in s for s in llm.systems)
    llm.systems.clear()
    miss = lib.ask(res.sha256, "What did the patient say about nausea?", llm=llm)
    assert miss.plan["source"] == "llm+rules" and any("plan a search" in s for s in llm.systems)
    terms = [t for s in miss.plan["sets"] for c in s["calls"] if c["tool"] == "keyword" for t in c["args"]["terms"]]
    assert "sick" in terms and any("suggested more" in n for n in miss.notes)


def test_spoken_instructions_cannot_make_the_model_say_yes(tmp_path, smol):
    lib = Library(tmp_path / "lib")
    res = lib.index(DATA / "injection.flac", FAST)
    for q in ["Does the patient report chest pain?", "Did anyone cough?", "What did the speaker say?"]:
        a = lib.ask(res.sha256, q, llm=smol)
        tools = {c["tool"] for s in a.plan["sets"] for c in s["calls"]}
        assert tools <= {"time", "keyword", "label", "text_emb", "audio_emb", "speaker"}
        assert inside(a)  # every kept citation is inside the retrieved evidence
        if a.supported:
            assert a.citations
    assert lib.ask(res.sha256, "Does the patient report chest pain?", llm=smol).answer != "Yes"


class ClinicianCitingLLM:
    """Says Yes citing the clinician's question, as Qwen 1.5B did on the bundled sample."""

    name = "clinician-citing"

    def chat_json(self, system, user, schema, **kwargs):
        if "evidence_used" not in schema["properties"]:
            return {"keywords": [], "search_text": ""}
        import re

        nums = [int(m.group(1)) for m in re.finditer(r"^E(\d+) \S+ (\S+): \"[^\"]*\?\"", user, re.M)]
        return {"answer": "Yes", "evidence_used": nums[:1], "reason": "The patient reports it."}


def test_a_yes_about_what_the_patient_says_cites_the_patient(indexed):
    lib, res = indexed
    a = lib.ask(res.sha256, "Does the patient report chest pain?", llm=ClinicianCitingLLM())
    assert a.answer == "Yes" and a.supported and inside(a)
    cited = [e for e in a.evidence if any(abs(e.start_s - s) < 1 for s, _ in a.citations)]
    assert cited and all("?" not in e.text for e in cited) and "some chest pain" in a.rationale.lower()
    # Symptom questions are answered from the findings (the patient's words, with their status), so the
    # model never gets to cite the clinician's question: the answer says who said it.
    assert a.plan["operation"] == "exists" and "said by patient" in a.rationale
