"""Scoring a text at prompt-processing speed: how surprised the model is by every token.

A scoring context on the same llama_model as the generation context (so a chat's KV cache is left alone),
created on first use and kept while its size and flash-attention setting stay the same. Each window (or
chunk, protocol/score.py says which) is evaluated in batched llama_decode calls that request logits only
for the positions whose next token is scored. llama.cpp sizes its logits buffer by the outputs of one call
(n_outputs x n_vocab floats: 2,048 outputs of a 262,144-token vocabulary would be 2 GiB), so a call carries
at most LOGITS_BUDGET bytes of outputs; positions without outputs fill the rest of the batch.

The numbers per scored position come from the whole vocabulary, vectorized over blocks of rows: log-sum-exp,
entropy, the actual token's log-probability and rank (how many tokens have a strictly higher logit), and the
top alternatives (engine/rows.py); in a KL comparison engine/kld.py computes them with its own arithmetic.
"""

from __future__ import annotations

import ctypes
import functools
import time
from collections.abc import Callable, Sequence
from typing import Any

import llama_cpp
import numpy as np

from logitscope.base.errors import InvalidSettingsError, LogitscopeError
from logitscope.base.messages import Message
from logitscope.base.utf8 import Utf8Stream
from logitscope.engine.handles import Batch, Context, decode_error, perplexity_spec, scoring_spec
from logitscope.engine.kld import BaseReader, BaseWriter, compare_rows, open_base
from logitscope.engine.rows import RowNumbers, row_numbers
from logitscope.engine.runtime import Runtime
from logitscope.engine.steering.apply import Steerer, SteeringFiles
from logitscope.protocol.kld import KlTokens
from logitscope.protocol.score import MIN_CHUNKS, ScoredToken, ScoreRequest, ScoreResult, window_stride
from logitscope.protocol.steering import Steering

LOGITS_BUDGET = 64 << 20        # bytes of logits one llama_decode of a window may return
CHUNK_LOGITS_BUDGET = 2 << 30   # and of the chunks decoded at once (llama-perplexity returns them all too)
ROW_BLOCK = 32                  # rows of logits processed at once (stays in cache)
PROGRESS_S = 0.1                # at most ten progress reports a second
MIN_CONTEXT = 512               # the smallest context made for evaluate_steered (it grows in powers of two)


class Scorer:
    """The scoring context of one loaded model (Runtime)."""

    def __init__(self, runtime: Runtime, files: SteeringFiles) -> None:
        self.rt = runtime
        self._files = files
        self.steerer: Steerer | None = None  # the scoring context's steering (each window starts empty)
        self._abort_cb = llama_cpp.ggml_abort_callback(lambda _data: runtime.abort_requested)
        self._context: Context | None = None
        self._ctx: llama_cpp.llama_context_p | None = None  # its raw pointer
        self._batch: Batch | None = None
        self._key: tuple[int, bool, bool] | None = None
        self.n_ctx = 0
        self.parallel = 1   # chunks evaluated at once (llama-perplexity's batching)

    # -- the context ----------------------------------------------------------------------------------
    def _ensure_context(self, n_ctx: int, flash_attn: bool, chunks: bool = False) -> None:
        """A window's context, or (`chunks`) llama-perplexity's: several chunks of n_ctx at once."""
        if self._ctx is not None and self._key == (n_ctx, flash_attn, chunks):
            return
        self.close()
        rt = self.rt
        if chunks:
            max_parallel = max(1, CHUNK_LOGITS_BUDGET // (4 * rt.n_vocab * max(1, n_ctx - 1 - n_ctx // 2)))
            spec, self.parallel = perplexity_spec(rt.settings, n_ctx, flash_attn, rt.n_threads, max_parallel)
        else:
            spec, self.parallel = scoring_spec(rt.settings, n_ctx, flash_attn, rt.n_threads), 1
        context = Context(rt.model, spec, rt.log, _context_failed)
        self._context, self._ctx, self._key, self.n_ctx = context, context.ptr, (n_ctx, flash_attn, chunks), n_ctx
        self.steerer = Steerer(context.ptr, self._files)
        self.n_batch = context.n_batch
        self.out_cap = max(1, min(self.n_batch, LOGITS_BUDGET // (4 * rt.n_vocab)))
        self._batch = Batch(self.n_batch)
        batch = self._batch.raw
        self._seq = [batch.seq_id[k] for k in range(self.n_batch)]
        for k in range(self.n_batch):  # one sequence a token; a window's context uses only sequence 0
            batch.n_seq_id[k] = 1
            batch.seq_id[k][0] = 0
        self._tok = np.ctypeslib.as_array(batch.token, shape=(self.n_batch,))
        self._pos = np.ctypeslib.as_array(batch.pos, shape=(self.n_batch,))
        self._out = np.ctypeslib.as_array(ctypes.cast(batch.logits, ctypes.POINTER(ctypes.c_int8)),
                                          shape=(self.n_batch,))
        context.watch_abort(self._abort_cb)

    def close(self) -> None:
        for handle in (self._batch, self._context):
            if handle is not None:
                handle.close()
        self._batch = self._context = self._ctx = self.steerer = None
        self._key = None
        self.n_ctx = 0

    # -- one window ------------------------------------------------------------------------------------
    def _evaluate(self, tokens: Sequence[int], outputs: np.ndarray,
                  on_rows: Callable[[np.ndarray, np.ndarray], None], should_cancel: Callable[[], bool]) -> None:
        """Decode `tokens` (positions 0..) from an empty cache; `outputs`: bool per position, logits wanted.
        `on_rows(positions, logits)` gets each call's logits (rows in position order) before the next call."""
        assert self._context is not None and self._batch is not None
        batch = self._batch.raw
        llama_cpp.llama_memory_clear(self._context.memory, True)
        n = len(tokens)
        want = np.asarray(outputs, dtype=bool)
        out_positions = np.flatnonzero(want)
        arr = np.asarray(tokens, dtype=np.int32)
        start = 0
        n_vocab = self.rt.n_vocab
        while start < n:
            if should_cancel():
                raise InterruptedError("scoring cancelled")
            end = min(n, start + self.n_batch)
            # at most out_cap outputs in this call: stop after the out_cap-th wanted position
            first_out = np.searchsorted(out_positions, start)
            if len(out_positions) - first_out > self.out_cap:
                end = min(end, int(out_positions[first_out + self.out_cap - 1]) + 1)
            size = end - start
            self._tok[:size] = arr[start:end]
            self._pos[:size] = np.arange(start, end, dtype=np.int32)
            self._out[:size] = want[start:end]
            batch.n_tokens = size
            rc = llama_cpp.llama_decode(self._ctx, batch)
            if rc != 0:
                raise decode_error(rc, "scoring cancelled", _eval_failed)
            positions = np.flatnonzero(want[start:end]) + start
            if len(positions):
                ptr = llama_cpp.llama_get_logits(self._ctx)
                logits = np.ctypeslib.as_array(ptr, shape=(len(positions), n_vocab))
                on_rows(positions, logits)
            start = end

    def _evaluate_chunks(self, windows: list[list[int]], first: int,
                         on_rows: Callable[[int, np.ndarray, np.ndarray], None],
                         should_cancel: Callable[[], bool]) -> None:
        """Chunks of n_ctx tokens (BOS already in place), one KV stream each, decoded together as llama-perplexity
        decodes them: batches of n_batch tokens per chunk, logits for the positions >= first.
        `on_rows(chunk, positions, logits)` per chunk and decode call."""
        assert self._context is not None and self._batch is not None
        batch = self._batch.raw
        llama_cpp.llama_memory_clear(self._context.memory, True)
        n_ctx = len(windows[0])
        n_vocab = self.rt.n_vocab
        for batch_start in range(0, n_ctx, self.n_batch):
            if should_cancel():
                raise InterruptedError("scoring cancelled")
            size = min(n_ctx - batch_start, self.n_batch)
            positions = np.arange(batch_start, batch_start + size, dtype=np.int32)
            outputs = positions >= first
            for s, window in enumerate(windows):
                at = slice(s * size, (s + 1) * size)
                self._tok[at] = window[batch_start:batch_start + size]
                self._pos[at] = positions
                self._out[at] = outputs
                for k in range(s * size, (s + 1) * size):
                    self._seq[k][0] = s
            batch.n_tokens = size * len(windows)
            rc = llama_cpp.llama_decode(self._ctx, batch)
            if rc != 0:
                raise decode_error(rc, "scoring cancelled", _eval_failed)
            n_out = int(outputs.sum())
            if n_out:
                all_rows = np.ctypeslib.as_array(llama_cpp.llama_get_logits(self._ctx),
                                                 shape=(n_out * len(windows), n_vocab))
                for s in range(len(windows)):
                    # the last position's logits are computed (as the tool asks for them: the same output
                    # rows, the same kernels) but score nothing
                    scored = positions[outputs] < n_ctx - 1
                    on_rows(s, positions[outputs][scored], all_rows[s * n_out:(s + 1) * n_out][scored])

    def check_ids(self, tokens: Sequence[int]) -> None:
        bad = [t for t in tokens if not 0 <= t < self.rt.n_vocab]
        if bad:
            raise InvalidSettingsError("token {token} is not in the vocabulary (0..{last})",
                                       token=bad[0], last=self.rt.n_vocab - 1)

    def evaluate_steered(self, tokens: Sequence[int], outputs: np.ndarray, steering: Steering | None,
                         on_rows: Callable[[np.ndarray, np.ndarray], None],
                         should_cancel: Callable[[], bool]) -> dict[str, Any] | None:
        """`tokens` in one window, steered so, on a context at least as large (flash attention as the model was
        loaded, as the generation context); `on_rows` as in _evaluate. Returns the steering record."""
        n_ctx = self.n_ctx if self._ctx is not None and self.n_ctx >= len(tokens) else MIN_CONTEXT
        while n_ctx < len(tokens):
            n_ctx *= 2
        self._ensure_context(n_ctx, self._key[1] if self._key is not None and n_ctx == self.n_ctx
                             else self.rt.settings.flash_attn)
        assert self.steerer is not None
        self.steerer.apply(steering)
        self.rt.clear_abort()
        self._evaluate(tokens, outputs, on_rows, should_cancel)
        return self.steerer.record

    # -- scoring -----------------------------------------------------------------------------------------
    def score(self, request: ScoreRequest, on_progress: Callable[[float], None] | None = None,
              should_cancel: Callable[[], bool] = lambda: False) -> ScoreResult:
        request.validate()
        rt = self.rt
        notices: list[str] = []
        reader = open_base(request.kl_base, rt.n_vocab) if request.kl_base is not None else None
        try:
            return self._score(request, reader, notices, on_progress, should_cancel)
        finally:
            if reader is not None:
                reader.close()

    def _score(self, request: ScoreRequest, reader: BaseReader | None, notices: list[str],
               on_progress: Callable[[float], None] | None, should_cancel: Callable[[], bool]) -> ScoreResult:
        rt = self.rt
        n_ctx = reader.header.n_ctx if reader is not None else request.n_ctx
        if reader is not None:   # the text the base file was made from: its tokens, as they are
            seq = list(reader.header.tokens)
            self.check_ids(seq)
        elif request.text is not None:
            # as llama-perplexity (common_tokenize(ctx, text, true)): BOS per the model, special tokens as text
            seq = rt.tokenize(request.text, True, False)
            if not seq:
                raise InvalidSettingsError("the text to score is empty")
        else:
            seq = list(request.tokens or ())
            self.check_ids(seq)
        flash = rt.settings.flash_attn if request.flash_attn is None else request.flash_attn
        n_train = int(llama_cpp.llama_model_n_ctx_train(rt.model))
        if n_train and n_ctx > n_train:
            notices.append(Message("the model was trained on a context of {n_train} tokens; a window of "
                                   "{n_ctx} goes past it", n_train=n_train, n_ctx=n_ctx))
        n_tok = len(seq)
        logprob = np.full(n_tok, np.nan)
        entropy = np.full(n_tok, np.nan)
        rank = np.full(n_tok, -1, dtype=np.int64)
        n_context = np.zeros(n_tok, dtype=np.int64)
        top = request.top
        top_ids = np.zeros((n_tok, top), dtype=np.int32)
        top_lp = np.zeros((n_tok, top), dtype=np.float32)
        nll = [0.0, 0.0]  # sums of -logprob and logprob^2 in the order llama.cpp adds them
        if request.mode == "chunks":
            plan, stride, bos = self._chunk_plan(seq, n_ctx, min_chunks=1 if reader is not None else MIN_CHUNKS)
        else:
            plan, stride, bos = self._window_plan(seq, n_ctx)
        kl = KlTokens.empty(n_tok) if reader is not None else None
        writer = BaseWriter(request.save_logits, n_ctx, rt.n_vocab, seq) if request.save_logits else None
        try:
            eval_s = self._run_plan(plan, seq, n_ctx, flash, request, writer, reader, kl, (logprob, entropy, rank,
                                    n_context, top_ids, top_lp), nll, on_progress, should_cancel)
            if writer is not None:
                writer.close()
        except BaseException:
            if writer is not None:
                writer.discard()   # a cut-off base file would read as a shorter text
            raise
        utf8 = Utf8Stream()
        out: list[ScoredToken] = []
        for i, token in enumerate(seq):
            piece = rt.piece(token)
            text = "" if rt.is_control(token) else utf8.feed(piece)
            out.append(ScoredToken(i, token, piece, text, float(logprob[i]), int(rank[i]), float(entropy[i]),
                                   top_ids[i].copy(), top_lp[i].copy(), int(n_context[i])))
        if out:
            out[-1].text += utf8.flush()
        assert self.steerer is not None
        return ScoreResult(out, request.mode, n_ctx, stride, len(plan), sum(len(w) for w, _ in plan), eval_s, bos,
                           flash, nll_sum=nll[0], nll2_sum=nll[1], notices=notices, steering=self.steerer.record,
                           kl=kl)

    def _run_plan(self, plan: list[tuple[list[int], np.ndarray]], seq: list[int], n_ctx: int, flash: bool,
                  request: ScoreRequest, writer: BaseWriter | None, reader: BaseReader | None, kl: KlTokens | None,
                  arrays: tuple[np.ndarray, ...], nll: list[float], on_progress: Callable[[float], None] | None,
                  should_cancel: Callable[[], bool]) -> float:
        """Evaluate every window of the plan, filling the per-token arrays (and the base file, or the KL numbers
        against it); the seconds it took."""
        rt = self.rt
        logprob, entropy, rank, n_context, top_ids, top_lp = arrays
        top = request.top
        per_chunk = n_ctx - 1 - n_ctx // 2
        chunks = request.mode == "chunks"
        self._ensure_context(n_ctx, flash, chunks)
        assert self.steerer is not None
        self.steerer.apply(request.steering)  # every window starts from an empty cache: nothing to drop
        rt.clear_abort()
        total = sum(len(toks) for toks, _ in plan)
        done = 0
        last_report = 0.0
        t0 = time.perf_counter()

        def on_rows(positions: np.ndarray, logits: np.ndarray, targets: np.ndarray, chunk: int) -> None:
            idx = targets[positions]
            want_ids = np.asarray([seq[i] for i in idx], dtype=np.int64)
            if writer is not None:
                writer.rows(logits)
            def store(rows: slice, numbers: RowNumbers) -> None:
                lp, ent, rk, ti, tl = numbers
                where = idx[rows]
                logprob[where], entropy[where], rank[where] = lp, ent, rk
                top_ids[where], top_lp[where] = ti, tl
                n_context[where] = positions[rows] + 1
                for v in lp:
                    nll[0] -= float(v)
                    nll[1] += float(v) * float(v)

            if reader is not None and kl is not None:   # rows first .. of the chunk, in order
                base = reader.rows(chunk * per_chunk + int(positions[0]) - n_ctx // 2, len(positions))
                store(slice(None), compare_rows(logits, base, want_ids, rt.n_vocab, kl, idx, top))
                return
            for b in range(0, len(positions), ROW_BLOCK):
                rows = slice(b, b + ROW_BLOCK)
                store(rows, score_rows(logits[rows], want_ids[rows], top))

        # the windows one at a time; chunks `parallel` at a time, as llama-perplexity batches them
        step = self.parallel if chunks else 1
        for start in range(0, len(plan), step):
            group = plan[start:start + step]
            if chunks:
                self._evaluate_chunks([w for w, _ in group], n_ctx // 2, functools.partial(
                    lambda group, start, s, positions, logits: on_rows(positions, logits, group[s][1], start + s),
                    group, start), should_cancel)
            else:
                window, targets = group[0]
                self._evaluate(window, targets >= 0, functools.partial(
                    lambda targets, start, positions, logits: on_rows(positions, logits, targets, start),
                    targets, start), should_cancel)
            done += sum(len(w) for w, _ in group)
            now = time.perf_counter()
            if on_progress is not None and (now - last_report >= PROGRESS_S or done == total):
                on_progress(done / total)
                last_report = now
        return time.perf_counter() - t0

    def _window_plan(self, seq: list[int], n_ctx: int) -> tuple[list[tuple[list[int], np.ndarray]], int, bool]:
        """The sliding windows (protocol/score.py): each window's tokens and, per position, the sequence
        index of the token its logits predict (-1: not scored in this window)."""
        rt = self.rt
        bos = bool(seq) and rt.add_bos and seq[0] == rt.bos
        off = 1 if bos else 0
        body = seq[off:]
        cap = n_ctx - off
        stride = window_stride(n_ctx, bos)
        plan: list[tuple[list[int], np.ndarray]] = []
        scored_to = 0 if bos else 1   # body indices below this are scored (or cannot be)
        start = 0
        while True:
            end = min(start + cap, len(body))
            window = ([rt.bos] if bos else []) + body[start:end]
            targets = np.full(len(window), -1, dtype=np.int64)
            for j in range(max(scored_to, start + (0 if bos else 1)), end):
                p = j - start + off          # the token's position in the window
                targets[p - 1] = j + off     # predicted by the logits of the position before
            plan.append((window, targets))
            scored_to = end
            if end >= len(body):
                break
            start += stride
        if len(seq) < 2:
            raise InvalidSettingsError("scoring needs at least 2 tokens (the first has no context)")
        return plan, stride, bos

    def _chunk_plan(self, seq: list[int], n_ctx: int, min_chunks: int = MIN_CHUNKS
                    ) -> tuple[list[tuple[list[int], np.ndarray]], int, bool]:
        """llama-perplexity's chunks: n_ctx tokens each, the first replaced by BOS, the second half scored."""
        rt = self.rt
        if len(seq) < min_chunks * n_ctx:
            raise InvalidSettingsError(
                "the chunked perplexity needs at least {need} tokens with a context of {n_ctx} (2 chunks); "
                "the text has {n_tokens}: use a smaller context (chunk) or a longer text",
                need=2 * n_ctx, n_ctx=n_ctx, n_tokens=len(seq))
        first = n_ctx // 2
        plan: list[tuple[list[int], np.ndarray]] = []
        for c in range(len(seq) // n_ctx):
            base = c * n_ctx
            window = list(seq[base:base + n_ctx])
            if rt.add_bos:
                window[0] = rt.bos
            targets = np.full(n_ctx, -1, dtype=np.int64)
            targets[first:n_ctx - 1] = np.arange(base + first + 1, base + n_ctx)
            plan.append((window, targets))
        return plan, n_ctx, bool(rt.add_bos)


def _context_failed(reason: str) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not create the scoring context: {reason}", reason=reason)


def _eval_failed(rc: int) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not evaluate the text (llama_decode returned {rc})", rc=rc)


def log_softmax(logits: np.ndarray) -> np.ndarray:
    """Row by row, in float64: the same logits always give the same numbers."""
    x = logits.astype(np.float64)
    m = x.max(axis=1, keepdims=True)
    out: np.ndarray = x - (m + np.log(np.exp(x - m).sum(axis=1, keepdims=True)))
    return out


def score_rows(logits: np.ndarray, targets: np.ndarray, top: int) -> RowNumbers:
    """Per row of logits [rows, n_vocab]: (log-probability of the target, entropy in nats, rank of the
    target, top ids, top log-probabilities)."""
    mx = logits.max(axis=1)
    shifted = logits - mx[:, None]
    e = np.exp(shifted)
    return row_numbers(logits, mx, shifted, e, e.sum(axis=1, dtype=np.float64), targets, top)

