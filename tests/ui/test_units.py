"""The GUI's pure helpers: envelope pyramid, citation links, answer HTML."""

from __future__ import annotations

import numpy as np

from harp_desktop.ui import answer_html, envelope
from harp_desktop.ui.timefmt import clock, link_citations, parse_anchor, parse_clock


def test_envelope_levels_view_and_cache(tmp_path):
    sr = 16000
    x = np.zeros(sr * 600, dtype=np.float32)  # 10 minutes
    x[sr * 100: sr * 101] = 0.5  # one loud second at 100 s
    x[sr * 100 + 7] = -0.9
    cache = tmp_path / "abc.f32"
    x.tofile(cache)
    env = envelope.load_or_build(cache)
    assert env.levels >= 3 and len(env.mins[-1]) <= envelope.MIN_BINS
    assert np.isclose(float(env.maxs[0].max()), 0.5, atol=1e-3) and np.isclose(float(env.mins[-1].min()), -0.9,
                                                                                 atol=1e-3)
    xs, ys = env.view(0, 600, 1000)  # whole file: bounded by the pixel budget, not the length
    assert 0 < len(xs) <= 2 * 1000 + 8 and ys.max() > 0.49
    xs, ys = env.view(100.0, 100.01, 1000)  # 160 samples: the samples themselves
    assert len(xs) == 161 and np.isclose(xs[0], 100.0)
    assert envelope.envelope_path(cache).exists()
    again = envelope.load(envelope.envelope_path(cache), envelope.open_cache(cache))
    assert again is not None and again.levels == env.levels
    assert envelope.load(envelope.envelope_path(cache), np.zeros(5, np.float32)) is None  # stale: other length


def test_citations_link_to_exact_spans():
    html = link_citations("Yes <b> [00:05-00:09] and [01:02]", exact=[(5.2, 8.6)])
    assert '<a href="t:5.200-8.600">[00:05-00:09]</a>' in html
    assert '<a href="t:62.000-62.000">[01:02]</a>' in html and "&lt;b&gt;" in html
    assert parse_anchor("t:5.200-8.600") == (5.2, 8.6) and parse_anchor("http://x") is None
    assert parse_clock("1:01:05") == 3665 and clock(65.45, tenths=True) == "01:05.4" and clock(3725) == "1:02:05"


def test_unsupported_answers_are_marked():
    a = {"question": "q", "answer": "Not found", "rationale": "nothing", "supported": False, "evidence": [],
         "citations": [], "notes": ["no evidence"], "timings_s": {"total": 0.1}, "models": {}}
    assert answer_html.UNSUPPORTED_BADGE in answer_html.render(a)
    assert answer_html.UNSUPPORTED_BADGE not in answer_html.render({**a, "supported": True})
    # "No — not mentioned" (the answer policy's absence) has nothing to cite: said so, not badged.
    no = answer_html.render({**a, "answer": "No", "rationale": "No \u2014 not mentioned: no statement about X."})
    assert answer_html.UNSUPPORTED_BADGE not in no and answer_html.ABSENCE_NOTE in no
    cited = {**a, "answer": "No", "rationale": "No \u2014 not mentioned.", "citations": [{"start_s": 1, "end_s": 2}]}
    assert answer_html.UNSUPPORTED_BADGE in answer_html.render(cited)  # a cited claim that failed the check


def test_many_signal_emits_do_not_crash_the_interpreter(qapp):
    """PySide6 6.12.0 drops a reference to True per emit() and to None per singleShot(callable);
    without harp_desktop.ui.qt_guard this aborts CPython 3.11 after a few thousand emits."""
    import sys

    from PySide6.QtCore import QObject, QTimer, Signal

    class Pinger(QObject):
        ping = Signal(object)

    p = Pinger()
    for _ in range(50_000):
        p.ping.emit(None)
    for _ in range(20_000):
        QTimer.singleShot(0, int)
    qapp.processEvents()
    assert sys.getrefcount(True) > 10_000 and sys.getrefcount(None) > 10_000
