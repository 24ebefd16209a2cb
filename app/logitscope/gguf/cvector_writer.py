"""Writing a control vector as llama.cpp's GGUF file, with exactly the keys llama-cvector-generator writes
(cvector-generator.cpp export_gguf) and llama.cpp's loader reads (common.cpp llama_control_vector_load_one):
`general.architecture = "controlvector"`, `controlvector.model_hint` (the model's architecture),
`controlvector.layer_count` (the number of direction tensors) and one F32 tensor of n_embd values per layer,
`direction.N` (N from 1: the layer whose output it is added to)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from gguf import GGUFWriter

from logitscope.base.errors import InvalidSettingsError

CVECTOR_ARCH = "controlvector"
MODEL_HINT_KEY = f"{CVECTOR_ARCH}.model_hint"
LAYER_COUNT_KEY = f"{CVECTOR_ARCH}.layer_count"


def direction_name(layer: int) -> str:
    return f"direction.{layer}"


def write_control_vector(path: Path, layers: Sequence[int], directions: np.ndarray, model_hint: str) -> None:
    """Write `directions[i]` as `direction.{layers[i]}`; the file appears whole or not at all (written beside it,
    then renamed)."""
    if len(layers) != len(directions) or not len(layers):
        raise InvalidSettingsError("a control vector needs one direction per layer, and at least one")
    path = path.expanduser()
    partial = path.with_name(path.name + ".partial")
    try:
        writer = GGUFWriter(str(partial), CVECTOR_ARCH)
        writer.add_string(MODEL_HINT_KEY, model_hint)
        writer.add_int32(LAYER_COUNT_KEY, len(layers))
        for layer, direction in zip(layers, directions, strict=True):
            writer.add_tensor(direction_name(layer), np.ascontiguousarray(direction, dtype=np.float32))
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise InvalidSettingsError("cannot write {path}: {reason}", path=str(path),
                                   reason=exc.strerror or str(exc)) from None
