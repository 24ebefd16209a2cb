"""Is a readable GGUF header consistent enough for llama.cpp to load the model? Problems, in words.

Only what is certain to fail is reported, each rule taken from llama.cpp (gguf.c, the model loader,
`load_hparams`, the architecture's tensor list), so a valid model of any architecture passes:
- layout (every architecture): each tensor's data where gguf.c's layout puts it (one after the other,
  each padded to the alignment) and inside the file, as the loader checks before it maps anything;
- hyperparameters (every architecture): block_count, context_length and embedding_length present as
  uint32, 1 <= block_count <= LLAMA_MAX_LAYERS, per-layer arrays one value per layer, no tensor of a
  layer past block_count (the loader refuses tensors it did not use);
- shapes (only architectures whose tensor list is checked here, STANDARD_ATTENTION): heads > 0 and
  n_head divisible by n_head_kv, the token embedding [n_embd, n_vocab], Q/K/V [n_embd, heads x head
  dim], the FFN [n_embd, n_ff], and tensors for every layer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gguf import GGUFValueType

from logitscope.base.messages import Message

if TYPE_CHECKING:
    from logitscope.gguf.header import GGUFHeader, TensorInfo

LLAMA_MAX_LAYERS = 512
# Architectures whose loader (llama.cpp src/models/<arch>.cpp) creates the tensors checked below with these
# shapes: token_embd [n_embd, n_vocab]; per layer attn_norm, attn_q [n_embd, head_dim_k x n_head],
# attn_k [n_embd, head_dim_k x n_head_kv], attn_v [n_embd, head_dim_v x n_head_kv], and without experts
# ffn_gate/ffn_up [n_embd, n_ff], ffn_down [n_ff, n_embd]. Checked on real llama (SmolLM2) and gemma3 files.
STANDARD_ATTENTION = frozenset({"llama", "gemma3", "qwen3"})
ROPE_MUST_MATCH_HEAD = frozenset({"llama"})  # load_hparams: "invalid n_rot" unless rope dims == head dim
REQUIRED_UINT32 = ("block_count", "context_length", "embedding_length")
PER_LAYER = ("feed_forward_length", "attention.head_count", "attention.head_count_kv")
LAYER_TENSOR = re.compile(r"^blk\.(\d+)\.(.+)$")


def layout_problems(header: GGUFHeader, prefix: str = "") -> list[str]:
    """Tensor data inside the file and where gguf.c expects it (contiguous, in order, padded)."""
    problems: list[str] = []
    expected = 0
    for t in header.tensors:
        if t.offset != expected:
            problems.append(Message("{prefix}tensor {t_name}'s data is at offset {offset} of the "
                                    "data section, but gguf's layout puts it at {expected} (one "
                                    "tensor after another, each padded to {alignment} bytes)", prefix=prefix, t_name=t.name, offset=t.offset, expected=expected, alignment=header.alignment))
            break
        expected += -(-t.n_bytes // header.alignment) * header.alignment
    outside = [t for t in header.tensors if header.data_start + t.offset + t.n_bytes > header.file_size]
    if outside:
        last = max(outside, key=lambda t: t.offset + t.n_bytes)
        end = header.data_start + last.offset + last.n_bytes
        problems.append(Message("{prefix}the data of {n_outside} of {n_tensors} tensors lies "
                                "past the end of the file (it needs {end:,} bytes, the file has "
                                "{file_size:,}): the file is truncated or its download incomplete", prefix=prefix, n_outside=len(outside), n_tensors=len(header.tensors), end=end, file_size=header.file_size))
    return problems


@dataclass(frozen=True)
class _Hparams:
    """The hyperparameters as llama.cpp reads them, per layer where it does."""

    arch: str
    meta: dict[str, Any]
    array_lengths: dict[str, int]
    value_types: dict[str, GGUFValueType]

    def key(self, name: str) -> str:
        return f"{self.arch}.{name}"

    def scalar(self, name: str) -> int | None:
        return as_int(self.meta.get(self.key(name)))

    def per_layer(self, name: str, n_layer: int, default: list[int] | None) -> list[int] | None:
        """One value per layer (None when unknown: a long array whose values were not kept)."""
        key = self.key(name)
        if key not in self.meta:
            return default
        value = self.meta[key]
        if self.value_types.get(key) == GGUFValueType.ARRAY:
            if value is None or len(value) != n_layer:
                return None
            ints = [as_int(v) for v in value]
            known = [v for v in ints if v is not None]
            return known if len(known) == len(ints) else None
        v = as_int(value)
        return None if v is None else [v] * n_layer


def as_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and (not math.isfinite(value) or value != int(value)):
        return None
    return int(value)


def model_problems(arch: str, header: GGUFHeader, tensors: Sequence[TensorInfo]) -> list[str]:
    """What in the hyperparameters and tensors (all parts of a split model) llama.cpp cannot load."""
    if arch == "clip":  # a vision projector: llama.cpp reads no hyperparameters for it
        return []
    hp = _Hparams(arch, header.metadata, header.array_lengths, header.value_types)
    problems = _required_keys(hp)
    n_layer = hp.scalar("block_count")
    if n_layer is None:
        return problems
    if not 1 <= n_layer <= LLAMA_MAX_LAYERS:
        problems.append(Message("block_count is {n_layer}, outside llama.cpp's limit of 1 to "
                                "{LLAMA_MAX_LAYERS} layers", n_layer=n_layer, LLAMA_MAX_LAYERS=LLAMA_MAX_LAYERS))
    layers: dict[int, dict[str, TensorInfo]] = {}
    for t in tensors:
        m = LAYER_TENSOR.match(t.name)
        if m:
            layers.setdefault(int(m.group(1)), {})[m.group(2)] = t
    beyond = sorted(i for i in layers if i >= n_layer)
    if beyond:
        problems.append(Message("block_count is {n_layer} but the file holds tensors of layer {first} to {last}",
                                n_layer=n_layer, first=beyond[0], last=beyond[-1]) if len(beyond) > 1 else
                        Message("block_count is {n_layer} but the file holds tensors of layer {first}",
                                n_layer=n_layer, first=beyond[0]))
    if arch in STANDARD_ATTENTION:
        problems += _missing_layers(n_layer, layers)
    if not 1 <= n_layer <= LLAMA_MAX_LAYERS:
        return problems
    for name in PER_LAYER:
        key = hp.key(name)
        if hp.value_types.get(key) == GGUFValueType.ARRAY and hp.array_lengths.get(key) != n_layer:
            problems.append(Message("{key} has {n_values} values for {n_layer} layers", key=key, n_values=hp.array_lengths.get(key), n_layer=n_layer))
    if arch in STANDARD_ATTENTION:
        problems += _standard_attention(hp, n_layer, layers, {t.name: t for t in tensors})
    return problems


def _required_keys(hp: _Hparams) -> list[str]:
    problems: list[str] = []
    for name in REQUIRED_UINT32:
        key = hp.key(name)
        vtype = hp.value_types.get(key)
        if vtype is None:
            problems.append(Message("{key} is missing", key=key))
        elif vtype != GGUFValueType.UINT32:
            problems.append(Message("{key} is stored as {vtype_name}, llama.cpp reads it only as "
                                    "UINT32", key=key, vtype_name=vtype.name))
    for name in PER_LAYER:
        vtype = hp.value_types.get(hp.key(name))
        if vtype not in (None, GGUFValueType.UINT32, GGUFValueType.ARRAY):
            problems.append(Message("{name} is stored as {vtype_name}, llama.cpp reads it only "
                                    "as UINT32", name=hp.key(name), vtype_name=vtype.name))
    return problems


def _standard_attention(hp: _Hparams, n_layer: int, layers: dict[int, dict[str, TensorInfo]],
                        by_name: dict[str, TensorInfo]) -> list[str]:
    problems: list[str] = []
    n_embd = hp.scalar("embedding_length") or 0
    n_head = hp.per_layer("attention.head_count", n_layer, [0] * n_layer)
    n_head_kv = hp.per_layer("attention.head_count_kv", n_layer, n_head)
    n_ff = hp.per_layer("feed_forward_length", n_layer, [0] * n_layer)
    if n_head is not None and any(h <= 0 for h in n_head):
        problems.append(Message("{key} is {n_head}: a {arch} model needs attention heads", key=hp.key('attention.head_count'), n_head=min(n_head), arch=hp.arch))
        return problems
    if n_head_kv is not None and any(h <= 0 for h in n_head_kv):
        problems.append(Message("{key} is {n_head_kv}: a {arch} model needs at least one KV head", key=hp.key('attention.head_count_kv'), n_head_kv=min(n_head_kv), arch=hp.arch))
        return problems
    if n_head is not None and n_head_kv is not None:
        bad = next((i for i in range(n_layer) if n_head[i] % n_head_kv[i]), None)
        if bad is not None:
            problems.append(Message("{n_head} attention heads cannot share {n_head_kv} KV heads "
                                    "(head_count must be a multiple of head_count_kv)", n_head=n_head[bad], n_head_kv=n_head_kv[bad]))
            return problems
    problems += _embedding(hp, n_embd, by_name)
    if n_head is None or n_head_kv is None:
        return problems
    head_k = hp.scalar("attention.key_length") or (n_embd // n_head[0] if n_head[0] else 0)
    head_v = hp.scalar("attention.value_length") or (n_embd // n_head[0] if n_head[0] else 0)
    rope = hp.scalar("rope.dimension_count")
    if hp.arch in ROPE_MUST_MATCH_HEAD and rope is not None and rope != head_k:
        problems.append(Message("rope.dimension_count is {rope} but the head dimension is "
                                "{head_k} (embedding_length {n_embd} / {n_head} heads)", rope=rope, head_k=head_k, n_embd=n_embd, n_head=n_head[0]))
    expected: dict[str, Callable[[int], tuple[int, ...]]] = {
        "attn_q.weight": lambda i: (n_embd, head_k * n_head[i]),
        "attn_k.weight": lambda i: (n_embd, head_k * n_head_kv[i]),
        "attn_v.weight": lambda i: (n_embd, head_v * n_head_kv[i]),
    }
    if not (hp.scalar("expert_count") or 0) and n_ff is not None:
        expected |= {
            "ffn_gate.weight": lambda i: (n_embd, n_ff[i]),
            "ffn_up.weight": lambda i: (n_embd, n_ff[i]),
            "ffn_down.weight": lambda i: (n_ff[i], n_embd),
        }
    for suffix, shape_of in expected.items():
        wrong = [(i, layers[i][suffix]) for i in sorted(layers)
                 if i < n_layer and suffix in layers[i] and layers[i][suffix].shape != shape_of(i)]
        if wrong:
            i, t = wrong[0]
            more = Message(" (and in {n} more layers)", n=len(wrong) - 1) if len(wrong) > 1 else ""
            problems.append(Message("tensor {tensor} is {shape} but the hyperparameters make it {expected}{more}",
                                    tensor=t.name, shape=_dims(t.shape), expected=_dims(shape_of(i)), more=more))
    return problems


def _missing_layers(n_layer: int, layers: dict[int, dict[str, TensorInfo]]) -> list[str]:
    """Every layer of these architectures has tensors (at least its attention norm)."""
    have = sum(1 for i in layers if 0 <= i < n_layer)
    if have >= n_layer:
        return []
    first = next(i for i in range(have + 1) if i not in layers)
    return [Message("block_count is {n_layer} but the file holds tensors for {have} layers "
                    "({missing:,} missing, the first is layer {first})",
                    n_layer=n_layer, have=have, missing=n_layer - have, first=first)]


def _embedding(hp: _Hparams, n_embd: int, by_name: dict[str, TensorInfo]) -> list[str]:
    embd = by_name.get("token_embd.weight")
    if embd is None:
        return ["the token embedding (token_embd.weight) is missing"]
    n_vocab = hp.array_lengths.get("tokenizer.ggml.tokens")
    problems: list[str] = []
    if embd.shape[0] != n_embd:
        problems.append(Message("embedding_length is {n_embd} but the token embedding is {shape} "
                                "wide", n_embd=n_embd, shape=embd.shape[0]))
    if n_vocab is not None and (len(embd.shape) < 2 or embd.shape[1] != n_vocab):
        rows = embd.shape[1] if len(embd.shape) > 1 else 1
        problems.append(Message("the vocabulary has {n_vocab:,} tokens but the token embedding "
                                "has {rows:,} rows", n_vocab=n_vocab, rows=rows))
    return problems


def _dims(shape: Sequence[int]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"
