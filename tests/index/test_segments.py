import numpy as np

from harp_desktop.index.segments import MAX_TURN_S, build_turns, speaker_pieces
from harp_desktop.types import Region, Word


def words_every(start, end, step=0.5):
    return [Word(t, t + step * 0.8, f" w{i}") for i, t in enumerate(np.arange(start, end - step * 0.8, step))]


def test_split_at_speaker_change_snaps_to_word_pause():
    regions = [Region(0.0, 8.0)]
    centres = np.arange(0.8, 8.0, 0.8)
    labels = np.array([0] * 4 + [1] * (len(centres) - 4))
    words = words_every(0.0, 8.0)
    segs = build_turns(speaker_pieces(regions, centres, labels, words), words)
    assert [s.speaker for s in segs] == [0, 1]
    cut = segs[0].end_s
    gaps = [(a.end_s + b.start_s) / 2 for a, b in zip(words, words[1:], strict=False)]
    assert min(abs(cut - g) for g in gaps) < 1e-6  # no word cut in half
    assert sum(len(s.words) for s in segs) == len(words)


def test_single_odd_window_is_not_a_change():
    centres = np.arange(0.8, 6.0, 0.8)
    labels = np.array([0, 0, 0, 1, 0, 0, 0])
    segs = build_turns(speaker_pieces([Region(0, 6)], centres, labels, []), [])
    assert len(segs) == 1 and segs[0].speaker == 0


def test_long_turn_split_evenly_and_same_speaker_regions_joined():
    regions = [Region(0, 10), Region(10.5, 20), Region(20.6, 40)]  # short pauses, one speaker
    centres = np.arange(0.8, 40, 0.8)
    words = words_every(0, 40)
    segs = build_turns(speaker_pieces(regions, centres, np.zeros(len(centres), int), words), words)
    assert len(segs) == 3
    durations = [s.end_s - s.start_s for s in segs]
    assert max(durations) <= MAX_TURN_S + 2.0 and max(durations) - min(durations) < 4.0


def test_short_turn_merged_into_neighbour_but_isolated_one_kept():
    regions = [Region(0, 5), Region(5.3, 5.8), Region(20, 20.6), Region(30, 35)]
    centres = np.array([1, 2, 3, 4, 5.55, 20.3, 31, 32, 33])
    labels = np.array([0, 0, 0, 0, 1, 1, 0, 0, 0])
    segs = build_turns(speaker_pieces(regions, centres, labels, []), [])
    spans = [(s.start_s, s.end_s) for s in segs]
    assert (0, 5.8) in spans  # 0.5 s piece absorbed by its close neighbour
    assert (20, 20.6) in spans  # nothing within 2 s: stays on its own


def test_empty_inputs():
    assert build_turns(speaker_pieces([], np.zeros(0), np.zeros(0, int), []), []) == []
    segs = build_turns(speaker_pieces([Region(0, 3)], np.zeros(0), np.zeros(0, int), []), [])
    assert len(segs) == 1 and segs[0].speaker is None


def test_reply_word_timed_early_moves_to_the_reply():
    from harp_desktop.index.segments import _move_sentence_tails
    from harp_desktop.types import Segment

    a = Segment(0, 3, 0, [Word(0, 1, " How"), Word(1, 2, " long?"), Word(2.6, 2.9, " About")])
    b = Segment(3.2, 5, 1, [Word(3.2, 3.5, " a"), Word(3.5, 4, " week.")])
    _move_sentence_tails([a, b])
    assert a.text == "How long?" and b.text == "About a week."
