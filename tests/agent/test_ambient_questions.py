"""Questions about sounds of the room that are not bodily sounds (a phone, a knock, an alarm, music,
a dog): everyday wordings land on the ambient event labels, and wordings that only look alike do not."""

from __future__ import annotations

import pytest

from harp_desktop.agent.lexicon import normalise_shorthand
from harp_desktop.agent.query import parse
from harp_desktop.index.ambient_labels import AMBIENT_LABELS

DUR = 900.0

# (question, operation, event)
ASKED = [
    ("When does the phone ring?", "when_first", "telephone"),
    ("At what point does a telephone start ringing?", "when_first", "telephone"),
    ("Does anyone's mobile go off during the appointment?", "exists", "telephone"),
    ("Is there a ringtone at any point?", "exists", "telephone"),
    ("How many times did the phone ring?", "count", "telephone"),
    ("how many times does the telephone ring in the consultation", "count", "telephone"),
    ("Was the GP interrupted by the phone ringing?", "exists", "telephone"),
    ("Can you hear a phone ringing in the background?", "exists", "telephone"),
    ("Did the desk phone ring while the nurse was talking?", "exists", "telephone"),
    ("When did her cell phone go off?", "when_first", "telephone"),
    ("Was there a knock at the door?", "exists", "knock"),
    ("Does somebody knock on the door during the visit?", "exists", "knock"),
    ("When is the knock at the door?", "when_first", "knock"),
    ("Is there any knocking?", "exists", "knock"),
    ("How many times did someone knock?", "count", "knock"),
    ("How many knocks were there?", "count", "knock"),
    ("At what time did someone knock?", "when_first", "knock"),
    ("Did anybody's phone go off?", "exists", "telephone"),
    ("Was the consultation interrupted by a ringing telephone?", "exists", "telephone"),
    ("List every time the phone rings", "when_all", "telephone"),
    ("Is there background music?", "exists", "music"),
    ("When does the music stop?", "when_first", "music"),
    ("Any beeping?", "exists", "alarm"),
    ("Any alarms going off during the exam?", "exists", "alarm"),
    ("Was a dog heard?", "exists", "dog"),
    ("Is a dog barking at any point?", "exists", "dog"),
    ("Can a dog be heard?", "exists", "dog"),
    ("When does the dog start barking?", "when_first", "dog"),
    ("was there music playing in the background?", "exists", "music"),
    ("Is any music audible during the consultation?", "exists", "music"),
    ("When does the radio come on?", "when_first", "music"),
    ("Did an alarm go off?", "exists", "alarm"),
    ("When does the beeping start?", "when_first", "alarm"),
    ("Was there an alarm or beeping sound at any point?", "exists", "alarm"),
    ("Did a smoke alarm sound?", "exists", "alarm"),
    ("How many times does something beep?", "count", "alarm"),
    ("Does a timer go off?", "exists", "alarm"),
]


@pytest.mark.parametrize("question,operation,event", ASKED)
def test_ambient_sound_questions_ask_for_the_sound(question, operation, event) -> None:
    spec = parse(normalise_shorthand(question), DUR)
    assert (spec.operation, spec.target, spec.event) == (operation, "event", event), spec


@pytest.mark.parametrize("question", [
    "What did the pharmacist say right after the phone rang?",
    "What was said just after the knock at the door?",
])
def test_what_was_said_after_a_sound_is_anchored_on_it(question) -> None:
    spec = parse(normalise_shorthand(question), DUR)
    assert spec.operation == "what_said" and spec.relative is not None and spec.relative[0] == "after"
    from harp_desktop.agent import lexicon as lx

    assert any(lx.EVENTS[k].search(spec.relative[1].lower()) for k in AMBIENT_LABELS)


@pytest.mark.parametrize("question", [
    "What did she say in the phone call?",            # a section, not a ringing phone
    "How many people talk on the phone call?",
    "Does she get ringing in her ears?",               # tinnitus
    "Did he say he knocked his knee on the table?",    # a knee, not a door
    "Has she knocked her elbow?",
    "Does the child have a barking cough?",            # croup
    "Did the doctor mention any red flag alarm symptoms?",
    "Did she say the dog bit her?",                    # reported, not heard
    "Did he mention that he enjoys music?",
])
def test_lookalike_wordings_are_not_ambient_sounds(question) -> None:
    spec = parse(normalise_shorthand(question), DUR)
    assert not (spec.target == "event" and spec.event in AMBIENT_LABELS), spec


def test_the_lexicon_knows_every_ambient_label() -> None:
    from harp_desktop.agent import lexicon as lx
    from harp_desktop.index.events import AMBIENT_CLASSES

    assert set(AMBIENT_LABELS) == set(AMBIENT_CLASSES) <= set(lx.EVENTS)
