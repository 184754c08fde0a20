import math
import time

import pytest

from harp_desktop.retrieval.localize import Window, format_clock, localize, parse_clock

INF = math.inf
D = 3600.0  # a one-hour recording

# (question, duration_s, expected (start, end, anchor) or None)
CASES = [
    # around: anchor +/- 30 s
    ("What is said around 5 minutes?", None, (270, 330, 300)),
    ("What happens about 5 minutes in?", None, (270, 330, 300)),
    ("Who speaks around the 5 minute mark?", None, (270, 330, 300)),
    ("Who speaks around 05:00?", None, (270, 330, 300)),
    ("Around 01:08 a man says 'Kids are talking by the door'. What is his emotional tone?", None, (38, 98, 68)),
    ("What is said roughly 90 seconds into the recording?", None, (60, 120, 90)),
    # at: anchor +/- 15 s
    ("What is said at 04:07?", None, (232, 262, 247)),
    ("What is said at 4:07?", None, (232, 262, 247)),
    ("How does the man speaking at 00:30 sound?", None, (15, 45, 30)),
    ("What emotion does the woman's voice convey at 00:43?", None, (28, 58, 43)),
    ("Describe the emotional state of the speaker at 06:17.", None, (362, 392, 377)),
    ("What does she say at 4:52?", None, (277, 307, 292)),
    ("What is said at 90 seconds?", None, (75, 105, 90)),
    ("What does he say 30 seconds in?", None, (15, 45, 30)),
    ("Who talks at 00:05?", None, (0, 20, 5)),
    ("What is said at 1:02:03?", None, (3708, 3738, 3723)),
    ("What is said at 1 h 20 min?", None, (4785, 4815, 4800)),
    ("What is said at the 10 minute mark?", None, (585, 615, 600)),
    ("What does she say 04:07 into the call?", None, (232, 262, 247)),
    # ranges
    ("What did the patient say about medication between minute 3 and minute 4?", None, (180, 240, None)),
    ("Is anyone coughing between minute 6 and minute 7?", None, (360, 420, None)),
    ("What is said between minute 2 and 3?", None, (120, 180, None)),
    ("What is said between minute 2 and minute 3?", None, (120, 180, None)),
    ("What is said between 2 and 3 minutes?", None, (120, 180, None)),
    ("What is said from minute 2 to minute 3?", None, (120, 180, None)),
    ("Summarise 52:30 to 53:10.", None, (3150, 3190, None)),
    ("Summarise from 52:30 until 53:10.", None, (3150, 3190, None)),
    ("What is discussed between 52:30 and 53:10?", None, (3150, 3190, None)),
    ("What happens 52:30-53:10?", None, (3150, 3190, None)),
    # first / last
    ("What is said in the last ten minutes?", D, (3000, 3600, None)),
    ("What is said in the last ten minutes?", None, None),
    ("What is said in the last 2 minutes?", D, (3480, 3600, None)),
    ("What is said in the last minute?", D, (3540, 3600, None)),
    ("What is said in the last half hour?", D, (1800, 3600, None)),
    ("In the first minute of the recording, where does the woman called Sheila say she is originally from?",
     None, (0, 60, None)),
    ("What is said in the first 5 minutes?", None, (0, 300, None)),
    ("Who speaks in the first five minutes?", None, (0, 300, None)),
    ("What is said in the last 10 minutes?", 300.0, (0, 300, None)),  # longer than the recording: clamped
    # after / before
    ("What is said after 3 minutes?", None, (180, INF, None)),
    ("What is said after 03:00?", 600.0, (180, 600, None)),
    ("What is said after an hour?", None, (3600, INF, None)),
    ("What is said after an hour and a half?", None, (5400, INF, None)),
    ("What is said after 1 hour and 20 minutes?", None, (4800, INF, None)),
    ("What is said before 2:00?", None, (0, 120, None)),
    ("What is said before minute 2?", None, (0, 120, None)),
    ("What is said from minute 2 onwards?", 300.0, (120, 300, None)),
    # nth minute, start, end
    ("What is said in minute 5?", None, (240, 300, None)),
    ("What is said during the fifth minute?", None, (240, 300, None)),
    ("What is said in the twenty-first minute?", None, (1200, 1260, None)),
    ("What is said in the twenty first minute?", None, (1200, 1260, None)),
    ("What is said at the start?", None, (0, 60, None)),
    ("What is said at the beginning of the recording?", None, (0, 60, None)),
    # a bare "the end" is a share of the recording (20 %, within 1-5 minutes); "the very end" a minute
    ("What is said at the end?", D, (3300, 3600, None)),
    ("What is said towards the end?", 1000.0, (800, 1000, None)),
    ("What is said at the very end?", D, (3540, 3600, None)),
    ("Near the start, who talks?", 200.0, (0, 60, None)),
    ("What is said at the end?", None, None),
    # several expressions: the first wins
    ("At 00:30 and again at 04:07, who speaks?", None, (15, 45, 30)),
    ("Between minute 1 and 2, and then at 06:17, who coughs?", None, (60, 120, None)),
    # unicode digits
    ("What is said at \uff10\uff14:\uff10\uff17?", None, (232, 262, 247)),
    ("What is said at \u0660\u0664:\u0660\u0667?", None, (232, 262, 247)),
    # clamped / outside the recording
    ("What is said at 06:17?", 300.0, None),
    # negatives: numbers that are not times
    ("What temperature reading did the patient say she had at home?", None, None),
    ("What temperature did she report? 38.2 degrees?", None, None),
    ("How long has the chest tightness been going on?", None, None),
    ("Has it been going on for about three days?", None, None),
    ("Did the doctor prescribe 50 micrograms?", None, None),
    ("Does he smoke ten a day?", None, None),
    ("Did the pain last for about 5 minutes?", None, None),
    ("Did she ask about a second opinion?", None, None),
    ("Is the clinic open at 10:30 am?", None, None),
    ("What happened at the end of the day?", D, None),
    ("In the end, what did they decide?", D, None),
    ("Was it a last-minute change?", D, None),
    ("Does she take it from 2 to 3 times a day?", None, None),
    ("Who are the speakers?", None, None),
    ("", None, None),
    # a time written with its SI symbol
    ("Between 23 s and 598 s, did her valence rise?", D, (23.0, 598.0, None)),
    ("between 23s and 598s when did he cough?", D, (23.0, 598.0, None)),
    ("In the 1980s did he smoke?", D, None),
]


@pytest.mark.parametrize(("question", "duration", "expected"), CASES)
def test_localize_table(question, duration, expected):
    w = localize(question, duration)
    if expected is None:
        assert w is None, w
        return
    start, end, anchor = expected
    assert w is not None, question
    assert (w.start_s, w.end_s) == pytest.approx((start, end))
    assert w.anchor_s == (None if anchor is None else pytest.approx(anchor))
    assert w.start_s < w.end_s
    if question.isascii():
        assert w.text and w.text.lower() in question.lower()


def test_window_keeps_the_phrase():
    w = localize("Describe the emotional state of the speaker at 06:17.")
    assert w == Window(362.0, 392.0, 377.0, "at 06:17")


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("04:07", 247.0), ("4:07", 247.0), ("1:02:03", 3723.0), ("52:30", 3150.0), ("4:52", 292.0), ("00:00", 0.0),
     (" 04:07 ", 247.0), ("04:07.5", 247.5)],
)
def test_parse_clock(text, seconds):
    assert parse_clock(text) == seconds


@pytest.mark.parametrize("text", ["", "4:7", "4:75", "1:60:00", "abc", "12", "1:02:03:04", ":30", "4.52", "x" * 100])
def test_parse_clock_rejects(text):
    assert parse_clock(text) is None


def test_format_clock():
    assert format_clock(247.0) == "04:07"
    assert format_clock(3723.0) == "1:02:03"
    assert format_clock(0.0) == "00:00"
    assert format_clock(59.6) == "01:00"
    assert format_clock(3600.0) == "1:00:00"
    assert format_clock(-5.0) == "00:00"


@pytest.mark.parametrize("t", [0, 1, 59, 60, 247, 292, 3149, 3150, 3599, 3600, 3723, 36000, 86399])
def test_format_parse_round_trip(t):
    assert parse_clock(format_clock(float(t))) == float(t)


@pytest.mark.parametrize(
    "text",
    [
        "a" * 10_000,
        "1 " * 5_000,
        "1:00 " * 2_000,
        "between 1 and " * 700,
        "at the " * 1_400,
        "around " * 1_400 + "5 minutes",
        "twenty-" * 1_400,
        "\u0661\u0662:" * 3_000,
        "\u4e2d\u6587\u95ee\u9898\u3002" * 2_000,
        "\u00e9\u00e8\U0001f600 " * 2_500,
        "first " * 1_400 + "minute",
        "9" * 10_000,
        ":" * 10_000,
    ],
)
def test_hostile_input_is_fast_and_safe(text):
    t0 = time.perf_counter()
    localize(text)
    localize(text, 600.0)
    assert time.perf_counter() - t0 < 1.0


def test_long_question_with_a_time_near_the_end():
    q = "blah " * 2_000 + "what is said at 04:07?"
    t0 = time.perf_counter()
    w = localize(q)
    assert time.perf_counter() - t0 < 1.0
    assert w is not None and w.anchor_s == 247.0


@pytest.mark.parametrize("duration", [float("nan"), float("inf"), -1.0])
def test_bad_duration_treated_as_unknown(duration):
    w = localize("after 3 minutes", duration)
    assert w is not None and w.start_s == 180.0 and w.end_s == INF


def test_a_time_to_the_second_beats_a_vague_stretch_named_before_it():
    w = localize("Right at the end of the consultation (about 10:00) how does she say she feels?", 720.0)
    assert w.anchor_s == 600.0
    w = localize("Near the start, around 0:45, who speaks?", 720.0)
    assert w.anchor_s == 45.0
    # A range stays what it says; so does a vague stretch with no time in it.
    assert localize("Between 2:00 and 4:00, at 3:10 what is said?", 720.0).anchor_s is None
    assert localize("In the last two minutes, does anyone cough?", 720.0).anchor_s is None
