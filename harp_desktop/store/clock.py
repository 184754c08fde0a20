"""The one timestamp format of a library's rows (UTC, to the second).

Its own module so db.py and the mixins it is built from (questions.py) share it without
importing each other.
"""

from __future__ import annotations

from datetime import UTC, datetime


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
