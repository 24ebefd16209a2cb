"""The logit lens: the residual stream of each layer through the model's final norm and output head.

The final norm and the head are read from the GGUF file (dequantized with the `gguf` package) once per
model (float32: 113 MB for the demo model's tied 49,152 x 576 embeddings). The final norm is an RMS norm
(`x / sqrt(mean(x^2) + eps) * output_norm.weight`), as in the llama family, Qwen and Gemma (whose GGUF
files store the norm weight with Gemma's +1 already added).

llama.cpp's CPU backend multiplies a Q4_0/Q4_1/Q5_0/Q5_1/Q8_0 matrix by activations quantized to 8 bits in
blocks of 32 (Q8_0 / Q8_1: one fp16 scale per block). The head does the same here, so that the last layer
of the lens reproduces the model's own probabilities (without it: 0.01 off on the demo model's Q8_0 head).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from logitscope.base.errors import LogitscopeError
from logitscope.engine.forward.tensors import dequantize_into
from logitscope.gguf.header import TensorInfo, read_header
from logitscope.protocol.forward import LENS_TOP_K, LayerLens
from logitscope.system.threads import available_cpus

# ggml types whose CPU dot product quantizes the activations to Q8_0 / Q8_1: Q4_0, Q4_1, Q5_0, Q5_1, Q8_0
Q8_ACTIVATION_TYPES = frozenset({2, 3, 6, 7, 8})
# A head bigger than this in float32 is kept in float16 and multiplied in slices, 3.5x slower (an 8B model's
# 128k x 4096 head: 2.1 GB in float32); the demo model's (113 MB) and Gemma 3 270M's (640 MB) stay float32.
FLOAT32_HEAD_LIMIT = 768 << 20
HEAD_SLICE_ROWS = 16384


@dataclass
class OutputHead:
    norm_weight: np.ndarray     # float32 [n_embd]
    eps: float
    weight: np.ndarray          # [n_vocab, n_embd] float32 or float16: output.weight, or the tied token_embd.weight
    tied: bool
    load_s: float               # the one-off cost of reading and dequantizing it
    act_block: int = 0          # quantize activations in blocks of this many values (0: not at all)

    @property
    def nbytes(self) -> int:
        return int(self.weight.nbytes + self.norm_weight.nbytes)

    def normed(self, rows: np.ndarray) -> np.ndarray:
        rows = rows.astype(np.float32, copy=False)
        scale = 1.0 / np.sqrt(np.mean(np.square(rows, dtype=np.float64), axis=-1, keepdims=True) + self.eps)
        normed: np.ndarray = (rows * scale.astype(np.float32)) * self.norm_weight
        return normed

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """[n_rows, n_embd] residuals -> [n_rows, n_vocab] logits."""
        x = self.normed(rows)
        if self.act_block:
            x = quantize_q8(x, self.act_block)
        if self.weight.dtype == np.float32:
            logits: np.ndarray = x @ self.weight.T
            return logits
        out = np.empty((x.shape[0], self.weight.shape[0]), dtype=np.float32)
        for start in range(0, self.weight.shape[0], HEAD_SLICE_ROWS):
            part = self.weight[start:start + HEAD_SLICE_ROWS].astype(np.float32)
            np.matmul(x, part.T, out=out[:, start:start + len(part)])
        return out


def quantize_q8(x: np.ndarray, block: int) -> np.ndarray:
    """`x` as ggml's Q8_0 holds it: per block, q = round(x * 127 / max|x|), times the fp16 scale max|x| / 127."""
    if x.shape[-1] % block:
        return x
    blocks = x.reshape(*x.shape[:-1], -1, block)
    amax = np.abs(blocks).max(axis=-1, keepdims=True)
    safe = np.where(amax > 0, amax, 1.0)
    q = np.round(blocks * np.where(amax > 0, 127.0 / safe, 0.0))
    scale = (amax / 127.0).astype(np.float16).astype(np.float32)
    quantized: np.ndarray = (q * scale).reshape(x.shape).astype(np.float32)
    return quantized


def load_output_head(path: str | Path, architecture: str) -> OutputHead:
    """Raises LogitscopeError (the lens cannot be computed for this file) when a piece is missing."""
    from gguf import GGML_QUANT_SIZES, GGMLQuantizationType
    from gguf.quants import dequantize

    t0 = time.perf_counter()
    header = read_header(path)
    tensors = {t.name: t for t in header.tensors}
    eps = header.metadata.get(f"{architecture}.attention.layer_norm_rms_epsilon")
    norm = tensors.get("output_norm.weight")
    head = tensors.get("output.weight") or tensors.get("token_embd.weight")
    if not isinstance(eps, float) or norm is None or head is None:
        raise LogitscopeError("the logit lens needs the model's final RMS norm and output head, and this "
                              "{architecture} model does not have them in the form it knows",
                              architecture=architecture)

    def values(tensor: TensorInfo, dtype: type[np.floating[Any]] = np.float32) -> np.ndarray:
        """[rows, row length], from the file's bytes (memory-mapped: nothing else is read), dequantized a
        slice of rows at a time, the slices in parallel (ggml's C dequantizer, else the gguf package's)."""
        n_rows, n_cols = tensor.n_elements // tensor.shape[0], tensor.shape[0]
        raw = np.memmap(path, dtype=np.uint8, mode="r", offset=header.data_start + tensor.offset,
                        shape=(n_rows, tensor.n_bytes // n_rows))
        qtype = GGMLQuantizationType[tensor.type_name]
        block, type_size = GGML_QUANT_SIZES[qtype]
        out = np.empty((n_rows, n_cols), dtype=dtype)

        def fill(start: int) -> None:
            rows = np.asarray(raw[start:start + HEAD_SLICE_ROWS])
            target = out[start:start + len(rows)]
            part = target if dtype == np.float32 else np.empty(target.shape, dtype=np.float32)
            if not dequantize_into(rows, int(qtype), block, type_size, part):
                part = np.asarray(dequantize(rows, qtype), dtype=np.float32).reshape(target.shape)
            if part is not target:
                target[:] = part

        with ThreadPoolExecutor(max_workers=available_cpus()) as pool:
            list(pool.map(fill, range(0, n_rows, HEAD_SLICE_ROWS)))
        return out

    norm_weight = values(norm).reshape(-1)
    weight = values(head, np.float32 if head.n_elements * 4 <= FLOAT32_HEAD_LIMIT else np.float16)
    act_block = 32 if int(GGMLQuantizationType[head.type_name]) in Q8_ACTIVATION_TYPES else 0
    return OutputHead(norm_weight, float(eps), weight, head.name == "token_embd.weight",
                      time.perf_counter() - t0, act_block)


def layer_lens(head: OutputHead, rows: np.ndarray, chosen: int | None, layer_names: list[str],
               attn_norm: np.ndarray, ffn_norm: np.ndarray) -> LayerLens:
    """The lens of `rows` (the residual after each layer row, [L + 1, n_embd]). `chosen`: the token to
    follow, or None for the last row's top-1."""
    logits = head.logits(rows).astype(np.float32, copy=False)
    shifted = logits - logits.max(axis=1, keepdims=True)  # float32 throughout: the vocabulary is wide
    probs = np.exp(shifted)
    z = probs.sum(axis=1, keepdims=True)
    probs /= z
    top_ids = np.argpartition(logits, -LENS_TOP_K, axis=1)[:, -LENS_TOP_K:]
    order = np.argsort(-np.take_along_axis(logits, top_ids, axis=1), axis=1, kind="stable")
    top_ids = np.take_along_axis(top_ids, order, axis=1)
    if chosen is None:
        chosen = int(top_ids[-1, 0])
    chosen_logit = logits[:, chosen:chosen + 1]
    entropy = np.log(z[:, 0]) - np.einsum("ij,ij->i", probs, shifted)  # log-sum-exp minus E[logit]
    return LayerLens(
        layer_names=layer_names,
        top_ids=top_ids.astype(np.int32),
        top_probs=np.take_along_axis(probs, top_ids, axis=1).astype(np.float32),
        chosen=chosen,
        chosen_rank=np.count_nonzero(logits > chosen_logit, axis=1).astype(np.int32),
        chosen_prob=probs[:, chosen].astype(np.float32),
        entropy=np.maximum(entropy, 0.0).astype(np.float32),
        resid_norm=np.linalg.norm(rows, axis=1).astype(np.float32),
        attn_norm=attn_norm.astype(np.float32),
        ffn_norm=ffn_norm.astype(np.float32),
    )
