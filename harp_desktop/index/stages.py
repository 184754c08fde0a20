"""The offline stages. Each computes its output, then commits it with its stage row
in one transaction (``ctx.finish``), so a crash leaves either all of it or none.
"""

from __future__ import annotations

import json
import time

import numpy as np

from harp_desktop import weights
from harp_desktop.audio.decode import SAMPLE_RATE
from harp_desktop.index import segments as turns
from harp_desktop.index.asr import AsrOptions, Transcriber, plan_chunks
from harp_desktop.index.asr_states import STATES_PROFILE, put_chunk_states
from harp_desktop.index.chunk_cache import chunk_key, recording_key, take_or
from harp_desktop.index.context import StageContext
from harp_desktop.index.diarise import HOP_S as SPEAKER_HOP_S
from harp_desktop.index.diarise import VOICE_WINDOWS, speaker_windows_all
from harp_desktop.index.diarise import WINDOW_S as SPEAKER_WINDOW_S  # noqa: F401 -- the stage key reads it here
from harp_desktop.index.vad import rescue_regions, speech_regions
from harp_desktop.types import Region, Word


def _regions(ctx: StageContext) -> list[Region]:
    rows = ctx.db.db.query(
        "SELECT start_s, end_s FROM speech_regions WHERE recording_id = ? ORDER BY idx", [ctx.rid]
    )
    return [Region(r["start_s"], r["end_s"]) for r in rows]


def run_vad(ctx: StageContext) -> dict:
    t0 = time.perf_counter()
    weights.model_path("vad")  # verify the ONNX file faster-whisper will load
    regions = take_or(ctx.models.ahead(), lambda: recording_key(ctx.fingerprint, ctx.audio),
                      lambda: speech_regions(ctx.audio, ctx.report, ctx.should_stop))
    ctx.check()
    from harp_desktop.index.events import PATCH_S

    scores, meta = ctx.array("event_scores")  # the events stage, a declared dependency, ran first
    times, _ = ctx.array("event_times")
    speech = np.asarray(scores[:, meta["classes"].index("Speech")], np.float32)
    regions, rescued = rescue_regions(regions, speech, np.asarray(times), PATCH_S, len(ctx.audio) / SAMPLE_RATE)
    speech_s = sum(r.duration_s for r in regions)
    if not regions:
        ctx.notes.append("no speech found: the recording is silent or holds no voice")

    def write() -> None:
        ctx.db.db.execute("DELETE FROM speech_regions WHERE recording_id = ?", [ctx.rid])
        ctx.db.db["speech_regions"].insert_all(
            {"recording_id": ctx.rid, "idx": i, "start_s": r.start_s, "end_s": r.end_s} for i, r in enumerate(regions)
        )
        # The speakers stage attaches these stretches to voices found elsewhere (see run_speakers).
        ctx.db.put_array(ctx.rid, "vad_rescued",
                         np.array([[r.start_s, r.end_s] for r in rescued], np.float32).reshape(-1, 2))

    info = {"regions": len(regions), "speech_s": round(speech_s, 2), "rescued": len(rescued)}
    ctx.finish("vad", time.perf_counter() - t0, info, write)
    return info


def asr_model_key(options) -> str:
    if options.asr_profile not in weights.ASR_PROFILES:
        raise weights.WeightsError(
            f"unknown ASR profile '{options.asr_profile}'; choose one of {', '.join(weights.ASR_PROFILES)}"
        )
    key = weights.ASR_PROFILES[options.asr_profile]
    if weights.manifest()[key].get("unavailable"):
        raise weights.WeightsError(f"ASR profile '{options.asr_profile}' is unavailable: {weights.manifest()[key]['unavailable']}")
    return key


def run_asr(ctx: StageContext) -> dict:
    t0 = time.perf_counter()
    key = asr_model_key(ctx.options)
    opts = AsrOptions(beam_size=ctx.options.beam_size, language=ctx.options.language, hotwords=ctx.options.hotwords)
    chunks = plan_chunks(_regions(ctx), ctx.options.asr_chunk_s)
    # Chunks committed by an earlier, interrupted run with the same fingerprint are kept.
    ctx.db.db.execute(
        "DELETE FROM asr_chunks WHERE recording_id = ? AND (fingerprint != ? OR chunk >= ?)",
        [ctx.rid, ctx.fingerprint, len(chunks)],
    )
    done = {
        r["chunk"]: r["language"]
        for r in ctx.db.db.query("SELECT chunk, language FROM asr_chunks WHERE recording_id = ?", [ctx.rid])
    }
    language = opts.language or done.get(0)
    total = sum(r.duration_s for c in chunks for r in c) or 1.0
    finished = sum(r.duration_s for i, c in enumerate(chunks) if i in done for r in c)
    model = None
    cache, cached = ctx.models.ahead(), 0
    for i, chunk in enumerate(chunks):
        if i in done:
            continue
        ctx.check()
        # Computed ahead while recording (record/ahead.py) from exactly these inputs, or computed now.
        ckey = chunk_key(ctx.fingerprint, ctx.options.cpu_threads, language, ctx.audio, chunk) if cache.active() else None
        hit = cache.take(ckey) if ckey else None
        if hit is not None:
            words, lang, states = hit.words, hit.language, hit.states
            cached += 1
        else:
            if model is None:
                model = ctx.models.get(
                    f"asr:{key}:{ctx.options.cpu_threads}",
                    lambda: Transcriber(weights.model_path(key), opts, ctx.options.cpu_threads),
                )
                model.options = opts
            try:
                words, lang, states = model.transcribe_chunk_states(ctx.audio, chunk, language)
            finally:
                if ckey:
                    cache.release(ckey)
        language = language or lang
        with ctx.db.transaction():
            ctx.db.db["asr_chunks"].insert(
                {
                    "recording_id": ctx.rid,
                    "chunk": i,
                    "fingerprint": ctx.fingerprint,
                    "words": ctx.dumps([[w.start_s, w.end_s, w.text, w.prob] for w in words]),
                    "language": lang,
                }
            )
            if ctx.options.asr_profile == STATES_PROFILE and states is not None:
                put_chunk_states(ctx.db, ctx.rid, i, states)  # the emotion head's Whisper features
        finished += sum(r.duration_s for r in chunk)
        ctx.report(finished / total)
    info = {"chunks": len(chunks), "language": language, "model": key, "speech_s": round(total, 2),
            "chunks_computed_ahead": cached}
    ctx.finish("asr", time.perf_counter() - t0, info, lambda: None)
    return info


def load_words(ctx: StageContext) -> list[Word]:
    rows = ctx.db.db.query("SELECT words FROM asr_chunks WHERE recording_id = ? ORDER BY chunk", [ctx.rid])
    return [Word(*w) for r in rows for w in json.loads(r["words"])]


def run_speakers(ctx: StageContext) -> dict:
    t0 = time.perf_counter()
    got = ctx.db.get_array(ctx.rid, "vad_rescued")
    centres_a, embs_a, labels, voices = speaker_windows_all(
        ctx.audio, _regions(ctx), got[0] if got is not None else np.zeros((0, 2), np.float32),
        ctx.models.speaker(), ctx.models.diariser(), ctx.report, ctx.check, ctx.models.ahead(), ctx.fingerprint)
    n = int(labels.max()) + 1 if len(labels) else 0

    def write() -> None:
        ctx.db.put_array(ctx.rid, "speaker_windows", embs_a.astype(np.float32), {"hop_s": SPEAKER_HOP_S})
        ctx.db.put_array(ctx.rid, "speaker_window_times", centres_a.astype(np.float32))
        ctx.db.put_array(ctx.rid, "speaker_window_labels", labels.astype(np.int32))
        if voices is not None:
            # The CAM++ embeddings that decided the labels, row for row with the windows above: voice cues are
            # scored on them (retrieval/tools.py), at half GE2E's equal-error rate.
            ctx.db.put_array(ctx.rid, VOICE_WINDOWS, voices.astype(np.float32), {"encoder": "campplus"})

    info = {"windows": len(embs_a), "speakers": n}
    ctx.finish("speakers", time.perf_counter() - t0, info, write)
    return info


def run_segments(ctx: StageContext) -> dict:
    """Turns from regions + speaker windows + words; speakers table with centroids."""
    t0 = time.perf_counter()
    regions, words = _regions(ctx), load_words(ctx)
    embs, _ = ctx.array("speaker_windows")
    centres, _ = ctx.array("speaker_window_times")
    labels, _ = ctx.array("speaker_window_labels")
    segs = turns.build_turns(turns.speaker_pieces(regions, centres, labels, words), words)
    used = sorted({s.speaker for s in segs if s.speaker is not None}, key=lambda k: min(
        s.start_s for s in segs if s.speaker == k))
    renum = {old: new for new, old in enumerate(used)}  # SPEAKER_1 speaks first

    def write() -> None:
        db = ctx.db.db
        old_names = {r["idx"]: r["name"] for r in db.query(
            "SELECT idx, name FROM speakers WHERE recording_id = ?", [ctx.rid])}
        db.execute("DELETE FROM segments WHERE recording_id = ?", [ctx.rid])
        db.execute("DELETE FROM speakers WHERE recording_id = ?", [ctx.rid])
        spk_ids = {}
        for old, new in renum.items():
            mask = labels == old
            centroid = embs[mask].mean(axis=0) if mask.any() else np.zeros(256, np.float32)
            centroid = centroid / max(float(np.linalg.norm(centroid)), 1e-9)
            spk_ids[old] = db["speakers"].insert({
                "recording_id": ctx.rid, "idx": new, "label": f"SPEAKER_{new + 1}",
                "name": old_names.get(new), "centroid": centroid.astype(np.float32).tobytes(),
                "total_s": round(sum(s.end_s - s.start_s for s in segs if s.speaker == old), 2),
            }).last_pk
        for i, s in enumerate(segs):
            sid = db["segments"].insert({
                "recording_id": ctx.rid, "idx": i, "start_s": s.start_s, "end_s": s.end_s,
                "speaker_id": spk_ids.get(s.speaker), "text": s.text,
            }).last_pk
            db["words"].insert_all(
                {"segment_id": sid, "recording_id": ctx.rid, "start_s": w.start_s, "end_s": w.end_s,
                 "text": w.text, "prob": w.prob} for w in s.words
            )

    info = {"segments": len(segs), "speakers": len(renum), "words": len(words)}
    ctx.finish("segments", time.perf_counter() - t0, info, write)
    return info
