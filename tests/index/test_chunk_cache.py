"""The ahead cache: keys follow every input a chunk reads, claims make the stage wait instead of recomputing."""

from __future__ import annotations

import threading
import time

import numpy as np

from harp_desktop.index.chunk_cache import ChunkCache, ChunkResult, chunk_key
from harp_desktop.types import Region, Word


def test_key_changes_with_any_input_the_chunk_reads():
    audio = np.random.default_rng(0).standard_normal(16000 * 10).astype(np.float32) * 0.1
    chunk = [Region(1.0, 2.5), Region(4.0, 6.0)]
    key = chunk_key("fp", 2, None, audio, chunk)
    assert key == chunk_key("fp", 2, None, audio.copy(), list(chunk))
    inside, repair_pad, outside = audio.copy(), audio.copy(), audio.copy()
    inside[int(5.0 * 16000)] += 1e-4
    repair_pad[int(6.2 * 16000)] += 1e-4  # the repair pass's 0.3 s padding is read too
    outside[int(8.0 * 16000)] += 1e-4
    assert chunk_key("fp", 2, None, inside, chunk) != key
    assert chunk_key("fp", 2, None, repair_pad, chunk) != key
    assert chunk_key("fp", 2, None, outside, chunk) == key
    assert chunk_key("fp", 2, None, audio, [Region(1.0, 2.5), Region(4.0, 6.001)]) != key
    assert chunk_key("fp", 2, "en", audio, chunk) != key
    assert chunk_key("fp", 1, None, audio, chunk) != key
    assert chunk_key("fp2", 2, None, audio, chunk) != key


def test_take_waits_for_a_claimed_key_and_a_miss_is_claimed_by_the_stage():
    cache = ChunkCache()
    result = ChunkResult([Word(0.0, 0.5, " hi", 0.9)], "en", None)
    assert cache.claim("k")
    assert not cache.claim("k")  # nobody computes a key twice
    threading.Timer(0.3, cache.put, ["k", result]).start()
    t0 = time.monotonic()
    assert cache.take("k") is result
    assert time.monotonic() - t0 >= 0.25
    assert cache.take("k") is None  # taken once; the miss is now the stage's
    assert not cache.claim("k")
    cache.release("k")
    assert cache.claim("k")
    cache.release("k")
    assert (cache.hits, cache.misses) == (1, 1)


def test_released_claim_wakes_the_stage_and_size_is_bounded():
    cache = ChunkCache(max_bytes=1000)
    assert cache.claim("k")
    threading.Timer(0.2, cache.release, ["k"]).start()
    assert cache.take("k", timeout_s=5.0) is None
    cache.release("k")
    for i in range(5):
        cache.put(f"a{i}", np.zeros(100, np.float32))  # 400 bytes each: the oldest go
    assert len(cache) == 2 and cache.active() and cache.take("a4") is not None and cache.take("a0") is None


def test_poll_takes_a_result_defers_a_busy_key_and_claims_a_free_one():
    cache = ChunkCache()
    cache.put("held", np.zeros(3, np.float32))
    assert cache.claim("busy")
    state, got = cache.poll("held")
    assert state == "held" and got is not None and len(cache) == 0
    assert cache.poll("busy") == ("busy", None)  # not claimed away from the worker
    assert cache.poll("free") == ("yours", None) and not cache.claim("free")
    cache.release("free")
    cache.begin_planning()
    assert cache.poll("other") == ("busy", None)  # a worker is still claiming what it will compute
    cache.end_planning()
    assert (cache.hits, cache.misses) == (1, 1)
