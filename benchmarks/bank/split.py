"""Split a bank file into a development half and a held-out half, per query_type, by a hash of
the query id (stable: adding questions never moves old ones). The held-out half is only
scored (benchmarks/ask_bench.py), never read while fixing.

    .venv/bin/python benchmarks/bank/split.py benchmarks/bank/dev.jsonl
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path


def half(query_id: str) -> str:
    return "heldout" if int(hashlib.sha256(query_id.encode()).hexdigest(), 16) % 2 else "devhalf"


def main(path: str) -> None:
    src = Path(path)
    out: dict[str, list[str]] = {"devhalf": [], "heldout": []}
    for line in src.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out[half(json.loads(line)["query_id"])].append(line)
    for name, lines in out.items():
        dst = src.with_name(f"{src.stem}.{name}.jsonl")
        dst.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{dst}: {len(lines)} questions")


if __name__ == "__main__":
    main(sys.argv[1])
