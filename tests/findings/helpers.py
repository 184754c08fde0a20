"""Synthetic recordings written straight into a library (no audio, no models): the findings
layer reads only rows, so its tests need no indexing."""

from __future__ import annotations

from harp_desktop.findings import service
from harp_desktop.findings.model import Finding, Turn
from harp_desktop.store.db import LibraryDB, now_iso

CONSULTATION = [  # (start, end, speaker label, text): a receptionist, then a GP and a patient
    (1.0, 5.0, "SPEAKER_1", "Good morning. Missus Patel? The doctor is ready for you now."),
    (7.0, 10.0, "SPEAKER_2", "Hello, come in and take a seat. What brings you in today?"),
    (11.0, 15.0, "SPEAKER_3", "Hello doctor. I have had a cough for about a week now."),
    (16.0, 19.0, "SPEAKER_2", "Are you bringing up any phlegm when you cough?"),
    (20.0, 23.0, "SPEAKER_3", "No, nothing comes up. It is a dry cough."),
    (24.0, 26.0, "SPEAKER_2", "Have you had a fever?"),
    (27.0, 30.0, "SPEAKER_3", "Yes, thirty eight point two on Tuesday."),
    (32.0, 36.0, "SPEAKER_2", "Let me listen to your chest. Take a deep breath in, and out."),
    (38.0, 42.0, "SPEAKER_2", "I think this is a viral chest infection. Keep taking the paracetamol."),
    (43.0, 45.0, "SPEAKER_3", "Thank you, doctor."),
]


def seg(start: float, end: float, label: str | None, text: str) -> dict:
    return {"start_s": start, "end_s": end, "speaker": label, "text": text}


def make_recording(db: LibraryDB, turns: list[tuple], tags: list[tuple] = (), sha: str = "ab" * 32) -> int:
    """A recording with speakers, segments and event tags ((label, start, end) each)."""
    rid = db.db["recordings"].insert({"sha256": sha, "path": f"/tmp/{sha[:8]}.flac", "name": f"{sha[:8]}.flac",
                                      "duration_s": max(t[1] for t in turns) + 5, "added_at": now_iso()}).last_pk
    write_turns(db, rid, turns)
    for label, a, b in tags:
        db.db["tags"].insert({"recording_id": rid, "kind": "event", "label": label, "start_s": a, "end_s": b,
                              "score": 0.9, "source": "test"})
    return rid


def write_turns(db: LibraryDB, rid: int, turns: list[tuple]) -> None:
    """Speakers and segments replaced as the segments stage does (speaker rows deleted and re-made)."""
    names = {r["idx"]: r["name"] for r in db.db.query("SELECT idx, name FROM speakers WHERE recording_id = ?", [rid])}
    db.db.execute("DELETE FROM segments WHERE recording_id = ?", [rid])
    db.db.execute("DELETE FROM speakers WHERE recording_id = ?", [rid])
    labels = sorted({t[2] for t in turns}, key=lambda k: int(k.split("_")[1]))
    ids = {}
    for lab in labels:
        idx = int(lab.split("_")[1]) - 1
        ids[lab] = db.db["speakers"].insert({"recording_id": rid, "idx": idx, "label": lab,
                                             "name": names.get(idx), "total_s": 1.0}).last_pk
    for i, (a, b, lab, text) in enumerate(turns):
        db.db["segments"].insert({"recording_id": rid, "idx": i, "start_s": a, "end_s": b, "speaker_id": ids[lab],
                                  "text": text})


def fake_extract(turns: list[Turn]) -> list[Finding]:
    """A stand-in for findings.extract: a 'cough' or 'fever' in a turn is one finding."""
    out = []
    for t in turns:
        for word, cat in (("cough", "respiratory"), ("fever", "general")):
            if word in t.text.lower():
                status = "negated" if t.text.lower().startswith("no") else "affirmed"
                out.append(Finding(word, cat, "symptom", status, t.speaker, t.role, t.start_s, t.end_s, t.text,
                                   segment_ids=(t.segment_id,)))
    return out


def run_stage(db: LibraryDB, rid: int, extractor=fake_extract) -> service.Analysis:
    """What the findings stage does, without a StageContext."""
    a = service.analyse(db, rid, None, extractor)
    with db.transaction():
        service.write_analysis(db, rid, a)
        db.mark_stage_done(rid, "findings", "test", 0.0, a.info())
    return a


def speech_like_audio(duration_s: float, phone_spans: list[tuple[float, float]] = (), sr: int = 16000,
                      floor: float = 1e-4):
    """Wideband noise with a syllable rhythm (fricative-like energy up to 8 kHz) and a room floor
    (``floor`` rms); inside ``phone_spans`` the same noise passed through a 300-3400 Hz band."""
    import numpy as np

    rng = np.random.default_rng(7)
    n = int(duration_s * sr)
    t = np.arange(n) / sr
    x = (rng.standard_normal(n) * (np.sin(2 * np.pi * 3 * t) > 0) * 0.1).astype(np.float32)
    for a, b in phone_spans:
        i, j = int(a * sr), int(b * sr)
        spec = np.fft.rfft(x[i:j])
        f = np.fft.rfftfreq(j - i, 1 / sr)
        spec[(f < 300) | (f > 3400)] = 0
        x[i:j] = np.fft.irfft(spec, j - i)
    return x + rng.standard_normal(n).astype(np.float32) * np.float32(floor)
