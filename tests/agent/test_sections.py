from harp_desktop.agent.rules import rule_plan
from harp_desktop.agent.settle import count_voices, settle, settle_who
from harp_desktop.findings.sections import EDGE_S, dialogue_span
from harp_desktop.types import Evidence


def seg(i, start, spk, text="words here."):
    return {"id": i, "start_s": start, "end_s": start + 3.0, "speaker": spk, "text": text}


def recording():
    """A reader, then a doctor-patient exchange, then another reader after a long pause."""
    segs = [seg(0, 0.0, "A"), seg(1, 3.5, "A")]
    t = 10.0
    for i in range(8):
        segs.append(seg(2 + i, t, "DR" if i % 2 == 0 else "PT", "How are you?" if i % 2 == 0 else "Fine."))
        t += 4.0
    segs.append(seg(20, t + 1.0, "C"))  # a third voice right after: ends the exchange
    segs.append(seg(21, t + 60.0, "A"))
    return segs


def test_dialogue_is_the_longest_two_voice_exchange():
    a, b = dialogue_span(recording())
    assert a == 10.0 - EDGE_S and b == 10.0 + 7 * 4.0 + 3.0 + EDGE_S
    assert dialogue_span([seg(0, 0.0, "A"), seg(1, 4.0, "B")]) is None  # one change is not a dialogue
    assert dialogue_span([]) is None


def test_a_third_voice_can_start_the_next_exchange():
    segs = [seg(0, 0.0, "X"), seg(1, 3.5, "DR")] + [seg(2 + i, 7.0 + 4 * i, "PT" if i % 2 == 0 else "DR")
                                                     for i in range(6)]
    a, _ = dialogue_span(segs)
    assert a == 3.5 - EDGE_S  # the exchange starts with the doctor's turn that followed X


def ev(start, spk, text="said something", dur=2.0, **scores):
    return Evidence(start, start + dur, int(start), spk, text, [], scores or {"time": 1.0})


def test_speaker_count_questions_count_voices_in_the_window():
    q = "How many different people speak during the consultation?"
    plan = rule_plan(q, 600.0, False)
    assert plan.intent == "count" and [c.tool for c in plan.sets[0].calls] == ["time"] and plan.sets[0].all_matches
    first, why, ok = settle(plan, [ev(1, "DR"), ev(4, "PT"), ev(8, "DR"), ev(12, "X", dur=0.4)], q)
    assert (first, ok) == ("2", True) and "DR" in why and "X" not in why  # 0.4 s is a fragment, not a person
    assert count_voices([])[0] == "0"


def test_who_said_it_tolerates_a_misheard_name():
    shares = {"DR": (10, 0.8), "PT": (10, 0.05)}
    evidence = [ev(1, "DR", "Do you take any regular medication?"),
                ev(4, "PT", "I only alive with ear oxine for my thyroid, 50 micrograms every morning.")]
    role, why, ok = settle_who("Who mentions levothyroxine, the doctor or the patient?", evidence, shares)
    assert role == "patient" and ok and "PT" in why
    other, why, _ = settle_who("Who mentions aspirin, the doctor or the patient?", evidence, shares)
    assert other == "patient" and "not found verbatim" in why  # the closest statement, said as such
    assert settle_who("Who mentions aspirin?", evidence, shares) is None
