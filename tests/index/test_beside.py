"""Work computed beside a running stage: handed over through the ahead cache, never computed twice, and the
rows are those of an index without it."""

from __future__ import annotations

import threading
import time

import numpy as np

from harp_desktop.api import Library
from harp_desktop.index import pipeline
from harp_desktop.index.beside import Beside
from harp_desktop.index.chunk_cache import ChunkCache, take_or
from tests.conftest import FAST, rows


def _jobs(calls: list[str], gate: threading.Event | None = None, n: int = 3):
    def compute(k: str):
        def run():
            if gate is not None:
                gate.wait(5)
            calls.append(k)
            return np.full(4, int(k[1:]), np.float32)
        return run
    return [(lambda k=f"k{i}": k, compute(f"k{i}")) for i in range(n)]


def test_the_stage_takes_what_was_computed_beside():
    cache, calls = ChunkCache(), []
    b = Beside(cache, _jobs(calls), threading.Event())
    b.join(5)
    got = [take_or(cache, lambda k=f"k{i}": k, lambda: None) for i in range(3)]
    assert [int(g[0]) for g in got] == [0, 1, 2] and calls == ["k0", "k1", "k2"]
    assert (cache.hits, cache.misses, b.computed, b.error) == (3, 0, 3, None)
    b.close()
    assert len(cache) == 0


def test_a_piece_the_stage_reaches_first_is_computed_once():
    cache, calls, gate = ChunkCache(), [], threading.Event()
    b = Beside(cache, _jobs(calls, gate), threading.Event())
    time.sleep(0.2)  # the thread holds k0 (claimed, computing) and waits at the gate
    mine = []
    assert cache.take("k2", timeout_s=0.1) is None  # not claimed yet: the stage computes k2 itself ...
    mine.append("k2")
    gate.set()
    assert int(cache.take("k0")[0]) == 0  # ... and waits for the one in progress
    cache.release("k2")
    b.join(5)
    assert sorted(calls + mine) == ["k0", "k1", "k2"]  # nobody computed a piece twice
    b.close()
    assert len(cache) == 0  # k1, computed and never taken, is dropped


def test_close_stops_the_thread_and_releases_its_claim():
    cache, calls, gate, stop = ChunkCache(), [], threading.Event(), threading.Event()
    b = Beside(cache, _jobs(calls, gate), stop)
    time.sleep(0.2)
    threading.Timer(0.2, gate.set).start()
    b.close()
    assert stop.is_set() and calls == ["k0"] and len(cache) == 0 and not cache.active()
    assert cache.take("k1", timeout_s=0.5) is None  # free for the stage


def test_a_failing_piece_leaves_it_to_the_stage():
    cache = ChunkCache()
    b = Beside(cache, [(lambda: "k", lambda: 1 / 0)], threading.Event())
    b.join(5)
    assert isinstance(b.error, ZeroDivisionError) and cache.take("k", timeout_s=0.5) is None
    b.close()


def test_rows_are_those_of_an_index_without_it(tmp_path, long_clip, monkeypatch):
    """The sounds tagger pass and Silero beside the events stage, the speaker windows beside asr: same rows,
    same stored arrays, and the stages took the pieces (cache hits)."""
    with Library(tmp_path / "with") as lib:
        res = lib.index(long_clip, FAST)
        cache = lib.models.ahead()
        got = rows(lib, res.recording_id)
        arrays = {n: lib.db.get_array(res.recording_id, n)[0] for n in
                  ("speaker_windows", "speaker_windows_campplus", "speaker_window_labels", "speaker_window_times")}
    assert res.cpu_seconds["beside events"] > 0.0 and res.cpu_seconds["beside asr"] > 0.0
    assert cache.hits >= 4 and len(cache) == 0  # sounds, Silero, GE2E's and CAM++'s group
    monkeypatch.setattr(pipeline, "beside_events", lambda *a, **k: None)
    monkeypatch.setattr(pipeline, "beside_asr", lambda *a, **k: None)
    with Library(tmp_path / "without") as lib:
        res2 = lib.index(long_clip, FAST)
        assert rows(lib, res2.recording_id) == got
        for n, a in arrays.items():
            assert np.array_equal(lib.db.get_array(res2.recording_id, n)[0], a), n
    assert not any(k.startswith("beside") for k in res2.cpu_seconds)
