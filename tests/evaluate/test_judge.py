"""Free-text judging: the real tiny SmolLM2 model gives a verdict; a failing model falls
back to the documented word-overlap rule and says so."""

import pytest

from harp_desktop.agent.llm import load_llm
from harp_desktop.evaluate.judge import judge_text


class BrokenLLM:
    name = "broken"

    def chat_json(self, *args, **kwargs):
        raise RuntimeError("llama_decode returned -1")


class NoVerdictLLM:
    name = "no-verdict"

    def chat_json(self, *args, **kwargs):
        return {"correct": "maybe"}


def test_no_model_uses_word_overlap():
    assert judge_text(None, "How long?", "about three days", "3 days") == (True, "exact")
    assert judge_text(None, "Who?", "Diane and Sheila", "Sheila", "and Diane [00:09]") == (True, "overlap")
    assert judge_text(None, "How long?", "about three days", "a week") == (False, "overlap")


@pytest.mark.parametrize("llm", [BrokenLLM(), NoVerdictLLM()])
def test_failing_model_falls_back(llm):
    assert judge_text(llm, "Where is she from?", "Chicago", "Illinois", "she says Chicago") == (True, "overlap")
    assert judge_text(llm, "Where is she from?", "Chicago", "Boston") == (False, "overlap")


@pytest.mark.slow
def test_real_small_model_gives_a_verdict():
    smol = load_llm("smollm2")
    # A paraphrase the word rule cannot settle goes to the model, whose verdict is a boolean
    # under the schema (the tiny test model's judgement itself is not asserted).
    ok, judge = judge_text(smol, "How long has the chest tightness gone on?", "about three days",
                           "since the weekend")
    assert judge == "llm" and isinstance(ok, bool)
