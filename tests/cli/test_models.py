"""`harp models --json`."""

import json

from tests.cli.helpers import run


def test_models_json(capsys):
    code, out, _ = run(capsys, "models", "--json")
    data = json.loads(out)
    keys = {m["key"]: m for m in data["models"]}
    assert keys["asr-base"]["checksum_ok"] and keys["asr-small"]["note"].startswith("unavailable")
    assert all(m["licence"] for m in data["models"])
