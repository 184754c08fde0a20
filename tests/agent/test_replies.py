import pytest

from harp_desktop.agent.replies import add_replies, asks, reply_to
from harp_desktop.types import Evidence

SEGS = [
    {"id": 1, "start_s": 0.0, "end_s": 2.0, "speaker": "DR", "text": "Do you smoke, or have you ever smoked?"},
    {"id": 2, "start_s": 2.5, "end_s": 6.0, "speaker": "PT", "text": "I used to. I stopped five years ago."},
    {"id": 3, "start_s": 6.5, "end_s": 8.0, "speaker": "DR", "text": "Well done. Any allergies?"},
    {"id": 4, "start_s": 20.0, "end_s": 22.0, "speaker": "PT", "text": "Not that I know of."},
    {"id": 5, "start_s": 23.0, "end_s": 24.0, "speaker": "PT", "text": "Is it serious?"},
    {"id": 6, "start_s": 24.5, "end_s": 26.0, "speaker": "PT", "text": "I mean really."},
]


def ev(seg, score=0.5):
    return Evidence(seg["start_s"], seg["end_s"], seg["id"], seg["speaker"], seg["text"], [], {"fused": score})


def test_asks_looks_at_the_last_sentence():
    assert asks("Do you smoke?") and asks("Well done. Any allergies?")
    assert not asks("Is it bad? It hurts.") and not asks("")


def test_reply_is_the_next_turn_by_another_speaker_soon_after():
    assert reply_to(SEGS, 1)["id"] == 2
    assert reply_to(SEGS, 3) is None  # the next turn starts 12 s later: not a reply
    assert reply_to(SEGS, 5) is None  # the same speaker goes on
    assert reply_to(SEGS, 99) is None


def test_replies_are_added_once_and_marked():
    got = add_replies([ev(SEGS[0], 0.9), ev(SEGS[2], 0.3)], SEGS, lambda s, score:
                      Evidence(s["start_s"], s["end_s"], s["id"], s["speaker"], s["text"], [], {"reply": score}))
    assert [e.segment_id for e in got] == [1, 2, 3]
    assert got[1].scores == {"reply": pytest.approx(0.81)}
    again = add_replies(got, SEGS, lambda s, score: ev(s, score))
    assert [e.segment_id for e in again] == [1, 2, 3]  # the reply is already there
