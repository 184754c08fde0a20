"""Speaker embeddings (torch-free Resemblyzer GE2E encoder) and speaker clustering.

The front end and network match ``resemblyzer`` 0.1.4: 40-band power mel spectrogram
(25 ms Hann window, 10 ms hop, 16 kHz, Slaney mel scale), a 3-layer LSTM (256 units),
a linear layer with ReLU and L2 normalisation over 160-frame (1.6 s) partial windows.
The pretrained ``pretrained.pt`` is read with a restricted unpickler, without torch.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import pickle
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

SAMPLE_RATE = 16000
N_FFT = 400  # 25 ms
HOP = 160  # 10 ms
N_MELS = 40
PARTIAL_FRAMES = 160  # 1.6 s
HIDDEN = 256
_TARGET_DBFS = -30.0
_INT16_MAX = 2**15 - 1
_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
_DTYPES = {
    "FloatStorage": "<f4",
    "DoubleStorage": "<f8",
    "HalfStorage": "<f2",
    "LongStorage": "<i8",
    "IntStorage": "<i4",
}


# --- checkpoint loading without torch -------------------------------------------------
class _Storage:
    def __init__(self, dtype: str) -> None:
        self.dtype, self.data = np.dtype(dtype), None


class _Tensor:
    """Placeholder for a tensor whose storage bytes may only be read later."""

    def __init__(self, storage: _Storage, offset: int, size: tuple, stride: tuple) -> None:
        self.storage, self.offset, self.size, self.stride = storage, offset, size, stride

    def to_numpy(self) -> np.ndarray:
        data = self.storage.data
        if data is None:
            raise ValueError("tensor storage missing from checkpoint")
        last = self.offset + sum((n - 1) * s for n, s in zip(self.size, self.stride, strict=True) if n)
        if self.offset < 0 or (all(self.size) and last >= len(data)):
            raise ValueError("tensor view out of storage bounds")
        strides = tuple(s * data.itemsize for s in self.stride)
        return np.array(np.lib.stride_tricks.as_strided(data[self.offset :], self.size, strides))


def _rebuild_tensor(storage: _Storage, offset: int, size: tuple, stride: tuple, *_: Any) -> _Tensor:
    return _Tensor(storage, offset, tuple(size), tuple(stride))


class _Stub:  # any other torch object (e.g. a pickled module): kept opaque
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args

    def __setstate__(self, state: Any) -> None:
        self.state = state


class _Unpickler(pickle.Unpickler):
    def __init__(
        self, f: BinaryIO, storages: dict[str, _Storage], zf: zipfile.ZipFile | None = None, prefix: str = ""
    ) -> None:
        super().__init__(f)
        self.storages, self.zf, self.prefix = storages, zf, prefix

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch._utils" and name in ("_rebuild_tensor", "_rebuild_tensor_v2"):
            return _rebuild_tensor
        if module == "torch._utils" and name == "_rebuild_parameter":
            return lambda data, *_: data
        if module == "torch" and name in _DTYPES:
            return _DTYPES[name]
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        if module.startswith("torch"):
            return _Stub
        raise pickle.UnpicklingError(f"unsupported global {module}.{name}")

    def persistent_load(self, pid: Any) -> _Storage:
        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")
        dtype, key = pid[1], str(pid[2])
        storage = self.storages.setdefault(key, _Storage(dtype))
        if self.zf is not None and storage.data is None:
            storage.data = np.frombuffer(self.zf.read(f"{self.prefix}data/{key}"), storage.dtype)
        return storage


def _resolve(obj: Any) -> Any:
    if isinstance(obj, _Tensor):
        return obj.to_numpy()
    if isinstance(obj, dict):
        return type(obj)((k, _resolve(v)) for k, v in obj.items())
    return type(obj)(_resolve(v) for v in obj) if isinstance(obj, (list, tuple)) else obj


def load_torch_checkpoint(path: Path) -> Any:
    """Load a ``torch.save`` file (zip or legacy format), tensors as numpy arrays."""
    storages: dict[str, _Storage] = {}
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as zf:
                pkl = next(n for n in zf.namelist() if n.endswith("data.pkl"))
                with zf.open(pkl) as f:
                    return _resolve(_Unpickler(f, storages, zf, pkl[: -len("data.pkl")]).load())
        with open(path, "rb") as f:  # legacy: magic, protocol, sys info, object, storage keys, data
            if _Unpickler(f, storages).load() != _LEGACY_MAGIC:
                raise ValueError("bad magic number")
            obj = [_Unpickler(f, storages).load() for _ in range(3)][-1]
            for key in _Unpickler(f, storages).load():
                storage = storages[str(key)]
                count = int(np.frombuffer(f.read(8), "<i8")[0])  # element count, then raw data
                raw = f.read(count * storage.dtype.itemsize)
                if len(raw) != count * storage.dtype.itemsize:
                    raise ValueError("truncated storage data")
                storage.data = np.frombuffer(raw, storage.dtype)
        return _resolve(obj)
    except Exception as e:  # any parse failure: not a (supported) checkpoint
        raise ValueError(f"{path} is not a readable PyTorch checkpoint: {e}") from e


# --- front end --------------------------------------------------------------------------
_LOGSTEP = np.log(6.4) / 27.0  # Slaney scale: linear below 1 kHz (15 mel), log above


def _hz_to_mel(f: float) -> float:
    return 15.0 + np.log(f / 1000.0) / _LOGSTEP if f >= 1000.0 else f * 3.0 / 200.0


def mel_filters(sr: int = SAMPLE_RATE, n_fft: int = N_FFT, n_mels: int = N_MELS) -> np.ndarray:
    """Slaney-style mel filterbank, as ``librosa.filters.mel(htk=False, norm='slaney')``."""
    fftfreqs = np.fft.rfftfreq(n_fft, 1.0 / sr)
    mels = np.linspace(_hz_to_mel(0.0), _hz_to_mel(sr / 2.0), n_mels + 2)
    mel_f = np.where(mels >= 15.0, 1000.0 * np.exp(_LOGSTEP * (mels - 15.0)), mels * 200.0 / 3.0)
    fdiff = np.diff(mel_f)
    ramps = mel_f[:, None] - fftfreqs[None, :]
    lower = -ramps[:-2] / fdiff[:-1, None]
    upper = ramps[2:] / fdiff[1:, None]
    weights = np.maximum(0.0, np.minimum(lower, upper))
    weights *= (2.0 / (mel_f[2:] - mel_f[:-2]))[:, None]
    return weights.astype(np.float32)


_MEL = mel_filters()
_WINDOW = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)).astype(np.float32)


def mel_spectrogram(wav: np.ndarray) -> np.ndarray:
    """(n_frames, 40) power mel frames, librosa ``center=True`` with zero padding."""
    padded = np.pad(np.asarray(wav, dtype=np.float32), N_FFT // 2)
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP]
    out = np.empty((len(frames), N_MELS), dtype=np.float32)
    for i in range(0, len(frames), 4096):  # bound memory on long inputs
        spec = np.fft.rfft(frames[i : i + 4096] * _WINDOW, axis=1)
        out[i : i + 4096] = (spec.real**2 + spec.imag**2).astype(np.float32) @ _MEL.T
    return out


def normalize_volume(wav: np.ndarray) -> np.ndarray:
    """Raise (never lower) the level to -30 dBFS, as Resemblyzer's preprocess_wav."""
    wav = np.asarray(wav, dtype=np.float32)
    rms = float(np.sqrt(np.mean((wav.astype(np.float64) * _INT16_MAX) ** 2))) if len(wav) else 0.0
    change_db = _TARGET_DBFS - 20.0 * np.log10(rms / _INT16_MAX) if rms > 0 else 0.0
    return (wav * 10 ** (change_db / 20.0)).astype(np.float32) if change_db > 0 else wav


# --- encoder ---------------------------------------------------------------------------
@functools.cache
def _blas_threads_setter() -> Callable[[int], int] | None:
    """Thread-local thread-count setter of numpy's bundled OpenBLAS (>= 0.3.27), if present."""
    root = Path(np.__file__).parent
    for lib in [*root.parent.glob("numpy.libs/*openblas*"), *root.glob(".dylibs/*openblas*")]:
        try:
            fn = ctypes.CDLL(str(lib)).openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        fn.argtypes, fn.restype = [ctypes.c_int], ctypes.c_int
        return fn
    return None


@contextlib.contextmanager
def _single_thread_blas() -> Iterator[None]:
    """The LSTM does 480 small matmuls per batch: with the BLAS thread pool on a busy machine they
    get 5-20x slower (threads spin-waiting for a core), so the encoder runs single-threaded."""
    set_threads = _blas_threads_setter()
    previous = set_threads(1) if set_threads else None
    try:
        yield
    finally:
        if set_threads and previous is not None:
            set_threads(previous)


class SpeakerEncoder:
    """GE2E d-vector encoder with Resemblyzer's pretrained weights, in numpy."""

    def __init__(self, weights_path: Path, batch_size: int = 64) -> None:
        """Load Resemblyzer's ``pretrained.pt``; ``batch_size`` windows go through the LSTM at once."""
        ckpt = load_torch_checkpoint(Path(weights_path))
        state = ckpt.get("model_state", ckpt) if isinstance(ckpt, dict) else {}
        reorder = np.r_[0:512, 768:1024, 512:768]  # torch gates i,f,g,o -> i,f,o,g
        self._layers: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        try:
            for n in range(3):
                w_ih, w_hh = (
                    state[f"lstm.weight_{k}_l{n}"][reorder].T.astype(np.float32, order="C") for k in ("ih", "hh")
                )
                bias = (state[f"lstm.bias_ih_l{n}"] + state[f"lstm.bias_hh_l{n}"])[reorder].astype(np.float32)
                self._layers.append((w_ih, w_hh, bias))
            self._w_out = state["linear.weight"].T.astype(np.float32, order="C")
            self._b_out = state["linear.bias"].astype(np.float32)
        except (KeyError, IndexError, AttributeError, TypeError) as e:
            raise ValueError(f"{weights_path} is not a Resemblyzer voice encoder: {e}") from e
        self.batch_size = batch_size
        self.dim = HIDDEN

    def _forward(self, mels: np.ndarray) -> np.ndarray:
        """(batch, frames, 40) mel windows -> (batch, 256) L2-normalised embeddings."""
        out = np.empty((len(mels), HIDDEN), dtype=np.float32)
        for s in range(0, len(mels), self.batch_size):
            x = np.ascontiguousarray(np.swapaxes(mels[s : s + self.batch_size], 0, 1))  # (T, B, in)
            n_t, n_b = x.shape[:2]
            for w_ih, w_hh, bias in self._layers:
                gates_x = (x.reshape(n_t * n_b, -1) @ w_ih).reshape(n_t, n_b, 4 * HIDDEN)
                gates_x += bias
                h, c, ig = np.zeros((3, n_b, HIDDEN), np.float32)
                seq, g = np.empty((n_t, n_b, HIDDEN), np.float32), np.empty((n_b, 4 * HIDDEN), np.float32)
                sig, i_g, f_g, o_g, g_g = g[:, : 3 * HIDDEN], *np.split(g, 4, axis=1)
                for t in range(n_t):
                    np.matmul(h, w_hh, out=g)
                    g += gates_x[t]
                    sig *= 0.5  # sigmoid(x) = 0.5 * tanh(x / 2) + 0.5 on the i, f, o gates
                    np.tanh(g, out=g)
                    sig *= 0.5
                    sig += 0.5
                    c *= f_g
                    c += np.multiply(i_g, g_g, out=ig)
                    h = np.tanh(c, out=seq[t])
                    h *= o_g
                x = seq
            emb = np.maximum(h @ self._w_out + self._b_out, 0.0)
            out[s : s + n_b] = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
        return out

    def embed(self, wav: np.ndarray) -> np.ndarray:
        """Utterance embedding (256,), as Resemblyzer ``embed_utterance`` (rate 1.3, coverage 0.75)."""
        wav = normalize_volume(wav)
        if len(wav) == 0:
            raise ValueError("cannot embed empty audio")
        with _single_thread_blas():
            return self._embed(wav)

    def _embed(self, wav: np.ndarray) -> np.ndarray:
        n_frames = int(np.ceil((len(wav) + 1) / HOP))
        step = int(np.round(SAMPLE_RATE / 1.3 / HOP))
        starts = list(range(0, max(1, n_frames - PARTIAL_FRAMES + step + 1), step))
        if len(starts) > 1 and (len(wav) - starts[-1] * HOP) / (PARTIAL_FRAMES * HOP) < 0.75:
            starts.pop()
        stop = (starts[-1] + PARTIAL_FRAMES) * HOP
        mel = mel_spectrogram(np.pad(wav, (0, max(0, stop - len(wav)))))
        partials = self._forward(np.stack([mel[i : i + PARTIAL_FRAMES] for i in starts]))
        mean = partials.mean(axis=0)
        return (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32)

    def embed_windows(
        self, wav: np.ndarray, window_s: float = 1.6, hop_s: float = 0.8
    ) -> tuple[np.ndarray, np.ndarray]:
        """Sliding-window embeddings of one speech region: (centres_s (n,), embeddings (n, 256)).

        Windows start every ``hop_s``; a last window aligned to the end covers a long tail.
        A region shorter than ``window_s`` is zero-padded into a single window.
        """
        return self.embed_regions([wav], window_s, hop_s)[0]

    def embed_regions(
        self, wavs: list[np.ndarray], window_s: float = 1.6, hop_s: float = 0.8
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """``embed_windows`` of many regions, their windows sharing LSTM batches (faster for short regions)."""
        if len(wavs) == 0:
            return []
        win, hop = max(1, round(window_s * SAMPLE_RATE / HOP)), max(1, round(hop_s * SAMPLE_RATE / HOP))
        with _single_thread_blas():
            centres, mels = zip(*(self._windows(normalize_volume(w), win, hop) for w in wavs), strict=True)
            embs = self._forward(np.concatenate(mels))
        return list(zip(centres, np.split(embs, np.cumsum([len(c) for c in centres])[:-1]), strict=True))

    @staticmethod
    def _windows(wav: np.ndarray, win: int, hop: int) -> tuple[np.ndarray, np.ndarray]:
        """Window centres (s) and (n, win, 40) mel windows of one region."""
        if len(wav) == 0:
            return np.zeros(0, np.float32), np.zeros((0, win, N_MELS), np.float32)
        if len(wav) < win * HOP:
            mel = mel_spectrogram(np.pad(wav, (0, win * HOP - len(wav))))
            return np.array([len(wav) / 2 / SAMPLE_RATE], np.float32), mel[None, :win]
        mel = mel_spectrogram(wav)
        last = len(wav) // HOP - win + 1  # last start whose window stays inside the audio
        starts = list(range(0, last + 1, hop))
        if last - starts[-1] > hop // 2:
            starts.append(last)
        centres = (np.array(starts) + win / 2) * HOP / SAMPLE_RATE
        return centres.astype(np.float32), np.stack([mel[i : i + win] for i in starts])


# --- clustering -------------------------------------------------------------------------
def cluster_speakers(
    embeddings: np.ndarray, threshold: float = 0.4, min_cluster_weight: float = 2.0, weights: np.ndarray | None = None,
    attach_only: np.ndarray | None = None, groups: np.ndarray | None = None,
    method: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """Average-linkage agglomerative clustering on cosine distance, cut at ``threshold``
    (or ``method``: unit-norm rows -> labels, e.g. ``clustering.cluster_voices``).

    Clusters whose total weight (row count, or sum of ``weights``) is below
    ``min_cluster_weight`` are merged into the nearest remaining cluster (by centroid).
    Rows flagged in ``attach_only`` take no part in clustering (unless every row is flagged).
    They are attached per ``groups`` id (e.g. the speech region they lie in; each row alone
    without): to the most common label of the clustered rows of their group, or, if it has
    none, to the cluster nearest the group's mean. Returns int labels 0..K-1 ordered by first
    appearance.
    """
    emb = np.asarray(embeddings, dtype=np.float64)
    emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
    side = np.zeros(len(emb), bool) if attach_only is None else np.asarray(attach_only, bool)
    if side.any() and not side.all():
        core = (method(emb[~side]) if method else
                _cluster(emb[~side], threshold, min_cluster_weight, None if weights is None else weights[~side]))
        labels = np.full(len(emb), -1, np.int64)
        labels[~side] = core
        cents = _centroids(emb[~side], core, np.unique(core))
        group = np.arange(len(emb)) if groups is None else np.asarray(groups)
        for g in np.unique(group[side]):
            mine = side & (group == g)
            known = labels[(group == g) & ~side]
            labels[mine] = (np.bincount(known).argmax() if len(known)
                            else int(np.argmax(cents @ emb[mine].mean(axis=0))))
    else:
        labels = method(emb) if method else _cluster(emb, threshold, min_cluster_weight, weights)
    remap: dict[int, int] = {}
    for lab in labels:
        remap.setdefault(int(lab), len(remap))
    return np.array([remap[int(lab)] for lab in labels], dtype=np.int64)


def _centroids(emb: np.ndarray, labels: np.ndarray, ids: np.ndarray) -> np.ndarray:
    cents = np.stack([emb[labels == k].mean(axis=0) for k in ids])
    return cents / np.linalg.norm(cents, axis=1, keepdims=True)


def _cluster(emb: np.ndarray, threshold: float, min_cluster_weight: float, weights: np.ndarray | None) -> np.ndarray:
    """Labels (0..K-1 in ``np.unique`` order of fcluster's ids) of unit-norm rows."""
    from scipy.cluster.hierarchy import fcluster, linkage

    if len(emb) <= 1:
        return np.zeros(len(emb), dtype=np.int64)
    labels = fcluster(linkage(emb, method="average", metric="cosine"), t=threshold, criterion="distance")
    w = np.ones(len(emb)) if weights is None else np.asarray(weights, dtype=np.float64)
    ids = np.unique(labels)
    mass = np.array([w[labels == k].sum() for k in ids])
    keep = ids[mass >= min_cluster_weight] if min_cluster_weight > 0 else ids
    if len(keep) == 0:
        keep = ids[[int(np.argmax(mass))]]
    if len(keep) < len(ids):
        small = ~np.isin(labels, keep)
        labels[small] = keep[np.argmax(emb[small] @ _centroids(emb, labels, keep).T, axis=1)]
    return np.searchsorted(np.unique(labels), labels).astype(np.int64)


# --- channel ----------------------------------------------------------------------------
PHONE_BAND_HZ = (300.0, 3400.0)


def band_limit(wav: np.ndarray, band: tuple[float, float] = PHONE_BAND_HZ) -> np.ndarray:
    """``wav`` through a telephone band-pass (4th-order Butterworth, zero phase): GE2E hears a
    phone-band cue and full-band speech of one person as two voices; compared through the
    same band they match again."""
    from scipy.signal import butter, sosfiltfilt

    x = np.asarray(wav, dtype=np.float32)
    if len(x) < 64:
        return x
    sos = butter(4, band, btype="bandpass", fs=SAMPLE_RATE, output="sos")
    return sosfiltfilt(sos, x).astype(np.float32)


def is_phone_band(wav: np.ndarray) -> bool:
    """True when almost no energy lies above 4 kHz relative to 300-3400 Hz: telephone speech.
    On the bank and dev cue clips the phone cues give <= 0.0003, full-band speech >= 0.004."""
    x = np.asarray(wav, dtype=np.float32)
    if len(x) < N_FFT:
        return False
    p = np.abs(np.fft.rfft(np.lib.stride_tricks.sliding_window_view(x, N_FFT)[::HOP] * _WINDOW)) ** 2
    f = np.fft.rfftfreq(N_FFT, 1 / SAMPLE_RATE)
    spec = p.sum(0)
    mid = spec[(f >= 300) & (f <= 3400)].sum()
    return bool(mid > 0 and spec[f >= 4000].sum() / mid < 0.001)


# --- voice cues -------------------------------------------------------------------------
def main_voice(scored: list[tuple[float, str | None, Any]], near_best: float) -> str | None:
    """The diarised speaker the turns near the best mostly belong to (by summed similarity)."""
    best = max((s for s, _, _ in scored), default=0.0)
    weight: dict[str, float] = {}
    for s, lab, _ in scored:
        if lab and s >= best - near_best:
            weight[lab] = weight.get(lab, 0.0) + s
    return max(sorted(weight), key=lambda k: weight[k]) if weight else None


def pick_voice(scored: list[tuple[float, str | None, Any]], match: float, near_best: float) -> list[Any]:
    """The items in an example clip's voice, from (similarity, diarised speaker, item) triples.

    Those within ``near_best`` of the best (when the best reaches ``match``), and every other
    item of the diarised speaker those mostly belong to (``main_voice``) that still reaches ``match``. Why: a
    speaker's short or emotional turns (often the first) score below their long calm ones,
    so "near the best" alone found a later turn first (bank and dev voice-cue questions: the
    first turn right for 3 of 7); diarisation has already tied those turns to the voice.
    """
    best = max((s for s, _, _ in scored), default=0.0)
    if best < match:
        return []
    main = main_voice(scored, near_best)
    return [it for s, lab, it in scored
            if s >= max(match, best - near_best) or (main is not None and lab == main and s >= match)]
