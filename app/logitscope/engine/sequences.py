"""A context of several llama.cpp sequences on the loaded model, for beam search and batched answers.

`n_seq_max` is fixed at context creation and the generation context has one sequence, so each search or batch
makes one of these. It has `kv_unified` on: with one KV stream per sequence (llama.cpp's default)
`llama_memory_seq_cp` copies cells between streams; in one stream it only adds the new sequence's id to the
cells, which is the prefix sharing the KV map shows. The prompt is evaluated once, in sequence 0, in the
generation context's chunks and with its flash-attention setting, so that the numbers are the generation
context's; then one `llama_decode` per step evaluates one token of every sequence, with logits for each.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import llama_cpp
import numpy as np

from logitscope.base.errors import LogitscopeError
from logitscope.engine.handles import MAX_UBATCH, Batch, Context, ContextSpec, decode_error
from logitscope.engine.runtime import Runtime
from logitscope.gguf.memory import KV_CELL_PADDING


def sequences_spec(runtime: Runtime, n_cells: int, n_seqs: int, threads: int) -> ContextSpec:
    """One sequence per beam or answer in ONE KV stream; the prompt in the generation context's chunks."""
    s, n_batch = runtime.settings, runtime.n_batch
    return ContextSpec(n_ctx=-(-n_cells // KV_CELL_PADDING) * KV_CELL_PADDING, n_batch=n_batch,
                       n_ubatch=min(n_batch, MAX_UBATCH), n_threads=threads, type_k=s.type_k, type_v=s.type_v,
                       flash_attn=s.flash_attn, n_seq_max=n_seqs, kv_unified=True)


@dataclass(frozen=True)
class SequenceErrors:
    """What each user of a SequenceContext says when llama.cpp fails it (each names its own task)."""
    context_failed: Callable[[str], LogitscopeError]  # the reason llama.cpp logged
    eval_failed: Callable[[int], LogitscopeError]     # llama_decode's return code
    cancelled: str                                    # a cancel during the prompt (InterruptedError's text)


class SequenceContext:
    """The context, a batch of one token per sequence, and the abort callback; `close` frees them."""

    def __init__(self, runtime: Runtime, n_cells: int, n_seqs: int, threads: int, errors: SequenceErrors,
                 ensure_fits: Callable[[int], None] | None = None) -> None:
        """`ensure_fits(n_cells)`: raises when a context of that many cells cannot fit in memory (asked before
        llama.cpp allocates it)."""
        self.rt = runtime
        self.errors = errors
        spec = sequences_spec(runtime, n_cells, n_seqs, threads)
        if ensure_fits is not None:
            ensure_fits(spec.n_ctx)
        self._context = Context(runtime.model, spec, runtime.log, errors.context_failed)
        self.ptr = self._context.ptr
        self.n_ctx = self._context.n_ctx
        self.n_seqs = n_seqs
        self.mem = self._context.memory
        self._rows = Batch(n_seqs)
        self._abort_cb = llama_cpp.ggml_abort_callback(lambda _data: runtime.abort_requested)  # kept alive here
        self._float_p = ctypes.POINTER(ctypes.c_float)

    def close(self) -> None:
        self._rows.close()
        self._context.close()
        self.ptr = None

    def use_threads(self, n: int) -> None:
        llama_cpp.llama_set_n_threads(self.ptr, n, n)

    def _decode(self, batch: llama_cpp.llama_batch) -> None:
        rc = llama_cpp.llama_decode(self.ptr, batch)
        if rc != 0:  # 2: the abort callback said stop (only installed for the prompt)
            raise decode_error(rc, self.errors.cancelled, self.errors.eval_failed)

    def eval_prompt(self, tokens: Sequence[int], should_cancel: Callable[[], bool]) -> None:
        """Into sequence 0 of an emptied cache, in n_batch chunks, cancellable between them and, through the
        abort callback, within one (installed only here: called for every graph node, it would slow the
        one-token steps). A cancel raises InterruptedError."""
        rt = self.rt
        rt.clear_abort()  # a cancel meant for an earlier request
        llama_cpp.llama_memory_clear(self.mem, True)
        self._context.watch_abort(self._abort_cb)
        try:
            for start in range(0, len(tokens), rt.n_batch):
                if start and (should_cancel() or rt.abort_requested):
                    raise InterruptedError(self.errors.cancelled)
                chunk = tokens[start:start + rt.n_batch]
                arr = (llama_cpp.llama_token * len(chunk))(*chunk)
                self._decode(llama_cpp.llama_batch_get_one(arr, len(chunk)))
        finally:
            self._context.unwatch_abort()

    def share(self, source: int, target: int) -> None:
        """`target` holds every cell `source` holds (shared, not copied: one KV stream)."""
        llama_cpp.llama_memory_seq_cp(self.mem, source, target, -1, -1)

    def drop(self, seq: int) -> None:
        """The sequence leaves all its cells (a cell nobody holds is free again)."""
        llama_cpp.llama_memory_seq_rm(self.mem, seq, -1, -1)

    def eval_rows(self, rows: Sequence[tuple[int, int, int]]) -> None:
        """One llama_decode of (token, position, sequence) rows, logits for each: `logits(j)` is row j's."""
        batch = self._rows.raw
        for j, (token, position, seq) in enumerate(rows):
            batch.token[j] = token
            batch.pos[j] = position
            batch.n_seq_id[j] = 1
            batch.seq_id[j][0] = seq
            batch.logits[j] = True
        batch.n_tokens = len(rows)
        self._decode(batch)

    def logits(self, row: int) -> np.ndarray:
        """Row `row`'s logits of the last decode (-1: the last one) as a zero-copy view, overwritten by the
        next decode."""
        ptr = llama_cpp.llama_get_logits_ith(self.ptr, row)
        return np.ctypeslib.as_array(ctypes.cast(ptr, self._float_p), shape=(self.rt.n_vocab,))

    def positions(self, seq: int) -> tuple[int, int]:
        """The first and last position the sequence holds a cell at ((-1, -1): none)."""
        return (int(llama_cpp.llama_memory_seq_pos_min(self.mem, seq)),
                int(llama_cpp.llama_memory_seq_pos_max(self.mem, seq)))

    def state_bytes(self, seq: int) -> int:
        """The size of the sequence's saved state: its cells' K and V, whoever else holds them."""
        return int(llama_cpp.llama_state_seq_get_size(self.ptr, seq))
