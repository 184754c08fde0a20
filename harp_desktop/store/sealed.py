"""Sealed files of an encrypted library: AES-256-GCM under the library's file key.

Two formats, both recognised by their first 8 bytes, so readers need no flag:

- a blob (vector index, large array, waveform envelope): ``HARPSEAL`` + nonce + ciphertext;
- a stream (the decoded audio cache, 230 MB per hour): ``HARPAUD1`` + an 8-byte nonce
  prefix + the chunk size, then 1 MiB chunks, each sealed on its own with its index and a
  "last" flag in the associated data, so it is written while decoding (bounded memory)
  and a truncated or reordered file fails to open instead of reading short.

Each file's associated data names what it is (e.g. ``vectors/<sha256>/text``): a sealed
file copied over another's name fails to open rather than being read as the wrong thing.
A raw float32 cache can never begin with either magic: its samples are clipped to [-1, 1],
and both magics read as floats of about 1e10.
"""

from __future__ import annotations

import os
import struct
import threading
from pathlib import Path
from typing import BinaryIO

import numpy as np

from harp_desktop.store.atomic import sweep_stale, tmp_path
from harp_desktop.store.crypto import LibraryKey, PassphraseError, _aesgcm

BLOB_MAGIC = b"HARPSEAL"
STREAM_MAGIC = b"HARPAUD1"
CHUNK_BYTES = 1 << 20
_TAG = 16


def magic_of(path: Path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read(8)


def is_sealed(path: Path) -> bool:
    return magic_of(path) in (BLOB_MAGIC, STREAM_MAGIC)


def _damaged(path: Path) -> PassphraseError:
    return PassphraseError(f"{path} cannot be decrypted: it is damaged or belongs to another library")


def seal(key: LibraryKey, data: bytes, aad: str) -> bytes:
    nonce = os.urandom(12)
    return BLOB_MAGIC + nonce + _aesgcm()(key.file_key).encrypt(nonce, data, aad.encode())


def unseal(key: LibraryKey, blob: bytes, aad: str, path: Path | str = "a sealed file") -> bytes:
    from cryptography.exceptions import InvalidTag

    if blob[:8] != BLOB_MAGIC:
        raise _damaged(Path(path))
    try:
        return _aesgcm()(key.file_key).decrypt(blob[8:20], blob[20:], aad.encode())
    except InvalidTag:
        raise _damaged(Path(path)) from None


def write_blob(path: Path, key: LibraryKey, data: bytes, aad: str) -> None:
    """Seal ``data`` into ``path`` atomically (temporary name + rename), user-only."""
    sweep_stale(path)
    tmp = tmp_path(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(seal(key, data, aad))
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def read_blob(path: Path, key: LibraryKey, aad: str) -> bytes:
    return unseal(key, Path(path).read_bytes(), aad, path)


class StreamWriter:
    """Seal a byte stream chunk by chunk; ``close()`` seals the last (possibly empty) chunk."""

    def __init__(self, fh: BinaryIO, key: LibraryKey, aad: str) -> None:
        self.fh, self.aead, self.aad = fh, _aesgcm()(key.file_key), aad.encode()
        self.prefix = os.urandom(8)
        self.buf = bytearray()
        self.index = 0
        fh.write(STREAM_MAGIC + self.prefix + struct.pack("<I", CHUNK_BYTES))

    def _emit(self, chunk: bytes, last: bool) -> None:
        nonce = self.prefix + struct.pack("<I", self.index)
        aad = self.aad + struct.pack("<I?", self.index, last)
        self.fh.write(self.aead.encrypt(nonce, chunk, aad))
        self.index += 1

    def write(self, data: bytes) -> None:
        self.buf += data
        while len(self.buf) > CHUNK_BYTES:  # keep at least one byte back: the last chunk is flagged
            self._emit(bytes(self.buf[:CHUNK_BYTES]), False)
            del self.buf[:CHUNK_BYTES]

    def close(self) -> None:
        self._emit(bytes(self.buf), True)
        self.buf.clear()


def read_stream(path: Path, key: LibraryKey, aad: str, dtype: type = np.float32) -> np.ndarray:
    """The whole stream decrypted into one in-memory array (never written back to disk)."""
    from cryptography.exceptions import InvalidTag

    aead = _aesgcm()(key.file_key)
    size = Path(path).stat().st_size
    with open(path, "rb") as fh:
        head = fh.read(20)
        if len(head) != 20 or head[:8] != STREAM_MAGIC:
            raise _damaged(Path(path))
        prefix, chunk = head[8:16], struct.unpack("<I", head[16:20])[0]
        body = size - 20
        n_chunks = max(1, -(-body // (chunk + _TAG)))
        plain = body - n_chunks * _TAG
        if plain < 0 or plain % np.dtype(dtype).itemsize:
            raise _damaged(Path(path))
        out = np.empty(plain // np.dtype(dtype).itemsize, dtype=dtype)
        view = memoryview(out).cast("B")
        pos = 0
        for i in range(n_chunks):
            last = i == n_chunks - 1
            ct = fh.read(chunk + _TAG)
            try:
                pt = aead.decrypt(prefix + struct.pack("<I", i), ct, aad.encode() + struct.pack("<I?", i, last))
            except InvalidTag:
                raise _damaged(Path(path)) from None
            view[pos:pos + len(pt)] = pt
            pos += len(pt)
    out.flags.writeable = False  # like the read-only memmap of a plain library
    return out


# The last decrypted audio cache, so each question does not decrypt the recording again.
_last: dict[tuple, np.ndarray] = {}
_last_lock = threading.Lock()


def read_stream_cached(path: Path, key: LibraryKey, aad: str) -> np.ndarray:
    st = Path(path).stat()
    ident = (str(Path(path).resolve()), st.st_mtime_ns, st.st_size, key.file_key)
    with _last_lock:
        if ident in _last:
            return _last[ident]
    arr = read_stream(path, key, aad)
    with _last_lock:
        _last.clear()
        _last[ident] = arr
    return arr
