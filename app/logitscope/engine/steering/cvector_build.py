"""Building a control vector from prompt pairs in the engine process, as llama.cpp's `llama-cvector-generator`
does (tools/cvector-generator/cvector-generator.cpp), so that its files and ours agree:

- each prompt is tokenized with BOS per the model and special tokens parsed; the shorter of a pair is padded
  to the longer's length with the last token of " " (tokenized without BOS, special tokens not parsed);
- each prompt is evaluated alone, from an empty cache, in one micro-batch, and the graph callback copies the
  residual after every layer (`l_out-L`) for every token. Only the last token's logits are asked for, so
  llama.cpp computes one row of the last layer: the tool drops that layer, and writes `l_out-L` as
  `direction.{L+1}` (directions 1 .. n_layer - 1);
- the differences positive - negative are reduced per layer (engine/steering/directions.py: mean or PCA).

The evaluation runs on a context of its own (flash attention on, as the tool's default on the CPU), made for
the build and freed after it: the generation context is untouched. Progress: pairs done / pairs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import llama_cpp
import numpy as np

from logitscope.base.errors import InvalidSettingsError, LogitscopeError
from logitscope.engine.forward.capture import GraphCapture
from logitscope.engine.handles import Context, cvector_spec, decode_error
from logitscope.engine.runtime import Runtime
from logitscope.engine.steering.directions import kept_difference_rows, mean_direction, pca_direction
from logitscope.protocol.cvector import CvectorRequest, CvectorResult

PAD_TEXT = b" "  # the tool's padding ("TODO: customize padding token")


def tokenize_pair(rt: Runtime, positive: bytes, negative: bytes) -> tuple[list[int], list[int]]:
    """Both prompts' tokens, the shorter padded to the longer's length as the tool pads."""
    pos = rt.tokenize(positive, rt.add_bos, True)
    neg = rt.tokenize(negative, rt.add_bos, True)
    pad_tokens = rt.tokenize(PAD_TEXT, False, False)
    if not pad_tokens:
        raise LogitscopeError("this model's vocabulary has no token for a space: the prompts cannot be padded")
    n = max(len(pos), len(neg))
    return pos + [pad_tokens[-1]] * (n - len(pos)), neg + [pad_tokens[-1]] * (n - len(neg))


def build_control_vector(rt: Runtime, request: CvectorRequest, on_progress: Callable[[float], None] | None = None,
                         should_cancel: Callable[[], bool] = lambda: False) -> CvectorResult:
    """One unit direction per layer of `request.layers(n_layer)`. Cancelled: InterruptedError."""
    request.validate()
    layers = request.layers(rt.n_layer)
    pairs = [tokenize_pair(rt, p, n) for p, n in zip(request.positive, request.negative, strict=True)]
    _check_pairs(pairs, rt.n_ctx)
    names = {f"l_out-{n - 1}": n for n in layers}
    capture = GraphCapture()  # referenced until the context is freed
    t0 = time.perf_counter()
    context = Context(rt.model, cvector_spec(rt.settings, max(len(p) for p, _ in pairs), rt.n_threads), rt.log,
                      _context_failed, cb_eval=capture.callback)
    rows: dict[int, list[np.ndarray]] = {n: [] for n in layers}
    try:
        for i, (pos, neg) in enumerate(pairs):
            if should_cancel():
                raise InterruptedError("control vector build cancelled")
            hidden_pos = _hidden_states(context, capture, pos, names)
            hidden_neg = _hidden_states(context, capture, neg, names)
            for name, n in names.items():
                kept = kept_difference_rows(hidden_pos[name], hidden_neg[name])
                if not len(kept):  # the tool asserts (and aborts) here
                    raise InvalidSettingsError("prompt pair {pair} gives the same hidden states to both prompts at "
                                               "layer {layer}: there is no difference to follow", pair=i + 1, layer=n)
                rows[n].append(kept)
            if on_progress is not None:
                on_progress((i + 1) / len(pairs))
    finally:
        context.close()
    t1 = time.perf_counter()
    directions: list[np.ndarray] = []
    for n in layers:
        if should_cancel():
            raise InterruptedError("control vector build cancelled")
        data = np.concatenate(rows[n])
        if request.method == "mean":
            directions.append(mean_direction(data))
        else:  # the tool seeds each layer's start alike (with the time): the same start in every layer
            rng = np.random.default_rng(request.seed)
            directions.append(pca_direction(data, request.pca_iterations, request.pca_batch, rng, should_cancel))
    return CvectorResult(layers=layers, directions=np.stack(directions).astype(np.float32),
                         model_hint=rt.meta("general.architecture") or "", method=request.method,
                         n_pairs=len(pairs), n_tokens=sum(2 * len(p) for p, _ in pairs),
                         rows=[sum(len(r) for r in rows[n]) for n in layers], eval_s=t1 - t0,
                         reduce_s=time.perf_counter() - t1)


def _check_pairs(pairs: Sequence[tuple[list[int], list[int]]], n_ctx: int) -> None:
    for i, (pos, neg) in enumerate(pairs):
        if len(pos) > n_ctx:
            raise InvalidSettingsError("prompt pair {pair} is {n_tokens} tokens long but the context holds "
                                       "{n_ctx}; shorten it or load the model with a larger context",
                                       pair=i + 1, n_tokens=len(pos), n_ctx=n_ctx)
        if pos == neg:
            raise InvalidSettingsError("prompt pair {pair}: both prompts are the same tokens, so they differ "
                                       "nowhere", pair=i + 1)


def _hidden_states(context: Context, capture: GraphCapture, tokens: list[int],
                   names: dict[str, int]) -> dict[str, np.ndarray]:
    """The residual after each named layer for every token ([n_tokens, n_embd] each), from an empty cache."""
    llama_cpp.llama_memory_clear(context.memory, True)
    arr = (llama_cpp.llama_token * len(tokens))(*tokens)
    capture.begin(set(names))
    try:
        rc = llama_cpp.llama_decode(context.ptr, llama_cpp.llama_batch_get_one(arr, len(tokens)))
    finally:
        captured = capture.end()  # raises the callback's error, if any
    if rc != 0:
        raise decode_error(rc, None, _eval_failed)
    hidden: dict[str, np.ndarray] = {}
    for name in names:
        full = [m for m in (a.reshape(-1, a.shape[-1]) for a in captured.get(name, [])) if m.shape[0] == len(tokens)]
        if not full:  # the tool keeps only l_out tensors of the prompt's length too
            raise LogitscopeError("llama.cpp computed no {name} tensor for every token: this model's layers are "
                                  "not named as the llama family's", name=name)
        hidden[name] = full[-1]
    return hidden


def _context_failed(reason: str) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not create the control vector's context: {reason}", reason=reason)


def _eval_failed(rc: int) -> LogitscopeError:
    return LogitscopeError("llama.cpp could not evaluate a prompt of the control vector (code {code})", code=rc)
