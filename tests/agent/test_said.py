"""Free-text "what was said" answers (agent/answerers/said.py): the turn that answers, found by
the question's rare words, its meaning, the kind of answer it asks for and the dialogue, on the
real indexed clip (tests/conftest.py `indexed`). Wordings here are not the bank's."""

from __future__ import annotations

import pytest

from harp_desktop.agent.answerers import said


@pytest.mark.parametrize("word,same", [("wakes", "waking"), ("planned", "plan"), ("listening", "listen"),
                                       ("investigations", "investigate"), ("stairs", "stair")])
def test_inflections_meet(word, same):
    assert said.stem(word) == said.stem(same)


def test_unrelated_words_stay_apart():
    assert said.stem("chest") != said.stem("check") and said.stem("pain") != said.stem("paint")


@pytest.mark.parametrize("question,kind", [
    ("When did the headache begin?", "time"), ("Since when has he felt like this?", "duration"),
    ("For how long has she slept badly?", "duration"), ("How often is the tablet taken?", "frequency"),
    ("What dose was she told to take?", "number"), ("Where exactly does it hurt?", "place"),
    ("What are the two callers' names?", "name"), ("Pain score for the knee out of ten?", "scale")])
def test_answer_kind_from_the_question(question, kind):
    assert kind in [k for k, _ in said.wanted(question)]


@pytest.mark.parametrize("question", ["When should he call the out-of-hours doctor?", "When might she be allowed home?"])
def test_a_time_someone_tells_of_wants_the_condition_or_day_told(question):
    kinds = [k for k, _ in said.wanted(question)]
    assert kinds == ["told_when"]
    gives = dict(said.wanted(question))["told_when"]
    assert gives.search("If the rash spreads, call them straight away.") and gives.search("Probably on Friday.")
    best = said._best_sentence("Take them with food. If the rash spreads, call the out-of-hours doctor. See you soon.",
                               {said.stem("call"), said.stem("doctor")}, [gives])
    assert best.startswith("If the rash spreads")


def test_no_answer_kind_for_an_open_question():
    assert said.wanted("What did the doctor say about the cough?") == []


@pytest.mark.parametrize("text,asks", [("Any allergies to medicines.", True), ("And out of 10, how bad is it", True),
                                       ("It started on Sunday.", False), ("I work in a restaurant in town.", False)])
def test_a_turn_that_asks_even_without_a_question_mark(text, asks):
    assert said._is_question(text) is asks


def test_focus_drops_who_and_window_words():
    terms = said.focus_terms("Between 10 and 40 seconds, what did the doctor hear through the stethoscope?")
    assert said.stem("stethoscope") in terms and said.stem("hear") in terms
    assert not {said.stem(w) for w in ("doctor", "seconds", "through", "between")} & set(terms)


@pytest.mark.parametrize("question,words", [
    ("How often should the tablet be taken?", ["twice"]),
    ("What is the instruction about taking the tablets?", ["tablet"]),
    ("Which day did her headache come on?", ["sunday"]),
    ("For how long has sleep been a problem?", ["two weeks", "2 weeks"]),
])
def test_the_answering_turn_is_quoted_and_cited(indexed, question, words):
    lib, res = indexed
    a = lib.ask(res.sha256, question)
    assert a.plan["query"]["operation"] in ("what_said", "describe")
    low = (a.answer + " " + a.rationale).lower()
    assert any(w in low for w in words), (question, a.answer)
    assert a.supported and a.citations


def test_a_reply_is_found_through_the_question_before_it(indexed):
    lib, res = indexed
    a = lib.ask(res.sha256, "What did the patient answer about chest pain or breathlessness?")
    assert "breathe normally" in (a.answer + a.rationale).lower() or "cough" in a.answer.lower()


@pytest.mark.parametrize("question,extra", [
    ("Does he need to fast before his blood test?", "fast"),
    ("Must she stop eating before the scan?", "stop"),
    ("Does the rash get worse after a hot shower?", "shower"),
])
def test_a_question_about_something_said_of_a_concept_keeps_that_thing(question, extra):
    from harp_desktop.agent import lexicon as lx
    from harp_desktop.agent.answerers.speech import beyond_concepts

    assert lx.stem(extra) in beyond_concepts(question)


@pytest.mark.parametrize("question", ["Any chest pain?", "Has she been coughing up anything?",
                                      "Did the patient report shortness of breath?"])
def test_a_question_about_the_concept_itself_asks_nothing_beyond_it(question):
    from harp_desktop.agent.answerers.speech import beyond_concepts

    assert beyond_concepts(question) == []


@pytest.mark.parametrize("text,intro", [("Hello, this is Margaret from the pharmacy.", True),
                                        ("I'm in New Jersey now though.", False), ("My name is Tom.", True)])
def test_a_self_introduction_is_told_from_a_place_name(text, intro):
    assert bool(said.INTRO.search(text)) is intro


@pytest.mark.parametrize(("a", "b"), [("mum", "mother"), ("my mom", "mother"), ("dad", "father"),
                                      ("it's alright", "it's all right"), ("the kids", "children")])
def test_everyday_words_for_the_same_person_meet(a, b):
    assert said._stems(a)[-1] == said._stems(b)[-1]


@pytest.mark.parametrize(("question", "clause"), [
    ("How does he feel once the doctor says it isn't cancer?", True),
    ("What does she say after the nurse told her the result?", True),
    ("How old was his mother when she was diagnosed with bowel cancer?", False),  # the topic's own time
    ("What did the GP hear when he listened to her chest?", False),  # an act, not a statement to reply to
])
def test_a_reply_clause_is_a_speech_act(question, clause):
    assert bool(said.AFTER_CLAUSE.search(question)) == clause


@pytest.mark.parametrize(("question", "reads"), [
    ("In the waiting room, what is the man reading out loud about?", True),
    ("What is being read aloud before the consultation?", True),
    ("What is the woman reading from the newspaper?", True),
    ("What reading did her thermometer give?", False),
    ("Did the doctor read out the blood results?", False),  # a value read out, not a text read aloud
])
def test_a_reading_aloud_is_told_from_other_speech(question, reads):
    assert bool(said.READING.search(question)) == reads


@pytest.mark.parametrize("question", [
    "On the phone, how does Daniel say he's doing?",
    "How is the patient getting on now?",
    "How has she been?",
    "How did the caller say his son was feeling?",
])
def test_how_someone_is_doing_asks_for_a_state(question):
    from harp_desktop.agent.answerers.said import wanted

    assert "state" in [name for name, _ in wanted(question)]
    assert "state" not in [name for name, _ in wanted("How does the doctor examine her?")]


@pytest.mark.parametrize(("question", "section"), [
    ("blood test appt - what day/time did they book on the call?", "phone_call"),  # a test's appointment: booked
    ("When is her next appointment?", None),
    ("During the appointment, did she mention chest pain?", "consultation"),
])
def test_an_appointment_booked_for_later_is_not_the_consultation(question, section):
    from harp_desktop.agent.lexicon import normalise_shorthand
    from harp_desktop.agent.query import parse

    assert parse(normalise_shorthand(question), 600.0).section == section


def test_the_slot_chosen_from_an_offer_is_what_was_booked():
    from types import SimpleNamespace

    from harp_desktop.agent.answerers.said import _settled

    turns = [("R", "I can do Wednesday at 8:40 in the morning, or Thursday at 2:50 in the afternoon."),
             ("P", "The morning please, the earlier the better."), ("R", "That's booked for you, room 2.")]
    segs = [{"id": i, "start_s": 5.0 * i, "end_s": 5.0 * i + 4, "speaker": w, "text": t} for i, (w, t) in enumerate(turns)]
    ctx = SimpleNamespace(segments=segs, label_of=lambda s: s["speaker"])
    chosen, cited = _settled(ctx, segs[0], turns[0][1])
    assert chosen == "I can do Wednesday at 8:40 in the morning" and [s["id"] for s in cited] == [1, 2]
    # a reply naming neither option settles nothing
    segs[1]["text"] = "Let me check my diary."
    assert _settled(ctx, segs[0], turns[0][1]) is None


@pytest.mark.parametrize("question", ["What colour is the phlegm he coughs up?", "which color was the rash?",
                                      "Colour of the discharge from his ear?"])
def test_a_colour_asked_wants_a_turn_naming_one(question):
    got = dict(said.wanted(question))
    assert "colour" in got
    assert got["colour"].search("it's a sort of yellowy green, mostly mornings")
    assert not got["colour"].search("about a teaspoon, mostly mornings")


def test_a_clock_time_asr_wrote_as_digits_is_a_time():
    got = dict(said.wanted("When is his clinic appointment booked for?"))
    assert any(p.search("Fracture clinic on Monday at 930.") for p in got.values())
    assert dict(said.wanted("When was the first dose given?"))["time"].search("given at 1940 with paracetamol")


@pytest.mark.parametrize(("question", "put"), [
    ("When asked if she was more breathless than usual, what did Dorothy say?", "if she was more breathless than usual"),
    ("What did he answer when he was asked about alcohol?", "about alcohol"),
    ("Once questioned whether he smokes, what does he reply", "whether he smokes"),
])
def test_the_question_put_is_what_the_reply_answers(question, put):
    m = said.WHEN_ASKED.search(question)
    assert m is not None and m.group(1).strip() == put


def test_a_passive_when_asked_is_answered_by_the_reply():
    from harp_desktop.agent.answerers.said import rank
    from tests.agent.test_people import _ctx

    ctx = _ctx(["DR: And is the cough bringing anything up?", "PT: Green stuff, mostly in the mornings.",
                "DR: Are you more out of breath than usual?", "PT: I think maybe a bit, going up the stairs.",
                "DR: Right, I'll ask the GP to check your chest on Tuesday.", "PT: Thank you."],
               question="When asked if she was more breathless than usual, what did she say?")
    ctx.rec, ctx.notes = {"duration_s": 60.0, "sha256": "x", "id": 1}, []
    ctx.lib = None  # no stored vectors: lexical only
    assert rank(ctx)[0][1]["text"].startswith("I think maybe a bit")


@pytest.mark.parametrize(("text", "question", "want"), [
    ("The fever is gone. He has not had a temperature since yesterday morning. It was 36.8 this morning.",
     "On the phone, what was his temperature this morning?", "It was 36.8 this morning."),
    ("Muddled since Thursday, keep an eye on it. First dose of amoxicillin given at 19:40.",
     "What time was the first amoxicillin dose given?", "First dose of amoxicillin given at 19:40."),
])
def test_the_sentence_quoted_carries_both_the_topic_and_what_is_asked(text, question, want):
    terms = set(said.focus_terms(question))
    gives = [g for _, g in said.wanted(question)]
    assert said._best_sentence(text, terms, gives) == want


def test_a_turn_announcing_the_next_look_is_followed_by_what_was_seen():
    from harp_desktop.agent.answerers.said import _result_of_act
    from tests.agent.test_people import _ctx

    ctx = _ctx(["DR: The right eardrum looks normal. Now the sore one.", "PT: No, it hurts!",
                "DR: All done, the left eardrum is red and bulging, no hole in it."],
               question="In the examination, what did the GP see in the sore ear?")
    got = _result_of_act(ctx, ctx.segments[0])
    assert got is not None and "bulging" in got["text"]
    assert _result_of_act(ctx, ctx.segments[2]) is None  # a turn stating the result is itself the answer


def test_a_score_asked_is_a_small_number_not_any_number_said():
    kinds = dict(said.wanted("How bad is the pain on a scale of one to ten?"))
    assert "number" not in kinds
    gives = kinds["scale"]
    assert gives.search("About a seven, I'd say.") and gives.search("It's 6.")
    assert not gives.search("call 999 straight away") and not gives.search("come back in two days")
