"""Stages over segments and the whole signal: sound events and the three embeddings."""

from __future__ import annotations

import time

import numpy as np

from harp_desktop.index.context import StageContext

# Per-frame class scores kept for later tools (cough-vs-speech scoring, emotion cues).
KEPT_CLASSES = [
    "Speech", "Music", "Silence", "Cough", "Throat clearing", "Sneeze", "Wheeze", "Breathing", "Gasp",
    "Laughter", "Giggle", "Crying, sobbing", "Sigh", "Shout", "Yell", "Screaming", "Whispering",
    "Snoring", "Sniff", "Groan", "Hiccup", "Burping, eructation", "Baby cry, infant cry",
]


def tagger(ctx: StageContext):
    return ctx.models.yamnet()


def run_events(ctx: StageContext) -> dict:
    from harp_desktop.index.events import detect_events, with_cough_onsets

    t0 = time.perf_counter()
    tg = tagger(ctx)
    # Tagged here, never taken from the recording worker: its stitched scores did not always equal this run
    # (record/ahead.py).
    fs = tg.run(ctx.audio, progress=ctx.report, should_stop=ctx.should_stop)
    ctx.check()
    tags = with_cough_onsets(detect_events(fs, tg.class_names), ctx.audio, tg)  # one stored event per cough
    keep = [tg.class_names.index(c) for c in KEPT_CLASSES if c in tg.class_names]
    emb = fs.embeddings if fs.embeddings is not None else fs.scores

    def write() -> None:
        # its own rows only: the sounds stage's ambient events (source yamnet-ambient) are that stage's
        ctx.db.db.execute("DELETE FROM tags WHERE recording_id = ? AND kind = 'event' AND source = 'yamnet'", [ctx.rid])
        ctx.db.db["tags"].insert_all(
            {"recording_id": ctx.rid, "kind": "event", "label": t.label, "start_s": t.start_s,
             "end_s": t.end_s, "score": round(float(t.score), 4), "source": "yamnet"} for t in tags
        )
        ctx.db.put_array(ctx.rid, "event_times", fs.times_s.astype(np.float32), {"hop_s": fs.hop_s})
        ctx.db.put_array(ctx.rid, "event_scores", fs.scores[:, keep].astype(np.float16),
                         {"classes": [tg.class_names[i] for i in keep]})
        ctx.db.put_array(ctx.rid, "event_embeddings", np.asarray(emb, dtype=np.float16))

    info = {"frames": len(fs.times_s), "events": len(tags)}
    ctx.finish("events", time.perf_counter() - t0, info, write)
    return info


def sounds_key(options) -> str:
    from harp_desktop import weights
    from harp_desktop.index.events import ambient_key

    return f"{weights.fingerprint('events')}:ambient-{ambient_key()}"


def run_sounds(ctx: StageContext) -> dict:
    """Ambient sounds of the room (telephone, knock, alarm, music, dog): a stage of their own, so
    adding or retuning them re-runs only this one (the events stage's fingerprint feeds VAD, ASR and
    everything after). YAMNet's coarse pass only: ~0.7 ms a patch, a few seconds an hour."""
    from harp_desktop.index.beside import sounds_key as ahead_key
    from harp_desktop.index.chunk_cache import take_or
    from harp_desktop.index.events import AMBIENT_SOURCE, detect_ambient

    t0 = time.perf_counter()
    tg = tagger(ctx)
    # Computed beside the events stage (index/beside.py) from exactly this input, or computed now.
    fs = take_or(ctx.models.ahead(), lambda: ahead_key(ctx.fingerprint, ctx.sha),
                 lambda: tg.run(ctx.audio, progress=ctx.report, should_stop=ctx.should_stop, dense_hop_s=None))
    ctx.check()
    tags = detect_ambient(fs, tg.class_names, ctx.audio)

    def write() -> None:
        ctx.db.db.execute("DELETE FROM tags WHERE recording_id = ? AND kind = 'event' AND source = ?",
                          [ctx.rid, AMBIENT_SOURCE])
        ctx.db.db["tags"].insert_all(
            {"recording_id": ctx.rid, "kind": "event", "label": t.label, "start_s": t.start_s,
             "end_s": t.end_s, "score": round(float(t.score), 4), "source": AMBIENT_SOURCE} for t in tags
        )

    info = {"frames": len(fs.times_s), "events": len(tags)}
    ctx.finish("sounds", time.perf_counter() - t0, info, write)
    return info


def _segments(ctx: StageContext) -> list[dict]:
    return list(ctx.db.db.query(
        "SELECT id, start_s, end_s, text FROM segments WHERE recording_id = ? ORDER BY idx", [ctx.rid]))


def run_text_emb(ctx: StageContext) -> dict:

    t0 = time.perf_counter()
    emb = ctx.models.text()
    segs = [s for s in _segments(ctx) if s["text"].strip()]
    vecs = emb.embed([s["text"] for s in segs]) if segs else np.zeros((0, 384), np.float32)
    ctx.check()
    ctx.vectors.write(ctx.sha, "text", np.array([s["id"] for s in segs]), vecs)
    info = {"vectors": len(segs)}
    ctx.finish("text_emb", time.perf_counter() - t0, info, lambda: None)
    return info


def _mean_in(times: np.ndarray, vecs: np.ndarray, a: float, b: float) -> np.ndarray | None:
    mask = (times >= a) & (times <= b)
    if not mask.any():
        if not len(times):
            return None
        mask = np.zeros(len(times), bool)
        mask[int(np.argmin(np.abs(times - (a + b) / 2)))] = True
    v = vecs[mask].astype(np.float32).mean(axis=0)
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else None


def _segment_means(ctx: StageContext, stage: str, space: str, frames: str, times_name: str, dim: int,
                   write=lambda: None) -> dict:
    """Per-segment vectors as the mean of the frame/window vectors inside each segment."""
    t0 = time.perf_counter()
    embs, _ = ctx.array(frames)
    times, _ = ctx.array(times_name)
    ids, vecs = [], []
    for s in _segments(ctx):
        v = _mean_in(times, embs, s["start_s"], s["end_s"])
        if v is not None:
            ids.append(s["id"])
            vecs.append(v)
    dim = embs.shape[1] if embs.ndim == 2 else dim
    ctx.vectors.write(ctx.sha, space, np.array(ids), np.array(vecs).reshape(-1, dim))
    info = {"vectors": len(ids), "dim": dim}
    ctx.finish(stage, time.perf_counter() - t0, info, write)
    return info


def run_speaker_emb(ctx: StageContext) -> dict:
    return _segment_means(ctx, "speaker_emb", "speaker", "speaker_windows", "speaker_window_times", 256)


def unit_q8(frames: np.ndarray, block: int = 4096) -> np.ndarray:
    """Unit-normalised frames scaled to int8: the audio_emb tool's cosine is then one cast and
    one mat-vec, with no per-query norms or float16 upcast (the slow part at 100 hours)."""
    out = np.empty(frames.shape, np.int8)
    for i in range(0, len(frames), block):
        f = np.asarray(frames[i:i + block], np.float32)
        f /= np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-9)
        out[i:i + block] = np.round(f * 127.0)
    return out


def run_audio_emb(ctx: StageContext) -> dict:
    embs, _ = ctx.array("event_embeddings")
    return _segment_means(ctx, "audio_emb", "audio", "event_embeddings", "event_times", 1024,
                          lambda: ctx.db.put_array(ctx.rid, "event_embeddings_q8", unit_q8(embs)))


def emotion_key(options) -> str:
    from harp_desktop import weights
    from harp_desktop.index import emotion

    # A speaker-normalised head (scored per diarized speaker) changes the weights fingerprint itself; the
    # Whisper encoder's weights (a fixed ASR profile, whatever the ASR stage uses: tiny.en per segment up to v7,
    # base's states for v9) are part of the features. The ASR stage's own fingerprint chains in via segments.
    profile = emotion.WHISPER_PROFILE if emotion.FEATURE_VERSION in emotion.ENCODINGS else emotion.STATES_PROFILE
    whisper = weights.fingerprint(weights.ASR_PROFILES[profile])
    return f"{weights.fingerprint('emotion')}:{emotion.FEATURE_VERSION}:{whisper}:w{emotion.WIN_S}/{emotion.WIN_HOP_S}:v1"


def run_emotion(ctx: StageContext) -> dict:
    from harp_desktop.index.emotion import run_emotion

    return run_emotion(ctx)
