"""The model card, made from the GGUF header (gguf/header.py) without loading any weights, and its
problems (gguf/check.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gguf import GGML_QUANT_SIZES, GGMLQuantizationType, LlamaFileType

from logitscope.base.errors import DamagedModelError, ModelFileError
from logitscope.base.messages import Message
from logitscope.gguf.check import as_int, layout_problems, model_problems
from logitscope.gguf.header import GGUFHeader, TensorInfo, read_header


@dataclass
class QuantShare:
    """How much of the model one tensor type holds."""

    type_name: str
    bits_per_weight: float
    n_tensors: int
    n_elements: int
    n_bytes: int


@dataclass
class ModelCard:
    path: str
    file_size: int
    gguf_version: int
    architecture: str
    name: str
    n_params: int
    file_type: str
    bits_per_weight: float
    quant_mix: list[QuantShare]
    n_layer: int
    n_head: int
    n_head_kv: int
    head_dim_k: int
    head_dim_v: int
    n_embd: int
    n_ff: int
    n_vocab: int
    tokenizer_model: str
    n_ctx_train: int
    bos_id: int | None
    eos_id: int | None
    has_chat_template: bool
    chat_template: str | None = field(repr=False, default=None)
    weights_bytes: int = 0
    problems: list[str] = field(default_factory=list)  # why llama.cpp cannot load it (gguf/check.py); [] if it can

    @property
    def n_offloadable(self) -> int:
        """Layers llama.cpp can put on a GPU: the repeating layers and the output layer."""
        return self.n_layer + 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
















def read_model_card(path: str | Path) -> ModelCard:
    """Model card from the header. Raises ModelFileError for anything that is not a usable model: a
    DamagedModelError, carrying the card, when the header reads but llama.cpp certainly cannot load it."""
    card = read_model_card_with_problems(path)
    if card.problems:
        raise damaged_error(card)
    return card


def damaged_error(card: ModelCard) -> DamagedModelError:
    more = len(card.problems) - 1
    if not more:
        return DamagedModelError("{file} is damaged and cannot load: {problem}", card,
                                 file=Path(card.path).name, problem=card.problems[0])
    more_problems = (Message("and 1 more problem: 'logitscope info' lists them") if more == 1 else
                     Message("and {more} more problems: 'logitscope info' lists them", more=more))
    return DamagedModelError("{file} is damaged and cannot load: {problem} ({more_problems})", card,
                             file=Path(card.path).name, problem=card.problems[0], more_problems=more_problems)


def read_model_card_with_problems(path: str | Path) -> ModelCard:
    """The model card with `problems` (see gguf/check.py), empty when llama.cpp can load the model as far as
    its header tells. Raises ModelFileError only when there is no card to show: the header is unreadable.
    A split model is read whole: its other parts are found next to `path` as llama.cpp finds them."""
    path = Path(path)
    header = read_header(path)
    meta = header.metadata
    split_index = as_int(meta.get("split.no")) or 0
    if split_index > 0:  # llama.cpp loads a split model from its first part only
        raise ModelFileError("{path_name} is part {part} of a split model: open its first part "
                             "(the file named ...-00001-of-...)", path_name=path.name, part=split_index + 1)
    arch = meta.get("general.architecture")
    if not isinstance(arch, str) or not arch:
        raise ModelFileError("{path_name} has no general.architecture: not a model file", path_name=path.name)
    parts, problems = _split_parts(path, header)
    tensors = [t for _, part in parts for t in part.tensors]
    if not tensors:
        raise ModelFileError("{path_name} holds no tensors (a vocabulary-only file?)", path_name=path.name)
    for part_path, part in parts:
        problems += layout_problems(part, f"{part_path.name}: " if len(parts) > 1 else "")
    problems += model_problems(arch, header, tensors)

    def num(key: str, default: int = 0) -> int:
        value = meta.get(f"{arch}.{key}", default)
        if isinstance(value, list):  # per-layer values (e.g. head_count_kv in some models): take the most common
            value = max(set(value), key=value.count) if value else default
        number = as_int(value)
        return default if number is None else number

    n_head = num("attention.head_count")
    n_embd = num("embedding_length")
    default_head_dim = n_embd // n_head if n_head > 0 else 0
    n_vocab = header.array_lengths.get("tokenizer.ggml.tokens") or num("vocab_size")
    weights = sum(t.n_bytes for t in tensors)
    n_params = sum(t.n_elements for t in tensors)
    template = meta.get("tokenizer.chat_template")
    return ModelCard(
        path=str(path),
        file_size=sum(part.file_size for _, part in parts),
        gguf_version=header.version,
        architecture=arch,
        name=str(meta.get("general.name") or path.stem),
        n_params=n_params,
        file_type=_file_type_name(meta.get("general.file_type")),
        bits_per_weight=round(weights * 8 / n_params, 3) if n_params else 0.0,
        quant_mix=quant_mix(tensors),
        n_layer=num("block_count"),
        n_head=n_head,
        n_head_kv=num("attention.head_count_kv", n_head),  # absent: as many as query heads (llama.cpp's default)
        head_dim_k=num("attention.key_length", default_head_dim) or default_head_dim,
        head_dim_v=num("attention.value_length", default_head_dim) or default_head_dim,
        n_embd=n_embd,
        n_ff=num("feed_forward_length"),
        n_vocab=int(n_vocab),
        tokenizer_model=str(meta.get("tokenizer.ggml.model", "unknown")),
        n_ctx_train=num("context_length"),
        bos_id=_opt_int(meta.get("tokenizer.ggml.bos_token_id")),
        eos_id=_opt_int(meta.get("tokenizer.ggml.eos_token_id")),
        has_chat_template=isinstance(template, str) and bool(template.strip()),
        chat_template=template if isinstance(template, str) else None,
        weights_bytes=weights,
        problems=problems,
    )


def _split_parts(path: Path, header: GGUFHeader) -> tuple[list[tuple[Path, GGUFHeader]], list[str]]:
    """All parts of a split model (`split.count` > 1), found as llama.cpp's loader finds them: the first
    part is named `<prefix>-00001-of-0000N.gguf` and the others `<prefix>-0000i-of-0000N.gguf` beside it."""
    parts = [(path, header)]
    count = as_int(header.metadata.get("split.count")) or 1
    if count <= 1:
        return parts, []
    suffix = f"-00001-of-{count:05d}.gguf"
    if not path.name.endswith(suffix) or path.name == suffix:
        return parts, [f"the first of {count} parts of a split model must be named '<name>{suffix}' for "
                       f"llama.cpp to find the others"]
    prefix = str(path)[:-len(suffix)]
    for i in range(1, count):
        part = Path(f"{prefix}-{i + 1:05d}-of-{count:05d}.gguf")
        if not part.is_file():  # stop at the first gap: a hostile count must not make us look 65,535 times
            return parts, [f"part {i + 1} of {count} of this split model ({part.name}) is missing"]
        try:
            part_header = read_header(part)
        except ModelFileError as exc:
            return parts, [str(exc)]
        if as_int(part_header.metadata.get("split.no")) != i:
            return parts, [f"{part.name} does not say it is part {i + 1} of {count} (split.no)"]
        parts.append((part, part_header))
    expected = as_int(header.metadata.get("split.tensors.count"))
    found = sum(len(h.tensors) for _, h in parts)
    if expected is not None and expected != found:
        return parts, [f"the split model says it has {expected} tensors, its {count} parts hold {found}"]
    return parts, []


def _opt_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _file_type_name(value: Any) -> str:
    try:
        return LlamaFileType(int(value)).name.removeprefix("MOSTLY_").removeprefix("ALL_")
    except (TypeError, ValueError, OverflowError):
        return "unknown"


def quant_mix(tensors: list[TensorInfo]) -> list[QuantShare]:
    """Bytes, elements and bits per weight by tensor type, the biggest share first."""
    shares: dict[str, QuantShare] = {}
    for t in tensors:
        block, type_size = GGML_QUANT_SIZES[GGMLQuantizationType[t.type_name]]
        share = shares.setdefault(t.type_name, QuantShare(t.type_name, type_size * 8 / block, 0, 0, 0))
        share.n_tensors += 1
        share.n_elements += t.n_elements
        share.n_bytes += t.n_bytes
    return sorted(shares.values(), key=lambda s: -s.n_bytes)
