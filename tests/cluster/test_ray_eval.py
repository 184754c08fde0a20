import json

import pytest

from harp_desktop.cluster.ray_eval import evaluate_on_ray
from harp_desktop.evaluate.runner import Case, EvalOptions
from tests.conftest import copy_library
from tests.evaluate.test_runner import questions

pytestmark = pytest.mark.slow
TIMING = ("latency_s", "timings_s")


@pytest.fixture
def lib(indexed, tmp_path):
    shared, res = indexed
    shared.db.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with copy_library(shared.folder, tmp_path / "lib") as lib:
        yield lib, res


def test_ray_eval_gives_the_local_report(ray_local, lib):
    lib, res = lib
    cases = [Case(q, res.sha256) for q in questions()]
    history = lambda: (len(lib.db.answers(res.recording_id)),  # noqa: E731
                       lib.db.db.execute("SELECT count(*) FROM exports").fetchone()[0])
    before = history()
    local = lib.evaluate(cases, EvalOptions("hybrid", "rrf"))
    seen = []
    remote = evaluate_on_ray(lib, cases, EvalOptions("hybrid", "rrf"), None, workers=2,
                             progress=lambda i, n, r: seen.append((i, n)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    strip = lambda rows: [{k: v for k, v in r.items() if k not in TIMING} for r in rows]  # noqa: E731
    assert strip(remote.queries) == strip(local.queries)
    assert remote.by_type.keys() == local.by_type.keys() and remote.overall["engine"] == "ray"
    for k in ("n", "hit_rate", "answer_accuracy", "citation_validity"):
        assert remote.overall[k] == local.overall[k]
    assert history() == before  # as locally: no answer history, and the snapshot is no audited export


def test_unknown_recording_fails_before_any_work(ray_local, lib):
    lib, _ = lib
    with pytest.raises(LookupError, match="no recording"):
        evaluate_on_ray(lib, [Case(questions()[0], "feedbeefcafe")], EvalOptions(), None)


def test_harp_eval_engine_ray(ray_local, lib, long_clip, tmp_path, capsys):
    from harp_desktop.cli import main

    lib, res = lib
    queries = tmp_path / "queries.jsonl"
    queries.write_text("\n".join(json.dumps(q) for q in questions()) + "\n")
    base = ["eval", str(queries), "--audio-dir", str(long_clip.parent), "--library", str(lib.folder),
            "--no-llm", "--asr", "tiny.en", "--json"]
    assert main(base) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(base + ["--engine", "ray", "--workers", "2"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert remote["overall"]["engine"] == "ray" and remote["overall"]["n"] == len(questions())
    assert [(r["query_id"], r["answer"], r["correct"], r["hit_rate"]) for r in remote["queries"]] == [
        (r["query_id"], r["answer"], r["correct"], r["hit_rate"]) for r in local["queries"]]
