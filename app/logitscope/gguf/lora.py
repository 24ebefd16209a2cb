"""A GGUF LoRA adapter's metadata, from its header alone (no weights read, no llama.cpp).

The format is what convert_lora_to_gguf.py writes and llama.cpp's llama_adapter_lora_init reads:
`general.type = adapter`, `adapter.type = lora`, `adapter.lora.alpha` (a float; llama.cpp takes 0 when it
is absent), and for each adapted weight `<name>.lora_a` (ggml ne [n_in, rank]) and `<name>.lora_b` (ne
[rank, n_out]), e.g. `blk.3.attn_q.weight.lora_a`. llama.cpp skips `*_norm.weight` tensors and refuses any
other name, a pair missing one half, and (but for token_embd, whose halves are flipped) an A whose ne[1]
is not B's ne[0].

The scale: llama.cpp multiplies each weight's B·A by `scale * alpha / rank`, rank being B's ne[0], or by
`scale` alone when alpha is 0 (llama_adapter_lora_weight::get_scale in src/llama-adapter.h).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logitscope.base.errors import InvalidSettingsError, ModelFileError
from logitscope.gguf.check import layout_problems
from logitscope.gguf.header import TensorInfo, read_header

LORA_A, LORA_B = ".lora_a", ".lora_b"
SKIPPED_SUFFIX = "_norm.weight"          # llama.cpp skips these (no support for norm vectors yet)
BLOCK = re.compile(r"^blk\.(\d+)\.(.+)$")
TOKEN_EMBD = "token_embd.weight"


@dataclass(frozen=True)
class LoraMetadata:
    """What a LoRA adapter's header says. `ranks`: the distinct ranks of its weights, sorted (one, usually);
    `targets`: the kinds of weight adapted without the block index ("attn_q", "ffn_down"; "output" for
    `output.weight`), sorted; `layers`: the block indices adapted, sorted; `n_weights`: the weights adapted
    (A/B pairs), `n_tensors` the A and B tensors, `n_params` their elements."""

    path: Path
    alpha: float | None
    ranks: tuple[int, ...]
    targets: tuple[str, ...]
    layers: tuple[int, ...]
    n_weights: int
    n_tensors: int
    n_params: int
    architecture: str = ""
    name: str = ""                       # general.name, else general.basename ("" when neither)

    @property
    def rank(self) -> int | None:
        """The rank when every weight has the same one, else None (see `ranks`)."""
        return self.ranks[0] if len(self.ranks) == 1 else None

    @property
    def alpha_over_rank(self) -> float | None:
        """What llama.cpp multiplies the scale by: alpha / rank; 1.0 when alpha is absent or 0 (llama.cpp
        then uses the scale alone); None when the ranks differ (each weight has its own)."""
        if not self.alpha:
            return 1.0
        return None if self.rank is None else self.alpha / self.rank


def read_lora_metadata(path: str | Path) -> LoraMetadata:
    """The adapter in `path`; one InvalidSettingsError naming the path for every kind of bad file."""
    path = Path(path)
    try:
        header = read_header(path)
    except ModelFileError as exc:
        raise InvalidSettingsError("the LoRA adapter {path} cannot be read: {reason}", path=str(path),
                                   reason=exc) from None
    meta = header.metadata
    for key, wanted in (("general.type", "adapter"), ("adapter.type", "lora")):
        value = meta.get(key)
        if value is None:
            raise InvalidSettingsError("{path} is not a LoRA adapter: it has no {key} (an adapter's is {wanted!r})",
                                       path=str(path), key=key, wanted=wanted)
        if value != wanted:
            raise InvalidSettingsError("{path} is not a LoRA adapter: its {key} is {value!r}, not {wanted!r}",
                                       path=str(path), key=key, value=value, wanted=wanted)
    if problems := layout_problems(header):
        raise InvalidSettingsError("the LoRA adapter {path} is damaged: {problem}", path=str(path),
                                   problem=problems[0])
    pairs = _pairs(path, header.tensors)
    if not pairs:
        raise InvalidSettingsError("the LoRA adapter {path} has no .lora_a / .lora_b tensors", path=str(path))
    ranks, targets, layers = set(), set(), set()
    for weight, (a, b) in pairs.items():
        ranks.add(_rank(path, weight, a, b))
        if match := BLOCK.match(weight):
            layers.add(int(match.group(1)))
            targets.add(_kind(match.group(2)))
        else:
            targets.add(_kind(weight))
    alpha = meta.get("adapter.lora.alpha")
    tensors = [t for pair in pairs.values() for t in pair]
    return LoraMetadata(
        path, float(alpha) if isinstance(alpha, (int, float)) and not isinstance(alpha, bool) else None,
        tuple(sorted(ranks)), tuple(sorted(targets)), tuple(sorted(layers)), len(pairs), len(tensors),
        sum(t.n_elements for t in tensors), _text(meta, "general.architecture"),
        _text(meta, "general.name") or _text(meta, "general.basename"))


def require_architecture(adapter: LoraMetadata, architecture: str) -> None:
    """llama.cpp refuses an adapter whose general.architecture is not the model's: say so before it is used."""
    if adapter.architecture and architecture and adapter.architecture != architecture:
        raise InvalidSettingsError("the LoRA adapter {path} is for the {adapter} architecture, not this model's "
                                   "{model}", path=adapter.path.name, adapter=adapter.architecture, model=architecture)


def compact_ranges(numbers: Iterable[int]) -> str:
    """"0–29" for a run, "0–3, 5, 7–9" for several; "" for none."""
    values = sorted(set(numbers))
    runs: list[tuple[int, int]] = []
    for n in values:
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return ", ".join(str(a) if a == b else f"{a}\u2013{b}" for a, b in runs)


def _pairs(path: Path, tensors: list[TensorInfo]) -> dict[str, tuple[TensorInfo, TensorInfo]]:
    """Each adapted weight's (A, B), as llama.cpp pairs them; its errors for a name or a pair it refuses."""
    halves: dict[str, dict[str, TensorInfo]] = {}
    for t in tensors:
        for suffix in (LORA_A, LORA_B):
            if t.name.endswith(suffix):
                halves.setdefault(t.name[:-len(suffix)], {})[suffix] = t
                break
        else:
            if not t.name.endswith(SKIPPED_SUFFIX):
                raise InvalidSettingsError(
                    "the LoRA adapter {path} has a tensor {name!r}: an adapter holds only .lora_a and .lora_b "
                    "tensors", path=str(path), name=t.name)
    pairs: dict[str, tuple[TensorInfo, TensorInfo]] = {}
    for weight, found in halves.items():
        if LORA_A not in found or LORA_B not in found:
            raise InvalidSettingsError("the LoRA adapter {path}: the tensor pair for {weight!r} is missing one "
                                       "half", path=str(path), weight=weight)
        pairs[weight] = (found[LORA_A], found[LORA_B])
    return pairs


def _rank(path: Path, weight: str, a: TensorInfo, b: TensorInfo) -> int:
    """B's ne[0], as llama.cpp takes the rank; A's ne[1] must match (but for the flipped token_embd)."""
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise InvalidSettingsError("the LoRA adapter {path}: {weight}'s A and B must be 2-D tensors",
                                   path=str(path), weight=weight)
    if not weight.endswith(TOKEN_EMBD) and a.shape[1] != b.shape[0]:
        raise InvalidSettingsError(
            "the LoRA adapter {path}: {weight}'s A has rank {rank_a} but its B {rank_b} (is A transposed?)",
            path=str(path), weight=weight, rank_a=a.shape[1], rank_b=b.shape[0])
    return int(b.shape[0])


def _kind(name: str) -> str:
    return name.removesuffix(".weight")


def _text(meta: dict[str, Any], key: str) -> str:
    value = meta.get(key)
    return value if isinstance(value, str) else ""
