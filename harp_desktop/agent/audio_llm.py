"""Audio / multimodal evidence: clips of the retrieved moments played to an audio-capable LLM.

The user supplies the model: a GGUF whose projector (mmproj) has an audio encoder, run by
llama.cpp's mtmd through llama-cpp-python's low-level bindings (its high-level chat
handlers take images only). No such pair ships with the app, so every failure -- nothing
configured, a missing or non-GGUF file, a vision-only or text-only "projector", a build
without mtmd -- becomes one note in the answer and the metadata path answers instead.

The answer uses the metadata path's constrained format (answer, evidence_used, reason),
code writes the citations from the evidence numbers, and agent/verify checks them.
"""

from __future__ import annotations

import ctypes
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from harp_desktop import weights
from harp_desktop.agent import answer as ans
from harp_desktop.agent import audio_evidence as ae
from harp_desktop.agent.audio_evidence import AudioModelConfig
from harp_desktop.agent.plan import Plan
from harp_desktop.audio.decode import open_cache
from harp_desktop.errors import user_message
from harp_desktop.types import Evidence

if TYPE_CHECKING:
    from contextlib import AbstractContextManager


class LibraryFolder(Protocol):
    """What answer() reads of a Library: its folder (the decoded audio cache is folder/audio/).
    A protocol, not harp_desktop.api.Library, so the agent never imports the API built on it."""

    folder: Path


_loaded: dict[tuple, AudioLLM] = {}
_failed: dict[tuple, str] = {}  # same files, same failure: not re-loaded (a multi-GB model) per question
_load_lock = threading.Lock()
FALLBACK = "used the metadata evidence path"


class AudioLLMError(RuntimeError):
    """The audio model or its projector is missing, unsuitable or failed while answering."""


def _quiet() -> AbstractContextManager:
    """Silence llama.cpp's C-side logging to fd 1/2 (the clip loader prints every tensor)."""
    from llama_cpp._utils import suppress_stdout_stderr

    return suppress_stdout_stderr(disable=False)


def _is_gguf(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(4) == b"GGUF"


def check_files(config: AudioModelConfig) -> tuple[Path, Path]:
    """Cheap checks before llama.cpp sees anything: both set, both present, both GGUF."""
    if not config.model or not config.projector:
        missing = ("the audio model (--audio-model / $HARP_AUDIO_MODEL)" if not config.model
                   else "its projector (--audio-projector / $HARP_AUDIO_PROJECTOR)")
        if not config.configured:
            raise AudioLLMError("no audio-capable model is configured (set --audio-model and --audio-projector, "
                                "$HARP_AUDIO_MODEL and $HARP_AUDIO_PROJECTOR, or Settings)")
        raise AudioLLMError(f"{missing} is not set")
    model, projector = config.paths()
    for what, p in (("audio model", model), ("audio projector", projector)):
        if not p.is_file():
            raise AudioLLMError(f"{what} file not found: {p}")
        try:
            ok = _is_gguf(p)
        except OSError as exc:
            raise AudioLLMError(f"cannot read the {what} {p}: {user_message(exc)}") from exc
        if not ok:
            raise AudioLLMError(f"the {what} {p.name} is not a GGUF file")
    return model, projector


def _mtmd() -> tuple[Any, Any]:
    try:
        import llama_cpp
        import llama_cpp.mtmd_cpp as mtmd
    except (ImportError, OSError, AttributeError) as exc:  # OSError: built with -DLLAVA_BUILD=OFF, no libmtmd
        raise AudioLLMError(f"this llama-cpp-python has no multimodal (mtmd) support ({user_message(exc)})") from exc
    return llama_cpp, mtmd


def projector_caps(projector: Path) -> tuple[bool, bool]:
    """(vision, audio) that a projector file declares, read without loading its weights."""
    _, mtmd = _mtmd()
    with _quiet():
        caps = mtmd.mtmd_get_cap_from_file(str(projector).encode())
    return bool(caps.inp_vision), bool(caps.inp_audio)


def eval_and_generate(llama: Any, chunks: Iterable[tuple[str, Any]], eval_media: Callable[[Any, int], int],
                      grammar: Any, max_tokens: int, temperature: float, seed: int) -> str:
    """Evaluate a tokenised prompt chunk by chunk, then generate from it under ``grammar``.

    ``chunks``: ("text", token ids) or ("media", n_tokens, opaque chunk); ``eval_media``
    evaluates a media chunk at position n_past and returns the new n_past. The prompt is
    then re-submitted as llama.input_ids[:n_tokens], which the Llama object sees as fully
    cached, so generation (and its grammar) runs through the ordinary create_completion.
    This is the scheme llama-cpp-python's own mtmd chat handler uses.
    """
    llama.reset()
    llama._ctx.kv_cache_clear()
    last = None
    for chunk in chunks:
        last = chunk[0]
        if chunk[0] == "text":
            tokens = list(chunk[1])
            if llama.n_tokens + len(tokens) > llama.n_ctx():
                raise AudioLLMError(f"the prompt does not fit the audio model's context ({llama.n_ctx()} tokens)")
            llama.eval(tokens)
        else:
            if llama.n_tokens + chunk[1] > llama.n_ctx():
                raise AudioLLMError(f"the clips do not fit the audio model's context ({llama.n_ctx()} tokens)")
            llama.n_tokens = eval_media(chunk[2], llama.n_tokens)
    if last != "text":  # generation re-reads the last prompt token: it must be a real token
        raise AudioLLMError("the prompt must end with text after the last clip")
    prompt = llama.input_ids[: llama.n_tokens].tolist()
    out = llama.create_completion(prompt=prompt, max_tokens=max_tokens, temperature=temperature, seed=seed,
                                  grammar=grammar)
    return out["choices"][0]["text"] or ""


class AudioLLM:
    """An audio-capable GGUF with its mtmd projector, loaded once. Calls are serialised."""

    def __init__(self, config: AudioModelConfig, n_ctx: int = 4096, n_threads: int = 1,
                 n_threads_batch: int = 2) -> None:
        model_path, proj_path = check_files(config)
        llama_cpp, mtmd = self._llama_cpp, self._mtmd = _mtmd()
        vision, audio = projector_caps(proj_path)
        if not audio:
            raise AudioLLMError(f"the projector {proj_path.name} " + (
                "supports images only, not audio: choose an audio projector (mmproj) for this model" if vision
                else "is not a multimodal projector (mmproj) with an audio encoder"))
        t0 = time.perf_counter()
        try:
            self._llama = llama_cpp.Llama(model_path=str(model_path), n_ctx=n_ctx, n_threads=n_threads,
                                          n_threads_batch=n_threads_batch, verbose=False)
        except (ValueError, RuntimeError, OSError) as exc:
            raise AudioLLMError(f"could not load the audio model {model_path.name} ({user_message(exc)})") from exc
        logging.getLogger("llama-cpp-python").setLevel(logging.CRITICAL)
        params = mtmd.mtmd_context_params_default()
        params.use_gpu, params.print_timings, params.n_threads = False, False, n_threads_batch
        with _quiet():
            ctx = mtmd.mtmd_init_from_file(str(proj_path).encode(), self._llama.model, params)
        if not ctx:
            self._llama.close()
            raise AudioLLMError(f"llama.cpp could not load the projector {proj_path.name} with the model "
                                f"{model_path.name} (are they a matching pair?)")
        self._ctx = ctx
        self._llama._stack.callback(lambda: mtmd.mtmd_free(ctx))  # freed before the model it points into
        if not mtmd.mtmd_support_audio(ctx):
            self.close()
            raise AudioLLMError(f"the projector {proj_path.name} loaded but does not take audio")
        rate = int(mtmd.mtmd_get_audio_sample_rate(ctx))  # -1 when unknown: Whisper-style encoders take 16 kHz
        self.sample_rate = rate if rate > 0 else ae.SAMPLE_RATE
        self.marker = (mtmd.mtmd_default_marker() or ae.MEDIA_MARKER.encode()).decode()
        self.load_seconds = time.perf_counter() - t0
        self.model_path, self.projector_path = model_path, proj_path
        self._lock = threading.Lock()
        self._grammars: dict[str, Any] = {}
        self.record = {"model": str(model_path), "model_sha256": weights.file_sha256(model_path),
                       "projector": str(proj_path), "projector_sha256": weights.file_sha256(proj_path)}

    @property
    def name(self) -> str:
        meta = self._llama.metadata
        return meta.get("general.name") or self.model_path.stem

    def describe(self) -> dict:
        """The answer's ``models.audio_llm`` entry: name, both files and their SHA-256."""
        return {"name": self.name, **self.record}

    def render(self, system: str, user: str) -> tuple[str, bool]:
        """The chat prompt in the model's own template; (text, whether it already has BOS)."""
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        llama = self._llama
        template = llama.metadata.get("tokenizer.chat_template")
        if template:
            model = llama._model
            eos = model.token_get_text(llama.token_eos()) if llama.token_eos() != -1 else ""
            bos = model.token_get_text(llama.token_bos()) if llama.token_bos() != -1 else ""
            fmt = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
            for messages in ([{"role": "system", "content": system}, {"role": "user", "content": user}],
                             [{"role": "user", "content": f"{system}\n\n{user}"}]):  # templates without system
                try:
                    return fmt(messages=messages).prompt, True
                except Exception:  # noqa: BLE001 - a template's raise_exception() or a Jinja error
                    continue
        return f"{system}\n\nUser: {user}\nAssistant:", False

    def _chunks(self, chunks: Any) -> Iterable[tuple]:
        m = self._mtmd
        for i in range(m.mtmd_input_chunks_size(chunks)):
            chunk = m.mtmd_input_chunks_get(chunks, i)
            if m.mtmd_input_chunk_get_type(chunk) == m.MTMD_INPUT_CHUNK_TYPE_TEXT:
                n = ctypes.c_size_t()
                ptr = m.mtmd_input_chunk_get_tokens_text(chunk, ctypes.byref(n))
                yield "text", [ptr[j] for j in range(n.value)]
            else:
                yield "media", m.mtmd_input_chunk_get_n_tokens(chunk), chunk

    def _eval_media(self, chunk: Any, n_past: int) -> int:
        new = self._llama_cpp.llama_pos(0)
        rc = self._mtmd.mtmd_helper_eval_chunk_single(self._ctx, self._llama._ctx.ctx, chunk, n_past, 0,
                                                      self._llama.n_batch, False, ctypes.byref(new))
        if rc != 0:
            raise AudioLLMError(f"the audio model could not encode a clip (mtmd error {rc})")
        return int(new.value)

    def chat_json(self, system: str, user: str, clips: list[np.ndarray], schema: dict, max_tokens: int = 110,
                  temperature: float = 0.0, seed: int = 0) -> dict:
        """Answer as JSON under ``schema``, hearing ``clips`` where ``user`` has media markers."""
        m = self._mtmd
        if user.count(self.marker) != len(clips):
            raise AudioLLMError(f"{user.count(self.marker)} media markers for {len(clips)} clips")
        key = json.dumps(schema, sort_keys=True)
        if key not in self._grammars:
            self._grammars[key] = self._llama_cpp.LlamaGrammar.from_json_schema(key, verbose=False)
        text, has_bos = self.render(system, user)
        with self._lock:
            bitmaps, chunks = [], None
            try:
                for clip in clips:
                    x = np.ascontiguousarray(clip, dtype=np.float32)
                    bm = m.mtmd_bitmap_init_from_audio(len(x), x.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
                    if not bm:
                        raise AudioLLMError("the projector refused an audio clip")
                    bitmaps.append(bm)
                raw = m.mtmd_input_text()
                data = text.encode("utf-8")
                raw.text, raw.text_len, raw.add_special, raw.parse_special = data, len(data), not has_bos, True
                chunks = m.mtmd_input_chunks_init()
                array = (m.mtmd_bitmap_p_ctypes * len(bitmaps))(*bitmaps)
                with _quiet():
                    rc = m.mtmd_tokenize(self._ctx, chunks, ctypes.byref(raw), array, len(bitmaps))
                if rc != 0:
                    raise AudioLLMError(f"mtmd could not tokenise the prompt with its clips (error {rc})")
                with _quiet():
                    out = eval_and_generate(self._llama, self._chunks(chunks), self._eval_media,
                                            self._grammars[key], max_tokens, temperature, seed)
            finally:
                if chunks:
                    m.mtmd_input_chunks_free(chunks)
                for bm in bitmaps:
                    m.mtmd_bitmap_free(bm)
        try:
            data = json.loads(out)
        except json.JSONDecodeError as exc:
            raise AudioLLMError(f"invalid JSON from the audio model: {exc.msg}: {out[:120]!r}") from exc
        if not isinstance(data, dict):
            raise AudioLLMError("invalid JSON from the audio model: not an object")
        return data

    def close(self) -> None:
        self._llama.close()


def load_audio_llm(config: AudioModelConfig) -> AudioLLM:
    """Load (once per process and file version) the configured audio model; AudioLLMError otherwise."""
    model, projector = check_files(config)
    key = tuple((str(p.resolve()), p.stat().st_size, p.stat().st_mtime_ns) for p in (model, projector))
    with _load_lock:
        if key in _failed:
            raise AudioLLMError(_failed[key])
        if key not in _loaded:
            try:
                _loaded[key] = AudioLLM(config)
            except AudioLLMError as exc:
                _failed[key] = str(exc)
                raise
        return _loaded[key]


def prepare(mode: str, config: AudioModelConfig | None, llm_allowed: bool, notes: list[str]) -> AudioLLM | None:
    """The audio model for ``mode``, or None with one note saying why the metadata path answers."""
    if mode == "metadata":
        return None
    if not llm_allowed:
        notes.append(f"evidence mode '{mode}' plays clips to a language model, but no language model is in "
                     f"use (--no-llm); {FALLBACK}")
        return None
    try:
        return load_audio_llm(config or AudioModelConfig.resolve())
    except AudioLLMError as exc:
        notes.append(f"evidence mode '{mode}' unavailable: {user_message(exc)}; {FALLBACK}")
    except Exception as exc:  # noqa: BLE001 - a C-side surprise must not cost the user the answer
        notes.append(f"evidence mode '{mode}' unavailable: the audio model failed to load "
                     f"({type(exc).__name__}: {user_message(exc)[:120]}); {FALLBACK}")
    return None


def answer(model: AudioLLM, lib: LibraryFolder, rec: dict, question: str, plan: Plan, evidence: list[Evidence],
           mode: str, notes: list[str]) -> tuple[str, str, bool] | None:
    """Answer from clips (+ metadata for multimodal); None, with a note, sends the metadata path on."""
    if not evidence:
        return None
    cache = Path(lib.folder) / "audio" / f"{rec['sha256']}.f32"
    try:
        specs = ae.select_clips(evidence, rec["duration_s"])
        clips = ae.cut_clips(open_cache(cache), specs, model.sample_rate)
        shown, numbers = ae.shown_evidence(evidence, specs, mode)
        prompt = ae.build_prompt(question, shown, numbers, mode, model.marker)
        raw = model.chat_json(ae.AUDIO_SYSTEM, prompt, clips, ans.answer_schema(plan.intent, len(shown)))
    except Exception as exc:  # noqa: BLE001 - missing cache, mtmd or model failure: said, then metadata
        notes.append(f"the audio model could not answer ({user_message(exc)[:120]}); {FALLBACK}")
        return None
    notes.append(ae.clip_note(specs, len(evidence), model.name))
    used = [int(i) for i in raw.get("evidence_used", []) if isinstance(i, int)]
    valid = [i for i in used if 1 <= i <= len(shown)]
    first, rationale = ans.compose(str(raw.get("answer", "")), str(raw.get("reason", "")), valid, shown)
    return first, rationale, bool(valid) and not first.lower().startswith("not found")
