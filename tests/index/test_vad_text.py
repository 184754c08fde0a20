import numpy as np

from harp_desktop import weights
from harp_desktop.audio.decode import load_clip
from harp_desktop.index.text_embed import TextEmbedder
from harp_desktop.index.vad import speech_regions
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


def test_text_embeddings_rank_paraphrase_first():
    emb = TextEmbedder(weights.model_file("text", "model.onnx"), weights.model_file("text", "tokenizer.json"))
    v = emb.embed(["My chest feels tight", "I have chest tightness", "The car park was full", ""])
    assert v.shape == (4, 384) and np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert v[0] @ v[1] > 0.6 > v[0] @ v[2]
    assert emb.embed([]).shape == (0, 384)
