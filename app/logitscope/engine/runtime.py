"""The generation model and context: load (with progress and cancel), evaluate tokens, logits without
copying, KV-cache usage. The handles themselves (and llama.cpp's log) belong to engine/handles.py.

Low-level API only (llama_cpp.llama_*): the high-level `Llama` class re-detokenizes the whole
completion every token and cannot report load progress. One Runtime = one model + one context, used
from one thread at a time (llama.cpp contexts are not thread-safe).
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import llama_cpp
import numpy as np

from logitscope.base.errors import ModelLoadError
from logitscope.base.messages import Message
from logitscope.base.utf8 import require_utf8
from logitscope.engine.forward.capture import Edit, GraphCapture
from logitscope.engine.handles import Batch, Context, Model, decode_error, generation_spec, llama_log
from logitscope.gguf.memory import KV_CELL_PADDING
from logitscope.protocol.api import DRAFT_MAX_LIMIT, LoadSettings
from logitscope.system.cpu_load import OtherLoad
from logitscope.system.thread_tuner import ThreadTuner
from logitscope.system.threads import available_cpus

MAX_VERIFY_BATCH = DRAFT_MAX_LIMIT + 1  # one speculative verification: the pending token and its drafts


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
        self._weights: Model | None = None
        self._context: Context | None = None
        self._verify: Batch | None = None  # made on the first speculative verification
        self._model: llama_cpp.llama_model_p | None = None  # the raw pointers, for the hot loops
        self._ctx: llama_cpp.llama_context_p | None = None
        # the knockout context: a second generation context whose graph callback knocks heads and blocks out
        # (engine/forward/causal.py), made on first use; the plain one never has a callback
        self._other: Context | None = None
        self._knockout_capture = GraphCapture()
        self.knockouts: tuple[str, ...] = ()   # what the context in use knocks out ("23.4", "20.attn"); () plain
        t0 = time.perf_counter()
        self._load(on_progress, should_cancel or (lambda: False))
        self.load_s = time.perf_counter() - t0
        # the thread count follows the machine's load (system/thread_tuner.py) unless the user chose one; kept
        # across answers, so a quiet machine stops probing often
        self.tuner: ThreadTuner | None = (ThreadTuner(self.n_threads, available_cpus(), OtherLoad().cores)
                                          if settings.n_threads == 0 else None)

    # -- loading ----------------------------------------------------------------------------------
    def _load(self, on_progress: Callable[[float], None] | None, should_cancel: Callable[[], bool]) -> None:
        s = self.settings
        self._weights = Model(self.path, s.n_gpu_layers, self.log, on_progress, should_cancel)
        self._model = self._weights.ptr
        self.vocab: llama_cpp.llama_vocab_p = llama_cpp.llama_model_get_vocab(self._model)
        self.n_vocab: int = llama_cpp.llama_vocab_n_tokens(self.vocab)
        self._abort_flag: bool = False
        self._cancel_check: Callable[[], bool] | None = None  # the running eval's should_cancel
        self._abort_cb = llama_cpp.ggml_abort_callback(lambda _data: self._should_abort())
        path_name = self.path.name
        try:
            self._context = Context(self._model, generation_spec(s), self.log, lambda reason: ModelLoadError(
                "llama.cpp could not create a context for {path_name}: {reason}", path_name=path_name, reason=reason))
        except ModelLoadError:
            self.close()
            raise
        self._ctx = self._context.ptr
        self.n_ctx: int = self._context.n_ctx
        self.notices: list[str] = []
        if s.n_ctx and self.n_ctx != s.n_ctx:
            self.notices.append(Message("the context holds {n_ctx} tokens, not the {n_ctx2} "
                                        "asked for: llama.cpp uses at least {KV_CELL_PADDING} "
                                        "and rounds up to a multiple of {KV_CELL_PADDING}", n_ctx=self.n_ctx, n_ctx2=s.n_ctx, KV_CELL_PADDING=KV_CELL_PADDING))
        self.n_batch: int = self._context.n_batch
        self._mem: llama_cpp.llama_memory_t = self._context.memory
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

    # -- introspection ----------------------------------------------------------------------------
    @property
    def model(self) -> llama_cpp.llama_model_p | None:
        """The llama_model (for another context on the same weights: engine/forward/inspection.py)."""
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
    def n_threads(self) -> int:
        """The generation context's threads: the other contexts on this model use as many."""
        assert self._context is not None
        return self._context.n_threads

    def use_threads(self, n: int) -> None:
        """The generation context's threads from the next evaluation on (llama.cpp changes a live context's)."""
        assert self._ctx is not None
        llama_cpp.llama_set_n_threads(self._ctx, n, n)

    @property
    def compute_buffer_mib(self) -> float:
        """What llama.cpp reserved for the generation context's graphs (from its log)."""
        assert self._context is not None
        return self._context.compute_mib

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
            assert self._context is not None
            self._cancel_check = should_cancel
            self._context.watch_abort(self._abort_cb)
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
                    raise decode_error(rc, "evaluation aborted", _eval_failed)
                self._token_array[len(self.tokens):len(self.tokens) + len(chunk)] = chunk
                self.tokens.extend(chunk)
        finally:
            if cancellable:
                assert self._context is not None
                self._cancel_check = None
                self._context.unwatch_abort()

    def use_knockouts(self, labels: tuple[str, ...], edits: dict[str, Edit]) -> bool:
        """Generate with these heads and blocks knocked out (labels () and edits {}: the plain context again).
        They are applied by the knockout context's graph callback in every evaluation. True when the
        computation changed: the context in use then holds nothing (its cells were computed otherwise)."""
        if labels == self.knockouts:
            return False
        if labels and self._other is None:
            plain = self._context
            assert plain is not None
            self._other = Context(self._model, generation_spec(self.settings), self.log, lambda reason: ModelLoadError(
                "llama.cpp could not create the context that knocks heads out: {reason}", reason=reason),
                cb_eval=self._knockout_capture.callback)
            if self._other.n_ctx != self.n_ctx or self._other.n_batch != self.n_batch:
                raise ModelLoadError("llama.cpp made the knockout context of another size")
        if bool(labels) != bool(self.knockouts):   # the other context takes over
            self._context, self._other = self._other, self._context
            assert self._context is not None
            self._ctx, self._mem = self._context.ptr, self._context.memory
        self._knockout_capture.begin(set(), edits if labels else {})
        self.knockouts = labels
        llama_cpp.llama_memory_clear(self._mem, True)
        self.tokens = []
        return True

    def knockout_error(self) -> str | None:
        """Why an edit of the knockout context failed in the last evaluations (None: none did)."""
        return self._knockout_capture.error if self.knockouts else None

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
        if self._verify is None:
            self._verify = Batch(MAX_VERIFY_BATCH)
        batch, start = self._verify.raw, len(self.tokens)
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
            raise decode_error(rc, None, _eval_failed)  # no abort callback here: 2 is a failure too
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
        """Free the batch, the context, then the model they were made on."""
        for handle in (self._verify, self._context, self._other, self._weights):
            if handle is not None:
                handle.close()
        self._verify = self._context = self._other = self._weights = None
        self._ctx = self._model = None


def _eval_failed(rc: int) -> Exception:
    if rc == 1:
        return MemoryError("no room left in the KV cache for this batch")
    return RuntimeError(f"llama_decode failed with code {rc}")


class RuntimePieces:
    """The Vocab protocol (protocol/trace.py) over a runtime: a token's bytes when asked, cached there."""

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    def __getitem__(self, token: int, /) -> bytes:
        return self._runtime.piece(token)

    def __len__(self) -> int:
        return self._runtime.n_vocab
