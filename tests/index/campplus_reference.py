"""The straightforward numpy CAM++ (harp_desktop/index/campplus.py before stop 28): the fast path is held to it.

Batch norms as separate affines, 2-D convs one matmul per tap on strided views, the CAM gate per frame.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harp_desktop.index.campplus import _BLOCKS
from harp_desktop.index.speakers import load_torch_checkpoint


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


class ReferenceCamPlus:
    """The network as first written (one step per torch module; checked against PyTorch to 3e-7)."""

    def __init__(self, weights_path: Path) -> None:
        sd = load_torch_checkpoint(Path(weights_path))
        self.sd = {k: np.asarray(v, np.float32) for k, v in sd.items() if not k.endswith("num_batches_tracked")}

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
