-- HARP Desktop library schema, version 1. Applied by store/db.py's migrator.
CREATE TABLE recordings (
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    format TEXT,
    sample_rate INTEGER,
    channels INTEGER,
    duration_s REAL NOT NULL,
    added_at TEXT NOT NULL,
    note TEXT
);
-- One row per finished stage; fingerprint = models + upstream stages it was built from.
CREATE TABLE stages (
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    stage TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    completed_at TEXT NOT NULL,
    seconds REAL,
    info TEXT,
    PRIMARY KEY (recording_id, stage)
);
CREATE TABLE speech_regions (
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    start_s REAL NOT NULL,
    end_s REAL NOT NULL,
    PRIMARY KEY (recording_id, idx)
);
-- ASR output per chunk of speech, committed chunk by chunk so a killed run resumes.
CREATE TABLE asr_chunks (
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    chunk INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    words TEXT NOT NULL,
    language TEXT,
    PRIMARY KEY (recording_id, chunk)
);
CREATE TABLE speakers (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    label TEXT NOT NULL,
    name TEXT,
    total_s REAL NOT NULL DEFAULT 0,
    centroid BLOB,
    UNIQUE (recording_id, idx)
);
CREATE TABLE segments (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    start_s REAL NOT NULL,
    end_s REAL NOT NULL,
    speaker_id INTEGER REFERENCES speakers(id) ON DELETE SET NULL,
    text TEXT NOT NULL DEFAULT '',
    UNIQUE (recording_id, idx)
);
CREATE INDEX segments_time ON segments (recording_id, start_s);
CREATE TABLE words (
    id INTEGER PRIMARY KEY,
    segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    start_s REAL NOT NULL,
    end_s REAL NOT NULL,
    text TEXT NOT NULL,
    prob REAL
);
CREATE INDEX words_segment ON words (segment_id);
CREATE TABLE tags (
    id INTEGER PRIMARY KEY,
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    start_s REAL NOT NULL,
    end_s REAL NOT NULL,
    score REAL NOT NULL,
    source TEXT
);
CREATE INDEX tags_time ON tags (recording_id, kind, label, start_s);
-- Numeric arrays a stage keeps for later stages (per-frame event scores, window embeddings).
CREATE TABLE arrays (
    recording_id INTEGER NOT NULL REFERENCES recordings(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    dtype TEXT NOT NULL,
    shape TEXT NOT NULL,
    meta TEXT,
    data BLOB NOT NULL,
    PRIMARY KEY (recording_id, name)
);
-- Full-text search over segment text (FTS5, bm25), kept in step by triggers.
CREATE VIRTUAL TABLE segments_fts USING fts5 (text, content=segments, content_rowid=id, tokenize='porter unicode61');
CREATE TRIGGER segments_ai AFTER INSERT ON segments BEGIN
    INSERT INTO segments_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER segments_ad AFTER DELETE ON segments BEGIN
    INSERT INTO segments_fts (segments_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER segments_au AFTER UPDATE ON segments BEGIN
    INSERT INTO segments_fts (segments_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO segments_fts (rowid, text) VALUES (new.id, new.text);
END;
