"""Answers about sounds of the room, from stored rows: a telephone, a knock, music. The rows are
written into a copy of the shared indexed clip (as the sounds stage writes them), so the answers
read what the index holds; no language model."""

from __future__ import annotations

import pytest

from harp_desktop.index.ambient_labels import AMBIENT_SOURCE
from harp_desktop.retrieval.localize import parse_clock
from tests.conftest import copy_library

ROOM = [("telephone", 2.0, 9.5, 0.98), ("telephone", 20.0, 23.0, 0.95), ("knock", 12.0, 13.0, 0.8)]


@pytest.fixture(scope="module")
def room(indexed, tmp_path_factory):
    lib, res = indexed
    mine = copy_library(lib.folder, tmp_path_factory.mktemp("room") / "lib")
    rid = next(r["id"] for r in mine.db.db.query("SELECT id FROM recordings WHERE sha256 = ?", [res.sha256]))
    with mine.db.transaction() as db:
        db.execute("DELETE FROM tags WHERE recording_id = ? AND source = ?", [rid, AMBIENT_SOURCE])
        for label, a, b, score in ROOM:
            db.execute("INSERT INTO tags (recording_id, kind, label, start_s, end_s, score, source) "
                       "VALUES (?, 'event', ?, ?, ?, ?, ?)", [rid, label, a, b, score, AMBIENT_SOURCE])
    yield mine, res
    mine.close()


def test_when_how_many_and_whether_the_phone_rang(room):
    lib, res = room
    when = lib.ask(res.sha256, "When does the phone ring?")
    assert abs(parse_clock(when.answer) - 2.0) <= 1.0, when.rationale
    n = lib.ask(res.sha256, "How many times did the phone ring?")
    assert n.answer == "2", n.rationale  # two ring sequences; the one of 2-9.5 s is not split into its rings
    yes = lib.ask(res.sha256, "Was there a knock at the door?")
    assert yes.answer == "Yes" and "[00:12" in yes.rationale
    no = lib.ask(res.sha256, "Is a dog barking at any point?")
    assert no.answer == "No" and "not heard" in no.rationale
    music = lib.ask(res.sha256, "Was there music playing in the background?")
    assert music.answer == "No"


def test_a_room_sound_is_nobodys(room):
    """"Did the patient's phone ring?": a ring is no speaker's sound, so every ring counts (and a note says so)."""
    lib, res = room
    got = lib.ask(res.sha256, "How many times did the patient's phone ring?")
    assert got.answer == "2", (got.rationale, got.notes)


def test_what_was_said_right_after_the_phone_rang(room):
    lib, res = room
    segs = sorted(lib.transcript(res.sha256)["segments"], key=lambda s: s["start_s"])
    after = [s for s in segs if s["start_s"] >= 9.5 - 1.0 and s["text"].strip()]
    got = lib.ask(res.sha256, "What was said right after the phone rang?")
    assert after and got.answer == after[0]["text"].strip()[:220], (got.answer, after[0])
    assert "[00:02" in got.rationale  # the ring it follows is cited too
    assert got.supported


def test_cough_answers_keep_their_bursts(room):
    """Ambient rows do not change what the cough answers count."""
    lib, res = room
    coughs = [e for e in lib.transcript(res.sha256)["events"] if e["label"] == "cough"]
    assert lib.ask(res.sha256, "How many coughs can be heard?").answer == str(len(coughs))


def test_when_a_sound_stops_is_its_end(room):
    lib, res = room
    got = lib.ask(res.sha256, "When does the phone stop ringing?")
    assert abs(parse_clock(got.answer) - 9.5) <= 1.0, got.rationale


def test_what_sound_is_heard_names_the_sound_not_the_words(room):
    lib, res = room
    got = lib.ask(res.sha256, "What sound can be heard at 00:12?")
    assert got.answer == "knocking" and got.supported, got.rationale  # the knock at 12-13 s, nearest the time
