"""The one owner of llama.cpp handles: the model, contexts and batches, llama.cpp's log, and the translation of
its failures into the project's errors.

Like llama-cpp-python's `_internals`: each native handle has one small owner (Model, Context, Batch) that
creates it, frees it once, and turns a NULL into a LogitscopeError whose reason is read from llama.cpp's log.
The context parameters of every context the engine makes (generation, scoring, beam search, inspection) are
chosen here, from LoadSettings: sizes, threads, KV-cache types, flash attention.

The owners hold raw pointers that the hot loops use directly (`Context.ptr`): nothing here runs per token.
"""

from __future__ import annotations

import ctypes
import logging
import re
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import llama_cpp

from logitscope.base.errors import LoadCancelledError, LogitscopeError, ModelLoadError
from logitscope.base.messages import Message
from logitscope.gguf.memory import UNQUANTIZED_KV, kv_type_id
from logitscope.protocol.api import LoadSettings
from logitscope.system.threads import available_cpus, physical_cores

log = logging.getLogger("logitscope.llama")

MAX_UBATCH = 512         # llama.cpp's default micro-batch: larger ones only grow the compute buffer
PERPLEXITY_BATCH = 2048  # llama-perplexity's batch (common's default -b): the chunks scored at once
SCORE_BATCH = 512        # tokens per llama_decode (and per ubatch) of the scoring context, as generation's
INSPECT_BATCH = 256      # tokens per decode (and per ubatch) of the inspection context: without flash attention
                         # the compute buffer holds n_ubatch x n_kv x n_head attention weights per layer

# ggml_log_level: NONE=0, DEBUG=1, INFO=2, WARN=3, ERROR=4, CONT=5 (continues the previous line)
_LEVELS = {0: logging.INFO, 1: logging.DEBUG, 2: logging.INFO, 3: logging.WARNING, 4: logging.ERROR}
_COMPUTE_BUFFER = re.compile(r"compute buffer size =\s*([\d.]+) MiB")


# -- llama.cpp's log ------------------------------------------------------------------------------------
class LlamaLog:
    """Receives llama.cpp's log lines (through llama_log_set) and keeps the recent ones.

    The C callback must stay referenced for as long as llama.cpp may call it: it lives here, in a
    module-level singleton. File descriptors 1 and 2 are never touched."""

    def __init__(self, keep: int = 400) -> None:
        self.lines: deque[str] = deque(maxlen=keep)
        self.count = 0
        self.errors: deque[tuple[int, str]] = deque(maxlen=50)  # (position, line) of error-level lines
        self._partial = ""
        self._level = logging.INFO
        self._lock = threading.Lock()
        self._callback = llama_cpp.llama_log_callback(self._on_log)
        llama_cpp.llama_log_set(self._callback, ctypes.c_void_p(0))

    def _on_log(self, level: int, text: bytes, _user: ctypes.c_void_p) -> None:
        chunk = text.decode("utf-8", errors="replace") if text else ""
        with self._lock:
            if level != 5:  # GGML_LOG_LEVEL_CONT continues the previous line
                self._level = _LEVELS.get(level, logging.INFO)
            self._partial += chunk
            while "\n" in self._partial:
                line, self._partial = self._partial.split("\n", 1)
                if self._level >= logging.INFO:  # debug lines (thousands per load) only go to logging
                    self.lines.append(line)
                    self.count += 1
                if self._level >= logging.ERROR:
                    self.errors.append((self.count, line))
                log.log(self._level, "%s", line)

    def mark(self) -> int:
        """A position in the log; `since(mark)` returns the lines logged after it."""
        with self._lock:
            return self.count

    def since(self, mark: int) -> list[str]:
        with self._lock:
            n = min(self.count - mark, len(self.lines))
            return list(self.lines)[len(self.lines) - n:] if n > 0 else []

    def errors_since(self, mark: int) -> list[str]:
        with self._lock:
            return [line for pos, line in self.errors if pos > mark]

    def tail(self, n: int = 20) -> list[str]:
        with self._lock:
            return list(self.lines)[-n:]

    def reason_since(self, mark: int) -> str:
        """The most specific line llama.cpp logged since `mark`: its first error (later ones only say
        "failed to load model"), without the function-name prefixes."""
        errors = self.errors_since(mark) or [line for line in self.since(mark) if "error" in line.lower()]
        if not errors:
            return Message("no reason given in its log")
        return re.sub(r"^(\S+: )+(error loading model: )?", "", errors[0].strip())


_llama_log: LlamaLog | None = None


def llama_log() -> LlamaLog:
    """The process's one log receiver; the first call also initialises llama.cpp's backend."""
    global _llama_log
    if _llama_log is None:
        _llama_log = LlamaLog()
        llama_cpp.llama_backend_init()
    return _llama_log


def compute_buffer_mib(lines: list[str]) -> float:
    """The compute buffers llama.cpp logged in `lines` (one per backend), summed, in MiB."""
    return sum(float(m.group(1)) for line in lines if (m := _COMPUTE_BUFFER.search(line)))


# -- what this build can do -------------------------------------------------------------------------------
def supports_gpu_offload() -> bool:
    return bool(llama_cpp.llama_supports_gpu_offload())


def backend_name() -> str:
    """Which accelerator backend this llama.cpp build carries ("CPU" when none)."""
    info = llama_cpp.llama_print_system_info().decode(errors="replace")
    for name in ("CUDA", "METAL", "VULKAN", "HIP", "SYCL"):
        if re.search(rf"\b{name}\s*:\s*1", info, re.IGNORECASE) or (name in info.upper() and supports_gpu_offload()):
            return name.title() if name in ("METAL", "VULKAN") else name
    return "CPU"


def amx_kernels_built() -> bool:
    """Whether this llama.cpp build carries its AMX kernels (built on CPUs with AMX, e.g. Xeon Sapphire
    Rapids). They crash or compute wrong results on some quantizations (llama.cpp GitHub issue 20824, pull request 16315):
    the demo model (Q4_1) segfaulted in ggml_backend_amx_mul_mat on its first multi-token batch."""
    return "AMX_INT8 = 1" in llama_cpp.llama_print_system_info().decode(errors="replace")


def use_extra_buffers() -> bool:
    """Whether llama.cpp may put weights in its extra (repacked) buffer types: not on AMX builds."""
    return not amx_kernels_built()


def apply_amx_workaround() -> None:
    """Make llama-cpp-python's own loaders (`llama_cpp.Llama`, its server) load models as the engine does:
    without the extra buffer types on AMX builds. Used for the bench's reference loop and the real
    server in the tests, so they neither crash nor run a different code path from the engine."""
    if use_extra_buffers():
        return
    import llama_cpp.llama_cpp as bindings  # where llama_cpp.Llama looks the defaults up

    defaults = bindings.llama_model_default_params

    def without_extra_buffers() -> llama_cpp.llama_model_params:
        params: llama_cpp.llama_model_params = defaults()
        params.use_extra_bufts = False
        return params

    bindings.llama_model_default_params = without_extra_buffers


def default_threads() -> int:
    """llama.cpp's own default: one thread per physical core (hyper-thread siblings share one)."""
    return min(physical_cores(), available_cpus())


# -- the model -----------------------------------------------------------------------------------------------
class Model:
    """A llama_model loaded from a file, with progress and cancel; freed by `close` (after its contexts)."""

    def __init__(self, path: Path, n_gpu_layers: int, log: LlamaLog,
                 on_progress: Callable[[float], None] | None, should_cancel: Callable[[], bool]) -> None:
        self._cancelled = False

        def progress(fraction: float, _user: ctypes.c_void_p) -> bool:
            if should_cancel():
                self._cancelled = True
                return False  # llama.cpp stops loading and returns NULL
            if on_progress:
                on_progress(float(fraction))
            return True

        self._progress_cb = llama_cpp.llama_progress_callback(progress)  # referenced while loading
        params = llama_cpp.llama_model_default_params()
        params.n_gpu_layers = n_gpu_layers if n_gpu_layers >= 0 else 0x7FFFFFFF
        params.progress_callback = self._progress_cb
        params.use_extra_bufts = use_extra_buffers()  # the AMX buffer type is one of the "extra" ones
        mark = log.mark()
        self.ptr: llama_cpp.llama_model_p | None = llama_cpp.llama_model_load_from_file(str(path).encode(), params)
        if not self.ptr:
            if self._cancelled:
                raise LoadCancelledError("model load cancelled")
            raise ModelLoadError("llama.cpp could not load {path_name}: {reason}", path_name=path.name,
                                 reason=log.reason_since(mark))
        if should_cancel():  # cancelled after the last progress tick: do not go on to the context
            self.close()
            raise LoadCancelledError("model load cancelled")

    def close(self) -> None:
        if self.ptr:
            llama_cpp.llama_model_free(self.ptr)
            self.ptr = None


# -- contexts ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ContextSpec:
    """The llama_context_params the engine sets; None leaves llama.cpp's default."""
    n_ctx: int
    n_batch: int
    n_ubatch: int
    n_threads: int
    type_k: str
    type_v: str
    flash_attn: bool
    n_seq_max: int | None = None
    kv_unified: bool | None = None
    swa_full: bool | None = None

    def params(self) -> llama_cpp.llama_context_params:
        params: llama_cpp.llama_context_params = llama_cpp.llama_context_default_params()
        params.n_ctx = self.n_ctx
        params.n_batch = self.n_batch
        params.n_ubatch = self.n_ubatch
        params.n_threads = params.n_threads_batch = self.n_threads
        params.type_k, params.type_v = kv_type_id(self.type_k), kv_type_id(self.type_v)
        params.flash_attn_type = (llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED if self.flash_attn
                                  else llama_cpp.LLAMA_FLASH_ATTN_TYPE_DISABLED)
        if self.n_seq_max is not None:
            params.n_seq_max = self.n_seq_max
        if self.kv_unified is not None:
            params.kv_unified = self.kv_unified
        if self.swa_full is not None:
            params.swa_full = self.swa_full
        params.no_perf = True
        return params


def generation_spec(s: LoadSettings) -> ContextSpec:
    """The chat's context, as loaded."""
    return ContextSpec(n_ctx=s.n_ctx, n_batch=s.n_batch, n_ubatch=min(s.n_batch, MAX_UBATCH),
                       n_threads=s.n_threads or default_threads(), type_k=s.type_k, type_v=s.type_v,
                       flash_attn=s.flash_attn)


def scoring_spec(s: LoadSettings, n_ctx: int, flash_attn: bool, threads: int) -> ContextSpec:
    """A scoring window: batches as large as the window allows, the cache types as loaded."""
    n_batch = min(SCORE_BATCH, n_ctx)
    return ContextSpec(n_ctx=n_ctx, n_batch=n_batch, n_ubatch=n_batch, n_threads=threads, type_k=s.type_k,
                       type_v=s.type_v, flash_attn=flash_attn)


def perplexity_spec(s: LoadSettings, n_ctx: int, flash_attn: bool, threads: int, max_parallel: int
                    ) -> tuple[ContextSpec, int]:
    """llama-perplexity's context for chunks of n_ctx (tools/perplexity/perplexity.cpp main, common's defaults
    -b 2048 -ub 512): n_batch // n_ctx chunks at once, a KV stream each; so that a batch goes through the same
    micro-batches and kernels and its logits are the tool's to the bit. The parallel chunks, at most
    `max_parallel` (their logits must fit in memory)."""
    parallel = max(1, min(PERPLEXITY_BATCH // n_ctx, max_parallel))
    n_batch = min(PERPLEXITY_BATCH, parallel * n_ctx)
    return ContextSpec(n_ctx=parallel * n_ctx, n_batch=n_batch, n_ubatch=min(MAX_UBATCH, n_batch), n_threads=threads,
                       type_k=s.type_k, type_v=s.type_v, flash_attn=flash_attn, n_seq_max=parallel,
                       kv_unified=False), parallel


def inspection_spec(s: LoadSettings, n_ctx: int, threads: int) -> ContextSpec:
    """Flash attention off, else llama.cpp computes no kq_soft_max; so the V cache is unquantized (a
    quantized one needs flash attention). K as in the generation context, so its state can be copied in.
    Sliding-window layers keep every cell too: cells stay positions."""
    return ContextSpec(n_ctx=n_ctx, n_batch=INSPECT_BATCH, n_ubatch=INSPECT_BATCH, n_threads=threads,
                       type_k=s.type_k, type_v=UNQUANTIZED_KV, flash_attn=False, swa_full=True)


def cvector_spec(s: LoadSettings, n_tokens: int, threads: int) -> ContextSpec:
    """llama-cvector-generator's evaluation: one prompt per decode, in ONE micro-batch (its graph callback keeps
    only `l_out` tensors of the prompt's length), flash attention on (its default on the CPU, "auto")."""
    n_batch = max(n_tokens, 1)
    return ContextSpec(n_ctx=n_batch, n_batch=n_batch, n_ubatch=n_batch, n_threads=threads, type_k=s.type_k,
                       type_v=s.type_v, flash_attn=True)


class Context:
    """A llama_context on a loaded model, freed by `close`. `failed(reason)` builds the error raised when
    llama.cpp cannot create it (each caller says which context it was). `cb_eval`: a graph callback,
    fixed at creation; the caller keeps it alive as long as the context."""

    def __init__(self, model: llama_cpp.llama_model_p | None, spec: ContextSpec, log: LlamaLog,
                 failed: Callable[[str], LogitscopeError], cb_eval: ctypes._CFunctionType | None = None) -> None:
        assert model, "a context needs a loaded model"
        params = spec.params()
        if cb_eval is not None:
            params.cb_eval = cb_eval
        mark = log.mark()
        ptr = llama_cpp.llama_init_from_model(model, params)
        if not ptr:
            raise failed(log.reason_since(mark))
        self.ptr: llama_cpp.llama_context_p | None = ptr
        self.spec = spec
        self.n_ctx = int(llama_cpp.llama_n_ctx(ptr))
        self.n_batch = int(llama_cpp.llama_n_batch(ptr))
        self.memory: llama_cpp.llama_memory_t = llama_cpp.llama_get_memory(ptr)
        self.compute_mib = compute_buffer_mib(log.since(mark))  # what llama.cpp reserved for its graphs

    @property
    def n_threads(self) -> int:
        return int(llama_cpp.llama_n_threads(self.ptr))

    def watch_abort(self, callback: ctypes._CFunctionType) -> None:
        """llama.cpp asks `callback` at every graph node (~2 us each in Python): install it only for long
        evaluations, never for one-token steps."""
        llama_cpp.llama_set_abort_callback(self.ptr, callback, None)

    def unwatch_abort(self) -> None:
        llama_cpp.llama_set_abort_callback(self.ptr, llama_cpp.ggml_abort_callback(), None)  # NULL

    def close(self) -> None:
        if self.ptr:
            llama_cpp.llama_free(self.ptr)
            self.ptr = None


def decode_error(rc: int, cancelled: str | None, failed: Callable[[int], Exception]) -> Exception:
    """What a llama_decode that returned `rc` (not 0) raises: 2 means the abort callback said stop
    (InterruptedError(cancelled); None where no abort callback is ever installed), anything else
    `failed(rc)`."""
    if rc == 2 and cancelled is not None:
        return InterruptedError(cancelled)
    return failed(rc)


# -- batches -------------------------------------------------------------------------------------------------
class Batch:
    """A llama_batch of up to `capacity` tokens with their own positions and sequence ids; freed by `close`."""

    def __init__(self, capacity: int, n_seq_max: int = 1) -> None:
        self.capacity = capacity
        # a llama_batch; Any because llama-cpp-python's annotations of its fields are wrong (pos as an array of
        # arrays), and its users write the fields directly
        self.raw: Any = llama_cpp.llama_batch_init(capacity, 0, n_seq_max)
        self._freed = False

    def close(self) -> None:
        if not self._freed:
            llama_cpp.llama_batch_free(self.raw)
            self._freed = True
