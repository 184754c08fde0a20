"""The headless API's transcript: what `harp show --json` prints."""

import json

import numpy as np

from harp_desktop.api import _segment_emotions
from harp_desktop.cli import main
from harp_desktop.index.emotion import MIN_SEGMENT_S
from harp_desktop.index.emotion_dims import places


def test_show_json_segments_carry_emotion_and_coughs_are_labelled(indexed, capsys):
    lib, res = indexed
    assert main(["show", res.sha256[:10], "--library", str(lib.folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    probs, meta = lib.db.get_array(res.recording_id, "emotion_probs")
    by_id = dict(zip(meta["segment_ids"], probs, strict=True))
    assert data["segments"] and all("emotion" in s for s in data["segments"])
    for s in data["segments"]:
        if s["end_s"] - s["start_s"] < MIN_SEGMENT_S:
            assert s["emotion"] is None  # too short to classify
            continue
        p = by_id[s["id"]]
        a, v = places(p, meta["labels"], ["arousal", "valence"])[0]
        assert s["emotion"] == {"label": meta["labels"][int(np.argmax(p))], "score": round(float(p.max()), 4),
                                "arousal": round(float(a), 4), "valence": round(float(v), 4)}  # issue 18
        assert 0.0 < s["emotion"]["score"] <= 1.0
    # A library indexed before the segment_emotion table shows the same, computed from the probabilities.
    assert _segment_emotions(lib.db.get_array(res.recording_id, "emotion_probs")) == lib.db.segment_emotions(
        res.recording_id)
    # The clip holds two real coughs (cough_1 at 10.37-10.91 s, cough_2 later): each is an event labelled cough.
    coughs = [e for e in data["events"] if e["label"] == "cough"]
    assert any(e["start_s"] < 10.91 and e["end_s"] > 10.37 for e in coughs)
    assert len(coughs) >= 2 and all(0 < e["score"] < 1 for e in coughs)
