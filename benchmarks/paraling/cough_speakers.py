"""Whose cough: the attributed speaker of each detected cough against the truth's cougher.

    .venv/bin/python benchmarks/paraling/cough_speakers.py --library DIR [--stored] [-v]

For every recording of the (indexed) library that has a truth file with coughs: each true
cough is paired with a detection (``coughs.pair``: one-to-one, overlap within 0.25 s). The
truth speaker's diarised label is the label whose segments overlap that speaker's truth
speech the most; a cougher who never speaks (a bystander in the waiting room) has none, and
the right attribution is then nobody. Attribution accuracy = true coughs whose paired
detection is attributed to that label (or to nobody for a silent cougher) / true coughs; a
missed cough counts as wrong.

Default: the detections of the current code (``coughs.detect`` on the audio) attributed by
the current ``attribute_events`` with the library's segments, roles and sections, so only
the index stage's detection and attribution change, not the diarisation. ``--stored``: the
library's stored cough tags and ``event_speakers`` rows (what the index wrote). The library
is opened read-only.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import coughs as C  # noqa: E402

from harp_desktop.findings.attribution import attribute_events  # noqa: E402
from harp_desktop.findings.model import Section  # noqa: E402

SPEECH_KINDS = ("speech", "tts_speech", "emotion_speech")


@dataclass
class Attribution:
    name: str
    truth: int
    matched: int
    right: int
    rows: list[tuple]  # (truth start, truth speaker, its label, detection start or None, attributed, method)

    @property
    def accuracy(self) -> float:
        return self.right / self.truth if self.truth else float("nan")


def _query(conn: sqlite3.Connection, sql: str, args: list) -> list[dict]:
    cur = conn.execute(sql, args)
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]


def library_rows(conn: sqlite3.Connection, rid: int) -> tuple[list[dict], dict[str, str], list[Section]]:
    """(segments with ``speaker`` = label and their words' spans, label -> role (hand-set over
    automatic), sections)."""
    segs = _query(conn, "SELECT s.id, s.start_s, s.end_s, s.text, sp.label AS speaker FROM segments s "
                  "LEFT JOIN speakers sp ON sp.id = s.speaker_id WHERE s.recording_id = ? ORDER BY s.start_s", [rid])
    words: dict[int, list[tuple[float, float]]] = {}
    for w in _query(conn, "SELECT segment_id, start_s, end_s FROM words WHERE recording_id = ? ORDER BY start_s", [rid]):
        words.setdefault(w["segment_id"], []).append((w["start_s"], w["end_s"]))
    segs = [{**s, "words": words.get(s["id"], [])} for s in segs]  # as findings.service._with_words
    roles = {r["label"]: r["role"] for r in _query(conn, "SELECT label, role FROM speakers WHERE recording_id = ?", [rid])
             if r["role"]}
    roles.update({r["label"]: r["role"] for r in _query(
        conn, "SELECT label, role FROM speaker_roles WHERE recording_id = ?", [rid])})
    secs = [Section(r["kind"], r["start_s"], r["end_s"], r["confidence"]) for r in _query(
        conn, "SELECT kind, start_s, end_s, confidence FROM sections WHERE recording_id = ? ORDER BY start_s", [rid])]
    return segs, roles, secs


def truth_labels(events: list[dict], segs: list[dict]) -> dict[str, str | None]:
    """Truth speaker -> the diarised label overlapping its speech most (None: it never speaks)."""
    out: dict[str, str | None] = {}
    for spk in {e["speaker"] for e in events if e.get("speaker")}:
        speech = [(e["start_s"], e["end_s"]) for e in events if e.get("kind") in SPEECH_KINDS and e.get("speaker") == spk]
        ov: dict[str, float] = {}
        for s in segs:
            if s["speaker"]:
                ov[s["speaker"]] = ov.get(s["speaker"], 0.0) + sum(
                    max(0.0, min(b, s["end_s"]) - max(a, s["start_s"])) for a, b in speech)
        best = max(ov, key=ov.get, default=None) if ov else None
        out[spk] = best if best is not None and ov[best] > 0 else None
    return out


def evaluate(library: Path, stored: bool = False) -> list[Attribution]:
    conn = sqlite3.connect(f"file:{library / 'library.sqlite'}?mode=ro", uri=True)
    truths = {t.name.replace(".truth.json", ""): t for t in C.truth_files()}
    out = []
    for rec in _query(conn, "SELECT id, name FROM recordings ORDER BY id", []):
        name = Path(rec["name"]).stem
        if name not in truths:
            continue
        events = C.events_of(truths[name])
        cough_truth = sorted((e for e in events if e.get("kind") == "cough"), key=lambda e: e["start_s"])
        if not cough_truth:
            continue
        segs, roles, secs = library_rows(conn, rec["id"])
        if stored:
            tags = _query(conn, "SELECT t.id, t.label, t.start_s, t.end_s, es.speaker, es.method FROM tags t "
                          "LEFT JOIN event_speakers es ON es.tag_id = t.id WHERE t.recording_id = ? "
                          "AND t.label = 'cough' ORDER BY t.start_s", [rec["id"]])
            who = {t["id"]: (t["speaker"], t["method"]) for t in tags}
        else:
            tags = [{"id": i, "label": "cough", "start_s": t.start_s, "end_s": t.end_s}
                    for i, t in enumerate(C.detect(C.audio_of(truths[name])))]
            who = {e.tag_id: (e.speaker, e.method) for e in attribute_events(tags, segs, roles, secs)}
        labels = truth_labels(events, segs)
        pairs = dict(C.pair([(e["start_s"], e["end_s"]) for e in cough_truth], [(t["start_s"], t["end_s"]) for t in tags]))
        rows, right = [], 0
        for i, e in enumerate(cough_truth):
            want = labels.get(e.get("speaker"))
            t = tags[pairs[i]] if i in pairs else None
            got, method = who.get(t["id"], (None, "none")) if t else (None, "missed")
            ok = t is not None and got == want
            right += ok
            rows.append((round(e["start_s"], 2), e.get("speaker"), want, round(t["start_s"], 2) if t else None, got,
                         method, "yes" if ok else "NO"))
        out.append(Attribution(name, len(cough_truth), len(pairs), right, rows))
    conn.close()
    return out


def print_table(res: list[Attribution], verbose: bool = False) -> None:
    print("  recording     truth coughs  detected  attributed right  accuracy")
    print("  ------------  ------------  --------  ----------------  --------")
    for r in res:
        print(f"  {r.name:12s}  {r.truth:12d}  {r.matched:8d}  {r.right:16d}  {r.accuracy:8.2f}")
        if verbose:
            for row in r.rows:
                print("      " + "  ".join(str(x) for x in row))
    t, k = sum(r.truth for r in res), sum(r.right for r in res)
    print(f"  {'ALL':12s}  {t:12d}  {sum(r.matched for r in res):8d}  {k:16d}  {k / max(1, t):8.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--stored", action="store_true", help="the library's stored tags and attributions")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per true cough")
    args = ap.parse_args()
    print_table(evaluate(args.library, args.stored), args.verbose)


if __name__ == "__main__":
    main()
