"""The model card, read from the GGUF header without loading any weights.

We parse the header ourselves (with the `gguf` package's type tables) instead of using
`gguf.GGUFReader`: the reader builds a numpy view for every vocabulary string and takes ~4 s on the
49k-token demo model, where this takes ~0.1 s. Parsing is strict: every count and offset is checked
against the file size, so a hostile file gives a clear `ModelFileError` instead of a hang or a crash.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gguf import GGML_QUANT_SIZES, GGMLQuantizationType, GGUFValueType, LlamaFileType

from logitscope.engine.gguf_check import as_int, layout_problems, model_problems
from logitscope.errors import DamagedModelError, ModelFileError
from logitscope.messages import Message

GGUF_MAGIC = b"GGUF"
MAX_KV = 1 << 16          # real models have < 100 metadata keys
MAX_TENSORS = 1 << 20     # and < 10k tensors
MAX_DIMS = 4              # GGML_MAX_DIMS
MAX_STRING = 64 << 20     # the longest real string is a chat template of a few KB

_SCALARS: dict[GGUFValueType, str] = {
    GGUFValueType.UINT8: "<B", GGUFValueType.INT8: "<b", GGUFValueType.UINT16: "<H",
    GGUFValueType.INT16: "<h", GGUFValueType.UINT32: "<I", GGUFValueType.INT32: "<i",
    GGUFValueType.FLOAT32: "<f", GGUFValueType.BOOL: "<?", GGUFValueType.UINT64: "<Q",
    GGUFValueType.INT64: "<q", GGUFValueType.FLOAT64: "<d",
}
ARRAY_PREVIEW = 64  # arrays longer than this keep only their length (the vocabulary, merges, ...)
GGML_MAX_NAME = 64        # a tensor name must be shorter (gguf.c refuses the file otherwise)
DEFAULT_ALIGNMENT = 32    # GGUF_DEFAULT_ALIGNMENT, unless general.alignment says otherwise


@dataclass
class TensorInfo:
    name: str
    shape: tuple[int, ...]
    type_name: str
    n_elements: int
    n_bytes: int
    offset: int = 0  # where its data starts, counted from the start of the data section


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
    problems: list[str] = field(default_factory=list)  # why llama.cpp cannot load it (gguf_check); [] if it can

    @property
    def n_offloadable(self) -> int:
        """Layers llama.cpp can put on a GPU: the repeating layers and the output layer."""
        return self.n_layer + 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class GGUFHeader:
    version: int
    metadata: dict[str, Any]
    array_lengths: dict[str, int]
    tensors: list[TensorInfo]
    value_types: dict[str, GGUFValueType] = field(default_factory=dict)  # ARRAY for arrays
    alignment: int = DEFAULT_ALIGNMENT
    data_start: int = 0  # the byte where the tensor data begins (the header's end, aligned)
    file_size: int = 0


class _Cursor:
    """Bounds-checked little-endian reads over a memory map."""

    def __init__(self, buf: mmap.mmap | bytes, path: Path) -> None:
        self.buf, self.pos, self.size, self.path = buf, 0, len(buf), path

    def fail(self, what: str) -> ModelFileError:
        return ModelFileError("{path_name} is not a valid GGUF file: {what} (at byte {pos})", path_name=self.path.name, what=what, pos=self.pos)

    def take(self, fmt: str) -> Any:
        n = struct.calcsize(fmt)
        if self.pos + n > self.size:
            raise self.fail("the file ends in the middle of the header (truncated?)")
        (value,) = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += n
        return value

    def raw_string(self) -> bytes:
        length = self.take("<Q")
        if length > MAX_STRING or self.pos + length > self.size:
            raise self.fail(f"a string claims {length} bytes")
        raw = bytes(self.buf[self.pos:self.pos + length])
        self.pos += length
        return raw

    def string(self) -> str:
        return self.raw_string().decode("utf-8", errors="replace")

    def skip_strings(self, count: int) -> None:
        buf, pos, size = self.buf, self.pos, self.size
        for _ in range(count):
            if pos + 8 > size:
                self.pos = pos
                raise self.fail("the file ends inside a string array (truncated?)")
            (length,) = struct.unpack_from("<Q", buf, pos)
            pos += 8 + length
            if length > MAX_STRING or pos > size:
                self.pos = pos
                raise self.fail(f"a string in an array claims {length} bytes")
        self.pos = pos

    def value_type(self) -> GGUFValueType:
        raw = self.take("<I")
        try:
            return GGUFValueType(raw)
        except ValueError:
            raise self.fail(f"unknown metadata value type {raw}") from None


def read_header(path: str | Path) -> GGUFHeader:
    """Parse the GGUF header: metadata and tensor descriptions. Raises ModelFileError."""
    path = Path(path)
    if not path.exists():
        raise ModelFileError("model file not found: {path}", path=path)
    if path.is_dir():
        raise ModelFileError("{path} is a folder, not a GGUF model file", path=path)
    try:
        size = path.stat().st_size
        if size == 0:
            raise ModelFileError("{path_name} is empty (0 bytes), not a GGUF model file", path_name=path.name)
        with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            return _parse(_Cursor(buf, path), size)
    except PermissionError:
        raise ModelFileError("no permission to read {path}", path=path) from None
    except OSError as exc:
        raise ModelFileError("cannot read {path}: {exc}", path=path, exc=exc.strerror or exc) from None


def _parse(cur: _Cursor, size: int) -> GGUFHeader:
    if size < 24 or bytes(cur.buf[:4]) != GGUF_MAGIC:
        raise ModelFileError("{path_name} is not a GGUF file (it does not start with 'GGUF')", path_name=cur.path.name)
    cur.pos = 4
    version = cur.take("<I")
    if version not in (2, 3):
        raise cur.fail(f"unsupported GGUF version {version} (expected 2 or 3)")
    n_tensors, n_kv = cur.take("<Q"), cur.take("<Q")
    if n_kv > MAX_KV:
        raise cur.fail(f"absurd metadata count {n_kv}")
    if n_tensors > MAX_TENSORS:
        raise cur.fail(f"absurd tensor count {n_tensors}")
    metadata: dict[str, Any] = {}
    array_lengths: dict[str, int] = {}
    value_types: dict[str, GGUFValueType] = {}
    for _ in range(n_kv):
        key = cur.string()
        if not key or key in metadata:  # gguf.c refuses both: which of two values would count?
            raise cur.fail(f"metadata key {key!r} is empty or appears twice")
        vtype = value_types[key] = cur.value_type()
        if vtype == GGUFValueType.ARRAY:
            item_type, count = cur.value_type(), cur.take("<Q")
            array_lengths[key] = count
            metadata[key] = _read_array(cur, item_type, count)
        else:
            metadata[key] = cur.string() if vtype == GGUFValueType.STRING else cur.take(_SCALARS[vtype])
    alignment = _alignment(cur, metadata, value_types)
    tensors: list[TensorInfo] = []
    names: set[str] = set()
    for _ in range(n_tensors):
        tensor = _read_tensor(cur)
        if tensor.name in names:
            raise cur.fail(f"tensor {tensor.name!r} appears twice")
        names.add(tensor.name)
        tensors.append(tensor)
    data_start = -(-cur.pos // alignment) * alignment if tensors else cur.pos
    return GGUFHeader(version, metadata, array_lengths, tensors, value_types, alignment, data_start, size)


def _alignment(cur: _Cursor, metadata: dict[str, Any], value_types: dict[str, GGUFValueType]) -> int:
    """general.alignment as gguf.c takes it: a uint32 power of two, 32 when absent."""
    if "general.alignment" not in metadata:
        return DEFAULT_ALIGNMENT
    value = metadata["general.alignment"]
    if value_types["general.alignment"] != GGUFValueType.UINT32 or value <= 0 or value & (value - 1):
        raise cur.fail(f"general.alignment {value!r} is not a power of 2 stored as uint32")
    return int(value)


def _read_array(cur: _Cursor, item_type: GGUFValueType, count: int) -> list[Any] | None:
    if item_type == GGUFValueType.ARRAY:
        raise cur.fail("nested arrays are not supported")
    if item_type == GGUFValueType.STRING:
        if count > ARRAY_PREVIEW:
            if count > cur.size // 8:
                raise cur.fail(f"a string array claims {count} items")
            cur.skip_strings(count)
            return None
        return [cur.string() for _ in range(count)]
    fmt = _SCALARS[item_type]
    width = struct.calcsize(fmt)
    if count * width > cur.size - cur.pos:
        raise cur.fail(f"an array claims {count} items, more than the file holds")
    if count > ARRAY_PREVIEW:
        cur.pos += count * width
        return None
    return [cur.take(fmt) for _ in range(count)]


def _read_tensor(cur: _Cursor) -> TensorInfo:
    raw_name = cur.raw_string()
    name = raw_name.decode("utf-8", errors="replace")
    if len(raw_name) >= GGML_MAX_NAME:
        raise cur.fail(f"tensor name {name[:80]!r} is longer than {GGML_MAX_NAME - 1} bytes")
    n_dims = cur.take("<I")
    if not 1 <= n_dims <= MAX_DIMS:
        raise cur.fail(f"tensor {name!r} has {n_dims} dimensions")
    shape = tuple(cur.take("<Q") for _ in range(n_dims))
    raw_type = cur.take("<I")
    offset = cur.take("<Q")  # checked against the file and the other tensors in gguf_check
    try:
        qtype = GGMLQuantizationType(raw_type)
        block, type_size = GGML_QUANT_SIZES[qtype]
    except (ValueError, KeyError):
        raise cur.fail(f"tensor {name!r} has unknown type {raw_type}") from None
    n_elements = 1
    for dim in shape:
        if dim == 0 or dim > 1 << 40:
            raise cur.fail(f"tensor {name!r} has an absurd dimension {dim}")
        n_elements *= dim
    if n_elements > 1 << 44:
        raise cur.fail(f"tensor {name!r} claims {n_elements} elements")
    if shape[0] % block:
        raise cur.fail(f"tensor {name!r} has rows of {shape[0]} values, not a multiple of {qtype.name}'s "
                       f"block of {block}")
    n_bytes = n_elements // block * type_size
    if n_bytes > cur.size:
        raise cur.fail(f"tensor {name!r} needs {n_bytes} bytes, more than the whole file")
    return TensorInfo(name, shape, qtype.name, n_elements, n_bytes, offset)


def read_model_card(path: str | Path) -> ModelCard:
    """Model card from the header. Raises ModelFileError for anything that is not a usable model: a
    DamagedModelError, carrying the card, when the header reads but llama.cpp certainly cannot load it."""
    card = inspect_model(path)
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


def inspect_model(path: str | Path) -> ModelCard:
    """The model card with `problems` (see gguf_check), empty when llama.cpp can load the model as far as
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
