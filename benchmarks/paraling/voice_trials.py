"""First-speak voice-cue trials on the development recordings: many more cues than the question sets hold,
and the calibration of the voice-presence veto and the telephone-band confirmation (docs/decisions.md,
"Voice cues, stop 33").

    .venv/bin/python benchmarks/paraling/voice_trials.py LIBRARY [--recordings dev_long_01,bank_rec_01,...]

Recordings: the development ones (dev_long_01, bank_rec_01, 02, 06, 07, 08; ``--recordings`` for others,
e.g. the held-out ones as a check, never to tune on). Trials, each "when does the voice in this clip first
speak?" (right: the earliest pick starts within 2 s of the voice's first truth turn; for a voice that is not
in the recording: nothing picked):

* ``same full / short / phone``: up to 4 later turns of every truth speaker (>= 1 s), cut out as they are,
  their first 1.5 s, and band-limited (``speakers.band_limit``); the cue's own speaker windows are removed
  from the recording (voice_cues._Without);
* ``cross``: a synthetic voice's room turn (>= 1.5 s, up to 2 per recording) asked in every other recording
  that has the voice (a Flite / eSpeak NG voice is one voice across recordings); ``absent``: the same clips
  asked in the recordings without the voice;
* ``actor``: three ser-train clips of each RAVDESS actor (01, 02, 05, 06, 24; not the files a recording
  uses) asked where the actor has a line (always an acted one), ``actor absent`` where not.

Columns: ``before`` (the stored windows and the match only: the app before stop 33), ``band`` (plus the
voice's turns through the other channel, ``voice_match.across_channel``), ``shipped`` (``voice_match.cue_voice``,
the answerers' path: should equal ``band``), ``veto`` (band plus the presence veto measured and not wired,
``vetoed`` at its least false-found + wrong point on the development recordings, 0.38 / 0.64). ``--calibrate``
also prints that veto's grid. ``--band-pairs``: settle.CAM_BAND_SAME's calibration -- every (cut-turn clip, turn
heard through the other channel) pair of the development recordings (``findings.band.phone_band`` of each side),
the same person or not by the truth: equal-error and least false-accept + false-reject points of the similarity
through the telephone band, and, for room clips against phone turns, the raw best-window EER beside it.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

import numpy as np
import soundfile as sf

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
SHARED = REPO.parent / "shared" / "data"
DEV_RECORDINGS = ("dev_long_01", "bank_rec_01", "bank_rec_02", "bank_rec_06", "bank_rec_07", "bank_rec_08")
SPEECH = ("speech", "tts_speech", "emotion_speech")


def truth_path(stem: str) -> Path:
    return SHARED / "dev" / f"{stem}.truth.json" if stem.startswith("dev") else \
        REPO / "benchmarks/bank/audio" / f"{stem}.truth.json"


def truth_turns(stem: str) -> list[dict]:
    """Single-speaker speech of a recording's truth, in time order, with the voice across recordings."""
    from diar.voices_eer import voice_of

    out = []
    for e in json.loads(truth_path(stem).read_text())["events"]:
        spk = e.get("speaker") or ""
        if e.get("kind") in SPEECH and spk and "+" not in spk:
            out.append({"a": e["start_s"], "b": e["end_s"], "spk": spk, "voice": voice_of(e) or spk,
                        "phone": "phone" in str(e.get("section")), "src": str(e.get("source"))})
    return sorted(out, key=lambda t: t["a"])


def trials(recordings: tuple[str, ...]) -> list[dict]:
    """Each: kind, rec (stem), voice, cue (samples), want (first truth start, None: absent), excl (cue's span)."""
    from harp_desktop.index.speakers import band_limit

    rng = np.random.default_rng(0)
    turns = {s: truth_turns(s) for s in recordings}
    audio = {s: sf.read(truth_path(s).with_name(s + ".flac"), dtype="float32")[0] for s in recordings}
    out = []
    for stem in recordings:
        by: dict[str, list[dict]] = {}
        for t in turns[stem]:
            by.setdefault(t["spk"], []).append(t)
        for _spk, ts in sorted(by.items()):
            later = [t for t in ts[1:] if t["b"] - t["a"] >= 1.0 and t["a"] >= ts[0]["b"]]
            for i in sorted(rng.permutation(len(later))[:4]):
                t = later[i]
                cut = audio[stem][int(t["a"] * 16000): int(t["b"] * 16000)]
                for cond, w in (("same full", cut), ("same short", cut[:24000]), ("same phone", band_limit(cut))):
                    out.append({"kind": cond, "rec": stem, "voice": t["voice"], "cue": w, "want": ts[0]["a"],
                                "excl": (t["a"], t["b"])})
    synthetic: dict[str, dict[str, list[dict]]] = {}
    for stem in recordings:
        for t in turns[stem]:
            if t["voice"].startswith("flite_") and not t["phone"] and t["b"] - t["a"] >= 1.5:
                synthetic.setdefault(t["voice"], {}).setdefault(stem, []).append(t)
    for voice, per in sorted(synthetic.items()):
        for a in sorted(per):
            for i in sorted(rng.permutation(len(per[a]))[:2]):
                t = per[a][i]
                cut = audio[a][int(t["a"] * 16000): int(t["b"] * 16000)]
                for b in recordings:
                    if b != a:
                        first = next((x["a"] for x in turns[b] if x["voice"] == voice), None)
                        out.append({"kind": "cross" if first is not None else "absent", "rec": b, "voice": voice,
                                    "cue": cut, "want": first, "excl": None})
    used = {re.sub(r".*(Actor_\d+/[\w-]+\.flac).*", r"\1", t["src"]) for s in recordings for t in turns[s]}
    for actor in sorted((SHARED / "ser-train").glob("Actor_*")):
        voice = f"ravdess_{actor.name[-2:]}"
        files = [f for f in sorted(actor.glob("*.flac")) if f"{actor.name}/{f.name}" not in used]
        for i in sorted(rng.permutation(len(files))[:3]):
            w = sf.read(files[i], dtype="float32")[0]
            for b in recordings:
                first = next((x["a"] for x in turns[b] if x["voice"] == voice), None)
                out.append({"kind": "actor" if first is not None else "actor absent", "rec": b, "voice": voice,
                            "cue": w, "want": first, "excl": None})
    return out


def _memo_band(tools, memo: dict) -> None:
    """Band embeddings of the same audio are computed once across trials (the benchmark's cost, not the app's)."""
    plain = tools.band_embeddings

    def band_embeddings(clips):
        keys = [hash(np.asarray(c, np.float32).tobytes()) for c in clips]
        todo = [c for c, k in zip(clips, keys, strict=True) if k not in memo]
        if todo:
            for k, e in zip([k for k in keys if k not in memo], plain(todo), strict=True):
                memo[k] = e
        return np.stack([memo[k] for k in keys])

    tools.band_embeddings = band_embeddings


def run(library: str, recordings: tuple[str, ...]) -> list[dict]:
    """Per trial: the earliest pick before / with band / shipped, and the veto's statistics."""
    from paraling.voice_cues import _audio, _labels, _tools, _Without

    from harp_desktop.agent.answerers.voice_match import across_channel, cue_voice
    from harp_desktop.agent.settle import voice_thresholds
    from harp_desktop.api import Library
    from harp_desktop.index.speakers import main_voice, pick_voice

    memo: dict = {}
    ts = trials(recordings)
    with Library(library) as lib:
        recs = {Path(r["path"]).stem: r for r in lib.db.db.query("SELECT * FROM recordings")}
        for tr in ts:
            rec = recs[tr["rec"]]
            view = _Without(lib, *tr["excl"]) if tr["excl"] else lib
            tools = _tools(view, rec, None)
            _memo_band(tools, memo)
            label_of, audio = _labels(lib, rec), _audio(lib, rec)
            match, near_best = voice_thresholds(tools.voice_encoder)
            scored = tools.speaker(tr["cue"], None, 0.0, rec["duration_s"], 1_000_000)
            triples = [(e.scores["speaker"], label_of(e), e) for e in scored]
            before = pick_voice(triples, match, near_best)
            main = main_voice(triples, near_best)
            chosen = {id(e) for e in before}
            band = before + (across_channel(tools, tr["cue"], [e for s, lab, e in triples if id(e) not in chosen
                                                               and main and lab == main], audio) if before else [])
            shipped = cue_voice(tools, tr["cue"], rec["duration_s"], label_of, audio)
            s = np.array([x for x, _, _ in triples])
            tr.update(before=min((e.start_s for e in before), default=None),
                      band=min((e.start_s for e in band), default=None),
                      shipped=min((e.start_s for e in shipped), default=None),
                      best=float(s.max()), median=float(np.median(s)), n=len(s),
                      labels=len({lab for _, lab, _ in triples if lab}))
            del tr["cue"]
    return ts


def right(tr: dict, got: float | None) -> bool:
    return got is None if tr["want"] is None else got is not None and abs(got - tr["want"]) <= 2.0


MIN_COHORT = 5  # turns (of at least two voices) a recording needs before its typical turn means anything


def vetoed(tr: dict, stands_out: float, sure: float) -> bool:
    """The presence veto measured in stop 33 and not wired (docs/decisions.md): a best turn that reached the
    match is no voice unless it reaches ``sure`` or stands out from the recording's median turn by ``stands_out``
    (a per-recording normalisation of the score)."""
    if tr["n"] < MIN_COHORT or tr["labels"] < 2:
        return False
    return not (tr["best"] >= sure or tr["best"] - tr["median"] >= stands_out)


VETO = (0.38, 0.64)  # (stands out, sure): least absent-found + present-wrong on the development recordings


def table(ts: list[dict]) -> None:
    kinds = sorted({t["kind"] for t in ts})
    print("| column | " + " | ".join(kinds) + " | present right | absent right |")
    print("| --- |" + " --- |" * (len(kinds) + 2))
    for t in ts:
        t["veto"] = None if t["band"] is not None and vetoed(t, *VETO) else t["band"]
    for col in ("before", "band", "shipped", "veto"):
        cells = [f"{sum(right(t, t[col]) for t in ts if t['kind'] == k)}/{sum(t['kind'] == k for t in ts)}"
                 for k in kinds]
        pres = [right(t, t[col]) for t in ts if t["want"] is not None]
        absn = [right(t, t[col]) for t in ts if t["want"] is None]
        print(f"| {col} | " + " | ".join(cells) + f" | {sum(pres)}/{len(pres)} | {sum(absn)}/{len(absn)} |")


def calibrate(ts: list[dict]) -> None:
    """The veto's (stands out, sure) with the least absent-found + present-wrong rate, from the band column."""
    grid = []
    for so in np.arange(0.20, 0.45, 0.01):
        for sure in np.arange(0.55, 0.91, 0.01):
            fa = np.mean([t["band"] is not None and not vetoed(t, so, sure) for t in ts if t["want"] is None])
            fr = np.mean([not (right(t, t["band"]) and not vetoed(t, so, sure)) for t in ts if t["want"] is not None])
            grid.append((fa + fr, round(float(so), 2), round(float(sure), 2), fa, fr))
    grid.sort()
    for c, so, sure, fa, fr in grid[:5]:
        print(f"  stands out {so:.2f}, sure {sure:.2f}: absent found {fa:.3f}, present wrong {fr:.3f} (sum {c:.3f})")
    from diar.voices_eer import eer

    present = np.array([t["want"] is not None for t in ts])
    actor = np.array([t["kind"] == "actor" for t in ts]) | ~present
    for name, score in (("raw best", [t["best"] for t in ts]), ("best - median turn", [t["best"] - t["median"] for t in ts])):
        v = np.array(score)
        print(f"  presence EER, {name}: all {eer(v, present):.3f}, actors {eer(v[actor], present[actor]):.3f}")
    fa0 = np.mean([t["band"] is not None for t in ts if t["want"] is None])
    fr0 = np.mean([not right(t, t["band"]) for t in ts if t["want"] is not None])
    print(f"  no veto: absent found {fa0:.3f}, present wrong {fr0:.3f} (sum {fa0 + fr0:.3f})")


def band_pairs(library: str, recordings: tuple[str, ...]) -> None:
    """CAM_BAND_SAME's calibration (module docstring, ``--band-pairs``)."""
    from diar.voices_eer import eer
    from paraling.voice_cues import _audio, _tools, _Without

    from harp_desktop.api import Library
    from harp_desktop.findings.band import phone_band

    ts = [t for t in trials(recordings) if t["kind"].startswith("same")]
    seg_emb: dict = {}
    band, raw, same, room_clip = [], [], [], []
    with Library(library) as lib:
        recs = {Path(r["path"]).stem: r for r in lib.db.db.query("SELECT * FROM recordings")}
        for tr in ts:
            clip_phone = phone_band(tr["cue"], 0.0, len(tr["cue"]) / 16000)
            if clip_phone is None:
                continue
            rec, truth = recs[tr["rec"]], truth_turns(tr["rec"])
            tools, audio = _tools(_Without(lib, *tr["excl"]), rec, None), _audio(lib, rec)
            cue = tools.band_embeddings([tr["cue"]])[0]
            for e in tools.speaker(tr["cue"], None, 0.0, rec["duration_s"], 1_000_000):
                key = (tr["rec"], e.segment_id)
                if key not in seg_emb:
                    x = audio(e.start_s, e.end_s)
                    seg_emb[key] = (phone_band(x, 0.0, len(x) / 16000), tools.band_embeddings([x[: 8 * 16000]])[0])
                turn_phone, emb = seg_emb[key]
                over: dict[str, float] = {}
                for t in truth:
                    over[t["voice"]] = over.get(t["voice"], 0.0) + max(0.0, min(e.end_s, t["b"]) - max(e.start_s, t["a"]))
                if turn_phone is None or turn_phone == clip_phone or not over or max(over.values()) <= 0:
                    continue
                band.append(float(emb @ cue))
                raw.append(e.scores["speaker"])
                same.append(max(over, key=over.get) == tr["voice"])
                room_clip.append(not clip_phone)
    b, r, t, rc = map(np.array, (band, raw, same, room_clip))
    cand = np.unique(np.round(b, 3))
    least = min(((b[~t] >= c).mean() + (b[t] < c).mean(), c) for c in cand)[1]
    equal = cand[int(np.argmin([abs((b[t] < c).mean() - (b[~t] >= c).mean()) for c in cand]))]
    print(f"{len(t)} cross-channel pairs ({t.sum()} of one person): through the band EER {eer(b, t):.3f}, "
          f"equal-error point {equal:.3f}, least FA + FR at {least:.3f}")
    print(f"room clip x phone turn ({rc.sum()} pairs): EER raw best window {eer(r[rc], t[rc]):.3f}, "
          f"through the band {eer(b[rc], t[rc]):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library")
    ap.add_argument("--recordings", default=",".join(DEV_RECORDINGS))
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--band-pairs", action="store_true", help="only CAM_BAND_SAME's calibration")
    args = ap.parse_args()
    if args.band_pairs:
        band_pairs(args.library, tuple(args.recordings.split(",")))
        return
    ts = run(args.library, tuple(args.recordings.split(",")))
    print(f"{len(ts)} trials: " + ", ".join(f"{k} {v}" for k, v in sorted(collections.Counter(t['kind'] for t in ts).items())))
    table(ts)
    if args.calibrate:
        calibrate(ts)


if __name__ == "__main__":
    main()
