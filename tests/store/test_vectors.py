import numpy as np

from harp_desktop.store.vectors import VectorStore


def test_search_restricted_to_allowed_ids(tmp_path):
    vs = VectorStore(tmp_path)
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(50, 384)).astype(np.float32)
    ids = np.arange(100, 150)
    vs.write("sha", "text", ids, vecs)
    hits = vs.search("sha", "text", vecs[7], k=3)
    assert hits[0][0] == 107 and abs(hits[0][1] - 1.0) < 1e-4
    allowed = {120, 121, 122}
    hits = vs.search("sha", "text", vecs[7], k=10, allowed_ids=allowed)
    assert {h[0] for h in hits} == allowed
    assert vs.search("sha", "text", vecs[7], allowed_ids=set()) == []
    assert np.allclose(vs.get("sha", "text", [107])[0], vecs[7] / np.linalg.norm(vecs[7]), atol=1e-5)


def test_empty_index_and_atomic_replace(tmp_path):
    vs = VectorStore(tmp_path)
    vs.write("sha", "speaker", np.array([], dtype=np.int64), np.zeros((0, 256), np.float32))
    assert vs.search("sha", "speaker", np.ones(256)) == []
    vs.write("sha", "speaker", np.array([1]), np.ones((1, 256), np.float32))
    assert vs.search("sha", "speaker", np.ones(256))[0][0] == 1
    assert not list((tmp_path / "vectors" / "sha").glob("*.partial"))
