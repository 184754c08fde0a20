"""Speech emotion: a small softmax head over pooled YAMNet embeddings, Whisper encoder states + numpy prosody.

Features (``FEATURE_VERSION``), shared with models/emotion/train_emotion.py so training
and inference cannot drift: the YAMNet 1024-d embeddings of the 0.48 s frames whose
centres fall inside the span, pooled as mean and std, then the Whisper encoder states of the
20 ms frames inside the span, pooled as mean and std. Where the states come from is the head's
``feature_version``: the shipped head v9 (issue 18, "speed back"; FEATURE_V7) reads the states the ASR
pass computed anyway (base encoder, 30 s windows of joined speech; ``emotion_states.asr_states``,
trained on clips heard the same way by models/emotion/asr_context.py). Heads up to v7 (FEATURE_V5) and
the v8 candidate (FEATURE_V6) encoded each segment again with tiny.en, alone with SEGMENT_PAD_S of its
surroundings (``segment_states``, ``ENCODINGS``: zero-padded 30 s windows, or unpadded windows of at
most SHORT_WINDOW_S); they still load. Then ``PROSODY``: pitch from a
vectorised YIN at 8 kHz, energy dynamics, a speaking-rate proxy, spectral balance and
MFCC 1-12 statistics over the active frames, all level-invariant (no absolute loudness:
it separates RAVDESS emotions but not real recordings). The head
(models/emotion/emotion_head.npz) standardises them (its ``std`` also carries the lower
weight of the embedding block) and applies a temperature-scaled softmax regression, then a log-prior shift towards neutral (everyday
speech is mostly neutral; RAVDESS is balanced). A head carrying speaker statistics (``spk_*``;
v7 and v9 of models/emotion/REPORT.md, issue 18) first z-scores the speech features
per diarized speaker (``speaker_norm``); the stage therefore scores a speaker's segments
together. The stage also stores each segment's top label and
its arousal/valence (the probabilities' place on the circumplex, ``emotion_dims.places``; issue 18)
in ``segment_emotion``.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import scipy.fft
import scipy.signal

from harp_desktop.index import speaker_norm
from harp_desktop.index.asr_states import STATES_PROFILE
from harp_desktop.index.emotion_dims import places, segment_rows
from harp_desktop.index.emotion_states import asr_model, asr_states
from harp_desktop.index.events import _MEL, log_mel
from harp_desktop.index.voice_quality import VOICE, pool_voice
from harp_desktop.index.whisper_enc import EncoderStates, encode

SR = 16000
SPEECH_VERSION = "emo-feat-v3"  # YAMNet + prosody + voice quality (speech_features), unchanged since head v3
WHISPER_PROFILE, WHISPER_DIM = "tiny.en", 384  # the encoder heads up to v7 / v8 run per segment (ENCODINGS)
SHORT_WINDOW_S = 8.0  # FEATURE_V6 (v8 candidate): the encoder runs on the segment itself, equal windows of at most this
FEATURE_V5 = f"emo-feat-v5-whisper-{WHISPER_PROFILE}"  # speech_features + Whisper states, 30 s padded windows
FEATURE_V6 = f"emo-feat-v6-whisper-{WHISPER_PROFILE}-unpadded{SHORT_WINDOW_S:g}s"  # the same, unpadded windows
ENCODINGS = {FEATURE_V5: (30.0, 30.0, False), FEATURE_V6: (SHORT_WINDOW_S, None, True)}  # -> encode(window_s, pad_to, equal)
# Head v9 (issue 18): the ASR pass's own encoder states (STATES_PROFILE, 30 s windows of joined speech: asr_states,
# emotion_states), pooled per segment as above; no encoder run of its own.
FEATURE_V7 = f"emo-feat-v7-asr-{STATES_PROFILE}-states"
WHISPER_DIMS = {FEATURE_V5: 384, FEATURE_V6: 384, FEATURE_V7: 512}  # the encoder's width for each version
# What the shipped head (models/emotion/emotion_head.npz, v9) was trained on: no encoder run of the stage's own
# (29 -> 3.5 CPU-s on dev) at held-out 8-class 0.677 / coarse 0.760 against v7's 0.670 / 0.737 (REPORT.md,
# "Head v9"). The v8 candidate (FEATURE_V6) lost coarse accuracy and was not shipped; heads on FEATURE_V5 / V6 load.
FEATURE_VERSION = FEATURE_V7
_SR8, _W, _HOP, _TMIN, _TMAX, _NFFT = 8000, 200, 80, 16, 134, 512  # YIN at 8 kHz: 25 ms, 60-500 Hz
_HANN = np.hanning(2 * _W).astype(np.float32)
PROSODY = [
    "voiced_ratio", "f0_median_st", "f0_range_st", "f0_std_st", "f0_delta_st", "f0_slope_st",
    "energy_std_db", "energy_range_db", "energy_delta_db", "onsets_per_s", "periodicity",
    "hf_ratio_db", "centroid_khz", "flatness",
] + [f"mfcc{i}_{s}" for s in ("mean", "std", "dstd") for i in range(1, 13)]
N_WHISPER = 2 * WHISPER_DIMS[FEATURE_VERSION]  # the shipped head's Whisper block (mean + std)
# The per-segment tiny.en encodings the training scripts compute themselves (train_emotion.py, train_dimensions.py,
# compare_speaker_norm.py without --states); v9's Whisper block comes from models/emotion/asr_context.py instead.
TINY_VERSION, N_WHISPER_TINY = FEATURE_V5, 2 * WHISPER_DIM
N_FEATURES = 2048 + N_WHISPER + len(PROSODY) + len(VOICE)  # YAMNet mean + std, Whisper mean + std, PROSODY, VOICE
_DCT = scipy.fft.dct(np.eye(64), type=2, norm="ortho", axis=0)[1:13].T.astype(np.float32)  # MFCC 1-12
FRAME_S = _HOP / _SR8  # 10 ms per prosody frame
MIN_SEGMENT_S, LONG_S, WIN_S, WIN_HOP_S = 0.8, 4.0, 3.0, 1.5
SEGMENT_PAD_S = 0.5  # audio around a segment encoded with it (training: 0.5 s of silence before a clip)
NON_EMOTIONAL = ("neutral", "calm")  # labels that do not mark a moment as emotional


def tracks(wav16k: np.ndarray) -> dict[str, np.ndarray]:
    """Per-10 ms-frame tracks: energy (dB), YIN f0 (semitones re 55 Hz), aperiodicity, spectral shape, MFCCs."""
    x16 = np.asarray(wav16k, dtype=np.float32)
    x = scipy.signal.resample_poly(x16, 1, 2).astype(np.float32)
    n = max(1, 1 + (len(x) - _W) // _HOP)
    x = np.pad(x, (0, max(0, (n - 1) * _HOP + _W + _TMAX - len(x))))
    fr = np.lib.stride_tricks.sliding_window_view(x, _W + _TMAX)[::_HOP][:n]
    a = fr[:, :_W]
    e0 = np.einsum("ij,ij->i", a, a) + 1e-10
    # YIN difference d(t) = e0 + e(t) - 2 r(t); r by FFT cross-correlation, e(t) from one cumsum.
    r = scipy.fft.irfft(np.conj(scipy.fft.rfft(a, _NFFT)) * scipy.fft.rfft(fr, _NFFT), _NFFT)[:, : _TMAX + 1]
    cs = np.concatenate([[0.0], np.cumsum(x.astype(np.float64) ** 2)])
    taus = np.arange(_TMAX + 1)
    pos = (np.arange(n) * _HOP)[:, None] + taus
    d = np.maximum(e0[:, None] + (cs[pos + _W] - cs[pos]) - 2 * r, 0.0)
    cm = d[:, 1:] * taus[1:] / np.maximum(np.cumsum(d[:, 1:], axis=1), 1e-12)
    c = cm[:, _TMIN - 1:]
    below = c < 0.2
    tau = np.where(below.any(axis=1), below.argmax(axis=1), c.argmin(axis=1))
    rows = np.arange(n)
    for _ in range(40):  # walk down to the local minimum after the first dip
        nxt = np.minimum(tau + 1, c.shape[1] - 1)
        step = c[rows, nxt] < c[rows, tau]
        if not step.any():
            break
        tau = np.where(step, nxt, tau)
    lo_, hi_ = c[rows, np.maximum(tau - 1, 0)], c[rows, np.minimum(tau + 1, c.shape[1] - 1)]
    curv = lo_ - 2 * c[rows, tau] + hi_
    frac = np.where(curv > 1e-9, np.clip(0.5 * (lo_ - hi_) / np.maximum(curv, 1e-9), -0.5, 0.5), 0.0)
    # Spectral balance at 16 kHz on the same 25 ms frames.
    y = np.pad(x16, (0, max(0, (n - 1) * 2 * _HOP + 2 * _W - len(x16))))
    spec = np.abs(scipy.fft.rfft(np.lib.stride_tricks.sliding_window_view(y, 2 * _W)[:: 2 * _HOP][:n] * _HANN,
                                 512)) ** 2 + 1e-12
    freqs = np.arange(spec.shape[1]) * SR / 512
    hi, lo = spec[:, freqs >= 2000].sum(1), spec[:, (freqs >= 80) & (freqs < 1000)].sum(1)
    return {
        "db": (10 * np.log10(e0 / _W)).astype(np.float32),
        "ap": c[rows, tau].astype(np.float32),
        "f0": (12 * np.log2(_SR8 / (tau + _TMIN + frac) / 55.0)).astype(np.float32),
        "hf": (10 * np.log10(hi / lo)).astype(np.float32),
        "cen": ((spec * freqs).sum(1) / spec.sum(1) / 1000).astype(np.float32),
        "flat": (np.exp(np.log(spec).mean(1)) / spec.mean(1)).astype(np.float32),
        "cep": (np.log(spec @ _MEL + 1e-8) @ _DCT).astype(np.float32),
        "mel": log_mel(x16),  # YAMNet's own log-mel frames (10 ms), for voice_quality
    }


def pool_tracks(t: dict[str, np.ndarray], lo: int = 0, hi: int | None = None) -> np.ndarray:
    """(len(PROSODY),) float32 features from frames [lo, hi) of ``tracks()``; level-invariant."""
    t = {k: v[lo:hi] for k, v in t.items()}
    db = t["db"]
    out = dict.fromkeys(PROSODY, 0.0)
    if not len(db):
        return np.zeros(len(PROSODY), np.float32)
    active = db > max(float(db.max()) - 35.0, -75.0)
    if not active.any():  # digital silence
        return np.zeros(len(PROSODY), np.float32)
    voiced = active & (t["ap"] < 0.3)
    n_act = max(1, int(active.sum()))
    out["voiced_ratio"] = voiced.sum() / n_act
    if voiced.sum() >= 3:
        f = t["f0"][voiced]
        p10, p50, p90 = np.percentile(f, [10, 50, 90])
        out.update(f0_median_st=p50, f0_range_st=p90 - p10, f0_std_st=f.std())
        both = voiced[1:] & voiced[:-1]
        if both.any():
            out["f0_delta_st"] = float(np.mean(np.minimum(np.abs(np.diff(t["f0"]))[both], 3.0)))
        tt = np.flatnonzero(voiced) * FRAME_S
        out["f0_slope_st"] = float(np.polyfit(tt, f, 1)[0]) if np.ptp(tt) > 0 else 0.0
        out["periodicity"] = float(1.0 - t["ap"][voiced].mean())
    ea = db[active]
    p10, p95 = np.percentile(ea, [10, 95])
    out.update(energy_std_db=ea.std(), energy_range_db=p95 - p10)
    both = active[1:] & active[:-1]
    out["energy_delta_db"] = float(np.abs(np.diff(db))[both].mean()) if both.any() else 0.0
    out.update(hf_ratio_db=t["hf"][active].mean(), centroid_khz=t["cen"][active].mean(),
               flatness=t["flat"][active].mean())
    onsets = int(np.sum(voiced[1:] & ~voiced[:-1]) + int(voiced[0]))
    out["onsets_per_s"] = onsets / (n_act * FRAME_S)
    c = t["cep"][active]
    dc = np.diff(c, axis=0) if len(c) > 1 else np.zeros((1, c.shape[1]), np.float32)
    for i, (m, sd, dsd) in enumerate(zip(c.mean(0), c.std(0), dc.std(0), strict=True), 1):
        out.update({f"mfcc{i}_mean": m, f"mfcc{i}_std": sd, f"mfcc{i}_dstd": dsd})
    return np.array([out[k] for k in PROSODY], np.float32)


def prosody(wav16k: np.ndarray) -> np.ndarray:
    """(len(PROSODY),) float32 prosodic features of a 16 kHz mono span (any level)."""
    return pool_tracks(tracks(wav16k))


def frames_in(times: np.ndarray, a: float, b: float) -> np.ndarray:
    """Indices of embedding frames whose centre lies in [a, b] (the nearest one if none)."""
    idx = np.flatnonzero((times >= a) & (times <= b))
    if not len(idx) and len(times):
        idx = np.array([int(np.argmin(np.abs(times - (a + b) / 2)))])
    return idx


def pool_embeddings(embeddings: np.ndarray) -> np.ndarray:
    e = np.asarray(embeddings, np.float32).reshape(-1, 1024)
    return np.concatenate([e.mean(0), e.std(0)]) if len(e) else np.zeros(2048, np.float32)


def speech_features(wav16k: np.ndarray, embeddings: np.ndarray) -> np.ndarray:
    """YAMNet embeddings (n, 1024) pooled as mean + std, then PROSODY, then voice_quality.VOICE (head v3's vector)."""
    t = tracks(wav16k)
    return np.concatenate([pool_embeddings(embeddings), pool_tracks(t), pool_voice(t)]).astype(np.float32)


def combine(speech: np.ndarray, whisper: np.ndarray) -> np.ndarray:
    """The head's vector: speech_features' YAMNet block, the pooled Whisper states, then its speech features."""
    return np.concatenate([speech[..., :2048], whisper, speech[..., 2048:]], axis=-1).astype(np.float32)


def features(wav16k: np.ndarray, embeddings: np.ndarray, whisper: np.ndarray) -> np.ndarray:
    """Feature vector of a span: YAMNet embeddings (n, 1024), its pooled Whisper states (N_WHISPER,
    ``EncoderStates.pool``), then prosody and voice quality of its audio."""
    return combine(speech_features(wav16k, embeddings), whisper)


def span_features(wav16k: np.ndarray, start_s: float, wins: list[tuple[float, float]], times: np.ndarray,
                  embs: np.ndarray, states: EncoderStates) -> np.ndarray:
    """features() of each window of a span starting at start_s, computing the prosody tracks once.

    ``states``: the Whisper encoder states of the recording (times in recording seconds, like
    ``times`` and the windows). The window covering the whole span gets exactly
    features(wav16k, ...); others pool a slice of the same 10 ms tracks."""
    t = tracks(wav16k)
    out = []
    for a, b in wins:
        lo = max(0, int(round((a - start_s) / FRAME_S)))
        hi = int(round((b - start_s - 2 * _W / SR) / FRAME_S)) + 1
        whole = b - a >= len(wav16k) / SR - 2 / SR  # the span itself: exactly features()
        sl = (0, None) if whole else (lo, max(hi, lo + 1))
        speech = np.concatenate([pool_embeddings(embs[frames_in(times, a, b)]), pool_tracks(t, *sl), pool_voice(t, *sl)])
        out.append(combine(speech, states.pool(a, b)))
    return np.array(out, np.float32)


def load_whisper(cpu_threads: int = 1, profile: str = WHISPER_PROFILE):
    """The ``profile`` faster-whisper model (int8, offline weights from the installed packages)."""
    from faster_whisper import WhisperModel

    from harp_desktop import weights

    return WhisperModel(str(weights.model_path(weights.ASR_PROFILES[profile])), device="cpu",
                        compute_type="int8", cpu_threads=cpu_threads)


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=-1, keepdims=True)


class EmotionModel:
    """The trained head: ``predict(wav, embeddings)`` -> {label: calibrated probability}."""

    def __init__(self, head_path: Path, tagger=None, whisper=None) -> None:
        with np.load(head_path, allow_pickle=False) as z:
            self.W, self.b = z["W"].astype(np.float32), z["b"].astype(np.float32)
            self.mean, self.std = z["mean"].astype(np.float32), z["std"].astype(np.float32)
            self.labels = [str(s) for s in z["labels"]]
            self.temperature = float(z["temperature"])
            self.log_prior = z["log_prior"].astype(np.float32) if "log_prior" in z.files else 0.0
            self.neutral = str(z["neutral"])
            version = str(z["feature_version"])
            # Speaker normalisation (head v4): columns [spk_start:] z-scored per speaker, shrunk to this prior.
            self.spk = ((int(z["spk_start"]), z["spk_mean"].astype(np.float64), z["spk_var"].astype(np.float64),
                         float(z["spk_n0"])) if "spk_start" in z.files else None)
        if version not in WHISPER_DIMS:
            raise ValueError(f"{head_path}: features {version}, this code computes {' or '.join(WHISPER_DIMS)}")
        self.feature_version = version
        # whisper_enc.encode's (window_s, pad_to, equal) for a per-segment tiny.en head; None: the ASR pass's states
        self.encoding = ENCODINGS.get(version)
        self._tagger = tagger  # a YamnetTagger, used only when no embeddings are given
        self._whisper = whisper  # a faster_whisper.WhisperModel of WHISPER_PROFILE; loaded on first predict() if None

    def speaker_normalise(self, feats: np.ndarray, ref: np.ndarray) -> np.ndarray:
        """feats z-scored by the statistics of ref (one feature row per segment of the same speaker).

        A head without speaker normalisation returns feats unchanged."""
        if self.spk is None:
            return np.atleast_2d(feats)
        start, prior_mean, prior_var, n0 = self.spk
        mean, std = speaker_norm.speaker_stats(np.atleast_2d(ref)[:, start:], prior_mean, prior_var, n0)
        return speaker_norm.normalise(feats, start, mean, std)

    def proba(self, feats: np.ndarray) -> np.ndarray:
        """(n, n_labels) probabilities for a (n, n_features) feature matrix (speaker-normalised already)."""
        x = (np.atleast_2d(feats) - self.mean) / self.std
        return softmax((x @ self.W + self.b) / self.temperature + self.log_prior)

    def clip_features(self, wav16k: np.ndarray, embeddings: np.ndarray | None = None) -> np.ndarray:
        """features() of one clip heard alone (YAMNet run here when no embeddings are given)."""
        if embeddings is None:
            if self._tagger is None:
                raise ValueError("no embeddings given and no YAMNet tagger to compute them")
            fs = self._tagger.run(np.asarray(wav16k, np.float32), hop_s=0.48, dense_hop_s=None)
            embeddings = fs.embeddings[frames_in(fs.times_s, 0.0, len(wav16k) / SR)]
        if self._whisper is None:
            self._whisper = load_whisper(profile=WHISPER_PROFILE if self.encoding else STATES_PROFILE)
        wav = np.asarray(wav16k, np.float32)
        # A clip heard alone: a v9 head's states come from one zero-padded 30 s window of it, as the last window of
        # an ASR chunk is padded (whisper_enc.encode's default cut).
        return features(wav, embeddings, encode(self._whisper, wav, *(self.encoding or ())).pool(0.0, len(wav) / SR))

    def predict(self, wav16k: np.ndarray, embeddings: np.ndarray | None = None) -> dict[str, float]:
        f = self.clip_features(wav16k, embeddings)
        p = self.proba(self.speaker_normalise(f, f))[0]  # one clip: its speaker statistics are mostly the prior
        return {k: float(v) for k, v in zip(self.labels, p, strict=True)}


def spans(a: float, b: float) -> list[tuple[float, float]]:
    """The segment itself, plus 3 s windows every 1.5 s when it is longer than 4 s."""
    out = [(a, b)]
    if b - a > LONG_S:
        n = int(np.ceil((b - a - WIN_S) / WIN_HOP_S)) + 1
        starts = np.linspace(a, b - WIN_S, n)
        out += [(float(s), float(s) + WIN_S) for s in starts]
    return out


def segment_states(whisper, audio: np.ndarray, a: float, b: float,
                   encoding: tuple = ENCODINGS[TINY_VERSION]) -> EncoderStates:
    """Whisper encoder states of one segment heard alone (SEGMENT_PAD_S of its own surroundings on each side,
    cut into windows as ``encoding`` says: ENCODINGS[the head's feature version]), times in recording seconds:
    as train_emotion.py encodes a clip."""
    i0 = max(0, int((a - SEGMENT_PAD_S) * SR))
    st = encode(whisper, audio[i0: int((b + SEGMENT_PAD_S) * SR)], *encoding)
    return EncoderStates(st.states, st.times + i0 / SR)


def segment_probs(model: EmotionModel, speakers: list, feats: list[np.ndarray]) -> list[np.ndarray]:
    """Per segment, (1 + windows, n_labels) probabilities of its rows (``span_features``: the whole segment first).

    Each diarized speaker's statistics come from all their segments (whole-segment rows), labels unknown."""
    by_speaker: dict = {}
    for spk, f in zip(speakers, feats, strict=True):
        by_speaker.setdefault(spk, []).append(f[0])
    ref = {spk: np.array(rows) for spk, rows in by_speaker.items()}
    return [model.proba(model.speaker_normalise(f, ref[spk])) for spk, f in zip(speakers, feats, strict=True)]


def whisper_model(ctx):
    """WHISPER_PROFILE's WhisperModel: the ASR stage's own when it used that profile, else loaded once per process."""
    return asr_model(ctx, WHISPER_PROFILE)


def run_emotion(ctx) -> dict:
    """Pipeline stage: one emotion tag per speech segment + per-segment probability vectors."""
    from harp_desktop import weights

    t0 = time.perf_counter()
    model = ctx.models.get("emotion", lambda: EmotionModel(weights.model_file("emotion", "emotion_head.npz")))
    embs, _ = ctx.array("event_embeddings")
    times, _ = ctx.array("event_times")
    segs = [s for s in ctx.db.db.query(
        "SELECT id, start_s, end_s, speaker_id FROM segments WHERE recording_id = ? ORDER BY idx", [ctx.rid])
        if s["end_s"] - s["start_s"] >= MIN_SEGMENT_S]
    plain = [i for i, lab in enumerate(model.labels) if lab in (model.neutral, *NON_EMOTIONAL)]
    whisper = whisper_model(ctx) if segs and model.encoding else None
    kept = asr_states(ctx) if segs and not model.encoding else None  # v9: the ASR pass's states, no encoder run
    feats = []  # per segment: (1 + windows, n_features); the whole segment first
    for i, s in enumerate(segs):
        if i % 20 == 0:
            ctx.check()
            ctx.report(0.9 * i / max(1, len(segs)))
        seg = ctx.audio[int(s["start_s"] * SR): int(s["end_s"] * SR)]
        states = kept or segment_states(whisper, ctx.audio, s["start_s"], s["end_s"], model.encoding)
        feats.append(span_features(seg, int(s["start_s"] * SR) / SR, spans(s["start_s"], s["end_s"]), times, embs,
                                   states))
    tags, ids, probs = [], [], []
    for s, p in zip(segs, segment_probs(model, [s["speaker_id"] for s in segs], feats), strict=True):
        wins = spans(s["start_s"], s["end_s"])
        ids.append(s["id"])
        probs.append(p[0])
        k = int(p[0].argmax())
        tags.append((wins[0], model.labels[k], float(p[0, k])))
        if len(wins) > 1 and plain:  # also the strongest emotional window, if it is that window's top label
            q = p[1:].copy()
            q[:, plain] = -1.0
            w, k = np.unravel_index(int(q.argmax()), q.shape)
            if p[1 + w].argmax() == k:
                tags.append((wins[1 + w], model.labels[k], float(p[1 + w, k])))
    # Arousal/valence: the whole-segment probabilities placed on the circumplex (emotion_dims.places; chosen
    # over a ridge head on the same features by leave-one-actor-out, models/emotion/DIMENSIONS.md).
    axes = ["arousal", "valence"]
    av = places(np.array(probs, np.float64).reshape(-1, len(model.labels)), model.labels, axes)
    info = {"segments": len(ids), "tags": len(tags)}

    def write() -> None:
        ctx.db.db.execute("DELETE FROM tags WHERE recording_id = ? AND kind = 'emotion'", [ctx.rid])
        ctx.db.db["tags"].insert_all(
            {"recording_id": ctx.rid, "kind": "emotion", "label": lab, "start_s": round(a, 3), "end_s": round(b, 3),
             "score": round(sc, 4), "source": "emotion-head"} for (a, b), lab, sc in tags)
        ctx.db.put_array(ctx.rid, "emotion_probs", np.array(probs, np.float32).reshape(-1, len(model.labels)),
                         {"labels": model.labels, "segment_ids": ids})
        ctx.db.db.execute("DELETE FROM segment_emotion WHERE recording_id = ?", [ctx.rid])
        ctx.db.db["segment_emotion"].insert_all(segment_rows(ctx.rid, ids, probs, av, model.labels, axes))

    ctx.finish("emotion", time.perf_counter() - t0, info, write)
    return info
