"""The llama.cpp handle: load (with progress and cancel), evaluate tokens, logits without copying,
KV-cache usage, and llama.cpp's log routed into Python logging.

Low-level API only (llama_cpp.llama_*): the high-level `Llama` class re-detokenizes the whole
completion every token and cannot report load progress. One Runtime = one model + one context, used
from one thread at a time (llama.cpp contexts are not thread-safe).
"""

from __future__ import annotations

import ctypes
import logging
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import llama_cpp
import numpy as np

from logitscope.base.errors import LoadCancelledError, ModelLoadError
from logitscope.base.messages import Message
from logitscope.base.utf8 import require_utf8
from logitscope.gguf.memory import KV_CELL_PADDING, kv_type_id
from logitscope.protocol.api import DRAFT_MAX_LIMIT, LoadSettings
from logitscope.system.threads import available_cpus

log = logging.getLogger("logitscope.llama")
MAX_VERIFY_BATCH = DRAFT_MAX_LIMIT + 1  # one speculative verification: the pending token and its drafts

# ggml_log_level: NONE=0, DEBUG=1, INFO=2, WARN=3, ERROR=4, CONT=5 (continues the previous line)
_LEVELS = {0: logging.INFO, 1: logging.DEBUG, 2: logging.INFO, 3: logging.WARNING, 4: logging.ERROR}


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


_llama_log: LlamaLog | None = None


def llama_log() -> LlamaLog:
    global _llama_log
    if _llama_log is None:
        _llama_log = LlamaLog()
        llama_cpp.llama_backend_init()
    return _llama_log


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
    return available_cpus()


@dataclass(frozen=True)
class SyncReport:
    """What the last `sync` did to the cache: cells kept from before, cells dropped past them."""
    n_kept: int = 0
    n_freed: int = 0


class Runtime:
    """One loaded model and its context."""

    def __init__(self, path: str | Path, settings: LoadSettings,
                 on_progress: Callable[[float], None] | None = None,
                 should_cancel: Callable[[], bool] | None = None) -> None:
        settings.validate()
        self.path = Path(path)
        self.settings = settings
        self.log = llama_log()
        self._cancelled = False
        self._model: llama_cpp.llama_model_p | None = None
        self._batch: llama_cpp.llama_batch | None = None
        self._ctx: llama_cpp.llama_context_p | None = None
        t0 = time.perf_counter()
        self._load(on_progress, should_cancel or (lambda: False))
        self.load_s = time.perf_counter() - t0

    # -- loading ----------------------------------------------------------------------------------
    def _load(self, on_progress: Callable[[float], None] | None, should_cancel: Callable[[], bool]) -> None:
        s = self.settings

        def progress(fraction: float, _user: ctypes.c_void_p) -> bool:
            if should_cancel():
                self._cancelled = True
                return False  # llama.cpp stops loading and returns NULL
            if on_progress:
                on_progress(float(fraction))
            return True

        self._progress_cb = llama_cpp.llama_progress_callback(progress)  # referenced while loading
        mparams = llama_cpp.llama_model_default_params()
        mparams.n_gpu_layers = s.n_gpu_layers if s.n_gpu_layers >= 0 else 0x7FFFFFFF
        mparams.progress_callback = self._progress_cb
        mparams.use_extra_bufts = use_extra_buffers()  # the AMX buffer type is one of the "extra" ones
        mark = self.log.mark()
        self._model = llama_cpp.llama_model_load_from_file(str(self.path).encode(), mparams)
        if not self._model:
            if self._cancelled:
                raise LoadCancelledError("model load cancelled")
            raise ModelLoadError("llama.cpp could not load {path_name}: {reason}", path_name=self.path.name,
                                 reason=self.reason_since(mark))
        if should_cancel():  # cancelled after the last progress tick: do not go on to the context
            self.close()
            raise LoadCancelledError("model load cancelled")
        self.vocab: llama_cpp.llama_vocab_p = llama_cpp.llama_model_get_vocab(self._model)
        self.n_vocab: int = llama_cpp.llama_vocab_n_tokens(self.vocab)

        threads = s.n_threads or default_threads()
        cparams = llama_cpp.llama_context_default_params()
        cparams.n_ctx = s.n_ctx
        cparams.n_batch = s.n_batch
        cparams.n_ubatch = min(s.n_batch, 512)
        cparams.n_threads = threads
        cparams.n_threads_batch = threads
        cparams.type_k = kv_type_id(s.type_k)
        cparams.type_v = kv_type_id(s.type_v)
        cparams.flash_attn_type = (llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED if s.flash_attn
                                   else llama_cpp.LLAMA_FLASH_ATTN_TYPE_DISABLED)
        cparams.no_perf = True
        self._abort_flag: bool = False
        self._cancel_check: Callable[[], bool] | None = None  # the running eval's should_cancel
        self._abort_cb = llama_cpp.ggml_abort_callback(lambda _data: self._should_abort())
        mark = self.log.mark()
        self._ctx = llama_cpp.llama_init_from_model(self._model, cparams)
        if not self._ctx:
            reason = self.reason_since(mark)
            self.close()
            raise ModelLoadError("llama.cpp could not create a context for {path_name}: {reason}", path_name=self.path.name, reason=reason)
        self.n_ctx: int = llama_cpp.llama_n_ctx(self._ctx)
        self.notices: list[str] = []
        if s.n_ctx and self.n_ctx != s.n_ctx:
            self.notices.append(Message("the context holds {n_ctx} tokens, not the {n_ctx2} "
                                        "asked for: llama.cpp uses at least {KV_CELL_PADDING} "
                                        "and rounds up to a multiple of {KV_CELL_PADDING}", n_ctx=self.n_ctx, n_ctx2=s.n_ctx, KV_CELL_PADDING=KV_CELL_PADDING))
        self.n_batch: int = llama_cpp.llama_n_batch(self._ctx)
        self._mem: llama_cpp.llama_memory_t = llama_cpp.llama_get_memory(self._ctx)
        self.n_layer: int = llama_cpp.llama_model_n_layer(self._model)
        self.add_bos: bool = bool(llama_cpp.llama_vocab_get_add_bos(self.vocab))
        self.bos: int = llama_cpp.llama_vocab_bos(self.vocab)
        self._logits_ptr_type = ctypes.POINTER(ctypes.c_float)
        self._logits_address: int | None = None
        self._logits_view: np.ndarray = np.empty(0, dtype=np.float32)
        self._piece_cache: dict[int, bytes] = {}
        self._piece_buf: ctypes.Array[ctypes.c_char] = ctypes.create_string_buffer(256)
        self.tokens: list[int] = []  # what the KV cache holds, position by position
        self.last_sync = SyncReport()
        self._token_array: np.ndarray = np.zeros(self.n_ctx, dtype=np.int32)  # the same, for cheap numpy slices

    def reason_since(self, mark: int) -> str:
        """The most specific line llama.cpp logged since `mark`: its first error (later ones only say
        "failed to load model"), without the function-name prefixes."""
        errors = self.log.errors_since(mark) or [line for line in self.log.since(mark) if "error" in line.lower()]
        if not errors:
            return Message("no reason given in its log")
        return re.sub(r"^(\S+: )+(error loading model: )?", "", errors[0].strip())

    # -- introspection ----------------------------------------------------------------------------
    @property
    def model(self) -> llama_cpp.llama_model_p | None:
        """The llama_model (for another context on the same weights: engine/forward.py)."""
        return self._model

    @property
    def context(self) -> llama_cpp.llama_context_p | None:
        """The generation context (its sequence state is copied into the inspection context)."""
        return self._ctx

    def meta(self, key: str) -> str | None:
        buf = ctypes.create_string_buffer(1 << 16)
        n = llama_cpp.llama_model_meta_val_str(self._model, key.encode(), buf, len(buf))
        return buf.value.decode("utf-8", errors="replace") if n >= 0 else None

    def chat_template(self) -> str | None:
        raw = llama_cpp.llama_model_chat_template(self._model, None)
        return raw.decode("utf-8", errors="replace") if raw else None

    @property
    def kv_used(self) -> int:
        return int(llama_cpp.llama_memory_seq_pos_max(self._mem, 0)) + 1

    def is_eog(self, token: int) -> bool:
        return bool(llama_cpp.llama_vocab_is_eog(self.vocab, token))

    def is_control(self, token: int) -> bool:
        return bool(llama_cpp.llama_vocab_is_control(self.vocab, token))

    # -- text ---------------------------------------------------------------------------------------
    def tokenize(self, text: str | bytes, add_special: bool = True, parse_special: bool = True) -> list[int]:
        if isinstance(text, str):
            require_utf8(text, "the text to tokenize")
        data = text.encode("utf-8") if isinstance(text, str) else text
        cap = len(data) + 8
        buf = (llama_cpp.llama_token * cap)()
        n = llama_cpp.llama_tokenize(self.vocab, data, len(data), buf, cap, add_special, parse_special)
        if n < 0:  # buffer too small: -n is the size needed
            cap = -n
            buf = (llama_cpp.llama_token * cap)()
            n = llama_cpp.llama_tokenize(self.vocab, data, len(data), buf, cap, add_special, parse_special)
        return list(buf[:n])

    def piece(self, token: int) -> bytes:
        """The token's bytes, special tokens included (`<|im_end|>`). No 32-byte limit."""
        cached = self._piece_cache.get(token)
        if cached is not None:
            return cached
        buf = self._piece_buf
        n = llama_cpp.llama_token_to_piece(self.vocab, token, buf, len(buf), 0, True)
        if n < 0:
            buf = ctypes.create_string_buffer(-n)
            n = llama_cpp.llama_token_to_piece(self.vocab, token, buf, len(buf), 0, True)
        piece = buf.raw[:n]
        self._piece_cache[token] = piece
        return piece

    # -- evaluation ---------------------------------------------------------------------------------
    def sync(self, tokens: Sequence[int], should_cancel: Callable[[], bool] | None = None) -> int:
        """Make the KV cache hold exactly `tokens` and the logits be those after the last one.

        Reuses the longest common prefix with what the cache holds; returns how many tokens were
        evaluated now. At least the last token is evaluated so that its logits are fresh.
        `should_cancel`: as for `eval`."""
        if not tokens:
            raise ValueError("cannot evaluate an empty prompt")
        if len(tokens) > self.n_ctx:
            raise ValueError(f"{len(tokens)} tokens do not fit in a context of {self.n_ctx}")
        common = 0
        limit = min(len(tokens) - 1, len(self.tokens))
        while common < limit and self.tokens[common] == tokens[common]:
            common += 1
        self.last_sync = SyncReport(n_kept=common, n_freed=len(self.tokens) - common)
        self.truncate(common)
        self.eval(tokens[common:], should_cancel)
        return len(tokens) - common

    def truncate(self, n_keep: int) -> None:
        """Forget every cached position from n_keep on (for regeneration, forks, new prompts)."""
        if n_keep < len(self.tokens):
            llama_cpp.llama_memory_seq_rm(self._mem, 0, n_keep, -1)
            del self.tokens[n_keep:]

    def recent(self, n: int) -> np.ndarray:
        """The last n tokens in the context (a view; for the penalty window)."""
        end = len(self.tokens)
        return self._token_array[max(0, end - n):end] if n > 0 else self._token_array[:0]

    def eval(self, tokens: Sequence[int], should_cancel: Callable[[], bool] | None = None) -> None:
        """Decode tokens in batches; afterwards `logits()` holds the last token's logits.

        The abort callback (which lets `abort()` or `should_cancel` stop a long prompt evaluation:
        InterruptedError) is installed only for multi-token evaluations: llama.cpp calls it for every graph
        node, ~600 times per token, and each call into Python costs ~2 us, which would slow single-token
        decoding by 10 %. `should_cancel` is asked too because `abort()` only reaches an evaluation already
        under way (each one clears the flag: a cancel of an earlier request must not stop this one)."""
        self._abort_flag = False
        cancellable = len(tokens) > 1
        if cancellable:
            self._cancel_check = should_cancel
            llama_cpp.llama_set_abort_callback(self._ctx, self._abort_cb, None)
        try:
            for start in range(0, len(tokens), self.n_batch):
                if cancellable and self._should_abort():
                    raise InterruptedError("evaluation aborted")
                chunk = tokens[start:start + self.n_batch]
                arr = (llama_cpp.llama_token * len(chunk))(*chunk)
                rc = llama_cpp.llama_decode(self._ctx, llama_cpp.llama_batch_get_one(arr, len(chunk)))
                if rc != 0:
                    # Part of the batch may be in the cache: cut it back to what we know it holds.
                    llama_cpp.llama_memory_seq_rm(self._mem, 0, len(self.tokens), -1)
                    if rc == 2:
                        raise InterruptedError("evaluation aborted")
                    if rc == 1:
                        raise MemoryError("no room left in the KV cache for this batch")
                    raise RuntimeError(f"llama_decode failed with code {rc}")
                self._token_array[len(self.tokens):len(self.tokens) + len(chunk)] = chunk
                self.tokens.extend(chunk)
        finally:
            if cancellable:
                self._cancel_check = None
                llama_cpp.llama_set_abort_callback(self._ctx, llama_cpp.ggml_abort_callback(), None)  # NULL

    def _should_abort(self) -> bool:
        check = self._cancel_check
        return self._abort_flag or (check is not None and check())

    def eval_outputs(self, tokens: Sequence[int]) -> np.ndarray:
        """Evaluate tokens in ONE llama_decode with logits at every position (speculative verification:
        the pending token and its drafts). Returns a zero-copy (len(tokens), n_vocab) view, overwritten by
        the next decode. llama_batch_get_one would output only the last position's logits."""
        n = len(tokens)
        if not 0 < n <= min(self.n_batch, MAX_VERIFY_BATCH):
            raise ValueError(f"a verification batch holds 1 to {min(self.n_batch, MAX_VERIFY_BATCH)} tokens, not {n}")
        if self._batch is None:
            self._batch = llama_cpp.llama_batch_init(MAX_VERIFY_BATCH, 0, 1)
        batch, start = self._batch, len(self.tokens)
        for j, token in enumerate(tokens):
            batch.token[j] = token
            batch.pos[j] = start + j
            batch.n_seq_id[j] = 1
            batch.seq_id[j][0] = 0
            batch.logits[j] = 1
        batch.n_tokens = n
        rc = llama_cpp.llama_decode(self._ctx, batch)
        if rc != 0:
            llama_cpp.llama_memory_seq_rm(self._mem, 0, start, -1)
            if rc == 1:
                raise MemoryError("no room left in the KV cache for this batch")
            raise RuntimeError(f"llama_decode failed with code {rc}")
        self._token_array[start:start + n] = tokens
        self.tokens.extend(tokens)
        ptr = llama_cpp.llama_get_logits(self._ctx)
        return np.ctypeslib.as_array(ctypes.cast(ptr, self._logits_ptr_type), shape=(n, self.n_vocab))

    def history(self, end: int, n: int) -> np.ndarray:
        """The n context tokens before position `end` (a view): the penalty window of a drafted position,
        whose later cells hold drafts not yet accepted."""
        return self._token_array[max(0, end - n):end] if n > 0 else self._token_array[:0]

    def abort(self) -> None:
        """Ask a running eval to stop (safe from another thread; CPU backend honours it)."""
        self._abort_flag = True

    @property
    def abort_requested(self) -> bool:
        """abort() was called since the last evaluation began (the inspection context honours it too)."""
        return self._abort_flag

    def clear_abort(self) -> None:
        self._abort_flag = False

    def logits(self) -> np.ndarray:
        """The last evaluated token's logits as a zero-copy view; overwritten by the next eval."""
        ptr = llama_cpp.llama_get_logits_ith(self._ctx, -1)
        address = ctypes.cast(ptr, ctypes.c_void_p).value
        if address != self._logits_address:  # building the view costs ~50 us: reuse it while the buffer stays
            self._logits_view = np.ctypeslib.as_array(ctypes.cast(ptr, self._logits_ptr_type), shape=(self.n_vocab,))
            self._logits_address = address
        return self._logits_view

    def close(self) -> None:
        if self._batch is not None:
            llama_cpp.llama_batch_free(self._batch)
            self._batch = None
        if self._ctx:
            llama_cpp.llama_free(self._ctx)
            self._ctx = None
        if self._model:
            llama_cpp.llama_model_free(self._model)
            self._model = None
