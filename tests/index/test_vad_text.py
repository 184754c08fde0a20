import numpy as np

from harp_desktop import weights
from harp_desktop.audio.decode import load_clip
from harp_desktop.index.text_embed import TextEmbedder
from harp_desktop.index.vad import RESCUE_LOGIT, rescue_regions, speech_regions
from harp_desktop.types import Region
from tests.conftest import DATA


def test_vad_finds_the_two_utterances(clips):
    audio = load_clip(DATA / "speech_two_speakers.flac")
    regions = speech_regions(audio)
    items = clips["clips"]["speech_two_speakers"]["items"]
    for it in items:
        assert any(r.start_s <= it["start_s"] + 0.3 and r.end_s >= it["end_s"] - 0.3 for r in regions)
    assert speech_regions(np.zeros(16000 * 3, np.float32)) == []


def test_vad_block_boundaries_rejoin(monkeypatch):
    import harp_desktop.index.vad as vad

    audio = load_clip(DATA / "speaker_a_1.flac")
    whole = speech_regions(audio)
    monkeypatch.setattr(vad, "_BLOCK_S", 1.5)  # force a block boundary inside the speech
    blocked = vad.speech_regions(audio)
    assert abs(blocked[0].start_s - whole[0].start_s) < 0.1 and abs(blocked[-1].end_s - whole[-1].end_s) < 0.2


def test_rescue_adds_confident_tagger_speech_silero_missed_and_joins_touching_regions():
    """Cells every 0.48 s (patch 0.975 s). Silero found [10, 12]. The tagger hears speech at
    3.0-4.44 s (3 cells: a missed line), at 8.6-9.6 (3 cells whose patches reach into the
    Silero region: it starts earlier), and at 20.0 s alone (1 cell: a loud moment, not a line); 30 s is room tone."""
    times = np.arange(0, 40, 0.48) + 0.4875
    logit = np.full(len(times), -6.0, np.float32)
    for a, b in ((3.0, 4.5), (8.5, 9.7)):
        logit[(times >= a) & (times <= b)] = RESCUE_LOGIT + 1.5
    logit[(times >= 10) & (times <= 12)] = 5.0  # inside Silero's region: nothing to add
    logit[np.argmin(np.abs(times - 20.0))] = 6.0
    logit[(times >= 30) & (times <= 31)] = RESCUE_LOGIT - 0.5  # below the bar
    got, added = rescue_regions([Region(10.0, 12.0)], logit, times, 0.975, 40.0)
    cells = times[(times >= 3.0) & (times <= 4.5)]
    assert len(added) == 2 and len(got) == 2 and added[0] == got[0]
    assert got[0] == Region(round(cells[0] - 0.4875, 3), round(cells[-1] + 0.4875, 3))
    assert got[1].end_s == 12.0 and 8.0 < got[1].start_s < 8.5  # joined: one region, starting earlier
    assert rescue_regions([], np.full(5, -6.0), np.arange(5) * 0.48, 0.975, 3.0) == ([], [])


def test_text_embeddings_rank_paraphrase_first():
    emb = TextEmbedder(weights.model_file("text", "model.onnx"), weights.model_file("text", "tokenizer.json"))
    v = emb.embed(["My chest feels tight", "I have chest tightness", "The car park was full", ""])
    assert v.shape == (4, 384) and np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert v[0] @ v[1] > 0.6 > v[0] @ v[2]
    assert emb.embed([]).shape == (0, 384)
