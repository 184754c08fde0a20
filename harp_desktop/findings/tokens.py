"""Words of a transcript as the findings code matches them (vocab.py, questions.py).

Its own module so questions.py (question forms) and vocab.py (which uses question_start)
share it without importing each other.
"""

from __future__ import annotations

import re

# Words, numbers (38.2 stays one token), and the punctuation that bounds sentences and clauses.
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)*|[,;:/%]|[.?!]+")


def tokenize(text: str) -> list[str]:
    """Lower-case tokens; hyphens split ("x-ray" == "x ray"), apostrophes kept ("isn't"), and
    spelled-out letters joined ("E C G" == "ECG")."""
    out: list[str] = []
    run: list[str] = []
    for t in _TOKEN.findall(text.lower().replace("\u2019", "'").replace("-", " ")) + [""]:
        if len(t) == 1 and t.isalpha() and t not in ("a", "i"):
            run.append(t)
            continue
        out += ["".join(run)] if len(run) > 1 else run
        run = []
        if t:
            out.append(t)
    return out
