"""Sentence embeddings: all-MiniLM-L6-v2 (int8 ONNX) with its own tokenizer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

DIM = 384
MAX_TOKENS = 256


class TextEmbedder:
    def __init__(self, onnx_path: Path, tokenizer_path: Path, threads: int = 2) -> None:
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        self.session = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    def embed(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """(len(texts), 384) float32, mean-pooled over real tokens and L2-normalised."""
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        # Sort by length so padding inside a batch stays small.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for b in range(0, len(order), batch_size):
            idx = order[b : b + batch_size]
            enc = self.tokenizer.encode_batch([texts[i] or " " for i in idx])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            hidden = self.session.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )[0]
            m = mask[..., None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out[idx] = pooled
        return out
