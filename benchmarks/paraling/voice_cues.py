"""Voice-cue "when does the voice in this clip first speak?" accuracy on an indexed library.

    .venv/bin/python benchmarks/paraling/voice_cues.py LIBRARY

Questions: the time-answer voice-cue questions of ``benchmarks/bank/devhalf.jsonl``
(query_type speaker with a cue clip) and of the dev set's ``queries.jsonl``. For each, the
answer path of ``agent/answerers/voice_match.py`` without the planner: the cue's segment
scores (RecordingTools.speaker: best-window cosine, CAM++ where stored), ``voice_match.cue_voice``
(``speakers.pick_voice``, the voice's turns through the other channel), the earliest pick; right when
its start is within 2 s of the first evidence span.
``--encoder ge2e|campplus`` scores on that encoder's stored windows with its thresholds
(settle.voice_thresholds; default: what the app uses, CAM++ where its windows are stored).
``--plain`` picks as before issue 18 (only segments within VOICE_NEAR_BEST of the best).
``--sets`` adds the first-speak voice-cue questions of the other development sets (MORE_SETS).
Questions with a time window ("on the telephone", "once the consultation is over", "during the
phone call") are left out: they test the window, which the planner supplies (``harp eval`` asks them).

``--turns`` asks many more of them (issue 18: misses come from short, emotional or phone-band
speech): in each of dev_long_01, bank_rec_01 and bank_rec_02, for up to 4 later turns of every
truth speaker (single-speaker speech of >= 1 s, not the speaker's first), the turn is cut out
as the cue, as it is, its first 1.5 s, and band-limited to the telephone band; the question
is the speaker's first turn. The cue's own speaker windows are removed from the recording
before scoring (a clip is never the recording's own audio). Right when the earliest pick
starts within 2 s of the speaker's first truth turn.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import soundfile as sf

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
DEV = REPO.parent / "shared" / "data" / "dev"

from harp_desktop.index.diarise import VOICE_WINDOWS  # noqa: E402 -- after the repository is on the path

# Development question sets holding first-speak voice-cue questions besides the default two (``--sets``); the
# held-out ones (heldout, rec03, rec04.heldout, rec05, rec09, rec10, round8, round10, ...) are never read here.
MORE_SETS = ("rec01b", "rec02b", "round3", "rec06", "rec07", "rec08")
# Questions with a time window ("on the telephone", "once the consultation is over", "during the phone call"):
# they test the window, which the planner supplies.
SKIP = {"bank-r1-089", "bank-r2-105", "r10-08-044"}


def questions(sets: tuple[str, ...] = ()) -> list[tuple[dict, Path]]:
    out = []
    files = [(REPO / "benchmarks/bank/devhalf.jsonl", REPO / "benchmarks/bank"), (DEV / "queries.jsonl", DEV)]
    files += [(REPO / "benchmarks/bank" / f"{name}.jsonl", REPO / "benchmarks/bank") for name in sets]
    for path, cues in files:
        for line in path.read_text().splitlines():
            q = json.loads(line)
            # a time_window question with a clip is a voice cue too in these sets (bank-r3x-r1-025)
            if q["query_type"] in ("speaker", "time_window") and q.get("cue_audio") and q["answer_kind"] == "time" \
                    and q["evidence"]:
                out.append((q, next(c / q["cue_audio"] for c in (cues, cues / "audio", DEV) if (c / q["cue_audio"]).is_file())))
    return out


def _tools(lib, rec: dict, encoder: str | None):
    """RecordingTools scoring on ``encoder``'s windows (None: the app's choice)."""
    from harp_desktop.retrieval.tools import RecordingTools

    tools = RecordingTools(lib, rec)
    if encoder:
        tools._voice_encoder = encoder  # the cached property's slot
    return tools


def _audio(lib, rec: dict):
    """(start, end) -> the recording's samples, from the library's audio cache (as AnswerContext.audio)."""
    import numpy as np

    from harp_desktop.audio.decode import SAMPLE_RATE, open_cache

    x = open_cache(lib.folder / "audio" / f"{rec['sha256']}.f32")
    return lambda a, b: np.asarray(x[int(a * SAMPLE_RATE): int(b * SAMPLE_RATE)], np.float32)


def _labels(lib, rec: dict):
    by_id = {s["id"]: s["speaker_label"] for s in lib.db.segments(rec["id"])}
    return lambda e: by_id.get(e.segment_id)


def first_pick(lib, rec: dict, wav, encoder: str | None = None, plain: bool = False) -> tuple[float | None, float]:
    """(start of the earliest segment in the clip's voice or None, best score): the answerers' path
    (``voice_match.cue_voice``); ``plain``: only the segments near the best, as before issue 18."""
    from harp_desktop.agent.answerers.voice_match import cue_voice
    from harp_desktop.agent.settle import voice_thresholds

    tools = _tools(lib, rec, encoder)
    if plain:
        match, near_best = voice_thresholds(tools.voice_encoder)
        scored = [(e.scores["speaker"], e.start_s) for e in tools.speaker(wav, None, 0.0, rec["duration_s"], 400)]
        best = max((x for x, _ in scored), default=0.0)
        hits = sorted(t for x, t in scored if x >= max(match, best - near_best)) if best >= match else []
        return (hits[0] if hits else None), best
    got = cue_voice(tools, wav, rec["duration_s"], _labels(lib, rec), _audio(lib, rec))
    best = max((e.scores["speaker"] for e in got), default=0.0)
    return (got[0].start_s if got else None), best


def run(library: str, plain: bool, encoder: str | None = None, sets: tuple[str, ...] = ()) -> list[list]:
    from harp_desktop.api import Library

    rows = []
    with Library(library) as lib:
        recs = {Path(r["path"]).name: r for r in lib.db.db.query("SELECT * FROM recordings")}
        for q, cue in questions(sets):
            rec = recs.get(q["recording"])
            if rec is None or q["query_id"] in SKIP:
                continue
            got, best = first_pick(lib, rec, sf.read(cue, dtype="float32")[0], encoder, plain)
            want = q["evidence"][0][0]
            rows.append([q["query_id"], cue.name, f"{want:.1f}", "-" if got is None else f"{got:.1f}",
                         f"{best:.3f}", "yes" if got is not None and abs(got - want) <= 2.0 else "no"])
    return rows


TURN_RECORDINGS = ("dev_long_01", "bank_rec_01", "bank_rec_02")  # bank_rec_03 is held out


class _Without:
    """A library whose speaker windows lack those inside [a, b] (the cue's own audio)."""

    def __init__(self, lib, a: float, b: float) -> None:
        self._lib, self._a, self._b = lib, a, b

    def __getattr__(self, name):
        return getattr(self._lib, name)

    def array(self, rid, name):
        got = self._lib.array(rid, name)
        if name not in ("speaker_windows", "speaker_window_times", VOICE_WINDOWS) or got is None:
            return got
        t = self._lib.array(rid, "speaker_window_times")[0]
        keep = (t < self._a) | (t > self._b)
        return (got[0][keep], *got[1:])


def turn_questions() -> list[tuple[str, str, float, float, float]]:
    """(recording stem, speaker, cue start, cue end, first-turn start): up to 4 later turns per speaker."""
    import numpy as np

    out = []
    rng = np.random.default_rng(0)
    for stem in TURN_RECORDINGS:
        t = DEV / f"{stem}.truth.json" if stem.startswith("dev") else REPO / "benchmarks/bank/audio" / f"{stem}.truth.json"
        turns: dict[str, list[tuple[float, float]]] = {}
        for e in json.loads(t.read_text())["events"]:
            spk = e.get("speaker") or ""
            # (the bank's turns are all level "clip"; dev's one "clip" event is two voices, "+" leaves it out)
            if e.get("kind") in ("speech", "tts_speech", "emotion_speech") and spk and "+" not in spk:
                turns.setdefault(spk, []).append((e["start_s"], e["end_s"]))
        for spk, ts in sorted(turns.items()):
            ts.sort()
            later = [(a, b) for a, b in ts[1:] if b - a >= 1.0 and a >= ts[0][1]]
            for i in sorted(rng.permutation(len(later))[:4]):
                out.append((stem, spk, later[i][0], later[i][1], ts[0][0]))
    return out


def run_turns(library: str, encoder: str | None = None) -> dict[str, list[bool]]:
    """Right / wrong per cue condition (full, short 1.5 s, phone-band) over ``turn_questions``."""
    from harp_desktop.api import Library
    from harp_desktop.index.speakers import band_limit

    right: dict[str, list[bool]] = {"full": [], "short 1.5 s": [], "phone-band": []}
    with Library(library) as lib:
        recs = {Path(r["path"]).stem: r for r in lib.db.db.query("SELECT * FROM recordings")}
        audio = {}
        for stem, _spk, a, b, want in turn_questions():
            rec = recs[stem]
            if stem not in audio:
                audio[stem] = sf.read(rec["path"], dtype="float32")[0]
            cut = audio[stem][int(a * 16000): int(b * 16000)]
            for cond, wav in (("full", cut), ("short 1.5 s", cut[:24000]), ("phone-band", band_limit(cut))):
                got, _ = first_pick(_Without(lib, a, b), rec, wav, encoder)
                right[cond].append(got is not None and abs(got - want) <= 2.0)
    return right


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library")
    ap.add_argument("--plain", action="store_true")
    ap.add_argument("--turns", action="store_true", help="also first-speak questions cut from the recordings' turns")
    ap.add_argument("--encoder", choices=("ge2e", "campplus"), help="score on this encoder's windows (default: the app's)")
    ap.add_argument("--sets", action="store_true", help=f"also the first-speak cue questions of {', '.join(MORE_SETS)}")
    args = ap.parse_args()
    if args.turns:
        for cond, ok in run_turns(args.library, args.encoder).items():
            print(f"  turns, cue {cond}: right {sum(ok)} of {len(ok)}")
    rows = run(args.library, args.plain, args.encoder, MORE_SETS if args.sets else ())
    for r in rows:
        print("  " + "  ".join(map(str, r)))
    print(f"  right {sum(r[-1] == 'yes' for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
