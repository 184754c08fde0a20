"""HARP's retrieval tools over one indexed recording, each restricted to a time window.

Every tool returns Evidence items with its own score in ``scores[tool]`` (0..1, higher
is better). Tools never invent: a tool that fails is retried once by ``run`` and then
reported unavailable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from rapidfuzz import fuzz

from harp_desktop.audio.decode import SAMPLE_RATE, load_clip, open_cache
from harp_desktop.index.ambient_labels import AMBIENT_SOURCE
from harp_desktop.index.diarise import VOICE_WINDOWS
from harp_desktop.types import Evidence

TOOLS = ("time", "keyword", "label", "text_emb", "audio_emb", "speaker")
_FTS_TOKEN = re.compile(r"[\w']+", re.UNICODE)


@dataclass
class ToolResult:
    tool: str
    args: dict
    items: list[Evidence] = field(default_factory=list)
    error: str | None = None  # set when the tool failed twice: reported, never invented
    seconds: float = 0.0


class RecordingTools:
    """The tools bound to one recording of a Library (see harp_desktop.api)."""

    def __init__(self, library, recording: dict) -> None:
        self.lib = library
        self.rec = recording
        self.rid = recording["id"]
        self._segments = {s["id"]: s for s in library.db.segments(self.rid)}
        self._tags = library.db.tags(self.rid)

    # -- helpers ----------------------------------------------------------------
    def segments_in(self, start_s: float, end_s: float) -> list[dict]:
        return [s for s in self._segments.values() if s["end_s"] > start_s and s["start_s"] < end_s]

    def labels_for(self, start_s: float, end_s: float) -> list[str]:
        out = []
        for t in self._tags:
            if t["end_s"] > start_s and t["start_s"] < end_s:
                prefix = "emotion:" if t["kind"] == "emotion" else ""
                lab = f"{prefix}{t['label']} ({t['score']:.2f})"
                if lab not in out:
                    out.append(lab)
        return out

    def question_share(self) -> dict[str, tuple[int, float]]:
        """Per speaker: turns, and the share of turns that ask a question (clinicians ask most)."""
        turns: dict[str, list[bool]] = {}
        for s in self._segments.values():
            if s["speaker"] and s["text"].strip():
                turns.setdefault(s["speaker"], []).append("?" in s["text"])
        return {k: (len(v), sum(v) / len(v)) for k, v in turns.items()}

    def from_segment(self, seg: dict, tool: str, score: float) -> Evidence:
        return Evidence(seg["start_s"], seg["end_s"], seg["id"], seg["speaker"], seg["text"],
                        self.labels_for(seg["start_s"], seg["end_s"]), {tool: round(float(score), 4)})

    def _window_ids(self, start_s: float, end_s: float) -> set[int]:
        return {s["id"] for s in self.segments_in(start_s, end_s)}

    # -- tools ------------------------------------------------------------------
    def time(self, start_s: float, end_s: float) -> list[Evidence]:
        """Every segment in the window (a filter: score 1.0, never summed into ranking)."""
        return [self.from_segment(s, "time", 1.0) for s in sorted(self.segments_in(start_s, end_s),
                                                                  key=lambda s: s["start_s"])]

    def keyword(self, terms: list[str], start_s: float, end_s: float, k: int = 20) -> list[Evidence]:
        """FTS5 bm25 over segment text, normalised to 0..1 (best hit = 1); fuzzy fallback for misspellings."""
        words = [w for t in terms for w in _FTS_TOKEN.findall(t.lower()) if len(w) > 1][:16]
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(words))  # quoted: user text is never FTS syntax
        rows = list(self.lib.db.db.query(
            "SELECT s.id, bm25(segments_fts) AS rank FROM segments_fts JOIN segments s ON s.id = segments_fts.rowid "
            "WHERE segments_fts MATCH ? AND s.recording_id = ? AND s.end_s > ? AND s.start_s < ? "
            "ORDER BY rank LIMIT ?", [match, self.rid, start_s, end_s, k]))
        out: dict[int, float] = {}
        if rows:
            best = min(r["rank"] for r in rows)  # bm25 is negative: lower is better
            for r in rows:
                out[r["id"]] = r["rank"] / best if best < 0 else 1.0
        # Whisper misspells drug names ("am low dipine"): fuzzy-match long terms too.
        long_terms = [w for w in dict.fromkeys(words) if len(w) >= 6]
        for seg in self.segments_in(start_s, end_s):
            for w in long_terms:
                ratio = fuzz.partial_ratio(w, seg["text"].lower().replace(" ", "").replace("-", ""))
                if ratio >= 85:
                    out[seg["id"]] = max(out.get(seg["id"], 0.0), 0.8 * ratio / 100)
        ranked = sorted(out.items(), key=lambda kv: -kv[1])[:k]
        return [self.from_segment(self._segments[i], "keyword", s) for i, s in ranked]

    def label(self, label: str, start_s: float, end_s: float, kind: str | None = None) -> list[Evidence]:
        """Event / emotion tags with this label in the window: every one (adaptive K is decided later)."""
        out = []
        for t in self._tags:
            if t["label"] != label or (kind and t["kind"] != kind):
                continue
            if not (t["end_s"] > start_s and t["start_s"] < end_s):
                continue
            segs = self.segments_in(t["start_s"], t["end_s"])
            seg = max(segs, key=lambda s: min(s["end_s"], t["end_s"]) - max(s["start_s"], t["start_s"]), default=None)
            ev = Evidence(t["start_s"], t["end_s"], None, seg["speaker"] if seg else None,
                          seg["text"] if seg else "", self.labels_for(t["start_s"], t["end_s"]),
                          {"label": round(float(t["score"]), 4)})
            if t["kind"] == "emotion" and seg is not None:
                ev.segment_id = seg["id"]  # an emotion belongs to the speech it colours
            # A bodily sound's span may hold several coughs; an ambient event (a phone's rings) is one sequence.
            bursts = self._bursts(t["start_s"], t["end_s"]) if t["kind"] == "event" and t.get("source") != AMBIENT_SOURCE \
                else []
            if len(bursts) > 1 and all(b[0] - a[1] >= 0.5 for a, b in zip(bursts, bursts[1:], strict=False)):
                for a, b in bursts:  # one event per separate burst, each with its own span
                    out.append(Evidence(max(0.0, a - 0.15), b + 0.15, None, ev.speaker, ev.text, ev.labels,
                                        dict(ev.scores)))
            else:
                out.append(ev)
        return out

    def _bursts(self, start_s: float, end_s: float) -> list[tuple[float, float]]:
        """Loud bursts inside an event span that no transcribed word covers.

        YAMNet hears ~1 s patches, so two coughs a second apart come out as one event;
        counting bursts in the audio (20 ms frames within 12 dB of the event's peak)
        separates them, and ignoring bursts under words keeps speech out of the count.
        """
        cache = self.lib.folder / "audio" / f"{self.rec['sha256']}.f32"
        if not cache.exists():
            return []
        audio = open_cache(cache)
        x = np.asarray(audio[int(start_s * SAMPLE_RATE) : int(end_s * SAMPLE_RATE)], np.float32)
        n = len(x) // 320
        if n < 3:
            return []
        db = 10 * np.log10((x[: n * 320].reshape(n, 320) ** 2).mean(axis=1) + 1e-12)
        on = db > db.max() - 12
        runs: list[list[int]] = []
        for i in np.flatnonzero(on):
            if runs and i - runs[-1][1] <= 15:  # gaps under 0.3 s belong to the same burst
                runs[-1][1] = i + 1
            else:
                runs.append([int(i), int(i) + 1])
        words = list(self.lib.db.db.query(
            "SELECT start_s, end_s FROM words WHERE recording_id = ? AND end_s > ? AND start_s < ?",
            [self.rid, start_s, end_s]))
        out = []
        for a, b in runs:
            s, e = start_s + a * 0.02, start_s + b * 0.02
            if e - s >= 0.06 and not any(w["start_s"] < e and w["end_s"] > s for w in words):
                out.append((round(s, 2), round(e, 2)))
        return out

    def text_emb(self, query: str, start_s: float, end_s: float, k: int = 10) -> list[Evidence]:
        vec = self.lib.models.text().embed([query])[0]
        hits = self.lib.vectors.search(self.rec["sha256"], "text", vec, k, self._window_ids(start_s, end_s))
        return [self.from_segment(self._segments[i], "text_emb", max(0.0, s)) for i, s in hits]

    def cue_embedding(self, cue: Path | np.ndarray, space: str) -> np.ndarray:
        wav = load_clip(Path(cue)) if not isinstance(cue, np.ndarray) else cue
        if len(wav) < 4000:
            raise ValueError("the example clip is shorter than 0.25 s")
        if space == "speaker":
            return self.lib.models.speaker().embed(wav)
        if space == "voice":  # CAM++, the encoder of the stored VOICE_WINDOWS (index/diarise.py)
            return self.lib.models.diariser().embed(wav)
        fs = self.lib.models.yamnet().run(wav)
        emb = fs.embeddings if fs.embeddings is not None else fs.scores
        v = np.asarray(emb, np.float32).mean(axis=0)
        return v / max(float(np.linalg.norm(v)), 1e-9)

    def band_embeddings(self, clips: list[np.ndarray]) -> np.ndarray:
        """Unit CAM++ embeddings of ``clips`` heard only through the telephone band (``CamPlusEncoder.embed_band``,
        the phone-link comparison): a voice through a phone line and in the room, each so, match again."""
        from harp_desktop.index.speakers import PHONE_BAND_HZ

        e = self.lib.models.diariser().embed_band(clips, PHONE_BAND_HZ)
        return e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)

    def audio_emb(self, cue: Path | np.ndarray, start_s: float, end_s: float, k: int = 10) -> list[Evidence]:
        """Moments that sound like the cue: per-frame YAMNet embeddings, peaks merged into spans."""
        vec = self.cue_embedding(cue, "audio")
        got = self.lib.array(self.rid, "event_embeddings_q8")
        times_got = self.lib.array(self.rid, "event_times")
        if got is None or times_got is None:
            raise RuntimeError("this recording has no audio embeddings; re-index it")
        all_times = times_got[0]
        lo, hi = np.searchsorted(all_times, start_s), np.searchsorted(all_times, end_s, side="right")
        times = all_times[lo:hi]
        # Stored unit-norm int8 (stages_embed.unit_q8); cast in blocks that stay in cache instead
        # of one fresh 30 MB-per-hour float32 copy (its page faults were most of the cost).
        frames = got[0][lo:hi]
        sims = np.empty(len(frames), np.float32)
        for i in range(0, len(frames), 512):
            sims[i:i + 512] = frames[i:i + 512].astype(np.float32) @ vec
        sims /= 127.0
        # Only the best few hundred frames can become the k spans (1 s apart): skip a full sort.
        top = min(len(sims), 40 * k)
        cand = np.argpartition(-sims, top - 1)[:top] if 0 < top < len(sims) else np.arange(len(sims))
        order = cand[np.argsort(-sims[cand])]
        out: list[Evidence] = []
        for i in order:
            t = float(times[i])
            if any(abs(t - (e.start_s + e.end_s) / 2) < 1.0 for e in out):
                continue
            a, b = max(0.0, t - 0.5), t + 0.5
            segs = self.segments_in(a, b)
            seg = segs[0] if segs else None
            out.append(Evidence(a, b, None, seg["speaker"] if seg else None, seg["text"] if seg else "",
                                self.labels_for(a, b), {"audio_emb": round(float(max(0.0, sims[i])), 4)}))
            if len(out) >= k:
                break
        return out

    @property
    def voice_encoder(self) -> str:
        """Which encoder's cosines ``speaker`` returns for a cue clip: "campplus" when the recording's CAM++
        windows are stored (speakers stage v5 on), else "ge2e". Their thresholds differ
        (settle.voice_thresholds): a score means nothing without its encoder."""
        if "_voice_encoder" not in self.__dict__:
            got = self.lib.array(self.rid, VOICE_WINDOWS)
            self._voice_encoder = "campplus" if got is not None and len(got[0]) else "ge2e"
        return self._voice_encoder

    def speaker(self, cue: Path | np.ndarray | None, name: str | None, start_s: float, end_s: float,
                k: int = 20) -> list[Evidence]:
        """Segments in the voice of the cue clip (cosine to each segment's voice, on ``voice_encoder``'s
        scale), or of a named speaker."""
        if name:
            wanted = name.strip().lower()
            ids = [s["id"] for s in self.lib.db.speakers(self.rid)
                   if wanted in {(s["name"] or "").lower(), s["label"].lower()}]
            return [self.from_segment(s, "speaker", 1.0) for s in self.segments_in(start_s, end_s)
                    if s["speaker_id"] in ids]
        if self.voice_encoder == "campplus":
            # CAM++ windows (the ones that decided the labels): half GE2E's equal-error rate on a cue
            # against a recording's speech, phone-band cues included (docs/decisions.md, stop 28).
            vec = self.cue_embedding(cue, "voice")
            got = self.lib.array(self.rid, VOICE_WINDOWS)
        else:
            vec = self.cue_embedding(cue, "speaker")
            got = self.lib.array(self.rid, "speaker_windows")
        times = self.lib.array(self.rid, "speaker_window_times")
        if got is None or times is None or not len(got[0]):
            hits = self.lib.vectors.search(self.rec["sha256"], "speaker", vec, k, self._window_ids(start_s, end_s))
            return [self.from_segment(self._segments[i], "speaker", max(0.0, s)) for i, s in hits]
        # A segment's voice score is its best 1.6 s window: segment means blur short turns
        # (a 2 s emotional line) into their neighbours.
        sims, t = got[0] @ vec, times[0]
        scored = []
        for seg in self.segments_in(start_s, end_s):
            inside = (t >= seg["start_s"] - 0.1) & (t <= seg["end_s"] + 0.1)
            if inside.any():
                scored.append((float(sims[inside].max()), seg))
        scored.sort(key=lambda x: -x[0])
        return [self.from_segment(seg, "speaker", max(0.0, s)) for s, seg in scored[:k]]
