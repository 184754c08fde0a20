"""Voice-cue thresholds per encoder, calibrated on the development recordings' own turns.

    .venv/bin/python benchmarks/paraling/voice_calibrate.py LIBRARY

Cues: the turns of ``voice_cues.turn_questions`` (up to 4 later turns of every truth speaker of
dev_long_01, bank_rec_01 and bank_rec_02; never bank_rec_03-05, whose questions are held out), each
as it is, its first 1.5 s and band-limited to the telephone band. Each cue is scored against each of
the three recordings' stored speaker windows (its own recording without the cue's own windows),
GE2E (``speaker_windows``) and CAM++ (``speaker_windows_campplus``, speakers stage v5):

* presence -- "is this voice in the recording?": the recording's best window; the voice is present
  when the recording's truth holds it (a Flite / eSpeak voice or RAVDESS actor is one voice across
  recordings, ``diar/voices_eer.voice_of``). Detection EER, and the threshold with the least
  false-accept + false-reject rate over all cues of the three conditions pooled: the *match*
  threshold (settle.VOICE_MATCH for GE2E was 0.745, chosen on the dev set's cue clips);
* spread -- "near the best": per present cue, the standard deviation of the best-window scores of
  the voice's own turns (segments whose truth speaker is the cue's); the median over cues, per
  encoder. CAM++'s near-best margin is GE2E's 0.06 times the ratio of the medians (the margin
  scales with how much one voice's turns spread).

``--pairs``: the *same-voice* threshold of one utterance against one turn, the equal-error point of the
trial list of ``diar/voices_eer.py`` (every pair of 142 utterances of 26 voices, RAVDESS actors in
several emotions among them; full utterances): looser than the match threshold, which is the best of
a whole recording's windows. Where a voice's acted line is looked for (emotion_locate), a turn close to
the clip that reaches it is a candidate (answerers/voice_match.close_turns).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import soundfile as sf

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
DEV = REPO.parent / "shared" / "data" / "dev"
SPEECH = ("speech", "tts_speech", "emotion_speech")


def truth_path(stem: str) -> Path:
    return DEV / f"{stem}.truth.json" if stem.startswith("dev") else REPO / "benchmarks/bank/audio" / f"{stem}.truth.json"


def truth_turns(stem: str) -> list[tuple[float, float, str, str]]:
    """(start, end, truth speaker, voice identity across recordings) of single-speaker speech."""
    from diar.voices_eer import voice_of

    out = []
    for e in json.loads(truth_path(stem).read_text())["events"]:
        spk = e.get("speaker") or ""
        if e.get("kind") in SPEECH and spk and "+" not in spk:
            out.append((e["start_s"], e["end_s"], spk, voice_of(e) or spk))
    return out


def least_errors(scores: np.ndarray, target: np.ndarray) -> tuple[float, float, float, float]:
    """(threshold, false-accept rate, false-reject rate, EER): the threshold with the least FA + FR rate."""
    from diar.voices_eer import eer

    cand = np.unique(np.round(scores, 3))
    cost = [((scores[~target] >= c).mean() + (scores[target] < c).mean(), c) for c in cand]
    c = min(cost)[1]
    return float(c), float((scores[~target] >= c).mean()), float((scores[target] < c).mean()), eer(scores, target)


def same_voice_thresholds() -> None:
    """The equal-error threshold of each encoder on voices_eer's trial list (``--pairs``)."""
    from diar.voices_eer import utterances

    from harp_desktop import weights
    from harp_desktop.index.campplus import CamPlusEncoder
    from harp_desktop.index.speakers import SpeakerEncoder

    utts = utterances(8)
    spk = np.array([s for s, _ in utts])
    iu = np.triu_indices(len(spk), 1)
    same = (spk[:, None] == spk[None, :])[iu]
    for name, enc in (("ge2e", SpeakerEncoder(weights.model_file("speaker", "pretrained.pt"))),
                      ("campplus", CamPlusEncoder(weights.model_file("speaker-campplus", "campplus_cn_en_common.pt")))):
        e = np.stack([enc.embed(x) for _, x in utts])
        s = (e @ e.T)[iu]
        cand = np.unique(np.round(s, 3))
        gap = [abs((s[same] < c).mean() - (s[~same] >= c).mean()) for c in cand]
        c = float(cand[int(np.argmin(gap))])
        print(f"{name}: same-voice (EER) threshold {c:.3f}: FR {(s[same] < c).mean():.3f}, FA {(s[~same] >= c).mean():.3f}"
              f" ({len(utts)} utterances, {len(set(spk))} voices)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library", nargs="?")
    ap.add_argument("--pairs", action="store_true", help="the same-voice thresholds of utterance pairs instead")
    args = ap.parse_args()
    if args.pairs:
        same_voice_thresholds()
        return
    from paraling.voice_cues import TURN_RECORDINGS, turn_questions

    from harp_desktop.api import Library
    from harp_desktop.index.diarise import VOICE_WINDOWS
    from harp_desktop.index.speakers import band_limit

    encs = {"ge2e": "speaker_windows", "campplus": VOICE_WINDOWS}
    with Library(args.library) as lib:
        recs = {Path(r["path"]).stem: r for r in lib.db.db.query("SELECT * FROM recordings")}
        stored, segs, voices, seg_voice = {}, {}, {}, {}
        for stem in TURN_RECORDINGS:
            rid = recs[stem]["id"]
            t = np.asarray(lib.array(rid, "speaker_window_times")[0])
            stored[stem] = (t, {k: np.asarray(lib.array(rid, n)[0], np.float32) for k, n in encs.items()})
            segs[stem] = [(s["start_s"], s["end_s"]) for s in lib.db.segments(rid)]
            tt = truth_turns(stem)
            voices[stem] = {v for *_, v in tt}
            # a segment's truth voice: the one overlapping it most
            seg_voice[stem] = []
            for a, b in segs[stem]:
                ov: dict[str, float] = {}
                for x, y, _, v in tt:
                    ov[v] = ov.get(v, 0.0) + max(0.0, min(b, y) - max(a, x))
                seg_voice[stem].append(max(ov, key=ov.get) if ov and max(ov.values()) > 0 else None)
        lib.models.speaker(), lib.models.diariser()
        audio = {s: sf.read(recs[s]["path"], dtype="float32")[0] for s in TURN_RECORDINGS}
        pres: dict[str, dict[str, list]] = {k: {"s": [], "t": [], "cond": []} for k in encs}
        spread: dict[str, list[float]] = {k: [] for k in encs}
        for stem, _spk, a, b, _first in turn_questions():
            voice = next((v for x, y, _, v in truth_turns(stem) if abs(x - a) < 1e-3 and abs(y - b) < 1e-3), None)
            cut = audio[stem][int(a * 16000): int(b * 16000)]
            for cond, wav in (("full", cut), ("short", cut[:24000]), ("phone", band_limit(cut))):
                vec = {"ge2e": lib.models.speaker().embed(wav), "campplus": lib.models.diariser().embed(wav)}
                for other in TURN_RECORDINGS:
                    t, w = stored[other]
                    keep = (t < a) | (t > b) if other == stem else np.ones(len(t), bool)
                    for k in encs:
                        sims = w[k] @ vec[k]
                        pres[k]["s"].append(float(sims[keep].max()))
                        pres[k]["t"].append(voice in voices[other])
                        pres[k]["cond"].append(cond)
                        if other == stem and cond == "full":
                            own = [float(sims[keep & (t >= x - 0.1) & (t <= y + 0.1)].max())
                                   for (x, y), v in zip(segs[stem], seg_voice[stem], strict=True)
                                   if v == voice and (keep & (t >= x - 0.1) & (t <= y + 0.1)).any()]
                            if len(own) >= 2:
                                spread[k].append(float(np.std(own)))
    print(f"{len(pres['ge2e']['s']) // 3} cue x recording trials per condition")
    print("| encoder | presence EER full / short / phone | least FA+FR threshold (pooled) | FA / FR there "
          "| FA / FR at it, full / short / phone | median spread of a voice's turns |")
    print("| --- | --- | --- | --- | --- | --- |")
    out = {}
    for k in encs:
        s, t, cond = np.array(pres[k]["s"]), np.array(pres[k]["t"]), np.array(pres[k]["cond"])
        th, fa, fr, _ = least_errors(s, t)
        eers = [least_errors(s[cond == c], t[cond == c])[3] for c in ("full", "short", "phone")]
        per = [f"{(s[(cond == c) & ~t] >= th).mean():.2f} / {(s[(cond == c) & t] < th).mean():.2f}"
               for c in ("full", "short", "phone")]
        out[k] = (th, float(np.median(spread[k])))
        print(f"| {k} | {' / '.join(f'{e:.3f}' for e in eers)} | {th:.3f} | {fa:.2f} / {fr:.2f} | {'; '.join(per)} "
              f"| {out[k][1]:.3f} |")
    from harp_desktop.agent.settle import voice_thresholds

    for k in encs:  # the rates at the thresholds the app uses
        s, t, cond = np.array(pres[k]["s"]), np.array(pres[k]["t"]), np.array(pres[k]["cond"])
        m = voice_thresholds(k)[0]
        print(f"{k} at its match {m}: absent found / present missed, full / short / phone: " + "; ".join(
            f"{(s[(cond == c) & ~t] >= m).mean():.2f} / {(s[(cond == c) & t] < m).mean():.2f}"
            for c in ("full", "short", "phone")))
    ratio = out["campplus"][1] / out["ge2e"][1]
    print(f"CAM++ match {out['campplus'][0]:.3f}, near best 0.06 x {ratio:.2f} = {0.06 * ratio:.3f}")


if __name__ == "__main__":
    main()
