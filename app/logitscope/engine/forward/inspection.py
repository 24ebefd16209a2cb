"""Seeing inside the forward pass: the logit lens and the attention weights of one step.

An inspection context on the same llama_model as the generation context, created on first use, has flash
attention off (so llama.cpp computes `kq_soft_max`) and a graph callback (cb_eval) that copies out the few
named nodes needed. The generation context never has a callback: generation speed is untouched.

To inspect the step at the last token of a context, the inspection context is filled with the tokens before
it (what it already holds, else a copy of a sequence state the generation computed: the generation context's
own, or one saved when it was copied before, else by evaluating them), then the last token is decoded with
the callback capturing. Columns of attention are KV cells, which equal positions because the inspection
context holds one sequence laid out from cell 0.

A copied state gives the very numbers the generation saw (the last layer of the lens reproduces a step's
raw probabilities to 1e-6). An evaluation matches it for prompt tokens; generated tokens were evaluated one at
a time, and llama.cpp computes a batch with other kernels (on AVX2 a step's probabilities then move by a few
points), so where the request says where its prompt ends they are evaluated one at a time again.
"""

from __future__ import annotations

import ctypes
import logging
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Literal

import llama_cpp
import numpy as np

from logitscope.base.errors import InvalidSettingsError, LogitscopeError
from logitscope.base.messages import Message
from logitscope.engine.forward.capture import Edit, GraphCapture
from logitscope.engine.forward.edits import knockout_edits
from logitscope.engine.forward.lens import OutputHead, layer_lens, load_output_head
from logitscope.engine.handles import INSPECT_BATCH, Context, decode_error, inspection_spec
from logitscope.engine.runtime import Runtime
from logitscope.engine.steering.apply import Steerer, SteeringFiles, SteeringKey
from logitscope.gguf.card import ModelCard
from logitscope.gguf.header import read_header
from logitscope.gguf.memory import UNQUANTIZED_KV, kv_bytes_per_token
from logitscope.protocol.causal import Ablation
from logitscope.protocol.forward import (
    AttentionMatrix,
    AttentionRow,
    ForwardInspection,
    InspectRequest,
    LayerLens,
)
from logitscope.protocol.steering import Steering, steering_record

log = logging.getLogger(__name__)

MIN_INSPECT_CTX = 512    # the inspection context grows in powers of two up to the generation context's size
# Evaluations of more tokens than this can be cancelled while they run (the abort callback, a Python call at every
# graph node, ~600 a pass); shorter ones (~0.3 s at most on 2 cores) finish first: a head scan is 270 of them.
ABORT_WATCH_TOKENS = 64
SAVED_STATES_BYTES = 64 << 20  # states of the generation context kept for later inspections (about 2,800
                               # tokens of the demo model); the latest is always kept
LENS_CHECK_TOLERANCE = 0.05  # last-layer lens vs llama.cpp's own probabilities: beyond it, the recipe is wrong
# Layers of sliding-window attention, for architectures whose GGUF files do not say (llama.cpp hard-codes
# them: `hparams.set_swa_pattern(n)`: in every n layers, all but the last use the window).
SWA_PATTERNS = {"gemma2": 2, "gemma3": 6}
# The residual stream after the embeddings (Gemma scales them: "inp_scaled"), and after each block's attention
# (llama: "ffn_inp", Gemma: "sa_out"). What attention and FFN add is the difference of two residuals: exact
# also where a norm follows the block's output (Gemma's post-norms), unlike the norm of "attn_out"/"ffn_out".
EMBD_NAMES = ("inp_scaled", "inp_embd", "embd")
MID_NAMES = ("ffn_inp", "sa_out")

Fill = Literal["auto", "copy", "evaluate"]


class Inspector:
    """The inspection context of one loaded model (Runtime) and what it computes."""

    def __init__(self, runtime: Runtime, card: ModelCard, files: SteeringFiles, generation: Steerer,
                 threads: int | None = None) -> None:
        """`generation`: the generation context's steering (its states are copied only when it matches);
        `threads`: the context's (default: the runtime's)."""
        self.rt = runtime
        self.threads = threads or runtime.n_threads
        self._files, self._generation = files, generation
        self._steering: Steering | None = None  # what the inspection context is to be steered with
        self.steerer: Steerer | None = None
        self.card = card
        self.n_layer = runtime.n_layer
        self.n_head = card.n_head
        self.kv_head_of = [h * max(card.n_head_kv, 1) // max(card.n_head, 1) for h in range(card.n_head)]
        self.window, self.window_note = layer_windows(card)
        self._capture = GraphCapture()
        self._abort_cb = llama_cpp.ggml_abort_callback(lambda _data: runtime.abort_requested)
        self._context: Context | None = None
        self._ctx: llama_cpp.llama_context_p | None = None  # its raw pointer
        self._mem: llama_cpp.llama_memory_t | None = None
        self.n_ctx = 0
        self.tokens: list[int] = []    # what the inspection context's KV cache holds
        self.in_batch: list[bool] = []  # per token held: evaluated here in a batch of several (not as generated)
        self.context_bytes = 0         # its KV cache and compute buffer
        self.create_s = 0.0
        self.last_fill = ""            # "cached" | "copied" | "evaluated": how the last inspection was filled
        # sequence states the generation computed, by its steering and tokens, oldest first
        self._states: OrderedDict[tuple[SteeringKey, tuple[int, ...]], bytes] = OrderedDict()
        self._head: OutputHead | None = None
        self._head_error: LogitscopeError | None = None

    # -- the context ------------------------------------------------------------------------------
    def _ensure_context(self, n_tokens: int) -> None:
        if n_tokens > self.rt.n_ctx:
            raise InvalidSettingsError("{n_tokens} tokens do not fit in the model's context of {n_ctx}",
                                       n_tokens=n_tokens, n_ctx=self.rt.n_ctx)
        if self._ctx is not None and n_tokens <= self.n_ctx:
            return
        self._free_context()
        n_ctx = MIN_INSPECT_CTX
        while n_ctx < n_tokens:
            n_ctx *= 2
        n_ctx = min(n_ctx, self.rt.n_ctx)
        rt = self.rt
        spec = inspection_spec(rt.settings, n_ctx, self.threads)
        t0 = time.perf_counter()
        context = Context(rt.model, spec, rt.log, _context_failed, cb_eval=self._capture.callback)
        self.create_s = time.perf_counter() - t0
        self._context, self._ctx, self._mem = context, context.ptr, context.memory
        self.n_ctx = context.n_ctx
        self.tokens, self.in_batch = [], []
        self.steerer = Steerer(context.ptr, self._files)
        self.steerer.apply(self._steering)
        kv = kv_bytes_per_token(self.card, rt.settings.type_k, UNQUANTIZED_KV) * self.n_ctx
        self.context_bytes = round(kv + context.compute_mib * 1024 * 1024)

    def _free_context(self) -> None:
        if self._context is not None:
            self._context.close()
        self._context = self._ctx = self._mem = self.steerer = None
        self.tokens, self.in_batch = [], []
        self.n_ctx = 0

    def _steer(self, steering: Steering | None) -> None:
        """Steer the inspection context (made first) as the step was; what it held was computed otherwise."""
        self._steering = steering
        assert self.steerer is not None
        if self.steerer.apply(steering):
            self._truncate(0)

    @property
    def _key(self) -> SteeringKey:
        assert self.steerer is not None
        return self.steerer.applied

    def close(self) -> None:
        """Free the inspection context (before the model it was made on) and the dequantized head."""
        self._free_context()
        self._head = None
        self._states.clear()

    @property
    def output_head(self) -> OutputHead:
        """Read and dequantized on first use, once per model."""
        if self._head is None:
            if self._head_error is not None:
                raise self._head_error
            try:
                self._head = load_output_head(self.rt.path, self.card.architecture)
            except LogitscopeError as exc:
                self._head_error = exc
                raise
        return self._head

    # -- filling it ---------------------------------------------------------------------------------
    def _fill(self, prefix: Sequence[int], how: Fill, n_prompt: int | None = None) -> None:
        """Make the inspection context hold exactly `prefix`: what it holds already, else a copy of a state the
        generation computed (the generation context's, or one saved when it was copied before), else by
        evaluating. A copy gives the very numbers the generation saw; so does an evaluation that knows where the
        prompt ends (`n_prompt`): the generated tokens after it go one at a time, as the generation evaluated
        them (llama.cpp computes a batch of tokens with other kernels than one token at a time)."""
        prefix = list(prefix)
        held = _common_prefix(self.tokens, prefix)
        if n_prompt is not None:   # answer tokens held from a batch (causal tracing, a whole attention matrix) are
            # not the generation's numbers: evaluated again from the first of them
            held = next((i for i in range(max(n_prompt, 0), held) if self.in_batch[i]), held)
        if how == "auto" and held == len(prefix):
            self._truncate(held)
            self.last_fill = "cached"
            return
        if how != "evaluate" and prefix:
            state = self._saved_state(prefix, from_generation_only=how == "copy")
            if state is not None and self._load_state(*state, n_keep=len(prefix)):
                self.last_fill = "copied"
                return
            if how == "copy":
                raise LogitscopeError("the generation context does not hold these tokens: nothing to copy")
        self._truncate(held if how == "auto" else 0)
        batched = len(prefix) if n_prompt is None else min(max(n_prompt, len(self.tokens)), len(prefix))
        self._decode(prefix[len(self.tokens):batched])
        self._decode(prefix[batched:], one_at_a_time=True)
        self.last_fill = "evaluated"

    def _saved_state(self, prefix: list[int], from_generation_only: bool) -> tuple[tuple[int, ...], bytes] | None:
        """(tokens, sequence state) of a state computed by the generation that starts with `prefix`: the
        generation context's (saved for later: the next request replaces it), else an earlier one."""
        main = self.rt.tokens
        # a knocked-out generation context computed other numbers than the model's own
        same_steering = self._generation.applied == self._key and not self.rt.knockouts
        if same_steering and len(main) >= len(prefix) and main[:len(prefix)] == prefix:
            size = llama_cpp.llama_state_seq_get_size(self.rt.context, 0)
            buf = (ctypes.c_uint8 * size)()
            written = llama_cpp.llama_state_seq_get_data(self.rt.context, buf, size, 0)
            if written:
                state = (tuple(main), bytes(memoryview(buf)[:written]))
                self._remember(*state)
                return state
        if from_generation_only:
            return None
        for (key, tokens), data in reversed(self._states.items()):
            if key == self._key and len(tokens) >= len(prefix) and list(tokens[:len(prefix)]) == prefix:
                self._states.move_to_end((key, tokens))
                return tokens, data
        return None

    def _remember(self, tokens: tuple[int, ...], data: bytes) -> None:
        self._states.pop((self._key, tokens), None)
        self._states[(self._key, tokens)] = data
        while sum(len(d) for d in self._states.values()) > SAVED_STATES_BYTES and len(self._states) > 1:
            self._states.popitem(last=False)

    def _load_state(self, tokens: tuple[int, ...], data: bytes, n_keep: int) -> bool:
        """Put a saved sequence state in the inspection context and keep its first n_keep cells. False when
        llama.cpp refuses it (another cache layout, e.g. flash attention on in the generation context)."""
        self._ensure_context(len(tokens))  # the whole state goes in before it is cut to n_keep
        self._truncate(0)
        buf = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
        if not llama_cpp.llama_state_seq_set_data(self._ctx, buf, len(data), 0):
            llama_cpp.llama_memory_clear(self._mem, True)
            log.info("a saved state of the generation context could not be loaded: evaluating instead")
            return False
        self.tokens, self.in_batch = list(tokens), [False] * len(tokens)   # the generation's own numbers
        self._truncate(n_keep)
        return len(self.tokens) == n_keep

    def _truncate(self, n_keep: int) -> None:
        """Keep the first n_keep cells; all of them go where llama.cpp cannot cut a sequence (recurrent state)."""
        if n_keep == 0 or (n_keep < len(self.tokens)
                           and not llama_cpp.llama_memory_seq_rm(self._mem, 0, n_keep, -1)):
            llama_cpp.llama_memory_clear(self._mem, True)
            n_keep = 0
        del self.tokens[n_keep:]
        del self.in_batch[n_keep:]

    def _decode(self, tokens: Sequence[int], one_at_a_time: bool = False) -> None:
        """Evaluate `tokens` after what the context holds, in batches or `one_at_a_time`. A long evaluation stops
        when the engine is asked to cancel (Runtime.abort): the abort callback, called for every graph node, is
        only installed then."""
        assert self._context is not None
        context = self._context
        cancellable = len(tokens) > (1 if one_at_a_time else ABORT_WATCH_TOKENS)
        size = 1 if one_at_a_time else INSPECT_BATCH
        if cancellable:
            context.watch_abort(self._abort_cb)
        try:
            for start in range(0, len(tokens), size):
                chunk = list(tokens[start:start + size])
                self._capture.offset, self._capture.n_batch = len(self.tokens), len(chunk)  # edits' positions
                arr = (llama_cpp.llama_token * len(chunk))(*chunk)
                rc = llama_cpp.llama_decode(self._ctx, llama_cpp.llama_batch_get_one(arr, len(chunk)))
                if rc != 0:
                    self._truncate(0)
                    raise decode_error(rc, "inspection aborted", _eval_failed)
                self.tokens.extend(chunk)
                self.in_batch.extend([len(chunk) > 1] * len(chunk))
        finally:
            if cancellable:
                context.unwatch_abort()

    def _decode_capturing(self, tokens: Sequence[int], names: set[str],
                          edits: dict[str, Edit] | None = None) -> dict[str, list[np.ndarray]]:
        self._capture.begin(names, edits)
        try:
            self._decode(tokens)
        finally:
            captured = self._capture.end()  # raises the callback's error, if any
        return captured

    def evaluate(self, tokens: Sequence[int], steering: Steering | None, names: set[str],
                 edits: dict[str, Edit] | None = None) -> tuple[np.ndarray, dict[str, list[np.ndarray]], set[str]]:
        """Every one of `tokens` evaluated afresh, steered, the named nodes captured and the edits applied (causal
        tracing, engine/forward/causal.py): the last token's logits (float32, a copy), what was captured, and the
        nodes an edit reached. An edited run leaves nothing in the context that a later inspection could take
        for the model's own numbers."""
        tokens = self._checked_tokens(tokens)
        self._ensure_context(len(tokens))
        self._steer(steering)
        self._truncate(0)
        try:
            captured = self._decode_capturing(tokens, names, edits)
            ptr = llama_cpp.llama_get_logits_ith(self._ctx, -1)
            logits = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)),
                                           shape=(self.rt.n_vocab,)).copy()
        finally:
            if edits:
                self._truncate(0)
        self.last_fill = "evaluated"
        return logits, captured, set(self._capture.edited)

    # -- the views ----------------------------------------------------------------------------------
    def inspect(self, request: InspectRequest, fill: Fill = "auto") -> ForwardInspection:
        t0 = time.perf_counter()
        self.rt.clear_abort()  # a cancel meant for an earlier request
        tokens = self._checked_tokens(request.tokens)
        if request.chosen is not None:
            self._check_ids([request.chosen])
        self._ensure_context(len(tokens))
        self._steer(request.steering)
        names = set(EMBD_NAMES)
        layers = range(self.n_layer)
        if request.lens:
            names |= {f"l_out-{il}" for il in layers} | {f"{n}-{il}" for n in MID_NAMES for il in layers}
        if request.attention:
            names |= {f"kq_soft_max-{il}" for il in layers}
        if request.knockouts:   # every token evaluated knocked out, as the answer was; nothing of it is kept
            for ablation in request.knockouts:
                ablation.validate(self.n_layer, self.n_head)
            self._truncate(0)
            try:
                captured = self._decode_capturing(tokens, names, knockout_edits(request.knockouts, self.n_head))
            finally:
                self._truncate(0)
            self.last_fill = "evaluated"
        else:
            self._fill(tokens[:-1], fill, request.n_prompt)
            captured = self._decode_capturing(tokens[-1:], names)
        last = {name: arrays[-1] for name, arrays in captured.items()}
        unavailable: dict[str, str] = {}
        lens = attention = None
        if request.lens:
            lens = self._lens(tokens, request.chosen, last, unavailable)
        if request.attention:
            attention = self._attention(len(tokens) - 1, last, unavailable)
        if self.window_note and request.attention:
            unavailable["attention_window"] = self.window_note
        assert self.steerer is not None
        record = self.steerer.record
        if request.knockouts:   # recorded as the generation records them (engine/core.py)
            record = {**(record or steering_record([], None, [])),
                      "knockouts": list(dict.fromkeys(a.label for a in request.knockouts))}
        return ForwardInspection(tokens=tokens, lens=lens, attention=attention, unavailable=unavailable,
                                 seconds=time.perf_counter() - t0, context_bytes=self.context_bytes,
                                 steering=record)

    def attention_matrix(self, tokens: Sequence[int], layer: int, head: int, steering: Steering | None = None,
                         knockouts: Sequence[Ablation] = ()) -> AttentionMatrix:
        """Row t: where position t looks, in layer `layer`, query head `head` (a fresh evaluation; knocked out
        as `knockouts` say, as a knocked-out answer was computed)."""
        self.rt.clear_abort()
        tokens = self._checked_tokens(tokens)
        if not 0 <= layer < self.n_layer:
            raise InvalidSettingsError("layer must be between 0 and {last}, not {layer}", last=self.n_layer - 1,
                                       layer=layer)
        if not 0 <= head < self.n_head:
            raise InvalidSettingsError("head must be between 0 and {last}, not {head}", last=self.n_head - 1,
                                       head=head)
        self._ensure_context(len(tokens))
        self._steer(steering)
        for ablation in knockouts:
            ablation.validate(self.n_layer, self.n_head)
        self._truncate(0)
        name = f"kq_soft_max-{layer}"
        try:
            chunks = self._decode_capturing(tokens, {name}, knockout_edits(knockouts, self.n_head)).get(name, [])
        finally:
            if knockouts:   # nothing knocked out stays for a later inspection to take as the model's own
                self._truncate(0)
        parts = [chunk.reshape(-1, *chunk.shape[-2:]) for chunk in chunks]  # [head, query, kv cell] each
        if len(parts) != -(-len(tokens) // INSPECT_BATCH) or any(p.shape[0] != self.n_head for p in parts):
            raise LogitscopeError(self._no_attention())
        n = len(tokens)
        weights = np.zeros((n, n), dtype=np.float32)
        row = 0
        for part in parts:
            rows = part[head]
            cols = min(rows.shape[1], n)
            weights[row:row + rows.shape[0], :cols] = rows[:, :cols]
            row += rows.shape[0]
        self.last_fill = "evaluated"
        return AttentionMatrix(layer=layer, head=head, weights=weights)

    # -- assembling ---------------------------------------------------------------------------------
    def _lens(self, tokens: list[int], chosen: int | None, last: dict[str, np.ndarray],
              unavailable: dict[str, str]) -> LayerLens | None:
        rows = [_last_row(last.get(name)) for name in (*EMBD_NAMES,)]
        embd = next((r for r in rows if r is not None), None)
        outs = [_last_row(last.get(f"l_out-{il}")) for il in range(self.n_layer)]
        if embd is None or any(r is None for r in outs):
            unavailable["lens"] = Message("the logit lens cannot be shown for this {architecture} model: its "
                                          "residual stream is not among the tensors llama.cpp names",
                                          architecture=self.card.architecture)
            return None
        try:
            head = self.output_head
        except LogitscopeError as exc:
            unavailable["lens"] = exc.message
            return None
        if head.weight.shape[0] != self.rt.n_vocab:  # a padded head: which rows are tokens is not known here
            unavailable["lens"] = self._no_lens()
            return None
        resid = np.stack([embd, *outs]).astype(np.float32)  # type: ignore[list-item]
        attn_norm = np.full(self.n_layer, np.nan, dtype=np.float32)
        ffn_norm = np.full(self.n_layer, np.nan, dtype=np.float32)
        for il in range(self.n_layer):
            mid = next((r for r in (_last_row(last.get(f"{n}-{il}")) for n in MID_NAMES) if r is not None), None)
            if mid is not None:
                attn_norm[il] = np.linalg.norm(mid - resid[il])
                ffn_norm[il] = np.linalg.norm(resid[il + 1] - mid)
        if chosen is None:
            chosen = self._known_next(tokens)
        lens = layer_lens(head, resid, chosen, ["embd", *(str(il) for il in range(self.n_layer))],
                          attn_norm, ffn_norm)
        if not self._lens_matches_logits(lens, head):
            unavailable["lens"] = self._no_lens()
            return None
        return lens

    def _known_next(self, tokens: list[int]) -> int | None:
        """The token after `tokens` in a context the generation evaluated (its current one, or a saved one):
        for a prompt token, the lens follows the prompt's next token."""
        n = len(tokens)
        for known in (self.rt.tokens, *(tokens for _key, tokens in reversed(self._states))):
            if len(known) > n and list(known[:n]) == tokens:
                return int(known[n])
        return None

    def _no_lens(self) -> Message:
        return Message("the logit lens cannot be shown for this {architecture} model: its last layer does not "
                       "reproduce the model's own output", architecture=self.card.architecture)

    def _lens_matches_logits(self, lens: LayerLens, head: OutputHead) -> bool:
        """The last row of the lens against the inspection context's own logits: never show a lens whose
        recipe (final norm, head, no soft-capping) does not fit the architecture."""
        ptr = llama_cpp.llama_get_logits_ith(self._ctx, -1)
        logits = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)),
                                       shape=(self.rt.n_vocab,)).astype(np.float64)
        logits -= logits.max()
        probs = np.exp(logits)
        probs /= probs.sum()
        ids = lens.top_ids[-1]
        return bool(np.max(np.abs(probs[ids] - lens.top_probs[-1])) <= LENS_CHECK_TOLERANCE)

    def _no_attention(self) -> Message:
        return Message("the attention weights cannot be shown for this {architecture} model: llama.cpp does not "
                       "compute them as one softmax per head here", architecture=self.card.architecture)

    def _attention(self, position: int, last: dict[str, np.ndarray],
                   unavailable: dict[str, str]) -> AttentionRow | None:
        weights = np.zeros((self.n_layer, self.n_head, position + 1), dtype=np.float32)
        for il in range(self.n_layer):
            soft = last.get(f"kq_soft_max-{il}")
            if soft is None or soft.shape[-1] <= position:
                unavailable["attention"] = self._no_attention()
                return None
            rows = soft.reshape(-1, soft.shape[-2], soft.shape[-1])[:, -1, :]  # [head, n_kv]: the last query
            if rows.shape[0] != self.n_head:
                unavailable["attention"] = self._no_attention()
                return None
            weights[il] = rows[:, :position + 1]
        return AttentionRow(position=position, weights=weights, kv_head_of=list(self.kv_head_of),
                            window=list(self.window))

    # -- checks -------------------------------------------------------------------------------------
    def _checked_tokens(self, tokens: Sequence[int]) -> list[int]:
        tokens = [int(t) for t in tokens]
        if not tokens:
            raise InvalidSettingsError("there is no token to inspect")
        self._check_ids(tokens)
        return tokens

    def _check_ids(self, tokens: Sequence[int]) -> None:
        bad = next((t for t in tokens if not 0 <= t < self.rt.n_vocab), None)
        if bad is not None:
            raise InvalidSettingsError("token id {token} is not in the vocabulary (0 to {last})", token=bad,
                                       last=self.rt.n_vocab - 1)


def _context_failed(reason: str) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not create the inspection context: {reason}", reason=reason)


def _eval_failed(rc: int) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not evaluate the tokens to inspect (code {code})", code=rc)


def layer_windows(card: ModelCard) -> tuple[list[int | None], Message | None]:
    """Per layer: the sliding-window length, or None for full attention; and a note when unsure."""
    metadata = read_header(card.path).metadata
    arch = card.architecture
    window = metadata.get(f"{arch}.attention.sliding_window")
    if not window:
        return [None] * card.n_layer, None
    pattern = metadata.get(f"{arch}.attention.sliding_window_pattern", SWA_PATTERNS.get(arch))
    if isinstance(pattern, list) and len(pattern) == card.n_layer:
        return [int(window) if sliding else None for sliding in pattern], None
    if isinstance(pattern, int) and pattern > 0:
        return [int(window) if il % pattern < pattern - 1 else None for il in range(card.n_layer)], None
    return [None] * card.n_layer, Message("this model uses a sliding attention window of {window} tokens on "
                                          "some layers, but which ones is not known here", window=window)


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _last_row(array: np.ndarray | None) -> np.ndarray | None:
    """The last token's row of an activation ([..., n_tokens, n_embd])."""
    return None if array is None else array.reshape(-1, array.shape[-1])[-1]
