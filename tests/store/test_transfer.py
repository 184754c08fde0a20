import numpy as np

from harp_desktop.api import Library
from harp_desktop.store.transfer import Store, copy_recording
from tests.conftest import copy_library, rows


def _store(lib: Library) -> Store:
    return Store(lib.db, lib.vectors)


def _count(lib: Library, table: str) -> int:
    return lib.db.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_copy_gives_same_rows_arrays_vectors_and_audio(indexed, tmp_path):
    src, res = indexed
    with Library(tmp_path / "dst") as dst:
        dst.db.db["recordings"].insert({"sha256": "0" * 64, "path": "/x", "name": "x", "duration_s": 1.0,
                                        "added_at": "2026"})  # ids in the copy differ from the source
        rid, what = copy_recording(_store(src), _store(dst), res.sha256)
        assert what == "added" and rid != res.recording_id
        assert rows(dst, rid) == rows(src, res.recording_id)
        for name in ("speaker_windows", "event_embeddings", "event_scores"):
            a, _ = src.db.get_array(res.recording_id, name)
            b, meta = dst.db.get_array(rid, name)
            assert np.array_equal(np.asarray(a), np.asarray(b)) and "_file" not in meta
        assert (dst.folder / "audio" / f"{res.sha256}.f32").read_bytes() == (
            src.folder / "audio" / f"{res.sha256}.f32").read_bytes()
        # Vector labels are segment ids: relabelled, they must point at the same segments.
        seg = src.db.segments(res.recording_id)[1]
        q = src.vectors.get(res.sha256, "text", [seg["id"]])[0]
        hits_src = [(s["idx"], round(x, 4)) for s, x in src.nearest(res.sha256, "text", q, k=5)]
        hits_dst = [(s["idx"], round(x, 4)) for s, x in dst.nearest(res.sha256, "text", q, k=5)]
        assert hits_dst == hits_src and hits_src[0][0] == seg["idx"]
        fts = dst.db.db.execute("SELECT count(*) FROM segments_fts WHERE segments_fts MATCH 'pain'").fetchone()[0]
        assert fts == src.db.db.execute(
            "SELECT count(*) FROM segments_fts WHERE segments_fts MATCH 'pain'").fetchone()[0] > 0


def test_copy_again_is_a_no_op_and_answers_merge_once(indexed, tmp_path):
    lib0, res = indexed
    with copy_library(lib0.folder, tmp_path / "src") as src, Library(tmp_path / "dst") as dst:
        rid, _ = copy_recording(_store(src), _store(dst), res.sha256)
        before = {t: _count(dst, t) for t in ("segments", "words", "tags", "arrays", "stages")}
        dst.db.store_answer(rid, {"question": "q?", "answer": "Yes", "supported": True})
        rid2, what = copy_recording(_store(src), _store(dst), res.sha256)
        assert (rid2, what) == (rid, "unchanged")
        assert {t: _count(dst, t) for t in before} == before
        assert len(dst.db.answers(rid)) == 1
        # An answer made in the source arrives once, however often the copy runs.
        src_answer = src.db.store_answer(res.recording_id, {"question": "cough?", "answer": "No", "supported": False})
        try:
            copy_recording(_store(src), _store(dst), res.sha256)
            copy_recording(_store(src), _store(dst), res.sha256)
            assert [a["question"] for a in dst.db.answers(rid)] == ["q?", "cough?"]
        finally:
            src.db.db.execute("DELETE FROM answers WHERE id = ?", [src_answer])


def test_stale_destination_is_replaced_and_keeps_speaker_names(indexed, tmp_path):
    src, res = indexed
    with Library(tmp_path / "dst") as dst:
        rid, _ = copy_recording(_store(src), _store(dst), res.sha256)
        dst.rename_speaker(res.sha256, "SPEAKER_1", "Dr Patel")
        dst.db.db.execute("UPDATE stages SET fingerprint = 'old' WHERE recording_id = ? AND stage = 'asr'", [rid])
        dst.db.db.execute("DELETE FROM segments WHERE recording_id = ? AND idx > 0", [rid])
        rid2, what = copy_recording(_store(src), _store(dst), res.sha256)
        assert (rid2, what) == (rid, "replaced")
        assert rows(dst, rid) == rows(src, res.recording_id)
        assert dst.db.speakers(rid)[0]["name"] == "Dr Patel"
        assert _count(dst, "segments") == len(src.db.segments(res.recording_id))
