"""The GGUF header, read ourselves without loading any weights.

We parse it (with the `gguf` package's type tables) instead of using `gguf.GGUFReader`: the reader builds
a numpy view for every vocabulary string and takes ~4 s on the 49k-token demo model, where this takes
~0.1 s. Parsing is strict: every count and offset is checked against the file size, so a hostile file
gives a clear `ModelFileError` instead of a hang or a crash.
"""

from __future__ import annotations

import mmap
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gguf import GGML_QUANT_SIZES, GGMLQuantizationType, GGUFValueType

from logitscope.base.errors import ModelFileError
from logitscope.base.messages import Message
from logitscope.base.reading import file_kind

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
        """`what`: a literal, or a Message (translated in the window as the error around it is)."""
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
            raise self.fail(Message("a string claims {length} bytes", length=length))
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
            if length > MAX_STRING or pos + 8 + length > size:
                self.pos = pos   # where the string's length is (not past the end, where it would lead)
                raise self.fail(Message("a string in an array claims {length} bytes", length=length))
            pos += 8 + length
        self.pos = pos

    def value_type(self) -> GGUFValueType:
        raw = self.take("<I")
        try:
            return GGUFValueType(raw)
        except ValueError:
            raise self.fail(Message("unknown metadata value type {raw}", raw=raw)) from None


def read_header(path: str | Path) -> GGUFHeader:
    """Parse the GGUF header: metadata and tensor descriptions. Raises ModelFileError."""
    path = Path(path)
    if not path.exists():
        raise ModelFileError("model file not found: {path}", path=path)
    if path.is_dir():
        raise ModelFileError("{path} is a folder, not a GGUF model file", path=path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):   # a device or a pipe: /dev/zero's size is 0, but it is not "empty"
            raise ModelFileError("{path} is {st_mode}, not a GGUF model file", path=path,
                                 st_mode=file_kind(info.st_mode))
        size = info.st_size
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
        raise cur.fail(Message("unsupported GGUF version {version} (expected 2 or 3)", version=version))
    n_tensors, n_kv = cur.take("<Q"), cur.take("<Q")
    if n_kv > MAX_KV:
        raise cur.fail(Message("absurd metadata count {n_kv}", n_kv=n_kv))
    if n_tensors > MAX_TENSORS:
        raise cur.fail(Message("absurd tensor count {n_tensors}", n_tensors=n_tensors))
    metadata: dict[str, Any] = {}
    array_lengths: dict[str, int] = {}
    value_types: dict[str, GGUFValueType] = {}
    for _ in range(n_kv):
        key = cur.string()
        if not key or key in metadata:  # gguf.c refuses both: which of two values would count?
            raise cur.fail(Message("metadata key {key!r} is empty or appears twice", key=key))
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
            raise cur.fail(Message("tensor {name!r} appears twice", name=tensor.name))
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
        raise cur.fail(Message("general.alignment {value!r} is not a power of 2 stored as uint32", value=value))
    return int(value)


def _read_array(cur: _Cursor, item_type: GGUFValueType, count: int) -> list[Any] | None:
    if item_type == GGUFValueType.ARRAY:
        raise cur.fail("nested arrays are not supported")
    if item_type == GGUFValueType.STRING:
        if count > ARRAY_PREVIEW:
            if count > cur.size // 8:
                raise cur.fail(Message("a string array claims {count} items", count=count))
            cur.skip_strings(count)
            return None
        return [cur.string() for _ in range(count)]
    fmt = _SCALARS[item_type]
    width = struct.calcsize(fmt)
    if count * width > cur.size - cur.pos:
        raise cur.fail(Message("an array claims {count} items, more than the file holds", count=count))
    if count > ARRAY_PREVIEW:
        cur.pos += count * width
        return None
    return [cur.take(fmt) for _ in range(count)]


def _read_tensor(cur: _Cursor) -> TensorInfo:
    raw_name = cur.raw_string()
    name = raw_name.decode("utf-8", errors="replace")
    if len(raw_name) >= GGML_MAX_NAME:
        raise cur.fail(Message("tensor name {name!r} is longer than {most} bytes", name=name[:80], most=GGML_MAX_NAME - 1))
    n_dims = cur.take("<I")
    if not 1 <= n_dims <= MAX_DIMS:
        raise cur.fail(Message("tensor {name!r} has {n_dims} dimensions", name=name, n_dims=n_dims))
    shape = tuple(cur.take("<Q") for _ in range(n_dims))
    raw_type = cur.take("<I")
    offset = cur.take("<Q")  # checked against the file and the other tensors in gguf/check.py
    try:
        qtype = GGMLQuantizationType(raw_type)
        block, type_size = GGML_QUANT_SIZES[qtype]
    except (ValueError, KeyError):
        raise cur.fail(Message("tensor {name!r} has unknown type {raw_type}", name=name, raw_type=raw_type)) from None
    n_elements = 1
    for dim in shape:
        if dim == 0 or dim > 1 << 40:
            raise cur.fail(Message("tensor {name!r} has an absurd dimension {dim}", name=name, dim=dim))
        n_elements *= dim
    if n_elements > 1 << 44:
        raise cur.fail(Message("tensor {name!r} claims {n_elements} elements", name=name, n_elements=n_elements))
    if shape[0] % block:
        raise cur.fail(Message("tensor {name!r} has rows of {n} values, not a multiple of {qtype}'s block of {block}",
                               name=name, n=shape[0], qtype=qtype.name, block=block))
    n_bytes = n_elements // block * type_size
    if n_bytes > cur.size:
        raise cur.fail(Message("tensor {name!r} needs {n_bytes} bytes, more than the whole file", name=name, n_bytes=n_bytes))
    return TensorInfo(name, shape, qtype.name, n_elements, n_bytes, offset)
