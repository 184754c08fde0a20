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
    assert "clinic" in a.answer.lower() and a.plan["query"]["operation"] == "what_said"
    assert set(a.timings_s) >= {"parse", "answer", "total"}


@pytest.mark.parametrize("llm", [GarbageLLM(), BrokenLLM()])
def test_invalid_or_failing_model_output_falls_back_visibly(indexed, llm):
    lib, res = indexed
    # A question the rules are unsure of goes to the model; its failure leaves the rules' reading, said aloud.
    a = lib.ask(res.sha256, "The headache, anything about it?", llm=llm)
    assert any("used the rules" in n for n in a.notes), a.notes
    assert a.answer and inside(a)
    b = lib.ask(res.sha256, "Where was the patient seen this morning?", llm=llm)
    assert "clinic" in (b.answer + b.rationale).lower() and inside(b)


class CountingLLM:
    """Records which prompts it was given; reads every question as a yes/no about speech."""

    name = "counting"

    def __init__(self):
        self.systems = []

    def chat_json(self, system, user, schema, **kwargs):
        self.systems.append(system)
        return {"operation": "exists", "target": "speech", "subject": "anyone"}


def test_the_model_reads_only_questions_the_rules_are_unsure_of(indexed):
    lib, res = indexed
    llm = CountingLLM()
    clear = lib.ask(res.sha256, "Does the patient report chest pain?", llm=llm)
    assert clear.plan["query"]["confidence"] >= 0.9 and llm.systems == []
    unsure = lib.ask(res.sha256, "The headache, anything about it?", llm=llm)
    assert unsure.plan["query"]["confidence"] < 0.9 and len(llm.systems) == 1
    # A wh-question is never turned into a yes/no one, whatever the model says (reconcile).
    wh = lib.ask(res.sha256, "What happened to her sleep?", llm=llm)
    assert wh.plan["query"]["operation"] != "exists"


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
