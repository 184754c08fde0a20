import io
import json
import tarfile

import pytest

from harp_desktop.api import Library
from harp_desktop.store.bundle import BundleError, export_bundle, import_bundle
from tests.conftest import rows


def _recordings(folder) -> int:
    with Library(folder) as lib:
        return len(lib.db.recordings())


def test_round_trip_opens_the_same_library(indexed, tmp_path):
    src, res = indexed
    out = tmp_path / "lib.harplib"
    manifest = export_bundle(src.db, out, audio=True)
    assert [r["sha256"] for r in manifest["recordings"]] == [res.sha256]
    assert f"audio/{res.sha256}.f32" in manifest["files"] and "library.sqlite" in manifest["files"]
    audit = list(src.db.db.query("SELECT kind, path, bytes FROM exports WHERE kind = 'library-bundle'"))
    assert audit[-1]["path"] == str(out) and audit[-1]["bytes"] == out.stat().st_size
    with Library(tmp_path / "laptop") as dst:
        got = import_bundle(out, dst.db)
        assert [(g["sha256"], g["status"]) for g in got] == [(res.sha256, "added")]
        rid = got[0]["id"]
        assert rows(dst, rid) == rows(src, res.recording_id)
        a, b = src.transcript(res.sha256), dst.transcript(res.sha256)
        for part in ("speakers", "events", "stages"):
            assert a[part] == b[part]
        assert [s["text"] for s in a["segments"]] == [s["text"] for s in b["segments"]]
        q = src.vectors.get(res.sha256, "audio", [a["segments"][0]["id"]])[0]
        assert [s["idx"] for s, _ in dst.nearest(res.sha256, "audio", q, k=3)] == [
            s["idx"] for s, _ in src.nearest(res.sha256, "audio", q, k=3)]
        assert (dst.folder / "audio" / f"{res.sha256}.f32").exists()
        assert [g["status"] for g in import_bundle(out, dst.db)] == ["unchanged"]  # idempotent
        assert len(dst.db.segments(rid)) == len(src.db.segments(res.recording_id))
        assert not [p for p in dst.folder.iterdir() if p.name.startswith(".import-")]


def test_without_audio_the_index_still_opens(indexed, tmp_path):
    src, res = indexed
    out = tmp_path / "lib.harplib"
    manifest = export_bundle(src.db, out)
    assert not [f for f in manifest["files"] if f.startswith("audio/")]
    with Library(tmp_path / "laptop") as dst:
        import_bundle(out, dst.db)
        assert not (dst.folder / "audio" / f"{res.sha256}.f32").exists()
        assert dst.transcript(res.sha256)["segments"]


def _rewrite(src, dst, change):
    """Copy a tar, letting ``change(name, data)`` alter members (None drops one)."""
    with tarfile.open(src) as tin, tarfile.open(dst, "w") as tout:
        for m in tin.getmembers():
            data = change(m.name, tin.extractfile(m).read())
            if data is None:
                continue
            m.size = len(data)
            tout.addfile(m, io.BytesIO(data))


@pytest.mark.parametrize("damage, message", [
    (lambda n, d: d[:-1] + bytes([d[-1] ^ 1]) if n == "library.sqlite" else d, "does not match its checksum"),
    (lambda n, d: None if n.startswith("vectors/") else d, "incomplete"),
    (lambda n, d: json.dumps({"format": "harplib", "version": 9, "files": {}}).encode() if n == "manifest.json"
     else d, "newer HARP Desktop"),
])
def test_damaged_bundle_is_refused_and_nothing_is_written(indexed, tmp_path, damage, message):
    src, _ = indexed
    good, bad = tmp_path / "good.harplib", tmp_path / "bad.harplib"
    export_bundle(src.db, good)
    _rewrite(good, bad, damage)
    with Library(tmp_path / "laptop") as dst:
        with pytest.raises(BundleError, match=message):
            import_bundle(bad, dst.db)
        assert dst.db.recordings() == []
        assert not list((dst.folder).glob(".import-*")) and not (dst.folder / "vectors").exists()


def test_not_a_bundle(tmp_path):
    junk = tmp_path / "notes.harplib"
    junk.write_text("hello")
    with Library(tmp_path / "lib") as lib:
        with pytest.raises(BundleError, match="not a HARP library bundle"):
            import_bundle(junk, lib.db)
        with pytest.raises(BundleError, match="no such bundle"):
            import_bundle(tmp_path / "missing.harplib", lib.db)
        with pytest.raises(BundleError, match="is a folder"):
            export_bundle(lib.db, tmp_path)
    assert _recordings(tmp_path / "lib") == 0
