"""llama.cpp's control-vector files: read and write them with the `gguf` package (no llama.cpp here).

The format is what llama-cvector-generator writes and llama.cpp's common_control_vector_load reads:
`general.architecture = controlvector`, `controlvector.model_hint` (the model's architecture name),
`controlvector.layer_count`, and one 1-D F32 tensor `direction.N` of n_embd values per layer N (1-based:
direction N is added to the output of layer N; llama.cpp never steers layer 0).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from logitscope.base.errors import InvalidSettingsError

CONTROL_VECTOR_ARCH = "controlvector"
DIRECTION_PREFIX = "direction."
MODEL_HINT_KEY = f"{CONTROL_VECTOR_ARCH}.model_hint"
LAYER_COUNT_KEY = f"{CONTROL_VECTOR_ARCH}.layer_count"
ARCHITECTURE_KEY = "general.architecture"


@dataclass(frozen=True)
class ControlVector:
    """One file's directions by layer (1-based), each n_embd float32 values, unscaled."""

    path: Path
    directions: dict[int, np.ndarray] = field(repr=False)
    n_embd: int
    model_hint: str = ""

    def require_n_embd(self, n_embd: int) -> None:
        """A clear error when the vector was made for a model of another width."""
        if self.n_embd != n_embd:
            raise InvalidSettingsError(
                "the control vector {path} has {n_vector} values per layer, but the model's embedding has "
                "{n_model}: it was made for another model", path=str(self.path), n_vector=self.n_embd,
                n_model=n_embd)


def read_control_vector(path: str | Path) -> ControlVector:
    """The control vector in `path`; one InvalidSettingsError for each kind of bad file."""
    from gguf import GGMLQuantizationType, GGUFReader

    path = Path(path)
    if path.is_dir():
        raise InvalidSettingsError("the control vector {path} is a folder, not a file", path=str(path))
    if not path.exists():
        raise InvalidSettingsError("the control vector {path} does not exist", path=str(path))
    if not path.is_file():   # a named pipe, a device
        raise InvalidSettingsError("the control vector {path} is not a file", path=str(path))
    try:
        reader = GGUFReader(path)
    except Exception as exc:  # the gguf package raises ValueError, struct and index errors alike
        raise InvalidSettingsError("the control vector {path} is not a GGUF file: {reason}",
                                   path=str(path), reason=str(exc)) from None
    arch = _string(reader, ARCHITECTURE_KEY)
    if arch != CONTROL_VECTOR_ARCH:
        raise InvalidSettingsError(
            "{path} is not a control vector: its general.architecture is {arch!r}, not 'controlvector'",
            path=str(path), arch=arch)
    directions: dict[int, np.ndarray] = {}
    n_embd = -1
    for tensor in reader.tensors:
        layer = _layer_of(tensor.name)
        if layer is None:
            raise InvalidSettingsError(
                "the control vector {path} has a tensor {name!r}: control vectors hold only direction.N "
                "tensors, N >= 1", path=str(path), name=tensor.name)
        if tensor.tensor_type != GGMLQuantizationType.F32 or len(tensor.shape) != 1:
            raise InvalidSettingsError("the control vector {path}: {name} must be a 1-D F32 tensor",
                                       path=str(path), name=tensor.name)
        values = np.array(tensor.data, dtype=np.float32).reshape(-1)
        if n_embd == -1:
            n_embd = values.size
        elif values.size != n_embd:
            raise InvalidSettingsError(
                "the control vector {path}: {name} has {n} values, the other layers {n_embd}",
                path=str(path), name=tensor.name, n=values.size, n_embd=n_embd)
        if not np.isfinite(values).all():
            raise InvalidSettingsError("the control vector {path}: {name} holds NaN or infinite values",
                                       path=str(path), name=tensor.name)
        directions[layer] = values
    if not directions:
        raise InvalidSettingsError("the control vector {path} has no direction.N tensors", path=str(path))
    return ControlVector(path, dict(sorted(directions.items())), n_embd, _string(reader, MODEL_HINT_KEY) or "")


def write_control_vector(path: str | Path, directions: dict[int, np.ndarray], model_hint: str) -> Path:
    """Write `directions` (layer N >= 1 -> n_embd values) as llama-cvector-generator does."""
    from gguf import GGUFWriter

    if not directions:
        raise InvalidSettingsError("a control vector needs at least one layer")
    sizes = {np.asarray(v).size for v in directions.values()}
    if len(sizes) != 1 or min(directions) < 1:
        raise InvalidSettingsError("a control vector's layers are numbered from 1 and all have n_embd values")
    if not all(math.isfinite(float(x)) for v in directions.values() for x in (np.min(v), np.max(v))):
        raise InvalidSettingsError("a control vector cannot hold NaN or infinite values")
    path = Path(path).expanduser()
    partial = path.with_name(path.name + ".partial")  # the file appears whole or not at all
    try:
        writer = GGUFWriter(partial, CONTROL_VECTOR_ARCH)
        writer.add_string(MODEL_HINT_KEY, model_hint)
        writer.add_int32(LAYER_COUNT_KEY, len(directions))
        for layer in sorted(directions):
            writer.add_tensor(f"{DIRECTION_PREFIX}{layer}",
                              np.ascontiguousarray(directions[layer], dtype=np.float32).reshape(-1))
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise InvalidSettingsError("cannot write {path}: {reason}", path=str(path),
                                   reason=exc.strerror or str(exc)) from None
    return path


def _layer_of(name: str) -> int | None:
    """N for `direction.N` (N >= 1), as common_control_vector_load parses it; None otherwise."""
    if not name.startswith(DIRECTION_PREFIX):
        return None
    digits = name[len(DIRECTION_PREFIX):]
    return int(digits) if digits.isdigit() and int(digits) >= 1 else None


def _string(reader: Any, key: str) -> str | None:
    value = reader.fields[key].contents() if key in reader.fields else None
    return value if isinstance(value, str) else None
