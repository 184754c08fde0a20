"""Recording from an input device (no Qt): the stream, the crash-safe writer, partial
recordings found after a crash, and transcription while the recording grows.

devices.py: what PortAudio offers; partial.py: the on-disk format (raw PCM + a JSON
sidecar, finalised to FLAC); recorder.py: the input stream and its writer thread;
live.py: speech detected and transcribed chunk by chunk; session.py: the three together,
then the normal Indexer once the recording stops.
"""
