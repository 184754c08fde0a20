"""Encrypted libraries: the passphrase, its key file and the process keyring.

An encrypted library keeps ``encryption.json`` beside its database: the scrypt
parameters, a random per-library salt and a check value (a constant sealed with the
file key), so a wrong passphrase is refused before anything is opened or written.
scrypt turns the passphrase into 64 bytes: the first 32 are SQLCipher's raw key (so
SQLCipher's own slow PBKDF2 runs never: one derivation per open, not one per
connection), the last 32 seal every other file (AES-256-GCM, see store/sealed.py).

There is no recovery: the passphrase is stored nowhere, and nothing can derive the key
without it. The keyring keeps unlocked keys for this process only (the GUI's worker
threads open the same library again without asking twice).
"""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

KEY_FILE = "encryption.json"
FORMAT = "harp-encrypted-library"
_CHECK = b"HARP Desktop library key check v1"
# ~0.25 s and 32 MiB on one core: costly for a guesser, unnoticed once per open.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 1 << 15, 8, 1
LOST_PASSPHRASE_WARNING = (
    "An encrypted library can only be opened with its passphrase. If the passphrase is lost, "
    "the library's data is lost: there is no recovery, not even by the developers. Files you "
    "export to a place of your choice are not encrypted and are yours to protect."
)


class PassphraseError(RuntimeError):
    """The library is encrypted and no (or a wrong) passphrase was given; one line for the user."""


class EncryptionUnavailable(RuntimeError):
    """The optional 'encryption' extra (sqlcipher3-binary, cryptography) is not installed."""


@dataclass(frozen=True)
class LibraryKey:
    db_key: bytes  # SQLCipher raw key
    file_key: bytes  # AES-256-GCM for vectors, arrays, audio cache, envelopes

    def sqlcipher_pragma(self) -> str:
        return f"PRAGMA key = \"x'{self.db_key.hex()}'\""

    def export(self) -> str:
        """Both keys as one base64 line, to hand to a child process (over a pipe, never argv)."""
        return base64.b64encode(self.db_key + self.file_key).decode("ascii")

    @classmethod
    def from_export(cls, text: str) -> LibraryKey:
        raw = base64.b64decode(text.strip())
        if len(raw) != 64:
            raise PassphraseError("the library key handed to this process is malformed")
        return cls(raw[:32], raw[32:])


_keyring: dict[str, LibraryKey] = {}
_lock = threading.Lock()


def _aesgcm():
    try:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    except ImportError:
        raise EncryptionUnavailable(
            "encrypted libraries need the 'encryption' extra: pip install 'harp-desktop[encryption]' "
            "(installer/setup.sh installs it)") from None
    return AESGCM


def _derive(passphrase: str, salt: bytes, n: int, r: int, p: int) -> LibraryKey:
    _aesgcm()  # the same extra brings both; fail with one clear line if it is missing
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    raw = Scrypt(salt=salt, length=64, n=n, r=r, p=p).derive(passphrase.encode("utf-8"))
    return LibraryKey(raw[:32], raw[32:])


def _ident(folder: Path) -> str:
    return str(Path(folder).expanduser().resolve())


def key_file(folder: Path) -> Path:
    return Path(folder) / KEY_FILE


def is_encrypted(folder: Path) -> bool:
    return key_file(folder).exists()


def create(folder: Path, passphrase: str) -> LibraryKey:
    """Make ``folder`` (new or empty of a database) an encrypted library; returns its unlocked key."""
    if not passphrase:
        raise PassphraseError("an encrypted library needs a non-empty passphrase")
    if is_encrypted(folder):
        raise PassphraseError(f"{folder} is already an encrypted library")
    salt = os.urandom(16)
    key = _derive(passphrase, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    nonce = os.urandom(12)
    check = nonce + _aesgcm()(key.file_key).encrypt(nonce, _CHECK, FORMAT.encode())
    doc = {"format": FORMAT, "version": 1, "kdf": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P,
           "salt": base64.b64encode(salt).decode(), "check": base64.b64encode(check).decode(),
           "cipher": "sqlcipher4 (raw key) + aes-256-gcm",
           "warning": "Without the passphrase this library cannot be read. There is no recovery."}
    target = key_file(folder)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.partial")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1)
    os.replace(tmp, target)
    remember(folder, key)
    return key


def verify(folder: Path, key: LibraryKey) -> bool:
    """Whether ``key`` opens ``folder`` (checked against the key file, nothing else is read)."""
    from cryptography.exceptions import InvalidTag

    doc = _read_key_file(folder)
    check = base64.b64decode(doc["check"])
    try:
        return _aesgcm()(key.file_key).decrypt(check[:12], check[12:], FORMAT.encode()) == _CHECK
    except InvalidTag:
        return False


def _read_key_file(folder: Path) -> dict:
    try:
        doc = json.loads(key_file(folder).read_text(encoding="utf-8"))
        if doc.get("format") != FORMAT or doc.get("version") != 1:
            raise ValueError(doc.get("format"))
        return doc
    except (OSError, ValueError, AttributeError) as exc:
        raise PassphraseError(f"{key_file(folder)} is damaged or from a newer HARP Desktop ({exc})") from None


def unlock(folder: Path, passphrase: str) -> LibraryKey:
    """Derive the key from ``passphrase``; PassphraseError (nothing touched) if it is wrong."""
    doc = _read_key_file(folder)
    key = _derive(passphrase, base64.b64decode(doc["salt"]), int(doc["n"]), int(doc["r"]), int(doc["p"]))
    if not verify(folder, key):
        raise PassphraseError(f"wrong passphrase for the encrypted library {folder}")
    remember(folder, key)
    return key


def remember(folder: Path, key: LibraryKey) -> None:
    with _lock:
        _keyring[_ident(folder)] = key


def forget(folder: Path | None = None) -> None:
    """Drop one library's key from this process (all keys when ``folder`` is None)."""
    with _lock:
        if folder is None:
            _keyring.clear()
        else:
            _keyring.pop(_ident(folder), None)


def unlocked(folder: Path) -> LibraryKey | None:
    with _lock:
        return _keyring.get(_ident(folder))


def key_for(folder: Path) -> LibraryKey | None:
    """The key every writer inside ``folder`` must seal with: None for a plain library;
    PassphraseError for an encrypted one that this process has not unlocked, so nothing
    is ever written to an encrypted library in the clear."""
    if not is_encrypted(folder):
        return None
    key = unlocked(folder)
    if key is None:
        raise PassphraseError(f"the library {folder} is encrypted and locked; open it with its passphrase first")
    return key
